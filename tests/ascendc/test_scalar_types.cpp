// half and bfloat16_t: storage, rounding and arithmetic.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernel_operator.h"

namespace {

uint16_t Bits(float value) {
    return half(value).bits;
}

TEST(AscendcHalf, FloatToHalfRoundsToNearestEven) {
    EXPECT_EQ(Bits(1.0f), 0x3c00);
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even 1.0.
    EXPECT_EQ(Bits(1.0f + 0x1p-11f), 0x3c00);
    // 1 + 3 * 2^-11 is halfway between odd 1+2^-10 and even 1+2^-9: rounds up to even.
    EXPECT_EQ(Bits(1.0f + 3 * 0x1p-11f), 0x3c02);
    // Just above halfway rounds up.
    EXPECT_EQ(Bits(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
    EXPECT_EQ(Bits(-2.5f), 0xc100);
}

TEST(AscendcHalf, OverflowGivesInfinityAndInfinityAndNanSurvive) {
    EXPECT_EQ(Bits(65504.0f), 0x7bff);
    EXPECT_EQ(Bits(65519.0f), 0x7bff);  // below the halfway point 65520
    EXPECT_EQ(Bits(65520.0f), 0x7c00);
    EXPECT_EQ(Bits(std::numeric_limits<float>::infinity()), 0x7c00);
    EXPECT_EQ(Bits(-std::numeric_limits<float>::infinity()), 0xfc00);
    half nan(std::numeric_limits<float>::quiet_NaN());
    EXPECT_EQ(nan.bits & 0x7c00, 0x7c00);
    EXPECT_NE(nan.bits & 0x3ff, 0);
    EXPECT_TRUE(std::isnan(float(nan)));
    EXPECT_TRUE(std::isinf(float(half::FromBits(0x7c00))));
}

TEST(AscendcHalf, SubnormalsRoundAndConvertBackExactly) {
    EXPECT_EQ(Bits(0x1p-24f), 0x0001);             // smallest subnormal
    EXPECT_EQ(Bits(0x1p-25f), 0x0000);             // halfway to zero: ties to even zero
    EXPECT_EQ(Bits(0x1p-25f * 1.5f), 0x0001);      // above halfway
    EXPECT_EQ(Bits(3 * 0x1p-25f), 0x0002);         // 1.5 ulp: ties to even 2
    EXPECT_EQ(Bits(0x1p-14f - 0x1p-24f), 0x03ff);  // largest subnormal
    EXPECT_EQ(Bits(0x1p-14f), 0x0400);             // smallest normal
    EXPECT_EQ(float(half::FromBits(0x0001)), 0x1p-24f);
    EXPECT_EQ(float(half::FromBits(0x03ff)), 0x1p-14f - 0x1p-24f);
    EXPECT_EQ(Bits(-0.0f), 0x8000);
}

TEST(AscendcHalf, EveryHalfRoundTripsThroughFloat) {
    for (uint32_t b = 0; b < 0x10000; ++b) {
        half h = half::FromBits(static_cast<uint16_t>(b));
        float f = h;
        if (std::isnan(f)) continue;
        ASSERT_EQ(half(f).bits, b) << std::hex << b;
    }
}

TEST(AscendcHalf, ArithmeticIsTheFloatResultRoundedOnce) {
    half a(0.1f), b(0.2f);
    EXPECT_EQ((a + b).bits, half(float(a) + float(b)).bits);
    EXPECT_EQ((a * b).bits, half(float(a) * float(b)).bits);
    half c = a;
    c += b;
    EXPECT_EQ(c.bits, (a + b).bits);
    // Mixed with float the result is float; with an integer it stays half.
    auto promoted = a * 2.0f;
    static_assert(std::is_same_v<decltype(promoted), float>);
    auto kept = a * 2;
    static_assert(std::is_same_v<decltype(kept), half>);
    EXPECT_EQ(float(kept), float(a) * 2);
    EXPECT_TRUE(half(1.0f) < half(2.0f));
    EXPECT_TRUE(half(3.0f) == 3);
}

TEST(AscendcHalf, DoubleConvertsWithOneRounding) {
    // Slightly above the halfway point between two halves, but rounds to it as a float.
    double justAbove = 1.0 + 0x1p-11 + 0x1p-40;
    EXPECT_EQ(half(justAbove).bits, 0x3c01);
    EXPECT_EQ(half(static_cast<float>(justAbove)).bits, 0x3c00);
}

TEST(AscendcBfloat16, RoundsToNearestEvenAndKeepsNan) {
    EXPECT_EQ(bfloat16_t(1.0f).bits, 0x3f80);
    EXPECT_EQ(bfloat16_t(std::bit_cast<float>(0x3f808000U)).bits, 0x3f80);  // tie: even
    EXPECT_EQ(bfloat16_t(std::bit_cast<float>(0x3f818000U)).bits, 0x3f82);  // tie: up to even
    EXPECT_EQ(bfloat16_t(std::bit_cast<float>(0x3f808001U)).bits, 0x3f81);
    EXPECT_TRUE(std::isnan(float(bfloat16_t(std::numeric_limits<float>::quiet_NaN()))));
    EXPECT_EQ(float(bfloat16_t(3.0f) * bfloat16_t(2.0f)), 6.0f);
}

}  // namespace
