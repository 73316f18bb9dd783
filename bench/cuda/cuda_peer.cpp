// The plain CUDA runtime side of bench_cuda: the BM_Cuda_* peers of BM_Acl_*, measured the same
// way in the same process, on the same kernel (the fatbin openacl loads).
#include "cuda_peer.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace bench_cuda {

namespace {

std::string CudaError(const char* what, cudaError_t rc) {
    return std::string(what) + ": " + cudaGetErrorName(rc) + " (" + cudaGetErrorString(rc) + ")";
}

// Device 0, a non-blocking stream, the empty kernel from the fatbin.
struct CudaSide {
    std::string error;
    cudaStream_t stream = nullptr;
    cudaLibrary_t library = nullptr;
    cudaKernel_t kernel = nullptr;

    CudaSide() {
        error = NoCudaDeviceReason();
        if (!error.empty()) return;
        cudaError_t rc = cudaSetDevice(0);
        if (rc != cudaSuccess) {
            error = CudaError("cudaSetDevice(0)", rc);
        } else if ((rc = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) !=
                   cudaSuccess) {
            error = CudaError("cudaStreamCreateWithFlags", rc);
        } else if ((rc = cudaLibraryLoadFromFile(&library, OPENACL_BENCH_CUDA_FATBIN, nullptr,
                                                 nullptr, 0, nullptr, nullptr, 0)) != cudaSuccess) {
            error = CudaError("cudaLibraryLoadFromFile(" OPENACL_BENCH_CUDA_FATBIN ")", rc);
        } else if ((rc = cudaLibraryGetKernel(&kernel, library, "empty_kernel")) != cudaSuccess) {
            error = CudaError("cudaLibraryGetKernel(empty_kernel)", rc);
        }
    }
    cudaError_t LaunchEmpty() const {
        return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(1), nullptr, 0,
                                stream);
    }
};

// Made on first use, so a run filtered to BM_Acl_* never touches it.
const CudaSide* Cuda(benchmark::State& state) {
    static const CudaSide side;
    if (side.error.empty()) return &side;
    state.SkipWithError(side.error.c_str());
    return nullptr;
}

