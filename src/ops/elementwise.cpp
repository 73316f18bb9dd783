// The element-wise engine of ops/elementwise.h: a loop plan that merges dimensions the
// operands walk alike, rows handed to typed kernels (directly when every operand is
// contiguous in the compute type, else converted through small buffers), and large loops
// split over the executor's idle workers.
#include "ops/elementwise.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backend/cpu/executor.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::ops {
namespace {

constexpr int64_t kChunk = 256;               // elements per conversion step
constexpr int64_t kBlock = int64_t{1} << 15;  // elements per parallel block
constexpr int64_t kParallelMin = 2 * kBlock;

// Dimensions and byte strides of N operands, with size-1 dimensions dropped and neighbours
// merged where every operand steps through them as through one.
template <int N>
struct Plan {
    int rank = 1;
    int64_t dims[kMaxDims] = {1};
    int64_t strides[N][kMaxDims] = {};
    char* base[N] = {};
};

template <int N>
Plan<N> MakePlan(const LoopShape& shape, const Operand* const (&operands)[N]) {
    Plan<N> plan;
    int rank = 0;
    for (int d = 0; d < shape.rank; ++d) {
        if (shape.dims[d] == 1) continue;
        plan.dims[rank] = shape.dims[d];
        for (int k = 0; k < N; ++k) {
            plan.strides[k][rank] =
                operands[k]->strides[d] * static_cast<int64_t>(DtypeSize(operands[k]->dtype));
        }
        ++rank;
    }
    if (rank == 0) {  // a single element
        plan.dims[0] = 1;
        rank = 1;
    }
    // Merge d into d + 1 (the inner one) while every operand's outer stride spans the inner.
    int merged = 0;
    for (int d = 1; d < rank; ++d) {
        bool mergeable = true;
        for (int k = 0; k < N; ++k) {
            mergeable = mergeable && plan.strides[k][merged] == plan.strides[k][d] * plan.dims[d];
        }
        if (mergeable) {
            plan.dims[merged] *= plan.dims[d];
            for (int k = 0; k < N; ++k)
                plan.strides[k][merged] = plan.strides[k][d];
        } else {
            ++merged;
            plan.dims[merged] = plan.dims[d];
            for (int k = 0; k < N; ++k)
                plan.strides[k][merged] = plan.strides[k][d];
        }
    }
    plan.rank = merged + 1;
    for (int k = 0; k < N; ++k)
        plan.base[k] = operands[k]->data;
    return plan;
}

// Calls row(pointers, inner strides, n) for the rows covering elements [begin, end) in
// row-major order of the plan.
template <int N, typename Row>
void Walk(const Plan<N>& plan, int64_t begin, int64_t end, Row&& row) {
    const int inner = plan.rank - 1;
    const int64_t width = plan.dims[inner];
    int64_t index[kMaxDims] = {};
    int64_t outer = begin / width;
    int64_t column = begin % width;
    for (int d = inner - 1; d >= 0; --d) {
        index[d] = outer % plan.dims[d];
        outer /= plan.dims[d];
    }
    char* p[N];
    int64_t step[N];
    for (int k = 0; k < N; ++k) {
        p[k] = plan.base[k] + column * plan.strides[k][inner];
        for (int d = 0; d < inner; ++d)
            p[k] += index[d] * plan.strides[k][d];
        step[k] = plan.strides[k][inner];
    }
    int64_t left = end - begin;
    while (left > 0) {
        const int64_t n = std::min(width - column, left);
        row(p, step, n);
        left -= n;
        if (left == 0) break;
        // Next row: back to column 0, then advance the odometer of the outer dimensions.
        for (int k = 0; k < N; ++k)
            p[k] -= column * step[k];
        column = 0;
        for (int d = inner - 1; d >= 0; --d) {
            if (++index[d] < plan.dims[d]) {
                for (int k = 0; k < N; ++k)
                    p[k] += plan.strides[k][d];
                break;
            }
            index[d] = 0;
            for (int k = 0; k < N; ++k)
                p[k] -= (plan.dims[d] - 1) * plan.strides[k][d];
        }
    }
}

// Runs body(begin, end) over [0, total), split over the executor's idle workers when large.
template <typename Body>
void Split(int64_t total, Body&& body) {
    if (total <= 0) return;  // an empty tensor: nothing to do (and no row to divide by)
    cpu::Executor* executor = cpu::Executor::Current();
    if (total >= kParallelMin && executor != nullptr) {
        const auto blocks = static_cast<uint32_t>((total + kBlock - 1) / kBlock);
        const cpu::ParallelStatus status = executor->ParallelFor(blocks, [&](uint32_t i) {
            const int64_t begin = int64_t{i} * kBlock;
            body(begin, std::min(total, begin + kBlock));
        });
        if (!status.rejected()) return;
    }
    body(int64_t{0}, total);
}

// The library is built for the distribution's baseline, where x86-64 vectors hold four floats.
// The element-wise loops are compiled twice more, for AVX2 (eight) and AVX-512 (sixteen), and
// the CPU picks one when the library first runs them. The library is built with
// -ffp-contract=off (AVX-512 brings FMA), so every build rounds each operation alike.
#if defined(__x86_64__) && defined(__GNUC__)
#define OPENACL_OPS_VECTOR_ISAS 1
#define OPENACL_OPS_AVX2 [[gnu::target("avx2")]]
#if defined(__clang__)
#define OPENACL_OPS_AVX512 [[gnu::target("avx512f"), clang::min_vector_width(512)]]
#else
#define OPENACL_OPS_AVX512 [[gnu::target("avx512f,prefer-vector-width=512")]]
#endif
enum class Isa : uint8_t { kBaseline, kAvx2, kAvx512 };
Isa BestIsa() {
    static const Isa isa = __builtin_cpu_supports("avx512f") ? Isa::kAvx512
                           : __builtin_cpu_supports("avx2")  ? Isa::kAvx2
                                                             : Isa::kBaseline;
    return isa;
}
#else
#define OPENACL_OPS_VECTOR_ISAS 0
#endif

// Defines Name<C>(params) as body compiled for each ISA, called through the best one.
// clang-format off
#define OPENACL_OPS_DISPATCH(Name, Body, params, args) \
    template <typename C> void Name##Baseline params { Body<C> args; } \
    OPENACL_OPS_IF_ISAS( \
        template <typename C> OPENACL_OPS_AVX2 void Name##Avx2 params { Body<C> args; } \
        template <typename C> OPENACL_OPS_AVX512 void Name##Avx512 params { Body<C> args; }) \
    template <typename C> void Name params { \
        OPENACL_OPS_IF_ISAS( \
            switch (BestIsa()) { \
                case Isa::kAvx512: return Name##Avx512<C> args; \
                case Isa::kAvx2: return Name##Avx2<C> args; \
                case Isa::kBaseline: break; \
            }) \
        Name##Baseline<C> args; \
    }
// clang-format on
#if OPENACL_OPS_VECTOR_ISAS
#define OPENACL_OPS_IF_ISAS(...) __VA_ARGS__
#else
#define OPENACL_OPS_IF_ISAS(...)
#endif

// Integer arithmetic wraps around (two's complement), as the device's does; floats are
// plain. Signed overflow would be undefined behaviour in C++.
template <typename C>
using Wide = typename std::conditional_t<std::is_floating_point_v<C>, std::type_identity<C>,
                                         std::make_unsigned<C>>::type;

template <typename C>
C Add(C a, C b) {
    return static_cast<C>(static_cast<Wide<C>>(a) + static_cast<Wide<C>>(b));
}
template <typename C>
C Sub(C a, C b) {
    return static_cast<C>(static_cast<Wide<C>>(a) - static_cast<Wide<C>>(b));
}
template <typename C>
C Mul(C a, C b) {
    return static_cast<C>(static_cast<Wide<C>>(a) * static_cast<Wide<C>>(b));
}
template <typename C>
C Neg(C a) {
    if constexpr (std::is_floating_point_v<C>) return -a;  // keeps the sign of zero
    return static_cast<C>(Wide<C>{0} - static_cast<Wide<C>>(a));
}

// ---- binary ----

template <typename C>
C IntPow(C base, C exponent) {
    if (exponent < 0) return base == 1 ? 1 : (base == -1 ? ((exponent & 1) ? -1 : 1) : 0);
    C result = 1;
    while (exponent > 0) {
        if (exponent & 1) result = Mul(result, base);
        base = Mul(base, base);
        exponent >>= 1;
    }
    return result;
}

// Python's floor division. Integers: x / 0 gives 0 and the minimum / -1 wraps, as kDiv.
template <typename C>
C FloorDivide(C a, C b) {
    if constexpr (std::is_floating_point_v<C>) {
        if (b == 0) return a / b;
        // From the remainder, as PyTorch does, so the quotient of exact multiples stays exact.
        const C mod = std::fmod(a, b);
        C div = (a - mod) / b;
        if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
        if (div == 0) return std::copysign(C{0}, a / b);
        C rounded = std::floor(div);
        if (div - rounded > C{0.5}) rounded += 1;
        return rounded;
    } else {
        if (b == 0) return 0;
        if (b == C(-1)) return Neg(a);
        const C q = a / b;
        return (a % b != 0 && ((a % b < 0) != (b < 0))) ? static_cast<C>(q - 1) : q;
    }
}

template <typename C>
C TruncDivide(C a, C b) {
    if constexpr (std::is_floating_point_v<C>) {
        return std::trunc(a / b);
    } else {
        return b == 0 ? C{0} : (b == C(-1) ? Neg(a) : static_cast<C>(a / b));
    }
}

template <typename C>
[[gnu::always_inline]] inline void BinaryLoops(const BinaryArgs& args, const C* x, const C* y, C* z,
                                               int64_t n) {
    constexpr bool kFloat = std::is_floating_point_v<C>;
    const C alpha = kFloat ? static_cast<C>(args.alpha) : static_cast<C>(args.alpha_int);
    switch (args.op) {
        case BinaryOp::kAdd:
            if (alpha == C{1}) {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = Add(x[i], y[i]);
            } else {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = Add(x[i], Mul(alpha, y[i]));
            }
            return;
        case BinaryOp::kSub:
            if (alpha == C{1}) {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = Sub(x[i], y[i]);
            } else {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = Sub(x[i], Mul(alpha, y[i]));
            }
            return;
        case BinaryOp::kMul:
            for (int64_t i = 0; i < n; ++i)
                z[i] = Mul(x[i], y[i]);
            return;
        case BinaryOp::kDiv:
            if constexpr (kFloat) {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = x[i] / y[i];
            } else {
                for (int64_t i = 0; i < n; ++i) {  // x / 0 gives 0; the minimum / -1 wraps
                    z[i] = y[i] == 0 ? C{0} : (y[i] == C(-1) ? Neg(x[i]) : x[i] / y[i]);
                }
            }
            return;
        case BinaryOp::kMaximum:  // NaN wins, as in PyTorch's maximum
            for (int64_t i = 0; i < n; ++i)
                z[i] = (x[i] != x[i] || x[i] > y[i]) ? x[i] : y[i];
            return;
        case BinaryOp::kMinimum:
            for (int64_t i = 0; i < n; ++i)
                z[i] = (x[i] != x[i] || x[i] < y[i]) ? x[i] : y[i];
            return;
        case BinaryOp::kPow:
            if constexpr (kFloat) {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::pow(x[i], y[i]);
            } else {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = IntPow(x[i], y[i]);
            }
            return;
        case BinaryOp::kEq:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] == y[i] ? 1 : 0;
            return;
        case BinaryOp::kNe:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] != y[i] ? 1 : 0;
            return;
        case BinaryOp::kLt:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] < y[i] ? 1 : 0;
            return;
        case BinaryOp::kLe:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] <= y[i] ? 1 : 0;
            return;
        case BinaryOp::kGt:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] > y[i] ? 1 : 0;
            return;
        case BinaryOp::kGe:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] >= y[i] ? 1 : 0;
            return;
        case BinaryOp::kLogicalAnd:
            for (int64_t i = 0; i < n; ++i)
                z[i] = (x[i] != 0 && y[i] != 0) ? 1 : 0;
            return;
        case BinaryOp::kLogicalOr:
            for (int64_t i = 0; i < n; ++i)
                z[i] = (x[i] != 0 || y[i] != 0) ? 1 : 0;
            return;
        case BinaryOp::kFloorDivide:
            for (int64_t i = 0; i < n; ++i)
                z[i] = FloorDivide(x[i], y[i]);
            return;
        case BinaryOp::kTruncDivide:
            for (int64_t i = 0; i < n; ++i)
                z[i] = TruncDivide(x[i], y[i]);
            return;
        case BinaryOp::kBitwiseAnd:
            if constexpr (kFloat) {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = C{0};  // callers pick integer types
            } else {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = static_cast<C>(x[i] & y[i]);
            }
            return;
    }
}

