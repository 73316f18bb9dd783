// The compiled engine's own Winograd convolution (model/winograd.h): F(2x2, 3x3) and
// F(4x4, 3x3) against a direct convolution computed here in double precision, and the engine's
// use of it (OPENACL_WINOGRAD).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/device.h"
#include "model/winograd.h"

namespace openacl::model {
namespace {

std::vector<float> Random(size_t n, uint32_t seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-scale, scale);
    std::vector<float> v(n);
    for (float& x : v)
        x = dist(rng);
    return v;
}

// nChw16c (channels a multiple of 16) from and to plain NCHW.
std::vector<float> Blocked(const std::vector<float>& nchw, int64_t n, int64_t c, int64_t hw) {
    std::vector<float> out(nchw.size());
    for (int64_t i = 0; i < n; ++i)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t p = 0; p < hw; ++p)
                out[((i * (c / 16) + ch / 16) * hw + p) * 16 + ch % 16] =
                    nchw[(i * c + ch) * hw + p];
    return out;
}

// A 3x3 convolution, stride 1, padding 1, plain NCHW, in double precision.
std::vector<double> Direct(const WinogradConvShape& s, const std::vector<float>& x,
                           const std::vector<float>& w, const float* bias) {
    const int64_t h = s.height, wd = s.width, c = s.in_channels, k = s.out_channels;
    std::vector<double> y(static_cast<size_t>(s.batch * k * h * wd));
    for (int64_t n = 0; n < s.batch; ++n)
        for (int64_t o = 0; o < k; ++o)
            for (int64_t i = 0; i < h; ++i)
                for (int64_t j = 0; j < wd; ++j) {
                    double sum = bias ? bias[o] : 0.0;
                    for (int64_t ch = 0; ch < c; ++ch)
                        for (int64_t a = 0; a < 3; ++a)
                            for (int64_t b = 0; b < 3; ++b) {
                                const int64_t yi = i + a - 1, xj = j + b - 1;
                                if (yi < 0 || yi >= h || xj < 0 || xj >= wd) continue;
                                sum += double{x[((n * c + ch) * h + yi) * wd + xj]} *
                                       w[((o * c + ch) * 3 + a) * 3 + b];
                            }
                    if (s.relu) sum = std::max(sum, 0.0);
                    y[((n * k + o) * h + i) * wd + j] = sum;
                }
    return y;
}

struct Case {
    int tile;
    int64_t batch, in_channels, out_channels, height, width;
    bool relu, bias;
    int threads;
};

std::string Name(const testing::TestParamInfo<Case>& info) {
    const Case& c = info.param;
    return "F" + std::to_string(c.tile) + "_n" + std::to_string(c.batch) + "_c" +
           std::to_string(c.in_channels) + "_k" + std::to_string(c.out_channels) + "_" +
           std::to_string(c.height) + "x" + std::to_string(c.width) + (c.relu ? "_relu" : "") +
           (c.bias ? "_bias" : "") + "_t" + std::to_string(c.threads);
}

class WinogradConvolution : public testing::TestWithParam<Case> {};

