// Element-wise binary vector instructions: Add, Sub, Mul, Div, Max, Min, And, Or.
// half and bfloat16_t compute in float and round once; integers wrap.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_BINARY_H_
#define OPENACL_ASCENDC_KERNEL_VEC_BINARY_H_

#include <cstdint>
#include <type_traits>

#include "kernel_vec_common.h"
#include "kernel_vec_library.h"

namespace openacl::ascendc {

template <typename T, typename Op>
__aicore__ inline void BinaryCount(const char* api, const AscendC::LocalTensor<T>& dst,
                                   const AscendC::LocalTensor<T>& src0,
                                   const AscendC::LocalTensor<T>& src1, int64_t count, Op op,
                                   VecOp code) {
    uint32_t n = CheckedCount(api, count);
    CheckOperand(api, "dst", dst, uint64_t(n) * sizeof(T), kVectorWrite);
    CheckOperand(api, "src0", src0, uint64_t(n) * sizeof(T));
    CheckOperand(api, "src1", src1, uint64_t(n) * sizeof(T));
    T* d = dst.Data();
    const T* a = src0.Data();
    const T* b = src1.Data();
    if (VectorLibrary(code, d, a, b, nullptr, n)) return;
    for (uint32_t i = 0; i < n; ++i) {
        d[i] = static_cast<T>(
            op(static_cast<ComputeType<T>>(a[i]), static_cast<ComputeType<T>>(b[i])));
    }
}

template <typename T, bool isSetMask, typename Op>
__aicore__ inline void BinaryRepeat(const char* api, const AscendC::LocalTensor<T>& dst,
                                    const AscendC::LocalTensor<T>& src0,
                                    const AscendC::LocalTensor<T>& src1, const uint64_t* bits,
                                    uint64_t count, uint32_t repeatTime,
                                    const AscendC::BinaryRepeatParams& p, Op op) {
    RepeatPlan plan = MakePlan<T, isSetMask>(api, bits, count, repeatTime);
    StridedOperand<T> d(api, "dst", dst, p.dstBlkStride, p.dstRepStride);
    StridedOperand<T> a(api, "src0", src0, p.src0BlkStride, p.src0RepStride);
    StridedOperand<T> b(api, "src1", src1, p.src1BlkStride, p.src1RepStride);
    ForEachActiveLane<T>(plan, [&](uint32_t r, uint32_t blk, uint32_t e) {
        d(r, blk, e) = static_cast<T>(op(static_cast<ComputeType<T>>(a(r, blk, e)),
                                         static_cast<ComputeType<T>>(b(r, blk, e))));
    });
}

}  // namespace openacl::ascendc

// Both call forms of one binary instruction; `requirement` restricts the element types.
#define OPENACL_VEC_BINARY(Name, requirement, expression)                                         \
    template <typename T>                                                                         \
    requires(requirement) __aicore__ inline void Name(                                            \
        const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
        const int32_t& count) {                                                                   \
        openacl::ascendc::BinaryCount(                                                            \
            #Name, dst, src0, src1, count, [](auto a, auto b) { return expression; },             \
            openacl::ascendc::VecOp::k##Name);                                                    \
    }                                                                                             \
    template <typename T, bool isSetMask = true>                                                  \
    requires(requirement) __aicore__ inline void Name(                                            \
        const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
        uint64_t mask, uint32_t repeatTime, const BinaryRepeatParams& params) {                   \
        openacl::ascendc::BinaryRepeat<T, isSetMask>(#Name, dst, src0, src1, nullptr, mask,       \
                                                     repeatTime, params,                          \
                                                     [](auto a, auto b) { return expression; });  \
    }                                                                                             \
    template <typename T, bool isSetMask = true>                                                  \
    requires(requirement) __aicore__ inline void Name(                                            \
        const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
        const uint64_t mask[], uint32_t repeatTime, const BinaryRepeatParams& params) {           \
        openacl::ascendc::BinaryRepeat<T, isSetMask>(#Name, dst, src0, src1, mask, 0, repeatTime, \
                                                     params,                                      \
                                                     [](auto a, auto b) { return expression; });  \
    }

namespace AscendC {

OPENACL_VEC_BINARY(Add, true, a + b)
OPENACL_VEC_BINARY(Sub, true, a - b)
OPENACL_VEC_BINARY(Mul, true, a* b)
OPENACL_VEC_BINARY(Div, openacl::ascendc::kIsFloatLike<T>, a / b)
OPENACL_VEC_BINARY(Max, true, a > b ? a : b)
OPENACL_VEC_BINARY(Min, true, a < b ? a : b)
OPENACL_VEC_BINARY(And, std::is_integral_v<T>, a& b)
OPENACL_VEC_BINARY(Or, std::is_integral_v<T>, a | b)

}  // namespace AscendC

#undef OPENACL_VEC_BINARY

#endif  // OPENACL_ASCENDC_KERNEL_VEC_BINARY_H_
