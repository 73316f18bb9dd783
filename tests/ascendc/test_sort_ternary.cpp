// Sort32, MrgSort, Extract (and a top-k kernel built on them); Axpy, MulAddDst, FusedMulAdd.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "block_runner.h"

extern "C" void topk_custom(GM_ADDR scores, GM_ADDR values, GM_ADDR indices, uint32_t k);

namespace {

using namespace AscendC;

using openacl::test::TrapOf;

TEST(AscendcSort, Sort32OrdersEachRepeatDescendingWithIndices) {
    openacl::test::RunOneBlock([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, 64 * sizeof(half));
        pipe.InitBuffer(b, 64 * sizeof(uint32_t));
        pipe.InitBuffer(c, 64 * 8);
        auto score = a.Get<half>();
        auto index = b.Get<uint32_t>();
        for (uint32_t i = 0; i < 64; ++i) {
            score.SetValue(i, half(float((i * 37) % 64)));
            index.SetValue(i, 1000 + i);
        }
        Sort32(c.Get<half>(), score, index, 2);
        auto entries = c.Get<uint8_t>();
        for (uint32_t r = 0; r < 2; ++r) {
            std::vector<std::pair<float, uint32_t>> expected;
            for (uint32_t i = 0; i < 32; ++i)
                expected.push_back({float((((r * 32 + i) * 37) % 64)), 1000 + r * 32 + i});
            std::stable_sort(expected.begin(), expected.end(),
                             [](auto x, auto y) { return x.first > y.first; });
            for (uint32_t i = 0; i < 32; ++i) {
                uint32_t at = (r * 32 + i) * 8;
                half s;
                uint32_t idx;
                std::memcpy(&s, entries.Data() + at, 2);
                std::memcpy(&idx, entries.Data() + at + 4, 4);
                ASSERT_EQ(float(s), expected[i].first) << r << " " << i;
                ASSERT_EQ(idx, expected[i].second) << r << " " << i;
            }
        }
    });
}

TEST(AscendcSort, MrgSortOfTwoListsCountsWhatEachGave) {
    openacl::test::RunOneBlock([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, 64 * 4);
        pipe.InitBuffer(b, 64 * 8);
        pipe.InitBuffer(c, 64 * 8);
        auto score = a.Get<float>();
        auto index = a.Get<uint32_t>();  // unused values; Sort32 reads them as indices
        for (uint32_t i = 0; i < 64; ++i)
            score.SetValue(i, float(i % 2 ? i : 100 + i));
        Sort32(b.Get<float>(), score, index, 2);
        uint16_t counts[4] = {32, 20, 0, 0};
        uint32_t taken[4];
        auto sorted = b.Get<float>();
        MrgSort<float>(c.Get<float>(), {sorted, sorted[64], sorted, sorted}, counts, taken, 0b11,
                       1);
        EXPECT_EQ(taken[0], 32U);
        EXPECT_EQ(taken[1], 20U);
        auto merged = c.Get<float>();
        for (uint32_t i = 1; i < 52; ++i)
            ASSERT_GE(merged.GetValue(2 * (i - 1)), merged.GetValue(2 * i)) << i;
        EXPECT_EQ(merged.GetValue(0), 162.0f);
    });
}

TEST(AscendcSort, TopKKernelMatchesTheReference) {
    constexpr uint32_t kBlocks = 3, kCount = 128, kTop = 10;
    std::vector<float> scores(kBlocks * kCount);
    std::mt19937 random(5);
    std::uniform_real_distribution<float> value(-50.0f, 50.0f);
    for (auto& s : scores)
        s = value(random);
    std::vector<float> values(scores.size(), -1.0f);
    std::vector<uint32_t> indices(scores.size(), 9999);
    auto failure = openacl::test::RunBlocks(kBlocks, [&] {
        topk_custom(reinterpret_cast<GM_ADDR>(scores.data()),
                    reinterpret_cast<GM_ADDR>(values.data()),
                    reinterpret_cast<GM_ADDR>(indices.data()), kTop);
    });
    ASSERT_EQ(failure, "");
    for (uint32_t b = 0; b < kBlocks; ++b) {
        std::vector<uint32_t> order(kCount);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
            return scores[b * kCount + x] > scores[b * kCount + y];
        });
        for (uint32_t i = 0; i < kTop; ++i) {
            ASSERT_EQ(indices[b * kCount + i], order[i]) << b << " " << i;
            ASSERT_EQ(values[b * kCount + i], scores[b * kCount + order[i]]);
        }
        EXPECT_EQ(values[b * kCount + kTop], -1.0f);  // only k were copied out
    }
}

