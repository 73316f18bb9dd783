// Sizes, names and the promotion table of ops/dtype.h.
#include "ops/dtype.h"

#include <cstdio>

namespace openacl::ops {

size_t DtypeSize(aclDataType type) {
    switch (type) {
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
            return 1;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16:
            return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
            return 4;
        case ACL_DOUBLE:
        case ACL_INT64:
        case ACL_UINT64:
        case ACL_COMPLEX64:
            return 8;
        case ACL_COMPLEX128:
            return 16;
        default:
            return 0;
    }
}

const char* DtypeName(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return "ACL_FLOAT";
        case ACL_FLOAT16:
            return "ACL_FLOAT16";
        case ACL_BF16:
            return "ACL_BF16";
        case ACL_DOUBLE:
            return "ACL_DOUBLE";
        case ACL_INT8:
            return "ACL_INT8";
        case ACL_UINT8:
            return "ACL_UINT8";
        case ACL_INT16:
            return "ACL_INT16";
        case ACL_UINT16:
            return "ACL_UINT16";
        case ACL_INT32:
            return "ACL_INT32";
        case ACL_UINT32:
            return "ACL_UINT32";
        case ACL_INT64:
            return "ACL_INT64";
        case ACL_UINT64:
            return "ACL_UINT64";
        case ACL_BOOL:
            return "ACL_BOOL";
        case ACL_STRING:
            return "ACL_STRING";
        case ACL_COMPLEX64:
            return "ACL_COMPLEX64";
        case ACL_COMPLEX128:
            return "ACL_COMPLEX128";
        case ACL_COMPLEX32:
            return "ACL_COMPLEX32";
        case ACL_INT4:
            return "ACL_INT4";
        case ACL_UINT1:
            return "ACL_UINT1";
        case ACL_HIFLOAT8:
            return "ACL_HIFLOAT8";
        case ACL_FLOAT8_E5M2:
            return "ACL_FLOAT8_E5M2";
        case ACL_FLOAT8_E4M3FN:
            return "ACL_FLOAT8_E4M3FN";
        case ACL_FLOAT8_E8M0:
            return "ACL_FLOAT8_E8M0";
        case ACL_FLOAT6_E3M2:
            return "ACL_FLOAT6_E3M2";
        case ACL_FLOAT6_E2M3:
            return "ACL_FLOAT6_E2M3";
        case ACL_FLOAT4_E2M1:
            return "ACL_FLOAT4_E2M1";
        case ACL_FLOAT4_E1M2:
            return "ACL_FLOAT4_E1M2";
        case ACL_DT_UNDEFINED:
            return "ACL_DT_UNDEFINED";
        default:
            break;
    }
    static thread_local char text[32];
    std::snprintf(text, sizeof text, "aclDataType(%d)", static_cast<int>(type));
    return text;
}

bool IsFloating(aclDataType type) {
    return type == ACL_FLOAT16 || type == ACL_BF16 || type == ACL_FLOAT || type == ACL_DOUBLE;
}

bool IsIntegral(aclDataType type) {
    switch (type) {
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_INT16:
        case ACL_UINT16:
        case ACL_INT32:
        case ACL_UINT32:
        case ACL_INT64:
        case ACL_UINT64:
            return true;
        default:
            return false;
    }
}

bool IsComplex(aclDataType type) {
    return type == ACL_COMPLEX64 || type == ACL_COMPLEX128 || type == ACL_COMPLEX32;
}

bool IsUnsignedWide(aclDataType type) {
    return type == ACL_UINT16 || type == ACL_UINT32 || type == ACL_UINT64;
}

namespace {

// Integer width in bytes and signedness, for the integer half of the table.
bool IsSigned(aclDataType type) {
    return type == ACL_INT8 || type == ACL_INT16 || type == ACL_INT32 || type == ACL_INT64;
}

aclDataType SignedOfSize(size_t bytes) {
    switch (bytes) {
        case 1:
            return ACL_INT8;
        case 2:
            return ACL_INT16;
        case 4:
            return ACL_INT32;
        default:
            return ACL_INT64;
    }
}

// Rank of a floating type's range and precision: float16 and bfloat16 tie (and meet in float).
int FloatRank(aclDataType type) {
    switch (type) {
        case ACL_FLOAT16:
        case ACL_BF16:
            return 1;
        case ACL_FLOAT:
            return 2;
        default:
            return 3;  // double
    }
}

}  // namespace

bool PromoteTypes(aclDataType a, aclDataType b, aclDataType* result) {
    if (DtypeSize(a) == 0 || DtypeSize(b) == 0) return false;
    if (a == b) return *result = a, true;
    if (a == ACL_BOOL) return *result = b, true;
    if (b == ACL_BOOL) return *result = a, true;
    if (IsUnsignedWide(a) || IsUnsignedWide(b)) return false;
    if (IsComplex(a) || IsComplex(b)) {
        // Complex wins; its precision follows the wider of the two.
        const bool wide =
            a == ACL_COMPLEX128 || b == ACL_COMPLEX128 || a == ACL_DOUBLE || b == ACL_DOUBLE;
        return *result = wide ? ACL_COMPLEX128 : ACL_COMPLEX64, true;
    }
    if (IsFloating(a) || IsFloating(b)) {
        if (!IsFloating(a)) return *result = b, true;
        if (!IsFloating(b)) return *result = a, true;
        const int ra = FloatRank(a), rb = FloatRank(b);
        if (ra == rb) return *result = ACL_FLOAT, true;  // float16 with bfloat16
        return *result = ra > rb ? a : b, true;
    }
    // Two different integer types (only int8..int64 and uint8 remain here).
    const size_t sa = DtypeSize(a), sb = DtypeSize(b);
    if (IsSigned(a) == IsSigned(b)) return *result = sa >= sb ? a : b, true;
    // uint8 with a signed type: a signed type wide enough for both.
    const size_t unsigned_size = IsSigned(a) ? sb : sa, signed_size = IsSigned(a) ? sa : sb;
    *result = SignedOfSize(signed_size > unsigned_size ? signed_size : unsigned_size * 2);
    return true;
}

bool PromoteWithScalar(aclDataType tensor, aclDataType scalar, aclDataType* result) {
    if (DtypeSize(tensor) == 0 || DtypeSize(scalar) == 0) return false;
    if (IsComplex(tensor)) return *result = tensor, true;
    if (IsComplex(scalar)) return *result = ACL_COMPLEX64, true;
    if (IsFloating(tensor)) return *result = tensor, true;
    if (IsFloating(scalar)) return *result = ACL_FLOAT, true;
    if (tensor == ACL_BOOL) return *result = scalar, true;
    return *result = tensor, true;
}

bool CanCast(aclDataType from, aclDataType to) {
    if (from == to || from == ACL_BOOL) return true;
    if (to == ACL_BOOL) return false;
    if (IsComplex(from)) return IsComplex(to);
    if (IsFloating(from)) return !IsIntegral(to);
    return true;  // integers to integers, floats and complex
}

}  // namespace openacl::ops
