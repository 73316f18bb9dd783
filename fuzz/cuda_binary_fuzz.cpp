// Fuzz target: the CUDA backend's kernel binary reader (backend/cuda/cuda_binary.cpp), which
// reads cubins, fatbins and PTX before the driver sees them. Whatever the bytes, it must answer
// without reading outside them; what it accepts must be a list of named kernels, and what it
// refuses must come with a reason.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "backend/cuda/cuda_binary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace openacl::cuda;
    std::vector<KernelInfo> kernels;
    std::string why;
    BinaryFormat format = DetectFormat(data, size);
    bool ok = ReadKernels(data, size, &kernels, &why);
    if (FormatName(format) == nullptr) std::abort();
    if (ok) {
        if (format == BinaryFormat::kUnknown) std::abort();  // accepted what it cannot name
        for (const KernelInfo& kernel : kernels) {
            if (kernel.name.empty()) std::abort();
        }
    } else if (why.empty() || !kernels.empty()) {
        std::abort();
    }
    return 0;
}
