// Constant folding for the importer: values known at compile time (initializers, Constant
// nodes, shapes of statically shaped tensors) and the ONNX nodes that compute new constants
// from them (the Shape -> Gather -> Concat -> Reshape chains exporters write).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace openacl::model {

struct ConstValue {
    std::vector<int64_t> dims;
    bool integer = false;  // ints holds the data (int64, int32, bool...), else floats
    std::vector<float> floats;
    std::vector<int64_t> ints;

    size_t size() const { return integer ? ints.size() : floats.size(); }
    double at(size_t i) const { return integer ? static_cast<double>(ints[i]) : floats[i]; }
};

// Reads an initializer or Constant tensor. False with *error for data it cannot hold (external
// data, strings, a size that disagrees with the dims).
bool ReadTensorProto(const onnx::TensorProto& tensor, ConstValue* out, std::string* error);

// Evaluates `node` when every input is in `consts` (or, for Shape, when `dims` knows the input's
// static shape) and its operator is one the folder knows. True when *outputs got one value per
// node output; false when the node is not foldable (not an error).
bool FoldNode(const onnx::NodeProto& node, const std::map<std::string, ConstValue>& consts,
              const std::map<std::string, std::vector<int64_t>>& dims,
              std::vector<ConstValue>* outputs);

// Runs ONNX's shape inference, then replaces every node FoldNode can evaluate by initializers
// holding its outputs, and again while anything folds: a shape computed from shapes (Shape ->
// Cast -> Slice -> Concat -> Reshape) becomes a constant that the next inference reads, so the
// tensors after it get static shapes. Throws what InferShapes throws for an inconsistent graph.
void InferShapesFoldingConstants(onnx::ModelProto* model);

}  // namespace openacl::model
