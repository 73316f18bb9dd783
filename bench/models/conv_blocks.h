// Building blocks shared by the benchmark models (resnet50_onnx.h, mobilenetv2_onnx.h,
// detector_onnx.h): a convolution followed by BatchNormalization and an activation, written
// the way exporters write them (ReLU6 as opset-13 Clip with min/max inputs, SiLU as
// x * Sigmoid(x)). The graph writer and the seeded random numbers are the image_classification
// example's (examples/image_classification/resnet_onnx.h), so every machine builds the same
// model bytes.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "resnet_onnx.h"

namespace bench_models {

using resnet_onnx::GraphWriter;

enum class Act { kNone, kRelu, kRelu6, kSilu };

struct ConvSpec {
    int64_t in = 0;
    int64_t out = 0;
    int64_t kernel = 1;
    int64_t stride = 1;
    int64_t groups = 1;
    Act act = Act::kNone;
    // Standard deviation of BatchNormalization's scale around `bn_scale_mean`. A small scale on
    // the last BatchNormalization of a residual branch keeps a deep random network's
    // activations from growing block after block (what "zero-init gamma" does in training).
    double bn_scale_mean = 1.0;
};

inline std::string Activation(GraphWriter& g, const std::string& x, Act act) {
    switch (act) {
        case Act::kNone:
            return x;
        case Act::kRelu: {
            const std::string y = g.Fresh("relu");
            g.Node("Relu", {x}, y);
            return y;
        }
        case Act::kRelu6: {
            // Opset 13: the bounds are (scalar) inputs, not attributes.
            const std::string lo = g.Weight("clip_min", {}, {0.0f});
            const std::string hi = g.Weight("clip_max", {}, {6.0f});
            const std::string y = g.Fresh("relu6");
            g.Node("Clip", {x, lo, hi}, y);
            return y;
        }
        case Act::kSilu: {
            const std::string s = g.Fresh("sigmoid");
            g.Node("Sigmoid", {x}, s);
            const std::string y = g.Fresh("silu");
            g.Node("Mul", {x, s}, y);
            return y;
        }
    }
    return x;
}

// Conv without bias (He-initialised for its fan-in, so activations keep their scale) +
// BatchNormalization with plausible running statistics + the activation. "Same" padding.
inline std::string ConvBnAct(GraphWriter& g, const std::string& x, const ConvSpec& s) {
    const int64_t in_per_group = s.in / s.groups;
    const auto fan_in = static_cast<double>(in_per_group * s.kernel * s.kernel);
    const auto count = static_cast<size_t>(s.out * in_per_group * s.kernel * s.kernel);
    const std::string w = g.Weight("conv_w", {s.out, in_per_group, s.kernel, s.kernel},
                                   g.Normal(count, 0.0, std::sqrt(2.0 / fan_in)));
    const std::string conv = g.Fresh("conv");
    auto* node = g.Node("Conv", {x, w}, conv);
    GraphWriter::Ints(node, "kernel_shape", {s.kernel, s.kernel});
    GraphWriter::Ints(node, "strides", {s.stride, s.stride});
    const int64_t pad = s.kernel / 2;
    GraphWriter::Ints(node, "pads", {pad, pad, pad, pad});
    if (s.groups != 1) GraphWriter::Int(node, "group", s.groups);

    const auto n = static_cast<size_t>(s.out);
    std::vector<float> var = g.Normal(n, 0.0, 0.1);
    for (float& v : var)
        v = 1.0f + std::fabs(v);
    const std::string scale =
        g.Weight("bn_scale", {s.out}, g.Normal(n, s.bn_scale_mean, 0.1 * s.bn_scale_mean));
    const std::string bias = g.Weight("bn_bias", {s.out}, g.Normal(n, 0.0, 0.1));
    const std::string mean = g.Weight("bn_mean", {s.out}, g.Normal(n, 0.0, 0.1));
    const std::string variance = g.Weight("bn_var", {s.out}, var);
    const std::string bn = g.Fresh("bn");
    GraphWriter::Float(g.Node("BatchNormalization", {conv, scale, bias, mean, variance}, bn),
                       "epsilon", 1e-5f);
    return Activation(g, bn, s.act);
}

inline std::string AddNode(GraphWriter& g, const std::string& a, const std::string& b) {
    const std::string y = g.Fresh("add");
    g.Node("Add", {a, b}, y);
    return y;
}

// The classifier's end: GlobalAveragePool, Flatten, Gemm to `classes` logits (no Softmax, as
// the torchvision exports end: logits are what an accuracy comparison should look at).
inline void ClassifierHead(GraphWriter& g, const std::string& x, int64_t channels, int64_t classes,
                           int64_t batch, const std::string& output) {
    const std::string gap = g.Fresh("gap");
    g.Node("GlobalAveragePool", {x}, gap);
    const std::string flat = g.Fresh("flatten");
    GraphWriter::Int(g.Node("Flatten", {gap}, flat), "axis", 1);
    const std::string w =
        g.Weight("fc_w", {classes, channels},
                 g.Normal(static_cast<size_t>(classes * channels), 0.0, 1.0 / std::sqrt(channels)));
    const std::string b =
        g.Weight("fc_b", {classes}, g.Normal(static_cast<size_t>(classes), 0.0, 0.01));
    GraphWriter::Int(g.Node("Gemm", {flat, w, b}, output), "transB", 1);
    g.Output(output, {batch, classes});
}

}  // namespace bench_models
