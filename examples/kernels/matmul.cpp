// C = A x B for row-major float matrices (M x K times K x N), one 32 x 32 tile of C per block
// index, tiles dealt round-robin over the blocks.
#include "openacl/kernel.h"

namespace {
constexpr uint32_t kTile = 32;
}

extern "C" __global__ __aicore__ void tiled_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m,
                                                   uint32_t n, uint32_t k) {
    const auto* A = reinterpret_cast<const float*>(a);
    const auto* B = reinterpret_cast<const float*>(b);
    auto* C = reinterpret_cast<float*>(c);
    uint32_t tiles_m = (m + kTile - 1) / kTile, tiles_n = (n + kTile - 1) / kTile;
    for (int64_t t = GetBlockIdx(); t < int64_t{tiles_m} * tiles_n; t += GetBlockNum()) {
        uint32_t i0 = static_cast<uint32_t>(t / tiles_n) * kTile;
        uint32_t j0 = static_cast<uint32_t>(t % tiles_n) * kTile;
        uint32_t i1 = i0 + kTile < m ? i0 + kTile : m, j1 = j0 + kTile < n ? j0 + kTile : n;
        float acc[kTile][kTile] = {};
        for (uint32_t p0 = 0; p0 < k; p0 += kTile) {
            uint32_t p1 = p0 + kTile < k ? p0 + kTile : k;
            for (uint32_t i = i0; i < i1; ++i) {
                for (uint32_t p = p0; p < p1; ++p) {
                    float av = A[uint64_t{i} * k + p];
                    for (uint32_t j = j0; j < j1; ++j)
                        acc[i - i0][j - j0] += av * B[uint64_t{p} * n + j];
                }
            }
        }
        for (uint32_t i = i0; i < i1; ++i) {
            for (uint32_t j = j0; j < j1; ++j)
                C[uint64_t{i} * n + j] = acc[i - i0][j - j0];
        }
    }
}