TEST(AscendcSort, MrgSortWithAnInvalidValidBitTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 256);
        auto t = a.Get<float>();
        uint16_t counts[4] = {1, 1, 1, 1};
        uint32_t taken[4];
        MrgSort<float>(t, {t, t, t, t}, counts, taken, 0b101, 1);
    });
    EXPECT_NE(message.find("MrgSort: validBit 5 is not 0b11, 0b111 or 0b1111"), std::string::npos)
        << message;
}

TEST(AscendcTernary, AxpyMulAddDstAndFusedMulAddMatchTheReference) {
    openacl::test::RunOneBlock([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, 64 * 4);
        pipe.InitBuffer(b, 64 * 2);
        pipe.InitBuffer(c, 64 * 2);
        auto acc = a.Get<float>();
        auto x = b.Get<half>();
        auto y = c.Get<half>();
        for (uint32_t i = 0; i < 64; ++i) {
            acc.SetValue(i, float(i));
            x.SetValue(i, half(0.5f * i));
            y.SetValue(i, half(2.0f));
        }
        Axpy(acc, x, half(4.0f), 64);  // half sources into a float dst
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(acc.GetValue(i), float(i) + 0.5f * i * 4.0f);
        MulAddDst(acc, x, y, 64);
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(acc.GetValue(i), 3.0f * i + i * 1.0f);
        FusedMulAdd(x, y, y, 64);  // x = y * x + y
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(float(x.GetValue(i)), 2.0f * 0.5f * i + 2.0f);
    });
}

TEST(AscendcTernary, AxpyPastTheBufferTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 128);
        auto t = a.Get<float>();
        Axpy(t, t, 1.0f, 64);
    });
    EXPECT_NE(message.find("Axpy: dst reaches 256 bytes past its start but its buffer has 128"),
              std::string::npos)
        << message;
}

}  // namespace

namespace {

using namespace AscendC;

TEST(AscendcCastRepeat, HalfToFloatRepeatsCover64LanesAndLeaveMaskedOnesAlone) {
    openacl::test::RunOneBlock([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 128 * sizeof(half));
        pipe.InitBuffer(b, 128 * sizeof(float));
        auto src = a.Get<half>();
        auto dst = b.Get<float>();
        for (uint32_t i = 0; i < 128; ++i)
            src.SetValue(i, half(float(i) + 0.5f));
        Duplicate(dst, -1.0f, 128);
        // src repeat stride 4 blocks (64 halves), dst 8 blocks (64 floats).
        Cast(dst, src, RoundMode::CAST_NONE, 40, 2, {1, 1, 8, 4});
        for (uint32_t i = 0; i < 128; ++i)
            ASSERT_EQ(dst.GetValue(i), i % 64 < 40 ? float(i) + 0.5f : -1.0f) << i;  // exact
    });
}

TEST(AscendcCastRepeat, MaskWiderThanTheRepeatTraps) {
    std::string message;
    try {
        openacl::test::RunOneBlock([] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> a;
            pipe.InitBuffer(a, 512);
            Cast(a.Get<float>(), a.Get<half>(), RoundMode::CAST_NONE, 100, 1, {1, 1, 8, 4});
        });
    } catch (const openacl::kernel::KernelTrap& trap) {
        message = trap.what();
    }
    EXPECT_NE(message.find("Cast: mask 100 is outside 1..64"), std::string::npos) << message;
}

}  // namespace
