// The peer: the OpenCL calls equivalent to bench_runtime's, on PoCL's CPU ("pthread") device,
// next to plain memcpy. bench/run.sh runs both programs and prints the ratios.
//
//   openacl                                   PoCL
//   aclrtLaunchHostFunc(empty)                clEnqueueNDRangeKernel(empty kernel, global 1)
//   aclrtRecordEvent                          clEnqueueMarkerWithWaitList + clReleaseEvent
//   launch + aclrtSynchronizeStream           clEnqueueNDRangeKernel + clFinish
//     (also aclrtLaunchKernel(empty_kernel))
//   fp_chain kernel, 64 blocks vs 1 block     fp_chain, 64 work-groups vs 1 (local size 1)
//   aclrtLaunchCallback -> callback runs      marker + clSetEventCallback(CL_COMPLETE) -> runs
//   aclrtMemcpyAsync 64 MiB H2D/D2H/D2D       clEnqueueWriteBuffer / ReadBuffer / CopyBuffer
//     + aclrtSynchronizeStream                  (non-blocking) + clFinish
//   8 idle streams                            8 idle command queues
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"

namespace {

using bench::kBatch;
using bench::kCopyBytes;
using bench::NowNs;

constexpr int kReps = 10;

void Check(cl_int rc, const char* what) {
    if (rc != CL_SUCCESS) {
        std::fprintf(stderr, "%s failed with OpenCL error %d\n", what, rc);
        std::abort();
    }
}
#define CHECK_CL(call) Check((call), #call)

struct Cl {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_program program = nullptr;
    cl_kernel empty = nullptr;
    cl_kernel fp_chain = nullptr;
    std::string description;
};
Cl g_cl;

std::string PlatformInfo(cl_platform_id p, cl_platform_info what) {
    size_t n = 0;
    clGetPlatformInfo(p, what, 0, nullptr, &n);
    std::string s(n, '\0');
    clGetPlatformInfo(p, what, n, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

std::string DeviceInfo(cl_device_id d, cl_device_info what) {
    size_t n = 0;
    clGetDeviceInfo(d, what, 0, nullptr, &n);
    std::string s(n, '\0');
    clGetDeviceInfo(d, what, n, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

// Finds PoCL's CPU device, makes a context and builds the empty kernel. Returns false (with a
// message) when there is no PoCL platform.
bool SetUpPocl() {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
        std::fprintf(stderr, "no OpenCL platform found (install pocl-opencl-icd)\n");
        return false;
    }
    std::vector<cl_platform_id> platforms(count);
    CHECK_CL(clGetPlatformIDs(count, platforms.data(), nullptr));
    for (cl_platform_id p : platforms) {
        if (PlatformInfo(p, CL_PLATFORM_NAME).find("Portable Computing Language") !=
            std::string::npos) {
            g_cl.platform = p;
        }
    }
    if (g_cl.platform == nullptr) {
        std::fprintf(stderr, "no PoCL platform among the OpenCL platforms\n");
        return false;
    }
    CHECK_CL(clGetDeviceIDs(g_cl.platform, CL_DEVICE_TYPE_CPU, 1, &g_cl.device, nullptr));
    cl_int rc = CL_SUCCESS;
    g_cl.context = clCreateContext(nullptr, 1, &g_cl.device, nullptr, nullptr, &rc);
    Check(rc, "clCreateContext");
    // fp_chain is bench/kernels/fp_chain.cpp in OpenCL C; FP_CONTRACT OFF keeps PoCL from fusing
    // the multiply-add (GCC, targeting plain x86-64, does not either), so both run the same
    // instructions.
    const char* source =
        "__kernel void empty(void) {}\n"
        "#pragma OPENCL FP_CONTRACT OFF\n"
        "__kernel void fp_chain(__global float* out, uint slices, uint iters) {\n"
        "    for (ulong s = get_group_id(0); s < slices; s += get_num_groups(0)) {\n"
        "        float x = 1.0f + (float)s * 0.001f;\n"
        "        for (uint i = 0; i < iters; ++i)\n"
        "            x = x * 0.9999f + 0.0001f;\n"
        "        out[s] = x;\n"
        "    }\n"
        "}\n";
    g_cl.program = clCreateProgramWithSource(g_cl.context, 1, &source, nullptr, &rc);
    Check(rc, "clCreateProgramWithSource");
    CHECK_CL(clBuildProgram(g_cl.program, 1, &g_cl.device, "", nullptr, nullptr));
    g_cl.empty = clCreateKernel(g_cl.program, "empty", &rc);
    Check(rc, "clCreateKernel");
    g_cl.fp_chain = clCreateKernel(g_cl.program, "fp_chain", &rc);
    Check(rc, "clCreateKernel");
    g_cl.description = PlatformInfo(g_cl.platform, CL_PLATFORM_VERSION) + " / " +
                       DeviceInfo(g_cl.device, CL_DEVICE_NAME);
    return true;
}

void TearDownPocl() {
    clReleaseKernel(g_cl.fp_chain);
    clReleaseKernel(g_cl.empty);
    clReleaseProgram(g_cl.program);
    clReleaseContext(g_cl.context);
}

cl_command_queue NewQueue() {
    cl_int rc = CL_SUCCESS;
    cl_command_queue q =
        clCreateCommandQueueWithProperties(g_cl.context, g_cl.device, nullptr, &rc);
    Check(rc, "clCreateCommandQueueWithProperties");
    return q;
}

cl_int EnqueueEmpty(cl_command_queue q) {
    const size_t global = 1;
    return clEnqueueNDRangeKernel(q, g_cl.empty, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}

// ---- Enqueue cost (per enqueue; see bench_runtime.cpp) ----------------------------------------

void BM_PoclEnqueueEmptyKernel(benchmark::State& state) {
    cl_command_queue q = NewQueue();
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i)
            EnqueueEmpty(q);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        CHECK_CL(clFinish(q));
    }
    clReleaseCommandQueue(q);
}
BENCHMARK(BM_PoclEnqueueEmptyKernel)
    ->UseManualTime()
    ->Iterations(200)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

void BM_PoclEnqueueMarker(benchmark::State& state) {
    cl_command_queue q = NewQueue();
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        for (int i = 0; i < kBatch; ++i) {
            cl_event ev = nullptr;
            clEnqueueMarkerWithWaitList(q, 0, nullptr, &ev);
            clReleaseEvent(ev);
        }
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9 / kBatch);
        CHECK_CL(clFinish(q));
    }
    clReleaseCommandQueue(q);
}
BENCHMARK(BM_PoclEnqueueMarker)
    ->UseManualTime()
    ->Iterations(200)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Round trip -------------------------------------------------------------------------------

void BM_PoclEnqueueFinish(benchmark::State& state) {
    cl_command_queue q = NewQueue();
    for (auto _ : state) {
        EnqueueEmpty(q);
        clFinish(q);
    }
    clReleaseCommandQueue(q);
}
BENCHMARK(BM_PoclEnqueueFinish)
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Compute-bound kernel ---------------------------------------------------------------------
// Like BM_ComputeKernel64Blocks: fp_chain with 64 work-groups of one work-item (global 64, local
// 1) vs one work-group doing every slice, + clFinish, alternating; checked against the host.

void BM_PoclComputeKernel64Groups(benchmark::State& state) {
    cl_command_queue q = NewQueue();
    cl_int rc = CL_SUCCESS;
    const size_t out_bytes = bench::kChainSlices * sizeof(float);
    cl_mem out = clCreateBuffer(g_cl.context, CL_MEM_READ_WRITE, out_bytes, nullptr, &rc);
    Check(rc, "clCreateBuffer");
    const cl_uint slices = bench::kChainSlices, iters = bench::kChainIters;
    CHECK_CL(clSetKernelArg(g_cl.fp_chain, 0, sizeof out, &out));
    CHECK_CL(clSetKernelArg(g_cl.fp_chain, 1, sizeof slices, &slices));
    CHECK_CL(clSetKernelArg(g_cl.fp_chain, 2, sizeof iters, &iters));
    auto run = [&](size_t groups) {
        const size_t local = 1;
        const int64_t t0 = NowNs();
        CHECK_CL(clEnqueueNDRangeKernel(q, g_cl.fp_chain, 1, nullptr, &groups, &local, 0, nullptr,
                                        nullptr));
        CHECK_CL(clFinish(q));
        return NowNs() - t0;
    };
    run(bench::kChainSlices);  // warm-up: threads started, kernel compiled for this size
    run(1);
    bench::ScalingCounters scaling;
    bool serial_first = false;
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
    const float zero = 0.0f;
    CHECK_CL(clEnqueueFillBuffer(q, out, &zero, sizeof zero, 0, out_bytes, 0, nullptr, nullptr));
    run(bench::kChainSlices);
    float result[bench::kChainSlices];
    CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, out_bytes, result, 0, nullptr, nullptr));
    for (uint32_t i = 0; i < bench::kChainSlices; ++i) {
        if (result[i] != bench::FpChainReference(i)) {
            std::fprintf(stderr, "BM_PoclComputeKernel64Groups: slice %u is %.9g, host %.9g\n", i,
                         static_cast<double>(result[i]),
                         static_cast<double>(bench::FpChainReference(i)));
            std::abort();
        }
    }
    clReleaseMemObject(out);
    clReleaseCommandQueue(q);
}
BENCHMARK(BM_PoclComputeKernel64Groups)
    ->UseManualTime()
    ->Iterations(10)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

