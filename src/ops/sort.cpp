// The sorting kernel of ops/sort.h: each line is read into a buffer, its positions ordered by
// (value, position), and the first k written back.
#include "ops/sort.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include "ops/axis_plan.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::ops {
namespace {

template <typename K>
bool IsNan(K v) {
    if constexpr (std::is_floating_point_v<K>) {
        return std::isnan(v);
    } else {
        (void)v;
        return false;
    }
}

// a before b in ascending order with NaN last; ties broken by position (a stable order).
template <typename K>
bool Before(K a, K b, int64_t ia, int64_t ib, bool descending) {
    const bool na = IsNan(a), nb = IsNan(b);
    if (na || nb) {
        if (na && nb) return ia < ib;
        return descending ? na : nb;  // NaN is the largest
    }
    if (a != b) return descending ? a > b : a < b;
    return ia < ib;
}

template <typename K>
void SortLines(const SortArgs& args, const AxisPlan<3>& plan, int64_t begin, int64_t end) {
    const int64_t length = plan.red_dims[0];
    const int64_t k = std::min(args.k, length);
    std::vector<K> line(static_cast<size_t>(length));
    std::vector<int64_t> order(static_cast<size_t>(length));
    std::vector<K> values(static_cast<size_t>(k));
    std::vector<int64_t> indices(static_cast<size_t>(k));
    Odometer<3> kept(plan.kept_rank, plan.kept_dims, plan.kept_strides, plan.base, begin);
    for (int64_t o = begin; o < end; ++o, kept.Next()) {
        Load<K>(kept[0], plan.red_strides[0][0], args.in.dtype, length, line.data());
        std::iota(order.begin(), order.end(), int64_t{0});
        auto before = [&](int64_t a, int64_t b) {
            return Before<K>(line[static_cast<size_t>(a)], line[static_cast<size_t>(b)], a, b,
                             args.descending);
        };
        if (k < length) {
            std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        } else {
            std::sort(order.begin(), order.end(), before);
        }
        for (int64_t i = 0; i < k; ++i) {
            indices[static_cast<size_t>(i)] = order[static_cast<size_t>(i)];
            values[static_cast<size_t>(i)] =
                line[static_cast<size_t>(order[static_cast<size_t>(i)])];
        }
        if (args.values.data != nullptr) {
            Store<K>(values.data(), k, kept[1], plan.red_strides[1][0], args.values.dtype);
        }
        if (args.indices.data != nullptr) {
            Store<int64_t>(indices.data(), k, kept[2], plan.red_strides[2][0], args.indices.dtype);
        }
    }
}

}  // namespace

void RunSort(const SortArgs& args) {
    if (args.shape.Numel() == 0 || args.k == 0) return;
    // A missing output walks along with the input (it is never written).
    Operand values = args.values.data != nullptr ? args.values : args.in;
    Operand indices = args.indices.data != nullptr ? args.indices : args.in;
    const Operand* const operands[3] = {&args.in, &values, &indices};
    const AxisPlan<3> plan = MakeAxisPlan<3>(args.shape, 1u << args.axis, operands);
    const auto body = [&](int64_t begin, int64_t end) {
        if (args.integer) {
            SortLines<int64_t>(args, plan, begin, end);
        } else {
            SortLines<double>(args, plan, begin, end);
        }
    };
    const int64_t work = plan.red_count * (1 + static_cast<int64_t>(std::log2(plan.red_count + 1)));
    SplitUnits(plan.kept_count, GrainFor(work), body);
}

}  // namespace openacl::ops
