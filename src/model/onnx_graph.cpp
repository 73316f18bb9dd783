#include "model/onnx_graph.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <climits>
#include <exception>
#include <map>
#include <set>
#include <unordered_set>

namespace openacl::model {
namespace {

// A dimension as the runtime reports it: its value when the graph fixes it, else -1.
std::vector<int64_t> DimsOf(const onnx::TensorShapeProto& shape) {
    std::vector<int64_t> dims;
    dims.reserve(shape.dim_size());
    for (const auto& dim : shape.dim()) {
        dims.push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : -1);
    }
    return dims;
}

ValueInfo ToValueInfo(const onnx::ValueInfoProto& value) {
    ValueInfo info;
    info.name = value.name();
    if (value.type().has_tensor_type()) {
        const auto& tensor = value.type().tensor_type();
        info.onnx_type = tensor.elem_type();
        info.type = AclTypeFromOnnx(info.onnx_type);
        if (tensor.has_shape()) {
            info.has_shape = true;
            info.dims = DimsOf(tensor.shape());
        }
    }
    return info;
}

void CollectOpTypes(const onnx::GraphProto& graph, std::set<std::string>* types, int depth) {
    if (depth > 16) return;  // subgraphs nest through If/Loop/Scan; hostile files nest forever
    for (const auto& node : graph.node()) {
        types->insert(node.domain().empty() || node.domain() == "ai.onnx"
                          ? node.op_type()
                          : node.domain() + "." + node.op_type());
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) CollectOpTypes(attr.g(), types, depth + 1);
            for (const auto& g : attr.graphs())
                CollectOpTypes(g, types, depth + 1);
        }
    }
}

// Attributes that ONNX shape inference and engines divide by or loop over: a hostile zero or
// negative value there crashes them (integer division by zero) instead of failing.
bool CheckAttributes(const onnx::GraphProto& graph, std::string* error, int depth) {
    if (depth > 16) {
        *error = "the ONNX graph nests subgraphs more than 16 deep";
        return false;
    }
    static const std::set<std::string> positive = {"strides", "dilations", "kernel_shape",
                                                   "group",   "blocksize", "size"};
    static const std::set<std::string> non_negative = {"pads", "output_padding"};
    for (const auto& node : graph.node()) {
        for (const auto& attr : node.attribute()) {
            bool must_be_positive = positive.count(attr.name()) != 0;
            if (!must_be_positive && !non_negative.count(attr.name())) {
                if (attr.has_g() && !CheckAttributes(attr.g(), error, depth + 1)) return false;
                for (const auto& g : attr.graphs()) {
                    if (!CheckAttributes(g, error, depth + 1)) return false;
                }
                continue;
            }
            auto bad = [&](int64_t v) { return must_be_positive ? v < 1 : v < 0; };
            bool wrong = attr.has_i() && bad(attr.i());
            for (int64_t v : attr.ints())
                wrong = wrong || bad(v);
            if (wrong) {
                *error = "the ONNX model is invalid: attribute " + attr.name() + " of " +
                         node.op_type() + " node \"" + node.name() + "\" must be " +
                         (must_be_positive ? "positive" : "non-negative");
                return false;
            }
        }
    }
    return true;
}