// ---- Completion callback ----------------------------------------------------------------------

struct CallbackProbe {
    std::atomic<uint32_t> done{0};
    int64_t ran_ns = 0;
};

void CL_CALLBACK ProbeCallback(cl_event, cl_int, void* arg) {
    auto* probe = static_cast<CallbackProbe*>(arg);
    probe->ran_ns = NowNs();
    probe->done.store(1, std::memory_order_release);
    probe->done.notify_one();
}

// Timed from the enqueue of a marker until its CL_COMPLETE callback starts running.
void BM_PoclMarkerCallbackToRun(benchmark::State& state) {
    cl_command_queue q = NewQueue();
    CallbackProbe probe;
    for (auto _ : state) {
        probe.done.store(0);
        const int64_t t0 = NowNs();
        cl_event ev = nullptr;
        CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, nullptr, &ev));
        CHECK_CL(clSetEventCallback(ev, CL_COMPLETE, ProbeCallback, &probe));
        CHECK_CL(clFlush(q));
        probe.done.wait(0, std::memory_order_acquire);
        state.SetIterationTime(static_cast<double>(probe.ran_ns - t0) * 1e-9);
        clReleaseEvent(ev);
    }
    CHECK_CL(clFinish(q));
    clReleaseCommandQueue(q);
}
BENCHMARK(BM_PoclMarkerCallbackToRun)
    ->UseManualTime()
    ->Iterations(2000)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- 64 MiB copies ----------------------------------------------------------------------------
