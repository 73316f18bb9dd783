// 2-D pooling over strided [N, C, H, W] views (aclnnAvgPool2d, aclnnMaxPool): each output
// element reduces a window of its plane. Windows are placed at y * stride - pad_begin (rows
// alike for columns); elements outside the image are padding. Each plane is read into a
// buffer in the compute type (float for floating types, int64 for integers, so that a maximum
// is exact), its outputs computed there and written back converted; planes are split over the
// executor's idle workers.
#pragma once

#include <cstdint>

#include "ops/elementwise.h"

namespace openacl::ops {

enum class PoolKind : uint8_t {
    kMax,  // padding never wins; NaN propagates; a window of padding only gives the lowest value
    kAvg,
};

struct Pool2dArgs {
    PoolKind kind = PoolKind::kMax;
    int64_t n = 0, c = 0, h = 0, w = 0, out_h = 0, out_w = 0;
    int64_t kernel[2] = {1, 1}, stride[2] = {1, 1}, dilation[2] = {1, 1};
    int64_t pad_begin[2] = {}, pad_end[2] = {};
    // Average pooling (PyTorch's rules): a window is clipped to the padded image
    // [-pad_begin, size + pad_end); with count_include_pad its divisor is that clipped size,
    // otherwise the number of image elements it covers; a non-zero divisor replaces both.
    bool count_include_pad = true;
    int64_t divisor = 0;
    Operand in, out;  // strides of [N, C, H, W] in elements
};

void RunPool2d(const Pool2dArgs& args);

// The gradient of average pooling: args.in is the gradient of the pooled result
// [N, C, out_h, out_w], args.out receives the gradient of the image [N, C, h, w]: each output
// element's gradient divided by its window's divisor, added to every image element the window
// covers (padding takes none).
void RunAvgPool2dBackward(const Pool2dArgs& args);

}  // namespace openacl::ops
