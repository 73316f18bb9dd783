// Multiply-accumulate instructions that also read dst, count form: Axpy (dst += src * scalar),
// MulAddDst (dst += src0 * src1) and FusedMulAdd (dst = src0 * dst + src1). dst may be wider
// than the sources (half sources into a float dst); the arithmetic is in float for half and
// bfloat16_t, rounded once.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_TERNARY_H_
#define OPENACL_ASCENDC_KERNEL_VEC_TERNARY_H_

#include <cstdint>
#include <type_traits>

#include "kernel_vec_common.h"

namespace openacl::ascendc {

template <typename T, typename U, typename Op>
__aicore__ inline void TernaryCount(const char* api, const AscendC::LocalTensor<T>& dst,
                                    const AscendC::LocalTensor<U>& src0,
                                    const AscendC::LocalTensor<U>* src1, int64_t count, Op op) {
    uint32_t n = CheckedCount(api, count);
    CheckOperand(api, "dst", dst, uint64_t(n) * sizeof(T), kVectorWrite);
    CheckOperand(api, src1 != nullptr ? "src0" : "src", src0, uint64_t(n) * sizeof(U));
    if (src1 != nullptr) CheckOperand(api, "src1", *src1, uint64_t(n) * sizeof(U));
    using C = std::common_type_t<ComputeType<T>, ComputeType<U>>;
    T* d = dst.Data();
    const U* a = src0.Data();
    const U* b = src1 != nullptr ? src1->Data() : nullptr;
    for (uint32_t i = 0; i < n; ++i) {
        C second = b != nullptr ? static_cast<C>(static_cast<ComputeType<U>>(b[i])) : C{};
        d[i] = static_cast<T>(op(static_cast<C>(static_cast<ComputeType<T>>(d[i])),
                                 static_cast<C>(static_cast<ComputeType<U>>(a[i])), second));
    }
}

}  // namespace openacl::ascendc

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                            const std::type_identity_t<U> scalarValue, const int32_t& count) {
    auto s = static_cast<openacl::ascendc::ComputeType<U>>(scalarValue);
    openacl::ascendc::TernaryCount<T, U>("Axpy", dst, src, nullptr, count,
                                         [s](auto d, auto a, auto) { return d + a * s; });
}

template <typename T, typename U>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                                 const LocalTensor<U>& src1, const int32_t& count) {
    openacl::ascendc::TernaryCount<T, U>("MulAddDst", dst, src0, &src1, count,
                                         [](auto d, auto a, auto b) { return a * b + d; });
}

template <typename T>
__aicore__ inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                   const LocalTensor<T>& src1, const int32_t& count) {
    openacl::ascendc::TernaryCount<T, T>("FusedMulAdd", dst, src0, &src1, count,
                                         [](auto d, auto a, auto b) { return a * d + b; });
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_TERNARY_H_
