// The video pipeline's model: a small single-scale detector in the YOLO style, with RANDOM
// weights from a fixed seed (nothing pretrained can be downloaded where openacl is built). It
// has a real detector's shape and cost — a strided convolutional backbone and a 1x1 head that
// predicts, for each grid cell and anchor, a box, an objectness and class scores — so the
// pipeline does the work a real one does; its detections follow the picture but mean nothing.
#pragma once

#include <string>

#include "../image_classification/resnet_onnx.h"

namespace detector_onnx {

constexpr int64_t kInputHeight = 256;  // 416x256: a small detector's 416 input, cut to 16:9
constexpr int64_t kInputWidth = 416;   // (multiples of the stride, no letterbox bars)
constexpr int64_t kStride = 32;        // five stride-2 convolutions
constexpr int64_t kAnchors = 3;
constexpr int64_t kClasses = 4;
constexpr int64_t kValuesPerAnchor = 5 + kClasses;  // x, y, w, h, objectness, classes

// Input "frames" 1x3x256x416 (RGB in [0, 1], planar); output "detections" 1x27x8x13: for anchor
// a, channels a*9 .. a*9+8 hold sigmoid(tx, ty, tw, th, objectness, class scores) per cell.
// The backbone of the tiny YOLO-style detectors deployed on edge devices: five strided 3x3
// stages (16 to 128 channels) and a 1x1 head, about 119 M multiply-adds. On one core of the
// 2-core reference machine the device's work on a frame (upload, the resize kernel, this model,
// download) then costs about what decoding one of the sample clip's frames costs on the host,
// as in a balanced real pipeline (docs/PERFORMANCE.md, "The video pipeline").
inline std::string MakeDetector(uint64_t seed) {
    resnet_onnx::GraphWriter g("detector_random", seed);
    g.Input("frames", {1, 3, kInputHeight, kInputWidth});
    std::string x = "frames";
    int64_t channels = 3;
    for (int64_t width : {16, 32, 64, 128, 128}) {
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
