// Element-wise unary vector instructions: Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal, Relu, Not.
// The transcendental ones are approximations on the NPU; here they are the C library's, computed
// in float for half and bfloat16_t.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_UNARY_H_
#define OPENACL_ASCENDC_KERNEL_VEC_UNARY_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_vec_common.h"
#include "kernel_vec_library.h"

namespace openacl::ascendc {

template <typename T, typename Op>
__aicore__ inline void UnaryCount(const char* api, const AscendC::LocalTensor<T>& dst,
                                  const AscendC::LocalTensor<T>& src, int64_t count, Op op,
                                  VecOp code = VecOp::kNone, const void* scalar = nullptr) {
    uint32_t n = CheckedCount(api, count);
    CheckOperand(api, "dst", dst, uint64_t(n) * sizeof(T), kVectorWrite);
    CheckOperand(api, "src", src, uint64_t(n) * sizeof(T));
    T* d = dst.Data();
    const T* s = src.Data();
    if (VectorLibrary(code, d, s, static_cast<const T*>(nullptr), scalar, n)) return;
    for (uint32_t i = 0; i < n; ++i)
        d[i] = static_cast<T>(op(static_cast<ComputeType<T>>(s[i])));
}

template <typename T, bool isSetMask, typename Op>
__aicore__ inline void UnaryRepeat(const char* api, const AscendC::LocalTensor<T>& dst,
                                   const AscendC::LocalTensor<T>& src, const uint64_t* bits,
                                   uint64_t count, uint32_t repeatTime,
                                   const AscendC::UnaryRepeatParams& p, Op op) {
    RepeatPlan plan = MakePlan<T, isSetMask>(api, bits, count, repeatTime);
    StridedOperand<T> d(api, "dst", dst, p.dstBlkStride, p.dstRepStride);
    StridedOperand<T> s(api, "src", src, p.srcBlkStride, p.srcRepStride);
    ForEachActiveLane<T>(plan, [&](uint32_t r, uint32_t b, uint32_t e) {
        d(r, b, e) = static_cast<T>(op(static_cast<ComputeType<T>>(s(r, b, e))));
    });
}

}  // namespace openacl::ascendc

#define OPENACL_VEC_UNARY(Name, requirement, expression)                                          \
    template <typename T>                                                                         \
    requires(requirement) __aicore__ inline void Name(                                            \
        const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {             \
        openacl::ascendc::UnaryCount(                                                             \
            #Name, dst, src, count, [](auto x) { return expression; },                            \
            openacl::ascendc::VecOp::k##Name);                                                    \
    }                                                                                             \
    template <typename T, bool isSetMask = true>                                                  \
    requires(requirement) __aicore__ inline void Name(                                            \
        const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint32_t repeatTime, \
        const UnaryRepeatParams& params) {                                                        \
        openacl::ascendc::UnaryRepeat<T, isSetMask>(#Name, dst, src, nullptr, mask, repeatTime,   \
                                                    params, [](auto x) { return expression; });   \
    }                                                                                             \
    template <typename T, bool isSetMask = true>                                                  \
    requires(requirement) __aicore__ inline void Name(                                            \
        const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],              \
        uint32_t repeatTime, const UnaryRepeatParams& params) {                                   \
        openacl::ascendc::UnaryRepeat<T, isSetMask>(#Name, dst, src, mask, 0, repeatTime, params, \
                                                    [](auto x) { return expression; });           \
    }

namespace AscendC {

OPENACL_VEC_UNARY(Exp, openacl::ascendc::kIsFloatLike<T>, std::exp(x))
OPENACL_VEC_UNARY(Ln, openacl::ascendc::kIsFloatLike<T>, std::log(x))
OPENACL_VEC_UNARY(Abs, true, x < 0 ? -x : x)
OPENACL_VEC_UNARY(Sqrt, openacl::ascendc::kIsFloatLike<T>, std::sqrt(x))
OPENACL_VEC_UNARY(Rsqrt, openacl::ascendc::kIsFloatLike<T>, 1 / std::sqrt(x))
OPENACL_VEC_UNARY(Reciprocal, openacl::ascendc::kIsFloatLike<T>, 1 / x)
OPENACL_VEC_UNARY(Relu, true, x > 0 ? x : decltype(x)(0))
OPENACL_VEC_UNARY(Not, std::is_integral_v<T>, ~x)

}  // namespace AscendC

#undef OPENACL_VEC_UNARY

#endif  // OPENACL_ASCENDC_KERNEL_VEC_UNARY_H_
