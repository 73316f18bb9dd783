// GatherMask, Gather, Scatter, Brcb, Transpose, CreateVecIndex and ArithProgression.
#include <gtest/gtest.h>

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
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, n * sizeof(T));
        pipe.InitBuffer(b, n * sizeof(T));
        pipe.InitBuffer(c, n * 4);
        body(a.Get<T>(), b.Get<T>(), c.Get<uint32_t>());
    });
}

TEST(AscendcGather, GatherMaskBuiltInPatternsKeepTheirElements) {
    WithTensors<uint16_t>(128, [](auto src, auto dst, auto) {
        for (uint32_t i = 0; i < 128; ++i)
            src.SetValue(i, uint16_t(i + 1));
        for (uint8_t pattern = 1; pattern <= 7; ++pattern) {
            uint64_t kept = 0;
            GatherMask(dst, src, pattern, false, 0, {1, 1, 0, 0}, kept);
            uint32_t expected = 0;
            for (uint32_t i = 0; i < 128; ++i) {
                bool keep = pattern == 1   ? i % 2 == 0
                            : pattern == 2 ? i % 2 == 1
                            : pattern == 7 ? true
                                           : i % 4 == uint32_t(pattern - 3);
                if (keep) {
                    ASSERT_EQ(dst.GetValue(expected++), i + 1) << int(pattern);
                }
            }
            EXPECT_EQ(kept, expected) << int(pattern);
        }
    });
}

TEST(AscendcGather, GatherMaskUserPatternInCounterModeCoversMaskElementsPerRepeat) {
    // As CANN's example: 70 uint32 a repeat, 2 repeats, src0 repeat stride 4 blocks (32
    // elements), the pattern reused (src1RepeatStride 0).
    WithTensors<uint32_t>(256, [](auto src, auto dst, auto pattern) {
        for (uint32_t i = 0; i < 256; ++i)
            src.SetValue(i, i);
        for (uint32_t w = 0; w < 8; ++w)
            pattern.SetValue(w, 0x55555555U);  // every other element
        uint64_t kept = 0;
        GatherMask(dst, src, pattern, true, 70, {1, 2, 4, 0}, kept);
        EXPECT_EQ(kept, 70U);
        for (uint32_t k = 0; k < 35; ++k) {
            ASSERT_EQ(dst.GetValue(k), 2 * k);
            ASSERT_EQ(dst.GetValue(35 + k), 32 + 2 * k);
        }
    });
}

TEST(AscendcGather, GatherAndScatterUseByteOffsets) {
    WithTensors<float>(64, [](auto src, auto dst, auto offsets) {
        for (uint32_t i = 0; i < 64; ++i) {
            src.SetValue(i, float(i));
            offsets.SetValue(i, (63 - i) * 4);
        }
        Gather(dst, src, offsets, 0, 64);
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(dst.GetValue(i), float(63 - i));
        Duplicate(src, -1.0f, 64);
        for (uint32_t i = 0; i < 32; ++i)
            offsets.SetValue(i, i * 8);  // every other element
        Scatter(src, dst, offsets, 0, 32);
        for (uint32_t i = 0; i < 64; ++i)
            ASSERT_EQ(src.GetValue(i), i % 2 ? -1.0f : float(63 - i / 2)) << i;
    });
}

TEST(AscendcGather, GatherOffsetOutsideTheSourceTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(b, 256);
        auto offsets = b.Get<uint32_t>();
        offsets.SetValue(0, 256);
        Gather(a.Get<float>(), a.Get<float>(), offsets, 0, 1);
    });
    EXPECT_NE(message.find("Gather: srcOffset offset 256 (element 0) is not a whole element "
                           "inside the buffer (256 bytes)"),
              std::string::npos)
        << message;
}

TEST(AscendcGather, UnknownBuiltInPatternTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 256);
        uint64_t kept = 0;
        GatherMask(a.Get<float>(), a.Get<float>(), uint8_t(8), false, 0, {1, 1, 0, 0}, kept);
    });
    EXPECT_NE(message.find("GatherMask: src1Pattern 8 is not a built-in pattern (1..7)"),
              std::string::npos)
        << message;
}

TEST(AscendcRearrange, BrcbFillsOneBlockPerSourceElement) {
    WithTensors<float>(128, [](auto src, auto dst, auto) {
        for (uint32_t i = 0; i < 16; ++i)
            src.SetValue(i, float(i));
        Brcb(dst, src, 2, {1, 8});
        for (uint32_t i = 0; i < 128; ++i)
            ASSERT_EQ(dst.GetValue(i), float(i / 8)) << i;
    });
}

TEST(AscendcRearrange, TransposeSwapsRowsAndColumnsOf16By16) {
    WithTensors<half>(256, [](auto src, auto dst, auto) {
        for (uint32_t i = 0; i < 256; ++i)
            src.SetValue(i, half(float(i)));
        Transpose(dst, src);
        for (uint32_t r = 0; r < 16; ++r) {
            for (uint32_t c = 0; c < 16; ++c)
                ASSERT_EQ(float(dst.GetValue(r * 16 + c)), float(c * 16 + r));
        }
    });
}

TEST(AscendcRearrange, CreateVecIndexAndArithProgressionCount) {
    WithTensors<int32_t>(64, [](auto a, auto b, auto) {
        CreateVecIndex(a, 5, 64);
        ArithProgression(b, 100, -3, 64);
        for (int32_t i = 0; i < 64; ++i) {
            ASSERT_EQ(a.GetValue(i), 5 + i);
            ASSERT_EQ(b.GetValue(i), 100 - 3 * i);
        }
    });
}

}  // namespace
