// Devices: aclrtSetDevice / aclrtResetDevice reference counting, the per-thread current device,
// device counts, attribute queries, peer access and device memory accounting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "test_support.h"

namespace {

// aclInit with OPENACL_DEVICE_COUNT=2 (aclInit re-reads the environment), aclFinalize after.
class TwoDevices : public ::testing::Test {
 protected:
    void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
    void TearDown() override {
        aclFinalize();
        aclGetRecentErrMsg();
    }

 private:
    ScopedEnv count_{"OPENACL_DEVICE_COUNT", "2"};
};

// Device 0 set for the test (DeviceTest) under the names of what is tested.
class SynchronizeDevice : public DeviceTest {};
class MemInfo : public DeviceTest {};

int32_t PrimaryContextActive(int32_t device) {
    int32_t active = -1;
    EXPECT_EQ(aclrtGetPrimaryCtxState(device, nullptr, &active), ACL_SUCCESS);
    return active;
}

}  // namespace

// ---- reference counting ----

TEST(DeviceRefCount, SetTwiceThenResetOnceKeepsTheDevice) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(PrimaryContextActive(0), 1);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 0);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS) << "the device's memory survives the first reset";
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(PrimaryContextActive(0), 0) << "the second reset releases the device";
}

TEST(DeviceRefCount, LastResetLeavesTheThreadWithoutAContext) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("no current context");
}

TEST(DeviceRefCount, SetDeviceCallsFromSeveralThreadsAllCount) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    std::thread([] { EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }).join();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(PrimaryContextActive(0), 1);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(PrimaryContextActive(0), 0);
}

TEST(DeviceRefCount, ResetDeviceForceReleasesAtOnce) {
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT_EQ(PrimaryContextActive(0), 0);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(DeviceRefCount, ResetOfAReleasedDeviceFails) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    aclGetRecentErrMsg();
    EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device 0 is not in use");
}

TEST(DeviceRefCount, ForceResetAfterTheCountReachedZeroFails) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDeviceForce(0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtResetDeviceForce failed");
}

TEST(DeviceRefCount, PlainResetAfterForceFails) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("already released by aclrtResetDeviceForce");
}

TEST(DeviceRefCount, ResetOfANeverSetDeviceFails) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);  // fresh devices even when tests share a process
    EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtSetDevice was never called for it");
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(DeviceRefCount, DeviceCanBeSetAgainAfterRelease) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(PrimaryContextActive(0), 1);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << "the count restarts from the new set";
    EXPECT_EQ(PrimaryContextActive(0), 0);
}

TEST(DeviceRefCount, SetDeviceOutsideTheVisibleRangeFails) {
    EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device id 1 is out of range");
    EXPECT_EQ(aclrtResetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device id -1 is out of range");
}

// ---- the current device, per thread ----

TEST(GetDevice, AnswersTheDeviceSetInThisThread) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 0);
    aclrtResetDevice(0);
}

TEST(GetDevice, ANewThreadHasNoDevice) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclError rc = ACL_SUCCESS;
    std::string message;
    std::thread([&] {
        int32_t device = -1;
        rc = aclrtGetDevice(&device);
        const char* text = aclGetRecentErrMsg();
        message = text != nullptr ? text : "";
    }).join();
    EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(message.find("call aclrtSetDevice or aclrtSetCurrentContext"), std::string::npos)
        << message;
    aclrtResetDevice(0);
}

TEST(NoDevice, GetDeviceIsContextNull) {
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_EQ(device, -1) << "the output is left alone on failure";
}

TEST_F(TwoDevices, EachThreadHasItsOwnCurrentDevice) {
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    int32_t in_thread = -1;
    std::thread([&] {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclrtGetDevice(&in_thread), ACL_SUCCESS);
    }).join();
    EXPECT_EQ(in_thread, 0);
    int32_t here = -1;
    EXPECT_EQ(aclrtGetDevice(&here), ACL_SUCCESS);
    EXPECT_EQ(here, 1);
}

