// The reductions and cumulative sums of ops/reduce.h on the loop plans of ops/axis_plan.h.
#include "ops/reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "backend/cpu/executor.h"
#include "ops/axis_plan.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::ops {

void SplitUnits(int64_t units, int64_t grain, void (*body)(int64_t, int64_t, void*), void* arg) {
    if (units <= 0) return;
    constexpr int64_t kMaxBlocks = 4096;
    grain = std::max(grain, (units + kMaxBlocks - 1) / kMaxBlocks);
    const int64_t blocks = (units + grain - 1) / grain;
    cpu::Executor* executor = cpu::Executor::Current();
    if (blocks > 1 && executor != nullptr) {
        const cpu::ParallelStatus status =
            executor->ParallelFor(static_cast<uint32_t>(blocks), [&](uint32_t i) {
                const int64_t begin = int64_t{i} * grain;
                body(begin, std::min(units, begin + grain), arg);
            });
        if (!status.rejected()) return;
    }
    body(0, units, arg);
}

namespace {

constexpr int64_t kChunk = 256;  // elements per conversion step, and kept positions per tile

// n <= kChunk elements of `type` from p (`stride` bytes apart) as A, each first converted to
// `via` when that is set: the device casts the input to the operator's dtype before reducing.
template <typename A>
void LoadVia(const char* p, int64_t stride, aclDataType type, aclDataType via, int64_t n, A* out) {
    if (via == ACL_DT_UNDEFINED || via == type) {
        if constexpr (std::is_integral_v<A>) {
            if (IsFloating(type)) {  // truncated and saturated, never undefined
                double values[kChunk];
                Load<double>(p, stride, type, n, values);
                for (int64_t i = 0; i < n; ++i)
                    out[i] = FloatToInt<A>(values[i]);
                return;
            }
        }
        Load<A>(p, stride, type, n, out);
        return;
    }
    alignas(8) char converted[kChunk * 8];
    const auto size = static_cast<int64_t>(DtypeSize(via));
    if (IsFloating(type)) {
        double values[kChunk];
        Load<double>(p, stride, type, n, values);
        Store<double>(values, n, converted, size, via);
    } else {
        int64_t values[kChunk];
        Load<int64_t>(p, stride, type, n, values);
        Store<int64_t>(values, n, converted, size, via);
    }
    LoadVia<A>(converted, size, via, ACL_DT_UNDEFINED, n, out);
}

template <typename A>
A WrapAdd(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    } else {
        return a + b;
    }
}

// ---- reductions ----

// What an accumulator does with each element.
enum class Kind : uint8_t {
    kSum,
    kMax,
    kMin,
    kAny,
    kAbsMax,  // inf-norm
    kAbsMin,  // -inf-norm
    kCount,   // 0-norm
    kAbsSum,  // 1-norm
    kSqSum,   // 2-norm
    kPowSum,  // p-norm
    kArgMax,
};

template <Kind K, typename A>
A Initial() {
    if constexpr (K == Kind::kMax || K == Kind::kArgMax) {
        if constexpr (std::is_integral_v<A>) return std::numeric_limits<A>::min();
        return -std::numeric_limits<A>::infinity();
    } else if constexpr (K == Kind::kMin || K == Kind::kAbsMin) {
        if constexpr (std::is_integral_v<A>) return std::numeric_limits<A>::max();
        return std::numeric_limits<A>::infinity();
    } else {
        return A{0};
    }
}

// acc (op) v, NaN-propagating for the extremes (a NaN, once in, stays).
template <Kind K, typename A>
inline void Accumulate(A& acc, A v, double p) {
    (void)p;
    if constexpr (K == Kind::kSum) {
        acc = WrapAdd(acc, v);
    } else if constexpr (K == Kind::kMax) {
        if (v > acc || v != v) acc = v;
    } else if constexpr (K == Kind::kMin) {
        if (v < acc || v != v) acc = v;
    } else if constexpr (K == Kind::kAny) {
        if (v != A{0}) acc = A{1};
    } else if constexpr (K == Kind::kAbsMax) {
        const A a = std::abs(v);
        if (a > acc || a != a) acc = a;
    } else if constexpr (K == Kind::kAbsMin) {
        const A a = std::abs(v);
        if (a < acc || a != a) acc = a;
    } else if constexpr (K == Kind::kCount) {
        acc += v != A{0} ? A{1} : A{0};
    } else if constexpr (K == Kind::kAbsSum) {
        acc += std::abs(v);
    } else if constexpr (K == Kind::kSqSum) {
        acc += v * v;
    } else if constexpr (K == Kind::kPowSum) {
        acc += static_cast<A>(std::pow(std::abs(static_cast<double>(v)), p));
    }
}

