// aclCreateScalar / aclDestroyScalar, and reading a scalar's value in the type an operator
// computes in.
#include <cstring>

#include "aclnn/objects.h"
#include "aclnn/op_checks.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "core/float16.h"
#include "ops/dtype.h"
#include "ops/element.h"

using openacl::Fail;

namespace {

template <typename T>
T Read(const unsigned char* bytes) {
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

}  // namespace

double aclScalar::ToDouble() const {
    switch (dtype) {
        case ACL_FLOAT:
            return Read<float>(bytes);
        case ACL_DOUBLE:
            return Read<double>(bytes);
        case ACL_FLOAT16:
            return openacl::f16::HalfToFloat(Read<uint16_t>(bytes));
        case ACL_BF16:
            return openacl::f16::Bf16ToFloat(Read<uint16_t>(bytes));
        case ACL_COMPLEX64:
            return Read<float>(bytes);
        case ACL_COMPLEX128:
            return Read<double>(bytes);
        case ACL_UINT64:
            return static_cast<double>(Read<uint64_t>(bytes));
        default:
            return static_cast<double>(ToInt64());
    }
}

int64_t aclScalar::ToInt64() const {
    switch (dtype) {
        case ACL_BOOL:
            return bytes[0] != 0 ? 1 : 0;
        case ACL_INT8:
            return Read<int8_t>(bytes);
        case ACL_UINT8:
            return Read<uint8_t>(bytes);
        case ACL_INT16:
            return Read<int16_t>(bytes);
        case ACL_UINT16:
            return Read<uint16_t>(bytes);
        case ACL_INT32:
            return Read<int32_t>(bytes);
        case ACL_UINT32:
            return Read<uint32_t>(bytes);
        case ACL_INT64:
            return Read<int64_t>(bytes);
        case ACL_UINT64:
            return static_cast<int64_t>(Read<uint64_t>(bytes));  // wraps
        default:
            return openacl::ops::FloatToInt<int64_t>(ToDouble());
    }
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
    OPENACL_API();
    if (value == nullptr) {
        Fail(ACLNN_ERR_PARAM_NULLPTR, "value is null: a scalar is copied from host memory");
        return nullptr;
    }
    const size_t size = openacl::ops::DtypeSize(dataType);
    if (size == 0) {
        Fail(ACLNN_ERR_PARAM_INVALID,
             "dataType is %s: scalars are bool, integer, floating or complex types",
             openacl::ops::DtypeName(dataType));
        return nullptr;
    }
    auto* scalar = new aclScalar;
    scalar->dtype = dataType;
    std::memcpy(scalar->bytes, value, size);
    return scalar;
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
    OPENACL_API();
    if (scalar == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = openacl::aclnn::CheckScalarObject(scalar, "scalar"); rc != 0) return rc;
    auto* owned = const_cast<aclScalar*>(scalar);
    owned->magic = openacl::aclnn::kDeadMagic;
    delete owned;
    return ACLNN_SUCCESS;
}
