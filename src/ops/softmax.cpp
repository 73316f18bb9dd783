// The softmax kernels of ops/softmax.h on the loop plans of ops/axis_plan.h: a line along the
// axis is read three times (maximum, sum of exponentials, results) in column mode, or once
// into a buffer in row mode.
#include "ops/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/axis_plan.h"
#include "ops/element.h"

namespace openacl::ops {
namespace {

constexpr int64_t kTile = 256;  // lines per tile in column mode

template <typename C>
C Finish(C value, C max, double sum, bool log) {
    if (log) return static_cast<C>(value - max - static_cast<C>(std::log(sum)));
    return static_cast<C>(std::exp(value - max) / sum);
}

template <typename C>
void SoftmaxRows(const SoftmaxArgs& args, const AxisPlan<2>& plan, int64_t begin, int64_t end) {
    const int64_t length = plan.red_dims[0];
    const int64_t in_step = plan.red_strides[0][0], out_step = plan.red_strides[1][0];
    std::vector<C> line(static_cast<size_t>(length));
    Odometer<2> kept(plan.kept_rank, plan.kept_dims, plan.kept_strides, plan.base, begin);
    for (int64_t o = begin; o < end; ++o, kept.Next()) {
        Load<C>(kept[0], in_step, args.in.dtype, length, line.data());
        C max = -std::numeric_limits<C>::infinity();
        for (int64_t i = 0; i < length; ++i) {
            if (line[i] > max || line[i] != line[i]) max = line[i];
        }
        double sum = 0.0;
        if (args.log) {
            for (int64_t i = 0; i < length; ++i) {
                sum += static_cast<double>(std::exp(line[i] - max));
            }
            const C log_sum = static_cast<C>(std::log(sum));
            for (int64_t i = 0; i < length; ++i)
                line[i] = (line[i] - max) - log_sum;
        } else {
            for (int64_t i = 0; i < length; ++i) {
                line[i] = std::exp(line[i] - max);  // each exponential computed once
                sum += static_cast<double>(line[i]);
            }
            const double scale = 1.0 / sum;
            for (int64_t i = 0; i < length; ++i) {
                line[i] = static_cast<C>(static_cast<double>(line[i]) * scale);
            }
        }
        Store<C>(line.data(), length, kept[1], out_step, args.out.dtype);
    }
}

template <typename C>
void SoftmaxColumns(const SoftmaxArgs& args, const AxisPlan<2>& plan, int64_t begin, int64_t end) {
    const int k = plan.kept_rank - 1;
    const int64_t width = plan.kept_dims[k];
    const int64_t tiles = (width + kTile - 1) / kTile;
    const int64_t length = plan.red_dims[0];
    const int64_t in_step = plan.red_strides[0][0], out_step = plan.red_strides[1][0];
    const int64_t in_stride = plan.kept_strides[0][k], out_stride = plan.kept_strides[1][k];
    // The exponentials of a tile, kept from the sum to the results when they fit.
    constexpr int64_t kCacheMax = int64_t{1} << 16;
    const bool cache = !args.log && length * std::min(width, kTile) <= kCacheMax;
    std::vector<C> exps(cache ? static_cast<size_t>(length * std::min(width, kTile)) : 0);
    C max[kTile], values[kTile];
    double sum[kTile];
    for (int64_t u = begin; u < end; ++u) {
        const int64_t first = (u % tiles) * kTile;
        const int64_t n = std::min(kTile, width - first);
        Odometer<2> kept(k, plan.kept_dims, plan.kept_strides, plan.base, u / tiles);
        const char* in = kept[0] + first * in_stride;
        char* out = kept[1] + first * out_stride;
        std::fill(max, max + n, -std::numeric_limits<C>::infinity());
        std::fill(sum, sum + n, 0.0);
        for (int64_t i = 0; i < length; ++i) {
            Load<C>(in + i * in_step, in_stride, args.in.dtype, n, values);
            for (int64_t j = 0; j < n; ++j) {
                if (values[j] > max[j] || values[j] != values[j]) max[j] = values[j];
            }
        }
        for (int64_t i = 0; i < length; ++i) {
            Load<C>(in + i * in_step, in_stride, args.in.dtype, n, values);
            C* e = cache ? exps.data() + i * n : values;
            for (int64_t j = 0; j < n; ++j) {
                e[j] = std::exp(values[j] - max[j]);
                sum[j] += static_cast<double>(e[j]);
            }
        }
        for (int64_t i = 0; i < length; ++i) {
            if (cache) {
                const C* e = exps.data() + i * n;
                for (int64_t j = 0; j < n; ++j) {
                    values[j] = static_cast<C>(static_cast<double>(e[j]) / sum[j]);
                }
            } else {
                Load<C>(in + i * in_step, in_stride, args.in.dtype, n, values);
                for (int64_t j = 0; j < n; ++j) {
                    values[j] = Finish(values[j], max[j], sum[j], args.log);
                }
            }
            Store<C>(values, n, out + i * out_step, out_stride, args.out.dtype);
        }
    }
}

template <typename C>
void Softmax(const SoftmaxArgs& args) {
    const Operand* const operands[2] = {&args.in, &args.out};
    const AxisPlan<2> plan = MakeAxisPlan<2>(args.shape, 1u << args.axis, operands);
    if (plan.row_mode) {
        SplitUnits(plan.kept_count, GrainFor(3 * plan.red_count),
                   [&](int64_t begin, int64_t end) { SoftmaxRows<C>(args, plan, begin, end); });
    } else {
        const int64_t width = plan.kept_dims[plan.kept_rank - 1];
        const int64_t tiles = (width + kTile - 1) / kTile;
        SplitUnits(plan.kept_count / width * tiles,
                   GrainFor(3 * plan.red_count * std::min(width, kTile)),
                   [&](int64_t begin, int64_t end) { SoftmaxColumns<C>(args, plan, begin, end); });
    }
}

}  // namespace

void RunSoftmax(const SoftmaxArgs& args) {
    if (args.shape.Numel() == 0) return;
    if (args.wide) {
        Softmax<double>(args);
    } else {
        Softmax<float>(args);
    }
}

}  // namespace openacl::ops
