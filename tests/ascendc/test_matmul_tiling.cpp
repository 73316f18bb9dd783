// The host Matmul tiling (tiling/tiling_api.h) for the chip's buffer sizes, given as a
// matmul_tiling::PlatformInfo (the platform queries themselves are in host_tiling/): tilings
// for several shapes fit L1/L0A/L0B/L0C, and a Matmul kernel run with them is right.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "block_runner.h"
#include "kernels/cube_kernels.h"
#include "tiling/platform/platform_ascendc_chips.h"
#include "tiling/tiling_api.h"

namespace {

matmul_tiling::PlatformInfo ChipInfo() {
    auto chip = openacl::ascendc::platform::ChipMemoryOf(__NPU_ARCH__);
    matmul_tiling::PlatformInfo info;
    info.l1Size = chip.l1;
    info.l0ASize = chip.l0a;
    info.l0BSize = chip.l0b;
    info.l0CSize = chip.l0c;
    info.ubSize = chip.ub;
    return info;
}

TEST(AscendcMatmulTiling, TheChipTableAgreesWithTheKernelsMemorySizes) {
    auto chip = openacl::ascendc::platform::ChipMemoryOf(__NPU_ARCH__);
    EXPECT_EQ(chip.ub, ASC_UB_SIZE);
    EXPECT_EQ(chip.l1, ASC_L1_SIZE);
    EXPECT_EQ(chip.l0a, ASC_L0A_SIZE);
    EXPECT_EQ(chip.l0b, ASC_L0B_SIZE);
    EXPECT_EQ(chip.l0c, ASC_L0C_SIZE);
    EXPECT_EQ(chip.bt, ASC_BT_SIZE);
}

struct Shape {
    int m, n, k;
    matmul_tiling::DataType type;
    int elementSize;
    int dim;
};

class TilingForShape : public ::testing::TestWithParam<Shape> {};

TEST_P(TilingForShape, FitsTheChipsBuffersAndCoversC) {
    Shape s = GetParam();
    auto info = ChipInfo();
    matmul_tiling::MultiCoreMatmulTiling api(info);
    using matmul_tiling::CubeFormat;
    using matmul_tiling::TPosition;
    ASSERT_EQ(api.SetDim(s.dim), 0);
    api.SetAType(TPosition::GM, CubeFormat::ND, s.type);
    api.SetBType(TPosition::GM, CubeFormat::ND, s.type);
    api.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetOrgShape(s.m, s.n, s.k);
    api.SetShape(s.m, s.n, s.k);
    api.EnableBias(true);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling tiling;
    ASSERT_EQ(api.GetTiling(tiling), 0);
    const TCubeTiling& t = tiling.Data();
    int c0 = 32 / s.elementSize;
    EXPECT_GE(t.usedCoreNum, 1);
    EXPECT_LE(t.usedCoreNum, s.dim);
    EXPECT_EQ(t.usedCoreNum, ((s.m + t.singleCoreM - 1) / t.singleCoreM) *
                                 ((s.n + t.singleCoreN - 1) / t.singleCoreN));
    EXPECT_EQ(t.singleCoreK, s.k);
    EXPECT_EQ(t.baseM % 16, 0);
    EXPECT_EQ(t.baseN % 16, 0);
    EXPECT_EQ(t.baseK % c0, 0);
    EXPECT_LE(uint64_t(t.dbL0A) * t.baseM * t.baseK * s.elementSize, info.l0ASize);
    EXPECT_LE(uint64_t(t.dbL0B) * t.baseN * t.baseK * s.elementSize, info.l0BSize);
    EXPECT_LE(uint64_t(t.dbL0C) * t.baseM * t.baseN * 4, info.l0CSize);
    uint64_t l1 = uint64_t(t.depthA1) * t.baseM * t.baseK * s.elementSize +
                  uint64_t(t.depthB1) * t.baseN * t.baseK * s.elementSize + uint64_t(t.baseN) * 4;
    EXPECT_LE(l1, info.l1Size);
    EXPECT_EQ(t.isBias, 1);
    EXPECT_EQ(t.M, s.m);
    EXPECT_EQ(t.N, s.n);
    EXPECT_EQ(t.Ka, s.k);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TilingForShape,
    ::testing::Values(Shape{128, 2048, 1024, matmul_tiling::DataType::DT_FLOAT16, 2, 24},
                      Shape{100, 90, 70, matmul_tiling::DataType::DT_FLOAT16, 2, 8},
                      Shape{1, 4096, 4096, matmul_tiling::DataType::DT_BF16, 2, 24},
                      Shape{4096, 16, 300, matmul_tiling::DataType::DT_FLOAT, 4, 20},
                      Shape{512, 512, 512, matmul_tiling::DataType::DT_INT8, 1, 24},
                      Shape{17, 33, 5, matmul_tiling::DataType::DT_FLOAT16, 2, 1}));

TEST(AscendcMatmulTiling, GetTilingWithoutAShapeReturnsMinusOne) {
    matmul_tiling::MultiCoreMatmulTiling api(ChipInfo());
    optiling::TCubeTiling tiling;
    EXPECT_EQ(api.GetTiling(tiling), -1);
}

TEST(AscendcMatmulTiling, AnL1TooSmallForOneBlockReturnsMinusOne) {
    matmul_tiling::MultiCoreMatmulTiling api(ChipInfo());
    api.SetShape(256, 256, 256);
    api.SetBufferSpace(1024);  // one 16 x 16 x 16 half block pair needs more with double buffering
    TCubeTiling tiling;
    EXPECT_EQ(api.GetTiling(tiling), -1);
}

TEST(AscendcMatmulTiling, MixedInputTypesReturnMinusOne) {
    matmul_tiling::MatmulApiTiling api(ChipInfo());
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_INT8);
    api.SetShape(32, 32, 32);
    TCubeTiling tiling;
    EXPECT_EQ(api.GetTiling(tiling), -1);
}

