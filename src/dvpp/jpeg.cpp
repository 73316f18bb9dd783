#include "dvpp/jpeg.h"

#include <turbojpeg.h>

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include <opencv2/core.hpp>

#include "core/error.h"
#include "dvpp/chip.h"
#include "libyuv.h"

namespace openacl::dvpp {

namespace {

constexpr uint32_t kJpegMinSide = 32, kJpegMaxSide = 8192;

std::string Text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Text(const char* fmt, ...) {
    char buffer[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buffer, sizeof buffer, fmt, args);
    va_end(args);
    return buffer;
}

const char* SofName(uint8_t marker) {
    switch (marker) {
        case 0xC2:
            return "progressive JPEG (SOF2)";
        case 0xC3:
            return "lossless JPEG (SOF3)";
        case 0xC5:
        case 0xC6:
        case 0xC7:
            return "hierarchical JPEG (SOF5-7)";
        default:
            return "arithmetic-coded JPEG (SOF9-15)";
    }
}

acldvppJpegFormat Subsampling(int h, int v) {
    if (h == 1 && v == 1) return ACL_JPEG_CSS_444;
    if (h == 2 && v == 1) return ACL_JPEG_CSS_422;
    if (h == 2 && v == 2) return ACL_JPEG_CSS_420;
    if (h == 1 && v == 2) return ACL_JPEG_CSS_440;
    if (h == 4 && v == 1) return ACL_JPEG_CSS_411;
    return ACL_JPEG_CSS_UNKNOWN;
}

const char* CssName(acldvppJpegFormat f) {
    switch (f) {
        case ACL_JPEG_CSS_444:
            return "4:4:4";
        case ACL_JPEG_CSS_422:
            return "4:2:2";
        case ACL_JPEG_CSS_420:
            return "4:2:0";
        case ACL_JPEG_CSS_GRAY:
            return "4:0:0 (greyscale)";
        case ACL_JPEG_CSS_440:
            return "4:4:0";
        case ACL_JPEG_CSS_411:
            return "4:1:1";
        default:
            return "an unknown subsampling";
    }
}

// The same layout with the chroma order swapped (NV12 <-> NV21 ...).
acldvppPixelFormat Twin(acldvppPixelFormat f) {
    switch (f) {
        case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
            return PIXEL_FORMAT_YVU_SEMIPLANAR_420;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
            return PIXEL_FORMAT_YUV_SEMIPLANAR_420;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
            return PIXEL_FORMAT_YVU_SEMIPLANAR_422;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
            return PIXEL_FORMAT_YUV_SEMIPLANAR_422;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
            return PIXEL_FORMAT_YVU_SEMIPLANAR_444;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
            return PIXEL_FORMAT_YUV_SEMIPLANAR_444;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_440:
            return PIXEL_FORMAT_YVU_SEMIPLANAR_440;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_440:
            return PIXEL_FORMAT_YUV_SEMIPLANAR_440;
        default:
            return f;
    }
}

struct TjDeleter {
    void operator()(void* handle) const { tjDestroy(handle); }
};
using TjHandle = std::unique_ptr<void, TjDeleter>;

// The EXIF orientation in an APP1 segment's payload, or 1 when it has none or is malformed.
int ExifOrientation(const uint8_t* seg, size_t length) {
    if (length < 14 || std::memcmp(seg, "Exif\0\0", 6) != 0) return 1;
    const uint8_t* tiff = seg + 6;
    const size_t size = length - 6;
    bool little = tiff[0] == 'I' && tiff[1] == 'I';
    if (!little && !(tiff[0] == 'M' && tiff[1] == 'M')) return 1;
    auto u16 = [&](size_t at) -> uint32_t {
        return little ? tiff[at] | (tiff[at + 1] << 8) : (tiff[at] << 8) | tiff[at + 1];
    };
    auto u32 = [&](size_t at) -> uint32_t {
        return little ? u16(at) | (u16(at + 2) << 16) : (u16(at) << 16) | u16(at + 2);
    };
    if (u16(2) != 42) return 1;
    size_t ifd = u32(4);
    if (ifd + 2 > size) return 1;
    uint32_t entries = u16(ifd);
    for (uint32_t i = 0; i < entries; ++i) {
        size_t at = ifd + 2 + 12 * size_t(i);
        if (at + 12 > size) return 1;
        if (u16(at) == 0x0112 && u16(at + 2) == 3) {  // Orientation, SHORT
            uint32_t value = u16(at + 8);
            return value >= 1 && value <= 8 ? static_cast<int>(value) : 1;
        }
    }
    return 1;
}

// Turns a plane the way EXIF orientation says the picture is to be shown.
cv::Mat Orient(const cv::Mat& plane, int orientation) {
    cv::Mat out;
    switch (orientation) {
        case 2:
            cv::flip(plane, out, 1);
            return out;
        case 3:
            cv::rotate(plane, out, cv::ROTATE_180);
            return out;
        case 4:
            cv::flip(plane, out, 0);
            return out;
        case 5:
            cv::transpose(plane, out);
            return out;
        case 6:
            cv::rotate(plane, out, cv::ROTATE_90_CLOCKWISE);
            return out;
        case 7:
            cv::transpose(plane, out);
            cv::flip(out, out, -1);
            return out;
        case 8:
            cv::rotate(plane, out, cv::ROTATE_90_COUNTERCLOCKWISE);
            return out;
        default:
            return plane;
    }
}

}  // namespace

aclError ParseJpegHeader(const uint8_t* data, size_t size, JpegHeader* header, std::string* why) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) {
        *why = "the data is not a JPEG stream (it does not start with the SOI marker FF D8)";
        return ACL_ERROR_UNSUPPORTED_JPEG;
    }
    size_t pos = 2;
    bool have_frame = false;
    while (true) {
        if (pos >= size) {
            *why = have_frame ? "the JPEG stream ends before its scan (SOS) starts: truncated?"
                              : "the JPEG stream ends before its frame header (SOF): truncated?";
            return ACL_ERROR_UNSUPPORTED_JPEG;
        }
        if (data[pos] != 0xFF) {
            *why = Text("the JPEG stream is corrupt: no marker at offset %zu", pos);
            return ACL_ERROR_UNSUPPORTED_JPEG;
        }
        while (pos < size && data[pos] == 0xFF)
            ++pos;
        if (pos >= size) continue;
        uint8_t marker = data[pos++];
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;
        if (marker == 0xD9) {
            *why = "the JPEG stream ends (EOI) before any image data";
            return ACL_ERROR_UNSUPPORTED_JPEG;
        }
        if (pos + 2 > size) continue;  // reported as truncated above
        size_t length = (static_cast<size_t>(data[pos]) << 8) | data[pos + 1];
        if (length < 2 || pos + length > size) {
            *why = Text(
                "the JPEG stream is truncated: segment FF %02X at offset %zu claims %zu "
                "bytes, %zu remain",
                marker, pos - 2, length, size - pos);
            return ACL_ERROR_UNSUPPORTED_JPEG;
        }
        const uint8_t* seg = data + pos + 2;
        if (marker == 0xE1 && header->orientation == 1) {
            header->orientation = ExifOrientation(seg, length - 2);
        }
        bool is_sof =
            marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (is_sof) {
            if (marker != 0xC0 && marker != 0xC1) {
                *why = Text("%s is not supported: JPEGD decodes baseline Huffman-coded JPEG only",
                            SofName(marker));
                return ACL_ERROR_UNSUPPORTED_JPEG;
            }
            if (length < 8) {
                *why = "the JPEG frame header is too short";
                return ACL_ERROR_UNSUPPORTED_JPEG;
            }
            int precision = seg[0];
            header->height = (static_cast<uint32_t>(seg[1]) << 8) | seg[2];
            header->width = (static_cast<uint32_t>(seg[3]) << 8) | seg[4];
            int count = seg[5];
            if (precision != 8) {
                *why = Text("%d-bit samples are not supported: JPEGD decodes 8-bit JPEG only",
                            precision);
                return ACL_ERROR_UNSUPPORTED_JPEG;
            }
            if (header->width == 0 || header->height == 0) {
                *why =
                    "a JPEG of width or height 0 (height given by a DNL marker) is not supported";
                return ACL_ERROR_UNSUPPORTED_JPEG;
            }
            if ((count != 1 && count != 3) || length < 8 + 3u * count) {
                *why = Text(
                    "a JPEG with %d components is not supported: JPEGD decodes greyscale "
                    "(1) or YUV (3) JPEG only",
                    count);
                return ACL_ERROR_UNSUPPORTED_JPEG;
            }
            header->components = count;
            if (count == 1) {
                header->format = ACL_JPEG_CSS_GRAY;
            } else {
                int h[3], v[3];
                for (int c = 0; c < 3; ++c) {
                    h[c] = seg[6 + 3 * c + 1] >> 4;
                    v[c] = seg[6 + 3 * c + 1] & 0x0F;
                }
                header->format = (h[1] == 1 && v[1] == 1 && h[2] == 1 && v[2] == 1)
                                     ? Subsampling(h[0], v[0])
                                     : ACL_JPEG_CSS_UNKNOWN;
            }
            have_frame = true;
        }
        if (marker == 0xDA) {
            if (!have_frame) {
                *why = "the JPEG scan (SOS) comes before any frame header (SOF)";
                return ACL_ERROR_UNSUPPORTED_JPEG;
            }
            return ACL_SUCCESS;
        }
        pos += length;
    }
}