#define CUDA_OR_SKIP(call)                                      \
    do {                                                        \
        const cudaError_t rc_ = (call);                         \
        if (rc_ != cudaSuccess) {                               \
            state.SkipWithError(CudaError(#call, rc_).c_str()); \
            return;                                             \
        }                                                       \
    } while (0)

void BM_Cuda_LaunchEmpty(benchmark::State& state) {
    const CudaSide* cuda = Cuda(state);
    if (cuda == nullptr) return;
    for (auto _ : state) {
        for (int i = 0; i < kBatch; ++i)
            CUDA_OR_SKIP(cuda->LaunchEmpty());
        state.PauseTiming();
        CUDA_OR_SKIP(cudaStreamSynchronize(cuda->stream));
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_Cuda_LaunchEmpty)->UseRealTime();

void BM_Cuda_LaunchSync(benchmark::State& state) {
    const CudaSide* cuda = Cuda(state);
    if (cuda == nullptr) return;
    for (auto _ : state) {
        CUDA_OR_SKIP(cuda->LaunchEmpty());
        CUDA_OR_SKIP(cudaStreamSynchronize(cuda->stream));
    }
}
BENCHMARK(BM_Cuda_LaunchSync)->UseRealTime();

void BM_Cuda_HostFuncRoundTrip(benchmark::State& state) {
    const CudaSide* cuda = Cuda(state);
    if (cuda == nullptr) return;
    for (auto _ : state) {
        CUDA_OR_SKIP(cudaLaunchHostFunc(cuda->stream, Nothing, nullptr));
        CUDA_OR_SKIP(cudaStreamSynchronize(cuda->stream));
    }
}
BENCHMARK(BM_Cuda_HostFuncRoundTrip)->UseRealTime();

enum class Direction { kH2D, kD2H, kD2D };

void CudaCopy(benchmark::State& state, Direction direction) {
    const CudaSide* cuda = Cuda(state);
    if (cuda == nullptr) return;
    void *host = nullptr, *a = nullptr, *b = nullptr;
    CUDA_OR_SKIP(cudaMallocHost(&host, kCopyBytes));
    CUDA_OR_SKIP(cudaMalloc(&a, kCopyBytes));
    CUDA_OR_SKIP(cudaMalloc(&b, kCopyBytes));
    CUDA_OR_SKIP(cudaMemset(a, 2, kCopyBytes));
    CUDA_OR_SKIP(cudaMemset(b, 3, kCopyBytes));
    for (size_t i = 0; i < kCopyBytes; i += 4096)
        static_cast<char*>(host)[i] = 1;  // no first-touch faults in the timed loop
    for (auto _ : state) {
        switch (direction) {
            case Direction::kH2D:
                CUDA_OR_SKIP(
                    cudaMemcpyAsync(a, host, kCopyBytes, cudaMemcpyHostToDevice, cuda->stream));
                break;
            case Direction::kD2H:
                CUDA_OR_SKIP(
                    cudaMemcpyAsync(host, a, kCopyBytes, cudaMemcpyDeviceToHost, cuda->stream));
                break;
            case Direction::kD2D:
                CUDA_OR_SKIP(
                    cudaMemcpyAsync(b, a, kCopyBytes, cudaMemcpyDeviceToDevice, cuda->stream));
                break;
        }
        CUDA_OR_SKIP(cudaStreamSynchronize(cuda->stream));
    }
    state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(kCopyBytes));
    CUDA_OR_SKIP(cudaFree(a));
    CUDA_OR_SKIP(cudaFree(b));
    CUDA_OR_SKIP(cudaFreeHost(host));
}

void BM_Cuda_MemcpyH2D_256MiB(benchmark::State& state) {
    CudaCopy(state, Direction::kH2D);
}
void BM_Cuda_MemcpyD2H_256MiB(benchmark::State& state) {
    CudaCopy(state, Direction::kD2H);
}
void BM_Cuda_MemcpyD2D_256MiB(benchmark::State& state) {
    CudaCopy(state, Direction::kD2D);
}
BENCHMARK(BM_Cuda_MemcpyH2D_256MiB)->UseRealTime()->MinTime(kCopyMinTime);
BENCHMARK(BM_Cuda_MemcpyD2H_256MiB)->UseRealTime()->MinTime(kCopyMinTime);
BENCHMARK(BM_Cuda_MemcpyD2D_256MiB)->UseRealTime()->MinTime(kCopyMinTime);

void BM_Cuda_MallocFree64MiB(benchmark::State& state) {
    const CudaSide* cuda = Cuda(state);
    if (cuda == nullptr) return;
    for (auto _ : state) {
        void* p = nullptr;
        CUDA_OR_SKIP(cudaMalloc(&p, kMallocBytes));
        CUDA_OR_SKIP(cudaFree(p));
    }
}
BENCHMARK(BM_Cuda_MallocFree64MiB)->UseRealTime();

// For reference: CUDA's stream-ordered allocator, what openacl's pool is built on.
void BM_Cuda_MallocFreeAsync64MiB(benchmark::State& state) {
    const CudaSide* cuda = Cuda(state);
    if (cuda == nullptr) return;
    for (auto _ : state) {
        void* p = nullptr;
        CUDA_OR_SKIP(cudaMallocAsync(&p, kMallocBytes, cuda->stream));
        CUDA_OR_SKIP(cudaFreeAsync(p, cuda->stream));
    }
    CUDA_OR_SKIP(cudaStreamSynchronize(cuda->stream));
}
BENCHMARK(BM_Cuda_MallocFreeAsync64MiB)->UseRealTime();

}  // namespace

std::string NoCudaDeviceReason() {
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess) return "no usable CUDA device: " + CudaError("cudaGetDeviceCount", rc);
    if (count == 0) return "no CUDA device: cudaGetDeviceCount reports 0";
    return "";
}

}  // namespace bench_cuda
