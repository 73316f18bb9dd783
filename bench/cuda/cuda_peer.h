// What bench_cuda's openacl side and its CUDA runtime peer (cuda_peer.cpp) share. The peer is a
// file of its own because acl_rt.h and CUDA's vector_types.h both define `struct dim3`: no
// translation unit can include both.
#pragma once

#include <cstddef>
#include <string>

namespace bench_cuda {

// Launches per timed batch in the launch benchmarks (the queue is drained untimed between).
constexpr int kBatch = 256;
constexpr size_t kCopyBytes = size_t{256} << 20;
constexpr size_t kMallocBytes = size_t{64} << 20;
// Seconds each 256 MiB copy benchmark runs for at least.
constexpr double kCopyMinTime = 0.3;

// Why the CUDA runtime cannot be used here, or "" when it has a device.
std::string NoCudaDeviceReason();

// The host function both sides' round trips run: does nothing.
inline void Nothing(void*) {}

}  // namespace bench_cuda
