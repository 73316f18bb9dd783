// Gathering and scattering elements: GatherMask (keep the elements a bit pattern selects, packed
// to the front of dst), Gather (dst[i] = the element at byte offset srcOffset[i] of src) and
// Scatter (the element at byte offset dstOffset[i] of dst = src[i]).
//
// GatherMask's built-in patterns: 1 keeps even elements, 2 odd ones, 3..6 element 0..3 of each
// group of four, 7 all. A user pattern is a tensor of bits (LSB first, one per element). In
// normal mode (reduceMode false) each repeat covers one repeat of lanes; in counter mode
// (reduceMode true) each repeat covers `mask` elements. src1RepeatStride (in 32-byte blocks)
// moves a user pattern between repeats; 0 reuses it.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_GATHER_H_
#define OPENACL_ASCENDC_KERNEL_VEC_GATHER_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_vec_common.h"

namespace AscendC {

struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 0;
    uint8_t src1RepeatStride = 0;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

}  // namespace AscendC

namespace openacl::ascendc {

template <typename T, typename Keep>
__aicore__ inline void GatherMaskRun(const char* api, const AscendC::LocalTensor<T>& dst,
                                     const AscendC::LocalTensor<T>& src0, bool reduceMode,
                                     uint32_t mask, const AscendC::GatherMaskParams& p,
                                     uint64_t& rsvdCnt, Keep keep) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask: 16- or 32-bit elements only");
    if (reduceMode && mask == 0)
        Trap(api, "counter mode (reduceMode true) needs a mask of 1 or more");
    uint32_t perRepeat = reduceMode ? mask : kRepeatLanes<T>;
    constexpr uint32_t perBlock = kBlockElements<T>;
    StridedOperand<T> s(api, "src0", src0, p.src0BlockStride, p.src0RepeatStride);
    CheckOperand(api, "dst", dst, 0, kVectorWrite);
    uint64_t limit = dst.BytesToBufferEnd() / sizeof(T);
    T* d = dst.Data();
    uint64_t kept = 0;
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        for (uint32_t k = 0; k < perRepeat; ++k) {
            if (!keep(r, k)) continue;
            if (kept >= limit) {
                Trap(api, "the kept elements pass the " + std::to_string(limit) +
                              " elements of dst's buffer");
            }
            d[kept++] = s(r, k / perBlock, k % perBlock);
        }
    }
    rsvdCnt = kept;
}

__aicore__ inline bool BuiltInPatternKeeps(const char* api, uint8_t pattern, uint32_t index) {
    switch (pattern) {
        case 1:
            return index % 2 == 0;
        case 2:
            return index % 2 == 1;
        case 3:
        case 4:
        case 5:
        case 6:
            return index % 4 == uint32_t(pattern - 3);
        case 7:
            return true;
        default:
            Trap(api, "src1Pattern " + std::to_string(pattern) +
                          " is not a built-in pattern (1..7): pass a pattern tensor for others");
    }
}

template <typename T>
__aicore__ inline const std::byte* OffsetElement(const char* api, const char* role,
                                                 const AscendC::LocalTensor<T>& tensor,
                                                 uint64_t byteOffset, uint32_t i) {
    if (byteOffset % sizeof(T) != 0 || byteOffset + sizeof(T) > tensor.BytesToBufferEnd()) {
        Trap(api, std::string(role) + " offset " + std::to_string(byteOffset) + " (element " +
                      std::to_string(i) + ") is not a whole element inside the buffer (" +
                      std::to_string(tensor.BytesToBufferEnd()) + " bytes): offsets are in bytes");
    }
    return reinterpret_cast<const std::byte*>(tensor.Data()) + byteOffset;
}

}  // namespace openacl::ascendc

namespace AscendC {

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode,
                                  const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
    namespace oa = openacl::ascendc;
    oa::CheckOperand("GatherMask", "src1Pattern", src1Pattern, 0);
    const auto* bits = reinterpret_cast<const uint8_t*>(src1Pattern.Data());
    uint64_t available = src1Pattern.BytesToBufferEnd() * 8;
    uint64_t repeatBits = uint64_t(gatherMaskParams.src1RepeatStride) * ONE_BLK_SIZE * 8;
    oa::GatherMaskRun("GatherMask", dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                      [&](uint32_t r, uint32_t k) {
                          uint64_t bit = r * repeatBits + k;
                          if (bit >= available) {
                              oa::Trap("GatherMask", "src1Pattern bit " + std::to_string(bit) +
                                                         " is past its buffer (" +
                                                         std::to_string(available / 8) + " bytes)");
                          }
                          return ((bits[bit / 8] >> (bit % 8)) & 1U) != 0;
                      });
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const uint8_t src1Pattern, const bool reduceMode,
                                  const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
    namespace oa = openacl::ascendc;
    oa::BuiltInPatternKeeps("GatherMask", src1Pattern, 0);  // rejects unknown patterns up front
    oa::GatherMaskRun("GatherMask", dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                      [&](uint32_t, uint32_t k) {
                          return oa::BuiltInPatternKeeps("GatherMask", src1Pattern, k);
                      });
}

// dst[i] = the element at byte srcBaseAddr + srcOffset[i] of src, for i < count.
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
                              const uint32_t count) {
    namespace oa = openacl::ascendc;
    oa::CheckOperand("Gather", "dst", dst, uint64_t(count) * sizeof(T), oa::kVectorWrite);
    oa::CheckOperand("Gather", "src", src, 0);
    oa::CheckOperand("Gather", "srcOffset", srcOffset, uint64_t(count) * sizeof(uint32_t));
    for (uint32_t i = 0; i < count; ++i) {
        const std::byte* from = oa::OffsetElement("Gather", "srcOffset", src,
                                                  uint64_t(srcBaseAddr) + srcOffset.Data()[i], i);
        std::memcpy(dst.Data() + i, from, sizeof(T));
    }
}

// The element at byte dstBaseAddr + dstOffset[i] of dst = src[i], for i < count.
template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& dstOffset, const uint32_t dstBaseAddr,
                               const uint32_t count) {
    namespace oa = openacl::ascendc;
    oa::CheckOperand("Scatter", "dst", dst, 0, oa::kVectorWrite);
    oa::CheckOperand("Scatter", "src", src, uint64_t(count) * sizeof(T));
    oa::CheckOperand("Scatter", "dstOffset", dstOffset, uint64_t(count) * sizeof(uint32_t));
    for (uint32_t i = 0; i < count; ++i) {
        auto* to = const_cast<std::byte*>(oa::OffsetElement(
            "Scatter", "dstOffset", dst, uint64_t(dstBaseAddr) + dstOffset.Data()[i], i));
        std::memcpy(to, src.Data() + i, sizeof(T));
    }
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_GATHER_H_
