// The asynchronous engine through the public AscendCL API, next to plain memcpy. bench_pocl runs
// the equivalent OpenCL calls on PoCL; bench/run.sh runs both and prints the ratios.
//
// Targets (medians, 2-core machine; docs/PERFORMANCE.md has the method and the results):
//   aclrtLaunchHostFunc(empty) / aclrtRecordEvent enqueue          <= 0.3 us
//   aclrtLaunchHostFunc(empty) + aclrtSynchronizeStream           <= 2 us
//   aclrtLaunchCallback -> aclrtProcessReport -> callback runs    <= 5 us
//   aclrtLaunchKernel(empty_kernel, 1 block) + synchronize        <= 2 us
//   fp_chain kernel, 64 blocks on all cores vs 1 block on one      >= 90% of perfect scaling
//   64 MiB aclrtMemcpyAsync H2D/D2H/D2D + synchronize             >= 0.95x memcpy's speed
//   two streams of 1 ms host functions vs one stream              <= 1.1x the time
//   runtime with 8 idle streams                                   < 1% of a core
//   aclmdlRIExecuteAsync of 100 captured kernels vs 100 launches   <= 0.2x the enqueue time
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
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

// Holds stream s at a blocking callback (no worker is held: the stream is parked) until
// Release() runs it on the calling thread, which must be subscribed to s.
void NoopCallback(void*) {}

class ParkedStream {
 public:
    explicit ParkedStream(aclrtStream s) : s_(s) {
        CHECK_ACL(aclrtLaunchCallback(NoopCallback, nullptr, ACL_CALLBACK_BLOCK, s_));
    }
    void Release() {
        CHECK_ACL(aclrtProcessReport(-1));
        CHECK_ACL(aclrtSynchronizeStream(s_));
    }

 private:
    aclrtStream s_;
};

// Pure enqueue cost: the stream is parked at a blocking callback while the batch is enqueued,
// so no worker touches it concurrently.
void BM_LaunchHostFuncEnqueueParkedStream(benchmark::State& state) {
    aclrtStream s = NewStream();
    const auto self = static_cast<uint64_t>(pthread_self());
    CHECK_ACL(aclrtSubscribeReport(self, s));
    for (auto _ : state) {
        ParkedStream parked(s);
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            aclrtLaunchHostFunc(s, EmptyHostFunc, nullptr);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        parked.Release();
    }
    CHECK_ACL(aclrtUnSubscribeReport(self, s));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchHostFuncEnqueueParkedStream)
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

// The same on a parked stream (see BM_LaunchHostFuncEnqueueParkedStream).
void BM_RecordEventEnqueueParkedStream(benchmark::State& state) {
    aclrtStream s = NewStream();
    aclrtEvent ev = nullptr;
    CHECK_ACL(aclrtCreateEvent(&ev));
    const auto self = static_cast<uint64_t>(pthread_self());
    CHECK_ACL(aclrtSubscribeReport(self, s));
    for (auto _ : state) {
        ParkedStream parked(s);
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            aclrtRecordEvent(ev, s);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        parked.Release();
    }
    CHECK_ACL(aclrtUnSubscribeReport(self, s));
    CHECK_ACL(aclrtDestroyEvent(ev));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_RecordEventEnqueueParkedStream)
    ->UseManualTime()
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Tracing's cost on the enqueue ------------------------------------------------------------
// Tracing off and on, alternated in one process: each round times kRoundBatches batches with
// no session, then starts a session with the aclprof API (what a program that profiles
// itself does), lets it fault its first records in, times as many batches traced, and stops
// the session. Separate processes are no good for this comparison on a VM whose speed
// changes from process to process by more than the 20% being measured. Counters: the median
// per-enqueue time of the untraced and traced batches and the extra percentage. call:0
// aclrtLaunchHostFunc, call:1 aclrtRecordEvent, both while the worker drains the stream (the
// enqueue benchmarks above); call:2 aclrtLaunchHostFunc on a parked stream (the calling
// thread's own cost). The traces go to a temporary folder and are deleted after each round.
constexpr int kRoundBatches = 64;

double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

