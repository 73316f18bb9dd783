// Rearranging elements: Brcb (each of 8 source elements fills one 32-byte block of dst per
// repeat), Transpose (a 16 x 16 matrix of 16-bit elements), and sequences: CreateVecIndex
// (dst[i] = first + i) and ArithProgression (dst[i] = first + i * diff).
#ifndef OPENACL_ASCENDC_KERNEL_VEC_REARRANGE_H_
#define OPENACL_ASCENDC_KERNEL_VEC_REARRANGE_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_vec_common.h"

namespace AscendC {

struct BrcbRepeatParams {
    __aicore__ BrcbRepeatParams() = default;
    __aicore__ BrcbRepeatParams(uint16_t dstBlk, uint16_t dstRep)
        : dstBlkStride(dstBlk), dstRepStride(dstRep) {}
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
};

// Repeat r broadcasts src0[8r + k] over dst block k (r * dstRepStride + k * dstBlkStride).
template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                            const uint32_t repeatTime, const BrcbRepeatParams& repeatParams) {
    namespace oa = openacl::ascendc;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: 16- or 32-bit elements only");
    if (repeatTime > MAX_REPEAT_TIMES) {
        oa::Trap("Brcb",
                 "repeatTime " + std::to_string(repeatTime) + " exceeds 255: split the call");
    }
    oa::CheckOperand("Brcb", "src0", src0, uint64_t(repeatTime) * DEFAULT_BLK_NUM * sizeof(T));
    oa::StridedOperand<T> d("Brcb", "dst", dst, repeatParams.dstBlkStride,
                            repeatParams.dstRepStride);
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t b = 0; b < DEFAULT_BLK_NUM; ++b) {
            T value = src0.Data()[r * DEFAULT_BLK_NUM + b];
            for (uint32_t e = 0; e < oa::kBlockElements<T>; ++e)
                d(r, b, e) = value;
        }
    }
}

// dst = the transpose of the 16 x 16 matrix src (row-major, 16-bit elements).
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
    static_assert(sizeof(T) == 2, "Transpose: the 16 x 16 form takes 16-bit elements");
    namespace oa = openacl::ascendc;
    oa::CheckOperand("Transpose", "dst", dst, 256 * sizeof(T), oa::kVectorWrite);
    oa::CheckOperand("Transpose", "src", src, 256 * sizeof(T));
    T copy[256];
    for (uint32_t i = 0; i < 256; ++i)
        copy[i] = src.Data()[i];
    for (uint32_t row = 0; row < 16; ++row) {
        for (uint32_t col = 0; col < 16; ++col)
            dst.Data()[col * 16 + row] = copy[row * 16 + col];
    }
}

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dst,
                                        const std::type_identity_t<T> firstValue,
                                        const std::type_identity_t<T> diffValue,
                                        const int32_t count) {
    namespace oa = openacl::ascendc;
    uint32_t n = oa::CheckedCount("ArithProgression", count);
    oa::CheckOperand("ArithProgression", "dst", dst, uint64_t(n) * sizeof(T), oa::kVectorWrite);
    auto first = static_cast<oa::ComputeType<T>>(firstValue);
    auto diff = static_cast<oa::ComputeType<T>>(diffValue);
    for (uint32_t i = 0; i < n; ++i)
        dst.Data()[i] = static_cast<T>(first + static_cast<oa::ComputeType<T>>(i) * diff);
}

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst,
                                      const std::type_identity_t<T> firstValue, uint32_t calCount) {
    namespace oa = openacl::ascendc;
    oa::CheckOperand("CreateVecIndex", "dst", dst, uint64_t(calCount) * sizeof(T),
                     oa::kVectorWrite);
    auto first = static_cast<oa::ComputeType<T>>(firstValue);
    for (uint32_t i = 0; i < calCount; ++i)
        dst.Data()[i] = static_cast<T>(first + static_cast<oa::ComputeType<T>>(i));
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_REARRANGE_H_
