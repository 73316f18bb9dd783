// A single-operator call as AscendCL describes it (acl_op.h): an operator type, the tensor
// descriptions of its inputs and outputs in the operator's IR order, and its attributes. The
// same description is what a single-operator model records (atc --singleop) and what a call
// must match to find one, so the model store, the planner and the API share it. Everything is
// held by value: the caller's aclTensorDesc and aclopAttr objects may go once a call returns.
//
// This header and op_desc.cpp depend on no runtime state: tools/atc compiles them too.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/op_attr.h"

namespace openacl::op {

inline constexpr int64_t kDynamicDim = -1;      // a dimension known only at run time
inline constexpr int64_t kUnknownRankDim = -2;  // dims {-2}: not even the rank is known

struct TensorSpec {
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_UNDEFINED;
    std::vector<int64_t> dims;  // [] is a scalar
    // Per dimension [min, max] of a dynamic shape (max -1: unbounded); empty when not given.
    std::vector<std::array<int64_t, 2>> shape_range;
    std::string name;
    // A constant input (aclSetTensorConst, or is_const/const_value in a model): its bytes.
    bool is_const = false;
    std::vector<uint8_t> const_data;
    aclMemType placement = ACL_MEMTYPE_DEVICE;
    // The input's value when the planner may read it: the constant's bytes, or the bytes of a
    // host-placed input's buffer (aclSetTensorPlaceMent(ACL_MEMTYPE_HOST)). Part of what a plan
    // is cached by, since shapes (Transpose's perm, ReduceSum's axes) depend on it.
    bool has_value = false;
    std::vector<uint8_t> value;

    // An unused optional input: aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr,
    // ACL_FORMAT_UNDEFINED).
    bool absent() const { return dtype == ACL_DT_UNDEFINED; }
    bool host() const { return placement != ACL_MEMTYPE_DEVICE; }
    // No -1 or -2 dimension.
    bool is_static() const;
    // Elements of a static shape (1 for a scalar); -1 when the shape is not static.
    int64_t numel() const;
};

struct OpDesc {
    std::string type;
    std::vector<TensorSpec> inputs;
    std::vector<TensorSpec> outputs;
    aclopAttr attr;  // a copy; an absent set is the empty set
};

// Bytes per element of the types a single operator can describe; 0 for the others (strings,
// sub-byte and 8-bit float types, undefined).
size_t ElementSize(aclDataType type);

// Names as single-op JSON files spell them ("float16", "ND"); nullptr when there is none.
const char* DtypeJsonName(aclDataType type);
const char* FormatJsonName(aclFormat format);
// The reverse, case-insensitive, with CANN's aliases ("half", "fp16", "float32"). False when
// the name is unknown.
bool DtypeFromJsonName(const std::string& name, aclDataType* type);
bool FormatFromJsonName(const std::string& name, aclFormat* format);

// A key equal for calls that match exactly: the type, each input's data type, format, shape,
// placement and constant value, each output's data type, format and (with output_dims) shape,
// and the attributes' canonical text. Host-placed inputs' values are not part of it.
std::string DescKey(const OpDesc& desc, bool output_dims);

// "float16 ND [2, 3]" (with "host"/"const" when so), for messages.
std::string SpecText(const TensorSpec& spec);
// "Add(x1: float16 ND [2, 3], x2: ...) -> (float16 ND [2, 3]) {alpha: float = 1}".
std::string DescText(const OpDesc& desc);

}  // namespace openacl::op
