// Vector-scalar instructions: Adds, Muls, Maxs, Mins, LeakyRelu; and Duplicate (fill).
// The scalar converts to the element type, as CANN's overloads taking another scalar type do.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_SCALAR_H_
#define OPENACL_ASCENDC_KERNEL_VEC_SCALAR_H_

#include <cstdint>
#include <type_traits>

#include "kernel_vec_unary.h"

#define OPENACL_VEC_SCALAR(Name, expression)                                                       \
    template <typename T, bool isSetMask = true>                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,              \
                                const std::type_identity_t<T>& scalarValue,                        \
                                const int32_t& count) {                                            \
        auto s = static_cast<openacl::ascendc::ComputeType<T>>(scalarValue);                       \
        openacl::ascendc::UnaryCount(                                                              \
            #Name, dst, src, count, [s](auto x) { return expression; },                            \
            openacl::ascendc::VecOp::k##Name, &s);                                                 \
    }                                                                                              \
    template <typename T, bool isSetMask = true>                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,              \
                                const std::type_identity_t<T>& scalarValue, uint64_t mask,         \
                                uint32_t repeatTime, const UnaryRepeatParams& params) {            \
        auto s = static_cast<openacl::ascendc::ComputeType<T>>(scalarValue);                       \
        openacl::ascendc::UnaryRepeat<T, isSetMask>(#Name, dst, src, nullptr, mask, repeatTime,    \
                                                    params, [s](auto x) { return expression; });   \
    }                                                                                              \
    template <typename T, bool isSetMask = true>                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,              \
                                const std::type_identity_t<T>& scalarValue, const uint64_t mask[], \
                                uint32_t repeatTime, const UnaryRepeatParams& params) {            \
        auto s = static_cast<openacl::ascendc::ComputeType<T>>(scalarValue);                       \
        openacl::ascendc::UnaryRepeat<T, isSetMask>(#Name, dst, src, mask, 0, repeatTime, params,  \
                                                    [s](auto x) { return expression; });           \
    }

namespace AscendC {

OPENACL_VEC_SCALAR(Adds, x + s)
OPENACL_VEC_SCALAR(Muls, x* s)
OPENACL_VEC_SCALAR(Maxs, x > s ? x : s)
OPENACL_VEC_SCALAR(Mins, x < s ? x : s)
OPENACL_VEC_SCALAR(LeakyRelu, x > 0 ? x : x * s)

// dst[i] = scalarValue for the first `count` elements.
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst,
                                 const std::type_identity_t<T>& scalarValue, const int32_t& count) {
    uint32_t n = openacl::ascendc::CheckedCount("Duplicate", count);
    openacl::ascendc::CheckOperand("Duplicate", "dst", dst, uint64_t(n) * sizeof(T),
                                   openacl::ascendc::kVectorWrite);
    T value = scalarValue;
    T* d = dst.Data();
    for (uint32_t i = 0; i < n; ++i)
        d[i] = value;
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst,
                                 const std::type_identity_t<T>& scalarValue, uint64_t mask,
                                 uint32_t repeatTime, uint32_t dstBlockStride,
                                 uint32_t dstRepeatStride) {
    auto plan = openacl::ascendc::MakePlan<T, isSetMask>("Duplicate", nullptr, mask, repeatTime);
    openacl::ascendc::StridedOperand<T> d("Duplicate", "dst", dst, dstBlockStride, dstRepeatStride);
    T value = scalarValue;
    openacl::ascendc::ForEachActiveLane<T>(
        plan, [&](uint32_t r, uint32_t b, uint32_t e) { d(r, b, e) = value; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst,
                                 const std::type_identity_t<T>& scalarValue, const uint64_t mask[],
                                 uint32_t repeatTime, uint32_t dstBlockStride,
                                 uint32_t dstRepeatStride) {
    auto plan = openacl::ascendc::MakePlan<T, isSetMask>("Duplicate", mask, 0, repeatTime);
    openacl::ascendc::StridedOperand<T> d("Duplicate", "dst", dst, dstBlockStride, dstRepeatStride);
    T value = scalarValue;
    openacl::ascendc::ForEachActiveLane<T>(
        plan, [&](uint32_t r, uint32_t b, uint32_t e) { d(r, b, e) = value; });
}

}  // namespace AscendC

#undef OPENACL_VEC_SCALAR

#endif  // OPENACL_ASCENDC_KERNEL_VEC_SCALAR_H_
