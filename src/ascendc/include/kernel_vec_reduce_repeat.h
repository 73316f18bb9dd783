// Reductions in the mask/repeat form, each over the lanes the mask selects:
//   WholeReduceSum/Max/Min and RepeatReduceSum: one result per repeat (Max/Min also give the
//     index of the first extreme lane inside the repeat, placed as ReduceOrder says);
//   BlockReduceSum/Max/Min: one result per 32-byte block, 8 per repeat;
//   PairReduceSum: one result per two adjacent lanes, lanes / 2 per repeat.
// dstRepStride counts one repeat's results: a value (or a value-index pair, or a uint32 index)
// for the whole reductions, 8 values for BlockReduce, 128 bytes for PairReduce. Sums are taken
// in double and rounded once. A block or pair with no selected lane is not written.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_REDUCE_REPEAT_H_
#define OPENACL_ASCENDC_KERNEL_VEC_REDUCE_REPEAT_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_vec_common.h"
#include "kernel_vec_reduce.h"

namespace AscendC {

enum class ReduceOrder : uint8_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE,
    ORDER_ONLY_VALUE,
    ORDER_ONLY_INDEX,
};

}  // namespace AscendC

namespace openacl::ascendc {

// A destination written element by element: bound, aligned to `alignment`, and each element
// inside the buffer.
template <typename D>
struct ScatteredDst {
    const char* api;
    D* data;
    uint64_t limit;  // elements to the buffer's end

    template <typename T>
    __aicore__ ScatteredDst(const char* apiIn, const AscendC::LocalTensor<T>& tensor,
                            uint32_t alignment)
        : api(apiIn),
          data(reinterpret_cast<D*>(tensor.Data())),
          limit(tensor.BytesToBufferEnd() / sizeof(D)) {
        if (!tensor.IsBound()) {
            Trap(api, "dst has no buffer: take it from AllocTensor, DeQue or TBuf::Get first");
        }
        auto offset = reinterpret_cast<uintptr_t>(tensor.Data()) -
                      reinterpret_cast<uintptr_t>(tensor.BufferBegin());
        if (offset % alignment != 0) {
            Trap(api, "dst starts " + std::to_string(offset) + " bytes into its buffer, not on a " +
                          std::to_string(alignment) + "-byte boundary");
        }
    }
    __aicore__ D& operator[](uint64_t index) const {
        if (index >= limit) {
            Trap(api, "dst element " + std::to_string(index) + " is past the " +
                          std::to_string(limit) +
                          " elements of its buffer: check repeatTime and dstRepStride");
        }
        return data[index];
    }
};

__aicore__ inline uint32_t CheckedRepeatTime(const char* api, int32_t repeatTime) {
    if (repeatTime < 0) Trap(api, "repeatTime " + std::to_string(repeatTime) + " is negative");
    return static_cast<uint32_t>(repeatTime);
}
__aicore__ inline uint32_t CheckedStride(const char* api, const char* name, int32_t stride) {
    if (stride < 0) {
        Trap(api, std::string(name) + " " + std::to_string(stride) + " is negative");
    }
    return static_cast<uint32_t>(stride);
}

// Calls group(repeat, groupIndex, lanesOfGroup...) with the reduction of each group of
// `groupSize` lanes that has a selected lane.
template <typename T, bool isSetMask, typename Reduce>
__aicore__ inline void ReduceGroups(const char* api, const AscendC::LocalTensor<T>& src,
                                    const uint64_t* bits, uint64_t mask, int32_t repeatTime,
                                    int32_t srcBlkStride, int32_t srcRepStride, uint32_t groupSize,
                                    Reduce reduce) {
    uint32_t repeats = CheckedRepeatTime(api, repeatTime);
    RepeatPlan plan = MakePlan<T, isSetMask>(api, bits, mask, repeats);
    StridedOperand<T> s(api, "src", src, CheckedStride(api, "srcBlkStride", srcBlkStride),
                        CheckedStride(api, "srcRepStride", srcRepStride));
    constexpr uint32_t lanes = kRepeatLanes<T>;
    constexpr uint32_t perBlock = kBlockElements<T>;
    for (uint32_t r = 0; r < plan.repeats; ++r) {
        for (uint32_t first = 0; first < lanes; first += groupSize) {
            bool any = false;
            double sum = 0;
            ComputeType<T> best{};
            uint32_t bestLane = 0;
            bool haveMax = false, haveMin = false;
            ComputeType<T> worst{};
            uint32_t worstLane = 0;
            for (uint32_t lane = first; lane < first + groupSize; ++lane) {
                if (!plan.Active(r, lane, lanes)) continue;
                auto v = static_cast<ComputeType<T>>(s(r, lane / perBlock, lane % perBlock));
                any = true;
                sum += static_cast<double>(v);
                if (!haveMax || v > best) {
                    best = v;
                    bestLane = lane - first;
                    haveMax = true;
                }
                if (!haveMin || v < worst) {
                    worst = v;
                    worstLane = lane - first;
                    haveMin = true;
                }
            }
            if (any) reduce(r, first / groupSize, sum, best, bestLane, worst, worstLane);
        }
    }
}

template <typename T>
__aicore__ inline void StoreWholeExtreme(const char* api, const AscendC::LocalTensor<T>& dst,
                                         uint32_t repeat, uint32_t dstRepStride, T value,
                                         uint32_t index, AscendC::ReduceOrder order) {
    using AscendC::ReduceOrder;
    switch (order) {
        case ReduceOrder::ORDER_VALUE_INDEX:
        case ReduceOrder::ORDER_INDEX_VALUE: {
            ScatteredDst<T> d(api, dst, 2 * sizeof(T));
            uint64_t at = uint64_t(repeat) * dstRepStride * 2;
            bool valueFirst = order == ReduceOrder::ORDER_VALUE_INDEX;
            d[at + (valueFirst ? 0 : 1)] = value;
            StoreIndex(&d[at + (valueFirst ? 1 : 0)], index);
            return;
        }
        case ReduceOrder::ORDER_ONLY_VALUE: {
            ScatteredDst<T> d(api, dst, sizeof(T));
            d[uint64_t(repeat) * dstRepStride] = value;
            return;
        }
        case ReduceOrder::ORDER_ONLY_INDEX: {
            ScatteredDst<uint32_t> d(api, dst, sizeof(uint32_t));
            d[uint64_t(repeat) * dstRepStride] = index;
            return;
        }
    }
    Trap(api, "order " + std::to_string(static_cast<int>(order)) + " is not a ReduceOrder");
}

}  // namespace openacl::ascendc

