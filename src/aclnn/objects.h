// The objects of aclnn/acl_meta.h as nnopbase keeps them: tensors (view descriptors over
// device memory they never own), scalars, int/float/bool arrays and tensor/scalar lists. Each
// carries a magic number, so a destroyed or foreign pointer is reported, not followed.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnn/acl_meta.h"

namespace openacl::aclnn {

enum Magic : uint32_t {
    kTensorMagic = 0x6e6e5431,  // "nnT1"
    kScalarMagic = 0x6e6e5331,
    kIntArrayMagic = 0x6e6e4931,
    kFloatArrayMagic = 0x6e6e4631,
    kBoolArrayMagic = 0x6e6e4231,
    kTensorListMagic = 0x6e6e4c31,
    kScalarListMagic = 0x6e6e5331 ^ 0x100,
    kExecutorMagic = 0x6e6e4531,
    kDeadMagic = 0xdeadbeef,
};

}  // namespace openacl::aclnn

struct aclTensor {
    uint32_t magic = openacl::aclnn::kTensorMagic;
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_ND;
    std::vector<int64_t> shape;    // the view's
    std::vector<int64_t> strides;  // elements, one per view dimension
    int64_t offset = 0;            // elements from data to the view's first element
    std::vector<int64_t> storage;  // the shape of the memory behind the view
    void* data = nullptr;          // device address of the storage
};

struct aclScalar {
    uint32_t magic = openacl::aclnn::kScalarMagic;
    aclDataType dtype = ACL_DT_UNDEFINED;
    unsigned char bytes[16] = {};  // the value as the caller's dtype stores it

    // The value as a double (a complex scalar's real part).
    double ToDouble() const;
    // The value as an integer (floating values truncated toward zero, saturated).
    int64_t ToInt64() const;
};

struct aclIntArray {
    uint32_t magic = openacl::aclnn::kIntArrayMagic;
    std::vector<int64_t> values;
};

struct aclFloatArray {
    uint32_t magic = openacl::aclnn::kFloatArrayMagic;
    std::vector<float> values;
};

struct aclBoolArray {
    uint32_t magic = openacl::aclnn::kBoolArrayMagic;
    std::vector<bool> values;
};

struct aclTensorList {
    uint32_t magic = openacl::aclnn::kTensorListMagic;
    std::vector<aclTensor*> tensors;  // owned
};

struct aclScalarList {
    uint32_t magic = openacl::aclnn::kScalarListMagic;
    std::vector<aclScalar*> scalars;  // owned
};
