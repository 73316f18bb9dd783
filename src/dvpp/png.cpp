#include "dvpp/png.h"

#include <png.h>

#include <csetjmp>
#include <cstring>
#include <string>
#include <vector>

namespace openacl::dvpp {

namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
constexpr uint32_t kPngMinSide = 32, kPngMaxSide = 4096;

uint32_t BigEndian32(const uint8_t* p) {
    return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
           (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

}  // namespace

aclError ParsePngHeader(const uint8_t* data, size_t size, PngHeader* header, std::string* why) {
    if (size < 8 || std::memcmp(data, kSignature, 8) != 0) {
        *why = "the data is not a PNG stream (no PNG signature)";
        return ACL_ERROR_INVALID_PARAM;
    }
    if (size < 33 || BigEndian32(data + 8) != 13 || std::memcmp(data + 12, "IHDR", 4) != 0) {
        *why = "the PNG stream is truncated or has no IHDR chunk first";
        return ACL_ERROR_INVALID_PARAM;
    }
    header->width = BigEndian32(data + 16);
    header->height = BigEndian32(data + 20);
    switch (data[25]) {  // colour type
        case 0:
            header->components = 1;
            break;
        case 2:
        case 3:
            header->components = 3;
            break;
        case 4:
            header->components = 2;
            break;
        case 6:
            header->components = 4;
            break;
        default:
            *why = "the PNG header has an invalid colour type " + std::to_string(data[25]);
            return ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
}

bool IsPngdOutputFormat(acldvppPixelFormat format) {
    return format == PIXEL_FORMAT_RGB_888 || format == PIXEL_FORMAT_RGBA_8888 ||
           format == PIXEL_FORMAT_UNKNOWN;
}

aclError PlanPngDecode(const PngHeader& header, acldvppPixelFormat requested, PngdLayout* layout,
                       std::string* why) {
    if (header.width < kPngMinSide || header.height < kPngMinSide || header.width > kPngMaxSide ||
        header.height > kPngMaxSide) {
        *why = "the PNG is " + std::to_string(header.width) + "x" + std::to_string(header.height) +
               "; PNGD decodes 32x32 to 4096x4096";
        return ACL_ERROR_INVALID_PARAM;
    }
    bool alpha = header.components == 2 || header.components == 4;
    acldvppPixelFormat format = requested;
    if (format == PIXEL_FORMAT_UNKNOWN)
        format = alpha ? PIXEL_FORMAT_RGBA_8888 : PIXEL_FORMAT_RGB_888;
    if (format == PIXEL_FORMAT_RGBA_8888 && !alpha) {
        *why =
            "a PNG without alpha (grey or RGB) decodes to PIXEL_FORMAT_RGB_888 only, not "
            "PIXEL_FORMAT_RGBA_8888";
        return ACL_ERROR_INVALID_PARAM;
    }
    uint32_t bpp = format == PIXEL_FORMAT_RGBA_8888 ? 4 : 3;
    layout->format = format;
    layout->width = header.width;
    layout->height = header.height;
    layout->ws = AlignUp(header.width, 128) * bpp;
    layout->hs = AlignUp(header.height, 16);
    layout->size = static_cast<uint64_t>(layout->ws) * layout->hs;
    return ACL_SUCCESS;
}

namespace {

// libpng reports errors through a callback that must not return: it records the message and
// jumps back into DecodePng.
void OnPngError(png_structp png, png_const_charp message) {
    *static_cast<std::string*>(png_get_error_ptr(png)) = message;
    png_longjmp(png, 1);
}
void OnPngWarning(png_structp, png_const_charp) {}

struct PngSource {
    const uint8_t* data;
    size_t size;
    size_t at;
};
void ReadPngBytes(png_structp png, png_bytep into, size_t count) {
    auto* source = static_cast<PngSource*>(png_get_io_ptr(png));
    if (count > source->size - source->at) png_error(png, "the data ends inside the PNG stream");
    std::memcpy(into, source->data + source->at, count);
    source->at += count;
}

// Decodes into `rows` as OpenCV did: palettes and low bit depths expanded, 16-bit samples
// rounded to 8 bits (v / 257), grey repeated into R, G and B, alpha kept for RGBA output and
// dropped (not composited) for RGB output; no gamma correction. False when libpng reported
// an error. Only parameters live across the setjmp, which nothing here changes.
bool ReadPngRows(png_structp png, png_infop info, const PngdLayout& layout, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png)) != 0) return false;
    png_read_info(png, info);
    if (png_get_image_width(png, info) != layout.width ||
        png_get_image_height(png, info) != layout.height) {
        png_error(png, "its size differs from its header's");
    }
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    if (layout.format != PIXEL_FORMAT_RGBA_8888) png_set_strip_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_channels(png, info) != (layout.format == PIXEL_FORMAT_RGBA_8888 ? 4 : 3) ||
        png_get_bit_depth(png, info) != 8) {
        png_error(png, "unexpected sample layout after conversion");
    }
    png_read_image(png, rows);
    png_read_end(png, nullptr);
    return true;
}

}  // namespace

aclError DecodePng(const uint8_t* data, size_t size, const PngdLayout& layout, uint8_t* out,
                   std::string* why) {
    // libpng directly, not OpenCV's imdecode: imgcodecs brings 96 shared libraries (GDAL,
    // GDCM, ...) into every process that loads openacl.
    std::string error;
    png_structp png =
        png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, OnPngError, OnPngWarning);
    png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
    if (info == nullptr) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        *why = "out of memory for the PNG decoder";
        return ACL_ERROR_BAD_ALLOC;
    }
    PngSource source{data, size, 0};
    png_set_read_fn(png, &source, ReadPngBytes);
    std::vector<png_bytep> rows(layout.height);
    for (uint32_t y = 0; y < layout.height; ++y)
        rows[y] = out + static_cast<size_t>(y) * layout.ws;
    const bool ok = ReadPngRows(png, info, layout, rows.data());
    png_destroy_read_struct(&png, &info, nullptr);
    if (!ok) {
        *why = "the PNG cannot be decoded: " + error;
        return ACL_ERROR_FAILURE;
    }
    return ACL_SUCCESS;
}

}  // namespace openacl::dvpp
