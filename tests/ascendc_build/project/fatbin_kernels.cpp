// Two kernels built into a loadable kernel object (ascendc_fatbin_library), whose parameters
// lie in CANN's packed layout at offsets of 4 as well as 8: pointers, a 32-bit count, a 12-byte
// struct by value, a 64-bit scalar.
#include <cstdint>

#include "openacl/kernel.h"

struct ScaleTiling {
    float scale;
    float offset;
    uint32_t tileLength;  // elements per block
};

// out[i] = in[i] * scale + offset, one tile per block.
extern "C" __global__ __aicore__ void scale_offset(GM_ADDR out, GM_ADDR in, uint32_t n,
                                                   ScaleTiling tiling) {
    const uint32_t begin = static_cast<uint32_t>(GetBlockIdx()) * tiling.tileLength;
    const uint32_t end = begin + tiling.tileLength < n ? begin + tiling.tileLength : n;
    const auto* src = reinterpret_cast<const float*>(in);
    auto* dst = reinterpret_cast<float*>(out);
    for (uint32_t i = begin; i < end; ++i)
        dst[i] = src[i] * tiling.scale + tiling.offset;
}

// out[i] = base + i, the blocks striding over the elements.
extern "C" __global__ __aicore__ void fill_index(GM_ADDR out, uint32_t n, int64_t base) {
    auto* dst = reinterpret_cast<int64_t*>(out);
    for (uint32_t i = static_cast<uint32_t>(GetBlockIdx()); i < n;
         i += static_cast<uint32_t>(GetBlockNum()))
        dst[i] = base + i;
}