bool IsJpegdOutputFormat(acldvppPixelFormat format) {
    ChromaShape shape;
    return format == PIXEL_FORMAT_UNKNOWN || ChromaOf(format, &shape);
}

aclError PlanJpegDecode(const JpegHeader& header, acldvppPixelFormat requested, int32_t precision,
                        JpegdLayout* layout, std::string* why) {
    const uint32_t width = header.DecodedWidth(), height = header.DecodedHeight();
    if (header.width < kJpegMinSide || header.height < kJpegMinSide ||
        header.width > kJpegMaxSide || header.height > kJpegMaxSide) {
        *why = Text("the JPEG is %ux%u; JPEGD decodes 32x32 to 8192x8192", header.width,
                    header.height);
        return ACL_ERROR_UNSUPPORTED_JPEG;
    }
    acldvppPixelFormat native;
    switch (header.format) {
        case ACL_JPEG_CSS_444:
            native = PIXEL_FORMAT_YVU_SEMIPLANAR_444;
            break;
        case ACL_JPEG_CSS_422:
            native = PIXEL_FORMAT_YVU_SEMIPLANAR_422;
            break;
        case ACL_JPEG_CSS_420:
        case ACL_JPEG_CSS_GRAY:
            native = PIXEL_FORMAT_YVU_SEMIPLANAR_420;
            break;
        case ACL_JPEG_CSS_440:
            native = PIXEL_FORMAT_YVU_SEMIPLANAR_440;
            break;
        default:
            *why = Text(
                "JPEG with %s chroma subsampling is not supported: JPEGD decodes 4:4:4, "
                "4:2:2, 4:2:0, 4:4:0 and greyscale",
                CssName(header.format));
            return ACL_ERROR_UNSUPPORTED_JPEG;
    }
    acldvppPixelFormat format = requested == PIXEL_FORMAT_UNKNOWN ? native : requested;
    bool nv =
        format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
    // JPEGD writes the source's own layout, its VU/UV twin, or YUV420SP (not from 4:4:0).
    bool same_family = format == native || Twin(format) == native;
    if (!(same_family || (nv && header.format != ACL_JPEG_CSS_440))) {
        *why = Text(
            "a %s JPEG cannot be decoded to %s: JPEGD writes %s or YUV420SP (NV12/NV21) "
            "for it",
            CssName(header.format), FormatName(format).c_str(), FormatName(native).c_str());
        return ACL_ERROR_INVALID_PARAM;
    }
    ChromaShape shape;
    ChromaOf(format, &shape);
    // Odd sizes are rounded to the parity the chroma layout needs: down by default.
    bool up = precision == ACL_YUVOUT_ALIGN_UP;
    auto round = [up](uint32_t v, uint32_t div) {
        if (div == 1 || v % 2 == 0) return v;
        return up ? v + 1 : v - 1;
    };
    layout->format = format;
    layout->width = round(width, shape.width_div);
    layout->height = round(height, shape.height_div);
    // The 310/910 JPEGD pads rows to 128 bytes; the 310P and A2/A3 ones to 64.
    layout->ws = AlignUp(layout->width, IsNewDvpp(CurrentChip()) ? 64 : 128);
    layout->hs = AlignUp(layout->height, 16);
    layout->size = SemiPlanarSize(format, layout->ws, layout->hs);
    return ACL_SUCCESS;
}

