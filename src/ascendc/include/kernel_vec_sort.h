// Sort primitives of Atlas A2/A3: Sort32 sorts each repeat's 32 scores in descending order with
// their uint32 indices, MrgSort merges up to four sorted lists, Extract splits sorted entries
// back into scores and indices.
//
// A sorted entry is 8 bytes: a float score then its uint32 index, or a half score, 2 bytes of
// padding, then the index. Equal scores keep the order of their lists (lower list first in
// MrgSort, lower position first in Sort32).
#ifndef OPENACL_ASCENDC_KERNEL_VEC_SORT_H_
#define OPENACL_ASCENDC_KERNEL_VEC_SORT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_vec_common.h"

namespace openacl::ascendc {

constexpr uint32_t kSortEntryBytes = 8;
constexpr uint32_t kSort32Elements = 32;

template <typename T>
struct SortEntry {
    T score;
    uint32_t index;
};

template <typename T>
__aicore__ inline SortEntry<T> ReadEntry(const std::byte* at) {
    SortEntry<T> entry;
    std::memcpy(&entry.score, at, sizeof(T));
    std::memcpy(&entry.index, at + 4, sizeof(uint32_t));
    return entry;
}
template <typename T>
__aicore__ inline void WriteEntry(std::byte* at, const SortEntry<T>& entry) {
    std::memset(at, 0, kSortEntryBytes);
    std::memcpy(at, &entry.score, sizeof(T));
    std::memcpy(at + 4, &entry.index, sizeof(uint32_t));
}
template <typename T>
__aicore__ inline bool Before(const SortEntry<T>& a, const SortEntry<T>& b) {
    return static_cast<ComputeType<T>>(a.score) > static_cast<ComputeType<T>>(b.score);
}

template <typename T>
__aicore__ inline uint32_t CheckedSortRepeats(const char* api, int32_t repeatTime) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                  "the sort primitives take half or float scores");
    if (repeatTime < 0 || repeatTime > int32_t(AscendC::MAX_REPEAT_TIMES)) {
        Trap(api, "repeatTime " + std::to_string(repeatTime) + " is outside 0..255");
    }
    return static_cast<uint32_t>(repeatTime);
}

}  // namespace openacl::ascendc

namespace AscendC {

// Elements of T that `elemCount` sorted entries take, and the offset of entry `elemOffset`.
template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
    return elemCount * openacl::ascendc::kSortEntryBytes / sizeof(T);
}
template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    return elemOffset * openacl::ascendc::kSortEntryBytes / sizeof(T);
}

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                              const LocalTensor<uint32_t>& src1, const int32_t repeatTime) {
    namespace oa = openacl::ascendc;
    uint32_t repeats = oa::CheckedSortRepeats<T>("Sort32", repeatTime);
    uint64_t n = uint64_t(repeats) * oa::kSort32Elements;
    oa::CheckOperand("Sort32", "dst", dst, n * oa::kSortEntryBytes, oa::kVectorWrite);
    oa::CheckOperand("Sort32", "src0", src0, n * sizeof(T));
    oa::CheckOperand("Sort32", "src1", src1, n * sizeof(uint32_t));
    auto* out = reinterpret_cast<std::byte*>(dst.Data());
    for (uint32_t r = 0; r < repeats; ++r) {
        oa::SortEntry<T> entries[oa::kSort32Elements];
        for (uint32_t i = 0; i < oa::kSort32Elements; ++i) {
            uint64_t at = uint64_t(r) * oa::kSort32Elements + i;
            entries[i] = {src0.Data()[at], src1.Data()[at]};
        }
        std::stable_sort(entries, entries + oa::kSort32Elements, oa::Before<T>);
        for (uint32_t i = 0; i < oa::kSort32Elements; ++i) {
            oa::WriteEntry(out + (uint64_t(r) * oa::kSort32Elements + i) * oa::kSortEntryBytes,
                           entries[i]);
        }
    }
}

