// z = x + alpha * y, one tile per block; the tiling comes by value, alpha as a scalar. Written
// with openacl/kernel.h's names only (GM_ADDR, GetBlockIdx, GetBlockNum).
#include <cstdint>

#include "add_custom_tiling.h"
#include "openacl/kernel.h"

#ifndef ADD_CUSTOM_SCALE
#error "ascendc_compile_definitions did not reach the kernel compile"
#endif

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                 AddCustomTilingData tiling, float alpha) {
    const uint32_t begin = static_cast<uint32_t>(GetBlockIdx()) * tiling.tileLength;
    uint32_t end = begin + tiling.tileLength;
    if (end > tiling.totalLength) end = tiling.totalLength;
    const auto* xs = reinterpret_cast<const float*>(x);
    const auto* ys = reinterpret_cast<const float*>(y);
    auto* zs = reinterpret_cast<float*>(z);
    for (uint32_t i = begin; i < end; ++i)
        zs[i] = xs[i] + alpha * ys[i] * ADD_CUSTOM_SCALE;
}

// A template kernel, launched with <<<>>> from this file only (CANN's rule for templates).
template <typename T, int Factor>
__global__ __aicore__ void scale_copy(__gm__ T* out, __gm__ const T* in, uint32_t n) {
    for (uint32_t i = static_cast<uint32_t>(GetBlockIdx()); i < n;
         i += static_cast<uint32_t>(GetBlockNum())) {
        out[i] = in[i] * static_cast<T>(Factor);
    }
}

// The wrappers a host program calls (CANN's first launch form).
uint32_t add_custom_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                       AddCustomTilingData tiling, float alpha) {
    return add_custom<<<blockDim, nullptr, stream>>>(x, y, z, tiling, alpha);
}

uint32_t scale_copy_do(uint32_t blockDim, void* stream, float* out, const float* in, uint32_t n) {
    return scale_copy<float, 3><<<blockDim, 0, stream>>>(out, in, (n > 0 ? n : 0));
}
