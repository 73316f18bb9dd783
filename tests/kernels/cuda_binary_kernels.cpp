// Kernels the CUDA binary reader's tests (tests/unit/test_cuda_binary.cpp) find in the cubin,
// fatbin and PTX that nvcc builds from this file: one that asks for a block size and one that
// does not, with different parameter lists (every parameter 8 bytes, as openacl's slots are).
#include "openacl/kernel.h"

// 128 threads per block; three parameters, 24 bytes.
extern "C" __global__ __aicore__ __launch_bounds__(128) void bounded_copy(GM_ADDR src, GM_ADDR dst,
                                                                          uint64_t n) {
    const auto* s = reinterpret_cast<const float*>(src);
    auto* d = reinterpret_cast<float*>(dst);
    for (uint64_t i = GetBlockIdx() * GetThreadNum() + GetThreadIdx(); i < n;
         i += GetBlockNum() * GetThreadNum())
        d[i] = s[i];
}

// No block size given; five parameters, 40 bytes.
extern "C" __global__ __aicore__ void unbounded_axpy(GM_ADDR x, GM_ADDR y, double a, int64_t shift,
                                                     uint64_t n) {
    const auto* in = reinterpret_cast<const double*>(x);
    auto* out = reinterpret_cast<double*>(y);
    for (uint64_t i = GetBlockIdx() * GetThreadNum() + GetThreadIdx(); i < n;
         i += GetBlockNum() * GetThreadNum())
        out[i] += a * in[i] + static_cast<double>(shift);
}
