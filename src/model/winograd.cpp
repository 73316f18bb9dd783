// Winograd convolution F(m x m, 3x3), m = 2 or 4 (model/winograd.h). Each (m+2)^2 input tile
// (stride m) becomes (m+2)^2 transformed points V = B'dB per channel; the products
// M[p] = V[p] U[p] over the channels, one per point p, are small matrix products; each output
// tile is A'MA. This file is compiled for AVX-512F alone (src/CMakeLists.txt) and includes no
// C++ library headers, so that none of its code can be chosen by the linker for callers on CPUs
// without it; WinogradAvailable() gates every call.
//
// The work of one OpenMP thread: a range of tiles or a range of 64-channel output chunks.
// Tiles go in blocks sized so that a block's V (all input channels) and M (one chunk) stay in
// the core's L2; U[p] for one chunk (C x 64 floats) stays in L1 while all the block's rows use it.
#include "model/winograd.h"

#include <immintrin.h>
#include <omp.h>

namespace openacl::model {
namespace {

constexpr int64_t kChunk = 64;            // output channels per product: four zmm registers
constexpr int64_t kRows = 6;              // tiles per register block: 6 x 4 accumulators
constexpr int64_t kBlock = 16;            // channels per nChw16c block
constexpr int64_t kL2Bytes = 512 * 1024;  // what a tile block may use of the core's L2
// ... or up to this much when that holds a thread's whole share of tiles: the transformed weights
// are then read once per thread (ResNet-50's 28x28 layers: 0.01 - 0.04 ms less each on a Zen 5,
// where 56x56's, whose weights stay in L2 between blocks, lost as much with blocks this large).
constexpr int64_t kL2BytesOneBlock = 768 * 1024;

int64_t Min(int64_t a, int64_t b) {
    return a < b ? a : b;
}
int64_t Max(int64_t a, int64_t b) {
    return a > b ? a : b;
}
int64_t CeilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

struct Layout {
    int64_t m, alpha, points;         // output tile side, input tile side, alpha^2
    int64_t tiles_h, tiles_w, tiles;  // tiles of all images
    int64_t chunks;                   // 64-channel output chunks
    int64_t block;                    // most tiles per block
    bool by_chunks;                   // threads split the output chunks, not the tiles
    size_t v_floats, m_floats;        // per thread
};

// For `threads` threads splitting the tiles (the scratch is sized for them).
Layout MakeLayout(const WinogradConvShape& s, int threads) {
    Layout l;
    l.m = s.tile;
    l.alpha = l.m + 2;
    l.points = l.alpha * l.alpha;
    l.tiles_h = CeilDiv(s.height, l.m);
    l.tiles_w = CeilDiv(s.width, l.m);
    l.tiles = s.batch * l.tiles_h * l.tiles_w;
    l.chunks = s.out_channels / kChunk;
    const int64_t per_tile =
        l.points * static_cast<int64_t>(sizeof(float)) * (s.in_channels + kChunk);
    auto block_for = [&](int64_t share) {
        return Min(l.tiles,
                   share * per_tile <= kL2BytesOneBlock ? share : Max(4, kL2Bytes / per_tile));
    };
    // Each block reads U for every chunk its thread multiplies. Splitting the tiles, every
    // thread reads all of U; splitting the chunks, each reads its own part, but for every tile,
    // and transforms every tile, which costs about as much as multiplying one chunk. So chunks
    // where each thread has two or more and reads U no more often than splitting the tiles:
    // the threads then read disjoint weights, which on a Zen 5 come from memory once rather
    // than once per core (ResNet-50 on two threads: its 14x14 layers 0.03 - 0.08 ms less each
    // at batch 1, its 7x7 ones 1 - 2 ms at batch 8; its 28x28 layers, one chunk per thread,
    // lost 10 - 25%). Few tiles: chunks.
    const int64_t n = Max(threads, 1), chunks = l.chunks;
    const int64_t tile_share = CeilDiv(l.tiles, n);
    const int64_t tile_block = block_for(tile_share), chunk_block = block_for(l.tiles);
    const int64_t reads_by_tiles = CeilDiv(tile_share, tile_block) * chunks;
    const int64_t reads_by_chunks = CeilDiv(l.tiles, chunk_block) * CeilDiv(chunks, n);
    l.by_chunks = n > 1 && chunks >= n &&
                  (l.tiles < 12 * n || (chunks >= 2 * n && reads_by_chunks <= reads_by_tiles));
    l.block = l.by_chunks ? chunk_block : tile_block;
    l.v_floats = static_cast<size_t>(l.points * l.block * s.in_channels);
    l.m_floats = static_cast<size_t>(l.points * l.block * kChunk);
    return l;
}

size_t Aligned(size_t floats) {
    return (floats + 15) / 16 * 16;
}

// B'd for an alpha-vector (the input transform's columns, then its rows).
template <int M>
inline void InputTransform(const __m512* d, __m512* r);

template <>
inline void InputTransform<2>(const __m512* d, __m512* r) {
    r[0] = _mm512_sub_ps(d[0], d[2]);
    r[1] = _mm512_add_ps(d[1], d[2]);
    r[2] = _mm512_sub_ps(d[2], d[1]);
    r[3] = _mm512_sub_ps(d[1], d[3]);
}

template <>
inline void InputTransform<4>(const __m512* d, __m512* r) {
    const __m512 four = _mm512_set1_ps(4.0f), five = _mm512_set1_ps(5.0f);
    const __m512 two = _mm512_set1_ps(2.0f);
    r[0] = _mm512_fmadd_ps(four, d[0], _mm512_fnmadd_ps(five, d[2], d[4]));
    r[1] = _mm512_fnmadd_ps(four, _mm512_add_ps(d[1], d[2]), _mm512_add_ps(d[3], d[4]));
    r[2] = _mm512_fmadd_ps(four, _mm512_sub_ps(d[1], d[2]), _mm512_sub_ps(d[4], d[3]));
    r[3] = _mm512_fmadd_ps(two, _mm512_sub_ps(d[3], d[1]), _mm512_sub_ps(d[4], d[2]));
    r[4] = _mm512_fnmadd_ps(two, _mm512_sub_ps(d[3], d[1]), _mm512_sub_ps(d[4], d[2]));
    r[5] = _mm512_fmadd_ps(four, d[1], _mm512_fnmadd_ps(five, d[3], d[5]));
}

// A'm for an alpha-vector (the output transform).
template <int M>
inline void OutputTransform(const __m512* m, __m512* o);

template <>
inline void OutputTransform<2>(const __m512* m, __m512* o) {
    o[0] = _mm512_add_ps(_mm512_add_ps(m[0], m[1]), m[2]);
    o[1] = _mm512_sub_ps(_mm512_sub_ps(m[1], m[2]), m[3]);
}

template <>
inline void OutputTransform<4>(const __m512* m, __m512* o) {
    const __m512 s12 = _mm512_add_ps(m[1], m[2]), d12 = _mm512_sub_ps(m[1], m[2]);
    const __m512 s34 = _mm512_add_ps(m[3], m[4]), d34 = _mm512_sub_ps(m[3], m[4]);
    o[0] = _mm512_add_ps(_mm512_add_ps(m[0], s12), s34);
    o[1] = _mm512_fmadd_ps(_mm512_set1_ps(2.0f), d34, d12);
    o[2] = _mm512_fmadd_ps(_mm512_set1_ps(4.0f), s34, s12);
    o[3] = _mm512_add_ps(_mm512_fmadd_ps(_mm512_set1_ps(8.0f), d34, d12), m[5]);
}

// Tiles [first, first + count) of all images into v: v[p][t][c], t counted from `first`.
template <int M>
void TransformTiles(const WinogradConvShape& s, const Layout& l, const float* src, int64_t first,
                    int64_t count, float* v) {
    constexpr int kAlpha = M + 2;
    const int64_t c_blocks = s.in_channels / kBlock, plane = s.height * s.width;
    const int64_t per_image = l.tiles_h * l.tiles_w;
    for (int64_t t = 0; t < count; ++t) {
        const int64_t tile = first + t, image = tile / per_image;
        const int64_t y0 = (tile % per_image) / l.tiles_w * M - 1;
        const int64_t x0 = tile % l.tiles_w * M - 1;
        const bool inside = y0 >= 0 && x0 >= 0 && y0 + kAlpha <= s.height && x0 + kAlpha <= s.width;
        for (int64_t cb = 0; cb < c_blocks; ++cb) {
            const float* in = src + (image * c_blocks + cb) * plane * kBlock;
            __m512 d[kAlpha][kAlpha], rows[kAlpha][kAlpha];
#pragma GCC unroll 6
            for (int i = 0; i < kAlpha; ++i) {
                const int64_t y = y0 + i;
#pragma GCC unroll 6
                for (int j = 0; j < kAlpha; ++j) {
                    const int64_t x = x0 + j;
                    d[i][j] = inside || (y >= 0 && y < s.height && x >= 0 && x < s.width)
                                  ? _mm512_loadu_ps(in + (y * s.width + x) * kBlock)
                                  : _mm512_setzero_ps();
                }
            }
#pragma GCC unroll 6
            for (int j = 0; j < kAlpha; ++j) {
                __m512 column[kAlpha], out[kAlpha];
#pragma GCC unroll 6
                for (int i = 0; i < kAlpha; ++i)
                    column[i] = d[i][j];
                InputTransform<M>(column, out);
#pragma GCC unroll 6
                for (int i = 0; i < kAlpha; ++i)
                    rows[i][j] = out[i];
            }
#pragma GCC unroll 6
            for (int i = 0; i < kAlpha; ++i) {
                __m512 out[kAlpha];
                InputTransform<M>(rows[i], out);
#pragma GCC unroll 6
                for (int j = 0; j < kAlpha; ++j) {
                    float* at = v + ((i * kAlpha + j) * count + t) * s.in_channels + cb * kBlock;
                    _mm512_storeu_ps(at, out[j]);
                }
            }
        }
    }
}

// m[r][0..63] = sum over c of v[r][c] * u[c][0..63], for R rows of v (stride ldv).
template <int R>
void Product(const float* v, int64_t ldv, int64_t channels, const float* u, float* m) {
    __m512 acc[R][4];
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 6
        for (int j = 0; j < 4; ++j)
            acc[r][j] = _mm512_setzero_ps();
    }
    for (int64_t c = 0; c < channels; ++c) {
        const float* uc = u + c * kChunk;
        const __m512 u0 = _mm512_loadu_ps(uc), u1 = _mm512_loadu_ps(uc + 16);
        const __m512 u2 = _mm512_loadu_ps(uc + 32), u3 = _mm512_loadu_ps(uc + 48);
#pragma GCC unroll 6
        for (int r = 0; r < R; ++r) {
            const __m512 b = _mm512_set1_ps(v[r * ldv + c]);
            acc[r][0] = _mm512_fmadd_ps(b, u0, acc[r][0]);
            acc[r][1] = _mm512_fmadd_ps(b, u1, acc[r][1]);
            acc[r][2] = _mm512_fmadd_ps(b, u2, acc[r][2]);
            acc[r][3] = _mm512_fmadd_ps(b, u3, acc[r][3]);
        }
    }
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 6
        for (int j = 0; j < 4; ++j)
            _mm512_storeu_ps(m + r * kChunk + j * 16, acc[r][j]);
    }
}

