// VPC (the vision pre-processing core) on the CPU: crop a box of the input, scale it, and write
// it as NV12/NV21 (310P, A2/A3: also YUV400 or RGB) into a box of the output. Resize, crop,
// crop-and-paste and their batch forms are all this one operation with different boxes. The ROI
// rules: boxes are inclusive with even left/top and odd right/bottom (310/910; lifted on 310P and
// A2/A3), paste boxes start on a multiple of 16 (all but A2/A3), boxes are 10x6 to 4096x4096, and
// the scale is within [1/32, 16] on each axis.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dvpp/border.h"
#include "dvpp/picture.h"

namespace openacl::dvpp {

struct Box {
    uint32_t left = 0;
    uint32_t top = 0;
    uint32_t width = 0;
    uint32_t height = 0;
};

struct VpcJob {
    Picture in;
    Box crop;
    Picture out;
    Box paste;
    uint32_t interpolation = 0;  // acldvppSetResizeConfigInterpolation's value
    bool border = false;         // then `paste` is the inside of the border and
    BorderSpec border_spec;      // the border is made around it
};

// An I420 picture in host memory, the VPC's working format.
struct I420 {
    uint32_t width, height;
    std::vector<uint8_t> y, u, v;
    I420(uint32_t w, uint32_t h)
        : width(w),
          height(h),
          y(static_cast<size_t>(w) * h),
          u(static_cast<size_t>(w / 2) * (h / 2)),
          v(u.size()) {}
    int cw() const { return static_cast<int>(width / 2); }
};

// Converts a box (even origin and size) of a picture in any VPC input format to I420.
void ToI420(const Picture& in, const Box& box, I420* dst);

// Writes `src` into `out` in out's format (NV12/NV21, YUV400, RGB/BGR888 or one of the 8888
// orders) with its top-left corner at pixel (left, top), even for YUV420SP.
void WriteI420(const I420& src, const Picture& out, uint32_t left, uint32_t top);

// A live ROI config (what names it in messages).
aclError CheckRoiConfig(const acldvppRoiConfig* roi, const char* what);
// The interpolation of an optional resize config (nullptr: the default, 0), as the 310/910
// number for the same filter on the emulated chip.
aclError ResizeInterpolation(const acldvppResizeConfig* config, uint32_t* interpolation);

// The whole picture as a box (odd input sizes are rounded down to even, as the VPC does).
Box WholeInput(const Picture& in);
Box WholeOutput(const Picture& out);
// Checks a crop ROI against the input and a paste ROI against the output.
aclError CropBox(const acldvppRoiConfig& roi, const Picture& in, const char* what, Box* box);
aclError PasteBox(const acldvppRoiConfig& roi, const Picture& out, const char* what, Box* box);
// The scale from `from` to `to` must be within [1/32, 16] on each axis.
aclError CheckScale(const Box& from, const Box& to, const char* what);

// Runs a job (on a worker). Buffers were checked when it was enqueued.
aclError RunVpc(const VpcJob& job, std::string* why);

}  // namespace openacl::dvpp