// In place (z is x or y) the loops must see one pointer where there is one: the compiler's
// run-time overlap check refuses to vectorise a loop whose output is its input, so an in-place
// addition of 1,024 floats took a microsecond, element by element.
template <typename C>
[[gnu::always_inline]] inline void BinaryBody(const BinaryArgs& args, const C* x, const C* y, C* z,
                                              int64_t n) {
    if (x == z && y != z) return BinaryLoops<C>(args, z, y, z, n);
    if (y == z && x != z) return BinaryLoops<C>(args, x, z, z, n);
    BinaryLoops<C>(args, x, y, z, n);
}

OPENACL_OPS_DISPATCH(ApplyBinary, BinaryBody,
                     (const BinaryArgs& args, const C* x, const C* y, C* z, int64_t n),
                     (args, x, y, z, n))

template <typename C>
void BinaryRows(const BinaryArgs& args, int64_t begin, int64_t end) {
    const Operand* const operands[3] = {&args.a, &args.b, &args.out};
    const Plan<3> plan = MakePlan<3>(args.shape, operands);
    constexpr aclDataType native = NativeDtype<C>();
    constexpr auto size = static_cast<int64_t>(sizeof(C));
    const bool native_types =
        args.a.dtype == native && args.b.dtype == native && args.out.dtype == native;
    Walk<3>(plan, begin, end, [&](char* const* p, const int64_t* s, int64_t n) {
        if (native_types && s[0] == size && s[1] == size && s[2] == size) {
            ApplyBinary<C>(args, reinterpret_cast<const C*>(p[0]), reinterpret_cast<const C*>(p[1]),
                           reinterpret_cast<C*>(p[2]), n);
            return;
        }
        C x[kChunk], y[kChunk], z[kChunk];
        for (int64_t i = 0; i < n; i += kChunk) {
            const int64_t m = std::min(kChunk, n - i);
            Load<C>(p[0] + i * s[0], s[0], args.a.dtype, m, x);
            Load<C>(p[1] + i * s[1], s[1], args.b.dtype, m, y);
            ApplyBinary<C>(args, x, y, z, m);
            Store<C>(z, m, p[2] + i * s[2], s[2], args.out.dtype);
        }
    });
}

