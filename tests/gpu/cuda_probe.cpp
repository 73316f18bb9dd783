// The CUDA runtime side of the cross-checks (see cuda_probe.h for why it is a file of its own).
#include "cuda_probe.h"

#include <cuda_runtime_api.h>

namespace cuda_probe {

namespace {

std::string Describe(const char* call, cudaError_t rc) {
    return std::string(call) + ": " + cudaGetErrorName(rc) + " (" + cudaGetErrorString(rc) + ")";
}

}  // namespace

std::string DeviceCount(int* count) {
    const cudaError_t rc = cudaGetDeviceCount(count);
    return rc == cudaSuccess ? "" : Describe("cudaGetDeviceCount", rc);
}

std::string NoDeviceReason() {
    int count = 0;
    const std::string error = DeviceCount(&count);
    if (!error.empty()) return "no usable CUDA device: " + error;
    if (count == 0) return "no CUDA device: cudaGetDeviceCount reports 0";
    return "";
}

std::string MemInfo(size_t* free, size_t* total) {
    cudaError_t rc = cudaSetDevice(0);
    if (rc != cudaSuccess) return Describe("cudaSetDevice(0)", rc);
    rc = cudaMemGetInfo(free, total);
    return rc == cudaSuccess ? "" : Describe("cudaMemGetInfo", rc);
}

std::string PointerKind(const void* p) {
    cudaPointerAttributes attributes{};
    const cudaError_t rc = cudaPointerGetAttributes(&attributes, p);
    if (rc != cudaSuccess) return "error: " + Describe("cudaPointerGetAttributes", rc);
    switch (attributes.type) {
        case cudaMemoryTypeDevice:
            return "device";
        case cudaMemoryTypeHost:
            return "host";
        case cudaMemoryTypeManaged:
            return "managed";
        default:
            return "unregistered";
    }
}

}  // namespace cuda_probe
