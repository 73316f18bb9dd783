// Co-resident blocks (backend/cpu/block_threads): every block of a launch on a thread of its own,
// at once, so blocks can wait for one another; the launcher runs the last one itself.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "backend/cpu/block_threads.h"

namespace openacl::cpu {
namespace {

struct Seen {
    std::mutex mutex;
    std::set<std::thread::id> threads;
    std::thread::id lastBlock;
    std::atomic<uint32_t> passed{0};
};

int32_t RecordAndMeet(const BlockContext& ctx, uint32_t block, void* arg) {
    auto* seen = static_cast<Seen*>(arg);
    {
        std::lock_guard lock(seen->mutex);
        seen->threads.insert(std::this_thread::get_id());
        if (block == ctx.num_blocks() - 1) seen->lastBlock = std::this_thread::get_id();
    }
    // Only blocks that all run at once get past this.
    if (CoResidentBarrier(0) == BarrierResult::kPassed) seen->passed++;
    return 0;
}

TEST(CoResidentBlocks, EveryBlockRunsAtOnceOnItsOwnThread) {
    Seen seen;
    const ParallelStatus status = RunCoResident(6, RecordAndMeet, &seen, ParallelOptions{});
    EXPECT_FALSE(status.failed());
    EXPECT_EQ(seen.passed.load(), 6u) << "every block passed the all-block barrier";
    EXPECT_EQ(seen.threads.size(), 6u);
}

TEST(CoResidentBlocks, TheLauncherRunsTheLastBlockItself) {
    Seen seen;
    RunCoResident(3, RecordAndMeet, &seen, ParallelOptions{});
    EXPECT_EQ(seen.lastBlock, std::this_thread::get_id());
    Seen single;
    RunCoResident(1, RecordAndMeet, &single, ParallelOptions{});
    EXPECT_EQ(single.threads, std::set<std::thread::id>{std::this_thread::get_id()})
        << "a one-block launch crosses no thread";
    EXPECT_EQ(single.passed.load(), 1u);
}

int32_t FailBlockOne(const BlockContext&, uint32_t block, void*) {
    return block == 1 ? 507015 : 0;
}

TEST(CoResidentBlocks, AFailingBlockFailsTheLaunchWithItsCode) {
    const ParallelStatus status = RunCoResident(4, FailBlockOne, nullptr, ParallelOptions{});
    ASSERT_TRUE(status.failed());
    EXPECT_EQ(status.code, 507015);
    EXPECT_EQ(status.block, 1u);
}

int32_t ReturnEarlyOrMeet(const BlockContext&, uint32_t block, void* arg) {
    if (block == 0) return 0;  // never reaches the barrier
    auto* result = static_cast<std::atomic<int>*>(arg);
    result->store(static_cast<int>(CoResidentBarrier(0)));
    return 0;
}

TEST(CoResidentBlocks, ABarrierSomeBlockNeverReachesReportsTheMismatch) {
    std::atomic<int> result{-1};
    RunCoResident(2, ReturnEarlyOrMeet, &result, ParallelOptions{});
    EXPECT_EQ(result.load(), static_cast<int>(BarrierResult::kMismatch));
}

TEST(CoResidentBlocks, OutsideALaunchThereIsNoBarrier) {
    EXPECT_EQ(CoResidentBarrier(0), BarrierResult::kNotCoResident);
}

}  // namespace
}  // namespace openacl::cpu
