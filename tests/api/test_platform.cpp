// acl/acl_platform.h: the configured chip's figures as text.
#include <gtest/gtest.h>

#include <string>

#include "acl/acl.h"
#include "acl/acl_platform.h"
#include "test_support.h"

namespace {

std::string Info(aclplatformDevInfo info) {
    char text[64] = {};
    EXPECT_EQ(aclplatformGetDeviceInfo(info, text, sizeof text), ACL_SUCCESS) << TakeErrMsg();
    return text;
}

TEST(Platform, TheDefaultChipIsTheAscend910B1WithItsCoreCounts) {
    EXPECT_EQ(Info(ACL_PLATFORM_SOC_VERSION), "Ascend910B1");
    EXPECT_EQ(Info(ACL_PLATFORM_AICORE_CNT), "24");
    EXPECT_EQ(Info(ACL_PLATFORM_CUBE_CORE_CNT), "24");
    EXPECT_EQ(Info(ACL_PLATFORM_VECTOR_CORE_CNT), "48");
    EXPECT_EQ(Info(ACL_PLATFORM_NPU_ARCH), std::to_string(DAV_2201));
}

TEST(Platform, BufferSizesAreBytes) {
    EXPECT_EQ(Info(ACL_PLATFORM_AICORE_UB_SIZE), "196608");
    EXPECT_EQ(Info(ACL_PLATFORM_L1_SIZE), "524288");
    EXPECT_EQ(Info(ACL_PLATFORM_L0_A_SIZE), "65536");
    EXPECT_EQ(Info(ACL_PLATFORM_L0_C_SIZE), "131072");
    EXPECT_EQ(Info(ACL_PLATFORM_L2_SIZE), std::to_string(192 << 20));
}

TEST(Platform, MemorySizeIsWhatAclrtGetMemInfoCallsTheTotal) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    size_t free_bytes = 0, total = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
    EXPECT_EQ(Info(ACL_PLATFORM_MEMORY_SIZE), std::to_string(total));
    aclrtResetDeviceForce(0);
}

TEST(Platform, FiguresTheChipTableLacksAreOpNotFound) {
    char text[64];
    EXPECT_EQ(aclplatformGetDeviceInfo(ACL_PLATFORM_CUBE_FREQ, text, sizeof text),
              ACL_ERROR_OP_NOT_FOUND);
    EXPECT_THAT_MESSAGE_CONTAINS("not emulated");
}

TEST(Platform, ABufferTooSmallForTheTextIsInvalidParam) {
    char text[4];
    EXPECT_EQ(aclplatformGetDeviceInfo(ACL_PLATFORM_SOC_VERSION, text, sizeof text),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("needs 12 bytes");
}

TEST(Platform, BadArgumentsAreInvalidParam) {
    char text[64];
    EXPECT_EQ(aclplatformGetDeviceInfo(ACL_PLATFORM_AICORE_CNT, nullptr, 64),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclplatformGetDeviceInfo(ACL_PLATFORM_AICORE_CNT, text, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclplatformGetDeviceInfo(static_cast<aclplatformDevInfo>(999), text, sizeof text),
              ACL_ERROR_INVALID_PARAM);
}

class PlatformOn310P : public ::testing::Test {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};

TEST_F(PlatformOn310P, FiguresFollowTheConfiguredChip) {
    EXPECT_EQ(Info(ACL_PLATFORM_SOC_VERSION), "Ascend310P3");
    EXPECT_EQ(Info(ACL_PLATFORM_AICORE_CNT), "8");
    EXPECT_EQ(Info(ACL_PLATFORM_NPU_ARCH), std::to_string(DAV_2002));
    EXPECT_EQ(Info(ACL_PLATFORM_L1_SIZE), "1048576");
}

}  // namespace
