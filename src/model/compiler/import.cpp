// ONNX -> plan: each node becomes plan layers with the node's ONNX meaning; constant subgraphs
// are evaluated here (constant_folding.cpp); the passes run at the end.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include "model/compiler/compiler.h"
#include "model/compiler/constant_folding.h"

namespace openacl::model {
namespace {

const onnx::AttributeProto* Attr(const onnx::NodeProto& node, const char* name) {
    for (const auto& a : node.attribute()) {
        if (a.name() == name) return &a;
    }
    return nullptr;
}
int64_t AttrInt(const onnx::NodeProto& node, const char* name, int64_t fallback) {
    const auto* a = Attr(node, name);
    return a ? a->i() : fallback;
}
float AttrFloat(const onnx::NodeProto& node, const char* name, float fallback) {
    const auto* a = Attr(node, name);
    return a ? a->f() : fallback;
}
std::string AttrString(const onnx::NodeProto& node, const char* name, const char* fallback) {
    const auto* a = Attr(node, name);
    return a ? a->s() : fallback;
}
std::vector<int64_t> AttrInts(const onnx::NodeProto& node, const char* name) {
    const auto* a = Attr(node, name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : std::vector<int64_t>{};
}

std::vector<int64_t> StaticDims(const onnx::TypeProto& type, bool* ok) {
    std::vector<int64_t> dims;
    *ok = type.has_tensor_type() && type.tensor_type().has_shape();
    if (!*ok) return dims;
    for (const auto& d : type.tensor_type().shape().dim()) {
        if (!d.has_dim_value() || d.dim_value() < 1) *ok = false;
        dims.push_back(d.dim_value());
    }
    return dims;
}

// Why a node is not compiled: "Op" or "Op (reason)".
struct Unsupported {
    std::string what;
};
struct Downstream {};  // a node fed by an unsupported one: only the cause is reported

class Importer {
 public:
    Importer(const onnx::ModelProto& model, int64_t opset) : model_(model), opset_(opset) {}

    bool Run(CompileResult* result);

 private:
    uint32_t NewTensor(const std::string& name, const std::vector<int64_t>& dims) {
        plan_.tensors.push_back(PlanTensor{name, dims, -1, -1, -1});
        return static_cast<uint32_t>(plan_.tensors.size() - 1);
    }
    uint32_t ConstTensor(const std::string& name, std::vector<int64_t> dims,
                         std::vector<float> data) {
        plan_.constants.push_back(std::move(data));
        uint32_t id = NewTensor(name, std::move(dims));
        plan_.tensors[id].constant = static_cast<int32_t>(plan_.constants.size() - 1);
        return id;
    }
    std::vector<float> Floats(const ConstValue& c) {
        if (!c.integer) return c.floats;
        return std::vector<float>(c.ints.begin(), c.ints.end());
    }
    // The plan tensor for an ONNX value (constants are materialised once per name).
    uint32_t Tensor(const std::string& name) {
        auto it = tensors_.find(name);
        if (it != tensors_.end()) return it->second;
        const ConstValue& c = consts_.at(name);
        uint32_t id = ConstTensor(name, c.dims, Floats(c));
        tensors_[name] = id;
        return id;
    }
    const std::vector<int64_t>& Dims(const std::string& name) { return dims_.at(name); }
    bool Known(const std::string& name) const {
        return tensors_.count(name) || consts_.count(name);
    }
    uint32_t Layer(LayerKind kind, const onnx::NodeProto& node, std::vector<uint32_t> inputs,
                   const std::vector<int64_t>& out_dims, std::vector<int64_t> ints = {},
                   std::vector<float> floats = {}, const std::string& out_name = "") {
        std::string name = out_name.empty() ? node.output(0) : out_name;
        uint32_t out = NewTensor(name, out_dims);
        PlanLayer layer;
        layer.kind = kind;
        layer.name = node.name().empty() ? node.output(0) : node.name();
        layer.inputs = std::move(inputs);
        layer.output = out;
        layer.ints = std::move(ints);
        layer.floats = std::move(floats);
        plan_.layers.push_back(std::move(layer));
        return out;
    }
    void Define(const onnx::NodeProto& node, uint32_t tensor) { tensors_[node.output(0)] = tensor; }
    const ConstValue* Const(const onnx::NodeProto& node, int index) {
        if (node.input_size() <= index || node.input(index).empty()) return nullptr;
        auto it = consts_.find(node.input(index));
        return it == consts_.end() ? nullptr : &it->second;
    }

    void Lower(const onnx::NodeProto& node);
    void Conv(const onnx::NodeProto& node);
    void ConvTranspose(const onnx::NodeProto& node);
    void Pad(const onnx::NodeProto& node);
    void LayerNormalization(const onnx::NodeProto& node);
    void LayerNormStatistics(const onnx::NodeProto& node, int64_t axis, float epsilon);
    void Pool(const onnx::NodeProto& node, PoolAlg alg, bool global);
    void Binary(const onnx::NodeProto& node, BinaryAlg alg);
    uint32_t BinaryOf(const onnx::NodeProto& node, BinaryAlg alg, std::string a, std::string b,
                      const std::vector<int64_t>& y, const std::string& out);
    void Eltwise(const onnx::NodeProto& node, EltwiseAlg alg, float alpha, float beta);
    void Gemm(const onnx::NodeProto& node);
    void MatMul(const onnx::NodeProto& node);
    void Resize(const onnx::NodeProto& node);
    void Slice(const onnx::NodeProto& node);
    void Split(const onnx::NodeProto& node);
    void Reduce(const onnx::NodeProto& node);
    void Where(const onnx::NodeProto& node);
    void If(const onnx::NodeProto& node);
    bool Describe(const onnx::GraphProto& graph, std::string* error);
    void Process(const onnx::NodeProto& node);
    // The plan tensor for `name` at `rank`: leading 1s added to a constant, or by a view named
    // view_name.
    uint32_t AtRank(const onnx::NodeProto& node, const std::string& name, size_t rank,
                    const std::string& view_name);
    int32_t TypeOf(const std::string& name) const {
        auto it = types_.find(name);
        return it == types_.end() ? 0 : it->second;
    }

    const onnx::ModelProto& model_;
    int64_t opset_;
    Plan plan_;
    std::map<std::string, ConstValue> consts_;
    std::map<std::string, std::vector<int64_t>> dims_;
    std::map<std::string, uint32_t> tensors_;
    std::map<std::string, int32_t> types_;  // ONNX element types, where known
    std::set<std::string> unsupported_;
};

void Importer::Conv(const onnx::NodeProto& node) {
    const auto& x = Dims(node.input(0));
    const ConstValue* w = Const(node, 1);
    if (!w || w->dims.size() != x.size()) throw Unsupported{"Conv (weights not constant)"};
    if (node.input_size() > 2 && !node.input(2).empty() && !Const(node, 2)) {
        throw Unsupported{"Conv (bias not constant)"};
    }
    const size_t r = x.size() - 2;
    if (r < 1 || r > 3) throw Unsupported{"Conv (" + std::to_string(r) + "-D)"};
    std::vector<int64_t> strides = AttrInts(node, "strides"), dil = AttrInts(node, "dilations"),
                         pads = AttrInts(node, "pads");
    strides.resize(r, 1);
    dil.resize(r, 1);
    if (pads.size() != 2 * r) pads.assign(2 * r, 0);
    const std::string auto_pad = AttrString(node, "auto_pad", "NOTSET");
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        for (size_t i = 0; i < r; ++i) {
            int64_t span = (w->dims[2 + i] - 1) * dil[i] + 1;
            int64_t out = (x[2 + i] + strides[i] - 1) / strides[i];
            int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + span - x[2 + i]);
            pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
            pads[r + i] = total - pads[i];
        }
    } else if (auto_pad == "VALID") {
        pads.assign(2 * r, 0);
    }
    std::vector<int64_t> ints{AttrInt(node, "group", 1)};
    ints.insert(ints.end(), strides.begin(), strides.end());
    ints.insert(ints.end(), pads.begin(), pads.end());
    ints.insert(ints.end(), dil.begin(), dil.end());
    ints.push_back(0);  // flags: ChooseLayouts decides
    std::vector<uint32_t> in{Tensor(node.input(0)), Tensor(node.input(1))};
    if (node.input_size() > 2 && !node.input(2).empty()) in.push_back(Tensor(node.input(2)));
    Define(node, Layer(LayerKind::kConv, node, in, Dims(node.output(0)), ints));
}

// Floor division (ONNX's output_shape padding rule is written with Python's //).
int64_t FloorDiv(int64_t a, int64_t b) {
    return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

void Importer::ConvTranspose(const onnx::NodeProto& node) {
    const auto& x = Dims(node.input(0));
    const auto& y = Dims(node.output(0));
    // Weights and bias need not be constant: the engine reorders weights given at run time
    // into the deconvolution's format on every run.
    const auto& wd = Dims(node.input(1));
    if (wd.size() != x.size()) throw Unsupported{"ConvTranspose (weight rank)"};
    const size_t r = x.size() - 2;
    if (r < 1 || r > 3) throw Unsupported{"ConvTranspose (" + std::to_string(r) + "-D)"};
    const int64_t group = AttrInt(node, "group", 1);
    if (group < 1 || x[1] != wd[0] || wd[0] % group != 0 || y.size() != x.size() ||
        y[1] != wd[1] * group) {
        throw Unsupported{"ConvTranspose (weights do not match the channels)"};
    }
    std::vector<int64_t> strides = AttrInts(node, "strides"), dil = AttrInts(node, "dilations"),
                         pads = AttrInts(node, "pads"), extra = AttrInts(node, "output_padding");
    strides.resize(r, 1);
    dil.resize(r, 1);
    extra.resize(r, 0);
    if (pads.size() != 2 * r) pads.assign(2 * r, 0);
    const std::string auto_pad = AttrString(node, "auto_pad", "NOTSET");
    const bool from_output = Attr(node, "output_shape") != nullptr || auto_pad == "SAME_UPPER" ||
                             auto_pad == "SAME_LOWER";
    if (auto_pad == "VALID") pads.assign(2 * r, 0);
    std::vector<int64_t> ints{group};
    ints.insert(ints.end(), strides.begin(), strides.end());
    std::vector<int64_t> begin(r), end(r);
    for (size_t i = 0; i < r; ++i) {
        const int64_t span = (wd[2 + i] - 1) * dil[i] + 1;
        const int64_t full = strides[i] * (x[2 + i] - 1) + span;  // every contribution
        if (from_output) {
            // Pads from the output shape (output_shape, or auto_pad SAME_*: in * stride), split
            // as ONNX says; a negative total grows the output past the contributions.
            const int64_t total = full + extra[i] - y[2 + i];
            const int64_t half = FloorDiv(total, 2);
            begin[i] = auto_pad == "SAME_UPPER" ? half : total - half;
            end[i] = total - begin[i] - extra[i];
        } else {
            begin[i] = pads[i];
            end[i] = pads[r + i] - extra[i];
        }
        // oneDNN takes an end pad down to 1 - stride (an output past the contributions); a
        // begin pad must not be negative.
        if (begin[i] < 0 || end[i] <= -strides[i] || full - begin[i] - end[i] != y[2 + i]) {
            throw Unsupported{"ConvTranspose (output_shape or output_padding beyond a stride)"};
        }
    }
    ints.insert(ints.end(), begin.begin(), begin.end());
    ints.insert(ints.end(), end.begin(), end.end());
    ints.insert(ints.end(), dil.begin(), dil.end());
    std::vector<uint32_t> in{Tensor(node.input(0)), Tensor(node.input(1))};
    if (node.input_size() > 2 && !node.input(2).empty()) in.push_back(Tensor(node.input(2)));
    Define(node, Layer(LayerKind::kDeconv, node, in, y, ints));
}

// Pad (pads as an attribute before opset 11, as a constant input after; constant, reflect and
// edge modes): a copy loop in the engine. The constant value may come at run time; the pads and
// axes may not, since the output's shape would then depend on the data.
void Importer::Pad(const onnx::NodeProto& node) {
    const auto& x = Dims(node.input(0));
    const auto& y = Dims(node.output(0));
    const int64_t rank = static_cast<int64_t>(x.size());
    const std::string mode_name = AttrString(node, "mode", "constant");
    PadMode mode;
    if (mode_name == "constant") {
        mode = PadMode::kConstant;
    } else if (mode_name == "reflect") {
        mode = PadMode::kReflect;
    } else if (mode_name == "edge") {
        mode = PadMode::kEdge;
    } else {
        throw Unsupported{"Pad (mode " + mode_name + ")"};
    }
    std::vector<int64_t> pads, axes;
    float value = 0.0f;
    std::optional<uint32_t> runtime_value;  // a tensor holding the value, read at each run
    if (opset_ < 11) {
        pads = AttrInts(node, "pads");
        value = AttrFloat(node, "value", 0.0f);
    } else {
        for (int i : {1, 3}) {
            if (i < node.input_size() && !node.input(i).empty() && !Const(node, i)) {
                throw Unsupported{"Pad (pads or axes not constant)"};
            }
        }
        const ConstValue* p = Const(node, 1);
        if (!p || !p->integer) throw Unsupported{"Pad (no integer pads)"};
        pads = p->ints;
        if (node.input_size() > 2 && !node.input(2).empty()) {
            if (const ConstValue* v = Const(node, 2)) {
                if (v->size() != 1) throw Unsupported{"Pad (constant_value not a scalar)"};
                value = static_cast<float>(v->at(0));
            } else {
                const auto& vd = Dims(node.input(2));
                if (std::accumulate(vd.begin(), vd.end(), int64_t{1}, std::multiplies<>()) != 1) {
                    throw Unsupported{"Pad (constant_value not a scalar)"};
                }
                runtime_value = Tensor(node.input(2));
            }
        }
        if (const ConstValue* a = Const(node, 3)) axes = a->ints;
    }
    if (axes.empty()) {
        for (int64_t i = 0; i < rank; ++i)
            axes.push_back(i);
    }
    if (pads.size() != 2 * axes.size() || rank < 1 || rank > 8) {
        throw Unsupported{"Pad (pads do not match the rank)"};
    }
    std::vector<int64_t> begin(x.size(), 0), end(x.size(), 0);
    for (size_t i = 0; i < axes.size(); ++i) {
        const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
        if (a < 0 || a >= rank) throw Unsupported{"Pad (axis)"};
        begin[a] = pads[i];
        end[a] = pads[axes.size() + i];
    }
    for (int64_t i = 0; i < rank; ++i) {
        if (x[i] + begin[i] + end[i] != y[i]) throw Unsupported{"Pad (output shape)"};
        if (mode != PadMode::kConstant && (begin[i] < 0 || end[i] < 0)) {
            throw Unsupported{"Pad (negative pads in mode " + mode_name + ")"};
        }
    }
    std::vector<int64_t> ints{static_cast<int64_t>(mode)};
    ints.insert(ints.end(), begin.begin(), begin.end());
    ints.insert(ints.end(), end.begin(), end.end());
    std::vector<uint32_t> in{Tensor(node.input(0))};
    if (runtime_value) in.push_back(*runtime_value);
    Define(node, Layer(LayerKind::kPad, node, in, y, ints, {value}));
}

// LayerNormalization's optional outputs, Mean and InvStdDev (x's shape with the normalised dims
// 1), computed apart from the normalisation (oneDNN's inference keeps its statistics inside):
// mean(x) and (mean((x - mean(x))^2) + epsilon)^-1/2.
void Importer::LayerNormStatistics(const onnx::NodeProto& node, int64_t axis, float epsilon) {
    const bool mean_out = node.output_size() > 1 && !node.output(1).empty();
    const bool inv_out = node.output_size() > 2 && !node.output(2).empty();
    if (!mean_out && !inv_out) return;
    const auto& x = Dims(node.input(0));
    if (x.size() > 5) throw Unsupported{"LayerNormalization (statistics of rank above 5)"};
    std::vector<int64_t> stat = x;
    for (size_t i = static_cast<size_t>(axis); i < x.size(); ++i)
        stat[i] = 1;
    const std::string base = node.output(0);
    const uint32_t xt = Tensor(node.input(0));
    const uint32_t mean = Layer(LayerKind::kReduceMean, node, {xt}, stat, {}, {},
                                mean_out ? node.output(1) : base + "/mean");
    if (mean_out) tensors_[node.output(1)] = mean;
    if (!inv_out) return;
    const std::string& inv = node.output(2);
    const uint32_t centred = Layer(LayerKind::kBinary, node, {xt, mean}, x,
                                   {static_cast<int64_t>(BinaryAlg::kSub)}, {}, inv + "/centred");
    const uint32_t squared = Layer(LayerKind::kBinary, node, {centred, centred}, x,
                                   {static_cast<int64_t>(BinaryAlg::kMul)}, {}, inv + "/squared");
    const uint32_t var =
        Layer(LayerKind::kReduceMean, node, {squared}, stat, {}, {}, inv + "/variance");
    const uint32_t eps =
        ConstTensor(inv + "/epsilon", std::vector<int64_t>(x.size(), 1), {epsilon});
    const uint32_t sum = Layer(LayerKind::kBinary, node, {var, eps}, stat,
                               {static_cast<int64_t>(BinaryAlg::kAdd)}, {}, inv + "/plus_epsilon");
    tensors_[inv] = Layer(LayerKind::kEltwise, node, {sum}, stat,
                          {static_cast<int64_t>(EltwiseAlg::kPow)}, {1.0f, -0.5f}, inv);
}

// LayerNormalization over the dims from `axis` on: oneDNN normalises over the last dim, so
// several trailing dims are viewed as one ([outer, inner]); scale and bias, broadcast to the
// normalised shape, become one value per element of it.
void Importer::LayerNormalization(const onnx::NodeProto& node) {
    const auto& x = Dims(node.input(0));
    const auto& y = Dims(node.output(0));
    const int64_t rank = static_cast<int64_t>(x.size());
    int64_t axis = AttrInt(node, "axis", -1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank || y != x) throw Unsupported{"LayerNormalization (axis)"};
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i)
        (i < axis ? outer : inner) *= x[i];
    const std::vector<int64_t> normalised(x.begin() + axis, x.end());
    // The parameter as [inner]: a constant broadcast here, an activation only at full size.
    auto parameter = [&](int index) -> uint32_t {
        const std::string& name = node.input(index);
        const ConstValue* c = Const(node, index);
        const auto& d = Dims(name);
        if (!c) {
            if (PlanElementCount(d) != inner) {
                throw Unsupported{"LayerNormalization (broadcast scale or bias not constant)"};
            }
            return Layer(LayerKind::kView, node, {Tensor(name)}, {inner}, {}, {}, name + "/flat");
        }
        if (d.size() > normalised.size()) throw Unsupported{"LayerNormalization (scale rank)"};
        const std::vector<float> v = Floats(*c);
        const size_t lead = normalised.size() - d.size();
        std::vector<float> full(static_cast<size_t>(inner));
        for (int64_t e = 0; e < inner; ++e) {
            int64_t rest = e, src = 0, stride = 1;
            for (size_t k = normalised.size(); k-- > 0;) {
                const int64_t coord = rest % normalised[k];
                rest /= normalised[k];
                if (k < lead) continue;
                const int64_t n = d[k - lead];
                if (n != 1 && n != normalised[k]) {
                    throw Unsupported{"LayerNormalization (scale does not broadcast)"};
                }
                src += (n == 1 ? 0 : coord) * stride;
                stride *= n;
            }
            full[static_cast<size_t>(e)] = v[static_cast<size_t>(src)];
        }
        return ConstTensor(name + "/full", {inner}, std::move(full));
    };
    std::vector<uint32_t> in{0, parameter(1)};
    if (node.input_size() > 2 && !node.input(2).empty()) in.push_back(parameter(2));
    const float epsilon = AttrFloat(node, "epsilon", 1e-5f);
    LayerNormStatistics(node, axis, epsilon);
    if (axis == rank - 1 && rank >= 2 && rank <= 5) {
        in[0] = Tensor(node.input(0));
        Define(node, Layer(LayerKind::kLayerNorm, node, in, y, {}, {epsilon}));
        return;
    }
    const std::vector<int64_t> flat{outer, inner};
    in[0] = Layer(LayerKind::kView, node, {Tensor(node.input(0))}, flat, {}, {},
                  node.output(0) + "/2d");
    uint32_t n =
        Layer(LayerKind::kLayerNorm, node, in, flat, {}, {epsilon}, node.output(0) + "/normalised");
    Define(node, Layer(LayerKind::kView, node, {n}, y));
}

void Importer::Pool(const onnx::NodeProto& node, PoolAlg alg, bool global) {
    const auto& x = Dims(node.input(0));
    const auto& y = Dims(node.output(0));
    if (x.size() < 3 || x.size() > 5) throw Unsupported{node.op_type() + " (rank)"};
    if (node.output_size() > 1 && !node.output(1).empty()) {
        throw Unsupported{node.op_type() + " (indices output)"};
    }
    const size_t r = x.size() - 2;
    std::vector<int64_t> kernel, strides, pads;
    if (global) {
        kernel.assign(x.begin() + 2, x.end());
        strides.assign(r, 1);
        pads.assign(2 * r, 0);
    } else {
        kernel = AttrInts(node, "kernel_shape");
        strides = AttrInts(node, "strides");
        pads = AttrInts(node, "pads");
        for (int64_t d : AttrInts(node, "dilations")) {
            if (d != 1) throw Unsupported{node.op_type() + " (dilations)"};
        }
        if (kernel.size() != r) throw Unsupported{node.op_type() + " (kernel_shape)"};
        strides.resize(r, 1);
        if (pads.size() != 2 * r) pads.assign(2 * r, 0);
        const std::string auto_pad = AttrString(node, "auto_pad", "NOTSET");
        if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
            for (size_t i = 0; i < r; ++i) {
                int64_t total =
                    std::max<int64_t>(0, (y[2 + i] - 1) * strides[i] + kernel[i] - x[2 + i]);
                pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
                pads[r + i] = total - pads[i];
            }
        } else if (auto_pad == "VALID") {
            pads.assign(2 * r, 0);
        }
        // ceil_mode: the end padding grows to what the inferred output needs. Average pooling
        // would count that extra padding differently, so only max pooling takes it.
        for (size_t i = 0; i < r; ++i) {
            if ((x[2 + i] + pads[i] + pads[r + i] - kernel[i]) / strides[i] + 1 == y[2 + i]) {
                continue;
            }
            int64_t end = (y[2 + i] - 1) * strides[i] + kernel[i] - x[2 + i] - pads[i];
            if (alg != PoolAlg::kMax || end < pads[r + i]) {
                throw Unsupported{node.op_type() + " (ceil_mode)"};
            }
            pads[r + i] = end;
        }
        if (alg != PoolAlg::kMax && AttrInt(node, "count_include_pad", 0)) {
            alg = PoolAlg::kAvgIncludePad;
        }
    }
    std::vector<int64_t> ints{static_cast<int64_t>(alg)};
    ints.insert(ints.end(), kernel.begin(), kernel.end());
    ints.insert(ints.end(), strides.begin(), strides.end());
    ints.insert(ints.end(), pads.begin(), pads.end());
    Define(node, Layer(LayerKind::kPool, node, {Tensor(node.input(0))}, y, ints));
}

