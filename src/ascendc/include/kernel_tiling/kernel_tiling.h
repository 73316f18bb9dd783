// TCubeTiling: the Matmul tiling the host computes (tiling/tiling_api.h) and the kernel reads
// (lib/matmul_intf.h). Fields, their order and int32 types are CANN's, so a tiling buffer the
// host saves is the struct the kernel copies in word by word.
#ifndef OPENACL_ASCENDC_KERNEL_TILING_KERNEL_TILING_H_
#define OPENACL_ASCENDC_KERNEL_TILING_KERNEL_TILING_H_

#include <cstdint>

// X(name) for every field, in order.
// clang-format off
#define OPENACL_TCUBE_TILING_FIELDS(X) \
    X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) \
    X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) X(baseK) X(depthA1) \
    X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder) \
    X(shareMode) X(shareL1Size) X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) \
    X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB) \
    X(dbL0A) X(dbL0B) X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN) \
    X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG) \
    X(BLayoutInfoD) X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG) X(CLayoutInfoS2) \
    X(BatchNum) X(reserved)
// clang-format on

#pragma pack(push, 8)
struct TCubeTiling {
#define OPENACL_TCUBE_TILING_MEMBER(name) int32_t name = 0;
    OPENACL_TCUBE_TILING_FIELDS(OPENACL_TCUBE_TILING_MEMBER)
#undef OPENACL_TCUBE_TILING_MEMBER
};
#pragma pack(pop)

static_assert(sizeof(TCubeTiling) == 50 * sizeof(int32_t));

#endif  // OPENACL_ASCENDC_KERNEL_TILING_KERNEL_TILING_H_
