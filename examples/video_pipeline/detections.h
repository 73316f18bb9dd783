// The pipeline's postprocessing: turns the detector's output grid (detector_onnx.h) into boxes
// in frame pixels — a score threshold, then non-maximum suppression across classes (the random
// model's classes mean nothing, and overlapping boxes of different classes only clutter the
// picture) — and writes them as one JSON line per frame. Pure host code, run in the callback.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace video_pipeline {

struct Detection {
    int cls = 0;
    float score = 0;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // frame pixels
};

// Where the model's grid lies on the frame.
struct HeadGeometry {
    int64_t anchors = 3, classes = 4;  // channels = anchors * (5 + classes)
    int64_t grid_h = 0, grid_w = 0;
    int64_t input_h = 0, input_w = 0;
    int64_t frame_h = 0, frame_w = 0;
};

// Anchor sizes in model-input pixels (small, medium, large objects).
constexpr float kAnchorSizes[3][2] = {{24, 24}, {56, 48}, {120, 96}};

inline float IntersectionOverUnion(const Detection& a, const Detection& b) {
    const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
    const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
    if (w <= 0 || h <= 0) return 0;
    const float overlap = w * h;
    const float area_a = (a.x1 - a.x0) * (a.y1 - a.y0), area_b = (b.x1 - b.x0) * (b.y1 - b.y0);
    return overlap / (area_a + area_b - overlap);
}

// `out` holds anchors * (5 + classes) planes of grid_h x grid_w sigmoid values: x, y, w, h
// offsets (YOLOv5's parameterisation), objectness, class scores.
inline std::vector<Detection> DecodeDetections(const float* out, const HeadGeometry& g,
                                               float threshold, size_t max_detections = 10) {
    const int64_t plane = g.grid_h * g.grid_w, values = 5 + g.classes;
    const float cell_w = static_cast<float>(g.input_w) / static_cast<float>(g.grid_w);
    const float cell_h = static_cast<float>(g.input_h) / static_cast<float>(g.grid_h);
    const float to_frame_x = static_cast<float>(g.frame_w) / static_cast<float>(g.input_w);
    const float to_frame_y = static_cast<float>(g.frame_h) / static_cast<float>(g.input_h);
    std::vector<Detection> candidates;
    for (int64_t a = 0; a < g.anchors; ++a) {
        const float* v = out + a * values * plane;
        for (int64_t cell = 0; cell < plane; ++cell) {
            int best = 0;
            for (int64_t c = 1; c < g.classes; ++c)
                if (v[(5 + c) * plane + cell] > v[(5 + best) * plane + cell])
                    best = static_cast<int>(c);
            const float score = v[4 * plane + cell] * v[(5 + best) * plane + cell];
            if (score < threshold) continue;
            const float cx = (static_cast<float>(cell % g.grid_w) + 2 * v[cell] - 0.5f) * cell_w;
            const float cy =
                (static_cast<float>(cell / g.grid_w) + 2 * v[plane + cell] - 0.5f) * cell_h;
            const float tw = 2 * v[2 * plane + cell], th = 2 * v[3 * plane + cell];
            const float w = kAnchorSizes[a % 3][0] * tw * tw, h = kAnchorSizes[a % 3][1] * th * th;
            Detection d;
            d.cls = best;
            d.score = score;
            d.x0 = std::clamp((cx - w / 2) * to_frame_x, 0.0f, static_cast<float>(g.frame_w));
            d.y0 = std::clamp((cy - h / 2) * to_frame_y, 0.0f, static_cast<float>(g.frame_h));
            d.x1 = std::clamp((cx + w / 2) * to_frame_x, 0.0f, static_cast<float>(g.frame_w));
            d.y1 = std::clamp((cy + h / 2) * to_frame_y, 0.0f, static_cast<float>(g.frame_h));
            candidates.push_back(d);
        }
    }
    // Highest score first; ties broken by position so the order never depends on the sort.
    std::sort(candidates.begin(), candidates.end(), [](const Detection& a, const Detection& b) {
        if (a.score != b.score) return a.score > b.score;
        if (a.y0 != b.y0) return a.y0 < b.y0;
        return a.x0 < b.x0;
    });
    std::vector<Detection> kept;
    for (const Detection& d : candidates) {
        bool suppressed = false;
        for (const Detection& k : kept)
            if (IntersectionOverUnion(k, d) > 0.4f) suppressed = true;
        if (!suppressed) kept.push_back(d);
        if (kept.size() == max_detections) break;
    }
    return kept;
}

inline std::string DetectionsJson(int channel, int64_t frame, const std::vector<Detection>& dets) {
    std::string line = "{\"channel\":" + std::to_string(channel) +
                       ",\"frame\":" + std::to_string(frame) + ",\"detections\":[";
    char item[160];
    for (size_t i = 0; i < dets.size(); ++i) {
        const Detection& d = dets[i];
        std::snprintf(
            item, sizeof item, "%s{\"class\":%d,\"score\":%.4f,\"box\":[%.1f,%.1f,%.1f,%.1f]}",
            i ? "," : "", d.cls, static_cast<double>(d.score), static_cast<double>(d.x0),
            static_cast<double>(d.y0), static_cast<double>(d.x1), static_cast<double>(d.y1));
        line += item;
    }
    return line + "]}";
}

}  // namespace video_pipeline
