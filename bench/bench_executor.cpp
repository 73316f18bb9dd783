// CPU stream executor speed. Targets (median, 2-core machine):
//   Submit of an empty task            <= 0.3 us
//   Submit + Wait round trip           <= 2 us
//   two queues of 1 ms tasks vs. one   <= 1.1x the time
//   8 idle queues                      < 1% of a core
// Run with --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
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

}  // namespace
}  // namespace openacl::cpu

BENCHMARK_MAIN();