template <typename T>
struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() = default;
    __aicore__ MrgSortSrcList(const LocalTensor<T>& a, const LocalTensor<T>& b,
                              const LocalTensor<T>& c, const LocalTensor<T>& d)
        : src1(a), src2(b), src3(c), src4(d) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

// Merges the lists validBit names (0b11, 0b111 or 0b1111: lists 1..n) of elementCountList[i]
// sorted entries each into dst; sortedNum[i] = the entries taken from list i. With
// isExhaustedSuspension the merge stops when the first list runs out.
template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4],
                               uint16_t validBit, const int32_t repeatTime) {
    namespace oa = openacl::ascendc;
    uint32_t repeats = oa::CheckedSortRepeats<T>("MrgSort", repeatTime);
    if (repeats != 1) {
        oa::Trap("MrgSort", "repeatTime " + std::to_string(repeats) +
                                " is not supported on the CPU yet: merge with repeatTime 1, one "
                                "call per group of lists");
    }
    uint32_t lists = validBit == 0x3 ? 2 : validBit == 0x7 ? 3 : validBit == 0xF ? 4 : 0;
    if (lists == 0) {
        oa::Trap("MrgSort", "validBit " + std::to_string(validBit) +
                                " is not 0b11, 0b111 or 0b1111 (2, 3 or 4 lists)");
    }
    const LocalTensor<T>* sources[4] = {&sortList.src1, &sortList.src2, &sortList.src3,
                                        &sortList.src4};
    const char* roles[4] = {"src1", "src2", "src3", "src4"};
    uint64_t total = 0;
    uint32_t taken[4] = {0, 0, 0, 0};
    for (uint32_t l = 0; l < lists; ++l) {
        oa::CheckOperand("MrgSort", roles[l], *sources[l],
                         uint64_t(elementCountList[l]) * oa::kSortEntryBytes);
        total += elementCountList[l];
    }
    oa::CheckOperand("MrgSort", "dst", dst, total * oa::kSortEntryBytes, oa::kVectorWrite);
    std::vector<std::byte> merged(total * oa::kSortEntryBytes);  // sources may overlap dst
    uint64_t written = 0;
    while (written < total) {
        int best = -1;
        oa::SortEntry<T> bestEntry{};
        for (uint32_t l = 0; l < lists; ++l) {
            if (taken[l] == elementCountList[l]) continue;
            auto entry = oa::ReadEntry<T>(reinterpret_cast<const std::byte*>(sources[l]->Data()) +
                                          uint64_t(taken[l]) * oa::kSortEntryBytes);
            if (best < 0 || oa::Before(entry, bestEntry)) {
                best = static_cast<int>(l);
                bestEntry = entry;
            }
        }
        oa::WriteEntry(merged.data() + written * oa::kSortEntryBytes, bestEntry);
        ++written;
        if (++taken[best] == elementCountList[best] && isExhaustedSuspension) break;
    }
    std::memcpy(dst.Data(), merged.data(), written * oa::kSortEntryBytes);
    for (uint32_t l = 0; l < 4; ++l)
        sortedNum[l] = taken[l];
}

// Splits repeatTime * 32 sorted entries into scores and indices.
template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue,
                               const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
                               const int32_t repeatTime) {
    namespace oa = openacl::ascendc;
    uint32_t repeats = oa::CheckedSortRepeats<T>("Extract", repeatTime);
    uint64_t n = uint64_t(repeats) * oa::kSort32Elements;
    oa::CheckOperand("Extract", "dstValue", dstValue, n * sizeof(T), oa::kVectorWrite);
    oa::CheckOperand("Extract", "dstIndex", dstIndex, n * sizeof(uint32_t), oa::kVectorWrite);
    oa::CheckOperand("Extract", "sorted", sorted, n * oa::kSortEntryBytes);
    const auto* in = reinterpret_cast<const std::byte*>(sorted.Data());
    for (uint64_t i = 0; i < n; ++i) {
        auto entry = oa::ReadEntry<T>(in + i * oa::kSortEntryBytes);
        dstValue.Data()[i] = entry.score;
        dstIndex.Data()[i] = entry.index;
    }
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_SORT_H_