// Arg-max: the first maximum wins, and the first NaN beats everything.
template <typename A>
inline void AccumulateArg(A& best, int64_t& index, A v, int64_t at) {
    if (v > best || (v != v && best == best)) {
        best = v;
        index = at;
    }
}

template <Kind K>
double Finish(double acc, const ReduceArgs& args, int64_t count) {
    if constexpr (K == Kind::kSum) {
        return args.op == ReduceOp::kMean ? acc / static_cast<double>(count) : acc;
    } else if constexpr (K == Kind::kSqSum) {
        return std::sqrt(acc);
    } else if constexpr (K == Kind::kPowSum) {
        return std::pow(acc, 1.0 / args.p);
    } else {
        return acc;
    }
}

template <Kind K, typename A>
A FinishAs(A acc, const ReduceArgs& args, int64_t count) {
    (void)args;
    (void)count;
    if constexpr (std::is_integral_v<A>) {
        return acc;
    } else {
        return static_cast<A>(Finish<K>(acc, args, count));
    }
}

template <Kind K, typename A>
void StoreResults(const A* acc, const int64_t* index, int64_t n, char* p, int64_t stride,
                  const ReduceArgs& args, int64_t count) {
    if constexpr (K == Kind::kArgMax) {
        (void)acc;
        Store<int64_t>(index, n, p, stride, args.out.dtype);
    } else {
        A results[kChunk];
        for (int64_t i = 0; i < n; ++i)
            results[i] = FinishAs<K, A>(acc[i], args, count);
        Store<A>(results, n, p, stride, args.out.dtype);
    }
}

// Row mode: every result walks its own runs along the innermost reduced dimension.
template <Kind K, typename A>
void ReduceRows(const ReduceArgs& args, const AxisPlan<2>& plan, int64_t begin, int64_t end) {
    const int inner = plan.red_rank - 1;
    const int64_t run = plan.red_dims[inner];
    const int64_t step = plan.red_strides[0][inner];
    const int64_t runs = plan.red_count / run;
    Odometer<2> kept(plan.kept_rank, plan.kept_dims, plan.kept_strides, plan.base, begin);
    A values[kChunk];
    for (int64_t o = begin; o < end; ++o, kept.Next()) {
        A acc = Initial<K, A>();
        int64_t index = 0, at = 0;
        char* const base[2] = {kept[0], kept[1]};
        Odometer<2> red(inner, plan.red_dims, plan.red_strides, base, 0);
        for (int64_t r = 0; r < runs; ++r, red.Next()) {
            for (int64_t i = 0; i < run; i += kChunk) {
                const int64_t n = std::min(kChunk, run - i);
                LoadVia<A>(red[0] + i * step, step, args.in.dtype, args.via, n, values);
                if constexpr (K == Kind::kArgMax) {
                    for (int64_t j = 0; j < n; ++j)
                        AccumulateArg(acc, index, values[j], at + j);
                } else {
                    for (int64_t j = 0; j < n; ++j)
                        Accumulate<K, A>(acc, values[j], args.p);
                }
                at += n;
            }
        }
        StoreResults<K, A>(&acc, &index, 1, kept[1], 0, args, plan.red_count);
    }
}