TEST_F(TwoDevices, SetDeviceSwitchesTheCurrentDevice) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 1);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 0);
}

// ---- device count and visible devices ----

TEST(DeviceCount, DefaultsToOneDevice) {
    uint32_t count = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 1u);
}

TEST(DeviceCount, FollowsOpenaclDeviceCount) {
    ScopedEnv env("OPENACL_DEVICE_COUNT", "4");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    uint32_t count = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 4u);
    EXPECT_EQ(aclrtSetDevice(3), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(4), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(DeviceCount, AscendRtVisibleDevicesSelectsAndRenumbersDevices) {
    ScopedEnv count_env("OPENACL_DEVICE_COUNT", "4");
    ScopedEnv visible("ASCEND_RT_VISIBLE_DEVICES", "1,3");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    uint32_t count = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 2u);
    int32_t physical = -1;
    EXPECT_EQ(aclrtGetPhyDevIdByUserDevId(1, &physical), ACL_SUCCESS);
    EXPECT_EQ(physical, 3);
    int32_t user = -1;
    EXPECT_EQ(aclrtGetUserDevIdByPhyDevId(1, &user), ACL_SUCCESS);
    EXPECT_EQ(user, 0);
    EXPECT_EQ(aclrtGetUserDevIdByPhyDevId(2, &user), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("physical device 2 is not visible");
    EXPECT_EQ(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(DeviceCount, VisibleDeviceBeyondTheDeviceCountFailsInit) {
    ScopedEnv visible("ASCEND_RT_VISIBLE_DEVICES", "0,5");
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ASCEND_RT_VISIBLE_DEVICES=0,5");
}

TEST(DeviceCount, NullCountIsInvalidParam) {
    EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("count is null");
}

// ---- synchronisation ----

TEST_F(SynchronizeDevice, SucceedsWithADeviceSet) {
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(-1), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(10), ACL_SUCCESS);
}

TEST(NoDevice, SynchronizeDeviceIsContextNull) {
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtSynchronizeDevice failed");
}

TEST_F(SynchronizeDevice, TimeoutBelowMinusOneIsInvalidParam) {
    EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout -2 ms is invalid");
}

// ---- attribute queries ----

namespace {

// The figures of the chip aclInit configured (OPENACL_SOC_NAME), from aclrtGetDeviceInfo and
// aclGetDeviceCapability alike.
struct ChipFigures {
    int64_t ai_cores, cube_cores, vector_cores, l2_bytes;
};

ChipFigures FiguresOf(const char* soc_name) {
    ScopedEnv soc("OPENACL_SOC_NAME", soc_name);
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ChipFigures f{-1, -1, -1, -1};
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &f.ai_cores), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &f.cube_cores), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &f.vector_cores), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &f.l2_bytes), ACL_SUCCESS);
    int64_t value = -1;
    EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &value), ACL_SUCCESS);
    EXPECT_EQ(value, f.ai_cores) << "both queries describe the same chip";
    EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value), ACL_SUCCESS);
    EXPECT_EQ(value, f.vector_cores);
    EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &value), ACL_SUCCESS);
    EXPECT_EQ(value, f.l2_bytes);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    return f;
}

}  // namespace

TEST(DeviceInfo, TheDefaultChipIs910B1With24CubeAnd48VectorCores) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend910B1");
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    const ChipFigures f = FiguresOf("Ascend910B1");
    EXPECT_EQ(f.ai_cores, 24);
    EXPECT_EQ(f.cube_cores, 24);
    EXPECT_EQ(f.vector_cores, 48) << "two AIV per AI Core on the separated architecture";
    EXPECT_EQ(f.l2_bytes, int64_t{192} << 20);
}

