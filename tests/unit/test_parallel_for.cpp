// Executor::ParallelFor: one task's blocks spread over the executor's workers. Every index runs
// exactly once, blocks really run on several threads at once (also when the helpers were
// asleep), concurrent launches on several queues all complete, failures and timeouts stop the
// launch and name the block, and the call works only from the executor's own tasks. Every
// blocking step is bounded so a broken executor fails instead of hanging.
//
// ThreadSanitizer, quickest without a CMake tree (from the repository root):
//   g++ -std=c++20 -O1 -g -fsanitize=thread -Iinclude -Isrc src/backend/cpu/*.cpp
//       tests/unit/test_parallel_for.cpp tests/unit/test_executor.cpp -lgtest -lgtest_main
//       -o /tmp/pf_tsan && /tmp/pf_tsan
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "backend/cpu/executor.h"

namespace openacl::cpu {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
constexpr auto kTestLimit = std::chrono::nanoseconds(10s);

ExecutorOptions Workers(unsigned n,
                        std::chrono::microseconds spin = std::chrono::microseconds(50)) {
    ExecutorOptions o;
    o.workers = n;
    o.spin = spin;
    return o;
}

// Submits a task that runs ParallelFor(n, f, options) on q's executor, waits for it and returns
// what ParallelFor returned.
template <class F>
ParallelStatus Launch(Executor& ex, Queue* q, uint32_t n, F& f,
                      const ParallelOptions& options = {}) {
    ParallelStatus st;
    st.kind = ParallelStatus::Kind::kRejected;
    ex.Submit(q, MakeTask([ex = &ex, st = &st, n, f = &f, o = &options] {
                  *st = ex->ParallelFor(n, *f, *o);
              }));
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    return st;
}

// Every block announces itself, then waits (bounded) until `parties` blocks have arrived: all
// arrive only if that many run at the same time.
struct Rendezvous {
    explicit Rendezvous(uint32_t parties) : parties(parties) {}
    const uint32_t parties;
    std::atomic<uint32_t> arrived{0};
    std::atomic<uint32_t> met{0};
    std::atomic<uint64_t> workers_seen{0};  // bit per ctx.worker()