void ProductRows(int64_t rows, const float* v, int64_t ldv, int64_t channels, const float* u,
                 float* m) {
    switch (rows) {
        case 1:
            return Product<1>(v, ldv, channels, u, m);
        case 2:
            return Product<2>(v, ldv, channels, u, m);
        case 3:
            return Product<3>(v, ldv, channels, u, m);
        case 4:
            return Product<4>(v, ldv, channels, u, m);
        case 5:
            return Product<5>(v, ldv, channels, u, m);
        default:
            return Product<6>(v, ldv, channels, u, m);
    }
}

// Output chunk `chunk` (64 channels) of tiles [first, first + count) from m[p][t][64].
template <int M>
void StoreTiles(const WinogradConvShape& s, const Layout& l, const float* m, const float* bias,
                int64_t chunk, int64_t first, int64_t count, float* dst) {
    constexpr int kAlpha = M + 2;
    const int64_t k_blocks = s.out_channels / kBlock, plane = s.height * s.width;
    const int64_t per_image = l.tiles_h * l.tiles_w;
    const __m512 zero = _mm512_setzero_ps();
    for (int64_t t = 0; t < count; ++t) {
        const int64_t tile = first + t, image = tile / per_image;
        const int64_t y0 = (tile % per_image) / l.tiles_w * M;
        const int64_t x0 = tile % l.tiles_w * M;
        const int64_t ny = Min(M, s.height - y0), nx = Min(M, s.width - x0);
        for (int64_t kb = 0; kb < kChunk / kBlock; ++kb) {
            const int64_t block = chunk * (kChunk / kBlock) + kb;
            const __m512 b = bias ? _mm512_loadu_ps(bias + block * kBlock) : zero;
            __m512 cols[M][kAlpha];
#pragma GCC unroll 6
            for (int j = 0; j < kAlpha; ++j) {
                __m512 column[kAlpha], out[M];
#pragma GCC unroll 6
                for (int i = 0; i < kAlpha; ++i) {
                    column[i] =
                        _mm512_loadu_ps(m + ((i * kAlpha + j) * count + t) * kChunk + kb * kBlock);
                }
                OutputTransform<M>(column, out);
#pragma GCC unroll 6
                for (int i = 0; i < M; ++i)
                    cols[i][j] = out[i];
            }
            float* out = dst + (image * k_blocks + block) * plane * kBlock;
#pragma GCC unroll 6
            for (int i = 0; i < M; ++i) {
                if (i >= ny) break;
                __m512 row[M];
                OutputTransform<M>(cols[i], row);
#pragma GCC unroll 6
                for (int j = 0; j < M; ++j) {
                    if (j >= nx) break;
                    __m512 y = _mm512_add_ps(row[j], b);
                    // The maskz form: GCC 12 warns about _mm512_max_ps's undefined pass-through.
                    if (s.relu) y = _mm512_maskz_max_ps(0xffff, y, zero);
                    _mm512_storeu_ps(out + ((y0 + i) * s.width + x0 + j) * kBlock, y);
                }
            }
        }
    }
}

