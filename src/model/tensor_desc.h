// Tensor descriptors (aclTensorDesc): a data type, a format and a shape, plus the optional
// attributes the operator and model APIs attach (name, ranges, constant data, placement).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base_mdl.h"

struct aclTensorDesc {
    aclDataType data_type = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_UNDEFINED;
    std::vector<int64_t> dims;  // -1: dynamic dimension; {-2}: unknown rank
    aclFormat origin_format = ACL_FORMAT_UNDEFINED;
    std::vector<int64_t> origin_dims;
    std::string name;
    std::vector<std::array<int64_t, 2>> shape_range;
    std::vector<std::array<int64_t, 2>> value_range;
    std::string dynamic_input_name;
    std::vector<uint8_t> const_data;
    bool is_const = false;
    aclMemType placement = ACL_MEMTYPE_DEVICE;
};

namespace openacl::model {

// Creates a registered descriptor (nullptr when out of memory); every aclTensorDesc the
// runtime hands out comes from here, so IsLiveTensorDesc can vouch for it.
aclTensorDesc* NewTensorDesc(aclDataType type, std::vector<int64_t> dims, aclFormat format);
aclTensorDesc* CloneTensorDesc(const aclTensorDesc& desc);
void DeleteTensorDesc(const aclTensorDesc* desc);
bool IsLiveTensorDesc(const aclTensorDesc* desc);

// A registered copy that a container (a dataset) owns and frees with DeleteTensorDesc:
// aclDestroyTensorDesc refuses it, so the container is never left with a dangling pointer.
aclTensorDesc* CloneOwnedTensorDesc(const aclTensorDesc& desc);
bool IsOwnedTensorDesc(const aclTensorDesc* desc);

// Element count of a static shape; 0 when any dimension is negative (dynamic or unknown rank)
// or when the count does not fit in size_t. The empty shape (a scalar) has one element.
size_t ElementCount(const std::vector<int64_t>& dims);

}  // namespace openacl::model
