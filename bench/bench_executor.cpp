// CPU stream executor speed. Targets (median, 2-core machine):
//   Submit of an empty task            <= 0.3 us
//   Submit + Wait round trip           <= 2 us
//   two queues of 1 ms tasks vs. one   <= 1.1x the time
//   8 idle queues                      < 1% of a core
//   Submit + Wait of a task running ParallelFor(1, empty block)   <= 2 us
//   64 compute-bound blocks on all workers vs. serially           >= 90% of perfect scaling
// Run with --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "backend/cpu/event.h"
#include "backend/cpu/executor.h"
#include "backend/cpu/sync.h"

namespace openacl::cpu {
namespace {

constexpr int kBatch = 256;

// Submit cost while a worker drains the same queue concurrently (the usual case: the stream is
// running while the host enqueues more). Timed per batch; the drain between batches is not.
void BM_SubmitEmptyTask(benchmark::State& state) {
    Executor ex;
    Queue* q = ex.CreateQueue();
    const Task empty = MakeTask([] {});
    int64_t ns = 0, n = 0;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            ex.Submit(q, empty);
        const int64_t t = NowNs() - t0;
        ns += t;
        n += kBatch;
        state.SetIterationTime(static_cast<double>(t) * 1e-9);
        ex.Wait(q);
    }
    state.counters["ns_per_submit"] = static_cast<double>(ns) / static_cast<double>(n);
}
BENCHMARK(BM_SubmitEmptyTask)->UseManualTime();

// Submit cost alone: the queue's head task is suspended, so no worker touches the queue.
void BM_SubmitEmptyTaskToParkedQueue(benchmark::State& state) {
    Executor ex;
    Queue* q = ex.CreateQueue();
    const Task empty = MakeTask([] {});
    int64_t ns = 0, n = 0;
    for (auto _ : state) {
        std::atomic<bool> parked{false};
        SuspendToken token;
        ex.Submit(q, MakeTask([&](TaskContext& ctx) {
                      token = ctx.token();
                      parked.store(true);
                      return TaskStatus::Suspended();
                  }));
        while (!parked.load())
            std::this_thread::yield();
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            ex.Submit(q, empty);
        const int64_t t = NowNs() - t0;
        ns += t;
        n += kBatch;
        state.SetIterationTime(static_cast<double>(t) * 1e-9);
        Executor::Complete(token);
        ex.Wait(q);
    }
    state.counters["ns_per_submit"] = static_cast<double>(ns) / static_cast<double>(n);
}
BENCHMARK(BM_SubmitEmptyTaskToParkedQueue)->UseManualTime();

// Host enqueues one empty task and waits for it (launch + synchronize latency).
void BM_SubmitWaitRoundTrip(benchmark::State& state) {
    Executor ex;
    Queue* q = ex.CreateQueue();
    const Task empty = MakeTask([] {});
    for (auto _ : state) {
        ex.Submit(q, empty);
        ex.Wait(q);
    }
}
BENCHMARK(BM_SubmitWaitRoundTrip);

// Record an event on one queue, make another wait for it, synchronize the second.
void BM_EventRecordWaitAcrossQueues(benchmark::State& state) {
    Executor ex;
    Queue* a = ex.CreateQueue();
    Queue* b = ex.CreateQueue();
    Event* ev = Event::Create();
    const Task empty = MakeTask([] {});
    for (auto _ : state) {
        ex.Submit(a, empty);
        ev->Record(a);
        ev->EnqueueWait(b);
        ex.Submit(b, empty);
        ex.Wait(b);
    }
    ex.Wait(a);
    ev->Release();
}
BENCHMARK(BM_EventRecordWaitAcrossQueues);

void BusyFor(int64_t ns) {
    const int64_t end = NowNs() + ns;
    while (NowNs() < end) {
    }
}

// Runs `queues` queues of `tasks` 1 ms tasks each and returns the wall time in seconds.
double RunQueuesOf1msTasks(Executor& ex, const std::vector<Queue*>& qs, int tasks) {
    const int64_t t0 = NowNs();
    for (int i = 0; i < tasks; ++i) {
        for (Queue* q : qs)
            ex.Submit(q, MakeTask([] { BusyFor(1'000'000); }));
    }
    for (Queue* q : qs)
        ex.Wait(q);
    return static_cast<double>(NowNs() - t0) * 1e-9;
}

// The same work on plain threads: what the machine itself allows (a busy neighbour on a
// shared 2-core box shows up here as a ratio above 1 too).
double RunThreadsOf1msTasks(int threads, int tasks) {
    const int64_t t0 = NowNs();
    std::vector<std::thread> ts;
    for (int i = 0; i < threads; ++i) {
        ts.emplace_back([tasks] {
            for (int k = 0; k < tasks; ++k)
                BusyFor(1'000'000);
        });
    }
    for (auto& t : ts)
        t.join();
    return static_cast<double>(NowNs() - t0) * 1e-9;
}

// Two queues of 1 ms tasks on two workers should take as long as one queue.
void BM_TwoQueuesOf1msTasksVsOne(benchmark::State& state) {
    constexpr int kTasks = 20;
    ExecutorOptions o;
    o.workers = 2;
    Executor ex(o);
    Queue* a = ex.CreateQueue();
    Queue* b = ex.CreateQueue();
    double one = 0, two = 0, threads_one = 0, threads_two = 0;
    for (auto _ : state) {
        one += RunQueuesOf1msTasks(ex, {a}, kTasks);
        two += RunQueuesOf1msTasks(ex, {a, b}, kTasks);
        state.PauseTiming();
        threads_one += RunThreadsOf1msTasks(1, kTasks);
        threads_two += RunThreadsOf1msTasks(2, kTasks);
        state.ResumeTiming();
    }
    const double iters = static_cast<double>(state.iterations());
    state.counters["one_queue_ms"] = one / iters * 1e3;
    state.counters["two_queues_ms"] = two / iters * 1e3;
    state.counters["ratio"] = two / one;
    state.counters["plain_threads_ratio"] = threads_two / threads_one;
}
BENCHMARK(BM_TwoQueuesOf1msTasksVsOne)->Iterations(5)->Unit(benchmark::kMillisecond);

double ProcessCpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

// CPU used by an executor with 8 queues that have gone idle, over one second.
void BM_IdleCpuOf8Queues(benchmark::State& state) {
    Executor ex;
    std::vector<Queue*> qs;
    for (int i = 0; i < 8; ++i)
        qs.push_back(ex.CreateQueue());
    double percent = 0;
    for (auto _ : state) {
        for (Queue* q : qs)
            ex.Submit(q, MakeTask([] {}));
        ex.WaitAll();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));  // past the spin budget
        const double cpu0 = ProcessCpuSeconds();
        const int64_t t0 = NowNs();
        std::this_thread::sleep_for(std::chrono::seconds(1));
        percent = 100.0 * (ProcessCpuSeconds() - cpu0) / (static_cast<double>(NowNs() - t0) * 1e-9);
    }
    state.counters["cpu_percent"] = percent;
}
BENCHMARK(BM_IdleCpuOf8Queues)->Iterations(1)->Unit(benchmark::kMillisecond);

