// Compare, CompareScalar and Select: bit-mask results and selections against plain C++.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "block_runner.h"

extern "C" void threshold_relu_custom(GM_ADDR x, GM_ADDR y, uint32_t blockLength, float threshold);

namespace {

using namespace AscendC;

using openacl::test::TrapOf;

// Three scratch tensors of `n` elements of T and one of `bytes` bytes.
template <typename T, typename Body>
void WithTensors(uint32_t n, uint32_t bytes, Body body) {
    openacl::test::RunOneBlock([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c, m;
        pipe.InitBuffer(a, n * sizeof(T));
        pipe.InitBuffer(b, n * sizeof(T));
        pipe.InitBuffer(c, n * sizeof(T));
        pipe.InitBuffer(m, bytes);
        body(a.Get<T>(), b.Get<T>(), c.Get<T>(), m.Get<uint8_t>());
    });
}

bool Bit(const LocalTensor<uint8_t>& bits, uint32_t i) {
    return ((bits.GetValue(i / 8) >> (i % 8)) & 1) != 0;
}

bool Reference(CMPMODE mode, float a, float b) {
    switch (mode) {
        case CMPMODE::LT:
            return a < b;
        case CMPMODE::GT:
            return a > b;
        case CMPMODE::EQ:
            return a == b;
        case CMPMODE::LE:
            return a <= b;
        case CMPMODE::GE:
            return a >= b;
        case CMPMODE::NE:
            return a != b;
    }
    return false;
}

constexpr CMPMODE kModes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ,
                              CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};

TEST(AscendcCompare, EveryCmpModeOfTwoFloatTensorsGivesLsbFirstBits) {
    constexpr uint32_t n = 128;
    WithTensors<float>(n, n / 8, [&](auto x, auto y, auto, auto bits) {
        for (uint32_t i = 0; i < n; ++i) {
            x.SetValue(i, float(i % 7));
            y.SetValue(i, float(i % 5));
        }
        for (CMPMODE mode : kModes) {
            Compare(bits, x, y, mode, n);
            for (uint32_t i = 0; i < n; ++i) {
                ASSERT_EQ(Bit(bits, i), Reference(mode, float(i % 7), float(i % 5)))
                    << "mode " << int(mode) << " element " << i;
            }
        }
    });
}

TEST(AscendcCompare, EveryCmpModeAgainstAHalfScalar) {
    constexpr uint32_t n = 256;
    WithTensors<half>(n, n / 8, [&](auto x, auto, auto, auto bits) {
        for (uint32_t i = 0; i < n; ++i)
            x.SetValue(i, half(float(int(i % 9) - 4)));
        for (CMPMODE mode : kModes) {
            CompareScalar(bits, x, half(1.0f), mode, n);
            for (uint32_t i = 0; i < n; ++i) {
                ASSERT_EQ(Bit(bits, i), Reference(mode, float(int(i % 9) - 4), 1.0f))
                    << "mode " << int(mode) << " element " << i;
            }
        }
    });
}

TEST(AscendcCompare, Int32ComparesForEquality) {
    WithTensors<int32_t>(64, 8, [&](auto x, auto y, auto, auto bits) {
        for (uint32_t i = 0; i < 64; ++i) {
            x.SetValue(i, int32_t(i));
            y.SetValue(i, int32_t(i % 3 == 0 ? i : 1000));
        }
        Compare(bits, x, y, CMPMODE::EQ, 64);
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(Bit(bits, i), i % 3 == 0) << i;
    });
}

TEST(AscendcCompare, RepeatFormPacksEachRepeatsBitsAfterThePrevious) {
    // float: 64 lanes a repeat; src1 repeat stride 0 compares both repeats with y[0..63].
    WithTensors<float>(128, 16, [&](auto x, auto y, auto, auto bits) {
        for (uint32_t i = 0; i < 128; ++i) {
            x.SetValue(i, float(i));
            y.SetValue(i, 70.0f);
        }
        Compare(bits, x, y, CMPMODE::LT, 64, 2, BinaryRepeatParams{1, 1, 1, 8, 8, 0});
        for (uint32_t i = 0; i < 128; ++i)
            ASSERT_EQ(Bit(bits, i), float(i) < 70.0f) << i;
    });
}

