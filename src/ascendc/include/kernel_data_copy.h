// DataCopy (32-byte units) and DataCopyPad (byte lengths, padded in local memory) between
// global memory and local buffers, and SetAtomicAdd/Max/Min for copies out to global memory.
#ifndef OPENACL_ASCENDC_KERNEL_DATA_COPY_H_
#define OPENACL_ASCENDC_KERNEL_DATA_COPY_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_core_state.h"
#include "kernel_operand_check.h"
#include "kernel_tensor_impl.h"
#include "kernel_type.h"

namespace AscendC {

// Strided copies: blockCount blocks of blockLen DataBlocks; strides are gaps between blocks,
// in DataBlocks. (In DataCopyPad's older form blockLen is in bytes.)
struct DataCopyParams {
    __aicore__ DataCopyParams() = default;
    __aicore__ DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn,
                              uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}

    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union {
        uint16_t srcStride = 0;
        uint16_t srcGap;
    };
    union {
        uint16_t dstStride = 0;
        uint16_t dstGap;
    };
};

// DataCopyPad's parameters: blockLen in bytes; on global memory strides are bytes, in local
// memory DataBlocks.
struct DataCopyExtParams {
    __aicore__ DataCopyExtParams() = default;
    __aicore__ DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn,
                                 uint32_t dstStrideIn, uint32_t rsvIn = 0)
        : blockCount(count),
          blockLen(len),
          srcStride(srcStrideIn),
          dstStride(dstStrideIn),
          rsv(rsvIn) {}

    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
    __aicore__ DataCopyPadExtParams() = default;
    __aicore__ DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}

    bool isPad = false;
    uint8_t leftPadding = 0;   // elements
    uint8_t rightPadding = 0;  // elements
    T paddingValue{};
};

struct DataCopyPadParams {
    __aicore__ DataCopyPadParams() = default;
    __aicore__ DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}

    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

}  // namespace AscendC

namespace openacl::ascendc {

// Writes `count` elements to global memory, accumulating under SetAtomicAdd/Max/Min. Blocks
// run concurrently, so accumulation is a compare-and-swap per element.
template <typename T>
__aicore__ inline void WriteGlobal(T* dst, const T* src, uint64_t count) {
    AtomicMode mode = t_core.atomicMode;
    if (mode == AtomicMode::NONE) {
        std::memcpy(dst, src, count * sizeof(T));
        return;
    }
    using Bits = std::conditional_t<
        sizeof(T) == 1, uint8_t,
        std::conditional_t<sizeof(T) == 2, uint16_t,
                           std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    static_assert(sizeof(Bits) == sizeof(T));
    for (uint64_t i = 0; i < count; ++i) {
        std::atomic_ref<Bits> target(*reinterpret_cast<Bits*>(dst + i));
        Bits expected = target.load(std::memory_order_relaxed);
        for (;;) {
            T current;
            std::memcpy(&current, &expected, sizeof(T));
            T result;
            if (mode == AtomicMode::ADD) {
                result = static_cast<T>(current + src[i]);
            } else if (mode == AtomicMode::MAX) {
                result = src[i] > current ? src[i] : current;
            } else {
                result = src[i] < current ? src[i] : current;
            }
            Bits desired;
            std::memcpy(&desired, &result, sizeof(T));
            if (target.compare_exchange_weak(expected, desired, std::memory_order_relaxed)) break;
        }
    }
}

template <typename T>
__aicore__ inline void CheckGlobal(const char* api, const AscendC::GlobalTensor<T>& tensor) {
    if (tensor.GetPhyAddr() == nullptr) {
        Trap(api, "the global tensor has no memory: call SetGlobalBuffer first");
    }
}

// A count whose bytes are not whole DataBlocks leaves a tail uncopied, as on the NPU, which is
// almost always a bug: said once per process (not per call: kernels copy in loops).
inline void WarnCountFormTail(uint64_t wanted, uint64_t copied, size_t elementSize) {
    static std::atomic<bool> said{false};
    if (said.exchange(true, std::memory_order_relaxed)) return;
    std::fprintf(stderr,
                 "[openacl] warning: DataCopy: %llu elements of %zu bytes are %llu bytes, not a "
                 "multiple of 32: only %llu are copied and the last %llu are not, as on the NPU; "
                 "copy whole 32-byte blocks, or use DataCopyPad for a tail (said once)\n",
                 static_cast<unsigned long long>(wanted / elementSize), elementSize,
                 static_cast<unsigned long long>(wanted), static_cast<unsigned long long>(copied),
                 static_cast<unsigned long long>(wanted - copied));
}

// The element-count form moves whole DataBlocks: the byte count is rounded down to 32.
template <typename T>
__aicore__ inline uint64_t CountFormBytes(uint32_t count) {
    const uint64_t wanted = static_cast<uint64_t>(count) * sizeof(T);
    const uint64_t copied = wanted / AscendC::ONE_BLK_SIZE * AscendC::ONE_BLK_SIZE;
    if (copied != wanted) WarnCountFormTail(wanted, copied, sizeof(T));
    return copied;
}

// Extent in bytes of blockCount blocks of blockBytes separated by gapBytes.
__aicore__ inline uint64_t StridedExtent(uint32_t blockCount, uint64_t blockBytes,
                                         uint64_t gapBytes) {
    if (blockCount == 0 || blockBytes == 0) return 0;
    return (blockCount - 1) * (blockBytes + gapBytes) + blockBytes;
}

__aicore__ inline void CheckBlockCount(const char* api, uint32_t blockCount) {
    if (blockCount > 4095) {
        Trap(api, "blockCount " + std::to_string(blockCount) + " exceeds 4095");
    }
}

}  // namespace openacl::ascendc

