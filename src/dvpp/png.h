// PNG on the CPU (PNGD): header probing and decoding with OpenCV's imgcodecs to RGB888 or
// RGBA8888, strides ALIGN_UP(w, 128) x bytes per pixel by ALIGN_UP(h, 16), 32x32 to 4096x4096.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dvpp/picture.h"

namespace openacl::dvpp {

struct PngHeader {
    uint32_t width = 0;
    uint32_t height = 0;
    int32_t components = 0;  // 1 grey, 2 grey+alpha, 3 RGB (and palette), 4 RGBA
};

// Reads the IHDR chunk; anything else than a PNG gives ACL_ERROR_INVALID_PARAM and *why.
aclError ParsePngHeader(const uint8_t* data, size_t size, PngHeader* header, std::string* why);

struct PngdLayout {
    acldvppPixelFormat format = PIXEL_FORMAT_UNKNOWN;
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t ws = 0;
    uint32_t hs = 0;
    uint64_t size = 0;
};

bool IsPngdOutputFormat(acldvppPixelFormat format);
aclError PlanPngDecode(const PngHeader& header, acldvppPixelFormat requested, PngdLayout* layout,
                       std::string* why);
aclError DecodePng(const uint8_t* data, size_t size, const PngdLayout& layout, uint8_t* out,
                   std::string* why);

}  // namespace openacl::dvpp
