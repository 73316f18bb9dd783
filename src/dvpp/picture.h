// Pictures in media memory: what each pixel format needs (bytes per pixel, buffer size,
// parity), the documented stride rules of each chip family and the device-memory
// check every task makes before it touches a buffer.
#pragma once

#include <cstdint>
#include <string>

#include "dvpp/chip.h"
#include "dvpp/descriptors.h"

namespace openacl {
class Stream;
}

namespace openacl::dvpp {

constexpr uint32_t AlignUp(uint32_t x, uint32_t k) {
    return (x + k - 1) / k * k;
}

struct FormatInfo {
    acldvppPixelFormat format;
    const char* name;
    uint32_t bytes_per_pixel;  // of the luma (or packed) row
    uint32_t size_num;         // buffer bytes = ws * hs * size_num / size_den
    uint32_t size_den;
    bool even_width;
    bool even_height;
};

// The formats the 310/910 VPC reads; nullptr for others.
const FormatInfo* VpcFormat(acldvppPixelFormat format);
// Bytes a VPC input of this format with strides ws x hs takes on the chip (YUV400 is ws x hs
// on 310P and A2/A3, ws x hs x 3 / 2 on 310/910).
uint64_t VpcInputBytes(const FormatInfo& info, uint32_t ws, uint32_t hs, DvppChip chip);
// A format's name for messages ("PIXEL_FORMAT_YUV_SEMIPLANAR_420"), or its number.
std::string FormatName(acldvppPixelFormat format);
// Bytes of a semi-planar YUV picture with strides ws x hs (0 for other formats).
uint64_t SemiPlanarSize(acldvppPixelFormat format, uint32_t ws, uint32_t hs);

// Chroma plane geometry of a semi-planar format: samples per row and rows, relative to the
// luma size, and the chroma plane's row pitch in units of the width stride. The chroma plane
// starts at data + ws * hs.
struct ChromaShape {
    uint32_t width_div;   // chroma samples per row = width / width_div
    uint32_t height_div;  // chroma rows = height / height_div
    uint32_t pitch_mul;   // chroma row pitch = ws * pitch_mul
    bool vu;              // V before U
};
bool ChromaOf(acldvppPixelFormat format, ChromaShape* shape);

// A picture as a task sees it: the descriptor's values at enqueue time.
struct Picture {
    uint8_t* data = nullptr;
    uint32_t size = 0;
    acldvppPixelFormat format = PIXEL_FORMAT_YUV_400;
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t ws = 0;
    uint32_t hs = 0;
};
Picture Snapshot(const acldvppPicDesc& desc);

// Checks a picture descriptor argument: non-null and live. `what` names it in messages.
aclError CheckPicDesc(const acldvppPicDesc* desc, const char* what);

// The buffer [data, data + bytes) must be device memory of the stream's device (acldvppMalloc).
// Records the failure for the current API when `error` is null; otherwise describes it there
// (for tasks, which re-check when they run) and returns the code.
aclError CheckMediaBuffer(const void* data, uint64_t bytes, const Stream* stream, const char* what,
                          std::string* error = nullptr);

// The VPC rules for an input picture and for an output picture, as the emulated chip states
// them: strides, sizes, the YUV400 buffer and the 8K formats per chip family.
aclError CheckVpcInput(const Picture& pic, const Stream* stream, const char* what);
aclError CheckVpcOutput(const Picture& pic, const Stream* stream, const char* what);
// What a VPC writes: NV12/NV21; on 310P and A2/A3 also YUV400, RGB/BGR 888 and xRGB 8888.
bool IsVpcOutputFormat(acldvppPixelFormat format, DvppChip chip);
// Bytes a checked VPC output takes.
uint64_t VpcOutputBytes(const Picture& pic, DvppChip chip);

}  // namespace openacl::dvpp
