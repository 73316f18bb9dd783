// Builds ONNX models with random weights: the ResNet-style image classifier the
// image_classification example runs (make_resnet writes it to a file) and a small MLP, both used
// by bench/bench_model.cpp too. No pretrained weights can be downloaded where openacl is built
// and tested, so the weights come from a fixed seed: the same model on every machine, whose
// "classes" mean nothing.
#pragma once

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace resnet_onnx {

// Normal deviates from mt19937_64 (whose sequence the standard fixes) by Box-Muller, because
// std::normal_distribution differs between standard libraries.
class Random {
 public:
    explicit Random(uint64_t seed) : engine_(seed) {}
    double Uniform() {  // in (0, 1)
        return (static_cast<double>(engine_() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    }
    double Normal() {
        const double r = std::sqrt(-2.0 * std::log(Uniform()));
        return r * std::cos(6.283185307179586 * Uniform());
    }

 private:
    std::mt19937_64 engine_;
};

// A graph under construction: nodes, weights (stored as raw little-endian floats, which keeps
// a 20 MB model quick to write and parse) and fresh tensor names.
class GraphWriter {
 public:
    GraphWriter(const std::string& name, uint64_t seed) : random_(seed) {
        model_.set_ir_version(7);
        model_.set_producer_name("openacl-examples");
        // Opset 13: the newest OpenCV 4.6's ONNX importer handles fully.
        auto* opset = model_.add_opset_import();
        opset->set_domain("");
        opset->set_version(13);
        model_.mutable_graph()->set_name(name);
    }

    void Input(const std::string& name, const std::vector<int64_t>& dims) {
        Describe(model_.mutable_graph()->add_input(), name, dims);
    }
    void Output(const std::string& name, const std::vector<int64_t>& dims) {
        Describe(model_.mutable_graph()->add_output(), name, dims);
    }

    std::string Fresh(const std::string& base) { return base + "_" + std::to_string(next_++); }

    std::string Weight(const std::string& base, const std::vector<int64_t>& dims,
                       const std::vector<float>& values) {
        const std::string name = Fresh(base);
        auto* init = model_.mutable_graph()->add_initializer();
        init->set_name(name);
        init->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims)
            init->add_dims(d);
        init->set_raw_data(values.data(), values.size() * sizeof(float));
        return name;
    }

    // N(mean, stddev) values.
    std::vector<float> Normal(size_t count, double mean, double stddev) {
        std::vector<float> values(count);
        for (float& v : values)
            v = static_cast<float>(mean + stddev * random_.Normal());
        return values;
    }

    onnx::NodeProto* Node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::string& output) {
        auto* node = model_.mutable_graph()->add_node();
        node->set_op_type(op);
        node->set_name(output);
        for (const auto& in : inputs)
            node->add_input(in);
        node->add_output(output);
        return node;
    }

    static void Ints(onnx::NodeProto* node, const char* name, const std::vector<int64_t>& values) {
        auto* attr = node->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values)
            attr->add_ints(v);
    }
    static void Int(onnx::NodeProto* node, const char* name, int64_t value) {
        auto* attr = node->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::INT);
        attr->set_i(value);
    }
    static void Float(onnx::NodeProto* node, const char* name, float value) {
        auto* attr = node->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::FLOAT);
        attr->set_f(value);
    }

    std::string Bytes() const { return model_.SerializeAsString(); }

 private:
    static void Describe(onnx::ValueInfoProto* value, const std::string& name,
                         const std::vector<int64_t>& dims) {
        value->set_name(name);
        auto* tensor = value->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims)
            tensor->mutable_shape()->add_dim()->set_dim_value(d);
    }

    onnx::ModelProto model_;
    Random random_;
    int next_ = 0;
};

// Conv (no bias, He-initialised so activations keep their scale through the depth) followed by
// BatchNormalization with plausible running statistics, and Relu when asked.
inline std::string ConvBn(GraphWriter& g, const std::string& x, int64_t in, int64_t out,
                          int64_t kernel, int64_t stride, bool relu) {
    const auto fan_in = static_cast<double>(in * kernel * kernel);
    const std::string w = g.Weight(
        "conv_w", {out, in, kernel, kernel},
        g.Normal(static_cast<size_t>(out * in * kernel * kernel), 0.0, std::sqrt(2.0 / fan_in)));
    const std::string conv = g.Fresh("conv");
    auto* node = g.Node("Conv", {x, w}, conv);
    GraphWriter::Ints(node, "kernel_shape", {kernel, kernel});
    GraphWriter::Ints(node, "strides", {stride, stride});
    const int64_t pad = kernel / 2;
    GraphWriter::Ints(node, "pads", {pad, pad, pad, pad});

    const auto n = static_cast<size_t>(out);
    std::vector<float> var = g.Normal(n, 0.0, 0.1);
    for (float& v : var)
        v = 1.0f + std::fabs(v);
    const std::string scale = g.Weight("bn_scale", {out}, g.Normal(n, 1.0, 0.1));
    const std::string bias = g.Weight("bn_bias", {out}, g.Normal(n, 0.0, 0.1));
    const std::string mean = g.Weight("bn_mean", {out}, g.Normal(n, 0.0, 0.1));
    const std::string variance = g.Weight("bn_var", {out}, var);
    const std::string bn = g.Fresh("bn");
    GraphWriter::Float(g.Node("BatchNormalization", {conv, scale, bias, mean, variance}, bn),
                       "epsilon", 1e-5f);
    if (!relu) return bn;
    const std::string r = g.Fresh("relu");
    g.Node("Relu", {bn}, r);
    return r;
}

