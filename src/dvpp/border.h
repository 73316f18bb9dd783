// Borders (acldvppVpcMakeBorderAsync, acldvppVpcBatchCropResizeMakeBorderAsync): the picture
// padded on each side, with OpenCV's border types. A constant border takes value 0/1/2 as
// Y/U/V for YUV pictures and R/G/B for RGB ones.
#pragma once

#include <array>
#include <cstdint>

#include "dvpp/picture.h"

namespace openacl::dvpp {

struct BorderSpec {
    acldvppBorderType type = BORDER_CONSTANT;
    uint32_t top = 0, bottom = 0, left = 0, right = 0;
    std::array<double, 4> value{};
};
BorderSpec SpecOf(const acldvppBorderConfig& config);

// YUV400, NV12/NV21, RGB888 and BGR888.
bool IsBorderFormat(acldvppPixelFormat format);
// out must have in's format and be exactly as large as in plus the borders (odd borders are
// taken for YUV420SP: CANN only recommends even ones). Records the failure.
aclError CheckBorder(const Picture& in, const Picture& out, const BorderSpec& spec,
                     const char* what);
void RunMakeBorder(const Picture& in, const Picture& out, const BorderSpec& spec);

}  // namespace openacl::dvpp
