// aclnn operators: the host cost of the two-phase call, element-wise bandwidth next to the
// runtime's own device-to-device copy of the same bytes (memory bandwidth), and a chain of 100
// small operators run eagerly against the same chain captured once and replayed.
//   build/bench/bench_aclnn [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "bench_common.h"

namespace {

void Check(int rc, const char* what) {
    if (rc != 0) {
        const char* why = aclGetRecentErrMsg();
        std::fprintf(stderr, "%s failed (%d): %s\n", what, rc, why != nullptr ? why : "");
        std::abort();
    }
}

// A contiguous float tensor over fresh device memory.
struct Tensor {
    void* dev = nullptr;
    aclTensor* tensor = nullptr;
    explicit Tensor(int64_t n) {
        Check(aclrtMalloc(&dev, static_cast<size_t>(n) * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST),
              "aclrtMalloc");
        Check(aclrtMemset(dev, static_cast<size_t>(n) * sizeof(float), 0,
                          static_cast<size_t>(n) * sizeof(float)),
              "aclrtMemset");
        tensor = aclCreateTensor(&n, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &n, 1, dev);
    }
    ~Tensor() {
        aclDestroyTensor(tensor);
        aclrtFree(dev);
    }
};

struct Runtime {
    aclrtStream stream = nullptr;
    Runtime() {
        Check(aclInit(nullptr), "aclInit");
        Check(aclrtSetDevice(0), "aclrtSetDevice");
        Check(aclrtCreateStream(&stream), "aclrtCreateStream");
    }
};

Runtime& Rt() {
    static Runtime runtime;
    return runtime;
}

void AddOnce(const Tensor& a, const Tensor& b, const Tensor& out, const aclScalar* alpha,
             aclrtStream stream) {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    aclnnAddGetWorkspaceSize(a.tensor, b.tensor, alpha, out.tensor, &workspace, &executor);
    aclnnAdd(nullptr, 0, executor, stream);
}

// Host time of GetWorkspaceSize + aclnnAdd on 256 elements; the stream is drained every
// kBatch calls outside the timing.
void BM_AclnnAddTwoPhaseCall(benchmark::State& state) {
    Runtime& rt = Rt();
    Tensor a(256), b(256), out(256);
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    int pending = 0;
    for (auto _ : state) {
        AddOnce(a, b, out, alpha, rt.stream);
        if (++pending == bench::kBatch) {
            state.PauseTiming();
            Check(aclrtSynchronizeStream(rt.stream), "aclrtSynchronizeStream");
            pending = 0;
            state.ResumeTiming();
        }
    }
    Check(aclrtSynchronizeStream(rt.stream), "aclrtSynchronizeStream");
    aclDestroyScalar(alpha);
}
BENCHMARK(BM_AclnnAddTwoPhaseCall)->UseRealTime();

constexpr int64_t kLarge = int64_t{16} << 20;  // floats: 64 MiB per tensor

// out = a + b on 16 Mi floats: 192 MiB moved (two reads, one write) per run.
void BM_AclnnAddLarge(benchmark::State& state) {
    Runtime& rt = Rt();
    Tensor a(kLarge), b(kLarge), out(kLarge);
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    for (auto _ : state) {
        AddOnce(a, b, out, alpha, rt.stream);
        Check(aclrtSynchronizeStream(rt.stream), "aclrtSynchronizeStream");
    }
    state.SetBytesProcessed(state.iterations() * kLarge * 3 * static_cast<int64_t>(sizeof(float)));
    aclDestroyScalar(alpha);
}
BENCHMARK(BM_AclnnAddLarge)->UseRealTime()->Unit(benchmark::kMillisecond);

// The peer: the runtime's device-to-device copy of 128 MiB (one read, one write: 256 MiB moved,
// counted like the addition's traffic).
void BM_MemcpyDeviceToDeviceLarge(benchmark::State& state) {
    Runtime& rt = Rt();
    Tensor src(2 * kLarge), dst(2 * kLarge);
    const size_t bytes = static_cast<size_t>(2 * kLarge) * sizeof(float);
    for (auto _ : state) {
        Check(aclrtMemcpyAsync(dst.dev, bytes, src.dev, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                               rt.stream),
              "aclrtMemcpyAsync");
        Check(aclrtSynchronizeStream(rt.stream), "aclrtSynchronizeStream");
    }
    state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes) * 2);
}
BENCHMARK(BM_MemcpyDeviceToDeviceLarge)->UseRealTime()->Unit(benchmark::kMillisecond);

constexpr int kChain = 100;

// 100 in-place additions of state.range(0) floats, issued one by one (both phases each), then a
// sync.
void BM_Chain100Eager(benchmark::State& state) {
    Runtime& rt = Rt();
    Tensor a(state.range(0)), b(state.range(0));
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    for (auto _ : state) {
        for (int i = 0; i < kChain; ++i) {
            uint64_t workspace = 0;
            aclOpExecutor* executor = nullptr;
            aclnnInplaceAddGetWorkspaceSize(a.tensor, b.tensor, alpha, &workspace, &executor);
            aclnnInplaceAdd(nullptr, 0, executor, rt.stream);
        }
        Check(aclrtSynchronizeStream(rt.stream), "aclrtSynchronizeStream");
    }
    aclDestroyScalar(alpha);
}
BENCHMARK(BM_Chain100Eager)->Arg(16)->Arg(1024)->UseRealTime()->Unit(benchmark::kMicrosecond);

// The same chain captured once (aclmdlRICaptureBegin/End) and replayed.
void BM_Chain100Replayed(benchmark::State& state) {
    Runtime& rt = Rt();
    Tensor a(state.range(0)), b(state.range(0));
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    Check(aclmdlRICaptureBegin(rt.stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), "CaptureBegin");
    for (int i = 0; i < kChain; ++i) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        aclnnInplaceAddGetWorkspaceSize(a.tensor, b.tensor, alpha, &workspace, &executor);
        aclnnInplaceAdd(nullptr, 0, executor, rt.stream);
    }
    aclmdlRI graph = nullptr;
    Check(aclmdlRICaptureEnd(rt.stream, &graph), "CaptureEnd");
    for (auto _ : state) {
        Check(aclmdlRIExecuteAsync(graph, rt.stream), "aclmdlRIExecuteAsync");
        Check(aclrtSynchronizeStream(rt.stream), "aclrtSynchronizeStream");
    }
    aclmdlRIDestroy(graph);
    aclDestroyScalar(alpha);
}
BENCHMARK(BM_Chain100Replayed)->Arg(16)->Arg(1024)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
