// Vector instructions: count form, reductions, and the mask/repeat (level 0) form.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "block_runner.h"

namespace {

using namespace AscendC;

// A kernel body with three float scratch tensors of n elements each.
template <typename T, typename Body>
void WithTensors(uint32_t n, Body body) {
    openacl::test::RunOneBlock([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, n * sizeof(T));
        pipe.InitBuffer(b, n * sizeof(T));
        pipe.InitBuffer(c, n * sizeof(T));
        body(a.Get<T>(), b.Get<T>(), c.Get<T>());
    });
}

TEST(AscendcVector, CountFormBinaryOpsMatchTheReference) {
    constexpr uint32_t n = 100;
    WithTensors<float>(n, [&](LocalTensor<float> x, LocalTensor<float> y, LocalTensor<float> z) {
        for (uint32_t i = 0; i < n; ++i) {
            x.SetValue(i, 1.0f + i);
            y.SetValue(i, 50.0f - i);
        }
        Add(z, x, y, n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(z.GetValue(i), 51.0f);
        Sub(z, x, y, n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(z.GetValue(i), (1.0f + i) - (50.0f - i));
        Mul(z, x, y, n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(z.GetValue(i), (1.0f + i) * (50.0f - i));
        Div(z, x, y, n - 50);
        for (uint32_t i = 0; i < n - 50; ++i)
            ASSERT_EQ(z.GetValue(i), (1.0f + i) / (50.0f - i));
        Max(z, x, y, n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(z.GetValue(i), std::max(1.0f + i, 50.0f - i));
        Min(z, x, y, n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(z.GetValue(i), std::min(1.0f + i, 50.0f - i));
    });
}

TEST(AscendcVector, CountFormTouchesOnlyCountElements) {
    WithTensors<half>(64, [&](LocalTensor<half> x, LocalTensor<half> y, LocalTensor<half> z) {
        Duplicate(x, half(1.0f), 64);
        Duplicate(y, half(2.0f), 64);
        Duplicate(z, half(-1.0f), 64);
        Add(z, x, y, 37);  // no rounding to whole repeats or blocks
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(float(z.GetValue(i)), i < 37 ? 3.0f : -1.0f);
    });
}

TEST(AscendcVector, IntegerBitwiseOpsWork) {
    WithTensors<uint16_t>(16, [&](auto x, auto y, auto z) {
        Duplicate(x, uint16_t(0x0ff0), 16);
        Duplicate(y, uint16_t(0x00ff), 16);
        And(z, x, y, 16);
        EXPECT_EQ(z.GetValue(3), 0x00f0);
        Or(z, x, y, 16);
        EXPECT_EQ(z.GetValue(3), 0x0fff);
        Not(z, x, 16);
        EXPECT_EQ(z.GetValue(3), 0xf00f);
    });
}

TEST(AscendcVector, UnaryAndScalarOpsMatchTheReference) {
    constexpr uint32_t n = 72;
    WithTensors<float>(n, [&](LocalTensor<float> x, LocalTensor<float> y, LocalTensor<float>) {
        for (uint32_t i = 0; i < n; ++i)
            x.SetValue(i, 0.25f * (i + 1) * (i % 2 ? 1 : -1));
        auto check = [&](auto reference, const char* what) {
            for (uint32_t i = 0; i < n; ++i) {
                ASSERT_FLOAT_EQ(y.GetValue(i), reference(x.GetValue(i))) << what << " " << i;
            }
        };
        Abs(y, x, n);
        check([](float v) { return std::fabs(v); }, "Abs");
        Relu(y, x, n);
        check([](float v) { return v > 0 ? v : 0.0f; }, "Relu");
        Exp(y, x, n);
        check([](float v) { return std::exp(v); }, "Exp");
        Abs(x, x, n);
        Ln(y, x, n);
        check([](float v) { return std::log(v); }, "Ln");
        Sqrt(y, x, n);
        check([](float v) { return std::sqrt(v); }, "Sqrt");
        Rsqrt(y, x, n);
        check([](float v) { return 1 / std::sqrt(v); }, "Rsqrt");
        Reciprocal(y, x, n);
        check([](float v) { return 1 / v; }, "Reciprocal");
        Adds(y, x, 2.5f, n);
        check([](float v) { return v + 2.5f; }, "Adds");
        Muls(y, x, -3.0f, n);
        check([](float v) { return v * -3.0f; }, "Muls");
        Maxs(y, x, 4.0f, n);
        check([](float v) { return std::max(v, 4.0f); }, "Maxs");
        Mins(y, x, 4.0f, n);
        check([](float v) { return std::min(v, 4.0f); }, "Mins");
    });
}

TEST(AscendcVector, ReductionsGiveSumMaxMinAndIndex) {
    constexpr uint32_t n = 300;
    WithTensors<float>(n,
                       [&](LocalTensor<float> x, LocalTensor<float> dst, LocalTensor<float> work) {
                           double sum = 0;
                           for (uint32_t i = 0; i < n; ++i) {
                               float v = std::sin(0.1f * i) * 10;
                               x.SetValue(i, v);
                               sum += v;
                           }
                           x.SetValue(123, 42.0f);
                           x.SetValue(7, -42.0f);
                           sum += 42.0 - std::sin(0.1f * 123) * 10 - 42.0 - std::sin(0.1f * 7) * 10;
                           ReduceSum(dst, x, work, n);
                           EXPECT_NEAR(dst.GetValue(0), sum, 1e-4);
                           ReduceMax(dst, x, work, n, true);
                           EXPECT_EQ(dst.GetValue(0), 42.0f);
                           EXPECT_EQ(dst.ReinterpretCast<uint32_t>().GetValue(1), 123U);
                           ReduceMin(dst, x, work, n, true);
                           EXPECT_EQ(dst.GetValue(0), -42.0f);
                           EXPECT_EQ(dst.ReinterpretCast<uint32_t>().GetValue(1), 7U);
                       });
}

TEST(AscendcVector, ContinuousMaskLeavesMaskedLanesUntouched) {
    // float: 64 lanes per repeat; mask 10 over 3 repeats computes lanes 0..9 of each repeat.
    WithTensors<float>(192, [&](auto x, auto y, auto z) {
        Duplicate(x, 1.0f, 192);
        Duplicate(y, 2.0f, 192);
        Duplicate(z, -5.0f, 192);
        Add(z, x, y, 10, 3, {1, 1, 1, 8, 8, 8});
        for (uint32_t i = 0; i < 192; ++i) {
            ASSERT_EQ(z.GetValue(i), i % 64 < 10 ? 3.0f : -5.0f) << "element " << i;
        }
    });
}

TEST(AscendcVector, BitMaskSelectsLanesOfHalfRepeats) {
    // half: 128 lanes per repeat, mask[0] lanes 0..63, mask[1] lanes 64..127.
    WithTensors<half>(256, [&](auto x, auto y, auto z) {
        Duplicate(x, half(1.0f), 256);
        Duplicate(y, half(4.0f), 256);
        Duplicate(z, half(-1.0f), 256);
        uint64_t mask[2] = {0x5555555555555555ULL, 0x1ULL};
        Mul(z, x, y, mask, 2, BinaryRepeatParams{});
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t lane = i % 128;
            bool active = lane < 64 ? lane % 2 == 0 : lane == 64;
            ASSERT_EQ(float(z.GetValue(i)), active ? 4.0f : -1.0f) << "element " << i;
        }
    });
}

TEST(AscendcVector, RepeatAndBlockStridesPlaceTheBlocks) {
    // Unary float: each repeat reads 8 blocks with srcBlkStride 2 (every other block) and
    // writes them contiguously; repeat strides 16 (src) and 8 (dst).
    WithTensors<float>(512, [&](auto x, auto y, auto) {
        for (uint32_t i = 0; i < 512; ++i)
            x.SetValue(i, float(i));
        Duplicate(y, -1.0f, 512);
        Abs(y, x, 64, 2, {1, 2, 8, 16});
        for (uint32_t r = 0; r < 2; ++r) {
            for (uint32_t b = 0; b < 8; ++b) {
                for (uint32_t e = 0; e < 8; ++e) {
                    ASSERT_EQ(y.GetValue(r * 64 + b * 8 + e), float(r * 128 + b * 16 + e));
                }
            }
        }
        EXPECT_EQ(y.GetValue(128), -1.0f);
    });
}

TEST(AscendcVector, StoredMaskAndCounterModeDriveIsSetMaskFalse) {
    WithTensors<float>(256, [&](auto x, auto y, auto z) {
        Duplicate(x, 1.0f, 256);
        Duplicate(y, 1.0f, 256);
        Duplicate(z, 0.0f, 256);
        SetVectorMask<float>(0, 0xF0);  // lanes 4..7
        Add<float, false>(z, x, y, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(z.GetValue(i), (i >= 4 && i < 8) ? 2.0f : 0.0f);
        // Counter mode: 150 elements whatever the repeat count says.
        Duplicate(z, 0.0f, 256);
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 150);
        Add<float, false>(z, x, y, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        ResetMask();
        for (uint32_t i = 0; i < 256; ++i)
            ASSERT_EQ(z.GetValue(i), i < 150 ? 2.0f : 0.0f);
    });
}

TEST(AscendcVector, ScalarAndDuplicateLevelZeroForms) {
    WithTensors<float>(128, [&](auto x, auto y, auto) {
        Duplicate(x, 3.0f, 128);
        Duplicate(y, 0.0f, 128);
        Adds(y, x, 1.0f, 32, 2, {1, 1, 8, 8});
        for (uint32_t i = 0; i < 128; ++i)
            ASSERT_EQ(y.GetValue(i), i % 64 < 32 ? 4.0f : 0.0f);
        Duplicate(y, 9.0f, 8, 1, 1, 8);
        EXPECT_EQ(y.GetValue(7), 9.0f);
        EXPECT_EQ(y.GetValue(8), 4.0f);
    });
}

}  // namespace

TEST(AscendcVector, ShiftLeftIsLogicalAndDropsTheHighBits) {
    WithTensors<int16_t>(16, [&](auto x, auto y, auto) {
        const int16_t values[] = {17, -17, 0x4001, -32768};
        for (uint32_t i = 0; i < 4; ++i)
            x.SetValue(i, values[i]);
        ShiftLeft(y, x, int16_t(2), 4);
        EXPECT_EQ(y.GetValue(0), 68);
        EXPECT_EQ(y.GetValue(1), -68);
        EXPECT_EQ(y.GetValue(2), 4) << "0x4001 << 2 loses its top bits";
        EXPECT_EQ(y.GetValue(3), 0);
    });
}

TEST(AscendcVector, ShiftRightIsArithmeticForSignedAndLogicalForUnsigned) {
    WithTensors<int16_t>(16, [&](auto x, auto y, auto) {
        x.SetValue(0, int16_t(17));
        x.SetValue(1, int16_t(-17));
        ShiftRight(y, x, int16_t(5), 2);
        EXPECT_EQ(y.GetValue(0), 0);
        EXPECT_EQ(y.GetValue(1), -1) << "the sign fills in";
    });
    WithTensors<uint16_t>(16, [&](auto x, auto y, auto) {
        x.SetValue(0, uint16_t(0xFFFF));
        ShiftRight(y, x, uint16_t(4), 1);
        EXPECT_EQ(y.GetValue(0), 0x0FFF);
    });
}

TEST(AscendcVector, ShiftRightWithRoundingAddsTheLastBitShiftedOut) {
    // CANN's example: 17 (0b10001) shifted right by 5 with rounding is 1.
    WithTensors<int16_t>(128, [&](auto x, auto y, auto) {
        x.SetValue(0, int16_t(17));
        x.SetValue(1, int16_t(15));
        x.SetValue(2, int16_t(-17));
        ShiftRight(y, x, int16_t(5), 3, 1, {1, 1, 8, 8}, true);
        EXPECT_EQ(y.GetValue(0), 1);
        EXPECT_EQ(y.GetValue(1), 0);
        EXPECT_EQ(y.GetValue(2), -1);
        ShiftRight(y, x, int16_t(5), 3, 1, {1, 1, 8, 8});
        EXPECT_EQ(y.GetValue(0), 0) << "no rounding by default";
    });
}

TEST(AscendcVector, ShiftsByTheWholeWidthAreDefined) {
    WithTensors<int32_t>(8, [&](auto x, auto y, auto) {
        x.SetValue(0, -5);
        x.SetValue(1, 5);
        ShiftRight(y, x, int32_t(32), 2);
        EXPECT_EQ(y.GetValue(0), -1);
        EXPECT_EQ(y.GetValue(1), 0);
        ShiftLeft(y, x, int32_t(32), 2);
        EXPECT_EQ(y.GetValue(0), 0);
    });
}

TEST(AscendcVector, AShiftBeyondTheElementWidthIsATrapNamingTheRange) {
    std::string message;
    try {
        WithTensors<int16_t>(16, [&](auto x, auto y, auto) { ShiftLeft(y, x, int16_t(17), 16); });
    } catch (const openacl::kernel::KernelTrap& trap) {
        message = trap.what();
    }
    EXPECT_NE(message.find("ShiftLeft"), std::string::npos) << message;
    EXPECT_NE(message.find("0..16"), std::string::npos) << message;
}