#define OPENACL_WHOLE_REDUCE_EXTREME(Name, useMax)                                            \
    template <typename T, bool isSetMask = true>                                              \
    __aicore__ inline void Name(                                                              \
        const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],          \
        const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
        const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {     \
        namespace oa = openacl::ascendc;                                                      \
        uint32_t stride = oa::CheckedStride(#Name, "dstRepStride", dstRepStride);             \
        oa::ReduceGroups<T, isSetMask>(                                                       \
            #Name, src, mask, 0, repeatTime, srcBlkStride, srcRepStride, oa::kRepeatLanes<T>, \
            [&](uint32_t r, uint32_t, double, auto best, uint32_t bestLane, auto worst,       \
                uint32_t worstLane) {                                                         \
                oa::StoreWholeExtreme(#Name, dst, r, stride,                                  \
                                      static_cast<T>(useMax ? best : worst),                  \
                                      useMax ? bestLane : worstLane, order);                  \
            });                                                                               \
    }                                                                                         \
    template <typename T, bool isSetMask = true>                                              \
    __aicore__ inline void Name(                                                              \
        const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,             \
        const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
        const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {     \
        namespace oa = openacl::ascendc;                                                      \
        uint32_t stride = oa::CheckedStride(#Name, "dstRepStride", dstRepStride);             \
        oa::ReduceGroups<T, isSetMask>(                                                       \
            #Name, src, nullptr, static_cast<uint64_t>(mask < 0 ? 0 : mask), repeatTime,      \
            srcBlkStride, srcRepStride, oa::kRepeatLanes<T>,                                  \
            [&](uint32_t r, uint32_t, double, auto best, uint32_t bestLane, auto worst,       \
                uint32_t worstLane) {                                                         \
                oa::StoreWholeExtreme(#Name, dst, r, stride,                                  \
                                      static_cast<T>(useMax ? best : worst),                  \
                                      useMax ? bestLane : worstLane, order);                  \
            });                                                                               \
    }

// Grouped reductions whose results go to dst[repeat * unitElements * dstRepStride + group].
#define OPENACL_GROUP_REDUCE(Name, groupSize, unitElements, resultExpression)                    \
    template <typename T, bool isSetMask = true>                                                 \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,            \
                                const int32_t repeatTime, const uint64_t mask[],                 \
                                const int32_t dstRepStride, const int32_t srcBlkStride,          \
                                const int32_t srcRepStride) {                                    \
        namespace oa = openacl::ascendc;                                                         \
        uint64_t unit =                                                                          \
            uint64_t(unitElements) * oa::CheckedStride(#Name, "dstRepStride", dstRepStride);     \
        oa::ScatteredDst<T> d(#Name, dst, 32);                                                   \
        oa::ReduceGroups<T, isSetMask>(                                                          \
            #Name, src, mask, 0, repeatTime, srcBlkStride, srcRepStride, groupSize,              \
            [&](uint32_t r, uint32_t g, double sum, auto best, uint32_t, auto worst, uint32_t) { \
                (void)sum, (void)best, (void)worst;                                              \
                d[r * unit + g] = static_cast<T>(resultExpression);                              \
            });                                                                                  \
    }                                                                                            \
    template <typename T, bool isSetMask = true>                                                 \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,            \
                                const int32_t repeatTime, const int32_t mask,                    \
                                const int32_t dstRepStride, const int32_t srcBlkStride,          \
                                const int32_t srcRepStride) {                                    \
        namespace oa = openacl::ascendc;                                                         \
        uint64_t unit =                                                                          \
            uint64_t(unitElements) * oa::CheckedStride(#Name, "dstRepStride", dstRepStride);     \
        oa::ScatteredDst<T> d(#Name, dst, 32);                                                   \
        oa::ReduceGroups<T, isSetMask>(                                                          \
            #Name, src, nullptr, static_cast<uint64_t>(mask < 0 ? 0 : mask), repeatTime,         \
            srcBlkStride, srcRepStride, groupSize,                                               \
            [&](uint32_t r, uint32_t g, double sum, auto best, uint32_t, auto worst, uint32_t) { \
                (void)sum, (void)best, (void)worst;                                              \
                d[r * unit + g] = static_cast<T>(resultExpression);                              \
            });                                                                                  \
    }

namespace AscendC {

// dst[r * dstRepStride] = the sum of repeat r's selected lanes.
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const uint64_t mask[], const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
    namespace oa = openacl::ascendc;
    uint32_t stride = oa::CheckedStride("WholeReduceSum", "dstRepStride", dstRepStride);
    oa::ScatteredDst<T> d("WholeReduceSum", dst, sizeof(T));
    oa::ReduceGroups<T, isSetMask>(
        "WholeReduceSum", src, mask, 0, repeatTime, srcBlkStride, srcRepStride, oa::kRepeatLanes<T>,
        [&](uint32_t r, uint32_t, double sum, auto, uint32_t, auto, uint32_t) {
            d[uint64_t(r) * stride] = static_cast<T>(sum);
        });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const int32_t mask, const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
    namespace oa = openacl::ascendc;
    uint32_t stride = oa::CheckedStride("WholeReduceSum", "dstRepStride", dstRepStride);
    oa::ScatteredDst<T> d("WholeReduceSum", dst, sizeof(T));
    oa::ReduceGroups<T, isSetMask>(
        "WholeReduceSum", src, nullptr, static_cast<uint64_t>(mask < 0 ? 0 : mask), repeatTime,
        srcBlkStride, srcRepStride, oa::kRepeatLanes<T>,
        [&](uint32_t r, uint32_t, double sum, auto, uint32_t, auto, uint32_t) {
            d[uint64_t(r) * stride] = static_cast<T>(sum);
        });
}

// Like WholeReduceSum with a continuous mask; dstBlkStride has no effect.
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                       const int32_t repeatTime, const int32_t mask,
                                       const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride) {
    (void)dstBlkStride;
    WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                 srcRepStride);
}

OPENACL_WHOLE_REDUCE_EXTREME(WholeReduceMax, true)
OPENACL_WHOLE_REDUCE_EXTREME(WholeReduceMin, false)

OPENACL_GROUP_REDUCE(BlockReduceSum, openacl::ascendc::kBlockElements<T>, 8, sum)
OPENACL_GROUP_REDUCE(BlockReduceMax, openacl::ascendc::kBlockElements<T>, 8, best)
OPENACL_GROUP_REDUCE(BlockReduceMin, openacl::ascendc::kBlockElements<T>, 8, worst)
OPENACL_GROUP_REDUCE(PairReduceSum, 2, 128 / sizeof(T), sum)

}  // namespace AscendC

#undef OPENACL_WHOLE_REDUCE_EXTREME
#undef OPENACL_GROUP_REDUCE

#endif  // OPENACL_ASCENDC_KERNEL_VEC_REDUCE_REPEAT_H_
