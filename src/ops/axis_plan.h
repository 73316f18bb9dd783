// Loops that run along some dimensions of a strided view for every position of the others:
// reductions (one result per kept position), scans and softmax (one line per kept position).
// The plan orders the dimensions by the first operand's stride (the smallest innermost, so
// transposed views are walked in memory order), drops size-1 dimensions and merges neighbours
// of the same kind that every operand steps through as one. It then says how to walk:
//   row mode: the innermost dimension is along the reduction, so each kept position walks its
//     own runs of elements (a softmax over the last dimension of a contiguous tensor);
//   column mode: the innermost dimension is kept, so tiles of neighbouring kept positions are
//     processed together, one run of the tile for every position along the reduction (a sum
//     over the first dimension), which reads memory in order instead of striding.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "ops/dtype.h"
#include "ops/elementwise.h"

namespace openacl::ops {

template <int N>
struct AxisPlan {
    // Kept dimensions then reduced ones, each outer to inner; strides in bytes per operand.
    int kept_rank = 0, red_rank = 0;
    int64_t kept_dims[kMaxDims] = {};
    int64_t red_dims[kMaxDims] = {};
    int64_t kept_strides[N][kMaxDims] = {};
    int64_t red_strides[N][kMaxDims] = {};
    int64_t kept_count = 1, red_count = 1;
    char* base[N] = {};
    bool row_mode = true;
};

// The plan of a loop over `shape` whose dimensions in `reduce_mask` (bit d: dimension d) are
// walked for every position of the others. An empty side gets one dimension of size 1.
template <int N>
AxisPlan<N> MakeAxisPlan(const LoopShape& shape, uint32_t reduce_mask,
                         const Operand* const (&operands)[N]) {
    struct Dim {
        int64_t size;
        bool reduced;
        int64_t strides[N];
    };
    Dim dims[kMaxDims];
    int rank = 0;
    for (int d = 0; d < shape.rank; ++d) {
        if (shape.dims[d] == 1) continue;
        Dim& dim = dims[rank++];
        dim.size = shape.dims[d];
        dim.reduced = ((reduce_mask >> d) & 1u) != 0;
        for (int k = 0; k < N; ++k) {
            dim.strides[k] =
                operands[k]->strides[d] * static_cast<int64_t>(DtypeSize(operands[k]->dtype));
        }
    }
    // Outer to inner by the first operand's stride; ties keep their order.
    std::stable_sort(dims, dims + rank, [](const Dim& a, const Dim& b) {
        return std::llabs(a.strides[0]) > std::llabs(b.strides[0]);
    });
    AxisPlan<N> plan;
    for (int k = 0; k < N; ++k)
        plan.base[k] = operands[k]->data;
    for (int side = 0; side < 2; ++side) {
        const bool reduced = side == 1;
        int& out_rank = reduced ? plan.red_rank : plan.kept_rank;
        int64_t* out_dims = reduced ? plan.red_dims : plan.kept_dims;
        auto& out_strides = reduced ? plan.red_strides : plan.kept_strides;
        for (int d = 0; d < rank; ++d) {
            if (dims[d].reduced != reduced) continue;
            const int last = out_rank - 1;
            bool merge = last >= 0;
            for (int k = 0; merge && k < N; ++k) {
                merge = out_strides[k][last] == dims[d].strides[k] * dims[d].size;
            }
            if (merge) {
                out_dims[last] *= dims[d].size;
                for (int k = 0; k < N; ++k)
                    out_strides[k][last] = dims[d].strides[k];
            } else {
                out_dims[out_rank] = dims[d].size;
                for (int k = 0; k < N; ++k)
                    out_strides[k][out_rank] = dims[d].strides[k];
                ++out_rank;
            }
        }
        if (out_rank == 0) {  // nothing on this side: one position
            out_dims[0] = 1;
            for (int k = 0; k < N; ++k)
                out_strides[k][0] = 0;
            out_rank = 1;
        }
    }
    for (int d = 0; d < plan.kept_rank; ++d)
        plan.kept_count *= plan.kept_dims[d];
    for (int d = 0; d < plan.red_rank; ++d)
        plan.red_count *= plan.red_dims[d];
    if (plan.kept_count == 1) {
        plan.row_mode = true;
    } else if (plan.red_count == 1) {
        plan.row_mode = false;
    } else {
        plan.row_mode = std::llabs(plan.red_strides[0][plan.red_rank - 1]) <=
                        std::llabs(plan.kept_strides[0][plan.kept_rank - 1]);
    }
    return plan;
}

// An odometer over `rank` dimensions that moves N pointers along: position `index` (row-major)
// of the dimensions at construction, then Next() one step at a time.
template <int N>
class Odometer {
 public:
    Odometer(int rank, const int64_t* dims, const int64_t (*strides)[kMaxDims], char* const* base,
             int64_t index)
        : rank_(rank), dims_(dims), strides_(strides) {
        for (int k = 0; k < N; ++k)
            p_[k] = base[k];
        for (int d = rank - 1; d >= 0; --d) {
            index_[d] = index % dims[d];
            index /= dims[d];
            for (int k = 0; k < N; ++k)
                p_[k] += index_[d] * strides[k][d];
        }
    }
    char* operator[](int k) const { return p_[k]; }
    void Next() {
        for (int d = rank_ - 1; d >= 0; --d) {
            if (++index_[d] < dims_[d]) {
                for (int k = 0; k < N; ++k)
                    p_[k] += strides_[k][d];
                return;
            }
            index_[d] = 0;
            for (int k = 0; k < N; ++k)
                p_[k] -= (dims_[d] - 1) * strides_[k][d];
        }
    }

 private:
    int rank_;
    const int64_t* dims_;
    const int64_t (*strides_)[kMaxDims];
    int64_t index_[kMaxDims] = {};
    char* p_[N];
};

// Runs body(begin, end) over [0, units) in blocks of about `grain` units, over the executor's
// idle workers when there is more than one block (defined in reduce.cpp).
void SplitUnits(int64_t units, int64_t grain, void (*body)(int64_t, int64_t, void*), void* arg);

template <typename Body>
void SplitUnits(int64_t units, int64_t grain, Body&& body) {
    using Fn = std::remove_reference_t<Body>;
    SplitUnits(
        units, grain,
        [](int64_t begin, int64_t end, void* arg) { (*static_cast<Fn*>(arg))(begin, end); },
        const_cast<void*>(static_cast<const void*>(&body)));
}

// How many units make a block worth handing to another worker when each costs `unit_work`
// element visits.
inline int64_t GrainFor(int64_t unit_work) {
    constexpr int64_t kBlockWork = int64_t{1} << 15;
    return std::max<int64_t>(1, kBlockWork / std::max<int64_t>(1, unit_work));
}

}  // namespace openacl::ops
