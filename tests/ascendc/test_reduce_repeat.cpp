// Reductions in the mask/repeat form: WholeReduce*, RepeatReduceSum, BlockReduce*, PairReduceSum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "block_runner.h"

namespace {

using namespace AscendC;

using openacl::test::TrapOf;

template <typename T, typename Body>
void WithTensors(uint32_t n, Body body) {
    openacl::test::RunOneBlock([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, n * sizeof(T));
        pipe.InitBuffer(b, n * sizeof(T));
        body(a.Get<T>(), b.Get<T>());
    });
}

// src[i] = a value with one maximum and one minimum per repeat of 64 floats.
float Value(uint32_t i) {
    uint32_t lane = i % 64, repeat = i / 64;
    if (lane == (repeat * 7) % 64) return 100.0f + repeat;
    if (lane == (repeat * 13 + 5) % 64) return -100.0f - repeat;
    return float(lane % 10);
}

TEST(AscendcReduceRepeat, WholeReduceSumGivesOneSumPerRepeat) {
    WithTensors<float>(256, [](auto src, auto dst) {
        for (uint32_t i = 0; i < 256; ++i)
            src.SetValue(i, Value(i));
        Duplicate(dst, -1.0f, 256);
        WholeReduceSum(dst, src, 64, 4, 1, 1, 8);
        for (uint32_t r = 0; r < 4; ++r) {
            float sum = 0;
            for (uint32_t l = 0; l < 64; ++l)
                sum += Value(r * 64 + l);
            EXPECT_FLOAT_EQ(dst.GetValue(r), sum) << r;
        }
        EXPECT_EQ(dst.GetValue(4), -1.0f);
    });
}

TEST(AscendcReduceRepeat, WholeReduceSumAddsOnlyMaskedLanes) {
    WithTensors<half>(256, [](auto src, auto dst) {
        Duplicate(src, half(1.0f), 256);
        uint64_t mask[2] = {0xFFULL, 0x1ULL};  // lanes 0..7 and 64
        WholeReduceSum(dst, src, mask, 2, 2, 1, 8);
        EXPECT_EQ(float(dst.GetValue(0)), 9.0f);
        EXPECT_EQ(float(dst.GetValue(2)), 9.0f);
        RepeatReduceSum(dst, src, 2, 100, 0, 1, 1, 8);
        EXPECT_EQ(float(dst.GetValue(0)), 100.0f);
        EXPECT_EQ(float(dst.GetValue(1)), 100.0f);
    });
}

TEST(AscendcReduceRepeat, WholeReduceMaxWritesValueIndexPairs) {
    WithTensors<float>(256, [](auto src, auto dst) {
        for (uint32_t i = 0; i < 256; ++i)
            src.SetValue(i, Value(i));
        WholeReduceMax(dst, src, 64, 4, 1, 1, 8);
        auto bits = dst.template ReinterpretCast<uint32_t>();
        for (uint32_t r = 0; r < 4; ++r) {
            EXPECT_EQ(dst.GetValue(2 * r), 100.0f + r);
            EXPECT_EQ(bits.GetValue(2 * r + 1), (r * 7) % 64);
        }
    });
}