// One thread's share: tiles [first, end), output chunks [chunk0, chunk1).
template <int M>
void Work(const WinogradConvShape& s, const Layout& l, const float* src, const float* u,
          const float* bias, float* dst, float* v, float* m, int64_t first, int64_t end,
          int64_t chunk0, int64_t chunk1) {
    const int64_t c = s.in_channels;
    const int64_t blocks = CeilDiv(end - first, l.block);
    for (int64_t b = 0; b < blocks; ++b) {
        // Blocks as even as the range allows, register blocks as even as the block allows.
        const int64_t from = first + (end - first) * b / blocks;
        const int64_t count = first + (end - first) * (b + 1) / blocks - from;
        TransformTiles<M>(s, l, src, from, count, v);
        const int64_t groups = CeilDiv(count, kRows);
        for (int64_t chunk = chunk0; chunk < chunk1; ++chunk) {
            const float* uc = u + chunk * l.points * c * kChunk;
            for (int64_t p = 0; p < l.points; ++p) {
                const float* vp = v + p * count * c;
                const float* up = uc + p * c * kChunk;
                float* mp = m + p * count * kChunk;
                for (int64_t g = 0; g < groups; ++g) {
                    const int64_t r0 = count * g / groups, r1 = count * (g + 1) / groups;
                    ProductRows(r1 - r0, vp + r0 * c, c, c, up, mp + r0 * kChunk);
                }
            }
            StoreTiles<M>(s, l, m, bias, chunk, from, count, dst);
        }
    }
}

}  // namespace