namespace AscendC {

// ---- element-count form: count * sizeof(T) bytes, rounded down to a multiple of 32 ----

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const uint32_t count) {
    uint64_t bytes = openacl::ascendc::CountFormBytes<T>(count);
    openacl::ascendc::CheckGlobal("DataCopy", src);
    openacl::ascendc::CheckOperand("DataCopy", "the destination", dst, bytes,
                                   openacl::ascendc::kCopyIn);
    openacl::ascendc::TrackGlobalBlocks("DataCopy", "the global source",
                                        openacl::ascendc::kGlobalIn, src.GetPhyAddr(), 1, bytes, 0);
    std::memcpy(dst.Data(), src.GetPhyAddr(), bytes);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const uint32_t count) {
    uint64_t bytes = openacl::ascendc::CountFormBytes<T>(count);
    openacl::ascendc::CheckGlobal("DataCopy", dst);
    openacl::ascendc::CheckOperand("DataCopy", "the source", src, bytes,
                                   openacl::ascendc::kCopyOut);
    openacl::ascendc::TrackGlobalBlocks("DataCopy", "the global destination",
                                        openacl::ascendc::kGlobalOut, dst.GetPhyAddr(), 1, bytes,
                                        0);
    openacl::ascendc::WriteGlobal(dst.GetPhyAddr(), src.Data(), bytes / sizeof(T));
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const uint32_t count) {
    uint64_t bytes = openacl::ascendc::CountFormBytes<T>(count);
    openacl::ascendc::CheckOperand("DataCopy", "the source", src, bytes,
                                   openacl::ascendc::LocalCopyUse(dst, src, false));
    openacl::ascendc::CheckOperand("DataCopy", "the destination", dst, bytes,
                                   openacl::ascendc::LocalCopyUse(dst, src, true));
    std::memmove(dst.Data(), src.Data(), bytes);
}

