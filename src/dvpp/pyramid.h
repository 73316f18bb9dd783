// Pyramid-down (acldvppVpcPyrDownAsync): a YUV400 picture blurred with the 5x5 Gaussian and
// halved, as OpenCV's pyrDown does it. Inputs are 20x12 to 2048x2048.
#pragma once

#include "dvpp/picture.h"

namespace openacl::dvpp {

aclError CheckPyrDown(const Picture& in, const Picture& out, const Stream* stream);
void RunPyrDown(const Picture& in, const Picture& out);

}  // namespace openacl::dvpp
