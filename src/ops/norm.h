// Normalisations over rows of strided views: RmsNorm (optionally fused with the addition of a
// residual), LayerNorm and GroupNorm. A tensor is read and written as a flat row-major
// sequence, so a row is a run of consecutive logical elements whatever the view's strides.
// Statistics accumulate in double; the variance is the population one (divided by the count).
// Rows are split over the executor's idle workers.
#pragma once

#include <cstdint>

#include "ops/elementwise.h"

namespace openacl::ops {

// A strided view as a flat sequence (absent when data is null).
struct FlatTensor {
    Operand view;  // data at the element of index (0, ..., 0)
    LoopShape shape;
    bool present() const { return view.data != nullptr; }
};

// y = x / sqrt(mean(x^2) + eps) * gamma per row of `cols` elements; with x2 present, x is
// x + x2 (rounded to x_out's type, written to x_out when present). rstd (when present) gets
// one value per row.
struct RmsNormArgs {
    FlatTensor x, x2, gamma, y, rstd, x_out;
    int64_t rows = 0, cols = 0;
    double eps = 1e-6;
};
void RunRmsNorm(const RmsNormArgs& args);

// out = (x - mean) / sqrt(var + eps) * weight + bias per row; weight and bias (each `cols`
// elements) optional; mean and rstd (one per row) optional.
struct LayerNormArgs {
    FlatTensor x, weight, bias, out, mean, rstd;
    int64_t rows = 0, cols = 0;
    double eps = 1e-5;
};
void RunLayerNorm(const LayerNormArgs& args);

// x is [n, c, hxw...]: each of the n * groups rows holds c / groups channels of hxw elements;
// gamma and beta (optional) have one value per channel; mean and rstd one per row.
struct GroupNormArgs {
    FlatTensor x, gamma, beta, out, mean, rstd;
    int64_t n = 0, c = 0, hxw = 0, groups = 1;
    double eps = 1e-5;
};
void RunGroupNorm(const GroupNormArgs& args);

}  // namespace openacl::ops