namespace {
// Planes a worker thread keeps from one decode to the next: fresh ones are fresh pages, and
// faulting them in for each picture made a 1080p decode about 6% slower. Planes above
// kKeptPlaneBytes (pictures beyond 4K) are given back after the decode.
constexpr size_t kKeptPlaneBytes = size_t{8} << 20;
std::vector<uint8_t>* KeptPlanes() {
    thread_local std::vector<uint8_t> planes[3];
    return planes;
}
}  // namespace

aclError DecodeJpeg(const uint8_t* data, size_t size, const JpegHeader& header,
                    const JpegdLayout& layout, uint8_t* out, std::string* why) {
    // A handle per picture: one kept by the worker thread made each 1080p decode about 10%
    // slower (unlike the planes below).
    TjHandle handle(tjInitDecompress());
    void* tj = handle.get();
    if (tj == nullptr) {
        *why = "libjpeg-turbo could not create a decompressor";
        return ACL_ERROR_FAILURE;
    }
    int w = 0, h = 0, subsamp = 0, colorspace = 0;
    if (tjDecompressHeader3(tj, data, size, &w, &h, &subsamp, &colorspace) != 0) {
        *why = Text("the JPEG header cannot be read: %s", tjGetErrorStr2(tj));
        return ACL_ERROR_UNSUPPORTED_JPEG;
    }
    if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) {
        *why = "CMYK/YCCK JPEG is not supported: JPEGD decodes YUV JPEG only";
        return ACL_ERROR_UNSUPPORTED_JPEG;
    }
    const int planes = subsamp == TJSAMP_GRAY ? 1 : 3;
    unsigned char* dst[3] = {nullptr, nullptr, nullptr};
    int strides[3] = {0, 0, 0};
    int pw[3] = {0, 0, 0}, ph[3] = {0, 0, 0};
    for (int c = 0; c < planes; ++c) {
        pw[c] = tjPlaneWidth(c, w, subsamp);
        ph[c] = tjPlaneHeight(c, h, subsamp);
    }
    ChromaShape shape;
    ChromaOf(layout.format, &shape);
    // The common case writes luma straight into the output, saving a copy of it: the picture
    // is not turned, its size is the output's (nothing to repeat) and so is its chroma's.
    const bool luma_in_place = planes == 3 && header.orientation == 1 &&
                               layout.width == static_cast<uint32_t>(w) &&
                               layout.height == static_cast<uint32_t>(h) &&
                               static_cast<uint32_t>(pw[1]) == layout.width / shape.width_div &&
                               static_cast<uint32_t>(ph[1]) == layout.height / shape.height_div;
    std::vector<uint8_t>* plane = KeptPlanes();
    struct GiveBackLarge {
        std::vector<uint8_t>* plane;
        ~GiveBackLarge() {
            for (int c = 0; c < 3; ++c) {
                if (plane[c].capacity() > kKeptPlaneBytes) std::vector<uint8_t>().swap(plane[c]);
            }
        }
    } give_back{plane};
    for (int c = 0; c < planes; ++c) {
        if (c == 0 && luma_in_place) {
            dst[0] = out;
            strides[0] = static_cast<int>(layout.ws);
            continue;
        }
        plane[c].resize(static_cast<size_t>(pw[c]) * ph[c]);
        dst[c] = plane[c].data();
        strides[c] = pw[c];
    }
    // Warnings (a truncated or corrupt scan) are errors: JPEGD does not guess missing data.
    if (tjDecompressToYUVPlanes(tj, data, size, dst, w, strides, h, TJFLAG_STOPONWARNING) != 0) {
        *why = Text("the JPEG cannot be decoded: %s", tjGetErrorStr2(tj));
        return ACL_ERROR_UNSUPPORTED_JPEG;
    }
    if (luma_in_place) {
        const uint32_t pitch = layout.ws * shape.pitch_mul;
        uint8_t* uv = out + static_cast<size_t>(layout.ws) * layout.hs;
        const uint8_t* first = shape.vu ? dst[2] : dst[1];
        const uint8_t* second = shape.vu ? dst[1] : dst[2];
        libyuv::MergeUVPlane(first, pw[1], second, pw[1], uv, static_cast<int>(pitch), pw[1],
                             ph[1]);
        return ACL_SUCCESS;
    }
    // EXIF orientation turns every plane; chroma is resampled to the output layout below.
    cv::Mat plane_mat[3];
    for (int c = 0; c < planes; ++c) {
        plane_mat[c] =
            Orient(cv::Mat(ph[c], pw[c], CV_8UC1, dst[c], strides[c]), header.orientation);
        dst[c] = plane_mat[c].data;
        pw[c] = plane_mat[c].cols;
        ph[c] = plane_mat[c].rows;
        strides[c] = static_cast<int>(plane_mat[c].step[0]);
    }
    w = pw[0];
    h = ph[0];
    const uint32_t ow = layout.width, oh = layout.height, ws = layout.ws;
    // Luma; rounding up repeats the last column and row.
    for (uint32_t r = 0; r < oh; ++r) {
        const uint8_t* src = dst[0] + static_cast<size_t>(std::min<int>(r, h - 1)) * strides[0];
        uint8_t* row = out + static_cast<size_t>(r) * ws;
        uint32_t n = std::min<uint32_t>(ow, w);
        std::memcpy(row, src, n);
        if (ow > n) std::memset(row + n, src[n - 1], ow - n);
    }
    const uint32_t cw = ow / shape.width_div, ch = oh / shape.height_div;
    const uint32_t pitch = ws * shape.pitch_mul;
    uint8_t* uv = out + static_cast<size_t>(ws) * layout.hs;
    if (planes == 1) {
        // Greyscale: neutral chroma.
        for (uint32_t r = 0; r < ch; ++r)
            std::memset(uv + static_cast<size_t>(r) * pitch, 0x80, 2 * cw);
        return ACL_SUCCESS;
    }
    std::vector<uint8_t> u(static_cast<size_t>(cw) * ch), v(u.size());
    libyuv::ScalePlane(dst[1], strides[1], pw[1], ph[1], u.data(), cw, cw, ch, libyuv::kFilterBox);
    libyuv::ScalePlane(dst[2], strides[2], pw[2], ph[2], v.data(), cw, cw, ch, libyuv::kFilterBox);
    if (shape.vu) {
        libyuv::MergeUVPlane(v.data(), cw, u.data(), cw, uv, pitch, cw, ch);
    } else {
        libyuv::MergeUVPlane(u.data(), cw, v.data(), cw, uv, pitch, cw, ch);
    }
    return ACL_SUCCESS;
}

