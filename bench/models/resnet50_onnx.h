// ResNet-50 v1 (He et al. 2015, the paper's topology: the stride of a downsampling bottleneck is
// on its first 1x1 convolution and on the projection shortcut), every convolution followed by
// BatchNormalization, with RANDOM weights from a fixed seed. Input "image" Nx3x224x224, output
// "logits" Nx1000. About 3.9 GMAC per image and 25.6 M parameters (a 102 MB file).
#pragma once

#include <string>

#include "conv_blocks.h"

namespace bench_models {

// 1x1 reduce (strided when downsampling), 3x3, 1x1 expand x4; the shortcut is the input or a
// strided 1x1 projection; Relu after the sum.
inline std::string Bottleneck(GraphWriter& g, const std::string& x, int64_t in, int64_t width,
                              int64_t stride) {
    const int64_t out = 4 * width;
    std::string y = ConvBnAct(g, x, {in, width, 1, stride, 1, Act::kRelu});
    y = ConvBnAct(g, y, {width, width, 3, 1, 1, Act::kRelu});
    y = ConvBnAct(g, y, {width, out, 1, 1, 1, Act::kNone, 0.2});
    const std::string shortcut =
        (stride != 1 || in != out) ? ConvBnAct(g, x, {in, out, 1, stride, 1, Act::kNone}) : x;
    return Activation(g, AddNode(g, y, shortcut), Act::kRelu);
}

inline std::string MakeResNet50(int64_t batch, uint64_t seed) {
    GraphWriter g("resnet50_v1_random", seed);
    g.Input("image", {batch, 3, 224, 224});
    std::string x = ConvBnAct(g, "image", {3, 64, 7, 2, 1, Act::kRelu});
    const std::string pooled = g.Fresh("maxpool");
    auto* pool = g.Node("MaxPool", {x}, pooled);
    GraphWriter::Ints(pool, "kernel_shape", {3, 3});
    GraphWriter::Ints(pool, "strides", {2, 2});
    GraphWriter::Ints(pool, "pads", {1, 1, 1, 1});
    x = pooled;
    int64_t channels = 64;
    const int64_t widths[] = {64, 128, 256, 512};
    const int blocks[] = {3, 4, 6, 3};
    for (int stage = 0; stage < 4; ++stage) {
        for (int b = 0; b < blocks[stage]; ++b) {
            const int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
            x = Bottleneck(g, x, channels, widths[stage], stride);
            channels = 4 * widths[stage];
        }
    }
    ClassifierHead(g, x, channels, 1000, batch, "logits");
    return g.Bytes();
}

}  // namespace bench_models