    void operator()(const BlockContext& ctx, uint32_t) {
        workers_seen.fetch_or(uint64_t{1} << ctx.worker());
        arrived.fetch_add(1);
        const auto deadline = Clock::now() + 5s;
        while (arrived.load() < parties && Clock::now() < deadline)
            std::this_thread::yield();
        if (arrived.load() >= parties) met.fetch_add(1);
    }
};

// ---- Coverage of the index space ------------------------------------------------------------

TEST(ParallelFor, EveryIndexRunsExactlyOnce) {
    const uint32_t sizes[] = {0, 1, 2, 3, 5, 7, 8, 31, 64, 100, 1000, 4097, 100003};
    for (unsigned workers : {1u, 2u, 3u, 4u}) {
        Executor ex(Workers(workers));
        Queue* q = ex.CreateQueue();
        for (uint32_t n : sizes) {
            for (uint32_t grain : {0u, 1u, 3u, 64u}) {
                std::vector<std::atomic<uint32_t>> runs(n);
                std::atomic<uint32_t> bad_ctx{0};
                auto block = [&](const BlockContext& ctx, uint32_t i) {
                    if (ctx.num_blocks() != n || ctx.worker() >= workers || ctx.cancelled())
                        bad_ctx.fetch_add(1);
                    runs[i].fetch_add(1, std::memory_order_relaxed);
                };
                ParallelOptions o;
                o.grain = grain;
                const ParallelStatus st = Launch(ex, q, n, block, o);
                ASSERT_TRUE(st.ok()) << "workers " << workers << " n " << n << " grain " << grain;
                EXPECT_EQ(st.blocks_run, n);
                EXPECT_EQ(bad_ctx.load(), 0u);
                uint32_t wrong = 0;
                for (auto& r : runs)
                    wrong += r.load() != 1;
                EXPECT_EQ(wrong, 0u) << "workers " << workers << " n " << n << " grain " << grain;
            }
        }
    }
}

// Plain (non-atomic) writes by the blocks, read by the task after the call and rewritten by the
// next launch's blocks on other threads: ThreadSanitizer checks that ParallelFor orders them.
TEST(ParallelFor, BlockWritesAreVisibleToTheCallerAndToTheNextLaunch) {
    Executor ex(Workers(4));
    Queue* q = ex.CreateQueue();
    constexpr uint32_t kN = 512;
    std::vector<uint32_t> data(kN, 0);
    std::atomic<uint32_t> wrong{0};
    constexpr uint32_t kLaunches = 200;
    for (uint32_t round = 1; round <= kLaunches; ++round) {
        ex.Submit(q, MakeTask([&ex, &data, &wrong, round] {
                      auto block = [&data, round](uint32_t i) {
                          if (data[i] != round - 1) data[i] = UINT32_MAX;  // poisons the check
                          data[i] = round;
                      };
                      EXPECT_TRUE(ex.ParallelFor(kN, block).ok());
                      for (uint32_t v : data)
                          wrong.fetch_add(v != round);
                  }));
    }
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(wrong.load(), 0u);
}

// ---- Real parallelism --------------------------------------------------------------------

TEST(ParallelFor, BlocksRunOnSeveralWorkersAtOnce) {
    Executor ex(Workers(4));
    Queue* q = ex.CreateQueue();
    Rendezvous r(4);
    const ParallelStatus st = Launch(ex, q, 4, r);
    ASSERT_TRUE(st.ok());
    EXPECT_EQ(r.met.load(), 4u) << "the four blocks did not all run at the same time";
    EXPECT_EQ(r.workers_seen.load(), 0b1111u);
}

TEST(ParallelFor, SleepingWorkersAreWokenToHelp) {
    Executor ex(Workers(4, std::chrono::microseconds(0)));  // no spinning: idle workers sleep
    Queue* q = ex.CreateQueue();
    for (int round = 0; round < 20; ++round) {
        std::this_thread::sleep_for(2ms);  // everyone asleep again
        Rendezvous r(4);
        ASSERT_TRUE(Launch(ex, q, 4, r).ok());
        ASSERT_EQ(r.met.load(), 4u) << "round " << round;
    }
}

TEST(ParallelFor, MoreBlocksThanWorkersUseAllOfThem) {
    Executor ex(Workers(3));
    Queue* q = ex.CreateQueue();
    Rendezvous r(3);  // the first three blocks meet; the rest find everyone there already
    ASSERT_TRUE(Launch(ex, q, 300, r).ok());
    EXPECT_EQ(r.met.load(), 300u);
    EXPECT_EQ(r.workers_seen.load(), 0b111u);
}

// ---- Several launches and other queues --------------------------------------------------------

TEST(ParallelFor, SeveralQueuesLaunchingAtOnceAllComplete) {
    for (unsigned workers : {2u, 4u}) {
        Executor ex(Workers(workers));
        constexpr int kQueues = 3, kLaunches = 60;
        struct PerQueue {
            Queue* q;
            std::vector<std::vector<uint8_t>> runs;  // plain: each index has one writer
            std::atomic<uint32_t> failures{0};
        };
        std::vector<std::unique_ptr<PerQueue>> qs;
        std::mt19937 rng(42);
        for (int k = 0; k < kQueues; ++k) {
            auto pq = std::make_unique<PerQueue>();
            pq->q = ex.CreateQueue();
            for (int l = 0; l < kLaunches; ++l)
                pq->runs.emplace_back(rng() % 3000);
            qs.push_back(std::move(pq));
        }
        for (auto& pq : qs) {
            for (auto& runs : pq->runs) {
                ex.Submit(pq->q, MakeTask([&ex, r = &runs, f = &pq->failures] {
                              auto block = [r](uint32_t i) { ++(*r)[i]; };
                              if (!ex.ParallelFor(static_cast<uint32_t>(r->size()), block).ok())
                                  f->fetch_add(1);
                          }));
            }
        }
        for (auto& pq : qs)
            ASSERT_TRUE(ex.WaitFor(pq->q, kTestLimit).ok());
        for (auto& pq : qs) {
            EXPECT_EQ(pq->failures.load(), 0u);
            for (auto& runs : pq->runs) {
                for (uint8_t c : runs)
                    ASSERT_EQ(c, 1u);
            }
        }
    }
}

// The launching worker's first grab is its own: helpers start after it. An owner whose blocks
// had all been taken by helpers would only wait for them, holding a worker that other launches
// need (CI once saw two launches of rendezvous blocks stall that way under a sanitizer).
TEST(ParallelFor, TheLaunchingWorkerRunsTheFirstBlockItself) {
    Executor ex(Workers(4, std::chrono::microseconds(2s)));  // helpers spin, ready at once
    Queue* q = ex.CreateQueue();
    for (int round = 0; round < 50; ++round) {
        std::thread::id owner, first;
        ex.Submit(q, MakeTask([&] {
                      owner = std::this_thread::get_id();
                      ParallelOptions one_per_grab;
                      one_per_grab.grain = 1;
                      auto block = [&first](uint32_t i) {
                          if (i == 0) first = std::this_thread::get_id();
                      };
                      EXPECT_TRUE(ex.ParallelFor(64, block, one_per_grab).ok());
                  }));
        ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
        ASSERT_EQ(first, owner) << "round " << round << ": a helper ran block 0";
    }
}

// Two launches whose blocks wait for each other: each needs helpers at the same time as the
// other, so neither may hold all the workers.
TEST(ParallelFor, ConcurrentLaunchesShareTheWorkersWithoutDeadlock) {
    Executor ex(Workers(4));
    Queue* a = ex.CreateQueue();
    Queue* b = ex.CreateQueue();
    Rendezvous r(4);  // two blocks of each launch
    ParallelStatus sa, sb;
    ex.Submit(a, MakeTask([&] { sa = ex.ParallelFor(2, r); }));
    ex.Submit(b, MakeTask([&] { sb = ex.ParallelFor(2, r); }));
    ASSERT_TRUE(ex.WaitFor(a, kTestLimit).ok());
    ASSERT_TRUE(ex.WaitFor(b, kTestLimit).ok());
    EXPECT_TRUE(sa.ok());
    EXPECT_TRUE(sb.ok());
    EXPECT_EQ(r.met.load(), 4u);
}

// The spinning worker takes a launch without a wake-up; when two open while it spins, it takes
// one and wakes a sleeper for the other. (Without that hand-off the second launch's caller ran
// every block alone.) A worker that ran a queue dry spins for the whole of `spin`.
TEST(ParallelFor, TwoLaunchesOpenedWhileOneWorkerSpinsBothGetAHelper) {
    Executor ex(Workers(4, std::chrono::microseconds(2s)));
    Queue* a = ex.CreateQueue();
    Queue* b = ex.CreateQueue();
    Queue* spin = ex.CreateQueue();
    std::atomic<bool> go{false};
    std::atomic<int> waiting{0};
    Rendezvous r(4);  // two blocks of each launch
    ParallelStatus sa, sb;
    auto launch_on_go = [&](ParallelStatus* s) {
        return MakeTask([&, s] {
            waiting.fetch_add(1);
            const auto deadline = Clock::now() + 5s;
            while (!go.load() && Clock::now() < deadline)
                std::this_thread::yield();
            *s = ex.ParallelFor(2, r);
        });
    };
    ex.Submit(a, launch_on_go(&sa));
    ex.Submit(b, launch_on_go(&sb));
    const auto deadline = Clock::now() + 5s;
    while (waiting.load() < 2 && Clock::now() < deadline)
        std::this_thread::sleep_for(50us);
    ex.Submit(spin, MakeTask([] {}));  // its worker now spins; the fourth one sleeps
    ASSERT_TRUE(ex.WaitFor(spin, kTestLimit).ok());
    std::this_thread::sleep_for(1ms);
    go.store(true);
    ASSERT_TRUE(ex.WaitFor(a, kTestLimit).ok());
    ASSERT_TRUE(ex.WaitFor(b, kTestLimit).ok());
    EXPECT_TRUE(sa.ok());
    EXPECT_TRUE(sb.ok());
    EXPECT_EQ(r.met.load(), 4u) << "a launch's caller ran its blocks alone";
}

TEST(ParallelFor, CallerFinishesAloneWhenEveryOtherWorkerIsBusy) {
    Executor ex(Workers(2));
    Queue* busy = ex.CreateQueue();
    Queue* q = ex.CreateQueue();
    std::atomic<bool> release{false}, entered{false};
    ex.Submit(busy, MakeTask([&] {
                  entered.store(true);
                  const auto deadline = Clock::now() + 10s;
                  while (!release.load() && Clock::now() < deadline)
                      std::this_thread::sleep_for(50us);
              }));
    const auto deadline = Clock::now() + 5s;
    while (!entered.load() && Clock::now() < deadline)
        std::this_thread::sleep_for(50us);
    std::atomic<uint64_t> workers_seen{0};
    auto block = [&](const BlockContext& ctx, uint32_t) {
        workers_seen.fetch_or(uint64_t{1} << ctx.worker());
    };
    const ParallelStatus st = Launch(ex, q, 1000, block);
    release.store(true);
    ASSERT_TRUE(ex.WaitFor(busy, kTestLimit).ok());
    EXPECT_TRUE(st.ok());
    EXPECT_EQ(st.blocks_run, 1000u);
    EXPECT_EQ(std::popcount(workers_seen.load()), 1);
}

// A long launch must not keep other queues waiting: helpers go back to a queue that becomes
// ready, and the launch's own worker carries on.
TEST(ParallelFor, HelpersLeaveForQueuesThatBecomeReady) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    Queue* other = ex.CreateQueue();
    constexpr uint32_t kBlocks = 400;  // 1 ms each: at least 200 ms on two workers
    std::atomic<uint32_t> started{0};
    std::atomic<bool> launch_done{false};
    ex.Submit(q, MakeTask([&] {
                  ParallelOptions o;
                  o.grain = 1;
                  auto block = [&](uint32_t) {
                      started.fetch_add(1);
                      std::this_thread::sleep_for(1ms);
                  };
                  EXPECT_TRUE(ex.ParallelFor(kBlocks, block, o).ok());
                  launch_done.store(true);
              }));
    const auto deadline = Clock::now() + 5s;
    while (started.load() < 4 && Clock::now() < deadline)
        std::this_thread::sleep_for(50us);
    std::atomic<bool> ran_during_launch{false};
    ex.Submit(other, MakeTask([&] { ran_during_launch.store(!launch_done.load()); }));
    ASSERT_TRUE(ex.WaitFor(other, kTestLimit).ok());
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_TRUE(ran_during_launch.load());
    EXPECT_EQ(started.load(), kBlocks);
}

