// What the CUDA runtime itself says, for tests to cross-check openacl against. Kept apart from
// the AscendCL headers: acl_rt.h and CUDA's vector_types.h both define `struct dim3`, so no
// translation unit can include both.
#pragma once

#include <cstddef>
#include <string>

namespace cuda_probe {

// Why CUDA cannot be used here, or "" when it has at least one device.
std::string NoDeviceReason();

// cudaGetDeviceCount; "" on success, else the CUDA error.
std::string DeviceCount(int* count);

// cudaMemGetInfo on device 0; "" on success, else the CUDA error.
std::string MemInfo(size_t* free, size_t* total);

// What cudaPointerGetAttributes says a pointer is: "device", "host" (pinned), "managed" or
// "unregistered" (pageable), or "error: ..." when the call fails.
std::string PointerKind(const void* p);

}  // namespace cuda_probe
