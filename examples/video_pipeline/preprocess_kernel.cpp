// The pipeline's preprocessing on the device: one video frame (8-bit BGR, as decoded) resized
// bilinearly to the model's input and normalised to RGB floats in [0, 1], planar (CHW). The
// blocks split the output rows, so a launch over many blocks spreads over the device's cores.
#include <cstdint>

#include "openacl/kernel.h"

namespace {

struct Tap {
    uint32_t low, high;  // neighbouring source indices
    float weight;        // of `high`
};

// Source coordinate of output index `i` with pixel centres aligned (OpenCV's INTER_LINEAR).
Tap MapCoordinate(uint64_t i, uint64_t src, uint64_t dst) {
    float x =
        (static_cast<float>(i) + 0.5f) * static_cast<float>(src) / static_cast<float>(dst) - 0.5f;
    if (x < 0.0f) x = 0.0f;
    auto low = static_cast<uint32_t>(x);
    if (low >= src - 1) return {static_cast<uint32_t>(src - 1), static_cast<uint32_t>(src - 1), 0};
    return {low, low + 1, x - static_cast<float>(low)};
}

}  // namespace

// frame: src_h rows of src_stride bytes (BGR); tensor: 3 planes of dst_h x dst_w floats (RGB).
extern "C" __global__ __aicore__ void preprocess_frame(GM_ADDR frame, GM_ADDR tensor,
                                                       uint64_t src_w, uint64_t src_h,
                                                       uint64_t src_stride, uint64_t dst_w,
                                                       uint64_t dst_h) {
    constexpr uint64_t kMaxWidth = 4096;  // the column taps are computed once per block
    OPENACL_KERNEL_ASSERT(dst_w <= kMaxWidth && src_w > 0 && src_h > 0);
    const auto* src = reinterpret_cast<const uint8_t*>(frame);
    auto* dst = reinterpret_cast<float*>(tensor);
    const uint64_t blocks = static_cast<uint64_t>(GetBlockNum());
    const uint64_t rows = (dst_h + blocks - 1) / blocks;
    const uint64_t first = static_cast<uint64_t>(GetBlockIdx()) * rows;
    const uint64_t plane = dst_w * dst_h;
    Tap columns[kMaxWidth];
    for (uint64_t x = 0; x < dst_w; ++x) {
        columns[x] = MapCoordinate(x, src_w, dst_w);
        columns[x].low *= 3;  // byte offsets of the pixels
        columns[x].high *= 3;
    }
    constexpr float kScale = 1.0f / 255.0f;
    for (uint64_t y = first; y < first + rows && y < dst_h; ++y) {
        const Tap ty = MapCoordinate(y, src_h, dst_h);
        const uint8_t* top = src + ty.low * src_stride;
        const uint8_t* bottom = src + ty.high * src_stride;
        // BGR in, RGB out: source channel c lands in plane 2 - c.
        for (uint64_t c = 0; c < 3; ++c) {
            float* out = dst + (2 - c) * plane + y * dst_w;
            for (uint64_t x = 0; x < dst_w; ++x) {
                const Tap& tx = columns[x];
                const float tl = top[tx.low + c], tr = top[tx.high + c];
                const float bl = bottom[tx.low + c], br = bottom[tx.high + c];
                const float upper = tl + tx.weight * (tr - tl);
                const float lower = bl + tx.weight * (br - bl);
                out[x] = (upper + ty.weight * (lower - upper)) * kScale;
            }
        }
    }
}

// The --dvpp mode's preprocessing: VPC has already resized the decoded frame to the model's
// input in YUV420SP (NV12: a luma plane, then interleaved U/V at half resolution); this converts
// it to RGB floats in [0, 1], planar (CHW), with the BT.601 limited-range matrix that H.264
// camera streams use. The blocks split the rows.
extern "C" __global__ __aicore__ void preprocess_nv12(GM_ADDR picture, GM_ADDR tensor,
                                                      uint64_t width, uint64_t height,
                                                      uint64_t width_stride,
                                                      uint64_t height_stride) {
    OPENACL_KERNEL_ASSERT(width > 0 && height > 0 && width_stride >= width &&
                          height_stride >= height);
    const auto* luma = reinterpret_cast<const uint8_t*>(picture);
    const uint8_t* chroma = luma + width_stride * height_stride;
    auto* dst = reinterpret_cast<float*>(tensor);
    const uint64_t blocks = static_cast<uint64_t>(GetBlockNum());
    const uint64_t rows = (height + blocks - 1) / blocks;
    const uint64_t first = static_cast<uint64_t>(GetBlockIdx()) * rows;
    const uint64_t plane = width * height;
    auto unit = [](float v) { return v < 0.0f ? 0.0f : (v > 255.0f ? 1.0f : v / 255.0f); };
    for (uint64_t y = first; y < first + rows && y < height; ++y) {
        const uint8_t* yrow = luma + y * width_stride;
        const uint8_t* uvrow = chroma + (y / 2) * width_stride;
        float* r = dst + y * width;
        float* g = r + plane;
        float* b = g + plane;
        for (uint64_t x = 0; x < width; ++x) {
            const float l = 1.164f * (static_cast<float>(yrow[x]) - 16.0f);
            const float u = static_cast<float>(uvrow[x & ~uint64_t{1}]) - 128.0f;
            const float v = static_cast<float>(uvrow[x | 1]) - 128.0f;
            r[x] = unit(l + 1.596f * v);
            g[x] = unit(l - 0.392f * u - 0.813f * v);
            b[x] = unit(l + 2.017f * u);
        }
    }
}
