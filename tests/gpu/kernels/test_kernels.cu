// Kernels the GPU tests launch through aclrtLaunchKernel*. openacl passes a kernel's arguments
// as a packed block of 8-byte slots, one per parameter, so every parameter here is 8 bytes wide
// (pointers, int64/uint64, double). extern "C" keeps the names aclrtBinaryGetFunction looks up.
#include <stdint.h>

// Does nothing: launch overhead, and a kernel with no __launch_bounds__ (block size 1).
extern "C" __global__ void empty_kernel() {}

// z[i] = x[i] + y[i] for i < n, over any grid (a grid-stride loop).
extern "C" __global__ void __launch_bounds__(128)
    vector_add(const float* x, const float* y, float* z, uint64_t n) {
    const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
    for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        z[i] = x[i] + y[i];
}

// Each block writes blockIdx.x + 1 into its own slot (0 means "never ran") and counts itself, so
// the test sees exactly which blocks ran and how often.
extern "C" __global__ void record_blocks(uint64_t* ids, unsigned long long* runs) {
    if (threadIdx.x == 0) {
        ids[blockIdx.x] = uint64_t{blockIdx.x} + 1;
        atomicAdd(runs, 1ULL);
    }
}

// Writes the launch's block size and counts every thread: the block size comes from
// __launch_bounds__.
extern "C" __global__ void __launch_bounds__(256)
    record_block_size(uint64_t* block_size, unsigned long long* threads) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *block_size = blockDim.x;
    atomicAdd(threads, 1ULL);
}

// The same without __launch_bounds__: one thread per block.
extern "C" __global__ void record_block_size_unbounded(uint64_t* block_size,
                                                       unsigned long long* threads) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *block_size = blockDim.x;
    atomicAdd(threads, 1ULL);
}

// Busy-waits for `ns` nanoseconds of the GPU's global timer (steadier than clock64, whose rate
// follows the SM clock), then writes `value` to *out if out is not null.
extern "C" __global__ void spin_ns(uint64_t ns, uint64_t* out, uint64_t value) {
    uint64_t start = 0, now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
    if (out != nullptr && threadIdx.x == 0 && blockIdx.x == 0) *out = value;
}

// Writes its scalar arguments back, so a test sees that each 8-byte slot arrived intact.
extern "C" __global__ void args_probe(uint64_t* out, uint64_t a, double b, int64_t c) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = a;
        out[1] = static_cast<uint64_t>(__double_as_longlong(b));
        out[2] = static_cast<uint64_t>(c);
    }
}
