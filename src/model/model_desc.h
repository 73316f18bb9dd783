// What a loaded model looks like from outside (aclmdlDesc): its inputs and outputs with names,
// types, formats, dims and buffer sizes, and its dynamic batch / image-size gears. Built from
// the ONNX graph and the options atc decided.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"
#include "model/om_file.h"
#include "model/onnx_graph.h"

namespace openacl::model {

struct IoDesc {
    std::string name;
    aclDataType type = ACL_DT_UNDEFINED;        // what the caller's buffer holds
    aclDataType graph_type = ACL_DT_UNDEFINED;  // what the graph takes or gives
    aclFormat format = ACL_FORMAT_ND;
    std::vector<int64_t> dims;      // as declared: -1 for a dynamic dimension, {-2} unknown rank
    std::vector<int64_t> max_dims;  // dims at the largest gear (what sizes are computed from)
    size_t size = 0;                // bytes of a buffer for max_dims; 0 when not bounded
    bool dynamic_tensor = false;    // the ACL_DYNAMIC_TENSOR_NAME input atc adds
};

struct ModelDescription {
    std::vector<IoDesc> inputs;  // graph inputs, then the dynamic tensor input if any
    std::vector<IoDesc> outputs;
    std::vector<uint64_t> batch_gears;              // dynamic batch sizes, ascending
    std::vector<std::array<uint64_t, 2>> hw_gears;  // dynamic (height, width) pairs
    // --dynamic_dims: per gear, every graph input's dims (the -1s filled from the gear).
    std::vector<std::vector<std::vector<int64_t>>> dims_gears;
    size_t graph_input_count = 0;  // inputs the graph itself has

    // Whether the model has gears of any kind (then the dynamic tensor input too).
    bool has_gears() const {
        return !batch_gears.empty() || !hw_gears.empty() || !dims_gears.empty();
    }
};

// Builds the description. False with *error (and *code, the aclError to report) when the
// options do not fit the graph or a type has no ACL counterpart.
bool BuildDescription(const std::string& onnx, const GraphInfo& graph, const OmOptions& options,
                      ModelDescription* out, std::string* error, aclError* code);

// Dims gear `gear` as aclmdlGetInputDynamicDims lists it and aclmdlSetInputDynamicDims takes it:
// every graph input's dims, one after the other.
std::vector<int64_t> FlatGearDims(const ModelDescription& desc, size_t gear);

// The dims of input `index` for a batch or (h, w) gear (0 = not dynamic in that way).
std::vector<int64_t> GearDims(const IoDesc& io, aclFormat format, uint64_t batch, uint64_t h,
                              uint64_t w);

// "[1,3,224,224]": dims as messages show them.
std::string DimsText(const std::vector<int64_t>& dims);

// Bytes of a tensor of `type` with static `dims` (0 if any dim is negative).
size_t TensorBytes(aclDataType type, const std::vector<int64_t>& dims);

}  // namespace openacl::model

// The descriptor users hold: a snapshot of a model's description, and the model it came from
// (0 for aclmdlGetDescFromFile / FromMem) so aclmdlGetCurOutputDims can ask it.
struct aclmdlDesc {
    openacl::model::ModelDescription description;
    uint32_t model_id = 0;
    bool filled = false;
};