TEST(DeviceInfo, The910B4Has20CubeAnd40VectorCores) {
    const ChipFigures f = FiguresOf("Ascend910B4");
    EXPECT_EQ(f.ai_cores, 20);
    EXPECT_EQ(f.vector_cores, 40);
    EXPECT_EQ(f.l2_bytes, int64_t{96} << 20);
}

TEST(DeviceInfo, The310P3Has8AiCoresAnd7VectorCores) {
    const ChipFigures f = FiguresOf("Ascend310P3");
    EXPECT_EQ(f.ai_cores, 8);
    EXPECT_EQ(f.cube_cores, 8) << "each coupled AI Core holds a cube unit";
    EXPECT_EQ(f.vector_cores, 7);
    EXPECT_EQ(f.l2_bytes, int64_t{16} << 20);
}

TEST(DeviceInfo, AChipWithoutFiguresDescribesTheHost) {
    const ChipFigures f = FiguresOf("Ascend310B4");
    const int64_t host_cores = std::max(1u, std::thread::hardware_concurrency());
    EXPECT_EQ(f.ai_cores, host_cores);
    EXPECT_EQ(f.vector_cores, host_cores);
    EXPECT_GT(f.l2_bytes, 0);
}

TEST(DeviceInfo, AiCpuCoresAreTheHostCores) {
    int64_t value = -1;
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &value), ACL_SUCCESS);
    EXPECT_EQ(value, std::max(1u, std::thread::hardware_concurrency()));
}

TEST(DeviceInfo, TotalGlobalMemoryIsTheDeviceCapacity) {
    ScopedEnv memory("OPENACL_DEVICE_MEMORY_MB", "96");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    int64_t value = 0;
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value), ACL_SUCCESS);
    EXPECT_EQ(value, int64_t{96} << 20);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(DeviceInfo, IdentityAttributes) {
    int64_t value = -1;
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 0);
    value = -1;
    EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 0);
}

TEST(DeviceInfo, HardwareOnlyAttributesAreFeatureNotSupport) {
    for (aclrtDevAttr attr :
         {ACL_DEV_ATTR_WARP_SIZE, ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE,
          ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, ACL_DEV_ATTR_MAX_GRID_DIM_X,
          ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, ACL_DEV_ATTR_SMP_ID, ACL_DEV_ATTR_SUPER_POD_ID,
          ACL_DEV_ATTR_DEVICE_FORM_FACTOR, ACL_DEV_ATTR_NPU_ARCH}) {
        SCOPED_TRACE(static_cast<int>(attr));
        int64_t value = -1;
        EXPECT_EQ(aclrtGetDeviceInfo(0, attr, &value), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_THAT_MESSAGE_CONTAINS("a CPU device does not have");
    }
}

TEST(DeviceInfo, UnknownAttributeIsInvalidParam) {
    int64_t value = -1;
    EXPECT_EQ(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(12345), &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("attr 12345 is not an aclrtDevAttr");
}

TEST(DeviceInfo, UnknownDeviceIsInvalidDeviceId) {
    int64_t value = -1;
    EXPECT_EQ(aclrtGetDeviceInfo(7, ACL_DEV_ATTR_AICORE_CORE_NUM, &value),
              ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device id 7 is out of range");
}

TEST(DeviceCapability, AclGetDeviceCapabilityUnknownInfoIsInvalidParam) {
    int64_t value = -1;
    EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("deviceInfo -1 is not an aclDeviceInfo");
    EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, nullptr),
              ACL_ERROR_INVALID_PARAM);
}

TEST(DeviceCapability, AscendTaskSchedulerFeaturesAreNotSupported) {
    for (aclrtDevFeatureType feature :
         {ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV}) {
        SCOPED_TRACE(static_cast<int>(feature));
        int32_t value = -1;
        EXPECT_EQ(aclrtGetDeviceCapability(0, feature, &value), ACL_SUCCESS);
        EXPECT_EQ(value, ACL_DEV_FEATURE_NOT_SUPPORT);
    }
}

TEST(DeviceCapability, AclrtGetDeviceCapabilityUnknownFeatureIsInvalidParam) {
    int32_t value = -1;
    EXPECT_EQ(aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(2), &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("devFeatureType 2 is not an aclrtDevFeatureType");
}

// ---- peer access ----

TEST_F(TwoDevices, DevicesCanAccessEachOther) {
    int32_t can = -1;
    EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
    EXPECT_EQ(can, 1);
    can = -1;
    EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 1, 0), ACL_SUCCESS);
    EXPECT_EQ(can, 1);
}

