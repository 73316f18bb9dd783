// Mix kernels: a block runs as one AIC and its AIVs at once, each knowing what it is, and
// CrossCoreSetFlag / CrossCoreWaitFlag order them; a wait nobody answers traps instead of hanging.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "block_runner.h"

namespace {

using namespace AscendC;
using openacl::ascendc::RunMixGroup;
using openacl::test::TrapOf;

struct Seen {
    bool aic;
    int64_t idx, num, sub, ration;
    bool operator<(const Seen& o) const {
        return std::tie(aic, idx, sub) < std::tie(o.aic, o.idx, o.sub);
    }
};

TEST(AscendcMixKernel, ABlockRunsOneAicAndTwoAivsWithTheirIndices) {
    std::mutex mutex;
    std::vector<Seen> seen;
    const std::string failure = RunMixGroup<2>(3, 8, [&] {
        std::lock_guard lock(mutex);
        seen.push_back(
            {ASCEND_IS_AIC, GetBlockIdx(), GetBlockNum(), GetSubBlockIdx(), GetTaskRation()});
    });
    ASSERT_EQ(failure, "");
    ASSERT_EQ(seen.size(), 3u);
    std::sort(seen.begin(), seen.end());
    EXPECT_FALSE(seen[0].aic);
    EXPECT_EQ(std::tie(seen[0].idx, seen[0].num, seen[0].sub, seen[0].ration),
              std::make_tuple(int64_t{6}, int64_t{8}, int64_t{0}, int64_t{2}));
    EXPECT_EQ(std::tie(seen[1].idx, seen[1].num, seen[1].sub, seen[1].ration),
              std::make_tuple(int64_t{7}, int64_t{8}, int64_t{1}, int64_t{2}));
    EXPECT_TRUE(seen[2].aic);
    EXPECT_EQ(std::tie(seen[2].idx, seen[2].num, seen[2].sub, seen[2].ration),
              std::make_tuple(int64_t{3}, int64_t{8}, int64_t{0}, int64_t{1}));
}

TEST(AscendcMixKernel, OneToOneHasOneAiv) {
    std::atomic<int> aics{0}, aivs{0};
    ASSERT_EQ(RunMixGroup<1>(0, 1, [&] { (ASCEND_IS_AIC ? aics : aivs)++; }), "");
    EXPECT_EQ(aics.load(), 1);
    EXPECT_EQ(aivs.load(), 1);
}

TEST(AscendcMixKernel, TheKernelsOwnTaskTypeDoesNotChangeWhatACoreIs) {
    std::atomic<int> aics{0};
    ASSERT_EQ(RunMixGroup<2>(0, 1,
                             [&] {
                                 KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
                                 if (ASCEND_IS_AIC) aics++;
                             }),
              "");
    EXPECT_EQ(aics.load(), 1);
}

TEST(AscendcCrossCore, AnAicSetInModeTwoReleasesEachAiv) {
    int produced = 0;
    std::atomic<int> sawIt{0};
    const std::string failure = RunMixGroup<2>(0, 1, [&] {
        if (ASCEND_IS_AIC) {
            produced = 42;
            CrossCoreSetFlag<2, PIPE_FIX>(3);
        } else {
            CrossCoreWaitFlag(3);
            if (produced == 42) sawIt++;
        }
    });
    ASSERT_EQ(failure, "");
    EXPECT_EQ(sawIt.load(), 2);
}

TEST(AscendcCrossCore, AnAicWaitInModeTwoNeedsEveryAivsSet) {
    std::vector<int> parts(2, 0);
    int sum = -1;
    const std::string failure = RunMixGroup<2>(0, 1, [&] {
        if (ASCEND_IS_AIV) {
            parts[GetSubBlockIdx()] = 10 + static_cast<int>(GetSubBlockIdx());
            CrossCoreSetFlag<2, PIPE_MTE3>(4);
        } else {
            CrossCoreWaitFlag<2, PIPE_FIX>(4);
            sum = parts[0] + parts[1];
        }
    });
    ASSERT_EQ(failure, "");
    EXPECT_EQ(sum, 21);
}

TEST(AscendcCrossCore, ModeOneMakesTheAivsWaitForEachOther) {
    std::vector<int> parts(2, 0);
    std::vector<int> seenByEach(2, -1);
    const std::string failure = RunMixGroup<2>(0, 1, [&] {
        if (ASCEND_IS_AIC) return;
        const int64_t me = GetSubBlockIdx();
        parts[me] = 5 + static_cast<int>(me);
        CrossCoreSetFlag<1, PIPE_MTE3>(7);
        CrossCoreWaitFlag<1, PIPE_MTE3>(7);
        seenByEach[me] = parts[1 - me];
    });
    ASSERT_EQ(failure, "");
    EXPECT_EQ(seenByEach, (std::vector<int>{6, 5}));
}

TEST(AscendcCrossCore, AWaitNoCoreIsLeftToAnswerTrapsInsteadOfHanging) {
    const std::string failure = RunMixGroup<2>(0, 1, [] {
        if (ASCEND_IS_AIC) CrossCoreWaitFlag(5);
    });
    EXPECT_NE(failure.find("AIC of the block: CrossCoreWaitFlag: flag 5 is never set: every other "
                           "core of the block has finished or waits too"),
              std::string::npos)
        << failure;
}

TEST(AscendcCrossCore, CoresWaitingForEachOtherTrapInsteadOfDeadlocking) {
    const std::string failure = RunMixGroup<2>(0, 1, [] {
        CrossCoreWaitFlag(1);  // every core waits first: nobody ever sets
        CrossCoreSetFlag<2, PIPE_FIX>(1);
    });
    EXPECT_NE(failure.find("CrossCoreWaitFlag"), std::string::npos) << failure;
    EXPECT_NE(failure.find("flag 1"), std::string::npos) << failure;
}

TEST(AscendcCrossCore, ModeOneFromTheAicTraps) {
    const std::string failure = RunMixGroup<2>(0, 1, [] {
        if (ASCEND_IS_AIC) CrossCoreSetFlag<1, PIPE_FIX>(2);
    });
    EXPECT_NE(failure.find("mode 1 synchronises the AIVs of a group"), std::string::npos)
        << failure;
}

TEST(AscendcCrossCore, ModeZeroIsNotProvidedInAMixKernel) {
    const std::string failure = RunMixGroup<1>(0, 1, [] {
        if (ASCEND_IS_AIV) CrossCoreSetFlag<0, PIPE_MTE3>(2);
    });
    EXPECT_NE(failure.find("AIV 0 of the block: CrossCoreSetFlag: mode 0 is not provided in a "
                           "mix kernel"),
              std::string::npos)
        << failure;
}

TEST(AscendcCrossCore, ACounterHoldsFifteenSets) {
    const std::string failure = RunMixGroup<1>(0, 1, [] {
        if (ASCEND_IS_AIC) {
            for (int i = 0; i < 16; ++i)
                CrossCoreSetFlag<2, PIPE_FIX>(9);
        }
    });
    EXPECT_NE(failure.find("flag 9 was set 16 times with no CrossCoreWaitFlag taking one"),
              std::string::npos)
        << failure;
}

TEST(AscendcCrossCore, AFlagIdBeyondFifteenTraps) {
    const std::string failure = RunMixGroup<1>(0, 1, [] {
        if (ASCEND_IS_AIC) CrossCoreSetFlag<2, PIPE_FIX>(16);
    });
    EXPECT_NE(failure.find("flag id 16 is outside 0..15"), std::string::npos) << failure;
}

TEST(AscendcCrossCore, ModesOneAndTwoOutsideAMixKernelTrap) {
    auto message = TrapOf([] { CrossCoreSetFlag<2, PIPE_MTE3>(0); });
    EXPECT_NE(message.find("CrossCoreSetFlag: the kernel is not a mix kernel"), std::string::npos)
        << message;
}

TEST(AscendcCrossCore, ModeZeroOutsideAMixKernelNeedsOpenaclsRuntime) {
    // This program does not link libascendcl, whose launches hold mode 0's rounds (the launches
    // themselves: tests/ascendc_build).
    auto message = TrapOf([] { CrossCoreWaitFlag(0); });
    EXPECT_NE(message.find("CrossCoreWaitFlag: mode 0 (every core of the launch) needs openacl's "
                           "runtime"),
              std::string::npos)
        << message;
}

TEST(AscendcCrossCore, SyncAllInAMixKernelTraps) {
    const std::string failure = RunMixGroup<1>(0, 1, [] { SyncAll(); });
    EXPECT_NE(failure.find("SyncAll in a mix kernel (AIC and AIV cores) is not provided"),
              std::string::npos)
        << failure;
}

// ---- IBSet / IBWait (the launches themselves: tests/ascendc_build) ----

// Runs block `block` of `blocks` with a 32-byte UB flag buffer and a GM workspace of `gmInts`
// int32 values; returns the trap's message.
template <class Body>
std::string TrapOfFlagBlock(uint32_t block, uint32_t blocks, uint64_t gmInts, Body body) {
    std::vector<int32_t> gm(gmInts, 0);
    try {
        openacl::test::RunOneBlock(
            [&] {
                TPipe pipe;
                TBuf<TPosition::VECCALC> buf;
                pipe.InitBuffer(buf, 32);
                GlobalTensor<int32_t> sync;
                sync.SetGlobalBuffer(gm.data(), gmInts);
                body(sync, buf.Get<int32_t>());
            },
            block, blocks);
    } catch (const openacl::kernel::KernelTrap& trap) {
        return trap.what();
    }
    return "";
}

TEST(AscendcInterBlockFlags, AGmWorkspaceSmallerThanTheSlotTraps) {
    // Event 2 of block 1 of 4 blocks is slot 9: 80 int32 values are needed.
    const std::string trap = TrapOfFlagBlock(
        0, 4, 72, [](const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub) {
            IBWait(gm, ub, 1, 2);
        });
    EXPECT_NE(trap.find("gmWorkspace holds 72 int32 values"), std::string::npos) << trap;
    EXPECT_NE(trap.find("need 80"), std::string::npos) << trap;
}

TEST(AscendcInterBlockFlags, ABlockWaitingForItselfTraps) {
    const std::string trap = TrapOfFlagBlock(
        1, 2, 16, [](const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub) {
            IBWait(gm, ub, 1, 0);
        });
    EXPECT_NE(trap.find("is this block"), std::string::npos) << trap;
}

TEST(AscendcInterBlockFlags, ABlockIndexOutsideTheLaunchTraps) {
    const std::string trap = TrapOfFlagBlock(
        0, 2, 64, [](const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub) {
            IBSet(gm, ub, 2, 0);
        });
    EXPECT_NE(trap.find("blockIdx 2 is outside [0, 1]"), std::string::npos) << trap;
}

TEST(AscendcInterBlockFlags, FlagsNeedOpenaclsRuntime) {
    // This test program does not link libascendcl, whose launches the flags live in.
    const std::string trap = TrapOfFlagBlock(
        0, 2, 16, [](const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub) {
            IBSet(gm, ub, 0, 0);
        });
    EXPECT_NE(trap.find("not launched by openacl's runtime"), std::string::npos) << trap;
}

TEST(AscendcInterBlockFlags, FlagsInAMixKernelTrap) {
    std::vector<int32_t> gm(64, 0);
    const std::string failure = RunMixGroup<1>(0, 1, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 32);
        GlobalTensor<int32_t> sync;
        sync.SetGlobalBuffer(gm.data(), gm.size());
        IBSet(sync, buf.Get<int32_t>(), 0, 0);
    });
    EXPECT_NE(failure.find("IBSet in a mix kernel (AIC and AIV cores) is not provided"),
              std::string::npos)
        << failure;
}

}  // namespace