// ---- unary ----

template <typename C>
C Sign(C v) {
    return static_cast<C>((C{0} < v) - (v < C{0}));
}

// A parameter in compute type C: the double in floating types, the integer (saturated) in
// integer types, so no conversion of an infinity or NaN is undefined behaviour.
template <typename C>
C Param(double value, int64_t value_int) {
    if constexpr (std::is_floating_point_v<C>) {
        return static_cast<C>(value);
    } else {
        if (value_int < static_cast<int64_t>(std::numeric_limits<C>::min())) {
            return std::numeric_limits<C>::min();
        }
        if (value_int > static_cast<int64_t>(std::numeric_limits<C>::max())) {
            return std::numeric_limits<C>::max();
        }
        return static_cast<C>(value_int);
    }
}

// v limited to [lo, hi]; a NaN v stays NaN and a NaN bound gives NaN (as PyTorch's clamp).
template <typename C>
C Clamp(C v, C lo, C hi) {
    if (!(v >= lo)) v = v != v ? v : lo;
    if (!(v <= hi)) v = v != v ? v : hi;
    return v;
}

template <typename C>
[[gnu::always_inline]] inline void UnaryLoops(const UnaryArgs& args, const C* x, C* z, int64_t n) {
    constexpr bool kFloat = std::is_floating_point_v<C>;
    const C p0 = Param<C>(args.p0, args.i0), p1 = Param<C>(args.p1, args.i1);
    switch (args.op) {
        case UnaryOp::kIdentity:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i];
            return;
        case UnaryOp::kNeg:
            for (int64_t i = 0; i < n; ++i)
                z[i] = Neg(x[i]);
            return;
        case UnaryOp::kAbs:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] < 0 ? Neg(x[i]) : x[i];
            return;
        case UnaryOp::kRelu:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] > 0 ? x[i] : (x[i] != x[i] ? x[i] : C{0});
            return;
        case UnaryOp::kSign:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] != x[i] ? x[i] : Sign(x[i]);
            return;
        case UnaryOp::kSquare:
            for (int64_t i = 0; i < n; ++i)
                z[i] = Mul(x[i], x[i]);
            return;
        case UnaryOp::kLogicalNot:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] == 0 ? C{1} : C{0};
            return;
        case UnaryOp::kClamp:
            for (int64_t i = 0; i < n; ++i)
                z[i] = Clamp(x[i], p0, p1);
            return;
        case UnaryOp::kThreshold:  // NaN stays NaN, as x <= threshold is false for it
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] <= p0 ? p1 : x[i];
            return;
        case UnaryOp::kBitwiseNot:
            if constexpr (!kFloat) {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = static_cast<C>(~x[i]);
                return;
            }
            break;  // callers pick integer types
        case UnaryOp::kAffine:
            for (int64_t i = 0; i < n; ++i)
                z[i] = Add(Mul(p0, x[i]), p1);
            return;
        default:
            break;
    }
    if constexpr (kFloat) {
        switch (args.op) {
            case UnaryOp::kExp:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::exp(x[i]);
                return;
            case UnaryOp::kLog:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::log(x[i]);
                return;
            case UnaryOp::kSqrt:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::sqrt(x[i]);
                return;
            case UnaryOp::kRsqrt:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = C{1} / std::sqrt(x[i]);
                return;
            case UnaryOp::kSin:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::sin(x[i]);
                return;
            case UnaryOp::kCos:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::cos(x[i]);
                return;
            case UnaryOp::kTanh:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::tanh(x[i]);
                return;
            case UnaryOp::kSigmoid:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = C{1} / (C{1} + std::exp(-x[i]));
                return;
            case UnaryOp::kReciprocal:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = C{1} / x[i];
                return;
            case UnaryOp::kSilu:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = x[i] / (C{1} + std::exp(-x[i]));
                return;
            case UnaryOp::kFloor:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::floor(x[i]);
                return;
            case UnaryOp::kCeil:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::ceil(x[i]);
                return;
            case UnaryOp::kRound:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::nearbyint(x[i]);
                return;
            case UnaryOp::kErf:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::erf(x[i]);
                return;
            case UnaryOp::kLog1p:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::log1p(x[i]);
                return;
            case UnaryOp::kExpm1:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::expm1(x[i]);
                return;
            case UnaryOp::kGeluErf: {
                const C root_half = static_cast<C>(0.70710678118654752440);
                for (int64_t i = 0; i < n; ++i) {
                    z[i] = C{0.5} * x[i] * (C{1} + std::erf(x[i] * root_half));
                }
                return;
            }
            case UnaryOp::kGeluTanh: {
                const C k = static_cast<C>(0.79788456080286535588);  // sqrt(2 / pi)
                for (int64_t i = 0; i < n; ++i) {
                    const C v = x[i];
                    z[i] = C{0.5} * v *
                           (C{1} + std::tanh(k * (v + static_cast<C>(0.044715) * v * v * v)));
                }
                return;
            }
            case UnaryOp::kHardsigmoid:
                for (int64_t i = 0; i < n; ++i) {
                    z[i] = std::min(C{1}, std::max(C{0}, x[i] / C{6} + C{0.5}));
                }
                return;
            case UnaryOp::kHardswish:
                for (int64_t i = 0; i < n; ++i) {
                    z[i] = x[i] * std::min(C{6}, std::max(C{0}, x[i] + C{3})) / C{6};
                }
                return;
            case UnaryOp::kLeakyRelu:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = x[i] > 0 ? x[i] : x[i] * p0;
                return;
            case UnaryOp::kAtan:
                for (int64_t i = 0; i < n; ++i)
                    z[i] = std::atan(x[i]);
                return;
            case UnaryOp::kElu: {
                const C p2 = static_cast<C>(args.p2);
                for (int64_t i = 0; i < n; ++i) {
                    z[i] = x[i] > 0 ? p1 * x[i] : p1 * p0 * std::expm1(p2 * x[i]);
                }
                return;
            }
            case UnaryOp::kSoftplus:
                for (int64_t i = 0; i < n; ++i) {
                    const C scaled = x[i] * p0;
                    z[i] = scaled > p1 ? x[i] : std::log1p(std::exp(scaled)) / p0;
                }
                return;
            default:
                break;
        }
    }
    for (int64_t i = 0; i < n; ++i)
        z[i] = x[i];  // callers pick a floating compute type
}

