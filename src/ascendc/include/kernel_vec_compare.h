// Compare and CompareScalar: element-wise comparison to a bit mask. Bit i of the result (byte
// i / 8, bit i % 8, LSB first) is 1 where the comparison holds for element i.
//
// The count form needs count * sizeof(T) to be a multiple of 256 bytes, as on the NPU. In the
// mask/repeat form the A2/A3 hardware ignores the mask (the docs call it reserved): every lane
// of each repeat is compared, and repeat r writes its bits right after those of repeat r - 1,
// whatever dstBlkStride and dstRepStride say. The register form compares one repeat into the
// CmpMask register, which GetCmpMask reads and Select's register forms use.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_COMPARE_H_
#define OPENACL_ASCENDC_KERNEL_VEC_COMPARE_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_vec_common.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

}  // namespace AscendC

namespace openacl::ascendc {

// The CmpMask register: 128 bits (a core register, so per thread).
struct CmpMaskRegister {
    std::array<uint8_t, 16> bytes{};
};
inline thread_local CmpMaskRegister t_cmpMask;

template <typename T>
constexpr bool kComparable =
    kIsFloatLike<T> || std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>;

__aicore__ inline const char* CmpModeName(AscendC::CMPMODE mode) {
    constexpr const char* kNames[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
    auto index = static_cast<uint32_t>(mode);
    return index < 6 ? kNames[index] : "?";
}

template <typename T>
__aicore__ inline bool CompareValues(const char* api, AscendC::CMPMODE mode, T a, T b) {
    auto x = static_cast<ComputeType<T>>(a);
    auto y = static_cast<ComputeType<T>>(b);
    switch (mode) {
        case AscendC::CMPMODE::LT:
            return x < y;
        case AscendC::CMPMODE::GT:
            return x > y;
        case AscendC::CMPMODE::EQ:
            return x == y;
        case AscendC::CMPMODE::LE:
            return x <= y;
        case AscendC::CMPMODE::GE:
            return x >= y;
        case AscendC::CMPMODE::NE:
            return x != y;
    }
    Trap(api, "cmpMode " + std::to_string(static_cast<int>(mode)) +
                  " is not a CMPMODE (LT, GT, EQ, LE, GE, NE)");
}

template <typename T>
__aicore__ inline void CheckCmpMode(const char* api, AscendC::CMPMODE mode) {
    if (static_cast<uint32_t>(mode) > static_cast<uint32_t>(AscendC::CMPMODE::NE)) {
        Trap(api, "cmpMode " + std::to_string(static_cast<int>(mode)) +
                      " is not a CMPMODE (LT, GT, EQ, LE, GE, NE)");
    }
    if constexpr (std::is_same_v<T, int32_t>) {
        if (mode != AscendC::CMPMODE::EQ) {
            Trap(api, std::string("int32_t operands support only CMPMODE::EQ, not CMPMODE::") +
                          CmpModeName(mode));
        }
    }
}

__aicore__ inline void SetBit(uint8_t* bits, uint64_t index, bool value) {
    uint8_t bit = static_cast<uint8_t>(1U << (index % 8));
    if (value) {
        bits[index / 8] |= bit;
    } else {
        bits[index / 8] &= static_cast<uint8_t>(~bit);
    }
}
__aicore__ inline bool GetBit(const uint8_t* bits, uint64_t index) {
    return ((bits[index / 8] >> (index % 8)) & 1U) != 0;
}

template <typename T>
__aicore__ inline uint32_t CheckCompareCount(const char* api, uint32_t count) {
    if ((uint64_t(count) * sizeof(T)) % AscendC::ONE_REPEAT_BYTE_SIZE != 0) {
        Trap(api, "count " + std::to_string(count) + " (" + std::to_string(count * sizeof(T)) +
                      " bytes) is not a multiple of 256 bytes: compare whole repeats of " +
                      std::to_string(kRepeatLanes<T>) + " elements and ignore the extra bits");
    }
    return count;
}

// Compares lanes of `repeats` whole repeats; `second(r, b, e)` gives the right-hand value.
template <typename T, typename U, typename Second>
__aicore__ inline void CompareRepeats(const char* api, const AscendC::LocalTensor<U>& dst,
                                      const StridedOperand<T>& first, AscendC::CMPMODE mode,
                                      uint32_t repeats, Second second) {
    constexpr uint32_t lanes = kRepeatLanes<T>;
    constexpr uint32_t perBlock = kBlockElements<T>;
    CheckOperand(api, "dst", dst, uint64_t(repeats) * lanes / 8, kVectorWrite);
    auto* bits = reinterpret_cast<uint8_t*>(dst.Data());
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t b = 0; b < AscendC::DEFAULT_BLK_NUM; ++b) {
            for (uint32_t e = 0; e < perBlock; ++e) {
                SetBit(bits, uint64_t(r) * lanes + b * perBlock + e,
                       CompareValues<T>(api, mode, first(r, b, e), second(r, b, e)));
            }
        }
    }
}

