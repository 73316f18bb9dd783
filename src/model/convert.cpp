#include "model/convert.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace openacl::model {

uint16_t FloatToHalf(float value) {
    uint32_t bits = std::bit_cast<uint32_t>(value);
    uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    uint32_t exponent = (bits >> 23) & 0xffu;
    uint32_t mantissa = bits & 0x7fffffu;
    if (exponent == 0xff) {  // infinity or NaN (keep NaN quiet and non-zero)
        return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0));
    }
    int32_t e = static_cast<int32_t>(exponent) - 127 + 15;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> infinity
    if (e <= 0) {                                               // subnormal or zero
        if (e < -10) return sign;
        mantissa |= 0x800000u;
        uint32_t shift = static_cast<uint32_t>(14 - e);
        uint32_t half = mantissa >> shift;
        uint32_t rest = mantissa & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
        return static_cast<uint16_t>(sign | half);
    }
    uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
    uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry into exponent
    return static_cast<uint16_t>(sign | half);
}

float HalfToFloat(uint16_t value) {
    uint32_t sign = static_cast<uint32_t>(value & 0x8000u) << 16;
    uint32_t exponent = (value >> 10) & 0x1fu;
    uint32_t mantissa = value & 0x3ffu;
    uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {  // subnormal: normalise
        int32_t e = -1;
        do {
            ++e;
            mantissa <<= 1;
        } while ((mantissa & 0x400u) == 0);
        bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mantissa & 0x3ffu) << 13);
    }
    return std::bit_cast<float>(bits);
}

namespace {

template <typename To>
To Saturate(double v) {
    if constexpr (std::is_same_v<To, bool>) {
        return v != 0.0;
    } else if constexpr (std::is_floating_point_v<To>) {
        return static_cast<To>(v);
    } else {
        if (std::isnan(v)) return To{0};
        if (v <= static_cast<double>(std::numeric_limits<To>::lowest())) {
            return std::numeric_limits<To>::lowest();
        }
        if (v >= static_cast<double>(std::numeric_limits<To>::max())) {
            return std::numeric_limits<To>::max();
        }
        return static_cast<To>(v);
    }
}

double Load(aclDataType type, const void* src, size_t i) {
    switch (type) {
        case ACL_FLOAT:
            return static_cast<const float*>(src)[i];
        case ACL_FLOAT16:
            return HalfToFloat(static_cast<const uint16_t*>(src)[i]);
        case ACL_DOUBLE:
            return static_cast<const double*>(src)[i];
        case ACL_INT8:
            return static_cast<const int8_t*>(src)[i];
        case ACL_UINT8:
            return static_cast<const uint8_t*>(src)[i];
        case ACL_INT16:
            return static_cast<const int16_t*>(src)[i];
        case ACL_UINT16:
            return static_cast<const uint16_t*>(src)[i];
        case ACL_INT32:
            return static_cast<const int32_t*>(src)[i];
        case ACL_UINT32:
            return static_cast<const uint32_t*>(src)[i];
        case ACL_INT64:
            return static_cast<double>(static_cast<const int64_t*>(src)[i]);
        case ACL_UINT64:
            return static_cast<double>(static_cast<const uint64_t*>(src)[i]);
        case ACL_BOOL:
            return static_cast<const uint8_t*>(src)[i] != 0 ? 1.0 : 0.0;
        default:
            return 0.0;
    }
}

void Store(aclDataType type, void* dst, size_t i, double v) {
    switch (type) {
        case ACL_FLOAT:
            static_cast<float*>(dst)[i] = static_cast<float>(v);
            break;
        case ACL_FLOAT16:
            static_cast<uint16_t*>(dst)[i] = FloatToHalf(static_cast<float>(v));
            break;
        case ACL_DOUBLE:
            static_cast<double*>(dst)[i] = v;
            break;
        case ACL_INT8:
            static_cast<int8_t*>(dst)[i] = Saturate<int8_t>(v);
            break;
        case ACL_UINT8:
            static_cast<uint8_t*>(dst)[i] = Saturate<uint8_t>(v);
            break;
        case ACL_INT16:
            static_cast<int16_t*>(dst)[i] = Saturate<int16_t>(v);
            break;
        case ACL_UINT16:
            static_cast<uint16_t*>(dst)[i] = Saturate<uint16_t>(v);
            break;
        case ACL_INT32:
            static_cast<int32_t*>(dst)[i] = Saturate<int32_t>(v);
            break;
        case ACL_UINT32:
            static_cast<uint32_t*>(dst)[i] = Saturate<uint32_t>(v);
            break;
        case ACL_INT64:
            static_cast<int64_t*>(dst)[i] = Saturate<int64_t>(v);
            break;
        case ACL_UINT64:
            static_cast<uint64_t*>(dst)[i] = Saturate<uint64_t>(v);
            break;
        case ACL_BOOL:
            static_cast<uint8_t*>(dst)[i] = v != 0.0 ? 1 : 0;
            break;
        default:
            break;
    }
}

bool Numeric(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
        case ACL_FLOAT16:
        case ACL_DOUBLE:
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_INT16:
        case ACL_UINT16:
        case ACL_INT32:
        case ACL_UINT32:
        case ACL_INT64:
        case ACL_UINT64:
        case ACL_BOOL:
            return true;
        default:
            return false;
    }
}

}  // namespace

bool CanConvert(aclDataType from, aclDataType to) {
    return Numeric(from) && Numeric(to);
}

void ConvertElements(aclDataType from, const void* src, aclDataType to, void* dst, size_t count) {
    if (from == to) {
        std::memcpy(dst, src, count * aclDataTypeSize(from));
        return;
    }
    // The two conversions on the hot path (float16 boundaries) skip the generic route.
    if (from == ACL_FLOAT16 && to == ACL_FLOAT) {
        auto* s = static_cast<const uint16_t*>(src);
        auto* d = static_cast<float*>(dst);
        for (size_t i = 0; i < count; ++i)
            d[i] = HalfToFloat(s[i]);
        return;
    }
    if (from == ACL_FLOAT && to == ACL_FLOAT16) {
        auto* s = static_cast<const float*>(src);
        auto* d = static_cast<uint16_t*>(dst);
        for (size_t i = 0; i < count; ++i)
            d[i] = FloatToHalf(s[i]);
        return;
    }
    for (size_t i = 0; i < count; ++i)
        Store(to, dst, i, Load(from, src, i));
}

}  // namespace openacl::model