// ---- Failures, cancellation and timeouts -------------------------------------------------------

TEST(ParallelFor, AFailingBlockIsReportedWithItsIndexAndLaterBlocksAreSkipped) {
    for (unsigned workers : {1u, 2u, 4u}) {
        Executor ex(Workers(workers));
        Queue* q = ex.CreateQueue();
        constexpr uint32_t kN = 20000;
        std::vector<std::atomic<uint32_t>> runs(kN);
        auto block = [&](uint32_t i) -> int32_t {
            runs[i].fetch_add(1);
            if (i == 10) return 77;
            std::this_thread::sleep_for(20us);
            return 0;
        };
        ParallelOptions o;
        o.grain = 1;
        const ParallelStatus st = Launch(ex, q, kN, block, o);
        ASSERT_TRUE(st.failed()) << "workers " << workers;
        EXPECT_EQ(st.code, 77);
        EXPECT_EQ(st.block, 10u);
        uint32_t ran = 0, twice = 0;
        for (auto& r : runs) {
            ran += r.load() != 0;
            twice += r.load() > 1;
        }
        EXPECT_EQ(twice, 0u);
        EXPECT_EQ(st.blocks_run, ran);
        EXPECT_LT(ran, kN / 2) << "blocks kept starting after the failure";
        if (workers == 1) {
            EXPECT_EQ(ran, 11u);  // in order: 0..10, then nothing
        }
        // The failure is the task's: the queue reports it like any failed task.
        EXPECT_EQ(st.ToTaskStatus(-1, -2).code, 77);
    }
}