// In place, one pointer (see ApplyBinary).
template <typename C>
[[gnu::always_inline]] inline void UnaryBody(const UnaryArgs& args, const C* x, C* z, int64_t n) {
    if (x == z) return UnaryLoops<C>(args, z, z, n);
    UnaryLoops<C>(args, x, z, n);
}

OPENACL_OPS_DISPATCH(ApplyUnary, UnaryBody, (const UnaryArgs& args, const C* x, C* z, int64_t n),
                     (args, x, z, n))

template <typename C>
void UnaryRows(const UnaryArgs& args, int64_t begin, int64_t end) {
    const Operand* const operands[2] = {&args.in, &args.out};
    const Plan<2> plan = MakePlan<2>(args.shape, operands);
    constexpr aclDataType native = NativeDtype<C>();
    constexpr auto size = static_cast<int64_t>(sizeof(C));
    const bool native_types = args.in.dtype == native && args.out.dtype == native;
    Walk<2>(plan, begin, end, [&](char* const* p, const int64_t* s, int64_t n) {
        if (native_types && s[0] == size && s[1] == size) {
            ApplyUnary<C>(args, reinterpret_cast<const C*>(p[0]), reinterpret_cast<C*>(p[1]), n);
            return;
        }
        C x[kChunk], z[kChunk];
        for (int64_t i = 0; i < n; i += kChunk) {
            const int64_t m = std::min(kChunk, n - i);
            Load<C>(p[0] + i * s[0], s[0], args.in.dtype, m, x);
            ApplyUnary<C>(args, x, z, m);
            Store<C>(z, m, p[1] + i * s[1], s[1], args.out.dtype);
        }
    });
}

