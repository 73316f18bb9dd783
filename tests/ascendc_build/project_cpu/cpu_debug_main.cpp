// CANN's CPU-debug host interface on openacl (tikicpulib.h): ICPU_RUN_KF, GmAlloc/GmFree,
// SetKernelMode and ICPU_SET_TILING_KEY, in a program that never calls aclInit, and in one that
// uses AscendCL as well. Each test runs in its own process (ctest), so "no aclInit" holds.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tikicpulib.h"

struct ProbeTiling {
    int32_t add;
    int32_t multiply;
};
extern "C" __global__ __aicore__ void count_blocks(GM_ADDR counter, GM_ADDR out);
extern "C" __global__ __aicore__ void fail_in_block(GM_ADDR out, uint32_t failing);
extern "C" __global__ __aicore__ void core_kind(GM_ADDR out);
extern "C" __global__ __aicore__ void tiling_branch(GM_ADDR out);
extern "C" __global__ __aicore__ void affine(GM_ADDR out, uint32_t n, ProbeTiling tiling,
                                             float scale);
extern "C" __global__ __aicore__ void same_tile_everywhere(GM_ADDR out);

namespace {

constexpr uint32_t kBlocks = 8;

// GmAlloc'd int32 elements, zeroed.
int32_t* Ints(size_t count) {
    auto* p = static_cast<int32_t*>(AscendC::GmAlloc(count * sizeof(int32_t)));
    if (p != nullptr) std::memset(p, 0, count * sizeof(int32_t));
    return p;
}

TEST(CpuDebug, IcpuRunKfRunsEveryBlockAtOnceAndReturnsWhenTheyAreDone) {
    int32_t* counter = Ints(1);
    int32_t* out = Ints(kBlocks);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(ICPU_RUN_KF(count_blocks, kBlocks, counter, out), 0);
    for (uint32_t b = 0; b < kBlocks; ++b)
        EXPECT_EQ(out[b], static_cast<int32_t>(kBlocks)) << "block " << b;
    AscendC::GmFree(counter);
    AscendC::GmFree(out);
}

TEST(CpuDebug, AFailingBlockIsReportedWithTheKernelTheBlockAndTheMessage) {
    int32_t* out = Ints(kBlocks);
    ::testing::internal::CaptureStderr();
    const int rc = ICPU_RUN_KF(fail_in_block, kBlocks, out, 5u);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(rc, 0);
    EXPECT_NE(err.find("ICPU_RUN_KF(fail_in_block, 8 blocks) failed"), std::string::npos) << err;
    EXPECT_NE(err.find("block 5 of 8"), std::string::npos) << err;
    EXPECT_NE(err.find("block 5 was told to fail"), std::string::npos) << err;
    AscendC::GmFree(out);
}

TEST(CpuDebug, AicModeRunsEveryBlockAsACubeCoreAndAivModeAsAVectorCore) {
    int32_t* out = Ints(kBlocks);
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ASSERT_EQ(ICPU_RUN_KF(core_kind, kBlocks, out), 0);
    for (uint32_t b = 0; b < kBlocks; ++b)
        EXPECT_EQ(out[b], 1) << "block " << b;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ASSERT_EQ(ICPU_RUN_KF(core_kind, kBlocks, out), 0);
    for (uint32_t b = 0; b < kBlocks; ++b)
        EXPECT_EQ(out[b], 2) << "block " << b;
    AscendC::GmFree(out);
}

TEST(CpuDebug, TilingKeySelectsTheKernelsBranch) {
    int32_t* out = Ints(kBlocks);
    ICPU_SET_TILING_KEY(2);
    ASSERT_EQ(ICPU_RUN_KF(tiling_branch, kBlocks, out), 0);
    for (uint32_t b = 0; b < kBlocks; ++b)
        EXPECT_EQ(out[b], 20) << "block " << b;
    ICPU_SET_TILING_KEY(1);
    ASSERT_EQ(ICPU_RUN_KF(tiling_branch, 2, out), 0);
    EXPECT_EQ(out[0], 10);
    EXPECT_EQ(out[1], 10);
    EXPECT_EQ(out[2], 20) << "a block the second launch did not have";
    AscendC::GmFree(out);
}

TEST(CpuDebug, StructParametersTakeAPointerOrAValueAndScalarsTheirValue) {
    constexpr uint32_t n = 100;
    auto* out = static_cast<float*>(AscendC::GmAlloc(n * sizeof(float)));
    auto* tiling = static_cast<ProbeTiling*>(AscendC::GmAlloc(sizeof(ProbeTiling)));
    *tiling = {3, -2};
    ASSERT_EQ(ICPU_RUN_KF(affine, 4, out, n, tiling, 0.5f), 0);
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], static_cast<float>((static_cast<int32_t>(i) + 3) * -2) * 0.5f) << i;
    ASSERT_EQ(ICPU_RUN_KF(affine, 3, out, n, (ProbeTiling{1, 4}), 2.0f), 0);
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], static_cast<float>((static_cast<int32_t>(i) + 1) * 4) * 2.0f) << i;
    AscendC::GmFree(out);
    AscendC::GmFree(tiling);
}