void BM_TracingCostOnEnqueue(benchmark::State& state) {
    const bool record_event = state.range(0) == 1;
    const bool parked = state.range(0) == 2;
    aclrtStream s = NewStream();
    const auto self = static_cast<uint64_t>(pthread_self());
    if (parked) CHECK_ACL(aclrtSubscribeReport(self, s));
    aclrtEvent ev = nullptr;
    CHECK_ACL(aclrtCreateEvent(&ev));
    char dir[] = "/tmp/openacl_bench_trace_XXXXXX";
    if (mkdtemp(dir) == nullptr) {
        state.SkipWithError("mkdtemp failed");
        return;
    }
    CHECK_ACL(aclprofInit(dir, std::strlen(dir)));
    uint32_t device = 0;
    aclprofConfig* config = aclprofCreateConfig(&device, 1, ACL_AICORE_NONE, nullptr,
                                                ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    std::vector<double> off, on;
    auto batch = [&](std::vector<double>* into) {
        std::optional<ParkedStream> held;
        if (parked) held.emplace(s);
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i) {
            if (record_event) {
                aclrtRecordEvent(ev, s);
            } else {
                aclrtLaunchHostFunc(s, EmptyHostFunc, nullptr);
            }
        }
        into->push_back(static_cast<double>(NowNs() - t0) / kBatch);
        if (held) held->Release();
        CHECK_ACL(aclrtSynchronizeStream(s));
    };
    for (auto _ : state) {
        for (int i = 0; i < kRoundBatches; ++i)
            batch(&off);
        CHECK_ACL(aclprofStart(config));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the pool's first pages
        for (int i = 0; i < kRoundBatches; ++i)
            batch(&on);
        CHECK_ACL(aclprofStop(config));
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            std::filesystem::remove(entry.path());
    }
    const double off_ns = Median(off), on_ns = Median(on);
    state.counters["off_us"] = off_ns / 1000;
    state.counters["on_us"] = on_ns / 1000;
    state.counters["extra_percent"] = 100 * (on_ns - off_ns) / off_ns;
    CHECK_ACL(aclprofDestroyConfig(config));
    CHECK_ACL(aclprofFinalize());
    std::filesystem::remove_all(dir);
    if (parked) CHECK_ACL(aclrtUnSubscribeReport(self, s));
    CHECK_ACL(aclrtDestroyEvent(ev));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_TracingCostOnEnqueue)
    ->ArgName("call")
    ->DenseRange(0, 2)
    ->Iterations(20)
    ->Repetitions(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- Round trip -----------------------------------------------------------------------------

void CountingHostFunc(void* arg) {
    ++*static_cast<int64_t*>(arg);
}

// ---- Allocation and copy-check cost --------------------------------------------------------
// The paths strict checks (OPENACL_CHECK) hook into, to show that off they cost nothing: an
// aclrtMalloc + aclrtFree pair, and the enqueue of a 64-byte pinned-to-device aclrtMemcpyAsync
// (classification of both pointers, the checks, one task). Batches as above.

void BM_MallocFree(benchmark::State& state) {
    std::vector<void*> ptrs(kBatch);
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            aclrtMalloc(&ptrs[i], 256, ACL_MEM_MALLOC_HUGE_FIRST);
        for (int i = 0; i < kBatch; ++i)
            aclrtFree(ptrs[i]);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
    }
}
BENCHMARK(BM_MallocFree)
    ->UseManualTime()
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Device memory's pages --------------------------------------------------------------------
// What the arena's backing costs where the kernel, not memcpy, does the work. First touch: each
// iteration fills an 8 MiB block never touched before; the time is the fill. Its blocks stay
// allocated until the program ends (main frees them), so no repetition reuses another's pages.
// Reuse: aclrtMalloc, fill and aclrtFree of 64 MiB, the pattern of a program that allocates per
// step; the time is the whole cycle.

constexpr size_t kTouchBytes = size_t{8} << 20;
std::vector<void*> g_touched;  // BM_DeviceFirstTouch8MiB's blocks