TEST(AscendcReduceRepeat, WholeReduceMinHonoursEveryReduceOrder) {
    WithTensors<float>(256, [](auto src, auto dst) {
        for (uint32_t i = 0; i < 256; ++i)
            src.SetValue(i, Value(i));
        auto bits = dst.template ReinterpretCast<uint32_t>();
        WholeReduceMin(dst, src, 64, 2, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
        EXPECT_EQ(bits.GetValue(0), 5U);
        EXPECT_EQ(dst.GetValue(1), -100.0f);
        EXPECT_EQ(bits.GetValue(2), 18U);
        EXPECT_EQ(dst.GetValue(3), -101.0f);
        WholeReduceMin(dst, src, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
        EXPECT_EQ(dst.GetValue(0), -100.0f);
        EXPECT_EQ(dst.GetValue(1), -101.0f);
        WholeReduceMin(dst, src, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
        EXPECT_EQ(bits.GetValue(0), 5U);
        EXPECT_EQ(bits.GetValue(1), 18U);
    });
}

TEST(AscendcReduceRepeat, HalfMaxIndexIsAUint16InTheSecondSlot) {
    WithTensors<half>(128, [](auto src, auto dst) {
        for (uint32_t i = 0; i < 128; ++i)
            src.SetValue(i, half(float(i % 50)));
        WholeReduceMax(dst, src, 128, 1, 1, 1, 8);
        EXPECT_EQ(float(dst.GetValue(0)), 49.0f);
        EXPECT_EQ(dst.template ReinterpretCast<uint16_t>().GetValue(1), 49U);  // first of 49, 99
    });
}

TEST(AscendcReduceRepeat, BlockReduceGivesOneResultPerBlock) {
    WithTensors<float>(128, [](auto src, auto dst) {
        for (uint32_t i = 0; i < 128; ++i)
            src.SetValue(i, float(i));
        BlockReduceSum(dst, src, 2, 64, 1, 1, 8);
        for (uint32_t b = 0; b < 16; ++b) {
            float sum = 0;
            for (uint32_t e = 0; e < 8; ++e)
                sum += float(b * 8 + e);
            EXPECT_EQ(dst.GetValue(b), sum) << b;
        }
        BlockReduceMax(dst, src, 2, 64, 1, 1, 8);
        for (uint32_t b = 0; b < 16; ++b)
            EXPECT_EQ(dst.GetValue(b), float(b * 8 + 7)) << b;
        BlockReduceMin(dst, src, 2, 64, 1, 1, 8);
        for (uint32_t b = 0; b < 16; ++b)
            EXPECT_EQ(dst.GetValue(b), float(b * 8)) << b;
    });
}

TEST(AscendcReduceRepeat, BlockReduceLeavesBlocksWithoutSelectedLanesUntouched) {
    WithTensors<float>(64, [](auto src, auto dst) {
        Duplicate(src, 2.0f, 64);
        Duplicate(dst, -1.0f, 64);
        BlockReduceSum(dst, src, 1, 12, 1, 1, 8);  // block 0 whole, block 1 lanes 8..11
        EXPECT_EQ(dst.GetValue(0), 16.0f);
        EXPECT_EQ(dst.GetValue(1), 8.0f);
        EXPECT_EQ(dst.GetValue(2), -1.0f);
    });
}

TEST(AscendcReduceRepeat, PairReduceSumAddsAdjacentLanes) {
    WithTensors<half>(256, [](auto src, auto dst) {
        for (uint32_t i = 0; i < 256; ++i)
            src.SetValue(i, half(float(i % 16)));
        PairReduceSum(dst, src, 2, 128, 1, 1, 8);
        for (uint32_t p = 0; p < 128; ++p) {
            float expected = float((2 * p) % 16 + (2 * p + 1) % 16);
            ASSERT_EQ(float(dst.GetValue(p)), expected) << p;
        }
    });
}

TEST(AscendcReduceRepeat, ResultPastTheDstBufferTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 1024);
        pipe.InitBuffer(b, 32);
        WholeReduceSum(b.Get<float>(), a.Get<float>(), 64, 4, 8, 1, 8);
    });
    EXPECT_NE(message.find("WholeReduceSum: dst element 8 is past the 8 elements of its buffer"),
              std::string::npos)
        << message;
}

TEST(AscendcReduceRepeat, NegativeRepeatTimeTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 256);
        PairReduceSum(a.Get<float>(), a.Get<float>(), -1, 64, 1, 1, 8);
    });
    EXPECT_NE(message.find("PairReduceSum: repeatTime -1 is negative"), std::string::npos)
        << message;
}

TEST(AscendcReduceRepeat, MisalignedPairDstTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 512);
        auto t = a.Get<float>();
        WholeReduceMax(t[1], t[64], 64, 1, 1, 1, 8);
    });
    EXPECT_NE(message.find("WholeReduceMax: dst starts 4 bytes into its buffer, not on a 8-byte "
                           "boundary"),
              std::string::npos)
        << message;
}

}  // namespace