// ONNX's checker passes nodes of the experimental operators old exporters still write (Scale,
// ImageScaler, Crop...) with a warning and no check at all: ONNX no longer has their schemas.
// OpenCV's importer, which runs several of them, trusts their input and output counts and
// crashes on a wrong one (model_loader_fuzz: a Scale node without inputs, another with three
// outputs), so their signatures, as ONNX 1.4 defined them, are checked here.
bool CheckExperimentalNodes(const onnx::GraphProto& graph, std::string* error, int depth) {
    struct Signature {
        int min_inputs, max_inputs;
    };
    static const std::map<std::string, Signature> signatures = {
        {"Affine", {1, 1}},      {"ConstantFill", {0, 1}},
        {"Crop", {1, 1}},        {"DynamicSlice", {3, 4}},
        {"GRUUnit", {4, 4}},     {"GivenTensorFill", {0, 1}},
        {"ImageScaler", {1, 1}}, {"ParametricSoftplus", {1, 1}},
        {"Scale", {1, 1}},       {"ScaledTanh", {1, 1}},
    };
    if (depth > 16) {
        *error = "the ONNX graph nests subgraphs more than 16 deep";
        return false;
    }
    for (const auto& node : graph.node()) {
        for (const auto& attr : node.attribute()) {
            if (attr.has_g() && !CheckExperimentalNodes(attr.g(), error, depth + 1)) return false;
            for (const auto& g : attr.graphs()) {
                if (!CheckExperimentalNodes(g, error, depth + 1)) return false;
            }
        }
        if (!node.domain().empty() && node.domain() != "ai.onnx") continue;
        if (node.op_type() == "ATen") {
            *error = "node \"" + node.name() +
                     "\" is an ATen operator, which only PyTorch runs: export the model "
                     "without operator_export_type=ONNX_ATEN";
            return false;
        }
        auto it = signatures.find(node.op_type());
        if (it == signatures.end()) continue;
        const Signature& sig = it->second;
        int required_given = 0;
        for (int i = 0; i < std::min(node.input_size(), sig.min_inputs); ++i)
            required_given += node.input(i).empty() ? 0 : 1;
        if (node.input_size() > sig.max_inputs || required_given < sig.min_inputs ||
            node.output_size() != 1 || node.output(0).empty()) {
            *error = "the ONNX model is invalid: node \"" + node.name() + "\" (" + node.op_type() +
                     ", an experimental operator) has " + std::to_string(node.input_size()) +
                     " inputs and " + std::to_string(node.output_size()) + " outputs, but takes " +
                     (sig.min_inputs == sig.max_inputs ? std::to_string(sig.min_inputs)
                                                       : std::to_string(sig.min_inputs) + " to " +
                                                             std::to_string(sig.max_inputs)) +
                     " inputs and makes one output";
            return false;
        }
    }
    return true;
}

// Ranks ONNX's shape inference leaves unchecked but engines rely on: convolutions and pooling
// over a tensor of rank >= 3 with a weight of the same rank, Gemm on matrices. (OpenCV's importer
// crashes on a violation instead of failing.) Uses the shapes inference found.
bool CheckRanks(const onnx::GraphProto& graph, std::string* error) {
    std::map<std::string, int> ranks;
    auto note = [&](const onnx::ValueInfoProto& v) {
        if (v.type().has_tensor_type() && v.type().tensor_type().has_shape()) {
            ranks[v.name()] = v.type().tensor_type().shape().dim_size();
        }
    };
    for (const auto& v : graph.input())
        note(v);
    for (const auto& v : graph.value_info())
        note(v);
    for (const auto& v : graph.output())
        note(v);
    for (const auto& init : graph.initializer())
        ranks[init.name()] = init.dims_size();
    auto rank = [&](const onnx::NodeProto& node, int i) {
        if (i >= node.input_size() || node.input(i).empty()) return -1;
        auto it = ranks.find(node.input(i));
        return it == ranks.end() ? -1 : it->second;
    };
    static const std::set<std::string> convolutions = {"Conv", "ConvTranspose", "ConvInteger"};
    static const std::set<std::string> pools = {
        "MaxPool", "AveragePool", "LpPool", "GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"};
    for (const auto& node : graph.node()) {
        if (!node.domain().empty() && node.domain() != "ai.onnx") continue;
        const std::string& op = node.op_type();
        int x = rank(node, 0);
        std::string wrong;
        if (convolutions.count(op) || pools.count(op)) {
            if (x >= 0 && x < 3) wrong = "its input has rank " + std::to_string(x) + ", not >= 3";
            int w = rank(node, 1);
            if (wrong.empty() && convolutions.count(op) && w >= 0 && x >= 0 && w != x) {
                wrong = "its weight has rank " + std::to_string(w) + " but its input rank " +
                        std::to_string(x);
            }
        } else if (op == "Gemm") {
            if ((x >= 0 && x != 2) || (rank(node, 1) >= 0 && rank(node, 1) != 2)) {
                wrong = "its operands are not matrices";
            }
        }
        if (!wrong.empty()) {
            *error =
                "the ONNX model is inconsistent: " + op + " node \"" + node.name() + "\": " + wrong;
            return false;
        }
    }
    return true;
}

}  // namespace

