// What every vector instruction shares: the two call forms and the mask.
//
// Count form ("level 2"): the first `count` elements of each operand, contiguous.
// Mask/repeat form ("level 0"): `repeatTime` repeats of 8 DataBlocks (256 bytes); a lane mask
// chooses which elements of a repeat are computed (a count of leading lanes, or two 64-bit
// words, LSB first); block and repeat strides (in DataBlocks) place the blocks. Lanes the mask
// leaves out are not touched. In counter mode (SetMaskCount) the mask is a total element count
// and the repeat count follows from it.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_COMMON_H_
#define OPENACL_ASCENDC_KERNEL_VEC_COMMON_H_

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>

#include "kernel_core_state.h"
#include "kernel_operand_check.h"
#include "kernel_tensor_impl.h"
#include "kernel_type.h"

namespace AscendC {

struct BinaryRepeatParams {
    __aicore__ BinaryRepeatParams() = default;
    __aicore__ BinaryRepeatParams(uint32_t dstBlk, uint32_t src0Blk, uint32_t src1Blk,
                                  uint32_t dstRep, uint32_t src0Rep, uint32_t src1Rep)
        : dstBlkStride(dstBlk),
          src0BlkStride(src0Blk),
          src1BlkStride(src1Blk),
          dstRepStride(dstRep),
          src0RepStride(src0Rep),
          src1RepStride(src1Rep) {}

    uint32_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint32_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint32_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint32_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint32_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint32_t src1RepStride = DEFAULT_REPEAT_STRIDE;
};

struct UnaryRepeatParams {
    __aicore__ UnaryRepeatParams() = default;
    __aicore__ UnaryRepeatParams(uint32_t dstBlk, uint32_t srcBlk, uint32_t dstRep, uint32_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}

    uint32_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint32_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint32_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint32_t srcRepStride = DEFAULT_REPEAT_STRIDE;
};

// The mask for instructions called with isSetMask = false: (high, low) lane words in normal
// mode, the element count in `maskLow` in counter mode.
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
    openacl::ascendc::t_core.maskHigh = maskHigh;
    openacl::ascendc::t_core.maskLow = maskLow;
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len) {
    auto& core = openacl::ascendc::t_core;
    if (core.maskMode == MaskMode::COUNTER || mode == MaskMode::COUNTER) {
        core.maskHigh = 0;
        core.maskLow = static_cast<uint64_t>(len);
        return;
    }
    uint32_t n = len < 0 ? 0 : static_cast<uint32_t>(len);
    core.maskLow = n >= 64 ? ~0ULL : ((1ULL << n) - 1);
    core.maskHigh = n >= 128 ? ~0ULL : (n <= 64 ? 0 : ((1ULL << (n - 64)) - 1));
}
__aicore__ inline void SetMaskCount() {
    openacl::ascendc::t_core.maskMode = MaskMode::COUNTER;
}
__aicore__ inline void SetMaskNorm() {
    openacl::ascendc::t_core.maskMode = MaskMode::NORMAL;
}
// Back to normal mode with every lane.
__aicore__ inline void ResetMask() {
    auto& core = openacl::ascendc::t_core;
    core.maskMode = MaskMode::NORMAL;
    core.maskHigh = ~0ULL;
    core.maskLow = ~0ULL;
}

}  // namespace AscendC

namespace openacl::ascendc {

template <typename T>
constexpr uint32_t kBlockElements = AscendC::ONE_BLK_SIZE / sizeof(T);
template <typename T>
constexpr uint32_t kRepeatLanes = AscendC::ONE_REPEAT_BYTE_SIZE / sizeof(T);

template <typename T>
constexpr bool kIsFloatLike =
    std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

// The arithmetic type an element computes in: float for half and bfloat16_t.
template <typename T>
using ComputeType =
    std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>, float, T>;

// Which lanes of which repeats a level-0 call computes.
struct RepeatPlan {
    bool counter = false;
    uint64_t total = 0;  // counter mode: elements in all
    uint64_t low = 0;    // normal mode: lanes 0..63
    uint64_t high = 0;   // normal mode: lanes 64..127
    uint32_t repeats = 0;