namespace {

bool IsPacked422(acldvppPixelFormat f) {
    return f == PIXEL_FORMAT_YUYV_PACKED_422 || f == PIXEL_FORMAT_UYVY_PACKED_422 ||
           f == PIXEL_FORMAT_YVYU_PACKED_422 || f == PIXEL_FORMAT_VYUY_PACKED_422;
}
bool IsNv(acldvppPixelFormat f) {
    return f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}
uint64_t JpegeInputBytes(const Picture& pic) {
    uint64_t plane = static_cast<uint64_t>(pic.ws) * pic.hs;
    return IsNv(pic.format) ? plane * 3 / 2 : plane;
}

}  // namespace

uint32_t JpegeMaxSide() {
    // The Atlas 200I/500 A2's JPEGE takes 16384 a side; every other chip's 8192.
    return IsAscend310B() ? 16384 : kJpegMaxSide;
}

aclError CheckJpegeInputShape(const Picture& pic, const char* what) {
    if (!IsNv(pic.format) && !IsPacked422(pic.format)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has %s; JPEGE encodes YUV420SP (NV12/NV21) or packed YUV 4:2:2 "
                    "(YUYV/UYVY/YVYU/VYUY) only",
                    what, FormatName(pic.format).c_str());
    }
    const uint32_t max_side = JpegeMaxSide();
    if (pic.width < kJpegMinSide || pic.height < kJpegMinSide || pic.width > max_side ||
        pic.height > max_side) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is %ux%u; JPEGE encodes 32x32 to %ux%u on %s",
                    what, pic.width, pic.height, max_side, max_side, ChipName().c_str());
    }
    if (pic.width % 2 != 0 || (IsNv(pic.format) && pic.height % 2 != 0)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is %ux%u; %s input needs an even width%s", what,
                    pic.width, pic.height, FormatName(pic.format).c_str(),
                    IsNv(pic.format) ? " and height" : "");
    }
    return ACL_SUCCESS;
}