aclDataType AclTypeFromOnnx(int32_t onnx_type) {
    switch (onnx_type) {
        case onnx::TensorProto::FLOAT:
            return ACL_FLOAT;
        case onnx::TensorProto::UINT8:
            return ACL_UINT8;
        case onnx::TensorProto::INT8:
            return ACL_INT8;
        case onnx::TensorProto::UINT16:
            return ACL_UINT16;
        case onnx::TensorProto::INT16:
            return ACL_INT16;
        case onnx::TensorProto::INT32:
            return ACL_INT32;
        case onnx::TensorProto::INT64:
            return ACL_INT64;
        case onnx::TensorProto::STRING:
            return ACL_STRING;
        case onnx::TensorProto::BOOL:
            return ACL_BOOL;
        case onnx::TensorProto::FLOAT16:
            return ACL_FLOAT16;
        case onnx::TensorProto::DOUBLE:
            return ACL_DOUBLE;
        case onnx::TensorProto::UINT32:
            return ACL_UINT32;
        case onnx::TensorProto::UINT64:
            return ACL_UINT64;
        case onnx::TensorProto::COMPLEX64:
            return ACL_COMPLEX64;
        case onnx::TensorProto::COMPLEX128:
            return ACL_COMPLEX128;
        case onnx::TensorProto::BFLOAT16:
            return ACL_BF16;
        default:
            return ACL_DT_UNDEFINED;
    }
}

int32_t OnnxTypeFromAcl(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return onnx::TensorProto::FLOAT;
        case ACL_UINT8:
            return onnx::TensorProto::UINT8;
        case ACL_INT8:
            return onnx::TensorProto::INT8;
        case ACL_UINT16:
            return onnx::TensorProto::UINT16;
        case ACL_INT16:
            return onnx::TensorProto::INT16;
        case ACL_INT32:
            return onnx::TensorProto::INT32;
        case ACL_INT64:
            return onnx::TensorProto::INT64;
        case ACL_STRING:
            return onnx::TensorProto::STRING;
        case ACL_BOOL:
            return onnx::TensorProto::BOOL;
        case ACL_FLOAT16:
            return onnx::TensorProto::FLOAT16;
        case ACL_DOUBLE:
            return onnx::TensorProto::DOUBLE;
        case ACL_UINT32:
            return onnx::TensorProto::UINT32;
        case ACL_UINT64:
            return onnx::TensorProto::UINT64;
        case ACL_COMPLEX64:
            return onnx::TensorProto::COMPLEX64;
        case ACL_COMPLEX128:
            return onnx::TensorProto::COMPLEX128;
        case ACL_BF16:
            return onnx::TensorProto::BFLOAT16;
        default:
            return 0;
    }
}

bool ReadOnnxGraph(const void* data, size_t size, GraphInfo* out, std::string* error) {
    if (size > static_cast<size_t>(INT_MAX)) {
        *error = "the model is larger than 2 GiB, which a single ONNX protobuf cannot be";
        return false;
    }
    onnx::ModelProto model;
    if (!model.ParseFromArray(data, static_cast<int>(size))) {
        *error = "the bytes are not a valid ONNX model (protobuf parsing failed)";
        return false;
    }
    if (!model.has_graph() || model.graph().node_size() == 0) {
        *error = "the ONNX model has no graph (or a graph without nodes)";
        return false;
    }
    // The ONNX checker refuses graphs that break the operator schemas (wrong input counts,
    // attribute types, dangling names) before an engine, less careful with hostile input,
    // sees them.
    if (!CheckExperimentalNodes(model.graph(), error, 0)) return false;
    try {
        onnx::checker::check_model(model);
    } catch (const std::exception& e) {
        *error = std::string("the ONNX model is invalid: ") + e.what();
        return false;
    }
    if (!CheckAttributes(model.graph(), error, 0)) return false;
    // Ranks are checked before inference too: ONNX's own ConvTranspose inference reads a
    // weight's dims without checking its rank.
    if (!CheckRanks(model.graph(), error)) return false;
    // So is a graph whose types and shapes contradict each other (an operator fed a weight of
    // the wrong rank, say): strict shape inference finds those.
    try {
        onnx::ShapeInferenceOptions options;
        options.check_type = false;  // old exporters' Constant nodes fail the type check
        options.error_mode = 1;
        onnx::ModelProto copy = model;
        onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
        if (!CheckRanks(copy.graph(), error)) return false;
    } catch (const std::exception& e) {
        *error = std::string("the ONNX model is inconsistent: ") + e.what();
        return false;
    }
    const auto& graph = model.graph();
    std::unordered_set<std::string> initializers;
    for (const auto& init : graph.initializer())
        initializers.insert(init.name());

    GraphInfo info;
    info.name = graph.name();
    for (const auto& input : graph.input()) {
        if (initializers.count(input.name())) continue;  // a weight, not something fed
        info.inputs.push_back(ToValueInfo(input));
    }
    for (const auto& output : graph.output())
        info.outputs.push_back(ToValueInfo(output));
    if (info.outputs.empty()) {
        *error = "the ONNX graph declares no outputs";
        return false;
    }
    for (const auto* list : {&info.inputs, &info.outputs}) {
        for (const auto& value : *list) {
            if (value.name.empty()) {
                *error = "the ONNX graph has an input or output without a name";
                return false;
            }
        }
    }
    std::set<std::string> types;
    CollectOpTypes(graph, &types, 0);
    info.op_types.assign(types.begin(), types.end());
    for (const auto& opset : model.opset_import()) {
        if (opset.domain().empty() || opset.domain() == "ai.onnx") info.opset = opset.version();
    }
    info.producer = model.producer_name();
    *out = std::move(info);
    return true;
}