TEST(ParallelFor, RunningBlocksSeeTheCancellationAfterAFailure) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    std::atomic<uint32_t> saw_cancel{0};
    Rendezvous both(2);
    auto block = [&](const BlockContext& ctx, uint32_t i) -> int32_t {
        both(ctx, i);  // blocks 0 and 1 run at the same time
        if (i == 0) return 5;
        const auto deadline = Clock::now() + 5s;
        while (!ctx.cancelled() && Clock::now() < deadline)
            std::this_thread::yield();
        saw_cancel.fetch_add(ctx.cancelled());
        return 0;
    };
    const ParallelStatus st = Launch(ex, q, 2, block);
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(st.block, 0u);
    EXPECT_EQ(st.code, 5);
    EXPECT_EQ(saw_cancel.load(), 1u);
}

TEST(ParallelFor, OneOfSeveralFailuresIsReportedConsistently) {
    Executor ex(Workers(4));
    Queue* q = ex.CreateQueue();
    for (int round = 0; round < 50; ++round) {
        auto block = [](uint32_t i) -> int32_t { return static_cast<int32_t>(i) + 1000; };
        const ParallelStatus st = Launch(ex, q, 64, block);
        ASSERT_TRUE(st.failed());
        EXPECT_EQ(st.code, static_cast<int32_t>(st.block) + 1000);
        EXPECT_GE(st.blocks_run, 1u);
        EXPECT_LE(st.blocks_run, 4u);  // one per participant at most
    }
}