template <typename T>
__aicore__ inline uint32_t CheckedRepeats(const char* api, uint32_t repeatTime) {
    if (repeatTime > AscendC::MAX_REPEAT_TIMES) {
        Trap(api, "repeatTime " + std::to_string(repeatTime) + " exceeds 255: split the call");
    }
    return repeatTime;
}

}  // namespace openacl::ascendc

namespace AscendC {

// dst bits = src0[i] <cmpMode> src1[i] for the first `count` elements.
template <typename T, typename U>
requires(openacl::ascendc::kComparable<T>&& std::is_integral_v<U>) __aicore__
    inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                        const LocalTensor<T>& src1, CMPMODE cmpMode, uint32_t count) {
    namespace oa = openacl::ascendc;
    oa::CheckCmpMode<T>("Compare", cmpMode);
    oa::CheckCompareCount<T>("Compare", count);
    uint32_t repeats = count / oa::kRepeatLanes<T>;
    oa::StridedOperand<T> a("Compare", "src0", src0, 1, 8);
    oa::StridedOperand<T> b("Compare", "src1", src1, 1, 8);
    oa::CompareRepeats("Compare", dst, a, cmpMode, repeats,
                       [&](uint32_t r, uint32_t blk, uint32_t e) { return b(r, blk, e); });
}

template <typename T, typename U, bool isSetMask = true>
requires(openacl::ascendc::kComparable<T>&& std::is_integral_v<U>) __aicore__
    inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                        const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
                        uint32_t repeatTime, const BinaryRepeatParams& repeatParams) {
    namespace oa = openacl::ascendc;
    (void)mask;  // reserved on A2/A3: every lane is compared
    oa::CheckCmpMode<T>("Compare", cmpMode);
    uint32_t repeats = oa::CheckedRepeats<T>("Compare", repeatTime);
    oa::StridedOperand<T> a("Compare", "src0", src0, repeatParams.src0BlkStride,
                            repeatParams.src0RepStride);
    oa::StridedOperand<T> b("Compare", "src1", src1, repeatParams.src1BlkStride,
                            repeatParams.src1RepStride);
    oa::CompareRepeats("Compare", dst, a, cmpMode, repeats,
                       [&](uint32_t r, uint32_t blk, uint32_t e) { return b(r, blk, e); });
}

template <typename T, typename U, bool isSetMask = true>
requires(openacl::ascendc::kComparable<T>&& std::is_integral_v<U>) __aicore__
    inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                        const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
                        uint32_t repeatTime, const BinaryRepeatParams& repeatParams) {
    uint64_t bits[2] = {mask, 0};
    Compare<T, U, isSetMask>(dst, src0, src1, cmpMode, bits, repeatTime, repeatParams);
}

// Register form: one repeat, the result (mask-selected lanes; others 0) into CmpMask.
template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kComparable<T>) __aicore__
    inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                        const uint64_t mask[], const BinaryRepeatParams& repeatParams) {
    namespace oa = openacl::ascendc;
    oa::CheckCmpMode<T>("Compare", cmpMode);
    auto plan = oa::MakePlan<T, isSetMask>("Compare", mask, 0, 1);
    plan.repeats = 1;
    oa::StridedOperand<T> a("Compare", "src0", src0, repeatParams.src0BlkStride,
                            repeatParams.src0RepStride);
    oa::StridedOperand<T> b("Compare", "src1", src1, repeatParams.src1BlkStride,
                            repeatParams.src1RepStride);
    oa::t_cmpMask.bytes = {};
    oa::ForEachActiveLane<T>(plan, [&](uint32_t r, uint32_t blk, uint32_t e) {
        oa::SetBit(oa::t_cmpMask.bytes.data(), blk * oa::kBlockElements<T> + e,
                   oa::CompareValues<T>("Compare", cmpMode, a(r, blk, e), b(r, blk, e)));
    });
}

