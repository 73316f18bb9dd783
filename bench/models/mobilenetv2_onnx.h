// MobileNetV2 (Sandler et al. 2018, width 1.0, 224x224): inverted residual blocks (1x1 expand,
// 3x3 depthwise, 1x1 linear projection), BatchNormalization after every convolution and a real
// ReLU6, written as exporters write it since opset 11: Clip with min/max inputs. RANDOM weights
// from a fixed seed. Input "image" Nx3x224x224, output "logits" Nx1000. About 0.3 GMAC per
// image and 3.5 M parameters.
#pragma once

#include <string>

#include "conv_blocks.h"

namespace bench_models {

inline std::string InvertedResidual(GraphWriter& g, const std::string& x, int64_t in, int64_t out,
                                    int64_t stride, int64_t expand) {
    const int64_t hidden = in * expand;
    std::string y = x;
    if (expand != 1) y = ConvBnAct(g, y, {in, hidden, 1, 1, 1, Act::kRelu6});
    y = ConvBnAct(g, y, {hidden, hidden, 3, stride, hidden, Act::kRelu6});
    const bool residual = stride == 1 && in == out;
    y = ConvBnAct(g, y, {hidden, out, 1, 1, 1, Act::kNone, residual ? 0.3 : 1.0});
    return residual ? AddNode(g, x, y) : y;
}

inline std::string MakeMobileNetV2(int64_t batch, uint64_t seed) {
    GraphWriter g("mobilenetv2_random", seed);
    g.Input("image", {batch, 3, 224, 224});
    std::string x = ConvBnAct(g, "image", {3, 32, 3, 2, 1, Act::kRelu6});
    int64_t channels = 32;
    struct Stage {
        int64_t expand, out, repeat, stride;
    };
    const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                            {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    for (const Stage& s : stages) {
        for (int64_t i = 0; i < s.repeat; ++i) {
            x = InvertedResidual(g, x, channels, s.out, i == 0 ? s.stride : 1, s.expand);
            channels = s.out;
        }
    }
    x = ConvBnAct(g, x, {channels, 1280, 1, 1, 1, Act::kRelu6});
    ClassifierHead(g, x, 1280, 1000, batch, "logits");
    return g.Bytes();
}

}  // namespace bench_models