TEST_P(WinogradConvolution, MatchesADirectConvolution) {
    if (!WinogradAvailable()) GTEST_SKIP() << "the kernel needs AVX-512F";
    const Case& p = GetParam();
    WinogradConvShape s{p.batch, p.in_channels, p.out_channels, p.height, p.width, p.relu, p.tile};
    ASSERT_TRUE(WinogradTakes(s));
    const int64_t hw = s.height * s.width;
    const auto x = Random(static_cast<size_t>(s.batch * s.in_channels * hw), 1);
    // Weights of a unit-variance layer: outputs of about the inputs' size.
    const auto w = Random(static_cast<size_t>(s.out_channels * s.in_channels * 9), 2,
                          1.0f / std::sqrt(3.0f * static_cast<float>(s.in_channels)));
    const auto bias = Random(static_cast<size_t>(s.out_channels), 3);
    std::vector<float> u(WinogradWeightFloats(s));
    WinogradTransformWeights(s, w.data(), u.data());
    // Under ThreadSanitizer scripts/test.sh allows one thread (OPENACL_MODEL_THREADS=1): it
    // cannot see how libgomp's threads synchronise.
    const int threads = std::min(p.threads, ComputeThreadsPerRun());
    std::vector<unsigned char> scratch(WinogradScratchBytes(s, threads));
    const auto src = Blocked(x, s.batch, s.in_channels, hw);
    std::vector<float> dst(static_cast<size_t>(s.batch * s.out_channels * hw), NAN);
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    WinogradConvolve(s, src.data(), u.data(), p.bias ? bias.data() : nullptr, dst.data(),
                     scratch.data(), threads);
    omp_set_num_threads(saved);

    const auto want = Direct(s, x, w, p.bias ? bias.data() : nullptr);
    std::vector<float> as_float(want.begin(), want.end());
    const auto expected = Blocked(as_float, s.batch, s.out_channels, hw);
    double worst = 0.0;
    for (size_t i = 0; i < dst.size(); ++i) {
        ASSERT_FALSE(std::isnan(dst[i])) << "element " << i << " was not written";
        worst = std::max(worst, std::fabs(dst[i] - double{expected[i]}) /
                                    std::max(1.0, std::fabs(double{expected[i]})));
    }
    // F(4x4)'s transforms multiply by up to 8 and divide by 24: a few float roundings more.
    EXPECT_LT(worst, p.tile == 4 ? 5e-5 : 5e-6);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, WinogradConvolution,
    testing::Values(
        // A grid that is a multiple of both tiles; every tile inside but the border ones.
        Case{4, 1, 64, 64, 56, 56, true, true, 2}, Case{2, 1, 64, 64, 56, 56, true, true, 2},
        // Grids that end inside a tile (5: one and a quarter tiles of 4), batch 2, no bias.
        Case{4, 2, 16, 64, 5, 7, false, false, 1}, Case{2, 2, 16, 64, 5, 7, false, false, 1},
        Case{4, 1, 32, 128, 13, 9, true, true, 2}, Case{2, 1, 32, 128, 13, 9, false, true, 2},
        // Few tiles on two threads: the output channels are split instead of the tiles.
        Case{4, 1, 48, 128, 7, 7, true, true, 2}, Case{2, 1, 48, 128, 3, 3, true, true, 2},
        // Many tiles, two chunks per thread and U read no more often: chunks again, each
        // thread transforming every tile (in two blocks for the first: ResNet-50's 14x14).
        Case{2, 1, 256, 256, 14, 14, true, true, 2}, Case{4, 2, 64, 256, 14, 14, false, true, 2},
        // A grid smaller than one tile.
        Case{4, 1, 16, 64, 1, 1, true, true, 1}),
    Name);

TEST(WinogradConvolution, TakesChannelMultiplesOfItsBlocksAndTilesOfTwoOrFour) {
    WinogradConvShape s{1, 64, 64, 8, 8, false, 4};
    EXPECT_TRUE(WinogradTakes(s));
    s.in_channels = 24;  // not a multiple of 16 (nChw16c's block)
    EXPECT_FALSE(WinogradTakes(s));
    s.in_channels = 64;
    s.out_channels = 96;  // not a multiple of 64 (the products' width)
    EXPECT_FALSE(WinogradTakes(s));
    s.out_channels = 64;
    s.tile = 3;
    EXPECT_FALSE(WinogradTakes(s));
    s.tile = 2;
    EXPECT_TRUE(WinogradTakes(s));
}

TEST(WinogradConvolution, TransformedWeightsHoldOneMatrixPerPoint) {
    const WinogradConvShape f4{1, 32, 64, 8, 8, false, 4}, f2{1, 32, 64, 8, 8, false, 2};
    EXPECT_EQ(WinogradWeightFloats(f4), 36u * 32 * 64);
    EXPECT_EQ(WinogradWeightFloats(f2), 16u * 32 * 64);
}

}  // namespace
}  // namespace openacl::model