// A ResNet basic block: two 3x3 ConvBn, plus the input (through a 1x1 ConvBn when the shape
// changes), then Relu.
inline std::string BasicBlock(GraphWriter& g, const std::string& x, int64_t in, int64_t out,
                              int64_t stride) {
    const std::string a = ConvBn(g, x, in, out, 3, stride, true);
    const std::string b = ConvBn(g, a, out, out, 3, 1, false);
    const std::string shortcut =
        (stride != 1 || in != out) ? ConvBn(g, x, in, out, 1, stride, false) : x;
    const std::string sum = g.Fresh("add");
    g.Node("Add", {b, shortcut}, sum);
    const std::string r = g.Fresh("relu");
    g.Node("Relu", {sum}, r);
    return r;
}

constexpr int64_t kImageSize = 224;
constexpr int64_t kClasses = 1000;

// A ResNet-10: the ResNet-18 layout with one basic block per stage instead of two. Input
// "image" 1x3x224x224 (NCHW, float, ImageNet-normalised RGB); output "probabilities" 1x1000.
// About 0.89 GMAC and 5.4 M parameters (a 21.7 MB file).
inline std::string MakeResNet(uint64_t seed) {
    GraphWriter g("resnet10_random", seed);
    g.Input("image", {1, 3, kImageSize, kImageSize});
    std::string x = ConvBn(g, "image", 3, 64, 7, 2, true);
    const std::string pooled = g.Fresh("maxpool");
    auto* pool = g.Node("MaxPool", {x}, pooled);
    GraphWriter::Ints(pool, "kernel_shape", {3, 3});
    GraphWriter::Ints(pool, "strides", {2, 2});
    GraphWriter::Ints(pool, "pads", {1, 1, 1, 1});
    x = pooled;
    int64_t channels = 64;
    for (int64_t stage_channels : {64, 128, 256, 512}) {
        x = BasicBlock(g, x, channels, stage_channels, stage_channels == 64 ? 1 : 2);
        channels = stage_channels;
    }
    const std::string gap = g.Fresh("gap");
    g.Node("GlobalAveragePool", {x}, gap);
    const std::string flat = g.Fresh("flatten");
    GraphWriter::Int(g.Node("Flatten", {gap}, flat), "axis", 1);
    // Small logits, so that the softmax of a random model is not one-hot.
    const std::string fc_w = g.Weight(
        "fc_w", {kClasses, channels},
        g.Normal(static_cast<size_t>(kClasses * channels), 0.0, 1.0 / std::sqrt(channels)));
    const std::string fc_b =
        g.Weight("fc_b", {kClasses}, g.Normal(static_cast<size_t>(kClasses), 0.0, 0.01));
    const std::string logits = g.Fresh("logits");
    GraphWriter::Int(g.Node("Gemm", {flat, fc_w, fc_b}, logits), "transB", 1);
    GraphWriter::Int(g.Node("Softmax", {logits}, "probabilities"), "axis", 1);
    g.Output("probabilities", {1, kClasses});
    return g.Bytes();
}

// A small MLP: input "x" 1x`width`, `layers` Gemm+Relu layers of `width`, a Gemm to 10 and
// Softmax, output "y" 1x10. Small enough that a run costs microseconds, where the runtime's
// per-call overhead shows.
inline std::string MakeMlp(uint64_t seed, int64_t width = 64, int layers = 3) {
    GraphWriter g("mlp_random", seed);
    g.Input("x", {1, width});
    std::string x = "x";
    for (int i = 0; i <= layers; ++i) {
        const bool last = i == layers;
        const int64_t out = last ? 10 : width;
        const std::string w =
            g.Weight("w", {out, width},
                     g.Normal(static_cast<size_t>(out * width), 0.0, std::sqrt(2.0 / width)));
        const std::string b = g.Weight("b", {out}, g.Normal(static_cast<size_t>(out), 0.0, 0.01));
        const std::string y = g.Fresh("gemm");
        GraphWriter::Int(g.Node("Gemm", {x, w, b}, y), "transB", 1);
        if (last) {
            GraphWriter::Int(g.Node("Softmax", {y}, "y"), "axis", 1);
        } else {
            x = g.Fresh("relu");
            g.Node("Relu", {y}, x);
        }
    }
    g.Output("y", {1, 10});
    return g.Bytes();
}

// Writes `bytes` beside `path` and renames it into place, so a build interrupted midway leaves
// no truncated model that looks up to date. Says why on stderr when it fails.
inline bool WriteModelFile(const std::string& path, const std::string& bytes, const char* tool) {
    const std::string partial = path + ".partial";
    {
        std::ofstream file(partial, std::ios::binary | std::ios::trunc);
        file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!file) {
            std::fprintf(stderr, "%s: cannot write %s\n", tool, partial.c_str());
            return false;
        }
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
        std::fprintf(stderr, "%s: cannot rename %s to %s\n", tool, partial.c_str(), path.c_str());
        return false;
    }
    return true;
}

}  // namespace resnet_onnx