void Importer::Binary(const onnx::NodeProto& node, BinaryAlg alg) {
    Define(node,
           BinaryOf(node, alg, node.input(0), node.input(1), Dims(node.output(0)), node.output(0)));
}

// a (alg) b into a tensor of dims y named out (the node's output, or a step of it).
uint32_t Importer::BinaryOf(const onnx::NodeProto& node, BinaryAlg alg, std::string a,
                            std::string b, const std::vector<int64_t>& y, const std::string& out) {
    const bool compares = alg >= BinaryAlg::kEqual;
    const bool commutes = alg == BinaryAlg::kAdd || alg == BinaryAlg::kMul ||
                          alg == BinaryAlg::kMax || alg == BinaryAlg::kMin || compares;
    if (commutes && Dims(b) == y && Dims(a) != y) {
        // a > b is b < a: the full-size operand goes first.
        std::swap(a, b);
        static const std::map<BinaryAlg, BinaryAlg> kMirror = {
            {BinaryAlg::kGreater, BinaryAlg::kLess},
            {BinaryAlg::kLess, BinaryAlg::kGreater},
            {BinaryAlg::kGreaterEqual, BinaryAlg::kLessEqual},
            {BinaryAlg::kLessEqual, BinaryAlg::kGreaterEqual}};
        if (auto m = kMirror.find(alg); m != kMirror.end()) alg = m->second;
    }
    if (const auto c = consts_.find(b); !compares && c != consts_.end() && c->second.size() == 1 &&
                                        Dims(a) == y && !consts_.count(a)) {
        // x op constant: an activation (alpha x + beta, or a clip), which fuses into the layer
        // before it; as a binary op of a blocked tensor and a plain scalar, oneDNN 2.6 runs its
        // reference kernel (11 of PP-OCRv4 detection's 12 seconds of load-time trial runs).
        const float k = static_cast<float>(c->second.at(0));
        EltwiseAlg op = EltwiseAlg::kLinear;
        float alpha = 1.0f, beta = 0.0f;
        switch (alg) {
            case BinaryAlg::kAdd:
                beta = k;
                break;
            case BinaryAlg::kSub:
                beta = -k;
                break;
            case BinaryAlg::kMul:
                alpha = k;
                break;
            case BinaryAlg::kDiv:
                alpha = 1.0f / k;
                break;
            case BinaryAlg::kMax:
                op = EltwiseAlg::kClip;
                alpha = k;
                beta = FLT_MAX;
                break;
            case BinaryAlg::kMin:
                op = EltwiseAlg::kClip;
                alpha = -FLT_MAX;
                beta = k;
                break;
            default:
                break;  // comparisons stay binary (excluded above)
        }
        return Layer(LayerKind::kEltwise, node, {Tensor(a)}, y, {static_cast<int64_t>(op)},
                     {alpha, beta}, out);
    }
    if (Dims(a) != y || (consts_.count(a) && !consts_.count(b) && Dims(b) == y)) {
        const auto c = consts_.find(a);
        if (!commutes && c != consts_.end() && c->second.size() == 1 && Dims(b) == y &&
            (alg == BinaryAlg::kSub || alg == BinaryAlg::kDiv)) {
            // c - x and c / x (1 - p, 1 / x): one activation of x.
            const float k = static_cast<float>(c->second.at(0));
            const bool sub = alg == BinaryAlg::kSub;
            return Layer(LayerKind::kEltwise, node, {Tensor(b)}, y,
                         {static_cast<int64_t>(sub ? EltwiseAlg::kLinear : EltwiseAlg::kPow)},
                         {sub ? -1.0f : k, sub ? k : -1.0f}, out);
        }
        if (!commutes || Dims(b) != y) throw Unsupported{node.op_type() + " (broadcast first)"};
        std::swap(a, b);
    }
    // The second operand is broadcast: oneDNN wants it at the output's rank.
    const uint32_t bt = AtRank(node, b, y.size(), out + "/" + b + "/rank");
    return Layer(LayerKind::kBinary, node, {Tensor(a), bt}, y, {static_cast<int64_t>(alg)}, {},
                 out);
}