bool ApplyInputShapes(std::string* onnx,
                      const std::vector<std::pair<std::string, std::vector<int64_t>>>& shapes,
                      std::string* error) {
    if (shapes.empty()) return true;
    onnx::ModelProto model;
    if (onnx->size() > static_cast<size_t>(INT_MAX) ||
        !model.ParseFromArray(onnx->data(), static_cast<int>(onnx->size()))) {
        *error = "the bytes are not a valid ONNX model";
        return false;
    }
    for (auto& input : *model.mutable_graph()->mutable_input()) {
        for (const auto& [name, dims] : shapes) {
            if (input.name() != name) continue;
            auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
            shape->clear_dim();
            for (int64_t d : dims) {
                if (d < 0) {
                    shape->add_dim()->set_dim_param("dynamic");
                } else {
                    shape->add_dim()->set_dim_value(d);
                }
            }
        }
    }
    // Shapes the file records downstream were computed for the old input shapes.
    model.mutable_graph()->clear_value_info();
    for (auto& output : *model.mutable_graph()->mutable_output()) {
        auto* tensor = output.mutable_type()->mutable_tensor_type();
        if (!tensor->has_shape()) continue;
        for (auto& dim : *tensor->mutable_shape()->mutable_dim()) {
            dim.set_dim_param("inferred");  // ONNX's checker wants the shape field, not values
        }
    }
    *onnx = model.SerializeAsString();
    return true;
}

void InferShapesPropagatingData(onnx::ModelProto* model) {
    onnx::ShapeInferenceOptions options;
    options.check_type = false;
    options.error_mode = 1;  // throw on an inconsistency instead of ignoring it
    options.enable_data_propagation = true;
    onnx::shape_inference::InferShapes(*model, onnx::OpSchemaRegistry::Instance(), options);
}

bool InferOutputDims(const std::string& onnx, const std::vector<std::vector<int64_t>>& input_dims,
                     std::vector<std::vector<int64_t>>* output_dims, std::string* error) {
    onnx::ModelProto model;
    if (onnx.size() > static_cast<size_t>(INT_MAX) ||
        !model.ParseFromArray(onnx.data(), static_cast<int>(onnx.size()))) {
        *error = "the bytes are not a valid ONNX model";
        return false;
    }
    auto* graph = model.mutable_graph();
    std::unordered_set<std::string> initializers;
    for (const auto& init : graph->initializer())
        initializers.insert(init.name());
    size_t fed = 0;
    for (auto& input : *graph->mutable_input()) {
        if (initializers.count(input.name())) continue;
        if (fed >= input_dims.size()) break;
        auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
        shape->clear_dim();
        for (int64_t d : input_dims[fed])
            shape->add_dim()->set_dim_value(d);
        ++fed;
    }
    // Outputs keep only their types, so inference, not the file's claims, decides the shapes.
    for (auto& output : *graph->mutable_output()) {
        output.mutable_type()->mutable_tensor_type()->clear_shape();
    }
    try {
        InferShapesPropagatingData(&model);
    } catch (const std::exception& e) {
        *error = std::string("ONNX shape inference rejected the input shapes: ") + e.what();
        return false;
    }
    output_dims->clear();
    for (const auto& output : graph->output()) {
        const auto& tensor = output.type().tensor_type();
        output_dims->push_back(tensor.has_shape() ? DimsOf(tensor.shape())
                                                  : std::vector<int64_t>{});
        if (!tensor.has_shape()) output_dims->back().push_back(-2);  // unknown rank
    }
    return true;
}

}  // namespace openacl::model
