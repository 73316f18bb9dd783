// A YOLO-style detector for the benchmarks, in the shape of YOLOv5n (the smallest of the
// family): a CSP backbone of Conv+BatchNormalization+SiLU blocks (SiLU written as exporters do,
// x * Sigmoid(x)) with an SPPF block, a PANet neck (Resize nearest x2 upsampling and Concat,
// then strided convolutions back down) and three 1x1 heads whose grids are reshaped,
// transposed and concatenated into one tensor of boxes, as the YOLOv5 export does. RANDOM
// weights from a fixed seed: its boxes mean nothing. Input "images" Nx3x416x416, output
// "detections" Nx10647x85 (3 anchors x (52x52 + 26x26 + 13x13) cells; box, objectness and 80
// class scores, after Sigmoid). About 0.8 GMAC per image and 1.8 M parameters.
//
// (examples/video_pipeline/detector_onnx.h is the video pipeline's smaller single-scale model,
// sized for that demo; this one is sized and shaped like a real detector.)
#pragma once

#include <string>
#include <vector>

#include "conv_blocks.h"

namespace bench_models {

constexpr int64_t kDetectorSize = 416;
constexpr int64_t kDetectorAnchors = 3;
constexpr int64_t kDetectorValues = 85;  // x, y, w, h, objectness, 80 classes

inline std::string Cbs(GraphWriter& g, const std::string& x, int64_t in, int64_t out,
                       int64_t kernel, int64_t stride) {
    return ConvBnAct(g, x, {in, out, kernel, stride, 1, Act::kSilu});
}

inline std::string ConcatNodes(GraphWriter& g, const std::vector<std::string>& inputs,
                               int64_t axis) {
    const std::string y = g.Fresh("concat");
    GraphWriter::Int(g.Node("Concat", inputs, y), "axis", axis);
    return y;
}

// YOLOv5's C3 with one bottleneck: two 1x1 halves, a residual 1x1+3x3 on one, concatenated and
// mixed by a 1x1.
inline std::string C3(GraphWriter& g, const std::string& x, int64_t in, int64_t out,
                      bool shortcut) {
    const int64_t half = out / 2;
    const std::string a = Cbs(g, x, in, half, 1, 1);
    const std::string b = Cbs(g, x, in, half, 1, 1);
    std::string m = Cbs(g, a, half, half, 1, 1);
    m = ConvBnAct(g, m, {half, half, 3, 1, 1, Act::kSilu, shortcut ? 0.3 : 1.0});
    if (shortcut) m = AddNode(g, a, m);
    return Cbs(g, ConcatNodes(g, {m, b}, 1), out, out, 1, 1);
}

// SPPF: three chained 5x5 stride-1 max pools, concatenated with their input.
inline std::string Sppf(GraphWriter& g, const std::string& x, int64_t channels) {
    const int64_t half = channels / 2;
    const std::string a = Cbs(g, x, channels, half, 1, 1);
    std::vector<std::string> parts = {a};
    for (int i = 0; i < 3; ++i) {
        const std::string y = g.Fresh("maxpool");
        auto* pool = g.Node("MaxPool", {parts.back()}, y);
        GraphWriter::Ints(pool, "kernel_shape", {5, 5});
        GraphWriter::Ints(pool, "strides", {1, 1});
        GraphWriter::Ints(pool, "pads", {2, 2, 2, 2});
        parts.push_back(y);
    }
    return Cbs(g, ConcatNodes(g, parts, 1), 4 * half, channels, 1, 1);
}

// Nearest-neighbour x2, as PyTorch exports nn.Upsample: opset-13 Resize with an empty roi and
// constant scales.
inline std::string Upsample2x(GraphWriter& g, const std::string& x) {
    const std::string roi = g.Weight("roi", {0}, {});
    const std::string scales = g.Weight("scales", {4}, {1.0f, 1.0f, 2.0f, 2.0f});
    const std::string y = g.Fresh("resize");
    auto* node = g.Node("Resize", {x, roi, scales}, y);
    auto* mode = node->add_attribute();
    mode->set_name("mode");
    mode->set_type(onnx::AttributeProto::STRING);
    mode->set_s("nearest");
    auto* coord = node->add_attribute();
    coord->set_name("coordinate_transformation_mode");
    coord->set_type(onnx::AttributeProto::STRING);
    coord->set_s("asymmetric");
    auto* rounding = node->add_attribute();
    rounding->set_name("nearest_mode");
    rounding->set_type(onnx::AttributeProto::STRING);
    rounding->set_s("floor");
    return y;
}

// An int64 vector as a Constant node (Reshape's shape), as exporters write it.
inline std::string Int64Constant(GraphWriter& g, const std::string& base,
                                 const std::vector<int64_t>& values) {
    const std::string name = g.Fresh(base);
    auto* attr = g.Node("Constant", {}, name)->add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    auto* tensor = attr->mutable_t();
    tensor->set_data_type(onnx::TensorProto::INT64);
    tensor->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values)
        tensor->add_int64_data(v);
    return name;
}

