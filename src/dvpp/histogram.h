// Histograms and look-up tables (acldvppVpcCalcHistAsync, acldvppVpcEqualizeHistAsync). Both
// see a picture as components: Y, U, V for YUV formats and R, G, B for RGB formats (index 0,
// 1, 2, as in acldvppBorderConfig's values); YUV400 has Y only.
#pragma once

#include <cstdint>
#include <vector>

#include "dvpp/picture.h"

namespace openacl::dvpp {

// Formats a histogram or LUT task reads: YUV400, semi-planar YUV, packed 4:2:2 and 4:4:4,
// RGB888 and BGR888.
bool IsHistogramFormat(acldvppPixelFormat format);
uint32_t ComponentCount(acldvppPixelFormat format);

// 256 bins per component, counted over the picture's width x height.
std::vector<std::vector<uint32_t>> CalcHist(const Picture& in);
// out = tables[component][in] sample by sample (out has in's format and size).
void ApplyLut(const Picture& in, const Picture& out,
              const std::vector<std::vector<uint8_t>>& tables);

}  // namespace openacl::dvpp