    __aicore__ bool Active(uint32_t repeat, uint32_t lane, uint32_t lanesPerRepeat) const {
        if (counter) return static_cast<uint64_t>(repeat) * lanesPerRepeat + lane < total;
        return lane < 64 ? ((low >> lane) & 1U) != 0 : ((high >> (lane - 64)) & 1U) != 0;
    }
};

// `bits` is the mask[2] form, or nullptr for the continuous `count` form.
template <typename T, bool isSetMask>
__aicore__ inline RepeatPlan MakePlan(const char* api, const uint64_t* bits, uint64_t count,
                                      uint32_t repeatTime) {
    constexpr uint32_t lanes = kRepeatLanes<T>;
    RepeatPlan plan;
    const auto& core = t_core;
    if (core.maskMode == AscendC::MaskMode::COUNTER) {
        plan.counter = true;
        plan.total = isSetMask ? (bits != nullptr ? bits[0] : count) : core.maskLow;
        plan.repeats = static_cast<uint32_t>((plan.total + lanes - 1) / lanes);
        return plan;
    }
    if (repeatTime > AscendC::MAX_REPEAT_TIMES) {
        Trap(api, "repeatTime " + std::to_string(repeatTime) + " exceeds 255: split the call");
    }
    plan.repeats = repeatTime;
    if (!isSetMask) {
        plan.low = core.maskLow;
        plan.high = core.maskHigh;
    } else if (bits != nullptr) {
        plan.low = bits[0];
        plan.high = bits[1];
    } else {
        if (count == 0 || count > lanes) {
            Trap(api, "mask " + std::to_string(count) + " is outside 1.." + std::to_string(lanes) +
                          " (lanes of one repeat for " + std::to_string(sizeof(T)) +
                          "-byte elements)");
        }
        plan.low = count >= 64 ? ~0ULL : ((1ULL << count) - 1);
        plan.high = count >= 128 ? ~0ULL : (count <= 64 ? 0 : ((1ULL << (count - 64)) - 1));
    }
    if (lanes <= 64) {
        plan.high = 0;
        if (lanes < 64) plan.low &= (1ULL << lanes) - 1;
    }
    if (plan.low == 0 && plan.high == 0) Trap(api, "the mask selects no lane");
    return plan;
}

// Element index of lane `element` of block `block` in repeat `repeat`.
template <typename T>
__aicore__ inline uint64_t LaneIndex(uint32_t repeat, uint32_t block, uint32_t element,
                                     uint32_t blockStride, uint32_t repeatStride) {
    return (static_cast<uint64_t>(repeat) * repeatStride +
            static_cast<uint64_t>(block) * blockStride) *
               kBlockElements<T> +
           element;
}

// Calls visit(repeat, block, element) for every active lane.
template <typename T, typename Visit>
__aicore__ inline void ForEachActiveLane(const RepeatPlan& plan, Visit&& visit) {
    constexpr uint32_t perBlock = kBlockElements<T>;
    constexpr uint32_t lanes = kRepeatLanes<T>;
    for (uint32_t r = 0; r < plan.repeats; ++r) {
        for (uint32_t b = 0; b < AscendC::DEFAULT_BLK_NUM; ++b) {
            for (uint32_t e = 0; e < perBlock; ++e) {
                if (plan.Active(r, b * perBlock + e, lanes)) visit(r, b, e);
            }
        }
    }
}

// An operand of a level-0 call: checked element access by lane. The lanes touched are known
// once the instruction has run: the span up to the farthest one is checked against the other
// pipes (kernel_pipe_hazard.h) when the operand goes out of scope, an operand named "dst" as a
// write.
template <typename T>
struct StridedOperand {
    const char* api;
    const char* role;
    T* data;
    uint64_t limit;  // elements from data to the buffer's end
    uint32_t blockStride;
    uint32_t repeatStride;
    mutable uint64_t reach = 0;  // 1 + the farthest element touched

    __aicore__ StridedOperand(const char* apiIn, const char* roleIn,
                              const AscendC::LocalTensor<T>& tensor, uint32_t blk, uint32_t rep)
        : api(apiIn),
          role(roleIn),
          data(tensor.Data()),
          limit(tensor.BytesToBufferEnd() / sizeof(T)),
          blockStride(blk),
          repeatStride(rep) {
        CheckOperand(api, role, tensor, 0);
    }
    StridedOperand(const StridedOperand&) = delete;
    StridedOperand& operator=(const StridedOperand&) = delete;
    // Throws a KernelTrap for a hazard, unless a trap is already on its way.
    __aicore__ ~StridedOperand() noexcept(false) {
        if (std::uncaught_exceptions() != 0) return;
        const bool write = std::string_view(role) == "dst";
        TrackAccess(api, role, write ? kVectorWrite : kVectorRead, data, reach * sizeof(T));
    }
    __aicore__ T& operator()(uint32_t r, uint32_t b, uint32_t e) const {
        uint64_t index = LaneIndex<T>(r, b, e, blockStride, repeatStride);
        if (index >= reach) reach = index + 1;
        if (index >= limit) {
            Trap(api, std::string(role) + " lane of repeat " + std::to_string(r) + ", block " +
                          std::to_string(b) + " is element " + std::to_string(index) +
                          ", past the " + std::to_string(limit) +
                          " elements of its buffer: check mask, repeatTime and strides");
        }
        return data[index];
    }
};

__aicore__ inline uint32_t CheckedCount(const char* api, int64_t count) {
    if (count < 0) Trap(api, "count " + std::to_string(count) + " is negative");
    return static_cast<uint32_t>(count);
}

}  // namespace openacl::ascendc

#endif  // OPENACL_ASCENDC_KERNEL_VEC_COMMON_H_
