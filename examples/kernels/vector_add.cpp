// z = x + y over n floats, the blocks splitting the vector into contiguous chunks.
//
// One source for both backends: openacl_add_kernel_binary builds it for the CPU (one thread
// per block, GetThreadIdx() 0 and GetThreadNum() 1), openacl_add_cuda_kernel_binary for CUDA,
// where each block runs __launch_bounds__'s 256 threads that stride through the block's chunk.
// Every parameter is 8 bytes (pointers, uint64_t, int64_t), as the CUDA backend needs.
#include "openacl/kernel.h"

extern "C" __global__ __aicore__ __launch_bounds__(256) void vector_add(GM_ADDR x, GM_ADDR y,
                                                                        GM_ADDR z, uint64_t n) {
    const auto* a = reinterpret_cast<const float*>(x);
    const auto* b = reinterpret_cast<const float*>(y);
    auto* c = reinterpret_cast<float*>(z);
    uint64_t blocks = static_cast<uint64_t>(GetBlockNum());
    uint64_t chunk = (n + blocks - 1) / blocks;
    uint64_t begin = static_cast<uint64_t>(GetBlockIdx()) * chunk;
    uint64_t end = begin + chunk < n ? begin + chunk : n;
    for (uint64_t i = begin + GetThreadIdx(); i < end; i += GetThreadNum())
        c[i] = a[i] + b[i];
}

// Fails on purpose when asked to: shows how a kernel reports an error (on CUDA: a trap, which
// fails the launch with a CUDA error).
extern "C" __global__ __aicore__ void checked_copy(GM_ADDR src, GM_ADDR dst, uint64_t n,
                                                   int64_t fail_block) {
    OPENACL_KERNEL_ASSERT(GetBlockIdx() != fail_block);
    if (GetBlockIdx() == 0) {
        const auto* s = reinterpret_cast<const unsigned char*>(src);
        auto* d = reinterpret_cast<unsigned char*>(dst);
        for (uint64_t i = GetThreadIdx(); i < n; i += GetThreadNum())
            d[i] = s[i];
    }
}

// Does nothing: measures the cost of a launch.
extern "C" __global__ __aicore__ void empty_kernel() {}
