// Whole kernels, written as CANN users write them, run over several blocks at once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "block_runner.h"
#include "kernels/test_kernels.h"

namespace {

struct AddTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};

std::vector<half> RandomHalves(size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(-100.0f, 100.0f);
    std::vector<half> data(n);
    for (auto& h : data)
        h = half(value(random));
    return data;
}

TEST(AscendcKernels, AddCustomOverEightConcurrentBlocksMatchesTheReference) {
    constexpr uint32_t kBlocks = 8;
    constexpr uint32_t kTotal = kBlocks * 2048;
    auto x = RandomHalves(kTotal, 1);
    auto y = RandomHalves(kTotal, 2);
    std::vector<half> z(kTotal, half(-1.0f));
    AddTiling tiling{kTotal, 8};
    auto failure = openacl::test::RunBlocks(kBlocks, [&] {
        add_custom(reinterpret_cast<GM_ADDR>(x.data()), reinterpret_cast<GM_ADDR>(y.data()),
                   reinterpret_cast<GM_ADDR>(z.data()), reinterpret_cast<GM_ADDR>(&tiling));
    });
    ASSERT_EQ(failure, "");
    for (uint32_t i = 0; i < kTotal; ++i) {
        ASSERT_EQ(z[i].bits, half(float(x[i]) + float(y[i])).bits) << "element " << i;
    }
}

TEST(AscendcKernels, AddWithUnalignedTailCopiesExactlyTheBlockBytes) {
    constexpr uint32_t kBlocks = 5;
    constexpr uint32_t kBlockLength = 37;               // 148 bytes: not a multiple of 32
    constexpr uint32_t kTotal = kBlockLength * 4 + 13;  // the last block has 13
    std::vector<float> x(kTotal), y(kTotal);
    for (uint32_t i = 0; i < kTotal; ++i) {
        x[i] = 0.5f * i;
        y[i] = 1000.0f - i;
    }
    std::vector<float> z(kTotal + 8, -7.0f);  // the 8 past the end must stay untouched
    auto failure = openacl::test::RunBlocks(kBlocks, [&] {
        add_tail_custom(reinterpret_cast<GM_ADDR>(x.data()), reinterpret_cast<GM_ADDR>(y.data()),
                        reinterpret_cast<GM_ADDR>(z.data()), AddTailTiling{kTotal, kBlockLength});
    });
    ASSERT_EQ(failure, "");
    for (uint32_t i = 0; i < kTotal; ++i)
        ASSERT_EQ(z[i], x[i] + y[i]) << "element " << i;
    for (uint32_t i = kTotal; i < kTotal + 8; ++i)
        EXPECT_EQ(z[i], -7.0f) << "element " << i;
}

TEST(AscendcKernels, SoftmaxRowsMatchTheReference) {
    constexpr uint32_t kRows = 13, kCols = 200;
    std::mt19937 random(3);
    std::uniform_real_distribution<float> value(-5.0f, 5.0f);
    std::vector<float> x(kRows * kCols), y(kRows * kCols, 0.0f);
    for (auto& v : x)
        v = value(random);
    auto failure = openacl::test::RunBlocks(4, [&] {
        softmax_custom(reinterpret_cast<GM_ADDR>(x.data()), reinterpret_cast<GM_ADDR>(y.data()),
                       kRows, kCols);
    });
    ASSERT_EQ(failure, "");
    for (uint32_t r = 0; r < kRows; ++r) {
        double rowMax = -INFINITY, sum = 0;
        for (uint32_t c = 0; c < kCols; ++c)
            rowMax = std::max<double>(rowMax, x[r * kCols + c]);
        for (uint32_t c = 0; c < kCols; ++c)
            sum += std::exp(x[r * kCols + c] - rowMax);
        for (uint32_t c = 0; c < kCols; ++c) {
            double expected = std::exp(x[r * kCols + c] - rowMax) / sum;
            ASSERT_NEAR(y[r * kCols + c], expected, 1e-6 + 1e-5 * expected)
                << "row " << r << " col " << c;
        }
    }
}

}  // namespace