TEST(CpuDebug, BlocksWritingTheSameGlobalMemoryAreReported) {
    // CANN's CPU mode runs blocks one after another, so the last block's tile simply wins; on
    // the chip the blocks race. The launch fails and says which blocks wrote what.
    auto* out = static_cast<float*>(AscendC::GmAlloc(16 * sizeof(float)));
    ASSERT_NE(out, nullptr);
    ::testing::internal::CaptureStderr();
    const int rc = ICPU_RUN_KF(same_tile_everywhere, 2, out);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(rc, ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_NE(err.find("blocks 0 and 1 both write the 64 bytes of global memory"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("DataCopy in block 0, DataCopy in block 1"), std::string::npos) << err;
    AscendC::GmFree(out);
}

TEST(CpuDebug, OneBlockWritingItsTileIsNotReported) {
    auto* out = static_cast<float*>(AscendC::GmAlloc(16 * sizeof(float)));
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(ICPU_RUN_KF(same_tile_everywhere, 1, out), 0);
    EXPECT_EQ(out[15], 0.0f);
    AscendC::GmFree(out);
}

TEST(CpuDebug, GmFreeOfAPointerGmAllocDidNotGiveIsReported) {
    int local = 0;
    ::testing::internal::CaptureStderr();
    AscendC::GmFree(&local);
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("is not a block from GmAlloc"), std::string::npos) << err;

    void* block = AscendC::GmAlloc(64);
    ASSERT_NE(block, nullptr);
    AscendC::GmFree(block);
    ::testing::internal::CaptureStderr();
    AscendC::GmFree(block);
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("or it was freed already"), std::string::npos) << err;
}

TEST(CpuDebug, ProgramsUsingAscendclToo) {
    // aclInit, a device, AscendCL memory and copies beside GmAlloc and ICPU_RUN_KF.
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* counter = nullptr;
    ASSERT_EQ(aclrtMalloc(&counter, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(counter, sizeof(int32_t), 0, sizeof(int32_t)), ACL_SUCCESS);
    int32_t* out = Ints(kBlocks);
    ASSERT_EQ(ICPU_RUN_KF(count_blocks, kBlocks, counter, out), 0);
    std::vector<int32_t> copied(kBlocks);
    ASSERT_EQ(aclrtMemcpy(copied.data(), kBlocks * sizeof(int32_t), out, kBlocks * sizeof(int32_t),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS)
        << "GmAlloc memory is memory AscendCL copies from";
    for (int32_t v : copied)
        EXPECT_EQ(v, static_cast<int32_t>(kBlocks));
    AscendC::GmFree(out);
    EXPECT_EQ(aclrtFree(counter), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