aclError CheckJpegeInput(const Picture& pic, const Stream* stream, const char* what) {
    if (aclError rc = CheckJpegeInputShape(pic, what)) return rc;
    uint32_t row = IsNv(pic.format) ? pic.width : 2 * pic.width;
    if (pic.ws % 16 != 0 || pic.ws < row) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has widthStride %u; JPEGE needs a multiple of 16 of at least %u "
                    "(ALIGN_UP(%s, 16))",
                    what, pic.ws, AlignUp(row, 16), IsNv(pic.format) ? "width" : "2 x width");
    }
    if (pic.hs != pic.height && pic.hs != AlignUp(pic.height, 16)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has heightStride %u; JPEGE takes the height (%u) or ALIGN_UP(height, 16) "
                    "(%u)",
                    what, pic.hs, pic.height, AlignUp(pic.height, 16));
    }
    uint64_t needed = JpegeInputBytes(pic);
    if (pic.size < needed) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has size %u but %s with strides %ux%u takes %" PRIu64 " bytes", what,
                    pic.size, FormatName(pic.format).c_str(), pic.ws, pic.hs, needed);
    }
    return CheckMediaBuffer(pic.data, needed, stream, what);
}

uint64_t PredictJpegSize(const Picture& pic) {
    int subsamp = IsNv(pic.format) ? TJSAMP_420 : TJSAMP_422;
    // tjBufSize is libjpeg-turbo's worst case for any quality; 1 KiB more covers markers.
    return static_cast<uint64_t>(
               tjBufSize(static_cast<int>(pic.width), static_cast<int>(pic.height), subsamp)) +
           1024;
}