void BM_DeviceFirstTouch8MiB(benchmark::State& state) {
    for (auto _ : state) {
        void* p = nullptr;
        CHECK_ACL(aclrtMalloc(&p, kTouchBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        g_touched.push_back(p);
        const int64_t t0 = NowNs();
        CHECK_ACL(aclrtMemset(p, kTouchBytes, 1, kTouchBytes));
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(kTouchBytes));
}
BENCHMARK(BM_DeviceFirstTouch8MiB)
    ->UseManualTime()
    ->Iterations(16)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_DeviceMallocFillFree64MiB(benchmark::State& state) {
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        void* p = nullptr;
        CHECK_ACL(aclrtMalloc(&p, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMemset(p, kCopyBytes, 1, kCopyBytes));
        CHECK_ACL(aclrtFree(p));
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
}
BENCHMARK(BM_DeviceMallocFillFree64MiB)
    ->UseManualTime()
    ->Iterations(16)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_MemcpyAsyncSmallEnqueue(benchmark::State& state) {
    aclrtStream s = NewStream();
    void* dev = nullptr;
    void* host = nullptr;
    CHECK_ACL(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMallocHost(&host, 64));
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        CHECK_ACL(aclrtSynchronizeStream(s));
    }
    CHECK_ACL(aclrtFree(dev));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_MemcpyAsyncSmallEnqueue)
    ->UseManualTime()
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// 100 small pinned-to-device copies: one aclrtMemcpyBatchAsync against 100 aclrtMemcpyAsync,
// enqueue and completion together (the time per batch of 100).
constexpr int kBatchCopies = 100;
struct BatchBuffers {
    std::vector<void*> dsts, srcs;
    std::vector<size_t> maxes, sizes;
    BatchBuffers() {
        for (int i = 0; i < kBatchCopies; ++i) {
            void* dev = nullptr;
            void* host = nullptr;
            CHECK_ACL(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
            CHECK_ACL(aclrtMallocHost(&host, 256));
            dsts.push_back(dev);
            srcs.push_back(host);
            maxes.push_back(256);
            sizes.push_back(256);
        }
    }
    ~BatchBuffers() {
        for (int i = 0; i < kBatchCopies; ++i) {
            aclrtFree(dsts[i]);
            aclrtFreeHost(srcs[i]);
        }
    }
};

void BM_MemcpyBatchAsync100(benchmark::State& state) {
    aclrtStream s = NewStream();
    BatchBuffers b;
    aclrtMemcpyBatchAttr attr{};
    attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    size_t first = 0;
    for (auto _ : state) {
        CHECK_ACL(aclrtMemcpyBatchAsyncV2(b.dsts.data(), b.maxes.data(), b.srcs.data(),
                                          b.sizes.data(), kBatchCopies, &attr, &first, 1, s));
        CHECK_ACL(aclrtSynchronizeStream(s));
    }
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_MemcpyBatchAsync100)
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_MemcpyAsync100OneByOne(benchmark::State& state) {
    aclrtStream s = NewStream();
    BatchBuffers b;
    for (auto _ : state) {
        for (int i = 0; i < kBatchCopies; ++i) {
            CHECK_ACL(
                aclrtMemcpyAsync(b.dsts[i], 256, b.srcs[i], 256, ACL_MEMCPY_HOST_TO_DEVICE, s));
        }
        CHECK_ACL(aclrtSynchronizeStream(s));
    }
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_MemcpyAsync100OneByOne)
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_LaunchHostFuncSynchronize(benchmark::State& state) {
    aclrtStream s = NewStream();
    int64_t ran = 0;  // written by the worker, read after a synchronize
    int64_t errors = 0;
    for (auto _ : state) {
        errors += aclrtLaunchHostFunc(s, CountingHostFunc, &ran) != ACL_SUCCESS;
        errors += aclrtSynchronizeStream(s) != ACL_SUCCESS;
    }
    if (errors != 0 || ran != static_cast<int64_t>(state.iterations())) {
        std::fprintf(stderr, "BM_LaunchHostFuncSynchronize: %lld errors, %lld of %lld ran\n",
                     static_cast<long long>(errors), static_cast<long long>(ran),
                     static_cast<long long>(state.iterations()));
        std::abort();
    }
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchHostFuncSynchronize)
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Kernels --------------------------------------------------------------------------------
// The kernel binary bench/CMakeLists.txt builds: examples/kernels (empty_kernel, ...) and
// bench/kernels/fp_chain.cpp. Loaded per benchmark, not timed.

class KernelBinary {
 public:
    KernelBinary() { CHECK_ACL(aclrtBinaryLoadFromFile(OPENACL_BENCH_KERNELS, nullptr, &binary_)); }
    ~KernelBinary() { aclrtBinaryUnLoad(binary_); }
    KernelBinary(const KernelBinary&) = delete;
    KernelBinary& operator=(const KernelBinary&) = delete;
    aclrtFuncHandle Function(const char* name) const {
        aclrtFuncHandle f = nullptr;
        CHECK_ACL(aclrtBinaryGetFunction(binary_, name, &f));
        return f;
    }

 private:
    aclrtBinHandle binary_ = nullptr;
};

void* DeviceAlloc(size_t bytes) {
    void* p = nullptr;
    CHECK_ACL(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
}

// aclrtLaunchKernel(empty_kernel, 1 block) + aclrtSynchronizeStream. PoCL: BM_PoclEnqueueFinish
// (empty kernel, global size 1, + clFinish).
void BM_EmptyKernelSynchronize(benchmark::State& state) {
    KernelBinary binary;
    aclrtFuncHandle empty = binary.Function("empty_kernel");
    aclrtStream s = NewStream();
    void* args = DeviceAlloc(8);  // argsData must be device memory, even for no parameters
    int64_t errors = 0;
    for (auto _ : state) {
        errors += aclrtLaunchKernel(empty, 1, args, 0, s) != ACL_SUCCESS;
        errors += aclrtSynchronizeStream(s) != ACL_SUCCESS;
    }
    if (errors != 0) {
        std::fprintf(stderr, "BM_EmptyKernelSynchronize: %lld errors: %s\n",
                     static_cast<long long>(errors), aclGetRecentErrMsg());
        std::abort();
    }
    CHECK_ACL(aclrtFree(args));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_EmptyKernelSynchronize)
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// Graph replay (aclmdlRI*): 100 empty-kernel launches enqueued one by one, against one
// aclmdlRIExecuteAsync of the same 100 launches captured. Timed: the enqueueing only (the
// synchronize that drains the stream between iterations is not), the cost replay saves.
constexpr int kGraphKernels = 100;

void BM_Graph100KernelsEagerEnqueue(benchmark::State& state) {
    KernelBinary binary;
    aclrtFuncHandle empty = binary.Function("empty_kernel");
    aclrtStream s = NewStream();
    void* args = DeviceAlloc(8);
    for (auto _ : state) {
        for (int i = 0; i < kGraphKernels; ++i)
            CHECK_ACL(aclrtLaunchKernel(empty, 1, args, 0, s));
        state.PauseTiming();
        CHECK_ACL(aclrtSynchronizeStream(s));
        state.ResumeTiming();
    }
    CHECK_ACL(aclrtFree(args));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_Graph100KernelsEagerEnqueue)
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_Graph100KernelsReplayEnqueue(benchmark::State& state) {
    KernelBinary binary;
    aclrtFuncHandle empty = binary.Function("empty_kernel");
    aclrtStream s = NewStream();
    void* args = DeviceAlloc(8);
    CHECK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (int i = 0; i < kGraphKernels; ++i)
        CHECK_ACL(aclrtLaunchKernel(empty, 1, args, 0, s));
    aclmdlRI graph = nullptr;
    CHECK_ACL(aclmdlRICaptureEnd(s, &graph));
    for (auto _ : state) {
        CHECK_ACL(aclmdlRIExecuteAsync(graph, s));
        state.PauseTiming();
        CHECK_ACL(aclrtSynchronizeStream(s));
        state.ResumeTiming();
    }
    CHECK_ACL(aclmdlRIDestroy(graph));
    CHECK_ACL(aclrtFree(args));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_Graph100KernelsReplayEnqueue)
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// Parallel efficiency: fp_chain over bench::kChainSlices slices, launched with that many blocks
// (dealt over all workers: one per core by default) and, as the one-core baseline, with one
// block doing every slice on one worker; launch + synchronize timed, the two alternating in
// each iteration. The reported time is the parallel launch's; the counters give both, the
// speedup and the efficiency (speedup / cores). The results are checked against the host.
void BM_ComputeKernel64Blocks(benchmark::State& state) {
    KernelBinary binary;
    aclrtFuncHandle chain = binary.Function("fp_chain");
    aclrtStream s = NewStream();
    const size_t out_bytes = bench::kChainSlices * sizeof(float);
    void* out = DeviceAlloc(out_bytes);
    const uint64_t slots[3] = {reinterpret_cast<uint64_t>(out), bench::kChainSlices,
                               bench::kChainIters};
    void* args = DeviceAlloc(sizeof slots);
    CHECK_ACL(aclrtMemcpy(args, sizeof slots, slots, sizeof slots, ACL_MEMCPY_HOST_TO_DEVICE));
    auto run = [&](uint32_t blocks) {
        const int64_t t0 = NowNs();
        CHECK_ACL(aclrtLaunchKernel(chain, blocks, args, sizeof slots, s));
        CHECK_ACL(aclrtSynchronizeStream(s));
        return NowNs() - t0;
    };
    run(bench::kChainSlices);  // warm-up: workers awake, code paged in
    bench::ScalingCounters scaling;
    bool serial_first = false;  // alternated, so neither always follows the other
    for (auto _ : state) {
        if (serial_first) scaling.serial_ns += run(1);
        const int64_t t = run(bench::kChainSlices);
        scaling.parallel_ns += t;
        state.SetIterationTime(static_cast<double>(t) * 1e-9);
        if (!serial_first) scaling.serial_ns += run(1);
        ++scaling.runs;
        serial_first = !serial_first;
    }
    scaling.Report(state, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
    // The parallel launch computes what the host computes.
    CHECK_ACL(aclrtMemset(out, out_bytes, 0, out_bytes));
    run(bench::kChainSlices);
    float result[bench::kChainSlices];
    CHECK_ACL(aclrtMemcpy(result, sizeof result, out, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < bench::kChainSlices; ++i) {
        if (result[i] != bench::FpChainReference(i)) {
            std::fprintf(stderr, "BM_ComputeKernel64Blocks: slice %u is %.9g, host %.9g\n", i,
                         static_cast<double>(result[i]),
                         static_cast<double>(bench::FpChainReference(i)));
            std::abort();
        }
    }
    CHECK_ACL(aclrtFree(args));
    CHECK_ACL(aclrtFree(out));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_ComputeKernel64Blocks)
    ->UseManualTime()
    ->Iterations(10)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

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

struct HostFuncProbe {
    std::atomic<uint32_t> done{0};
    int64_t ran_ns = 0;
};

void ProbeHostFunc(void* arg) {
    auto* probe = static_cast<HostFuncProbe*>(arg);
    probe->ran_ns = NowNs();
    probe->done.store(1, std::memory_order_release);
    probe->done.notify_one();
}

// Launch latency: from aclrtLaunchHostFunc until the function starts on the stream's worker,
// while the launching thread sleeps (futex) between launches. The first hop of a callback.
void BM_LaunchHostFuncToRun(benchmark::State& state) {
    aclrtStream s = NewStream();
    HostFuncProbe probe;
    for (auto _ : state) {
        probe.done.store(0);
        const int64_t t0 = NowNs();
        CHECK_ACL(aclrtLaunchHostFunc(s, ProbeHostFunc, &probe));
        probe.done.wait(0, std::memory_order_acquire);
        state.SetIterationTime(static_cast<double>(probe.ran_ns - t0) * 1e-9);
    }
    CHECK_ACL(aclrtSynchronizeStream(s));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_LaunchHostFuncToRun)
    ->UseManualTime()
    ->Iterations(5000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

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
// Pinned host memory (aclrtMallocHost) and device memory (aclrtMalloc), all pre-faulted. Each
// iteration times aclrtMemcpyAsync + aclrtSynchronizeStream (the reported time) and, alternately
// before and after it, a plain memcpy of the same size between two other pre-faulted buffers
// (bench::MemcpyReference). Pairing them in every iteration keeps drifts in the machine's memory
// bandwidth (a shared host) out of the ratio.

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
    bench::MemcpyReference reference;
    int64_t acl_ns = 0;
    bool reference_first = false;  // alternated, so neither side always follows the other
    for (auto _ : state) {
        if (reference_first) reference.Run();
        const int64_t t0 = NowNs();
        CHECK_ACL(aclrtMemcpyAsync(dst, kCopyBytes, src, kCopyBytes, kind, s));
        CHECK_ACL(aclrtSynchronizeStream(s));
        const int64_t t = NowNs() - t0;
        acl_ns += t;
        state.SetIterationTime(static_cast<double>(t) * 1e-9);
        if (!reference_first) reference.Run();
        reference_first = !reference_first;
    }
    reference.Report(state, acl_ns);
    CHECK_ACL(aclrtFree(dev_b));
    CHECK_ACL(aclrtFree(dev_a));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(s));
}
BENCHMARK(BM_MemcpyAsync64MiB)
    ->ArgName("dir")  // 0: H2D, 1: D2H, 2: D2D
    ->DenseRange(kH2D, kD2D)
    ->UseManualTime()
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Machine reference ------------------------------------------------------------------------

// Round trip of one cache line between two spinning threads (plain atomics, no openacl): the
// floor for any hand-off between the enqueuing thread and a worker. On a VM it depends on where
// the host places the two vCPUs at the moment, which is why cross-thread results vary by run.
void BM_CoreToCorePingPong(benchmark::State& state) {
    std::atomic<uint32_t> ball{0};
    std::atomic<bool> stop{false};
    std::thread partner([&] {
        uint32_t seen = 0;
        while (!stop.load(std::memory_order_relaxed)) {
            const uint32_t v = ball.load(std::memory_order_acquire);
            if (v != seen && (v & 1) != 0) {
                seen = v + 1;
                ball.store(seen, std::memory_order_release);
            }
        }
    });
    uint32_t next = 1;
    for (auto _ : state) {
        ball.store(next, std::memory_order_release);
        while (ball.load(std::memory_order_acquire) != next + 1) {
        }
        next += 2;
    }
    stop.store(true);
    partner.join();
}
BENCHMARK(BM_CoreToCorePingPong)
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
    for (void* p : g_touched)
        CHECK_ACL(aclrtFree(p));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