TEST(AscendcMatmulTiling, SaveToBufferGivesTheKernelsStructByteForByte) {
    matmul_tiling::MultiCoreMatmulTiling api(ChipInfo());
    api.SetDim(4);
    api.SetShape(64, 64, 64);
    optiling::TCubeTiling tiling;
    ASSERT_EQ(api.GetTiling(tiling), 0);
    std::vector<uint8_t> buffer(tiling.GetDataSize());
    ASSERT_EQ(buffer.size(), sizeof(TCubeTiling));
    tiling.SaveToBuffer(buffer.data(), buffer.size());
    auto* kernelView = reinterpret_cast<const TCubeTiling*>(buffer.data());
    EXPECT_EQ(kernelView->baseK, tiling.get_baseK());
    EXPECT_EQ(kernelView->usedCoreNum, tiling.get_usedCoreNum());
    EXPECT_EQ(kernelView->singleCoreN, tiling.get_singleCoreN());
}

// Host tiling -> tiling buffer in "GM" -> the Matmul sample kernel over usedCoreNum blocks.
TEST(AscendcMatmulTiling, AKernelRunWithTheHostTilingMatchesTheReference) {
    const int m = 150, n = 200, k = 96;
    matmul_tiling::MultiCoreMatmulTiling api(ChipInfo());
    using matmul_tiling::CubeFormat;
    using matmul_tiling::DataType;
    using matmul_tiling::TPosition;
    api.SetDim(8);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.EnableBias(true);
    optiling::TCubeTiling tilingData;
    ASSERT_EQ(api.GetTiling(tilingData), 0);
    std::vector<uint8_t> tilingGm(tilingData.GetDataSize());
    tilingData.SaveToBuffer(tilingGm.data(), tilingGm.size());
    ASSERT_GT(tilingData.get_usedCoreNum(), 1);

    std::mt19937 random(21);
    std::uniform_int_distribution<int> value(-8, 8);
    std::vector<half> a(m * k), b(k * n);
    for (auto& v : a)
        v = half(value(random) * 0.25f);
    for (auto& v : b)
        v = half(value(random) * 0.25f);
    std::vector<float> bias(n), c(m * n, -99.0f);
    for (int j = 0; j < n; ++j)
        bias[j] = float(j % 7);
    std::vector<uint8_t> workspace(1024);
    auto failure = openacl::test::RunBlocks(uint32_t(tilingData.get_usedCoreNum()), [&] {
        matmul_half_custom(reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                           reinterpret_cast<GM_ADDR>(bias.data()),
                           reinterpret_cast<GM_ADDR>(c.data()), workspace.data(), tilingGm.data());
    });
    ASSERT_EQ(failure, "");
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float expected = bias[j];
            for (int p = 0; p < k; ++p)
                expected += float(a[i * k + p]) * float(b[p * n + j]);
            ASSERT_EQ(c[i * n + j], expected) << i << "," << j;
        }
}

}  // namespace