void Importer::Eltwise(const onnx::NodeProto& node, EltwiseAlg alg, float alpha, float beta) {
    Define(node, Layer(LayerKind::kEltwise, node, {Tensor(node.input(0))}, Dims(node.output(0)),
                       {static_cast<int64_t>(alg)}, {alpha, beta}));
}

std::vector<float> Transposed(const std::vector<float>& m, int64_t rows, int64_t cols) {
    std::vector<float> t(m.size());
    for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j)
            t[j * rows + i] = m[i * cols + j];
    }
    return t;
}

void Importer::Gemm(const onnx::NodeProto& node) {
    const auto& y = Dims(node.output(0));
    const float alpha = AttrFloat(node, "alpha", 1.0f), beta = AttrFloat(node, "beta", 1.0f);
    const ConstValue* b = Const(node, 1);
    if (AttrInt(node, "transA", 0) || consts_.count(node.input(0)) || !b || b->dims.size() != 2) {
        throw Unsupported{"Gemm (transposed or constant A, or B not constant)"};
    }
    std::vector<float> w = Floats(*b);
    std::vector<int64_t> wd = b->dims;
    if (AttrInt(node, "transB", 0)) {
        w = Transposed(w, wd[0], wd[1]);
        std::swap(wd[0], wd[1]);
    }
    for (float& v : w)
        v *= alpha;
    std::vector<uint32_t> in{Tensor(node.input(0)), ConstTensor(node.input(1), wd, w)};
    if (node.input_size() > 2 && !node.input(2).empty()) {
        const ConstValue* c = Const(node, 2);
        if (!c || c->dims.size() > 2) throw Unsupported{"Gemm (C not constant)"};
        std::vector<float> cv = Floats(*c);
        for (float& v : cv)
            v *= beta;
        std::vector<int64_t> cd = c->dims;
        while (cd.size() < 2)
            cd.insert(cd.begin(), 1);
        in.push_back(ConstTensor(node.input(2), cd, cv));
    }
    Define(node, Layer(LayerKind::kMatMul, node, in, y));
}

