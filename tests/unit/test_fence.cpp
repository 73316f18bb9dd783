// Asymmetric fences (core/fence.h): a light store on one thread and Heavy() on another order
// Dekker's pattern as two full barriers would, and the asymmetric mode is on wherever the
// kernel offers private expedited membarriers.
#include "core/fence.h"

#include <gtest/gtest.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "backend/cpu/sync.h"

namespace openacl::fence {
namespace {

TEST(Fence, AsymmetricModeIsOnWhereTheKernelOffersExpeditedMembarriers) {
    const long offered = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    bool expected = offered > 0 && (offered & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0;
#if defined(__SANITIZE_THREAD__)
    expected = false;  // ThreadSanitizer cannot see membarrier's ordering: exchanges instead
#endif
    EXPECT_EQ(EnableAsymmetric(), expected);
    EXPECT_EQ(EnableAsymmetric(), expected) << "the mode is decided once";
}

void Delay(int pauses) {
    for (int i = 0; i < pauses; ++i)
        cpu::CpuRelax();
}

// Spins until `ready`, yielding now and then: the suite runs beside other processes, and a
// waiter that shares a CPU with the thread it waits for must let it run. Not cpu::Backoff,
// which yields after 64 spins: yielding that early (tried: every 128 spins) lined the two
// threads' stores up so rarely that a missing membarrier went unseen in some runs.
template <class Ready>
void WaitUntil(Ready ready) {
    for (unsigned i = 1; !ready(); ++i) {
        if (i % 4096 == 0) std::this_thread::yield();
    }
}

// Rounds of the store-buffering litmus test: thread A light-stores x then loads y, thread B
// stores y, calls Heavy() and loads x. Without the fences x86 lets both loads miss the other
// thread's store; with them, at least one load must see it in every round.
TEST(Fence, ALightStoreAndAHeavyBarrierNeverBothMissTheOtherThreadsStore) {
    EnableAsymmetric();
    constexpr int kRounds = 20000;  // or 2 s: beside other processes a round can take a while
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    std::atomic<int> last_round{kRounds};
    std::atomic<uint64_t> x{0}, y{0};
    std::atomic<int> start{0}, done{0};
    std::atomic<uint64_t> seen_by_a{0};
    int both_missed = 0;
    std::thread a([&] {
        for (int round = 1; round <= last_round.load(std::memory_order_relaxed); ++round) {
            WaitUntil([&] { return start.load(std::memory_order_acquire) == round; });
            Delay(round % 7);
            LightStore(x, uint64_t(round));
            seen_by_a.store(y.load(std::memory_order_relaxed), std::memory_order_relaxed);
            done.fetch_add(1, std::memory_order_acq_rel);
        }
    });
    int rounds = 0;
    for (int round = 1; round <= kRounds; ++round) {
        // The last round is announced with its start, so A never waits for one more.
        if (round == kRounds || std::chrono::steady_clock::now() > deadline) {
            last_round.store(round, std::memory_order_relaxed);
        }
        start.store(round, std::memory_order_release);
        // A sees `start` a cache-line transfer later: delays of both sides that vary from
        // round to round line the two stores up in some rounds.
        Delay(round % 61);
        y.store(uint64_t(round));  // sequentially consistent, as Heavy() requires
        Heavy();
        const uint64_t seen_by_b = x.load();
        WaitUntil([&] { return done.load(std::memory_order_acquire) == round; });
        const uint64_t r = static_cast<uint64_t>(round);
        if (seen_by_a.load(std::memory_order_relaxed) != r && seen_by_b != r) ++both_missed;
        rounds = round;
        if (round == last_round.load(std::memory_order_relaxed)) break;
    }
    a.join();
    EXPECT_EQ(both_missed, 0) << "of " << rounds << " rounds";
}

}  // namespace
}  // namespace openacl::fence