// Like bench_runtime: each iteration times the OpenCL copy + clFinish, paired with a plain
// memcpy (bench::MemcpyReference). The host buffer is page-aligned, pre-faulted memory.

enum Direction { kWrite, kRead, kCopy };  // H2D, D2H, D2D

void BM_PoclCopy64MiB(benchmark::State& state) {
    const auto dir = static_cast<Direction>(state.range(0));
    cl_command_queue q = NewQueue();
    void* host = bench::MapPrefaulted(kCopyBytes);
    cl_int rc = CL_SUCCESS;
    cl_mem a = clCreateBuffer(g_cl.context, CL_MEM_READ_WRITE, kCopyBytes, nullptr, &rc);
    Check(rc, "clCreateBuffer");
    cl_mem b = clCreateBuffer(g_cl.context, CL_MEM_READ_WRITE, kCopyBytes, nullptr, &rc);
    Check(rc, "clCreateBuffer");
    // Touch both buffers once so their pages exist before timing.
    const cl_uchar one = 1;
    CHECK_CL(clEnqueueFillBuffer(q, a, &one, 1, 0, kCopyBytes, 0, nullptr, nullptr));
    CHECK_CL(clEnqueueFillBuffer(q, b, &one, 1, 0, kCopyBytes, 0, nullptr, nullptr));
    CHECK_CL(clFinish(q));
    bench::MemcpyReference reference;
    int64_t cl_ns = 0;
    bool reference_first = false;  // alternated, so neither side always follows the other
    for (auto _ : state) {
        if (reference_first) reference.Run();
        const int64_t t0 = NowNs();
        switch (dir) {
            case kWrite:
                CHECK_CL(
                    clEnqueueWriteBuffer(q, a, CL_FALSE, 0, kCopyBytes, host, 0, nullptr, nullptr));
                break;
            case kRead:
                CHECK_CL(
                    clEnqueueReadBuffer(q, a, CL_FALSE, 0, kCopyBytes, host, 0, nullptr, nullptr));
                break;
            case kCopy:
                CHECK_CL(clEnqueueCopyBuffer(q, a, b, 0, 0, kCopyBytes, 0, nullptr, nullptr));
                break;
        }
        CHECK_CL(clFinish(q));
        const int64_t t = NowNs() - t0;
        cl_ns += t;
        state.SetIterationTime(static_cast<double>(t) * 1e-9);
        if (!reference_first) reference.Run();
        reference_first = !reference_first;
    }
    reference.Report(state, cl_ns);
    clReleaseMemObject(b);
    clReleaseMemObject(a);
    bench::Unmap(host, kCopyBytes);
    clReleaseCommandQueue(q);
}
BENCHMARK(BM_PoclCopy64MiB)
    ->ArgName("dir")  // 0: write (H2D), 1: read (D2H), 2: copy (D2D)
    ->DenseRange(kWrite, kCopy)
    ->UseManualTime()
    ->MinTime(0.2)
    ->Repetitions(kReps)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Idle cost --------------------------------------------------------------------------------

void BM_PoclIdleCpuOf8Queues(benchmark::State& state) {
    std::vector<cl_command_queue> queues;
    for (int i = 0; i < 8; ++i)
        queues.push_back(NewQueue());
    double percent = 0;
    for (auto _ : state) {
        for (cl_command_queue q : queues)
            CHECK_CL(EnqueueEmpty(q));
        for (cl_command_queue q : queues)
            CHECK_CL(clFinish(q));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        percent = bench::IdleCpuPercent(1000);
    }
    state.counters["cpu_percent"] = percent;
    for (cl_command_queue q : queues)
        clReleaseCommandQueue(q);
}
BENCHMARK(BM_PoclIdleCpuOf8Queues)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
    // PoCL's multi-threaded CPU device, unless the caller chose another.
    setenv("POCL_DEVICES", "pthread", 0);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    if (!SetUpPocl()) return 2;
    benchmark::AddCustomContext("peer", "PoCL");
    benchmark::AddCustomContext("pocl", g_cl.description);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    TearDownPocl();
    return 0;
}