aclError EncodeJpeg(const Picture& pic, uint32_t level, uint8_t* out, uint32_t capacity,
                    uint32_t* written, std::string* why) {
    const int w = static_cast<int>(pic.width), h = static_cast<int>(pic.height);
    const int cw = w / 2, ch = IsNv(pic.format) ? h / 2 : h;
    std::vector<uint8_t> y, u(static_cast<size_t>(cw) * ch), v(u.size());
    const unsigned char* planes[3];
    int strides[3] = {static_cast<int>(pic.ws), cw, cw};
    int subsamp = TJSAMP_420;
    switch (pic.format) {
        case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
        case PIXEL_FORMAT_YVU_SEMIPLANAR_420: {
            const uint8_t* uv = pic.data + static_cast<size_t>(pic.ws) * pic.hs;
            bool vu = pic.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
            libyuv::SplitUVPlane(uv, pic.ws, vu ? v.data() : u.data(), cw, vu ? u.data() : v.data(),
                                 cw, cw, ch);
            planes[0] = pic.data;
            break;
        }
        default: {
            subsamp = TJSAMP_422;
            y.resize(static_cast<size_t>(w) * h);
            bool swap = pic.format == PIXEL_FORMAT_YVYU_PACKED_422 ||
                        pic.format == PIXEL_FORMAT_VYUY_PACKED_422;
            uint8_t* pu = swap ? v.data() : u.data();
            uint8_t* pv = swap ? u.data() : v.data();
            if (pic.format == PIXEL_FORMAT_YUYV_PACKED_422 ||
                pic.format == PIXEL_FORMAT_YVYU_PACKED_422) {
                libyuv::YUY2ToI422(pic.data, pic.ws, y.data(), w, pu, cw, pv, cw, w, h);
            } else {
                libyuv::UYVYToI422(pic.data, pic.ws, y.data(), w, pu, cw, pv, cw, w, h);
            }
            planes[0] = y.data();
            strides[0] = w;
            break;
        }
    }
    planes[1] = u.data();
    planes[2] = v.data();
    TjHandle tj(tjInitCompress());
    if (!tj) {
        *why = "libjpeg-turbo could not create a compressor";
        return ACL_ERROR_FAILURE;
    }
    // Level 0 behaves like 100; 1..100 is the usual quality scale.
    int quality = level == 0 ? 100 : static_cast<int>(level);
    unsigned char* jpeg = nullptr;
    unsigned long jpeg_size = 0;
    if (tjCompressFromYUVPlanes(tj.get(), planes, w, strides, h, subsamp, &jpeg, &jpeg_size,
                                quality, 0) != 0) {
        *why = Text("JPEG encoding failed: %s", tjGetErrorStr2(tj.get()));
        if (jpeg) tjFree(jpeg);
        return ACL_ERROR_FAILURE;
    }
    aclError rc = ACL_SUCCESS;
    if (jpeg_size > capacity) {
        *why = Text(
            "the encoded JPEG has %lu bytes but the output buffer holds %u (*size): size "
            "it with acldvppJpegPredictEncSize",
            jpeg_size, capacity);
        rc = ACL_ERROR_INVALID_PARAM;
    } else {
        std::memcpy(out, jpeg, jpeg_size);
        *written = static_cast<uint32_t>(jpeg_size);
    }
    tjFree(jpeg);
    return rc;
}

}  // namespace openacl::dvpp
