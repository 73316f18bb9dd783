#include "dvpp/histogram.h"

#include "dvpp/color.h"

namespace openacl::dvpp {

namespace {

// Calls fn(component, in_sample, out_sample) for every sample of the picture. out may be null.
template <class Fn>
void ForEachSample(const Picture& in, const Picture* out, Fn fn) {
    const uint32_t w = in.width, h = in.height;
    auto row = [](const Picture* p, size_t offset, uint32_t y, size_t pitch) -> uint8_t* {
        return p ? p->data + offset + y * pitch : nullptr;
    };
    RgbLayout rgb;
    ChromaShape shape;
    if (RgbLayoutOf(in.format, &rgb)) {
        const int index[3] = {rgb.r, rgb.g, rgb.b};
        for (uint32_t y = 0; y < h; ++y) {
            uint8_t* s = row(&in, 0, y, in.ws);
            uint8_t* d = row(out, 0, y, out ? out->ws : 0);
            for (uint32_t x = 0; x < w; ++x)
                for (int c = 0; c < 3; ++c) {
                    size_t at = x * rgb.bytes + index[c];
                    fn(c, s[at], d ? d + at : nullptr);
                }
        }
        return;
    }
    if (in.format == PIXEL_FORMAT_YUYV_PACKED_422 || in.format == PIXEL_FORMAT_UYVY_PACKED_422 ||
        in.format == PIXEL_FORMAT_YVYU_PACKED_422 || in.format == PIXEL_FORMAT_VYUY_PACKED_422 ||
        in.format == PIXEL_FORMAT_YUV_PACKED_444) {
        // Component of each byte in a group: Y=0, U=1, V=2.
        static const int kYuyv[4] = {0, 1, 0, 2}, kUyvy[4] = {1, 0, 2, 0}, kYvyu[4] = {0, 2, 0, 1},
                         kVyuy[4] = {2, 0, 1, 0}, kYuv[3] = {0, 1, 2};
        const int* group = in.format == PIXEL_FORMAT_YUYV_PACKED_422   ? kYuyv
                           : in.format == PIXEL_FORMAT_UYVY_PACKED_422 ? kUyvy
                           : in.format == PIXEL_FORMAT_YVYU_PACKED_422 ? kYvyu
                           : in.format == PIXEL_FORMAT_VYUY_PACKED_422 ? kVyuy
                                                                       : kYuv;
        const uint32_t group_bytes = in.format == PIXEL_FORMAT_YUV_PACKED_444 ? 3 : 4;
        const uint32_t row_bytes = in.format == PIXEL_FORMAT_YUV_PACKED_444 ? 3 * w : 2 * (w & ~1u);
        for (uint32_t y = 0; y < h; ++y) {
            uint8_t* s = row(&in, 0, y, in.ws);
            uint8_t* d = row(out, 0, y, out ? out->ws : 0);
            for (uint32_t b = 0; b < row_bytes; ++b)
                fn(group[b % group_bytes], s[b], d ? d + b : nullptr);
        }
        return;
    }
    for (uint32_t y = 0; y < h; ++y) {
        uint8_t* s = row(&in, 0, y, in.ws);
        uint8_t* d = row(out, 0, y, out ? out->ws : 0);
        for (uint32_t x = 0; x < w; ++x)
            fn(0, s[x], d ? d + x : nullptr);
    }
    if (!ChromaOf(in.format, &shape)) return;  // YUV400
    const size_t chroma = static_cast<size_t>(in.ws) * in.hs;
    const size_t out_chroma = out ? static_cast<size_t>(out->ws) * out->hs : 0;
    const uint32_t cw = w / shape.width_div, ch = h / shape.height_div;
    for (uint32_t y = 0; y < ch; ++y) {
        uint8_t* s = row(&in, chroma, y, size_t(in.ws) * shape.pitch_mul);
        uint8_t* d = row(out, out_chroma, y, out ? size_t(out->ws) * shape.pitch_mul : 0);
        for (uint32_t b = 0; b < 2 * cw; ++b) {
            int component = (b % 2 == 0) != shape.vu ? 1 : 2;
            fn(component, s[b], d ? d + b : nullptr);
        }
    }
}

}  // namespace

bool IsHistogramFormat(acldvppPixelFormat format) {
    const int f = static_cast<int>(format);
    return (f >= PIXEL_FORMAT_YUV_400 && f <= PIXEL_FORMAT_BGR_888) ||
           format == PIXEL_FORMAT_YUV_SEMIPLANAR_440 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_440;
}

uint32_t ComponentCount(acldvppPixelFormat format) {
    return format == PIXEL_FORMAT_YUV_400 ? 1 : 3;
}

std::vector<std::vector<uint32_t>> CalcHist(const Picture& in) {
    std::vector<std::vector<uint32_t>> bins(ComponentCount(in.format),
                                            std::vector<uint32_t>(256, 0));
    ForEachSample(in, nullptr, [&](int c, uint8_t v, uint8_t*) { ++bins[c][v]; });
    return bins;
}

void ApplyLut(const Picture& in, const Picture& out,
              const std::vector<std::vector<uint8_t>>& tables) {
    ForEachSample(in, &out, [&](int c, uint8_t v, uint8_t* d) {
        const auto& table = tables[static_cast<size_t>(c) < tables.size() ? c : 0];
        *d = table[v];
    });
}

}  // namespace openacl::dvpp