// A 1x1 head (with bias) on a grid, reshaped to N x (anchors * cells) x values.
inline std::string Head(GraphWriter& g, const std::string& x, int64_t channels, int64_t batch,
                        int64_t grid) {
    const int64_t outputs = kDetectorAnchors * kDetectorValues;
    const std::string w =
        g.Weight("head_w", {outputs, channels, 1, 1},
                 g.Normal(static_cast<size_t>(outputs * channels), 0.0, 1.0 / std::sqrt(channels)));
    const std::string b =
        g.Weight("head_b", {outputs}, g.Normal(static_cast<size_t>(outputs), -1.0, 0.5));
    const std::string conv = g.Fresh("head");
    GraphWriter::Ints(g.Node("Conv", {x, w, b}, conv), "kernel_shape", {1, 1});
    const int64_t cells = grid * grid;
    const std::string grouped = g.Fresh("head_grouped");
    g.Node("Reshape",
           {conv, Int64Constant(g, "shape", {batch, kDetectorAnchors, kDetectorValues, cells})},
           grouped);
    const std::string moved = g.Fresh("head_transposed");
    GraphWriter::Ints(g.Node("Transpose", {grouped}, moved), "perm", {0, 1, 3, 2});
    const std::string rows = g.Fresh("head_rows");
    g.Node("Reshape",
           {moved, Int64Constant(g, "shape", {batch, kDetectorAnchors * cells, kDetectorValues})},
           rows);
    return rows;
}

inline std::string MakeDetector(int64_t batch, uint64_t seed) {
    GraphWriter g("yolo_style_detector_random", seed);
    g.Input("images", {batch, 3, kDetectorSize, kDetectorSize});
    // Backbone: strides 2 .. 32, widths 16 .. 256.
    std::string x = Cbs(g, "images", 3, 16, 3, 2);
    x = C3(g, Cbs(g, x, 16, 32, 3, 2), 32, 32, true);
    const std::string p3 = C3(g, Cbs(g, x, 32, 64, 3, 2), 64, 64, true);
    const std::string p4 = C3(g, Cbs(g, p3, 64, 128, 3, 2), 128, 128, true);
    const std::string p5 = Sppf(g, C3(g, Cbs(g, p4, 128, 256, 3, 2), 256, 256, true), 256);
    // Neck, top-down.
    const std::string h5 = Cbs(g, p5, 256, 128, 1, 1);
    const std::string n4 = C3(g, ConcatNodes(g, {Upsample2x(g, h5), p4}, 1), 256, 128, false);
    const std::string h4 = Cbs(g, n4, 128, 64, 1, 1);
    const std::string n3 = C3(g, ConcatNodes(g, {Upsample2x(g, h4), p3}, 1), 128, 64, false);
    // Neck, bottom-up.
    const std::string o4 =
        C3(g, ConcatNodes(g, {Cbs(g, n3, 64, 64, 3, 2), h4}, 1), 128, 128, false);
    const std::string o5 =
        C3(g, ConcatNodes(g, {Cbs(g, o4, 128, 128, 3, 2), h5}, 1), 256, 256, false);
    const int64_t grid3 = kDetectorSize / 8;
    const std::string all =
        ConcatNodes(g,
                    {Head(g, n3, 64, batch, grid3), Head(g, o4, 128, batch, grid3 / 2),
                     Head(g, o5, 256, batch, grid3 / 4)},
                    1);
    g.Node("Sigmoid", {all}, "detections");
    const int64_t rows =
        kDetectorAnchors * (grid3 * grid3 + grid3 * grid3 / 4 + grid3 * grid3 / 16);
    g.Output("detections", {batch, rows, kDetectorValues});
    return g.Bytes();
}

}  // namespace bench_models
