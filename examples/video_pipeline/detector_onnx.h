// The video pipeline's model: a small single-scale detector in the YOLO style, with RANDOM
// weights from a fixed seed (nothing pretrained can be downloaded where openacl is built). It
// has a real detector's shape and cost — a strided convolutional backbone and a 1x1 head that
// predicts, for each grid cell and anchor, a box, an objectness and class scores — so the
// pipeline does the work a real one does; its detections follow the picture but mean nothing.
#pragma once

#include <string>

#include "../image_classification/resnet_onnx.h"

namespace detector_onnx {

constexpr int64_t kInputHeight = 192;  // 320x192: near 16:9, and multiples of the stride
constexpr int64_t kInputWidth = 320;
constexpr int64_t kStride = 32;  // five stride-2 convolutions
constexpr int64_t kAnchors = 3;
constexpr int64_t kClasses = 4;
constexpr int64_t kValuesPerAnchor = 5 + kClasses;  // x, y, w, h, objectness, classes

// Input "frames" 1x3x192x320 (RGB in [0, 1], planar); output "detections" 1x27x6x10: for anchor
// a, channels a*9 .. a*9+8 hold sigmoid(tx, ty, tw, th, objectness, class scores) per cell.
// About 48 M multiply-adds: sized so that on one core the device's work on a frame takes
// about as long as decoding the sample clip's frame, as in a balanced real pipeline.
inline std::string MakeDetector(uint64_t seed) {
    resnet_onnx::GraphWriter g("detector_random", seed);
    g.Input("frames", {1, 3, kInputHeight, kInputWidth});
    std::string x = "frames";
    int64_t channels = 3;
    for (int64_t width : {16, 32, 48, 64, 96}) {
        x = resnet_onnx::ConvBn(g, x, channels, width, 3, 2, true);
        channels = width;
    }
    const int64_t outputs = kAnchors * kValuesPerAnchor;
    const std::string w =
        g.Weight("head_w", {outputs, channels, 1, 1},
                 g.Normal(static_cast<size_t>(outputs * channels), 0.0, 1.0 / std::sqrt(channels)));
    const std::string b =
        g.Weight("head_b", {outputs}, g.Normal(static_cast<size_t>(outputs), 0.0, 0.5));
    const std::string head = g.Fresh("head");
    g.Node("Conv", {x, w, b}, head);
    g.Node("Sigmoid", {head}, "detections");
    g.Output("detections", {1, outputs, kInputHeight / kStride, kInputWidth / kStride});
    return g.Bytes();
}

}  // namespace detector_onnx
