// Select: dst[i] = src0[i] where bit i of selMask is 1, otherwise src1[i] (or the scalar src1).
//
// SELMODE::VSEL_CMPMASK_SPR (mode 0) uses only the first repeat's worth of bits (128 for 16-bit
// elements, 64 for 32-bit) and reuses them for every repeat. VSEL_TENSOR_SCALAR_MODE (1) and
// VSEL_TENSOR_TENSOR_MODE (2) read the bits on: repeat r uses bits r * lanes onward. In the
// mask/repeat form, lanes the mask leaves out keep dst's old value. The register forms take
// the selection from the CmpMask register (Compare's register form or SetCmpMask).
#ifndef OPENACL_ASCENDC_KERNEL_VEC_SELECT_H_
#define OPENACL_ASCENDC_KERNEL_VEC_SELECT_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_vec_common.h"
#include "kernel_vec_compare.h"

namespace AscendC {

enum class SELMODE : uint8_t {
    VSEL_CMPMASK_SPR = 0,
    VSEL_TENSOR_SCALAR_MODE,
    VSEL_TENSOR_TENSOR_MODE,
};

}  // namespace AscendC

namespace openacl::ascendc {

template <typename T>
constexpr bool kSelectable = sizeof(T) == 2 || sizeof(T) == 4;

// Bit of the selection for lane `lane` of repeat `repeat`.
struct SelectBits {
    const uint8_t* bits;
    uint64_t available;  // bits readable
    bool reuse;          // mode 0: every repeat uses the first repeat's bits
    uint32_t lanes;
    const char* api;

    __aicore__ bool operator()(uint32_t repeat, uint32_t lane) const {
        uint64_t index = reuse ? lane : uint64_t(repeat) * lanes + lane;
        if (index >= available) {
            Trap(api, "selMask bit " + std::to_string(index) + " is past its buffer (" +
                          std::to_string(available / 8) + " bytes): make selMask cover every " +
                          "element, one bit each");
        }
        return GetBit(bits, index);
    }
};

__aicore__ inline void CheckSelMode(const char* api, AscendC::SELMODE mode, bool scalar) {
    auto value = static_cast<uint32_t>(mode);
    if (value > 2) {
        Trap(api, "selMode " + std::to_string(value) +
                      " is not a SELMODE (VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, "
                      "VSEL_TENSOR_TENSOR_MODE)");
    }
    if (scalar != (mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)) {
        Trap(api, scalar ? "a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE"
                         : "SELMODE::VSEL_TENSOR_SCALAR_MODE needs a scalar src1");
    }
}

template <typename T, typename U>
__aicore__ inline SelectBits SelectionFrom(const char* api, const AscendC::LocalTensor<U>& selMask,
                                           AscendC::SELMODE mode) {
    CheckOperand(api, "selMask", selMask, 0);
    return SelectBits{reinterpret_cast<const uint8_t*>(selMask.Data()),
                      selMask.BytesToBufferEnd() * 8, mode == AscendC::SELMODE::VSEL_CMPMASK_SPR,
                      kRepeatLanes<T>, api};
}

// Count form: the first `count` elements, lanes numbered across repeats.
template <typename T, typename Other>
__aicore__ inline void SelectCount(const char* api, const AscendC::LocalTensor<T>& dst,
                                   const SelectBits& select, const AscendC::LocalTensor<T>& src0,
                                   uint32_t count, Other other) {
    CheckOperand(api, "dst", dst, uint64_t(count) * sizeof(T), kVectorWrite);
    CheckOperand(api, "src0", src0, uint64_t(count) * sizeof(T));
    constexpr uint32_t lanes = kRepeatLanes<T>;
    T* d = dst.Data();
    const T* a = src0.Data();
    for (uint32_t i = 0; i < count; ++i)
        d[i] = select(i / lanes, i % lanes) ? a[i] : other(i);
}

template <typename T, bool isSetMask, typename Other>
__aicore__ inline void SelectRepeat(const char* api, const AscendC::LocalTensor<T>& dst,
                                    const SelectBits& select, const AscendC::LocalTensor<T>& src0,
                                    const uint64_t* bits, uint64_t mask, uint32_t repeatTime,
                                    const AscendC::BinaryRepeatParams& p, Other other) {
    RepeatPlan plan = MakePlan<T, isSetMask>(api, bits, mask, repeatTime);
    StridedOperand<T> d(api, "dst", dst, p.dstBlkStride, p.dstRepStride);
    StridedOperand<T> a(api, "src0", src0, p.src0BlkStride, p.src0RepStride);
    ForEachActiveLane<T>(plan, [&](uint32_t r, uint32_t b, uint32_t e) {
        d(r, b, e) = select(r, b * kBlockElements<T> + e) ? a(r, b, e) : other(r, b, e);
    });
}

}  // namespace openacl::ascendc

namespace AscendC {

// Modes 0 and 2: choose between two tensors.
template <typename T, typename U>
requires(openacl::ascendc::kSelectable<T>) __aicore__
    inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                       const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode,
                       uint32_t count) {
    namespace oa = openacl::ascendc;
    oa::CheckSelMode("Select", selMode, false);
    oa::CheckOperand("Select", "src1", src1, uint64_t(count) * sizeof(T));
    const T* b = src1.Data();
    oa::SelectCount("Select", dst, oa::SelectionFrom<T>("Select", selMask, selMode), src0, count,
                    [b](uint32_t i) { return b[i]; });
}