// Column mode: tiles of neighbouring results along the innermost kept dimension, each
// reduced position read as one run of the tile.
template <Kind K, typename A>
void ReduceColumns(const ReduceArgs& args, const AxisPlan<2>& plan, int64_t begin, int64_t end) {
    const int k = plan.kept_rank - 1;
    const int64_t width = plan.kept_dims[k];
    const int64_t tiles = (width + kChunk - 1) / kChunk;
    A acc[kChunk], values[kChunk];
    int64_t index[kChunk];
    for (int64_t u = begin; u < end; ++u) {
        const int64_t first = (u % tiles) * kChunk;
        const int64_t n = std::min(kChunk, width - first);
        Odometer<2> kept(k, plan.kept_dims, plan.kept_strides, plan.base, u / tiles);
        char* const base[2] = {kept[0] + first * plan.kept_strides[0][k],
                               kept[1] + first * plan.kept_strides[1][k]};
        std::fill(acc, acc + n, Initial<K, A>());
        std::fill(index, index + n, int64_t{0});
        Odometer<2> red(plan.red_rank, plan.red_dims, plan.red_strides, base, 0);
        for (int64_t r = 0; r < plan.red_count; ++r, red.Next()) {
            LoadVia<A>(red[0], plan.kept_strides[0][k], args.in.dtype, args.via, n, values);
            if constexpr (K == Kind::kArgMax) {
                for (int64_t j = 0; j < n; ++j)
                    AccumulateArg(acc[j], index[j], values[j], r);
            } else {
                for (int64_t j = 0; j < n; ++j)
                    Accumulate<K, A>(acc[j], values[j], args.p);
            }
        }
        StoreResults<K, A>(acc, index, n, base[1], plan.kept_strides[1][k], args, plan.red_count);
    }
}

template <Kind K, typename A>
void Reduce(const ReduceArgs& args) {
    const Operand* const operands[2] = {&args.in, &args.out};
    const AxisPlan<2> plan = MakeAxisPlan<2>(args.shape, args.reduce_mask, operands);
    if (plan.row_mode) {
        SplitUnits(plan.kept_count, GrainFor(plan.red_count),
                   [&](int64_t begin, int64_t end) { ReduceRows<K, A>(args, plan, begin, end); });
    } else {
        const int64_t width = plan.kept_dims[plan.kept_rank - 1];
        const int64_t tiles = (width + kChunk - 1) / kChunk;
        const int64_t units = plan.kept_count / width * tiles;
        SplitUnits(
            units, GrainFor(plan.red_count * std::min(width, kChunk)),
            [&](int64_t begin, int64_t end) { ReduceColumns<K, A>(args, plan, begin, end); });
    }
}

Kind KindOf(const ReduceArgs& args) {
    switch (args.op) {
        case ReduceOp::kSum:
        case ReduceOp::kMean:
            return Kind::kSum;
        case ReduceOp::kMax:
            return Kind::kMax;
        case ReduceOp::kMin:
            return Kind::kMin;
        case ReduceOp::kAny:
            return Kind::kAny;
        case ReduceOp::kArgMax:
            return Kind::kArgMax;
        case ReduceOp::kNorm:
            if (std::isinf(args.p)) return args.p > 0 ? Kind::kAbsMax : Kind::kAbsMin;
            if (args.p == 0.0) return Kind::kCount;
            if (args.p == 1.0) return Kind::kAbsSum;
            if (args.p == 2.0) return Kind::kSqSum;
            return Kind::kPowSum;
    }
    return Kind::kSum;
}

// ---- cumulative sums ----

template <typename A>
void CumsumRows(const CumsumArgs& args, const AxisPlan<2>& plan, int64_t begin, int64_t end) {
    const int64_t length = plan.red_dims[0];
    const int64_t in_step = plan.red_strides[0][0], out_step = plan.red_strides[1][0];
    Odometer<2> kept(plan.kept_rank, plan.kept_dims, plan.kept_strides, plan.base, begin);
    A values[kChunk], sums[kChunk];
    for (int64_t o = begin; o < end; ++o, kept.Next()) {
        A acc{0};
        for (int64_t done = 0; done < length; done += kChunk) {
            const int64_t n = std::min(kChunk, length - done);
            // Forward: elements [done, done + n); reversed: the n before length - done.
            const int64_t first = args.reverse ? length - done - n : done;
            LoadVia<A>(kept[0] + first * in_step, in_step, args.in.dtype, args.via, n, values);
            for (int64_t j = 0; j < n; ++j) {
                const int64_t i = args.reverse ? n - 1 - j : j;
                const A sum = WrapAdd(acc, values[i]);
                sums[i] = args.exclusive ? acc : sum;
                acc = sum;
            }
            Store<A>(sums, n, kept[1] + first * out_step, out_step, args.out.dtype);
        }
    }
}

