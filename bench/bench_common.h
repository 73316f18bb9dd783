// Helpers shared by bench_runtime (openacl) and bench_pocl (the PoCL peer), so both measure the
// same way: the clock, page-aligned pre-faulted buffers, the plain-memcpy reference, process CPU
// time, and a busy loop that burns a fixed amount of *CPU* time.
#pragma once

#include <benchmark/benchmark.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {

// Tasks enqueued per timed batch in the enqueue benchmarks.
constexpr int kBatch = 256;
// Size of the large copies.
constexpr size_t kCopyBytes = size_t{64} << 20;

inline int64_t NowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Page-aligned anonymous memory, written once so no page fault lands in a timed region.
inline void* MapPrefaulted(size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        std::perror("mmap");
        std::abort();
    }
    std::memset(p, 1, bytes);
    return p;
}

inline void Unmap(void* p, size_t bytes) {
    munmap(p, bytes);
}

// The plain memcpy every copy benchmark compares with: kCopyBytes between two page-aligned,
// pre-faulted buffers, run on the benchmark's thread next to each timed copy (alternately
// before and after it). Report() sets the counters
// memcpy_us (mean memcpy time) and vs_memcpy (memcpy time / copy time: the copy's speed as a
// fraction of memcpy's; >= 1 means at least as fast).
class MemcpyReference {
 public:
    MemcpyReference() : src_(MapPrefaulted(kCopyBytes)), dst_(MapPrefaulted(kCopyBytes)) {}
    ~MemcpyReference() {
        Unmap(src_, kCopyBytes);
        Unmap(dst_, kCopyBytes);
    }
    MemcpyReference(const MemcpyReference&) = delete;
    MemcpyReference& operator=(const MemcpyReference&) = delete;

    void Run() {
        const int64_t t0 = NowNs();
        std::memcpy(dst_, src_, kCopyBytes);
        benchmark::ClobberMemory();
        ns_ += NowNs() - t0;
        ++runs_;
    }

    void Report(benchmark::State& state, int64_t copy_ns) const {
        state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                                static_cast<int64_t>(kCopyBytes));
        if (runs_ == 0 || copy_ns == 0) return;
        state.counters["memcpy_us"] = static_cast<double>(ns_) / static_cast<double>(runs_) * 1e-3;
        state.counters["vs_memcpy"] = static_cast<double>(ns_) / static_cast<double>(copy_ns);
    }

 private:
    void* src_;
    void* dst_;
    int64_t ns_ = 0;
    int64_t runs_ = 0;
};

// User + system CPU seconds of the whole process (every thread).
inline double ProcessCpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

// Percent of one core the process uses while the calling thread sleeps for `ms` milliseconds.
inline double IdleCpuPercent(int ms) {
    const double cpu0 = ProcessCpuSeconds();
    const int64_t t0 = NowNs();
    timespec ts{ms / 1000, static_cast<long>(ms % 1000) * 1'000'000};
    while (nanosleep(&ts, &ts) != 0) {
    }
    const double wall = static_cast<double>(NowNs() - t0) * 1e-9;
    return 100.0 * (ProcessCpuSeconds() - cpu0) / wall;
}

// The compute-bound kernel (bench/kernels/fp_chain.cpp; bench_pocl has it in OpenCL C):
// kChainSlices slices of kChainIters dependent float multiply-adds each. The parallel run deals
// the slices to kChainSlices blocks (work-groups); the one-core baseline runs all of them in one
// block, the same work on one worker.
constexpr uint32_t kChainSlices = 64;
constexpr uint32_t kChainIters = 1u << 16;

// What slice s of the kernel writes, computed on the host (same operations, same order).
inline float FpChainReference(uint32_t s) {
    float x = 1.0f + static_cast<float>(s) * 0.001f;
    for (uint32_t i = 0; i < kChainIters; ++i)
        x = x * 0.9999f + 0.0001f;
    return x;
}

// Timings of the one-block (one core) and the parallel launches of the compute-bound kernel,
// taken alternately in the same iterations so drift affects both alike. Report() sets
// serial_ms, parallel_ms, speedup (serial / parallel), cores (online CPUs) and efficiency
// (speedup / cores: 1 is perfect scaling).
struct ScalingCounters {
    int64_t serial_ns = 0;
    int64_t parallel_ns = 0;
    int64_t runs = 0;

    void Report(benchmark::State& state, int cores) const {
        if (runs == 0 || parallel_ns == 0) return;
        const double speedup = static_cast<double>(serial_ns) / static_cast<double>(parallel_ns);
        state.counters["serial_ms"] =
            static_cast<double>(serial_ns) / static_cast<double>(runs) * 1e-6;
        state.counters["parallel_ms"] =
            static_cast<double>(parallel_ns) / static_cast<double>(runs) * 1e-6;
        state.counters["speedup"] = speedup;
        state.counters["cores"] = cores;
        state.counters["efficiency"] = speedup / cores;
    }
};

inline int64_t ThreadCpuNs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Burns `ns` nanoseconds of this thread's CPU time. Unlike a wall-clock spin, two of these
// sharing one core take twice as long, so "two streams in parallel" cannot look parallel by
// accident.
inline void BurnCpu(int64_t ns) {
    const int64_t end = ThreadCpuNs() + ns;
    while (ThreadCpuNs() < end) {
    }
}

}  // namespace bench
