// openacl's CUDA backend next to the plain CUDA runtime, measured in the same process: kernel
// launch, launch + synchronise, host callback round trip, 256 MiB copies and 64 MiB
// malloc + free. Each BM_Acl_X here has its BM_Cuda_X peer in cuda/cuda_peer.cpp;
// tests/gpu/run_all.sh prints the ratios against the targets in docs/PERFORMANCE.md. Every
// benchmark skips (with the reason) where no CUDA device is usable.
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <stdlib.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "cuda/cuda_peer.h"

namespace {

using namespace bench_cuda;

std::string AclError(const char* what, aclError rc) {
    const char* message = aclGetRecentErrMsg();
    return std::string(what) + " -> " + std::to_string(rc) + ": " +
           (message != nullptr ? message : "(no message)");
}

// openacl on its CUDA backend: device 0, a stream, the same fatbin, and a second stream served
// by a thread looping on aclrtProcessReport for the callback round trip.
struct AclSide {
    std::string error;
    aclrtStream stream = nullptr;
    aclrtStream callback_stream = nullptr;
    aclrtBinHandle binary = nullptr;
    aclrtFuncHandle empty = nullptr;
    void* no_args = nullptr;  // argsData may not be null: an empty device block, argsSize 0
    bool initialized = false;
    bool subscribed = false;
    std::thread reporter;
    std::atomic<uint64_t> reporter_id{0};
    std::atomic<bool> stop{false};

