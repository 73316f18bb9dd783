// The pooling kernel of ops/pooling.h: one plane at a time, read into a buffer in the compute
// type, reduced window by window, and written back converted.
#include "ops/pooling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "backend/cpu/executor.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::ops {
namespace {

// Planes whose outputs and windows add up to fewer element visits than this run on the
// calling worker alone.
constexpr int64_t kParallelWork = int64_t{1} << 16;

// Reads plane `plane` of `in` (planes of `channels`, each rows x cols) into buf, row-major.
template <typename C>
void LoadPlane(const Operand& in, int64_t channels, int64_t plane, int64_t rows, int64_t cols,
               C* buf) {
    const auto size = static_cast<int64_t>(DtypeSize(in.dtype));
    const char* base =
        in.data + ((plane / channels) * in.strides[0] + (plane % channels) * in.strides[1]) * size;
    for (int64_t y = 0; y < rows; ++y)
        Load<C>(base + y * in.strides[2] * size, in.strides[3] * size, in.dtype, cols,
                buf + y * cols);
}

// Writes buf (rows x cols) to plane `plane` of `out`.
template <typename C>
void StorePlane(const Operand& out, int64_t channels, int64_t plane, int64_t rows, int64_t cols,
                const C* buf) {
    const auto size = static_cast<int64_t>(DtypeSize(out.dtype));
    char* base = out.data +
                 ((plane / channels) * out.strides[0] + (plane % channels) * out.strides[1]) * size;
    for (int64_t y = 0; y < rows; ++y)
        Store<C>(buf + y * cols, cols, base + y * out.strides[2] * size, out.strides[3] * size,
                 out.dtype);
}

// The first and one-past-last kernel taps of a window starting at `start` (dilated by `step`)
// that land inside [0, size).
void Taps(int64_t start, int64_t kernel, int64_t step, int64_t size, int64_t* first,
          int64_t* last) {
    *first = start >= 0 ? 0 : (-start + step - 1) / step;
    *last = start >= size ? 0 : std::min(kernel, (size - 1 - start) / step + 1);
    *first = std::min(*first, *last);
}

// C: float for floating types, int64_t for integers.
template <typename C>
void MaxPlanes(const Pool2dArgs& a, int64_t begin, int64_t end) {
    std::vector<C> in(static_cast<size_t>(a.h * a.w)), out(static_cast<size_t>(a.out_h * a.out_w));
    const C lowest = std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity()
                                                          : std::numeric_limits<C>::lowest();
    for (int64_t plane = begin; plane < end; ++plane) {
        LoadPlane(a.in, a.c, plane, a.h, a.w, in.data());
        for (int64_t oy = 0; oy < a.out_h; ++oy) {
            const int64_t y0 = oy * a.stride[0] - a.pad_begin[0];
            int64_t i0, i1;
            Taps(y0, a.kernel[0], a.dilation[0], a.h, &i0, &i1);
            for (int64_t ox = 0; ox < a.out_w; ++ox) {
                const int64_t x0 = ox * a.stride[1] - a.pad_begin[1];
                int64_t j0, j1;
                Taps(x0, a.kernel[1], a.dilation[1], a.w, &j0, &j1);
                C best = lowest;
                for (int64_t i = i0; i < i1; ++i) {
                    const C* row = in.data() + (y0 + i * a.dilation[0]) * a.w + x0;
                    for (int64_t j = j0; j < j1; ++j) {
                        const C v = row[j * a.dilation[1]];
                        if constexpr (std::is_floating_point_v<C>) {
                            if (v > best || std::isnan(v)) best = v;
                        } else {
                            best = std::max(best, v);
                        }
                    }
                }
                out[static_cast<size_t>(oy * a.out_w + ox)] = best;
            }
        }
        StorePlane(a.out, a.c, plane, a.out_h, a.out_w, out.data());
    }
}

// The image rows [y0, y1) and columns [x0, x1) under output element (oy, ox) of an average
// pooling, and its divisor; false when the window covers nothing of the image.
bool AvgWindow(const Pool2dArgs& a, int64_t oy, int64_t ox, int64_t* y0, int64_t* y1, int64_t* x0,
               int64_t* x1, int64_t* divisor) {
    *y0 = oy * a.stride[0] - a.pad_begin[0];
    *y1 = std::min(*y0 + a.kernel[0], a.h + a.pad_end[0]);
    *x0 = ox * a.stride[1] - a.pad_begin[1];
    *x1 = std::min(*x0 + a.kernel[1], a.w + a.pad_end[1]);
    const int64_t padded = (*y1 - *y0) * (*x1 - *x0);
    *y0 = std::max<int64_t>(*y0, 0);
    *y1 = std::min(*y1, a.h);
    *x0 = std::max<int64_t>(*x0, 0);
    *x1 = std::min(*x1, a.w);
    if (*y0 >= *y1 || *x0 >= *x1) return false;
    *divisor = a.divisor != 0        ? a.divisor
               : a.count_include_pad ? padded
                                     : (*y1 - *y0) * (*x1 - *x0);
    return true;
}

void AvgPlanes(const Pool2dArgs& a, int64_t begin, int64_t end) {
    std::vector<double> in(static_cast<size_t>(a.h * a.w)),
        out(static_cast<size_t>(a.out_h * a.out_w));
    for (int64_t plane = begin; plane < end; ++plane) {
        LoadPlane(a.in, a.c, plane, a.h, a.w, in.data());
        for (int64_t oy = 0; oy < a.out_h; ++oy) {
            for (int64_t ox = 0; ox < a.out_w; ++ox) {
                double& result = out[static_cast<size_t>(oy * a.out_w + ox)];
                int64_t y0, y1, x0, x1, divisor;
                if (!AvgWindow(a, oy, ox, &y0, &y1, &x0, &x1, &divisor)) {
                    result = 0.0;  // nothing of the image under the window
                    continue;
                }
                double sum = 0.0;
                for (int64_t y = y0; y < y1; ++y)
                    for (int64_t x = x0; x < x1; ++x)
                        sum += in[static_cast<size_t>(y * a.w + x)];
                result = sum / static_cast<double>(divisor);
            }
        }
        StorePlane(a.out, a.c, plane, a.out_h, a.out_w, out.data());
    }
}

void AvgBackwardPlanes(const Pool2dArgs& a, int64_t begin, int64_t end) {
    std::vector<double> grad(static_cast<size_t>(a.out_h * a.out_w)),
        image(static_cast<size_t>(a.h * a.w));
    for (int64_t plane = begin; plane < end; ++plane) {
        LoadPlane(a.in, a.c, plane, a.out_h, a.out_w, grad.data());
        std::fill(image.begin(), image.end(), 0.0);
        for (int64_t oy = 0; oy < a.out_h; ++oy) {
            for (int64_t ox = 0; ox < a.out_w; ++ox) {
                int64_t y0, y1, x0, x1, divisor;
                if (!AvgWindow(a, oy, ox, &y0, &y1, &x0, &x1, &divisor)) continue;
                const double share =
                    grad[static_cast<size_t>(oy * a.out_w + ox)] / static_cast<double>(divisor);
                for (int64_t y = y0; y < y1; ++y)
                    for (int64_t x = x0; x < x1; ++x)
                        image[static_cast<size_t>(y * a.w + x)] += share;
            }
        }
        StorePlane(a.out, a.c, plane, a.h, a.w, image.data());
    }
}

void PoolPlanes(const Pool2dArgs& a, int64_t begin, int64_t end) {
    if (a.kind == PoolKind::kAvg) {
        AvgPlanes(a, begin, end);
    } else if (IsFloating(a.in.dtype)) {
        MaxPlanes<float>(a, begin, end);
    } else {
        MaxPlanes<int64_t>(a, begin, end);
    }
}

// Runs planes_of(args, begin, end) over the n * c planes, in blocks of whole planes over the
// executor's idle workers when there is enough work.
template <typename Planes>
void SplitPlanes(const Pool2dArgs& args, Planes planes_of) {
    const int64_t planes = args.n * args.c;
    if (planes <= 0 || args.out_h <= 0 || args.out_w <= 0) return;
    const int64_t per_plane =
        args.h * args.w + args.out_h * args.out_w * args.kernel[0] * args.kernel[1];
    cpu::Executor* executor = cpu::Executor::Current();
    if (executor != nullptr && planes > 1 && planes * per_plane >= kParallelWork) {
        // Blocks of whole planes, each about kParallelWork visits.
        const int64_t per_block =
            std::max<int64_t>(1, kParallelWork / std::max<int64_t>(per_plane, 1));
        const int64_t blocks = (planes + per_block - 1) / per_block;
        const cpu::ParallelStatus status =
            executor->ParallelFor(static_cast<uint32_t>(blocks), [&](uint32_t block) {
                const int64_t begin = int64_t{block} * per_block;
                planes_of(args, begin, std::min(planes, begin + per_block));
            });
        if (!status.rejected()) return;
    }
    planes_of(args, 0, planes);
}

}  // namespace

void RunPool2d(const Pool2dArgs& args) {
    SplitPlanes(args, PoolPlanes);
}

void RunAvgPool2dBackward(const Pool2dArgs& args) {
    SplitPlanes(args, AvgBackwardPlanes);
}

}  // namespace openacl::ops