// ---- ternary ----

template <typename C>
[[gnu::always_inline]] inline void TernaryLoops(const TernaryArgs& args, const C* x, const C* y,
                                                const C* w, C* z, int64_t n) {
    switch (args.op) {
        case TernaryOp::kWhere:
            for (int64_t i = 0; i < n; ++i)
                z[i] = x[i] != 0 ? y[i] : w[i];
            return;
        case TernaryOp::kClamp:
            for (int64_t i = 0; i < n; ++i)
                z[i] = Clamp(x[i], y[i], w[i]);
            return;
        case TernaryOp::kAddcdiv: {
            const C value = Param<C>(args.p0, args.p0_int);
            if constexpr (std::is_floating_point_v<C>) {
                for (int64_t i = 0; i < n; ++i)
                    z[i] = x[i] + value * (y[i] / w[i]);
            } else {  // integer quotients truncate (x / 0 gives 0)
                for (int64_t i = 0; i < n; ++i) {
                    z[i] = Add(x[i], Mul(value, TruncDivide(y[i], w[i])));
                }
            }
            return;
        }
    }
}

OPENACL_OPS_DISPATCH(ApplyTernary, TernaryLoops,
                     (const TernaryArgs& args, const C* x, const C* y, const C* w, C* z, int64_t n),
                     (args, x, y, w, z, n))