TEST_F(TwoDevices, CanAccessPeerOfItselfIsInvalidParam) {
    int32_t can = -1;
    EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("deviceId and peerDeviceId are both 1");
}

TEST_F(TwoDevices, CanAccessPeerOfAnUnknownDeviceIsInvalidDeviceId) {
    int32_t can = -1;
    EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 2), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device id 2 is out of range");
}

TEST_F(TwoDevices, EnableThenDisablePeerAccess) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
}

TEST_F(TwoDevices, EnablePeerAccessWithNonZeroFlagsIsRejected) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("flags must be 0, not 1");
}

TEST_F(TwoDevices, EnablePeerAccessToItselfIsRejected) {
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("device 1 cannot be its own peer");
}

TEST_F(TwoDevices, EnablePeerAccessWithoutACurrentDeviceIsContextNull) {
    EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtDeviceEnablePeerAccess failed");
}

TEST_F(TwoDevices, DisablePeerAccessThatWasNotEnabledIsRejected) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("peer access from device 0 to device 1 was not enabled");
}

TEST_F(TwoDevices, PeerAccessEndsWithTheDevice) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM);
}

// ---- device memory accounting ----

TEST_F(MemInfo, FreeFallsWithAllocationAndRisesWhenFreed) {
    for (aclrtMemAttr attr : {ACL_DDR_MEM, ACL_HBM_MEM}) {
        SCOPED_TRACE(attr == ACL_DDR_MEM ? "ACL_DDR_MEM" : "ACL_HBM_MEM");
        size_t free0 = 0, total = 0;
        ASSERT_EQ(aclrtGetMemInfo(attr, &free0, &total), ACL_SUCCESS);
        EXPECT_GT(total, 0u);
        EXPECT_EQ(free0, total) << "nothing allocated yet";
        constexpr size_t kSize = size_t{1} << 20;
        void* p = nullptr;
        ASSERT_EQ(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        size_t free1 = 0, total1 = 0;
        ASSERT_EQ(aclrtGetMemInfo(attr, &free1, &total1), ACL_SUCCESS);
        EXPECT_EQ(total1, total);
        EXPECT_LE(free1, free0 - kSize);
        EXPECT_GE(free1, free0 - kSize - 4096) << "only padding and rounding on top";
        ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
        size_t free2 = 0;
        ASSERT_EQ(aclrtGetMemInfo(attr, &free2, &total1), ACL_SUCCESS);
        EXPECT_EQ(free2, free0);
    }
}

TEST(NoDevice, GetMemInfoIsContextNull) {
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtGetMemInfo failed");
}

TEST_F(MemInfo, NullOutputsAndUnknownKindsAreInvalidParam) {
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, nullptr, &total), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &free_bytes, &total),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("attr 99 is not an aclrtMemAttr");
}

TEST(DeviceReset, ReleasesTheDeviceMemory) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* a = nullptr;
    void* b = nullptr;
    ASSERT_EQ(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&b, size_t{3} << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total), ACL_SUCCESS);
    EXPECT_EQ(free_bytes, total);
    aclrtResetDeviceForce(0);
}

TEST(DeviceReset, PointersFromBeforeTheResetAreRefusedByMemcpy) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    char host[64] = {};
    EXPECT_EQ(aclrtMemcpy(host, sizeof host, p, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not into a live allocation");
    EXPECT_EQ(aclrtMemcpy(p, 64, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    aclrtResetDeviceForce(0);
}