void Importer::MatMul(const onnx::NodeProto& node) {
    auto a = Dims(node.input(0)), b = Dims(node.input(1));
    const auto& y = Dims(node.output(0));
    if (a.size() < 2 || b.size() < 2 || y.size() > 4 || consts_.count(node.input(0))) {
        throw Unsupported{"MatMul (vector operands, rank above 4 or constant A)"};
    }
    if (a.size() != y.size()) throw Unsupported{"MatMul (broadcast of A)"};
    uint32_t bt = Tensor(node.input(1));
    if (b.size() < y.size()) {
        std::vector<int64_t> padded(y.size() - b.size(), 1);
        padded.insert(padded.end(), b.begin(), b.end());
        bt = consts_.count(node.input(1))
                 ? ConstTensor(node.input(1), padded, Floats(consts_.at(node.input(1))))
                 : Layer(LayerKind::kView, node, {bt}, padded, {}, {}, node.input(1) + "/rank");
    }
    Define(node, Layer(LayerKind::kMatMul, node, {Tensor(node.input(0)), bt}, y));
}

void Importer::Resize(const onnx::NodeProto& node) {
    const auto& x = Dims(node.input(0));
    const auto& y = Dims(node.output(0));
    const std::string mode = AttrString(node, "mode", "nearest");
    const std::string ctm = AttrString(node, "coordinate_transformation_mode",
                                       opset_ < 11 ? "asymmetric" : "half_pixel");
    const std::string nearest = AttrString(node, "nearest_mode", "round_prefer_floor");
    if (x.size() < 3 || x.size() > 5 || y[0] != x[0] || y[1] != x[1]) {
        throw Unsupported{"Resize (of batch or channels)"};
    }
    ResizeAlg alg;
    if (mode == "nearest") {
        // oneDNN's nearest neighbour agrees with ONNX's for whole-number upscaling in these modes.
        bool whole = true;
        for (size_t i = 2; i < x.size(); ++i)
            whole = whole && y[i] % x[i] == 0;
        bool modes = (ctm == "asymmetric" && nearest == "floor") ||
                     (ctm == "half_pixel" && nearest == "round_prefer_floor");
        if (!whole || !modes) throw Unsupported{"Resize (nearest: mode or scale)"};
        alg = ResizeAlg::kNearest;
    } else if (mode == "linear") {
        if (ctm != "half_pixel" && ctm != "pytorch_half_pixel") {
            throw Unsupported{"Resize (linear: coordinate_transformation_mode " + ctm + ")"};
        }
        for (size_t i = 2; i < y.size(); ++i) {
            if (ctm == "pytorch_half_pixel" && y[i] == 1) throw Unsupported{"Resize (size 1)"};
        }
        alg = ResizeAlg::kLinear;
    } else {
        throw Unsupported{"Resize (mode " + mode + ")"};
    }
    for (int i = 1; i < node.input_size(); ++i) {
        if (!node.input(i).empty() && !consts_.count(node.input(i))) {
            throw Unsupported{"Resize (scales or sizes not constant)"};
        }
    }
    Define(node, Layer(LayerKind::kResize, node, {Tensor(node.input(0))}, y,
                       {static_cast<int64_t>(alg)}));
}