bool WinogradAvailable() {
    return __builtin_cpu_supports("avx512f");
}

bool WinogradTakes(const WinogradConvShape& s) {
    return (s.tile == 2 || s.tile == 4) && s.batch > 0 && s.height > 0 && s.width > 0 &&
           s.in_channels > 0 && s.in_channels % kBlock == 0 && s.out_channels > 0 &&
           s.out_channels % kChunk == 0;
}

size_t WinogradWeightFloats(const WinogradConvShape& s) {
    return static_cast<size_t>(MakeLayout(s, 1).points * s.in_channels * s.out_channels);
}

void WinogradTransformWeights(const WinogradConvShape& s, const float* kcrs, float* transformed) {
    // G (alpha x 3); U = G g G' per (k, c), laid out [chunk][p][c][64].
    static const double g4[6][3] = {{1.0 / 4, 0, 0},
                                    {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                    {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                    {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                    {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                    {0, 0, 1}};
    static const double g2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
    const Layout l = MakeLayout(s, 1);
    const int alpha = static_cast<int>(l.alpha);
    const double(*g)[3] = s.tile == 4 ? g4 : g2;
    const int64_t channels = s.in_channels;
    for (int64_t k = 0; k < s.out_channels; ++k) {
        for (int64_t c = 0; c < channels; ++c) {
            const float* w = kcrs + (k * channels + c) * 9;
            double gw[6][3];  // G g
            for (int i = 0; i < alpha; ++i) {
                for (int b = 0; b < 3; ++b)
                    gw[i][b] = g[i][0] * w[b] + g[i][1] * w[3 + b] + g[i][2] * w[6 + b];
            }
            const int64_t chunk = k / kChunk, lane = k % kChunk;
            for (int i = 0; i < alpha; ++i) {
                for (int j = 0; j < alpha; ++j) {
                    const double value =
                        gw[i][0] * g[j][0] + gw[i][1] * g[j][1] + gw[i][2] * g[j][2];
                    const int64_t p = i * alpha + j;
                    transformed[((chunk * l.points + p) * channels + c) * kChunk + lane] =
                        static_cast<float>(value);
                }
            }
        }
    }
}

size_t WinogradScratchBytes(const WinogradConvShape& s, int threads) {
    const Layout l = MakeLayout(s, threads);
    return static_cast<size_t>(Max(threads, 1)) * (Aligned(l.v_floats) + Aligned(l.m_floats)) *
           sizeof(float);
}

void WinogradConvolve(const WinogradConvShape& s, const float* src, const float* transformed,
                      const float* bias, float* dst, void* scratch, int threads) {
    const Layout l = MakeLayout(s, threads);
    const int64_t chunks = l.chunks;
    const size_t per_thread = Aligned(l.v_floats) + Aligned(l.m_floats);
    auto work = s.tile == 4 ? Work<4> : Work<2>;
    // The team the caller's OpenMP setting gives (the run's lease), within what the scratch holds.
    const int team = static_cast<int>(Min(Max(threads, 1), omp_get_max_threads()));
#pragma omp parallel num_threads(team)
    {
        const int64_t n = omp_get_num_threads(), i = omp_get_thread_num();
        float* v = static_cast<float*>(scratch) + static_cast<size_t>(i) * per_thread;
        float* m = v + Aligned(l.v_floats);
        // The team may be smaller than the threads the layout was made for (MakeLayout).
        if (!l.by_chunks || chunks < n) {
            work(s, l, src, transformed, bias, dst, v, m, l.tiles * i / n, l.tiles * (i + 1) / n, 0,
                 chunks);
        } else {
            work(s, l, src, transformed, bias, dst, v, m, 0, l.tiles, chunks * i / n,
                 chunks * (i + 1) / n);
        }
    }
}

}  // namespace openacl::model
