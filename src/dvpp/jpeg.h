// JPEG on the CPU: the JPEGD stream rules (baseline Huffman, 8-bit, 4:4:4/4:2:2/4:2:0/4:0:0/
// 4:4:0, 32x32 to 8192x8192), the semi-planar layout JPEGD writes (strides ALIGN_UP(w, 128), 64 on
// 310P/A2, x ALIGN_UP(h, 16)), decoding with libjpeg-turbo and JPEGE encoding from NV12/NV21 or
// packed 4:2:2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dvpp/picture.h"

namespace openacl::dvpp {

struct JpegHeader {
    uint32_t width = 0;
    uint32_t height = 0;
    int32_t components = 0;
    acldvppJpegFormat format = ACL_JPEG_CSS_UNKNOWN;
    int orientation = 1;  // EXIF orientation 1..8 (1 when absent or malformed)
    // The size JPEGD writes: orientations 5..8 turn the picture by 90 degrees.
    uint32_t DecodedWidth() const { return orientation >= 5 ? height : width; }
    uint32_t DecodedHeight() const { return orientation >= 5 ? width : height; }
};

// Reads the frame header of a JPEG in host memory. Streams JPEGD cannot decode (not a JPEG,
// progressive, arithmetic, lossless, not 8-bit, truncated headers) give
// ACL_ERROR_UNSUPPORTED_JPEG and *why.
aclError ParseJpegHeader(const uint8_t* data, size_t size, JpegHeader* header, std::string* why);

// What JPEGD writes for a source and a requested output format.
struct JpegdLayout {
    acldvppPixelFormat format = PIXEL_FORMAT_UNKNOWN;
    uint32_t width = 0;  // after rounding odd sizes for the format's parity
    uint32_t height = 0;
    uint32_t ws = 0;
    uint32_t hs = 0;
    uint64_t size = 0;
};

// True for the formats JPEGD may be asked for (semi-planar YUV and PIXEL_FORMAT_UNKNOWN).
bool IsJpegdOutputFormat(acldvppPixelFormat format);

// Plans the output (for the picture as EXIF orientation turns it); refuses (with the code and *why)
// sources and formats that do not go together and sizes outside 32x32 to 8192x8192. precision is an
// acldvppJpegdPrecisionMode.
aclError PlanJpegDecode(const JpegHeader& header, acldvppPixelFormat requested, int32_t precision,
                        JpegdLayout* layout, std::string* why);

// Decodes into `out` (layout.size bytes) as planned.
aclError DecodeJpeg(const uint8_t* data, size_t size, const JpegHeader& header,
                    const JpegdLayout& layout, uint8_t* out, std::string* why);

// The largest side JPEGE encodes on the emulated chip (also the largest
// ACL_DVPP_CHANNEL_WIDTH/HEIGHT_UINT32 and their default).
uint32_t JpegeMaxSide();

// JPEGE: checks the input picture (records the failure); predicts an upper bound of the
// encoded size; encodes into out (capacity bytes), setting *written.
aclError CheckJpegeInput(const Picture& pic, const Stream* stream, const char* what);
aclError CheckJpegeInputShape(const Picture& pic, const char* what);
uint64_t PredictJpegSize(const Picture& pic);
aclError EncodeJpeg(const Picture& pic, uint32_t level, uint8_t* out, uint32_t capacity,
                    uint32_t* written, std::string* why);

}  // namespace openacl::dvpp