// Slice with unit steps: a window of the input, read by a reorder.
void Importer::Slice(const onnx::NodeProto& node) {
    const auto& x = Dims(node.input(0));
    const auto& y = Dims(node.output(0));
    const int64_t rank = static_cast<int64_t>(x.size());
    std::vector<int64_t> starts, axes;
    if (opset_ < 10) {
        starts = AttrInts(node, "starts");
        axes = AttrInts(node, "axes");
    } else {
        for (int i = 1; i < node.input_size(); ++i) {
            if (!node.input(i).empty() && !Const(node, i)) {
                throw Unsupported{"Slice (starts, ends, axes or steps not constant)"};
            }
        }
        if (const ConstValue* c = Const(node, 1)) starts = c->ints;
        if (const ConstValue* c = Const(node, 3)) axes = c->ints;
        if (const ConstValue* c = Const(node, 4)) {
            for (int64_t step : c->ints) {
                if (step != 1) throw Unsupported{"Slice (steps other than 1)"};
            }
        }
    }
    if (axes.empty()) {
        for (size_t i = 0; i < starts.size(); ++i)
            axes.push_back(static_cast<int64_t>(i));
    }
    if (axes.size() != starts.size()) throw Unsupported{"Slice (axes and starts differ)"};
    std::vector<int64_t> offsets(x.size(), 0);
    for (size_t i = 0; i < axes.size(); ++i) {
        int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
        if (a < 0 || a >= rank) throw Unsupported{"Slice (axis)"};
        int64_t start = starts[i] < 0 ? starts[i] + x[a] : starts[i];
        offsets[a] = std::clamp<int64_t>(start, 0, x[a]);
    }
    Define(node, Layer(LayerKind::kSlice, node, {Tensor(node.input(0))}, y, offsets));
}

// Split: one slice per output, along the axis.
void Importer::Split(const onnx::NodeProto& node) {
    const auto& x = Dims(node.input(0));
    int64_t axis = AttrInt(node, "axis", 0);
    if (axis < 0) axis += static_cast<int64_t>(x.size());
    if (axis < 0 || axis >= static_cast<int64_t>(x.size())) throw Unsupported{"Split (axis)"};
    const uint32_t in = Tensor(node.input(0));
    int64_t offset = 0;
    for (int k = 0; k < node.output_size(); ++k) {
        const std::string& name = node.output(k);
        if (name.empty() || !dims_.count(name)) throw Unsupported{"Split (output shape unknown)"};
        const auto& y = Dims(name);
        // Declared output shapes are the file's word, not inference's: check before indexing.
        if (y.size() != x.size()) throw Unsupported{"Split (output rank differs from input)"};
        std::vector<int64_t> offsets(x.size(), 0);
        offsets[axis] = offset;
        offset += y[axis];
        tensors_[name] = Layer(LayerKind::kSlice, node, {in}, y, offsets, {}, name);
    }
}

// ReduceMax/Min/Sum/Mean/Prod/L1/L2/SumSquare: axes from the attribute (older opsets) or the
// constant second input; the reduced dims are kept as 1, then a view drops them (keepdims 0).
void Importer::Reduce(const onnx::NodeProto& node) {
    static const std::map<std::string, ReduceAlg> kAlgs = {
        {"ReduceMax", ReduceAlg::kMax},   {"ReduceMin", ReduceAlg::kMin},
        {"ReduceSum", ReduceAlg::kSum},   {"ReduceMean", ReduceAlg::kMean},
        {"ReduceProd", ReduceAlg::kProd}, {"ReduceL1", ReduceAlg::kL1},
        {"ReduceL2", ReduceAlg::kL2},     {"ReduceSumSquare", ReduceAlg::kSumSquare}};
    const auto alg = kAlgs.find(node.op_type());
    if (alg == kAlgs.end()) throw Unsupported{node.op_type()};
    const auto& x = Dims(node.input(0));
    const auto& y = Dims(node.output(0));
    std::vector<int64_t> axes = AttrInts(node, "axes");
    if (node.input_size() > 1 && !node.input(1).empty()) {
        const ConstValue* c = Const(node, 1);
        if (!c) throw Unsupported{node.op_type() + " (axes not constant)"};
        for (size_t i = 0; i < c->size(); ++i)
            axes.push_back(static_cast<int64_t>(c->at(i)));
    }
    const int64_t rank = static_cast<int64_t>(x.size());
    if (axes.empty() && AttrInt(node, "noop_with_empty_axes", 0)) {
        Define(node, Layer(LayerKind::kView, node, {Tensor(node.input(0))}, y));
        return;
    }
    std::vector<int64_t> kept = x;
    for (int64_t i = 0; i < rank; ++i) {
        bool reduced = axes.empty();
        for (int64_t a : axes)
            reduced = reduced || (a < 0 ? a + rank : a) == i;
        if (reduced) kept[i] = 1;
    }
    if (kept.size() < 1 || kept.size() > 5) throw Unsupported{node.op_type() + " (rank)"};
    if (PlanElementCount(kept) != PlanElementCount(y)) {
        throw Unsupported{node.op_type() + " (output shape)"};
    }
    // ReduceMean keeps its own layer kind, which plans written before kReduce use.
    const bool mean = alg->second == ReduceAlg::kMean;
    const LayerKind kind = mean ? LayerKind::kReduceMean : LayerKind::kReduce;
    std::vector<int64_t> ints;
    if (!mean) ints.push_back(static_cast<int64_t>(alg->second));
    if (kept == y) {
        Define(node, Layer(kind, node, {Tensor(node.input(0))}, y, ints));
    } else {
        uint32_t r = Layer(kind, node, {Tensor(node.input(0))}, kept, ints, {},
                           node.output(0) + "/keepdims");
        Define(node, Layer(LayerKind::kView, node, {r}, y));
    }
}

