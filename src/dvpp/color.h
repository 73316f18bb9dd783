// Colour conversion (acldvppVpcConvertColorAsync): the same picture in another format. openacl
// writes YUV400, NV12/NV21, RGB888/BGR888 and the four 8888 orders, from any VPC input format.
#pragma once

#include <string>

#include "dvpp/picture.h"

namespace openacl::dvpp {

// Byte positions of R, G, B (and A, or -1) in a packed RGB-family pixel; false for others.
struct RgbLayout {
    int r, g, b, a;
    uint32_t bytes;
};
bool RgbLayoutOf(acldvppPixelFormat format, RgbLayout* layout);

bool IsConvertColorOutput(acldvppPixelFormat format);
aclError RunConvertColor(const Picture& in, const Picture& out, std::string* why);

}  // namespace openacl::dvpp
