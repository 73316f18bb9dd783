// The asynchronous engine through the public AscendCL API, next to plain memcpy. bench_pocl runs
// the equivalent OpenCL calls on PoCL; bench/run.sh runs both and prints the ratios.
//
// Targets (medians, 2-core machine):
//   aclrtLaunchHostFunc(empty) / aclrtRecordEvent enqueue          <= 0.3 us
//   aclrtLaunchHostFunc(empty) + aclrtSynchronizeStream           <= 2 us
//   aclrtLaunchCallback -> aclrtProcessReport -> callback runs    <= 5 us
//   64 MiB aclrtMemcpyAsync H2D/D2H/D2D + synchronize             >= 0.95x memcpy's speed
//   two streams of 1 ms host functions vs one stream              <= 1.1x the time
//   runtime with 8 idle streams                                   < 1% of a core
#include <benchmark/benchmark.h>
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "bench_common.h"

namespace {

using bench::kBatch;
using bench::kCopyBytes;
using bench::NowNs;

constexpr int kReps = 10;  // repetitions per benchmark; the summary reads their median

void Check(aclError rc, const char* what) {
    if (rc != ACL_SUCCESS) {
        const char* msg = aclGetRecentErrMsg();
        std::fprintf(stderr, "%s failed with %d: %s\n", what, rc, msg ? msg : "(no message)");
        std::abort();
    }
}
#define CHECK_ACL(call) Check((call), #call)

void EmptyHostFunc(void*) {}

aclrtStream NewStream() {
    aclrtStream s = nullptr;
    CHECK_ACL(aclrtCreateStream(&s));
    return s;
}

// ---- Enqueue cost ---------------------------------------------------------------------------
// Each iteration enqueues kBatch tasks back to back and reports the time of the batch divided by
// kBatch: the reported time is per enqueue. The stream's worker drains the stream meanwhile (the
// usual situation); the synchronize between batches is not timed.

void BM_LaunchHostFuncEnqueue(benchmark::State& state) {
    aclrtStream s = NewStream();
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            aclrtLaunchHostFunc(s, EmptyHostFunc, nullptr);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        CHECK_ACL(aclrtSynchronizeStream(s));
    }
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchHostFuncEnqueue)
    ->UseManualTime()
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// The same with the stream's worker held by a host function that waits for the batch to be
// enqueued: pure enqueue cost, no worker touching the stream concurrently.
void BM_LaunchHostFuncEnqueueBusyStream(benchmark::State& state) {
    aclrtStream s = NewStream();
    std::atomic<int> gate{0};
    auto hold = [](void* arg) {
        auto* g = static_cast<std::atomic<int>*>(arg);
        g->store(1);
        while (g->load() != 2) {
        }
    };
    for (auto _ : state) {
        gate.store(0);
        CHECK_ACL(aclrtLaunchHostFunc(s, hold, &gate));
        while (gate.load() != 1) {
        }
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            aclrtLaunchHostFunc(s, EmptyHostFunc, nullptr);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        gate.store(2);
        CHECK_ACL(aclrtSynchronizeStream(s));
    }
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchHostFuncEnqueueBusyStream)
    ->UseManualTime()
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_RecordEventEnqueue(benchmark::State& state) {
    aclrtStream s = NewStream();
    aclrtEvent ev = nullptr;
    CHECK_ACL(aclrtCreateEvent(&ev));
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            aclrtRecordEvent(ev, s);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        CHECK_ACL(aclrtSynchronizeStream(s));
    }
    CHECK_ACL(aclrtDestroyEvent(ev));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_RecordEventEnqueue)
    ->UseManualTime()
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Round trip -----------------------------------------------------------------------------

void BM_LaunchHostFuncSynchronize(benchmark::State& state) {
    aclrtStream s = NewStream();
    for (auto _ : state) {
        aclrtLaunchHostFunc(s, EmptyHostFunc, nullptr);
        aclrtSynchronizeStream(s);
    }
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchHostFuncSynchronize)
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Host callbacks -------------------------------------------------------------------------

struct CallbackProbe {
    std::atomic<uint32_t> done{0};
    int64_t ran_ns = 0;
    bool stop = false;
};