template <typename C>
void TernaryRows(const TernaryArgs& args, int64_t begin, int64_t end) {
    const Operand* const operands[4] = {&args.a, &args.b, &args.c, &args.out};
    const Plan<4> plan = MakePlan<4>(args.shape, operands);
    constexpr aclDataType native = NativeDtype<C>();
    constexpr auto size = static_cast<int64_t>(sizeof(C));
    const bool native_types = args.a.dtype == native && args.b.dtype == native &&
                              args.c.dtype == native && args.out.dtype == native;
    Walk<4>(plan, begin, end, [&](char* const* p, const int64_t* s, int64_t n) {
        if (native_types && s[0] == size && s[1] == size && s[2] == size && s[3] == size) {
            ApplyTernary<C>(args, reinterpret_cast<const C*>(p[0]),
                            reinterpret_cast<const C*>(p[1]), reinterpret_cast<const C*>(p[2]),
                            reinterpret_cast<C*>(p[3]), n);
            return;
        }
        C x[kChunk], y[kChunk], w[kChunk], z[kChunk];
        for (int64_t i = 0; i < n; i += kChunk) {
            const int64_t m = std::min(kChunk, n - i);
            Load<C>(p[0] + i * s[0], s[0], args.a.dtype, m, x);
            Load<C>(p[1] + i * s[1], s[1], args.b.dtype, m, y);
            Load<C>(p[2] + i * s[2], s[2], args.c.dtype, m, w);
            ApplyTernary<C>(args, x, y, w, z, m);
            Store<C>(z, m, p[3] + i * s[3], s[3], args.out.dtype);
        }
    });
}