// Operators that are one activation with fixed parameters: EltwiseAlg, alpha, beta.
struct Activation {
    EltwiseAlg alg;
    float alpha, beta;
};
const std::map<std::string, Activation>& Activations() {
    static const std::map<std::string, Activation> kActivations = {
        {"Relu", {EltwiseAlg::kRelu, 0.0f, 0.0f}},
        {"Sigmoid", {EltwiseAlg::kLogistic, 0.0f, 0.0f}},
        {"Tanh", {EltwiseAlg::kTanh, 0.0f, 0.0f}},
        {"HardSwish", {EltwiseAlg::kHardSwish, 1.0f / 6, 0.5f}},
        {"Sqrt", {EltwiseAlg::kSqrt, 0.0f, 0.0f}},
        {"Erf", {EltwiseAlg::kErf, 0.0f, 0.0f}},
        {"Exp", {EltwiseAlg::kExp, 0.0f, 0.0f}},
        {"Log", {EltwiseAlg::kLog, 0.0f, 0.0f}},
        {"Abs", {EltwiseAlg::kAbs, 0.0f, 0.0f}},
        {"Neg", {EltwiseAlg::kLinear, -1.0f, 0.0f}},      // -x
        {"Reciprocal", {EltwiseAlg::kPow, 1.0f, -1.0f}},  // x^-1
        {"Softplus", {EltwiseAlg::kSoftPlus, 0.0f, 0.0f}},
        {"Round", {EltwiseAlg::kRound, 0.0f, 0.0f}},
        {"Mish", {EltwiseAlg::kMish, 0.0f, 0.0f}},
        {"Not", {EltwiseAlg::kLinear, -1.0f, 1.0f}},  // 1 - x: a plan holds bools as 1 and 0
    };
    return kActivations;
}

uint32_t Importer::AtRank(const onnx::NodeProto& node, const std::string& name, size_t rank,
                          const std::string& view_name) {
    const auto& d = Dims(name);
    if (d.size() == rank) return Tensor(name);
    if (d.size() > rank) throw Unsupported{node.op_type() + " (an input of higher rank)"};
    std::vector<int64_t> padded(rank - d.size(), 1);
    padded.insert(padded.end(), d.begin(), d.end());
    if (consts_.count(name)) return ConstTensor(name, padded, Floats(consts_.at(name)));
    return Layer(LayerKind::kView, node, {Tensor(name)}, padded, {}, {}, view_name);
}

void Importer::Where(const onnx::NodeProto& node) {
    const auto& y = Dims(node.output(0));
    if (node.input_size() != 3) throw Unsupported{"Where (inputs)"};
    std::vector<uint32_t> in;
    for (int i = 0; i < 3; ++i) {
        in.push_back(AtRank(node, node.input(i), y.size(),
                            node.output(0) + "/" + std::to_string(i) + "/rank"));
    }
    Define(node, Layer(LayerKind::kWhere, node, in, y));
}

// If: with a constant condition, the branch taken is imported in its place. Otherwise both
// branches are imported (ONNX's branches compute without side effects) and a Where per output
// picks the one the condition names at run time.
void Importer::If(const onnx::NodeProto& node) {
    const onnx::AttributeProto* then_attr = Attr(node, "then_branch");
    const onnx::AttributeProto* else_attr = Attr(node, "else_branch");
    if (!then_attr || !else_attr || !then_attr->has_g() || !else_attr->has_g()) {
        throw Unsupported{"If (branches)"};
    }
    auto import = [&](const onnx::GraphProto& g) {
        if (g.output_size() != node.output_size()) throw Unsupported{"If (branch outputs)"};
        for (const auto& n : g.node()) {
            for (const auto& out : n.output()) {
                if (tensors_.count(out) || consts_.count(out)) {
                    throw Unsupported{"If (a branch reuses the name '" + out + "')"};
                }
            }
        }
        std::string error;
        if (!Describe(g, &error)) throw Unsupported{"If (" + error + ")"};
        for (const auto& n : g.node())
            Process(n);
        std::vector<std::string> outs;
        for (const auto& o : g.output()) {
            if (!Known(o.name())) throw Downstream{};  // what stopped it is recorded
            outs.push_back(o.name());
        }
        return outs;
    };
    // The outputs take the branch's values (constants stay constants).
    auto alias = [&](const std::string& to, const std::string& from) {
        dims_[to] = Dims(from);
        if (auto c = consts_.find(from); c != consts_.end()) {
            consts_[to] = c->second;
        } else {
            tensors_[to] = tensors_.at(from);
        }
    };
    if (const ConstValue* c = Const(node, 0)) {
        const bool taken = c->size() == 1 && c->at(0) != 0;
        const auto outs = import(taken ? then_attr->g() : else_attr->g());
        for (int i = 0; i < node.output_size(); ++i)
            alias(node.output(i), outs[i]);
        return;
    }
    if (PlanElementCount(Dims(node.input(0))) != 1) throw Unsupported{"If (condition shape)"};
    const auto then_outs = import(then_attr->g());
    const auto else_outs = import(else_attr->g());
    for (int i = 0; i < node.output_size(); ++i) {
        const std::string& name = node.output(i);
        if (!dims_.count(name)) throw Unsupported{"If (output shape unknown)"};
        const auto& y = Dims(name);
        if (Dims(then_outs[i]) != y || Dims(else_outs[i]) != y) {
            throw Unsupported{"If (branches of other shapes)"};
        }
        const uint32_t cond = AtRank(node, node.input(0), y.size(), name + "/condition");
        tensors_[name] = Layer(LayerKind::kWhere, node,
                               {cond, Tensor(then_outs[i]), Tensor(else_outs[i])}, y, {}, {}, name);
    }
}