void ProbeCallback(void* arg) {
    auto* probe = static_cast<CallbackProbe*>(arg);
    probe->ran_ns = NowNs();
    probe->done.store(1, std::memory_order_release);
    probe->done.notify_one();
}

void StopCallback(void* arg) {
    static_cast<CallbackProbe*>(arg)->stop = true;
}

// The documented pattern: a dedicated thread loops on aclrtProcessReport. Timed from the
// aclrtLaunchCallback call until the callback starts running on that thread. The launching
// thread sleeps (futex) while it waits, as an application would, so it does not take a core
// from the worker or the callback thread.
void BM_LaunchCallbackToRun(benchmark::State& state) {
    aclrtStream s = NewStream();
    CallbackProbe stopper;
    std::atomic<uint64_t> tid{0};
    std::atomic<bool> subscribed{false};
    std::thread reporter([&] {
        tid.store(static_cast<uint64_t>(pthread_self()));
        while (!subscribed.load())
            std::this_thread::yield();
        while (!stopper.stop)
            CHECK_ACL(aclrtProcessReport(-1));
    });
    while (tid.load() == 0)
        std::this_thread::yield();
    CHECK_ACL(aclrtSubscribeReport(tid.load(), s));
    subscribed.store(true);
    CallbackProbe probe;
    for (auto _ : state) {
        probe.done.store(0);
        const int64_t t0 = NowNs();
        CHECK_ACL(aclrtLaunchCallback(ProbeCallback, &probe, ACL_CALLBACK_NO_BLOCK, s));
        probe.done.wait(0, std::memory_order_acquire);
        state.SetIterationTime(static_cast<double>(probe.ran_ns - t0) * 1e-9);
    }
    CHECK_ACL(aclrtLaunchCallback(StopCallback, &stopper, ACL_CALLBACK_NO_BLOCK, s));
    reporter.join();
    CHECK_ACL(aclrtSynchronizeStream(s));
    CHECK_ACL(aclrtUnSubscribeReport(tid.load(), s));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchCallbackToRun)
    ->UseManualTime()
    ->Iterations(5000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// The launching thread is the subscribed one: aclrtLaunchCallback, then aclrtProcessReport on
// the same thread until the callback has run.
void BM_LaunchCallbackProcessReportSameThread(benchmark::State& state) {
    aclrtStream s = NewStream();
    const auto self = static_cast<uint64_t>(pthread_self());
    CHECK_ACL(aclrtSubscribeReport(self, s));
    CallbackProbe probe;
    for (auto _ : state) {
        probe.done.store(0);
        aclrtLaunchCallback(ProbeCallback, &probe, ACL_CALLBACK_NO_BLOCK, s);
        while (probe.done.load(std::memory_order_acquire) == 0)
            aclrtProcessReport(-1);
    }
    CHECK_ACL(aclrtSynchronizeStream(s));
    CHECK_ACL(aclrtUnSubscribeReport(self, s));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchCallbackProcessReportSameThread)
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- 64 MiB asynchronous copies ---------------------------------------------------------------
// Pinned host memory (aclrtMallocHost) and device memory (aclrtMalloc), all pre-faulted.
// Each iteration: aclrtMemcpyAsync + aclrtSynchronizeStream. Compare with BM_Memcpy64MiB.

enum Direction { kH2D, kD2H, kD2D };

void BM_MemcpyAsync64MiB(benchmark::State& state) {
    const auto dir = static_cast<Direction>(state.range(0));
    aclrtStream s = NewStream();
    void* host = nullptr;
    void* dev_a = nullptr;
    void* dev_b = nullptr;
    CHECK_ACL(aclrtMallocHost(&host, kCopyBytes));
    CHECK_ACL(aclrtMalloc(&dev_a, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dev_b, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::memset(host, 1, kCopyBytes);
    CHECK_ACL(aclrtMemset(dev_a, kCopyBytes, 1, kCopyBytes));
    CHECK_ACL(aclrtMemset(dev_b, kCopyBytes, 1, kCopyBytes));
    void* dst = dir == kH2D ? dev_a : dir == kD2H ? host : dev_b;
    const void* src = dir == kH2D ? host : dev_a;
    const aclrtMemcpyKind kind = dir == kH2D   ? ACL_MEMCPY_HOST_TO_DEVICE
                                 : dir == kD2H ? ACL_MEMCPY_DEVICE_TO_HOST
                                               : ACL_MEMCPY_DEVICE_TO_DEVICE;
    for (auto _ : state) {
        CHECK_ACL(aclrtMemcpyAsync(dst, kCopyBytes, src, kCopyBytes, kind, s));
        CHECK_ACL(aclrtSynchronizeStream(s));
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(kCopyBytes));
    CHECK_ACL(aclrtFree(dev_b));
    CHECK_ACL(aclrtFree(dev_a));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_MemcpyAsync64MiB)
    ->ArgName("dir")  // 0: H2D, 1: D2H, 2: D2D
    ->DenseRange(kH2D, kD2D)
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

BENCHMARK(bench::BM_Memcpy64MiB)
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// ---- Concurrency of streams -----------------------------------------------------------------

constexpr int kHostFuncs = 20;               // per stream
constexpr int64_t kHostFuncCpuNs = 1000000;  // 1 ms of CPU time each

void Burn1ms(void*) {
    bench::BurnCpu(kHostFuncCpuNs);
}

double RunStreams(const std::vector<aclrtStream>& streams) {
    const int64_t t0 = NowNs();
    for (int i = 0; i < kHostFuncs; ++i) {
        for (aclrtStream s : streams)
            CHECK_ACL(aclrtLaunchHostFunc(s, Burn1ms, nullptr));
    }
    for (aclrtStream s : streams)
        CHECK_ACL(aclrtSynchronizeStream(s));
    return static_cast<double>(NowNs() - t0) * 1e-6;
}

double RunThreads(int threads) {
    const int64_t t0 = NowNs();
    std::vector<std::thread> ts;
    for (int i = 0; i < threads; ++i) {
        ts.emplace_back([] {
            for (int k = 0; k < kHostFuncs; ++k)
                bench::BurnCpu(kHostFuncCpuNs);
        });
    }
    for (auto& t : ts)
        t.join();
    return static_cast<double>(NowNs() - t0) * 1e-6;
}

// Two streams of kHostFuncs 1 ms host functions each, against one stream of the same. The
// ratio two/one should be close to 1 on a machine with two idle cores; plain_threads_ratio is
// the same experiment on two std::threads, what the machine itself allows.
void BM_TwoStreamsOf1msHostFuncsVsOne(benchmark::State& state) {
    aclrtStream a = NewStream();
    aclrtStream b = NewStream();
    double one = 0, two = 0, t_one = 0, t_two = 0;
    for (auto _ : state) {
        one += RunStreams({a});
        two += RunStreams({a, b});
        t_one += RunThreads(1);
        t_two += RunThreads(2);
    }
    const auto n = static_cast<double>(state.iterations());
    state.counters["one_stream_ms"] = one / n;
    state.counters["two_streams_ms"] = two / n;
    state.counters["ratio"] = two / one;
    state.counters["plain_threads_ratio"] = t_two / t_one;
    CHECK_ACL(aclrtDestroyStream(b));
    CHECK_ACL(aclrtDestroyStream(a));
}
BENCHMARK(BM_TwoStreamsOf1msHostFuncsVsOne)
    ->Iterations(3)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- Idle cost --------------------------------------------------------------------------------

// CPU used by the whole process over one second while 8 streams, all used once, sit idle.
void BM_IdleCpuOf8Streams(benchmark::State& state) {
    std::vector<aclrtStream> streams;
    for (int i = 0; i < 8; ++i)
        streams.push_back(NewStream());
    double percent = 0;
    for (auto _ : state) {
        for (aclrtStream s : streams)
            CHECK_ACL(aclrtLaunchHostFunc(s, EmptyHostFunc, nullptr));
        for (aclrtStream s : streams)
            CHECK_ACL(aclrtSynchronizeStream(s));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // well past any spin
        percent = bench::IdleCpuPercent(1000);
    }
    state.counters["cpu_percent"] = percent;
    for (aclrtStream s : streams)
        CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_IdleCpuOf8Streams)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    benchmark::AddCustomContext("peer", "openacl");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
