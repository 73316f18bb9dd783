// z = x + y over n floats, the blocks splitting the vector into contiguous chunks.
#include "openacl/kernel.h"

extern "C" __global__ __aicore__ void vector_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t n) {
    const auto* a = reinterpret_cast<const float*>(x);
    const auto* b = reinterpret_cast<const float*>(y);
    auto* c = reinterpret_cast<float*>(z);
    uint64_t blocks = static_cast<uint64_t>(GetBlockNum());
    uint64_t chunk = (n + blocks - 1) / blocks;
    uint64_t begin = static_cast<uint64_t>(GetBlockIdx()) * chunk;
    uint64_t end = begin + chunk < n ? begin + chunk : n;
    for (uint64_t i = begin; i < end; ++i)
        c[i] = a[i] + b[i];
}

// Fails on purpose when asked to: shows how a kernel reports an error.
extern "C" __global__ __aicore__ void checked_copy(GM_ADDR src, GM_ADDR dst, uint64_t n,
                                                   int64_t fail_block) {
    OPENACL_KERNEL_ASSERT(GetBlockIdx() != fail_block);
    if (GetBlockIdx() == 0) {
        const auto* s = reinterpret_cast<const unsigned char*>(src);
        auto* d = reinterpret_cast<unsigned char*>(dst);
        for (uint64_t i = 0; i < n; ++i)
            d[i] = s[i];
    }
}

// Does nothing: measures the cost of a launch.
extern "C" __global__ __aicore__ void empty_kernel() {}