void Importer::Lower(const onnx::NodeProto& node) {
    const std::string& op = node.op_type();
    if (!node.domain().empty() && node.domain() != "ai.onnx") throw Unsupported{op};
    if (node.input_size() < 1 || node.input(0).empty()) throw Unsupported{op + " (no input)"};
    for (int i = 1; i < node.output_size(); ++i) {
        if (!node.output(i).empty() && op != "Dropout" && op != "Split" &&
            op != "LayerNormalization" && op != "If") {
            throw Unsupported{op + " (several outputs)"};
        }
    }
    for (const auto& in : node.input()) {
        if (!in.empty() && !Known(in)) throw Downstream{};  // an unsupported node feeds it
        if (!in.empty() && !dims_.count(in)) throw Unsupported{op + " (input shape unknown)"};
    }
    if (!dims_.count(node.output(0))) throw Unsupported{op + " (output shape unknown)"};
    const auto& y = Dims(node.output(0));
    if (const auto a = Activations().find(op); a != Activations().end()) {
        Eltwise(node, a->second.alg, a->second.alpha, a->second.beta);
    } else if (op == "Conv") {
        Conv(node);
    } else if (op == "ConvTranspose") {
        ConvTranspose(node);
    } else if (op == "Pad") {
        Pad(node);
    } else if (op == "LayerNormalization") {
        LayerNormalization(node);
    } else if (op == "BatchNormalization") {
        for (int i = 1; i < 5; ++i) {
            if (!Const(node, i)) throw Unsupported{"BatchNormalization (statistics not constant)"};
        }
        if (Dims(node.input(0)).size() < 2) throw Unsupported{"BatchNormalization (rank)"};
        std::vector<uint32_t> in;
        for (int i = 0; i < 5; ++i)
            in.push_back(Tensor(node.input(i)));
        Define(node,
               Layer(LayerKind::kBatchNorm, node, in, y, {}, {AttrFloat(node, "epsilon", 1e-5f)}));
    } else if (op == "LeakyRelu") {
        Eltwise(node, EltwiseAlg::kRelu, AttrFloat(node, "alpha", 0.01f), 0.0f);
    } else if (op == "HardSigmoid") {
        Eltwise(node, EltwiseAlg::kHardSigmoid, AttrFloat(node, "alpha", 0.2f),
                AttrFloat(node, "beta", 0.5f));
    } else if (op == "Clip") {
        float lo = -FLT_MAX, hi = FLT_MAX;
        if (opset_ < 11) {
            lo = AttrFloat(node, "min", lo);
            hi = AttrFloat(node, "max", hi);
        } else {
            std::string lo_tensor, hi_tensor;
            for (int i = 1; i < 3 && i < node.input_size(); ++i) {
                if (node.input(i).empty()) continue;
                const ConstValue* c = Const(node, i);
                if (c && c->size() == 1) {
                    (i == 1 ? lo : hi) = static_cast<float>(c->at(0));
                } else if (PlanElementCount(Dims(node.input(i))) == 1) {
                    (i == 1 ? lo_tensor : hi_tensor) = node.input(i);
                } else {
                    throw Unsupported{"Clip (bounds not scalars)"};
                }
            }
            if (!lo_tensor.empty() || !hi_tensor.empty()) {
                // Bounds computed by the graph (a floor below the maximum): max, then min, with
                // the bound broadcast; a constant bound stays a clip.
                std::string x = node.input(0);
                if (!lo_tensor.empty()) {
                    x = node.output(0) + "/max";
                    tensors_[x] = BinaryOf(node, BinaryAlg::kMax, node.input(0), lo_tensor, y, x);
                    dims_[x] = y;
                }
                if (!hi_tensor.empty()) {
                    const std::string out = node.output(0) + (lo > -FLT_MAX ? "/min" : "");
                    tensors_[out] = BinaryOf(node, BinaryAlg::kMin, x, hi_tensor, y, out);
                    dims_[out] = y;
                    x = out;
                }
                if (lo > -FLT_MAX || hi < FLT_MAX) {
                    Define(node, Layer(LayerKind::kEltwise, node, {Tensor(x)}, y,
                                       {static_cast<int64_t>(EltwiseAlg::kClip)}, {lo, hi}));
                } else {
                    Define(node, Tensor(x));
                }
                return;
            }
        }
        Eltwise(node, EltwiseAlg::kClip, lo, hi);
    } else if (op == "Elu") {
        Eltwise(node, EltwiseAlg::kElu, AttrFloat(node, "alpha", 1.0f), 0.0f);
    } else if (op == "Gelu") {
        const std::string approximate = AttrString(node, "approximate", "none");
        if (approximate != "none" && approximate != "tanh") {
            throw Unsupported{"Gelu (approximate " + approximate + ")"};
        }
        Eltwise(node, approximate == "tanh" ? EltwiseAlg::kGeluTanh : EltwiseAlg::kGeluErf, 0.0f,
                0.0f);
    } else if (op == "Pow") {
        const ConstValue* e = Const(node, 1);
        if (!e || e->size() != 1) throw Unsupported{"Pow (exponent not a constant scalar)"};
        Eltwise(node, EltwiseAlg::kPow, 1.0f, static_cast<float>(e->at(0)));
    } else if (op == "Cast") {
        // A plan holds float32 values and bools as 1 and 0: casts between the two are a view
        // (to float) or a comparison with 0 (to bool).
        using T = onnx::TensorProto;
        const int64_t to = AttrInt(node, "to", 0);
        const int32_t from = TypeOf(node.input(0));
        const bool held = from == T::FLOAT || from == T::BOOL;
        if (held && (to == T::FLOAT || (to == T::BOOL && from == T::BOOL))) {
            Define(node, Layer(LayerKind::kView, node, {Tensor(node.input(0))}, y));
        } else if (held && to == T::BOOL) {
            const uint32_t zero =
                ConstTensor(node.output(0) + "/zero", std::vector<int64_t>(y.size(), 1), {0.0f});
            Define(node, Layer(LayerKind::kBinary, node, {Tensor(node.input(0)), zero}, y,
                               {static_cast<int64_t>(BinaryAlg::kNotEqual)}));
        } else {
            throw Unsupported{"Cast (to " + T::DataType_Name(static_cast<T::DataType>(to)) + ")"};
        }
    } else if (op == "Equal" || op == "Greater" || op == "GreaterOrEqual" || op == "Less" ||
               op == "LessOrEqual" || op == "And" || op == "Or" || op == "Xor") {
        using T = onnx::TensorProto;
        const bool logic = op == "And" || op == "Or" || op == "Xor";
        for (int i = 0; i < 2; ++i) {
            const int32_t t = TypeOf(node.input(i));
            if (t != (logic ? T::BOOL : T::FLOAT) && !(op == "Equal" && t == T::BOOL)) {
                throw Unsupported{op + " (of " + T::DataType_Name(static_cast<T::DataType>(t)) +
                                  ")"};
            }
        }
        static const std::map<std::string, BinaryAlg> kAlgs = {
            {"Equal", BinaryAlg::kEqual},
            {"Greater", BinaryAlg::kGreater},
            {"GreaterOrEqual", BinaryAlg::kGreaterEqual},
            {"Less", BinaryAlg::kLess},
            {"LessOrEqual", BinaryAlg::kLessEqual},
            {"And", BinaryAlg::kMin},  // of 0s and 1s
            {"Or", BinaryAlg::kMax},
            {"Xor", BinaryAlg::kNotEqual}};
        Binary(node, kAlgs.at(op));
    } else if (op == "Where") {
        Where(node);
    } else if (op == "If") {
        If(node);
    } else if (op == "Max" || op == "Min") {
        if (node.input_size() == 1) {
            Define(node, Layer(LayerKind::kView, node, {Tensor(node.input(0))}, y));
        } else if (node.input_size() == 2) {
            Binary(node, op == "Max" ? BinaryAlg::kMax : BinaryAlg::kMin);
        } else {
            throw Unsupported{op + " (more than two inputs)"};
        }
    } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
        Binary(node, op == "Add"   ? BinaryAlg::kAdd
                     : op == "Sub" ? BinaryAlg::kSub
                     : op == "Mul" ? BinaryAlg::kMul
                                   : BinaryAlg::kDiv);
    } else if (op == "MaxPool") {
        Pool(node, PoolAlg::kMax, false);
    } else if (op == "AveragePool") {
        Pool(node, PoolAlg::kAvgExcludePad, false);
    } else if (op == "GlobalAveragePool") {
        Pool(node, PoolAlg::kAvgExcludePad, true);
    } else if (op == "GlobalMaxPool") {
        Pool(node, PoolAlg::kMax, true);
    } else if (op == "Gemm") {
        Gemm(node);
    } else if (op == "MatMul") {
        MatMul(node);
    } else if (op == "Flatten" || op == "Reshape" || op == "Squeeze" || op == "Unsqueeze" ||
               op == "Identity" || op == "Dropout") {
        Define(node, Layer(LayerKind::kView, node, {Tensor(node.input(0))}, y));
    } else if (op == "Concat") {
        int64_t axis = AttrInt(node, "axis", 0);
        if (axis < 0) axis += static_cast<int64_t>(y.size());
        std::vector<uint32_t> in;
        for (const auto& name : node.input()) {
            if (PlanElementCount(Dims(name)) > 0) in.push_back(Tensor(name));
        }
        Define(node, Layer(LayerKind::kConcat, node, in, y, {axis}));
    } else if (op == "Softmax" || op == "LogSoftmax") {
        const int64_t rank = static_cast<int64_t>(y.size());
        // Softmax keeps its one int, as plans written before LogSoftmax have it.
        const std::vector<int64_t> log =
            op == "LogSoftmax" ? std::vector<int64_t>{1} : std::vector<int64_t>{};
        auto with_log = [&log](int64_t axis) {
            std::vector<int64_t> ints{axis};
            ints.insert(ints.end(), log.begin(), log.end());
            return ints;
        };
        int64_t axis = AttrInt(node, "axis", opset_ < 13 ? 1 : -1);
        if (axis < 0) axis += rank;
        if (opset_ < 13 && axis != rank - 1) {
            // Before opset 13 Softmax works on the input flattened to 2-D at `axis`.
            int64_t outer = 1;
            for (int64_t i = 0; i < axis; ++i)
                outer *= y[i];
            std::vector<int64_t> flat{outer, PlanElementCount(y) / std::max<int64_t>(outer, 1)};
            uint32_t v = Layer(LayerKind::kView, node, {Tensor(node.input(0))}, flat, {}, {},
                               node.output(0) + "/2d");
            uint32_t s = Layer(LayerKind::kSoftmax, node, {v}, flat, with_log(1), {},
                               node.output(0) + "/softmax");
            Define(node, Layer(LayerKind::kView, node, {s}, y));
        } else {
            Define(node,
                   Layer(LayerKind::kSoftmax, node, {Tensor(node.input(0))}, y, with_log(axis)));
        }
    } else if (op == "Transpose") {
        std::vector<int64_t> perm = AttrInts(node, "perm");
        if (perm.empty()) {
            for (size_t i = y.size(); i-- > 0;)
                perm.push_back(static_cast<int64_t>(i));
        }
        Define(node, Layer(LayerKind::kTranspose, node, {Tensor(node.input(0))}, y, perm));
    } else if (op == "Resize" || op == "Upsample") {
        Resize(node);
    } else if (op == "Slice") {
        Slice(node);
    } else if (op == "Split") {
        Split(node);
    } else if (op.rfind("Reduce", 0) == 0) {
        Reduce(node);
    } else {
        throw Unsupported{op};
    }
}