// ---- DataCopyParams form: lengths and gaps in 32-byte DataBlocks ----

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& params) {
    openacl::ascendc::CheckBlockCount("DataCopy", params.blockCount);
    uint64_t block = uint64_t(params.blockLen) * ONE_BLK_SIZE;
    uint64_t srcGap = uint64_t(params.srcStride) * ONE_BLK_SIZE;
    uint64_t dstGap = uint64_t(params.dstStride) * ONE_BLK_SIZE;
    if (block == 0 || params.blockCount == 0) return;
    openacl::ascendc::CheckGlobal("DataCopy", src);
    openacl::ascendc::CheckOperand(
        "DataCopy", "the destination", dst,
        openacl::ascendc::StridedExtent(params.blockCount, block, dstGap),
        openacl::ascendc::kCopyIn);
    openacl::ascendc::TrackGlobalBlocks("DataCopy", "the global source",
                                        openacl::ascendc::kGlobalIn, src.GetPhyAddr(),
                                        params.blockCount, block, srcGap);
    auto* to = reinterpret_cast<std::byte*>(dst.Data());
    auto* from = reinterpret_cast<const std::byte*>(src.GetPhyAddr());
    for (uint32_t i = 0; i < params.blockCount; ++i) {
        std::memcpy(to + i * (block + dstGap), from + i * (block + srcGap), block);
    }
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& params) {
    openacl::ascendc::CheckBlockCount("DataCopy", params.blockCount);
    uint64_t block = uint64_t(params.blockLen) * ONE_BLK_SIZE;
    uint64_t srcGap = uint64_t(params.srcStride) * ONE_BLK_SIZE;
    uint64_t dstGap = uint64_t(params.dstStride) * ONE_BLK_SIZE;
    if (block == 0 || params.blockCount == 0) return;
    openacl::ascendc::CheckGlobal("DataCopy", dst);
    openacl::ascendc::CheckOperand(
        "DataCopy", "the source", src,
        openacl::ascendc::StridedExtent(params.blockCount, block, srcGap),
        openacl::ascendc::kCopyOut);
    openacl::ascendc::TrackGlobalBlocks("DataCopy", "the global destination",
                                        openacl::ascendc::kGlobalOut, dst.GetPhyAddr(),
                                        params.blockCount, block, dstGap);
    auto* to = reinterpret_cast<std::byte*>(dst.GetPhyAddr());
    auto* from = reinterpret_cast<const std::byte*>(src.Data());
    for (uint32_t i = 0; i < params.blockCount; ++i) {
        openacl::ascendc::WriteGlobal(reinterpret_cast<T*>(to + i * (block + dstGap)),
                                      reinterpret_cast<const T*>(from + i * (block + srcGap)),
                                      block / sizeof(T));
    }
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& params) {
    openacl::ascendc::CheckBlockCount("DataCopy", params.blockCount);
    uint64_t block = uint64_t(params.blockLen) * ONE_BLK_SIZE;
    uint64_t srcGap = uint64_t(params.srcStride) * ONE_BLK_SIZE;
    uint64_t dstGap = uint64_t(params.dstStride) * ONE_BLK_SIZE;
    if (block == 0 || params.blockCount == 0) return;
    openacl::ascendc::CheckOperand(
        "DataCopy", "the source", src,
        openacl::ascendc::StridedExtent(params.blockCount, block, srcGap),
        openacl::ascendc::LocalCopyUse(dst, src, false));
    openacl::ascendc::CheckOperand(
        "DataCopy", "the destination", dst,
        openacl::ascendc::StridedExtent(params.blockCount, block, dstGap),
        openacl::ascendc::LocalCopyUse(dst, src, true));
    auto* to = reinterpret_cast<std::byte*>(dst.Data());
    auto* from = reinterpret_cast<const std::byte*>(src.Data());
    for (uint32_t i = 0; i < params.blockCount; ++i) {
        std::memmove(to + i * (block + dstGap), from + i * (block + srcGap), block);
    }
}

// Sets the value DataCopyPad fills with when padding is asked for without isPad.
template <typename T>
__aicore__ inline void SetPadValue(T value) {
    auto& core = openacl::ascendc::t_core;
    core.padValueBits = 0;
    std::memcpy(&core.padValueBits, &value, sizeof(T));
    core.padValueSet = true;
}

}  // namespace AscendC

