// Cast in the mask/repeat form. A repeat covers 256 bytes of the wider of the two types (64
// lanes for half <-> float); each operand's blocks hold 32 bytes of its own type, placed by its
// own block and repeat strides. Lanes the mask leaves out are not written.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_CAST_REPEAT_H_
#define OPENACL_ASCENDC_KERNEL_VEC_CAST_REPEAT_H_

#include <cstdint>
#include <type_traits>

#include "kernel_vec_cast.h"
#include "kernel_vec_common.h"

namespace openacl::ascendc {

template <typename T, typename U, bool isSetMask>
__aicore__ inline void CastRepeat(const AscendC::LocalTensor<T>& dst,
                                  const AscendC::LocalTensor<U>& src, AscendC::RoundMode mode,
                                  const uint64_t* bits, uint64_t mask, uint32_t repeatTime,
                                  const AscendC::UnaryRepeatParams& p) {
    using Wide = std::conditional_t<(sizeof(T) >= sizeof(U)), T, U>;
    constexpr uint32_t lanes = kRepeatLanes<Wide>;
    RepeatPlan plan = MakePlan<Wide, isSetMask>("Cast", bits, mask, repeatTime);
    StridedOperand<T> d("Cast", "dst", dst, p.dstBlkStride, p.dstRepStride);
    StridedOperand<U> s("Cast", "src", src, p.srcBlkStride, p.srcRepStride);
    for (uint32_t r = 0; r < plan.repeats; ++r) {
        for (uint32_t lane = 0; lane < lanes; ++lane) {
            if (!plan.Active(r, lane, lanes)) continue;
            U value = s(r, lane / kBlockElements<U>, lane % kBlockElements<U>);
            d(r, lane / kBlockElements<T>, lane % kBlockElements<T>) =
                ConvertElement<T, U>(value, mode);
        }
    }
}

}  // namespace openacl::ascendc

namespace AscendC {

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                            const RoundMode& roundMode, const uint64_t mask[],
                            const uint32_t repeatTime, const UnaryRepeatParams& repeatParams) {
    openacl::ascendc::CastRepeat<T, U, isSetMask>(dst, src, roundMode, mask, 0, repeatTime,
                                                  repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                            const RoundMode& roundMode, const uint64_t mask,
                            const uint32_t repeatTime, const UnaryRepeatParams& repeatParams) {
    openacl::ascendc::CastRepeat<T, U, isSetMask>(dst, src, roundMode, nullptr, mask, repeatTime,
                                                  repeatParams);
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_CAST_REPEAT_H_