// The static shapes and element types a graph (the model's, or a branch) declares or ONNX's
// inference gave it, and its initializers.
bool Importer::Describe(const onnx::GraphProto& graph, std::string* error) {
    for (const auto* list : {&graph.value_info(), &graph.input(), &graph.output()}) {
        for (const auto& vi : *list) {
            bool ok;
            auto d = StaticDims(vi.type(), &ok);
            if (ok) dims_[vi.name()] = d;
            if (vi.type().has_tensor_type())
                types_[vi.name()] = vi.type().tensor_type().elem_type();
        }
    }
    for (const auto& init : graph.initializer()) {
        ConstValue c;
        if (!ReadTensorProto(init, &c, error)) return false;
        dims_[init.name()] = c.dims;
        types_[init.name()] = init.data_type();
        consts_[init.name()] = std::move(c);
    }
    return true;
}

// Folds the node when its inputs are constants, lowers it into layers otherwise; what cannot
// be lowered is recorded in unsupported_.
void Importer::Process(const onnx::NodeProto& node) {
    std::vector<ConstValue> folded;
    if (FoldNode(node, consts_, dims_, &folded) &&
        static_cast<int>(folded.size()) == node.output_size()) {
        for (int i = 0; i < node.output_size(); ++i) {
            dims_[node.output(i)] = folded[i].dims;
            consts_[node.output(i)] = std::move(folded[i]);
        }
        return;
    }
    try {
        if (node.output_size() < 1) throw Unsupported{node.op_type() + " (no output)"};
        Lower(node);
    } catch (const Unsupported& u) {
        unsupported_.insert(u.what);
    } catch (const Downstream&) {
    } catch (const std::out_of_range&) {
        unsupported_.insert(node.op_type() + " (an input or shape is unknown)");
    }
}

bool Importer::Run(CompileResult* result) {
    const auto& graph = model_.graph();
    if (!Describe(graph, &result->error)) return false;
    for (const auto& input : graph.input()) {
        if (consts_.count(input.name())) continue;
        const auto& t = input.type().tensor_type();
        if (t.elem_type() != onnx::TensorProto::FLOAT) {
            result->unsupported.push_back("input '" + input.name() + "' is not float32");
            continue;
        }
        auto it = dims_.find(input.name());
        if (it == dims_.end()) {
            result->error = "input '" + input.name() + "' has no static shape";
            return false;
        }
        uint32_t id = NewTensor(input.name(), it->second);
        tensors_[input.name()] = id;
        plan_.inputs.push_back(id);
    }
    for (const auto& node : graph.node())
        Process(node);
    std::set<std::string>& unsupported = unsupported_;
    for (const auto& output : graph.output()) {
        auto it = tensors_.find(output.name());
        if (output.type().tensor_type().elem_type() != onnx::TensorProto::FLOAT) {
            unsupported.insert("output '" + output.name() + "' is not float32");
        } else if (it == tensors_.end()) {
            if (consts_.count(output.name())) {
                unsupported.insert("output '" + output.name() + "' is a constant");
            }
        } else {
            plan_.outputs.push_back(it->second);
        }
    }
    result->unsupported.insert(result->unsupported.end(), unsupported.begin(), unsupported.end());
    if (!result->unsupported.empty()) return false;
    // A graph output that is a graph input needs a layer to produce it.
    for (uint32_t& out : plan_.outputs) {
        if (std::find(plan_.inputs.begin(), plan_.inputs.end(), out) != plan_.inputs.end()) {
            PlanLayer copy;
            copy.kind = LayerKind::kView;
            copy.name = plan_.tensors[out].name;
            copy.inputs = {out};
            copy.output = NewTensor(plan_.tensors[out].name + "/copy", plan_.tensors[out].dims);
            plan_.layers.push_back(copy);
            out = copy.output;
        }
    }
    result->plan = std::move(plan_);
    return true;
}

}  // namespace

size_t UseCount(const Plan& plan, uint32_t id) {
    size_t n = 0;
    for (const auto& layer : plan.layers) {
        for (uint32_t in : layer.inputs)
            n += in == id;
        for (const auto& op : layer.post_ops)
            n += op.kind == PostOp::kSum && op.tensor == id;
    }
    for (uint32_t out : plan.outputs)
        n += out == id;
    return n;
}

CompileOptions CompileOptionsFromEnvironment() {
    CompileOptions options;
    const char* value = std::getenv("OPENACL_MODEL_PASSES");
    if (value == nullptr || *value == '\0' || std::string(value) == "all") return options;
    std::string list = std::string(",") + value + ",";
    options.fuse = list.find(",fuse,") != std::string::npos;
    options.layout = list.find(",layout,") != std::string::npos;
    return options;
}

bool CompileOnnx(const std::string& onnx, const CompileOptions& options, CompileResult* result) {
    onnx::ModelProto model;
    if (!model.ParseFromString(onnx)) {
        result->error = "the bytes are not an ONNX model";
        return false;
    }
    int64_t opset = 0;
    for (const auto& o : model.opset_import()) {
        if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
    }
    try {
        InferShapesFoldingConstants(&model);
    } catch (const std::exception& e) {
        result->error = std::string("shape inference failed: ") + e.what();
        return false;
    }
    Importer importer(model, opset);
    if (!importer.Run(result)) return false;
    Plan& plan = result->plan;
    if (options.fuse) {
        FoldBatchNorm(&plan);
        FuseSwish(&plan);
        // The sigmoids FuseSwish replaced still read the convolutions' outputs, which would
        // keep the swishes from becoming their post-ops.
        RemoveDeadLayers(&plan);
        FusePostOps(&plan);
        CollapseViews(&plan);
        SubsampleOnce(&plan);
    }
    RemoveDeadLayers(&plan);
    ChooseLayouts(&plan, options.layout);
    ComputeLifetimes(&plan);
    if (!ValidatePlan(plan, &result->error)) {
        result->error = "the compiler made an invalid plan: " + result->error;
        return false;
    }
    return true;
}

}  // namespace openacl::model
