// Reading and writing elements of any operator dtype as one of the four types kernels compute
// in (float, double, int32_t, int64_t): a run of n elements `stride` bytes apart is converted
// into (out of) a contiguous buffer, the type switch outside the loop. float16 and bfloat16
// round to nearest even; a floating value written to an integer type is truncated toward zero
// and saturates (NaN gives 0), so no conversion is undefined behaviour.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "acl/acl_base.h"
#include "core/float16.h"
#include "ops/half_runs.h"

namespace openacl::ops {

inline uint16_t FloatToHalf(float value) {
    uint32_t bits = std::bit_cast<uint32_t>(value);
    const uint32_t sign = (bits >> 16) & 0x8000u;
    bits &= 0x7fffffffu;
    if (bits >= 0x47800000u) {  // 2^16 and beyond, infinities and NaNs
        return static_cast<uint16_t>(sign | (bits > 0x7f800000u ? 0x7e00u : 0x7c00u));
    }
    if (bits < 0x38800000u) {  // below 2^-14: a subnormal half (or zero)
        // Adding 0.5 aligns the half's quantum (2^-24) with the float's last bit, and the
        // float addition rounds to nearest even for us.
        const float aligned = std::bit_cast<float>(bits) + 0.5f;
        return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(aligned) - 0x3f000000u));
    }
    const uint32_t odd = (bits >> 13) & 1u;  // ties go to the even neighbour
    bits += 0xc8000fffu + odd;               // rebias the exponent (-112 << 23) and round
    return static_cast<uint16_t>(sign | (bits >> 13));
}

inline uint16_t FloatToBf16(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

// A floating value as integer type I: truncated, saturated, NaN as 0.
template <typename I, typename F>
inline I FloatToInt(F value) {
    if (std::isnan(value)) return 0;
    constexpr F lo = static_cast<F>(std::numeric_limits<I>::min());
    constexpr F hi = static_cast<F>(std::numeric_limits<I>::max());
    if (value <= lo) return std::numeric_limits<I>::min();
    if (value >= hi) return std::numeric_limits<I>::max();
    return static_cast<I>(value);
}

// The dtype whose storage is C itself (no conversion needed).
template <typename C>
constexpr aclDataType NativeDtype() {
    if constexpr (std::is_same_v<C, float>) return ACL_FLOAT;
    if constexpr (std::is_same_v<C, double>) return ACL_DOUBLE;
    if constexpr (std::is_same_v<C, int32_t>) return ACL_INT32;
    return ACL_INT64;
}

template <typename T>
inline T LoadRaw(const char* p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

template <typename C, typename T>
inline void LoadRun(const char* p, int64_t stride, int64_t n, C* out) {
    for (int64_t i = 0; i < n; ++i)
        out[i] = static_cast<C>(LoadRaw<T>(p + i * stride));
}

// out[0..n) = the n elements of `type` from p, `stride` bytes apart, as C.
template <typename C>
void Load(const char* p, int64_t stride, aclDataType type, int64_t n, C* out) {
    switch (type) {
        case ACL_FLOAT:
            return LoadRun<C, float>(p, stride, n, out);
        case ACL_DOUBLE:
            return LoadRun<C, double>(p, stride, n, out);
        case ACL_INT8:
            return LoadRun<C, int8_t>(p, stride, n, out);
        case ACL_UINT8:
            return LoadRun<C, uint8_t>(p, stride, n, out);
        case ACL_INT16:
            return LoadRun<C, int16_t>(p, stride, n, out);
        case ACL_UINT16:
            return LoadRun<C, uint16_t>(p, stride, n, out);
        case ACL_INT32:
            return LoadRun<C, int32_t>(p, stride, n, out);
        case ACL_UINT32:
            return LoadRun<C, uint32_t>(p, stride, n, out);
        case ACL_INT64:
            return LoadRun<C, int64_t>(p, stride, n, out);
        case ACL_UINT64:
            return LoadRun<C, uint64_t>(p, stride, n, out);
        case ACL_BOOL:
            for (int64_t i = 0; i < n; ++i)
                out[i] = p[i * stride] != 0 ? C{1} : C{0};
            return;
        case ACL_FLOAT16:
            if constexpr (std::is_same_v<C, float>) {
                if (stride == 2 && n >= 8 && HalfRunToFloats(p, n, out)) return;
            }
            for (int64_t i = 0; i < n; ++i) {
                out[i] = static_cast<C>(f16::HalfToFloat(LoadRaw<uint16_t>(p + i * stride)));
            }
            return;
        case ACL_BF16:
            for (int64_t i = 0; i < n; ++i) {
                out[i] = static_cast<C>(f16::Bf16ToFloat(LoadRaw<uint16_t>(p + i * stride)));
            }
            return;
        default:
            for (int64_t i = 0; i < n; ++i)
                out[i] = C{0};  // callers refuse other types first
    }
}

template <typename T>
inline void StoreRaw(char* p, T value) {
    std::memcpy(p, &value, sizeof value);
}

template <typename T, typename C>
inline T ConvertTo(C value) {
    if constexpr (std::is_floating_point_v<C> && std::is_integral_v<T>) {
        return FloatToInt<T>(value);
    } else {
        return static_cast<T>(value);
    }
}

template <typename T, typename C>
inline void StoreRun(const C* in, int64_t n, char* p, int64_t stride) {
    for (int64_t i = 0; i < n; ++i)
        StoreRaw<T>(p + i * stride, ConvertTo<T>(in[i]));
}

// Writes in[0..n) as `type` to p, `stride` bytes apart.
template <typename C>
void Store(const C* in, int64_t n, char* p, int64_t stride, aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return StoreRun<float>(in, n, p, stride);
        case ACL_DOUBLE:
            return StoreRun<double>(in, n, p, stride);
        case ACL_INT8:
            return StoreRun<int8_t>(in, n, p, stride);
        case ACL_UINT8:
            return StoreRun<uint8_t>(in, n, p, stride);
        case ACL_INT16:
            return StoreRun<int16_t>(in, n, p, stride);
        case ACL_UINT16:
            return StoreRun<uint16_t>(in, n, p, stride);
        case ACL_INT32:
            return StoreRun<int32_t>(in, n, p, stride);
        case ACL_UINT32:
            return StoreRun<uint32_t>(in, n, p, stride);
        case ACL_INT64:
            return StoreRun<int64_t>(in, n, p, stride);
        case ACL_UINT64:
            return StoreRun<uint64_t>(in, n, p, stride);
        case ACL_BOOL:
            for (int64_t i = 0; i < n; ++i)
                p[i * stride] = in[i] != C{0} ? 1 : 0;
            return;
        case ACL_FLOAT16:
            if constexpr (std::is_same_v<C, float>) {
                if (stride == 2 && n >= 8 && FloatRunToHalfs(in, n, p)) return;
            }
            for (int64_t i = 0; i < n; ++i) {
                StoreRaw<uint16_t>(p + i * stride, FloatToHalf(static_cast<float>(in[i])));
            }
            return;
        case ACL_BF16:
            for (int64_t i = 0; i < n; ++i) {
                StoreRaw<uint16_t>(p + i * stride, FloatToBf16(static_cast<float>(in[i])));
            }
            return;
        default:
            return;
    }
}

}  // namespace openacl::ops
