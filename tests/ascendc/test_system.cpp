// Synchronisation bookkeeping and system functions.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "block_runner.h"

namespace {

using namespace AscendC;

struct TilingData {
    uint32_t length;
    float scale;
};

TEST(AscendcSystem, BlockIndicesAgreeAcrossTheirSpellings) {
    std::vector<int64_t> seen(6, -1);
    auto failure = openacl::test::RunBlocks(6, [&] {
        if (AscendC::GetBlockIdx() != ::GetBlockIdx() || block_idx != GetBlockIdx() ||
            block_num != 6 || GetBlockNum() != 6) {
            KernelTrap("block index spellings disagree");
        }
        seen[GetBlockIdx()] =
            GetBlockIdx() + GetSubBlockIdx() * 100 + (GetSubBlockNum() - 1) + (GetTaskRation() - 1);
    });
    ASSERT_EQ(failure, "");
    for (int64_t i = 0; i < 6; ++i)
        EXPECT_EQ(seen[i], i);
}

TEST(AscendcSystem, GetTilingDataCopiesTheStructFromGm) {
    TilingData host{1234, 0.5f};
    openacl::test::RunOneBlock([&] {
        GM_ADDR tiling = reinterpret_cast<GM_ADDR>(&host);
        GET_TILING_DATA(tilingData, tiling);
        EXPECT_EQ(tilingData.length, 1234U);
        EXPECT_EQ(tilingData.scale, 0.5f);
        GET_TILING_DATA_MEMBER(TilingData, scale, scaleOnly, tiling);
        EXPECT_EQ(scaleOnly, 0.5f);
    });
}

TEST(AscendcSystem, KernelTaskTypeDecidesTheCoreType) {
    openacl::test::RunOneBlock([] {
        EXPECT_TRUE(ASCEND_IS_AIV);
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
        EXPECT_TRUE(ASCEND_IS_AIC);
        EXPECT_FALSE(ASCEND_IS_AIV);
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
        EXPECT_TRUE(ASCEND_IS_AIV);
    });
}

TEST(AscendcSystem, EventIdsAllocateAndRelease) {
    openacl::test::RunOneBlock([] {
        TPipe pipe;
        TEventID first = pipe.AllocEventID<HardEvent::V_MTE3>();
        TEventID second = pipe.AllocEventID<HardEvent::V_MTE3>();
        EXPECT_NE(first, second);
        EXPECT_EQ(pipe.FetchEventID<HardEvent::V_MTE3>(), 2);
        pipe.ReleaseEventID<HardEvent::V_MTE3>(first);
        EXPECT_EQ(pipe.FetchEventID(HardEvent::V_MTE3), first);
        SetFlag<HardEvent::V_MTE3>(second);
        PipeBarrier<PIPE_ALL>();
        EXPECT_NE(openacl::ascendc::UnpairedFlags(), "");
        WaitFlag<HardEvent::V_MTE3>(second);
        EXPECT_EQ(openacl::ascendc::UnpairedFlags(), "");
    });
}

TEST(AscendcSystem, SystemCycleIsMonotonic) {
    int64_t before = GetSystemCycle();
    int64_t after = GetSystemCycle();
    EXPECT_LE(before, after);
}

TEST(AscendcSystem, PrintfFormatsHalfAsFloat) {
    testing::internal::CaptureStdout();
    AscendC::printf("value %f count %d\n", half(1.5f), 7);
    PRINTF("%s\n", "done");
    std::fflush(stdout);
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "value 1.500000 count 7\ndone\n");
}

}  // namespace
