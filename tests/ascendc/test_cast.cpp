// Cast with every RoundMode, saturation on overflow.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "block_runner.h"

namespace {

using AscendC::RoundMode;

// Casts `input` from S to D in a kernel (one block) and returns the results.
template <typename D, typename S>
std::vector<D> CastInKernel(const std::vector<S>& input, RoundMode mode) {
    std::vector<D> output(input.size());
    openacl::test::RunOneBlock([&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> srcBuf, dstBuf;
        pipe.InitBuffer(srcBuf, input.size() * sizeof(S));
        pipe.InitBuffer(dstBuf, input.size() * sizeof(D));
        auto src = srcBuf.Get<S>();
        auto dst = dstBuf.Get<D>();
        for (uint32_t i = 0; i < input.size(); ++i)
            src.SetValue(i, input[i]);
        AscendC::Cast(dst, src, mode, input.size());
        for (uint32_t i = 0; i < input.size(); ++i)
            output[i] = dst.GetValue(i);
    });
    return output;
}

const std::vector<float> kSamples = {2.5f, 3.5f, -2.5f, 2.4f, -2.6f, 1.0f, -0.5f};

TEST(AscendcCast, FloatToInt32FollowsEachRoundMode) {
    struct Case {
        RoundMode mode;
        std::vector<int32_t> expected;
    };
    std::vector<Case> cases = {
        {RoundMode::CAST_RINT, {2, 4, -2, 2, -3, 1, 0}},
        {RoundMode::CAST_NONE, {2, 4, -2, 2, -3, 1, 0}},
        {RoundMode::CAST_FLOOR, {2, 3, -3, 2, -3, 1, -1}},
        {RoundMode::CAST_CEIL, {3, 4, -2, 3, -2, 1, 0}},
        {RoundMode::CAST_ROUND, {3, 4, -3, 2, -3, 1, -1}},
        {RoundMode::CAST_TRUNC, {2, 3, -2, 2, -2, 1, 0}},
        {RoundMode::CAST_ODD, {3, 3, -3, 3, -3, 1, -1}},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(CastInKernel<int32_t>(kSamples, c.mode), c.expected)
            << "mode " << static_cast<int>(c.mode);
    }
}

TEST(AscendcCast, FloatToHalfFollowsEachRoundMode) {
    // 1 + 2^-11 lies exactly between two halves; 1 + 2^-11 + 2^-13 just above it.
    float tie = 1.0f + 0x1p-11f;
    float above = 1.0f + 0x1p-11f + 0x1p-13f;
    std::vector<float> input = {tie, above, -tie};
    auto bits = [&](RoundMode mode) {
        std::vector<uint16_t> out;
        for (half h : CastInKernel<half>(input, mode))
            out.push_back(h.bits);
        return out;
    };
    EXPECT_EQ(bits(RoundMode::CAST_RINT), (std::vector<uint16_t>{0x3c00, 0x3c01, 0xbc00}));
    EXPECT_EQ(bits(RoundMode::CAST_FLOOR), (std::vector<uint16_t>{0x3c00, 0x3c00, 0xbc01}));
    EXPECT_EQ(bits(RoundMode::CAST_CEIL), (std::vector<uint16_t>{0x3c01, 0x3c01, 0xbc00}));
    EXPECT_EQ(bits(RoundMode::CAST_ROUND), (std::vector<uint16_t>{0x3c01, 0x3c01, 0xbc01}));
    EXPECT_EQ(bits(RoundMode::CAST_TRUNC), (std::vector<uint16_t>{0x3c00, 0x3c00, 0xbc00}));
    EXPECT_EQ(bits(RoundMode::CAST_ODD), (std::vector<uint16_t>{0x3c01, 0x3c01, 0xbc01}));
}

TEST(AscendcCast, OverflowSaturates) {
    auto toHalf = CastInKernel<half>(std::vector<float>{1e6f, -1e6f}, RoundMode::CAST_RINT);
    EXPECT_EQ(float(toHalf[0]), 65504.0f);
    EXPECT_EQ(float(toHalf[1]), -65504.0f);
    auto toInt8 =
        CastInKernel<int8_t>(std::vector<half>{half(300.0f), half(-300.0f)}, RoundMode::CAST_RINT);
    EXPECT_EQ(toInt8, (std::vector<int8_t>{127, -128}));
    auto toInt32 = CastInKernel<int32_t>(
        std::vector<float>{3e9f, std::numeric_limits<float>::quiet_NaN()}, RoundMode::CAST_TRUNC);
    EXPECT_EQ(toInt32, (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), 0}));
}

TEST(AscendcCast, ANegativeValueRoundingToZeroGivesNegativeZero) {
    // -1e-10 is far below half's smallest subnormal: it rounds to zero, and keeps its sign.
    for (RoundMode mode : {RoundMode::CAST_RINT, RoundMode::CAST_TRUNC, RoundMode::CAST_CEIL}) {
        auto toHalf = CastInKernel<half>(std::vector<float>{-1e-10f}, mode);
        EXPECT_EQ(toHalf[0].bits, 0x8000) << static_cast<int>(mode);
    }
    EXPECT_EQ(CastInKernel<half>(std::vector<float>{1e-10f}, RoundMode::CAST_RINT)[0].bits, 0);
    EXPECT_EQ(half(-1e-10f).bits, 0x8000);
}

TEST(AscendcCast, WideningIsExact) {
    std::vector<half> input = {half(0.1f), half::FromBits(0x0001), half(-65504.0f)};
    auto out = CastInKernel<float>(input, RoundMode::CAST_NONE);
    for (size_t i = 0; i < input.size(); ++i)
        EXPECT_EQ(out[i], float(input[i]));
    auto fromInt = CastInKernel<float>(std::vector<int32_t>{16777217}, RoundMode::CAST_RINT);
    EXPECT_EQ(fromInt[0], 16777216.0f);
    auto fromIntCeil = CastInKernel<float>(std::vector<int32_t>{16777217}, RoundMode::CAST_CEIL);
    EXPECT_EQ(fromIntCeil[0], 16777218.0f);
}

}  // namespace
