// PlatformAscendC answers for the chip openacl emulates (the default Ascend910B1: 24 AI cores,
// 48 vector cores, the 2201 memory sizes), with no device set and no aclInit; the Matmul tiling
// built on it fits those sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace {

using platform_ascendc::CoreMemType;

uint64_t MemSize(CoreMemType type) {
    uint64_t size = 0;
    platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreMemSize(type, size);
    return size;
}

bool DefaultChip() {
    return std::string(aclrtGetSocName()) == "Ascend910B1";
}

TEST(AscendcPlatform, CoreCountsComeFromTheRuntimesChip) {
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    ASSERT_NE(platform, nullptr);
    int64_t aic = 0, aiv = 0;
    ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &aic), ACL_SUCCESS);
    ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &aiv), ACL_SUCCESS);
    EXPECT_EQ(platform->GetCoreNumAic(), uint32_t(aic));
    if (openacl::ascendc::platform::ChipMemoryOf(
            openacl::ascendc::platform::NpuArchOf(aclrtGetSocName()))
            .separated) {
        EXPECT_EQ(platform->GetCoreNumAiv(), uint32_t(aiv));
        EXPECT_EQ(platform->GetCoreNum(), uint32_t(aiv));  // a vector kernel's core count
    } else {  // coupled AI cores (310P): the separate Vector Cores are counted apart
        EXPECT_EQ(platform->GetCoreNumAiv(), uint32_t(aic));
        EXPECT_EQ(platform->GetCoreNum(), uint32_t(aic));
        EXPECT_EQ(platform->GetCoreNumVector(), uint32_t(aiv));
    }
    if (DefaultChip()) {
        EXPECT_EQ(platform->GetCoreNumAic(), 24U);
        EXPECT_EQ(platform->GetCoreNumAiv(), 48U);
        EXPECT_EQ(platform->GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
    }
}

TEST(AscendcPlatform, MemorySizesAreTheChipsKernelVisibleSizes) {
    if (!DefaultChip()) GTEST_SKIP() << "the expected sizes are those of arch 2201";
    EXPECT_EQ(MemSize(CoreMemType::UB), 192U * 1024 - 256);
    EXPECT_EQ(MemSize(CoreMemType::L1), 512U * 1024 - 256);
    EXPECT_EQ(MemSize(CoreMemType::L0_A), 64U * 1024);
    EXPECT_EQ(MemSize(CoreMemType::L0_B), 64U * 1024);
    EXPECT_EQ(MemSize(CoreMemType::L0_C), 128U * 1024);
    EXPECT_EQ(MemSize(CoreMemType::BT), 1024U);
    int64_t l2 = 0;
    ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &l2), ACL_SUCCESS);
    EXPECT_EQ(MemSize(CoreMemType::L2), uint64_t(l2));
}

TEST(AscendcPlatform, CalcTschBlockDimGroupsTwoAivsWithEachAic) {
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t aic = platform->GetCoreNumAic(), aiv = platform->GetCoreNumAiv();
    EXPECT_EQ(platform->CalcTschBlockDim(aiv, aic, aiv), aic);  // 48 slices -> 24 groups
    EXPECT_EQ(platform->CalcTschBlockDim(7, 0, aiv), 7U);       // vector only: one per slice
    EXPECT_EQ(platform->CalcTschBlockDim(7, aic, 0), 7U);       // cube only
    EXPECT_GT(platform->GetLibApiWorkSpaceSize(), 0U);
}

// As the matmul samples' GenerateTiling does it.
TEST(AscendcPlatform, MultiCoreTilingOnThePlatformFitsItsBuffersAndCores) {
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling api(*platform);
    using matmul_tiling::CubeFormat;
    using matmul_tiling::DataType;
    using matmul_tiling::TPosition;
    api.SetDim(platform->GetCoreNumAic());
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(128, 2048, 1024);
    api.SetShape(128, 2048, 1024);
    api.EnableBias(true);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling tiling;
    ASSERT_EQ(api.GetTiling(tiling), 0);
    EXPECT_LE(uint32_t(tiling.get_usedCoreNum()), platform->GetCoreNumAic());
    EXPECT_GT(tiling.get_usedCoreNum(), 1);
    EXPECT_LE(uint64_t(tiling.get_baseM()) * tiling.get_baseN() * 4, MemSize(CoreMemType::L0_C));
    EXPECT_LE(uint64_t(tiling.get_dbL0A()) * tiling.get_baseM() * tiling.get_baseK() * 2,
              MemSize(CoreMemType::L0_A));
    EXPECT_LE(uint64_t(tiling.get_shareL1Size()), MemSize(CoreMemType::L1));
}

TEST(AscendcPlatform, DefaultConstructedTilingUsesThePlatformToo) {
    matmul_tiling::MultiCoreMatmulTiling api;
    api.SetShape(64, 64, 64);
    TCubeTiling tiling;
    ASSERT_EQ(api.GetTiling(tiling), 0);
    EXPECT_EQ(tiling.M, 64);
    EXPECT_GE(tiling.usedCoreNum, 1);
}

}  // namespace