    AclSide() {
        error = NoCudaDeviceReason();
        if (!error.empty()) return;
        setenv("OPENACL_BACKEND", "cuda", 0);
        aclError rc = aclInit(nullptr);
        uint32_t count = 0;
        aclrtContext context = nullptr;
        if (rc != ACL_SUCCESS) {
            error = AclError("aclInit on the CUDA backend", rc);
            return;
        }
        initialized = true;
        if ((rc = aclrtGetDeviceCount(&count)) != ACL_SUCCESS || count == 0) {
            error = AclError("aclrtGetDeviceCount (0 devices?)", rc);
        } else if ((rc = aclrtSetDevice(0)) != ACL_SUCCESS) {
            error = AclError("aclrtSetDevice(0)", rc);
        } else if ((rc = aclrtMalloc(&no_args, 64, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS) {
            error = AclError("aclrtMalloc", rc);
        } else if ((rc = aclrtCreateStream(&stream)) != ACL_SUCCESS ||
                   (rc = aclrtCreateStream(&callback_stream)) != ACL_SUCCESS) {
            error = AclError("aclrtCreateStream", rc);
        } else if ((rc = aclrtBinaryLoadFromFile(OPENACL_BENCH_CUDA_FATBIN, nullptr, &binary)) !=
                   ACL_SUCCESS) {
            error = AclError("aclrtBinaryLoadFromFile(" OPENACL_BENCH_CUDA_FATBIN ")", rc);
        } else if ((rc = aclrtBinaryGetFunction(binary, "empty_kernel", &empty)) != ACL_SUCCESS) {
            error = AclError("aclrtBinaryGetFunction(empty_kernel)", rc);
        } else if ((rc = aclrtGetCurrentContext(&context)) != ACL_SUCCESS) {
            error = AclError("aclrtGetCurrentContext", rc);
        } else {
            reporter = std::thread([this, context] {
                aclrtSetCurrentContext(context);
                reporter_id.store(static_cast<uint64_t>(pthread_self()));
                while (!stop.load())
                    aclrtProcessReport(100);
            });
            while (reporter_id.load() == 0)
                std::this_thread::yield();
            if ((rc = aclrtSubscribeReport(reporter_id.load(), callback_stream)) != ACL_SUCCESS) {
                error = AclError("aclrtSubscribeReport", rc);
            } else {
                subscribed = true;
            }
        }
    }
    // Everything undone in order, so the process exits cleanly (its exit status counts).
    ~AclSide() {
        if (reporter.joinable()) {
            stop.store(true);
            reporter.join();
        }
        if (subscribed) aclrtUnSubscribeReport(reporter_id.load(), callback_stream);
        if (binary != nullptr) aclrtBinaryUnLoad(binary);
        if (no_args != nullptr) aclrtFree(no_args);
        if (callback_stream != nullptr) aclrtDestroyStream(callback_stream);
        if (stream != nullptr) aclrtDestroyStream(stream);
        if (initialized) {
            aclrtResetDevice(0);
            aclFinalize();
        }
    }
    AclSide(const AclSide&) = delete;
    AclSide& operator=(const AclSide&) = delete;
    aclError LaunchEmpty() const { return aclrtLaunchKernel(empty, 1, no_args, 0, stream); }
};

// Made on first use (so a run filtered to BM_Cuda_* never initialises openacl), undone at the
// end of main.
std::unique_ptr<AclSide>& AclInstance() {
    static std::unique_ptr<AclSide> side;
    return side;
}
const AclSide& Acl() {
    if (!AclInstance()) AclInstance() = std::make_unique<AclSide>();
    return *AclInstance();
}

// True when the side is usable; otherwise skips the benchmark with the reason.
template <typename Side>
bool Ready(benchmark::State& state, const Side& side) {
    if (side.error.empty()) return true;
    state.SkipWithError(side.error.c_str());
    return false;
}

#define ACL_OR_SKIP(call)                                      \
    do {                                                       \
        const aclError rc_ = (call);                           \
        if (rc_ != ACL_SUCCESS) {                              \
            state.SkipWithError(AclError(#call, rc_).c_str()); \
            return;                                            \
        }                                                      \
    } while (0)

// ---- launch of an empty kernel: kBatch launches per iteration, drained untimed ----

void BM_Acl_LaunchEmpty(benchmark::State& state) {
    const AclSide& acl = Acl();
    if (!Ready(state, acl)) return;
    for (auto _ : state) {
        for (int i = 0; i < kBatch; ++i)
            ACL_OR_SKIP(acl.LaunchEmpty());
        state.PauseTiming();
        ACL_OR_SKIP(aclrtSynchronizeStream(acl.stream));
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_Acl_LaunchEmpty)->UseRealTime();

// ---- launch + synchronise ----

void BM_Acl_LaunchSync(benchmark::State& state) {
    const AclSide& acl = Acl();
    if (!Ready(state, acl)) return;
    for (auto _ : state) {
        ACL_OR_SKIP(acl.LaunchEmpty());
        ACL_OR_SKIP(aclrtSynchronizeStream(acl.stream));
    }
}
BENCHMARK(BM_Acl_LaunchSync)->UseRealTime();

// ---- host callback round trip: enqueue, run on the host, synchronise ----

void BM_Acl_CallbackRoundTrip(benchmark::State& state) {
    const AclSide& acl = Acl();
    if (!Ready(state, acl)) return;
    for (auto _ : state) {
        ACL_OR_SKIP(aclrtLaunchCallback(Nothing, nullptr, ACL_CALLBACK_BLOCK, acl.callback_stream));
        ACL_OR_SKIP(aclrtSynchronizeStream(acl.callback_stream));
    }
}
BENCHMARK(BM_Acl_CallbackRoundTrip)->UseRealTime();

void BM_Acl_HostFuncRoundTrip(benchmark::State& state) {
    const AclSide& acl = Acl();
    if (!Ready(state, acl)) return;
    for (auto _ : state) {
        ACL_OR_SKIP(aclrtLaunchHostFunc(acl.stream, Nothing, nullptr));
        ACL_OR_SKIP(aclrtSynchronizeStream(acl.stream));
    }
}
BENCHMARK(BM_Acl_HostFuncRoundTrip)->UseRealTime();

// ---- 256 MiB copies: pinned host <-> device, device -> device; copy + synchronise ----

enum class Direction { kH2D, kD2H, kD2D };

void AclCopy(benchmark::State& state, Direction direction) {
    const AclSide& acl = Acl();
    if (!Ready(state, acl)) return;
    void *host = nullptr, *a = nullptr, *b = nullptr;
    ACL_OR_SKIP(aclrtMallocHost(&host, kCopyBytes));
    ACL_OR_SKIP(aclrtMalloc(&a, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OR_SKIP(aclrtMalloc(&b, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OR_SKIP(aclrtMemset(host, kCopyBytes, 1, kCopyBytes));
    ACL_OR_SKIP(aclrtMemset(a, kCopyBytes, 2, kCopyBytes));
    ACL_OR_SKIP(aclrtMemset(b, kCopyBytes, 3, kCopyBytes));
    for (auto _ : state) {
        switch (direction) {
            case Direction::kH2D:
                ACL_OR_SKIP(aclrtMemcpyAsync(a, kCopyBytes, host, kCopyBytes,
                                             ACL_MEMCPY_HOST_TO_DEVICE, acl.stream));
                break;
            case Direction::kD2H:
                ACL_OR_SKIP(aclrtMemcpyAsync(host, kCopyBytes, a, kCopyBytes,
                                             ACL_MEMCPY_DEVICE_TO_HOST, acl.stream));
                break;
            case Direction::kD2D:
                ACL_OR_SKIP(aclrtMemcpyAsync(b, kCopyBytes, a, kCopyBytes,
                                             ACL_MEMCPY_DEVICE_TO_DEVICE, acl.stream));
                break;
        }
        ACL_OR_SKIP(aclrtSynchronizeStream(acl.stream));
    }
    state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(kCopyBytes));
    ACL_OR_SKIP(aclrtFree(a));
    ACL_OR_SKIP(aclrtFree(b));
    ACL_OR_SKIP(aclrtFreeHost(host));
}

void BM_Acl_MemcpyH2D_256MiB(benchmark::State& state) {
    AclCopy(state, Direction::kH2D);
}
void BM_Acl_MemcpyD2H_256MiB(benchmark::State& state) {
    AclCopy(state, Direction::kD2H);
}
void BM_Acl_MemcpyD2D_256MiB(benchmark::State& state) {
    AclCopy(state, Direction::kD2D);
}
BENCHMARK(BM_Acl_MemcpyH2D_256MiB)->UseRealTime()->MinTime(kCopyMinTime);
BENCHMARK(BM_Acl_MemcpyD2H_256MiB)->UseRealTime()->MinTime(kCopyMinTime);
BENCHMARK(BM_Acl_MemcpyD2D_256MiB)->UseRealTime()->MinTime(kCopyMinTime);

// ---- 64 MiB malloc + free in a loop ----

void BM_Acl_MallocFree64MiB(benchmark::State& state) {
    const AclSide& acl = Acl();
    if (!Ready(state, acl)) return;
    for (auto _ : state) {
        void* p = nullptr;
        ACL_OR_SKIP(aclrtMalloc(&p, kMallocBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_OR_SKIP(aclrtFree(p));
    }
}
BENCHMARK(BM_Acl_MallocFree64MiB)->UseRealTime();

// For reference: CUDA's own stream-ordered allocator, what openacl's pool is built on.

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    AclInstance().reset();  // before static destruction: the reporter thread is inside openacl
    return 0;
}