TEST(ParallelFor, TimeoutWaitsForRunningBlocksThenReportsIt) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    std::atomic<int> running{0};
    std::atomic<int> running_at_return{-1};
    std::atomic<uint32_t> ran{0};
    auto block = [&](uint32_t) {
        running.fetch_add(1);
        ran.fetch_add(1);
        std::this_thread::sleep_for(30ms);  // ignores cancellation, like most kernels
        running.fetch_sub(1);
    };
    ParallelStatus st;
    const auto start = Clock::now();
    ex.Submit(q, MakeTask([&] {
                  ParallelOptions o;
                  o.timeout = 5ms;
                  st = ex.ParallelFor(16, block, o);
                  running_at_return.store(running.load());
              }));
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_TRUE(st.timed_out());
    EXPECT_EQ(running_at_return.load(), 0) << "returned while blocks were still running";
    EXPECT_GE(Clock::now() - start, 30ms);
    EXPECT_LT(ran.load(), 16u);
    EXPECT_EQ(st.blocks_run, ran.load());
    EXPECT_EQ(st.ToTaskStatus(-1, -2).code, -1);
}

TEST(ParallelFor, CooperativeBlocksStopAtTheTimeout) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    auto block = [](const BlockContext& ctx, uint32_t) -> int32_t {
        const auto deadline = Clock::now() + 5s;
        while (!ctx.cancelled() && Clock::now() < deadline)
            std::this_thread::sleep_for(100us);
        return ctx.cancelled() ? 0 : 9;
    };
    ParallelOptions o;
    o.timeout = 10ms;
    const auto start = Clock::now();
    const ParallelStatus st = Launch(ex, q, 8, block, o);
    EXPECT_TRUE(st.timed_out());
    EXPECT_LT(Clock::now() - start, 2s);
}

TEST(ParallelFor, ATimeoutThatIsNotReachedChangesNothing) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    std::atomic<uint32_t> ran{0};
    auto block = [&](uint32_t) { ran.fetch_add(1); };
    ParallelOptions o;
    o.timeout = 10s;
    EXPECT_TRUE(Launch(ex, q, 1000, block, o).ok());
    o.timeout = std::chrono::nanoseconds::max();  // "forever" must not overflow
    EXPECT_TRUE(Launch(ex, q, 1000, block, o).ok());
    EXPECT_EQ(ran.load(), 2000u);
}

// ---- Where it may be called ----------------------------------------------------------------