namespace openacl::ascendc {

// GM -> local with padding: each block of blockLen bytes lands in local memory after
// `left` fill elements, followed by `right` fill elements and fill up to a 32-byte boundary.
// The fill is the padding value with isPad, else the SetPadValue value where one was set, else
// the block's first element.
template <typename T>
__aicore__ inline void CopyInPadded(const AscendC::LocalTensor<T>& dst,
                                    const AscendC::GlobalTensor<T>& src, uint32_t blockCount,
                                    uint64_t blockLen, uint64_t srcGapBytes, uint64_t dstGapBlocks,
                                    bool isPad, uint32_t left, uint32_t right, T padValue) {
    const char* api = "DataCopyPad";
    CheckBlockCount(api, blockCount);
    if (blockLen % sizeof(T) != 0) {
        Trap(api, "blockLen " + std::to_string(blockLen) + " bytes is not a multiple of the " +
                      std::to_string(sizeof(T)) + "-byte element");
    }
    if (blockLen > 2097151) Trap(api, "blockLen " + std::to_string(blockLen) + " exceeds 2097151");
    if (left * sizeof(T) > AscendC::ONE_BLK_SIZE || right * sizeof(T) > AscendC::ONE_BLK_SIZE) {
        Trap(api, "leftPadding and rightPadding may be at most 32 bytes each");
    }
    if (blockCount == 0 || blockLen == 0) return;
    CheckGlobal(api, src);
    uint64_t elements = blockLen / sizeof(T);
    uint64_t footprint = (left + elements + right) * sizeof(T);
    footprint =
        (footprint + AscendC::ONE_BLK_SIZE - 1) / AscendC::ONE_BLK_SIZE * AscendC::ONE_BLK_SIZE;
    uint64_t pitch = footprint + dstGapBlocks * AscendC::ONE_BLK_SIZE;
    CheckOperand(api, "the destination", dst, (blockCount - 1) * pitch + footprint, kCopyIn);
    TrackGlobalBlocks(api, "the global source", kGlobalIn, src.GetPhyAddr(), blockCount, blockLen,
                      srcGapBytes);
    auto* to = reinterpret_cast<std::byte*>(dst.Data());
    auto* from = reinterpret_cast<const std::byte*>(src.GetPhyAddr());
    uint64_t slots = footprint / sizeof(T);
    for (uint32_t b = 0; b < blockCount; ++b) {
        T* block = reinterpret_cast<T*>(to + b * pitch);
        std::memcpy(block + left, from + b * (blockLen + srcGapBytes), blockLen);
        T fill = block[left];
        if (isPad) {
            fill = padValue;
        } else if (t_core.padValueSet) {
            std::memcpy(&fill, &t_core.padValueBits, sizeof(T));
        }
        for (uint64_t i = 0; i < left; ++i)
            block[i] = fill;
        for (uint64_t i = left + elements; i < slots; ++i)
            block[i] = fill;
    }
}

// Local -> GM: exactly blockLen bytes per block; local blocks start on 32-byte boundaries.
template <typename T>
__aicore__ inline void CopyOutPadded(const AscendC::GlobalTensor<T>& dst,
                                     const AscendC::LocalTensor<T>& src, uint32_t blockCount,
                                     uint64_t blockLen, uint64_t srcGapBlocks,
                                     uint64_t dstGapBytes) {
    const char* api = "DataCopyPad";
    CheckBlockCount(api, blockCount);
    if (blockLen % sizeof(T) != 0) {
        Trap(api, "blockLen " + std::to_string(blockLen) + " bytes is not a multiple of the " +
                      std::to_string(sizeof(T)) + "-byte element");
    }
    if (blockLen > 2097151) Trap(api, "blockLen " + std::to_string(blockLen) + " exceeds 2097151");
    if (blockCount == 0 || blockLen == 0) return;
    CheckGlobal(api, dst);
    uint64_t footprint =
        (blockLen + AscendC::ONE_BLK_SIZE - 1) / AscendC::ONE_BLK_SIZE * AscendC::ONE_BLK_SIZE;
    uint64_t pitch = footprint + srcGapBlocks * AscendC::ONE_BLK_SIZE;
    CheckOperand(api, "the source", src, (blockCount - 1) * pitch + blockLen, kCopyOut);
    TrackGlobalBlocks(api, "the global destination", kGlobalOut, dst.GetPhyAddr(), blockCount,
                      blockLen, dstGapBytes);
    auto* to = reinterpret_cast<std::byte*>(dst.GetPhyAddr());
    auto* from = reinterpret_cast<const std::byte*>(src.Data());
    for (uint32_t b = 0; b < blockCount; ++b) {
        WriteGlobal(reinterpret_cast<T*>(to + b * (blockLen + dstGapBytes)),
                    reinterpret_cast<const T*>(from + b * pitch), blockLen / sizeof(T));
    }
}

}  // namespace openacl::ascendc

namespace AscendC {

template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& params,
                                   const DataCopyPadExtParams<T>& pad) {
    openacl::ascendc::CopyInPadded(dst, src, params.blockCount, params.blockLen, params.srcStride,
                                   params.dstStride, pad.isPad, pad.leftPadding, pad.rightPadding,
                                   pad.paddingValue);
}

template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyParams& params, const DataCopyPadParams& pad) {
    T value{};
    std::memcpy(&value, &pad.paddingValue, sizeof(T));
    openacl::ascendc::CopyInPadded(dst, src, params.blockCount, params.blockLen, params.srcStride,
                                   params.dstStride, pad.isPad, pad.leftPadding, pad.rightPadding,
                                   value);
}

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& params) {
    openacl::ascendc::CopyOutPadded(dst, src, params.blockCount, params.blockLen, params.srcStride,
                                    params.dstStride);
}

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyParams& params) {
    openacl::ascendc::CopyOutPadded(dst, src, params.blockCount, params.blockLen, params.srcStride,
                                    params.dstStride);
}

// Copies out to global memory accumulate (Add), or keep the larger / smaller value, until
// SetAtomicNone.
template <typename T>
__aicore__ inline void SetAtomicAdd() {
    openacl::ascendc::t_core.atomicMode = openacl::ascendc::AtomicMode::ADD;
}
template <typename T>
__aicore__ inline void SetAtomicMax() {
    openacl::ascendc::t_core.atomicMode = openacl::ascendc::AtomicMode::MAX;
}
template <typename T>
__aicore__ inline void SetAtomicMin() {
    openacl::ascendc::t_core.atomicMode = openacl::ascendc::AtomicMode::MIN;
}
__aicore__ inline void SetAtomicNone() {
    openacl::ascendc::t_core.atomicMode = openacl::ascendc::AtomicMode::NONE;
}
__aicore__ inline void DisableDmaAtomic() {
    SetAtomicNone();
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_DATA_COPY_H_