template <typename A>
void CumsumColumns(const CumsumArgs& args, const AxisPlan<2>& plan, int64_t begin, int64_t end) {
    const int k = plan.kept_rank - 1;
    const int64_t width = plan.kept_dims[k];
    const int64_t tiles = (width + kChunk - 1) / kChunk;
    const int64_t length = plan.red_dims[0];
    A acc[kChunk], values[kChunk], sums[kChunk];
    for (int64_t u = begin; u < end; ++u) {
        const int64_t first = (u % tiles) * kChunk;
        const int64_t n = std::min(kChunk, width - first);
        Odometer<2> kept(k, plan.kept_dims, plan.kept_strides, plan.base, u / tiles);
        char* const in = kept[0] + first * plan.kept_strides[0][k];
        char* const out = kept[1] + first * plan.kept_strides[1][k];
        std::fill(acc, acc + n, A{0});
        for (int64_t step = 0; step < length; ++step) {
            const int64_t i = args.reverse ? length - 1 - step : step;
            LoadVia<A>(in + i * plan.red_strides[0][0], plan.kept_strides[0][k], args.in.dtype,
                       args.via, n, values);
            for (int64_t j = 0; j < n; ++j) {
                const A sum = WrapAdd(acc[j], values[j]);
                sums[j] = args.exclusive ? acc[j] : sum;
                acc[j] = sum;
            }
            Store<A>(sums, n, out + i * plan.red_strides[1][0], plan.kept_strides[1][k],
                     args.out.dtype);
        }
    }
}

template <typename A>
void Cumsum(const CumsumArgs& args) {
    const Operand* const operands[2] = {&args.in, &args.out};
    const AxisPlan<2> plan = MakeAxisPlan<2>(args.shape, 1u << args.axis, operands);
    if (plan.row_mode) {
        SplitUnits(plan.kept_count, GrainFor(plan.red_count),
                   [&](int64_t begin, int64_t end) { CumsumRows<A>(args, plan, begin, end); });
    } else {
        const int64_t width = plan.kept_dims[plan.kept_rank - 1];
        const int64_t tiles = (width + kChunk - 1) / kChunk;
        SplitUnits(plan.kept_count / width * tiles,
                   GrainFor(plan.red_count * std::min(width, kChunk)),
                   [&](int64_t begin, int64_t end) { CumsumColumns<A>(args, plan, begin, end); });
    }
}

}  // namespace

void RunReduce(const ReduceArgs& args) {
    if (args.shape.Numel() == 0) return;  // callers fill empty reductions themselves
    const Kind kind = KindOf(args);
    if (args.integer) {
        switch (kind) {
            case Kind::kMax:
                return Reduce<Kind::kMax, int64_t>(args);
            case Kind::kMin:
                return Reduce<Kind::kMin, int64_t>(args);
            case Kind::kAny:
                return Reduce<Kind::kAny, int64_t>(args);
            case Kind::kArgMax:
                return Reduce<Kind::kArgMax, int64_t>(args);
            default:
                return Reduce<Kind::kSum, int64_t>(args);
        }
    }
    switch (kind) {
        case Kind::kSum:
            return Reduce<Kind::kSum, double>(args);
        case Kind::kMax:
            return Reduce<Kind::kMax, double>(args);
        case Kind::kMin:
            return Reduce<Kind::kMin, double>(args);
        case Kind::kAny:
            return Reduce<Kind::kAny, double>(args);
        case Kind::kAbsMax:
            return Reduce<Kind::kAbsMax, double>(args);
        case Kind::kAbsMin:
            return Reduce<Kind::kAbsMin, double>(args);
        case Kind::kCount:
            return Reduce<Kind::kCount, double>(args);
        case Kind::kAbsSum:
            return Reduce<Kind::kAbsSum, double>(args);
        case Kind::kSqSum:
            return Reduce<Kind::kSqSum, double>(args);
        case Kind::kPowSum:
            return Reduce<Kind::kPowSum, double>(args);
        case Kind::kArgMax:
            return Reduce<Kind::kArgMax, double>(args);
    }
}

void RunCumsum(const CumsumArgs& args) {
    if (args.shape.Numel() == 0) return;
    if (args.integer) {
        Cumsum<int64_t>(args);
    } else {
        Cumsum<double>(args);
    }
}

}  // namespace openacl::ops
