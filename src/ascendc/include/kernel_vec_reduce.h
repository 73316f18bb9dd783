// ReduceSum / ReduceMax / ReduceMin, count form: dst[0] = the reduction of src[0, count). With
// calIndex, Max and Min also write the first index of the result to dst[1] (its bits as an
// unsigned integer of the element's size). The work tensor is the NPU's scratch space; it must
// be a local tensor (for ReduceSum at least CANN's documented size) but its contents are not
// used here.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_REDUCE_H_
#define OPENACL_ASCENDC_KERNEL_VEC_REDUCE_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_vec_common.h"

namespace openacl::ascendc {

// The least work space ReduceSum's count form needs, in elements, by CANN's rule: one partial
// sum per full 256-byte repeat of src (at least one), rounded up to whole 32-byte blocks.
template <typename T>
__aicore__ inline uint64_t ReduceSumWorkElements(uint32_t count) {
    const uint64_t repeats = std::max<uint64_t>(1, count / kRepeatLanes<T>);
    return (repeats + kBlockElements<T> - 1) / kBlockElements<T> * kBlockElements<T>;
}

// `workElements`: what the work tensor must hold (0: not checked).
template <typename T>
__aicore__ inline void CheckReduce(const char* api, const AscendC::LocalTensor<T>& dst,
                                   const AscendC::LocalTensor<T>& src,
                                   const AscendC::LocalTensor<T>& work, int64_t count,
                                   uint32_t dstElements, uint64_t workElements = 0) {
    uint32_t n = CheckedCount(api, count);
    if (n == 0) Trap(api, "count is 0: there is nothing to reduce");
    CheckOperand(api, "dst", dst, uint64_t(dstElements) * sizeof(T), kVectorWrite);
    CheckOperand(api, "src", src, uint64_t(n) * sizeof(T));
    if (work.IsBound() && workElements * sizeof(T) > work.BytesToBufferEnd()) {
        Trap(api, "the work tensor has room for " +
                      std::to_string(work.BytesToBufferEnd() / sizeof(T)) + " elements but " +
                      std::to_string(n) + " need " + std::to_string(workElements) +
                      " (one partial result per " + std::to_string(kRepeatLanes<T>) +
                      "-element repeat, rounded up to 32 bytes): on the NPU the instruction "
                      "writes past it; give the work tensor at least that many elements");
    }
    CheckOperand(api, "the work tensor", work, workElements * sizeof(T), kVectorWrite);
}

template <typename T>
__aicore__ inline void StoreIndex(T* dst, uint32_t index) {
    using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    Bits bits = static_cast<Bits>(index);
    std::memcpy(dst, &bits, sizeof(T));
}

template <typename T, typename Better>
__aicore__ inline void ReduceExtreme(const char* api, const AscendC::LocalTensor<T>& dst,
                                     const AscendC::LocalTensor<T>& src,
                                     const AscendC::LocalTensor<T>& work, int32_t count,
                                     bool calIndex, Better better) {
    CheckReduce(api, dst, src, work, count, calIndex ? 2 : 1);
    const T* s = src.Data();
    uint32_t best = 0;
    for (uint32_t i = 1; i < static_cast<uint32_t>(count); ++i) {
        if (better(static_cast<ComputeType<T>>(s[i]), static_cast<ComputeType<T>>(s[best]))) {
            best = i;
        }
    }
    T value = s[best];
    dst.Data()[0] = value;
    if (calIndex) StoreIndex(dst.Data() + 1, best);
}

}  // namespace openacl::ascendc

namespace AscendC {

// Sums in double and rounds once to T.
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& work, const int32_t count) {
    openacl::ascendc::CheckReduce(
        "ReduceSum", dst, src, work, count, 1,
        openacl::ascendc::ReduceSumWorkElements<T>(static_cast<uint32_t>(count)));
    const T* s = src.Data();
    double sum = 0;
    for (int32_t i = 0; i < count; ++i) {
        sum += static_cast<double>(static_cast<openacl::ascendc::ComputeType<T>>(s[i]));
    }
    dst.Data()[0] = static_cast<T>(sum);
}

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& work, const int32_t count,
                                 bool calIndex = false) {
    openacl::ascendc::ReduceExtreme("ReduceMax", dst, src, work, count, calIndex,
                                    [](auto a, auto b) { return a > b; });
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& work, const int32_t count,
                                 bool calIndex = false) {
    openacl::ascendc::ReduceExtreme("ReduceMin", dst, src, work, count, calIndex,
                                    [](auto a, auto b) { return a < b; });
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_REDUCE_H_