// ---- ParallelFor ----------------------------------------------------------------------------

// A kernel launch of one empty block: the task, ParallelFor and the round trip around them.
void BM_ParallelFor1RoundTrip(benchmark::State& state) {
    Executor ex;
    Queue* q = ex.CreateQueue();
    const Task launch =
        MakeTask([ex = &ex] { benchmark::DoNotOptimize(ex->ParallelFor(1, [](uint32_t) {})); });
    for (auto _ : state) {
        ex.Submit(q, launch);
        ex.Wait(q);
    }
}
BENCHMARK(BM_ParallelFor1RoundTrip);

// The same with one empty block per worker, one per grab: what dealing blocks out costs
// (posting the job, a helper joining, the caller waiting for it).
void BM_ParallelForOneBlockPerWorkerRoundTrip(benchmark::State& state) {
    Executor ex;
    Queue* q = ex.CreateQueue();
    const Task launch = MakeTask([ex = &ex] {
        ParallelOptions o;
        o.grain = 1;
        benchmark::DoNotOptimize(ex->ParallelFor(
            ex->worker_count(), [](uint32_t) {}, o));
    });
    for (auto _ : state) {
        ex.Submit(q, launch);
        ex.Wait(q);
    }
    state.counters["workers"] = ex.worker_count();
}
BENCHMARK(BM_ParallelForOneBlockPerWorkerRoundTrip);