template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kComparable<T>) __aicore__
    inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                        const uint64_t mask, const BinaryRepeatParams& repeatParams) {
    namespace oa = openacl::ascendc;
    uint64_t bits[2];
    auto plan = oa::MakePlan<T, true>("Compare", nullptr, isSetMask ? mask : 1, 1);
    if (!isSetMask) {
        plan.low = oa::t_core.maskLow;
        plan.high = oa::t_core.maskHigh;
    }
    bits[0] = plan.low;
    bits[1] = plan.high;
    Compare<T, true>(src0, src1, cmpMode, bits, repeatParams);
}

// dst bits = src0[i] <cmpMode> src1Scalar.
template <typename T, typename U>
requires(openacl::ascendc::kComparable<T>&& std::is_integral_v<U>) __aicore__
    inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                              const std::type_identity_t<T> src1Scalar, CMPMODE cmpMode,
                              uint32_t count) {
    namespace oa = openacl::ascendc;
    oa::CheckCmpMode<T>("CompareScalar", cmpMode);
    oa::CheckCompareCount<T>("CompareScalar", count);
    oa::StridedOperand<T> a("CompareScalar", "src0", src0, 1, 8);
    T scalar = src1Scalar;
    oa::CompareRepeats("CompareScalar", dst, a, cmpMode, count / oa::kRepeatLanes<T>,
                       [&](uint32_t, uint32_t, uint32_t) { return scalar; });
}

template <typename T, typename U, bool isSetMask = true>
requires(openacl::ascendc::kComparable<T>&& std::is_integral_v<U>) __aicore__
    inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                              const std::type_identity_t<T> src1Scalar, CMPMODE cmpMode,
                              const uint64_t mask[], uint32_t repeatTime,
                              const UnaryRepeatParams& repeatParams) {
    namespace oa = openacl::ascendc;
    (void)mask;  // reserved on A2/A3
    oa::CheckCmpMode<T>("CompareScalar", cmpMode);
    uint32_t repeats = oa::CheckedRepeats<T>("CompareScalar", repeatTime);
    oa::StridedOperand<T> a("CompareScalar", "src0", src0, repeatParams.srcBlkStride,
                            repeatParams.srcRepStride);
    T scalar = src1Scalar;
    oa::CompareRepeats("CompareScalar", dst, a, cmpMode, repeats,
                       [&](uint32_t, uint32_t, uint32_t) { return scalar; });
}

template <typename T, typename U, bool isSetMask = true>
requires(openacl::ascendc::kComparable<T>&& std::is_integral_v<U>) __aicore__
    inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                              const std::type_identity_t<T> src1Scalar, CMPMODE cmpMode,
                              const uint64_t mask, uint32_t repeatTime,
                              const UnaryRepeatParams& repeatParams) {
    uint64_t bits[2] = {mask, 0};
    CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, bits, repeatTime, repeatParams);
}

// The CmpMask register's 128 bits to dst (16 bytes).
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst) {
    openacl::ascendc::CheckOperand("GetCmpMask", "dst", dst, 16, openacl::ascendc::kVectorWrite);
    std::memcpy(dst.Data(), openacl::ascendc::t_cmpMask.bytes.data(), 16);
}

// The first 16 bytes of src into the CmpMask register (a selMask for Select mode 0, the
// scalar for mode 1, the selMask's address for mode 2).
template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src) {
    openacl::ascendc::CheckOperand("SetCmpMask", "src", src, 16);
    std::memcpy(openacl::ascendc::t_cmpMask.bytes.data(), src.Data(), 16);
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_COMPARE_H_
