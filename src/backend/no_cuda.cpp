// The CUDA entry points of the backend table when openacl is built without the CUDA toolkit.
#include "backend/accelerator.h"

namespace openacl::backend {

int CudaDeviceCount(std::string* why) {
    *why =
        "this openacl was built without the CUDA backend (no CUDA toolkit was found at build "
        "time)";
    return 0;
}

std::unique_ptr<Accelerator> OpenCudaDevice(int, std::string* why) {
    CudaDeviceCount(why);
    return nullptr;
}

bool IsCudaBinary(const void*, size_t) {
    return false;
}

}  // namespace openacl::backend
