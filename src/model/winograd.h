// The compiled engine's own 3x3 convolution: Winograd's F(4x4, 3x3) or F(2x2, 3x3) minimal
// filtering on AVX-512, for stride 1, padding 1 and nChw16c activations (oneDNN's aBcd16b).
// oneDNN 2.6 has both too, but at batch 1 it spends about a third of a 56x56 convolution outside
// the products; this one transforms a block of tiles, multiplies it and transforms it back while
// the block is still in the core's L2. The engine times it against oneDNN's choice at load and
// keeps the faster, so a CPU where it loses never runs it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace openacl::model {

struct WinogradConvShape {
    int64_t batch = 1;
    int64_t in_channels = 0;   // a multiple of 16
    int64_t out_channels = 0;  // a multiple of 64
    int64_t height = 0, width = 0;
    bool relu = false;  // max(0, x) after the bias
    int tile = 4;       // output tile side m of F(m x m, 3x3): 2 or 4
};

// Whether this CPU runs the kernel (AVX-512F), and whether it takes the shape.
bool WinogradAvailable();
bool WinogradTakes(const WinogradConvShape& shape);

// Floats of the transformed weights, and their transform from ONNX's [K, C, 3, 3] (once, at
// load).
size_t WinogradWeightFloats(const WinogradConvShape& shape);
void WinogradTransformWeights(const WinogradConvShape& shape, const float* kcrs,
                              float* transformed);

// Bytes of scratch one convolution needs on up to `threads` OpenMP threads.
size_t WinogradScratchBytes(const WinogradConvShape& shape, int threads);

// dst = relu?(conv(src, weights) + bias), on the calling thread's OpenMP team (at most the
// `threads` the scratch was sized for). bias may be null; no alignment is required.
void WinogradConvolve(const WinogradConvShape& shape, const float* src, const float* transformed,
                      const float* bias, float* dst, void* scratch, int threads);

}  // namespace openacl::model