TEST(AscendcCompare, RegisterFormFeedsGetCmpMask) {
    WithTensors<float>(64, 32, [&](auto x, auto y, auto, auto bits) {
        for (uint32_t i = 0; i < 64; ++i) {
            x.SetValue(i, float(i));
            y.SetValue(i, 10.0f);
        }
        Compare(x, y, CMPMODE::GE, 64, BinaryRepeatParams{});
        GetCmpMask(bits);
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(Bit(bits, i), i >= 10) << i;
    });
}

TEST(AscendcCompare, CountThatIsNotWholeRepeatsTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, m;
        pipe.InitBuffer(a, 1024);
        pipe.InitBuffer(m, 64);
        auto x = a.Get<float>();
        Compare(m.Get<uint8_t>(), x, x, CMPMODE::LT, 100);
    });
    EXPECT_NE(message.find("Compare: count 100 (400 bytes) is not a multiple of 256 bytes"),
              std::string::npos)
        << message;
}

TEST(AscendcCompare, Int32WithAnOrderingModeTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, m;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(m, 32);
        auto x = a.Get<int32_t>();
        Compare(m.Get<uint8_t>(), x, x, CMPMODE::LT, 64);
    });
    EXPECT_NE(message.find("Compare: int32_t operands support only CMPMODE::EQ, not CMPMODE::LT"),
              std::string::npos)
        << message;
}

TEST(AscendcCompare, DstTooSmallForTheBitsTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, m;
        pipe.InitBuffer(a, 2048);
        pipe.InitBuffer(m, 32);
        auto x = a.Get<float>();
        CompareScalar(m.Get<uint8_t>(), x, 1.0f, CMPMODE::LT, 512);
    });
    EXPECT_NE(message.find("CompareScalar: dst reaches 64 bytes past its start but its buffer "
                           "has 32"),
              std::string::npos)
        << message;
}

