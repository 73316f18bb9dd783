// What the runtime needs to know about an ONNX graph: its real inputs (initializers excluded)
// and outputs with element types and shapes, the operators it uses, and its opset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_base_rt.h"

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace openacl::model {

struct ValueInfo {
    std::string name;
    int32_t onnx_type = 0;                // onnx::TensorProto::DataType
    aclDataType type = ACL_DT_UNDEFINED;  // the same type in ACL's words
    std::vector<int64_t> dims;            // -1 for a symbolic or unknown dimension
    bool has_shape = false;               // false: the graph does not say (unknown rank)
};

struct GraphInfo {
    std::string name;                   // the graph's own name (may be empty)
    std::vector<ValueInfo> inputs;      // graph inputs that are not initializers, in graph order
    std::vector<ValueInfo> outputs;     // graph outputs, in graph order
    std::vector<std::string> op_types;  // distinct operator types, sorted ("Conv", "Relu", ...)
    int64_t opset = 0;                  // default-domain opset
    std::string producer;               // producer_name, e.g. "pytorch"
};

// Parses a serialized ModelProto. False with *error when the bytes are not a usable ONNX model.
bool ReadOnnxGraph(const void* data, size_t size, GraphInfo* out, std::string* error);

// ONNX shape inference with the inputs fixed to input_dims (graph order, all static): fills
// output_dims (graph order). Dimensions it cannot infer stay -1. False with *error when the
// graph rejects those shapes.
bool InferOutputDims(const std::string& onnx, const std::vector<std::vector<int64_t>>& input_dims,
                     std::vector<std::vector<int64_t>>* output_dims, std::string* error);

// ONNX's shape inference as the compiler and the descriptions run it: types not checked (old
// exporters' Constant nodes fail that check), constant data propagated, and an inconsistency
// thrown (std::exception) rather than ignored.
void InferShapesPropagatingData(onnx::ModelProto* model);

// Rewrites the declared shapes of the named graph inputs (what atc's --input_shape decided; -1
// becomes a symbolic dimension), so engines see the shapes the model is described with.
bool ApplyInputShapes(std::string* onnx,
                      const std::vector<std::pair<std::string, std::vector<int64_t>>>& shapes,
                      std::string* error);

// ONNX element type <-> aclDataType (ACL_DT_UNDEFINED / 0 when there is no counterpart).
aclDataType AclTypeFromOnnx(int32_t onnx_type);
int32_t OnnxTypeFromAcl(aclDataType type);

}  // namespace openacl::model
