// PLACEHOLDER until the cuda-kernels branch lands: host-only reading of CUDA binaries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace openacl::cuda {

enum class BinaryFormat { kUnknown, kCubin, kFatbin, kPtx };
BinaryFormat DetectFormat(const void* data, size_t size);
struct KernelInfo {
    std::string name;
    uint32_t param_bytes = 0;
    uint32_t block_threads = 0;
};
bool ReadKernels(const void* data, size_t size, std::vector<KernelInfo>* out, std::string* why);

}  // namespace openacl::cuda