// Mode 1: choose between a tensor and a scalar.
template <typename T, typename U>
requires(openacl::ascendc::kSelectable<T>) __aicore__
    inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                       const LocalTensor<T>& src0, std::type_identity_t<T> src1, SELMODE selMode,
                       uint32_t count) {
    namespace oa = openacl::ascendc;
    oa::CheckSelMode("Select", selMode, true);
    T scalar = src1;
    oa::SelectCount("Select", dst, oa::SelectionFrom<T>("Select", selMask, selMode), src0, count,
                    [scalar](uint32_t) { return scalar; });
}

#define OPENACL_SELECT_TENSOR_FORM(MaskParam, BitsArg, CountArg)                                   \
    template <typename T, typename U, bool isSetMask = true>                                       \
    requires(openacl::ascendc::kSelectable<T>) __aicore__ inline void Select(                      \
        const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,      \
        const LocalTensor<T>& src1, SELMODE selMode, MaskParam, uint32_t repeatTime,               \
        const BinaryRepeatParams& repeatParams) {                                                  \
        namespace oa = openacl::ascendc;                                                           \
        oa::CheckSelMode("Select", selMode, false);                                                \
        oa::StridedOperand<T> b("Select", "src1", src1, repeatParams.src1BlkStride,                \
                                repeatParams.src1RepStride);                                       \
        oa::SelectRepeat<T, isSetMask>(                                                            \
            "Select", dst, oa::SelectionFrom<T>("Select", selMask, selMode), src0, BitsArg,        \
            CountArg, repeatTime, repeatParams,                                                    \
            [&](uint32_t r, uint32_t blk, uint32_t e) { return b(r, blk, e); });                   \
    }                                                                                              \
    template <typename T, typename U, bool isSetMask = true>                                       \
    requires(openacl::ascendc::kSelectable<T>) __aicore__ inline void Select(                      \
        const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,      \
        std::type_identity_t<T> src1, SELMODE selMode, MaskParam, uint32_t repeatTime,             \
        const BinaryRepeatParams& repeatParams) {                                                  \
        namespace oa = openacl::ascendc;                                                           \
        oa::CheckSelMode("Select", selMode, true);                                                 \
        T scalar = src1;                                                                           \
        oa::SelectRepeat<T, isSetMask>("Select", dst,                                              \
                                       oa::SelectionFrom<T>("Select", selMask, selMode), src0,     \
                                       BitsArg, CountArg, repeatTime, repeatParams,                \
                                       [scalar](uint32_t, uint32_t, uint32_t) { return scalar; }); \
    }

OPENACL_SELECT_TENSOR_FORM(const uint64_t mask[], mask, 0)
OPENACL_SELECT_TENSOR_FORM(const uint64_t mask, nullptr, mask)

#undef OPENACL_SELECT_TENSOR_FORM

// Register forms, under the mask from SetVectorMask. Mode 0: the selection is CmpMask itself;
// mode 2: CmpMask holds the selMask's address (as the CPU debug samples write it).
template <typename T, SELMODE selMode>
requires(openacl::ascendc::kSelectable<T>) __aicore__
    inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                       const LocalTensor<T>& src1, uint32_t repeatTime,
                       const BinaryRepeatParams& repeatParams) {
    namespace oa = openacl::ascendc;
    static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  "Select: mode 1 takes the selMask tensor: Select(dst, selMask, src0, ...)");
    oa::SelectBits select{oa::t_cmpMask.bytes.data(), 128, true, oa::kRepeatLanes<T>, "Select"};
    if constexpr (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
        uint64_t address = 0;
        std::memcpy(&address, oa::t_cmpMask.bytes.data(), sizeof address);
        auto ub = reinterpret_cast<uintptr_t>(oa::t_core.Memory(Hardware::UB));
        if (address < ub || address >= ub + oa::kUbSize) {
            oa::Trap("Select",
                     "CmpMask does not hold a unified-buffer address for mode 2: write "
                     "the selMask's address into a tensor and SetCmpMask it first");
        }
        select.bits = reinterpret_cast<const uint8_t*>(address);
        select.available = (ub + oa::kUbSize - address) * 8;
        select.reuse = false;
    }
    oa::StridedOperand<T> b("Select", "src1", src1, repeatParams.src1BlkStride,
                            repeatParams.src1RepStride);
    oa::SelectRepeat<T, false>("Select", dst, select, src0, nullptr, 0, repeatTime, repeatParams,
                               [&](uint32_t r, uint32_t blk, uint32_t e) { return b(r, blk, e); });
}

// Register form of mode 1: the scalar is in CmpMask (SetCmpMask of a tensor holding it).
template <typename T, typename U>
requires(openacl::ascendc::kSelectable<T>) __aicore__
    inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                       const LocalTensor<T>& src0, uint32_t repeatTime,
                       const BinaryRepeatParams& repeatParams) {
    namespace oa = openacl::ascendc;
    T scalar;
    std::memcpy(&scalar, oa::t_cmpMask.bytes.data(), sizeof(T));
    oa::SelectRepeat<T, false>(
        "Select", dst, oa::SelectionFrom<T>("Select", selMask, SELMODE::VSEL_TENSOR_SCALAR_MODE),
        src0, nullptr, 0, repeatTime, repeatParams,
        [scalar](uint32_t, uint32_t, uint32_t) { return scalar; });
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_SELECT_H_