// ---- copies and fills ----

// T: an unsigned integer as wide as the element.
template <typename T>
void CopyRows(const CopyArgs& args, int64_t begin, int64_t end) {
    const Operand* const operands[2] = {&args.in, &args.out};
    const Plan<2> plan = MakePlan<2>(args.shape, operands);
    constexpr auto size = static_cast<int64_t>(sizeof(T));
    Walk<2>(plan, begin, end, [&](char* const* p, const int64_t* s, int64_t n) {
        if (s[0] == size && s[1] == size) {
            std::memmove(p[1], p[0], static_cast<size_t>(n * size));  // identical views alias
            return;
        }
        for (int64_t i = 0; i < n; ++i)
            StoreRaw<T>(p[1] + i * s[1], LoadRaw<T>(p[0] + i * s[0]));
    });
}

template <typename C>
void FillRows(const FillArgs& args, C value, int64_t begin, int64_t end) {
    const Operand* const operands[1] = {&args.out};
    const Plan<1> plan = MakePlan<1>(args.shape, operands);
    C buffer[kChunk];
    std::fill(buffer, buffer + kChunk, value);
    Walk<1>(plan, begin, end, [&](char* const* p, const int64_t* s, int64_t n) {
        for (int64_t i = 0; i < n; i += kChunk) {
            Store<C>(buffer, std::min(kChunk, n - i), p[0] + i * s[0], s[0], args.out.dtype);
        }
    });
}

}  // namespace

void RunBinary(const BinaryArgs& args) {
    Split(args.shape.Numel(), [&](int64_t begin, int64_t end) {
        switch (args.compute) {
            case ACL_DOUBLE:
                return BinaryRows<double>(args, begin, end);
            case ACL_INT32:
                return BinaryRows<int32_t>(args, begin, end);
            case ACL_INT64:
                return BinaryRows<int64_t>(args, begin, end);
            default:
                return BinaryRows<float>(args, begin, end);
        }
    });
}

void RunUnary(const UnaryArgs& args) {
    Split(args.shape.Numel(), [&](int64_t begin, int64_t end) {
        switch (args.compute) {
            case ACL_DOUBLE:
                return UnaryRows<double>(args, begin, end);
            case ACL_INT32:
                return UnaryRows<int32_t>(args, begin, end);
            case ACL_INT64:
                return UnaryRows<int64_t>(args, begin, end);
            default:
                return UnaryRows<float>(args, begin, end);
        }
    });
}

void RunTernary(const TernaryArgs& args) {
    Split(args.shape.Numel(), [&](int64_t begin, int64_t end) {
        switch (args.compute) {
            case ACL_DOUBLE:
                return TernaryRows<double>(args, begin, end);
            case ACL_INT32:
                return TernaryRows<int32_t>(args, begin, end);
            case ACL_INT64:
                return TernaryRows<int64_t>(args, begin, end);
            default:
                return TernaryRows<float>(args, begin, end);
        }
    });
}

void RunCopy(const CopyArgs& args) {
    Split(args.shape.Numel(), [&](int64_t begin, int64_t end) {
        switch (DtypeSize(args.out.dtype)) {
            case 1:
                return CopyRows<uint8_t>(args, begin, end);
            case 2:
                return CopyRows<uint16_t>(args, begin, end);
            case 4:
                return CopyRows<uint32_t>(args, begin, end);
            default:
                return CopyRows<uint64_t>(args, begin, end);
        }
    });
}

void RunFill(const FillArgs& args) {
    Split(args.shape.Numel(), [&](int64_t begin, int64_t end) {
        if (IsFloating(args.out.dtype)) {
            FillRows<double>(args, args.value, begin, end);
        } else {
            FillRows<int64_t>(args, args.value_int, begin, end);
        }
    });
}

}  // namespace openacl::ops