TEST(ParallelFor, WorksOnlyFromTheExecutorsOwnTasks) {
    Executor ex(Workers(2));
    Executor other(Workers(2));
    Queue* q = ex.CreateQueue();
    Queue* oq = other.CreateQueue();
    std::atomic<uint32_t> ran{0};
    auto block = [&](uint32_t) { ran.fetch_add(1); };

    EXPECT_EQ(Executor::Current(), nullptr);
    EXPECT_TRUE(ex.ParallelFor(10, block).rejected());  // a host thread
    ParallelStatus from_other;
    Executor* current_in_other = nullptr;
    other.Submit(oq, MakeTask([&] {
                     current_in_other = Executor::Current();
                     from_other = ex.ParallelFor(10, block);  // another executor's worker
                 }));
    ASSERT_TRUE(other.WaitFor(oq, kTestLimit).ok());
    EXPECT_EQ(current_in_other, &other);
    EXPECT_TRUE(from_other.rejected());
    EXPECT_EQ(ran.load(), 0u);
    EXPECT_EQ(from_other.ToTaskStatus(-1, -2).code, -2);

    std::atomic<uint32_t> wrong_current{0};
    auto check = [&](uint32_t) {
        wrong_current.fetch_add(Executor::Current() != &ex);
        ran.fetch_add(1);
    };
    EXPECT_TRUE(Launch(ex, q, 100, check).ok());
    EXPECT_EQ(ran.load(), 100u);
    EXPECT_EQ(wrong_current.load(), 0u);
}

TEST(ParallelFor, NestedCallsRunInlineOnTheBlocksThread) {
    Executor ex(Workers(4));
    Queue* q = ex.CreateQueue();
    constexpr uint32_t kOuter = 16, kInner = 50;
    std::vector<std::atomic<uint32_t>> runs(kOuter * kInner);
    std::atomic<uint32_t> inner_elsewhere{0}, inner_failed{0};
    auto outer = [&](const BlockContext& ctx, uint32_t i) {
        const unsigned me = ctx.worker();
        auto inner = [&, i, me](const BlockContext& c, uint32_t j) {
            inner_elsewhere.fetch_add(c.worker() != me);
            runs[i * kInner + j].fetch_add(1);
        };
        inner_failed.fetch_add(!Executor::Current()->ParallelFor(kInner, inner).ok());
    };
    ASSERT_TRUE(Launch(ex, q, kOuter, outer).ok());
    EXPECT_EQ(inner_failed.load(), 0u);
    EXPECT_EQ(inner_elsewhere.load(), 0u);
    for (auto& r : runs)
        ASSERT_EQ(r.load(), 1u);
}

// ---- Stress --------------------------------------------------------------------------------

TEST(ParallelFor, StressRandomLaunchesOnSeveralQueuesWithOrdinaryTasks) {
    Executor ex(Workers(3));
    constexpr int kQueues = 4, kTasks = 300;
    std::vector<Queue*> qs;
    for (int i = 0; i < kQueues; ++i)
        qs.push_back(ex.CreateQueue());
    std::atomic<uint64_t> blocks{0}, expected{0}, bad{0};
    std::mt19937 rng(7);
    for (int t = 0; t < kTasks; ++t) {
        for (Queue* q : qs) {
            const uint32_t n = rng() % 7 == 0 ? 0 : rng() % 200;
            const uint32_t fail_at = rng() % 5 == 0 ? rng() % (n + 1) : UINT32_MAX;
            expected.fetch_add(fail_at < n ? 0 : n);
            ex.Submit(q, MakeTask([&ex, &blocks, &bad, n, fail_at] {
                          auto block = [&blocks, fail_at](uint32_t i) -> int32_t {
                              if (i == fail_at) return 3;
                              blocks.fetch_add(1, std::memory_order_relaxed);
                              return 0;
                          };
                          const ParallelStatus st = ex.ParallelFor(n, block);
                          const bool should_fail = fail_at < n;
                          if (st.failed() != should_fail || (should_fail && st.block != fail_at))
                              bad.fetch_add(1);
                          if (!should_fail && st.blocks_run != n) bad.fetch_add(1);
                          if (should_fail) blocks.fetch_sub(st.blocks_run - 1);
                      }));
            ex.Submit(q, MakeTask([] {}));
        }
    }
    for (Queue* q : qs)
        ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(bad.load(), 0u);
    EXPECT_EQ(blocks.load(), expected.load());
}

}  // namespace
}  // namespace openacl::cpu