TEST(AscendcSelect, TensorTensorModeReadsBitsAcrossRepeats) {
    constexpr uint32_t n = 256;  // half: two repeats of 128
    WithTensors<half>(n, n / 8, [&](auto x, auto y, auto z, auto sel) {
        std::mt19937 random(3);
        for (uint32_t i = 0; i < n; ++i) {
            x.SetValue(i, half(float(i)));
            y.SetValue(i, half(-float(i)));
        }
        for (uint32_t i = 0; i < n / 8; ++i)
            sel.SetValue(i, uint8_t(random()));
        Select(z, sel, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(float(z.GetValue(i)), Bit(sel, i) ? float(i) : -float(i)) << i;
    });
}

TEST(AscendcSelect, CmpMaskSprModeReusesTheFirstRepeatsBits) {
    constexpr uint32_t n = 192;  // float: three repeats of 64
    WithTensors<float>(n, 32, [&](auto x, auto y, auto z, auto sel) {
        for (uint32_t i = 0; i < n; ++i) {
            x.SetValue(i, 1.0f);
            y.SetValue(i, 2.0f);
        }
        for (uint32_t i = 0; i < 32; ++i)
            sel.SetValue(i, uint8_t(i < 8 ? 0x0F : 0xFF));  // bits past 64 must not matter
        Select(z, sel, x, y, SELMODE::VSEL_CMPMASK_SPR, n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(z.GetValue(i), (i % 64) % 8 < 4 ? 1.0f : 2.0f) << i;
    });
}

TEST(AscendcSelect, TensorScalarModePicksTheScalarWhereBitsAreZero) {
    WithTensors<float>(64, 32, [&](auto x, auto, auto z, auto sel) {
        for (uint32_t i = 0; i < 64; ++i)
            x.SetValue(i, float(i));
        for (uint32_t i = 0; i < 8; ++i)
            sel.SetValue(i, uint8_t(0xAA));
        Select(z, sel, x, 7.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(z.GetValue(i), i % 2 ? float(i) : 7.5f) << i;
    });
}

TEST(AscendcSelect, RepeatFormLeavesMaskedLanesUntouched) {
    WithTensors<float>(128, 32, [&](auto x, auto y, auto z, auto sel) {
        Duplicate(x, 1.0f, 128);
        Duplicate(y, 2.0f, 128);
        Duplicate(z, -9.0f, 128);
        for (uint32_t i = 0; i < 16; ++i)
            sel.SetValue(i, uint8_t(0x0F));
        Select(z, sel, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 16, 2, BinaryRepeatParams{});
        for (uint32_t i = 0; i < 128; ++i) {
            float expected = i % 64 >= 16 ? -9.0f : (i % 8 < 4 ? 1.0f : 2.0f);
            ASSERT_EQ(z.GetValue(i), expected) << i;
        }
        Select(z, sel, x, 5.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 4, 1, BinaryRepeatParams{});
        EXPECT_EQ(z.GetValue(3), 1.0f);
        EXPECT_EQ(z.GetValue(4), 2.0f);  // lane 4 is outside the mask
    });
}

TEST(AscendcSelect, RegisterFormsUseCmpMask) {
    WithTensors<float>(64, 32, [&](auto x, auto y, auto z, auto sel) {
        for (uint32_t i = 0; i < 64; ++i) {
            x.SetValue(i, float(i));
            y.SetValue(i, 100.0f);
        }
        Compare(x, y, CMPMODE::LT, 64, BinaryRepeatParams{});  // all true
        for (uint32_t i = 0; i < 8; ++i)
            sel.SetValue(i, uint8_t(0x01));
        SetCmpMask(sel);
        SetVectorMask<float>(64);
        Select<float, SELMODE::VSEL_CMPMASK_SPR>(z, x, y, 1, BinaryRepeatParams{});
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(z.GetValue(i), i % 8 == 0 ? float(i) : 100.0f) << i;
        // Mode 2: CmpMask holds the selMask's address.
        auto address = y.template ReinterpretCast<uint64_t>();
        address.SetValue(0, uint64_t(sel.GetPhyAddr()));
        for (uint32_t i = 0; i < 8; ++i)
            sel.SetValue(i, uint8_t(0x80));
        SetCmpMask(address);
        Duplicate(y, 100.0f, 64);
        Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(z, x, y, 1, BinaryRepeatParams{});
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(z.GetValue(i), i % 8 == 7 ? float(i) : 100.0f) << i;
    });
}

TEST(AscendcSelect, ScalarWithATensorModeTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, m;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(m, 32);
        auto x = a.Get<float>();
        Select(x, m.Get<uint8_t>(), x, 1.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    });
    EXPECT_NE(message.find("Select: a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE"),
              std::string::npos)
        << message;
}

TEST(AscendcSelect, SelMaskShorterThanTheElementsTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, m;
        pipe.InitBuffer(a, 4096);
        pipe.InitBuffer(m, 32);  // 256 bits for 1024 elements
        auto x = a.Get<float>();
        Select(x, m.Get<uint8_t>(), x, x, SELMODE::VSEL_TENSOR_TENSOR_MODE, 1024);
    });
    EXPECT_NE(message.find("Select: selMask bit 256 is past its buffer (32 bytes)"),
              std::string::npos)
        << message;
}

TEST(AscendcSelect, ThresholdReluKernelMatchesTheReference) {
    constexpr uint32_t kBlocks = 4, kPerBlock = 1024;
    std::vector<float> x(kBlocks * kPerBlock), y(x.size(), -1.0f);
    std::mt19937 random(9);
    std::uniform_real_distribution<float> value(-3.0f, 3.0f);
    for (auto& v : x)
        v = value(random);
    auto failure = openacl::test::RunBlocks(kBlocks, [&] {
        threshold_relu_custom(reinterpret_cast<GM_ADDR>(x.data()),
                              reinterpret_cast<GM_ADDR>(y.data()), kPerBlock, 0.5f);
    });
    ASSERT_EQ(failure, "");
    for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(y[i], x[i] > 0.5f ? x[i] : 0.0f) << i;
}

}  // namespace