// A compute-bound block: `rounds` dependent multiply-xorshift steps, all in registers.
uint64_t ComputeBlock(uint64_t seed, uint64_t rounds) {
    uint64_t x = seed | 1;
    for (uint64_t i = 0; i < rounds; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x *= 0x9E3779B97F4A7C15ull;
    }
    return x;
}

// Rounds that take about `ns` on this machine.
uint64_t CalibrateRounds(int64_t ns) {
    uint64_t rounds = 1 << 16;
    for (;;) {
        const int64_t t0 = NowNs();
        benchmark::DoNotOptimize(ComputeBlock(1, rounds));
        const int64_t t = NowNs() - t0;
        if (t > 2'000'000) return std::max<uint64_t>(1, rounds * static_cast<uint64_t>(ns) / t);
        rounds *= 2;
    }
}

// 64 compute-bound blocks of ~100 us: on all workers (one block per grab) vs. the same launch
// run serially on one worker (grain 64). efficiency_pct = speedup / workers; the same split on
// plain threads shows what the machine itself allows.
void BM_ParallelFor64ComputeBlocksScaling(benchmark::State& state) {
    constexpr uint32_t kBlocks = 64;
    Executor ex;
    Queue* q = ex.CreateQueue();
    const unsigned workers = ex.worker_count();
    const uint64_t rounds = CalibrateRounds(100'000);
    std::vector<uint64_t> out(kBlocks * 8);  // a cache line per block
    auto run = [&](uint32_t grain) {
        const int64_t t0 = NowNs();
        ex.Submit(q, MakeTask([ex = &ex, out = out.data(), rounds, grain] {
                      ParallelOptions o;
                      o.grain = grain;
                      ex->ParallelFor(
                          kBlocks,
                          [out, rounds](uint32_t i) { out[i * 8] = ComputeBlock(i, rounds); }, o);
                  }));
        ex.Wait(q);
        return static_cast<double>(NowNs() - t0) * 1e-9;
    };
    auto plain = [&](unsigned threads) {
        const int64_t t0 = NowNs();
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < threads; ++t) {
            ts.emplace_back([&, t] {
                for (uint32_t i = t; i < kBlocks; i += threads)
                    out[i * 8] = ComputeBlock(i, rounds);
            });
        }
        for (auto& t : ts)
            t.join();
        return static_cast<double>(NowNs() - t0) * 1e-9;
    };
    run(1);  // warm-up
    std::vector<double> serial, parallel, plain1, plainn;
    for (auto _ : state) {
        serial.push_back(run(kBlocks));
        parallel.push_back(run(1));
        state.PauseTiming();
        plain1.push_back(plain(1));
        plainn.push_back(plain(workers));
        state.ResumeTiming();
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const double speedup = median(serial) / median(parallel);
    state.counters["workers"] = workers;
    state.counters["serial_ms"] = median(serial) * 1e3;
    state.counters["parallel_ms"] = median(parallel) * 1e3;
    state.counters["speedup"] = speedup;
    state.counters["efficiency_pct"] = 100.0 * speedup / workers;
    state.counters["plain_threads_speedup"] = median(plain1) / median(plainn);
    benchmark::DoNotOptimize(out.data());
}
BENCHMARK(BM_ParallelFor64ComputeBlocksScaling)->Iterations(30)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace openacl::cpu

BENCHMARK_MAIN();
