// Device queries and limits: topology, PCI bus ids, user/logical/physical ids, peer-access
// status, atomic capabilities, stack and printf limits, core resource limits, utilisation,
// compute groups, architecture compatibility and the chip facilities around them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "test_support.h"

namespace {

// aclInit with the given chip and device count (aclInit re-reads the environment), device 0
// set; aclFinalize after.
class ChipTest : public ::testing::Test {
 protected:
    ChipTest(const char* soc, const char* devices)
        : soc_("OPENACL_SOC_NAME", soc), count_("OPENACL_DEVICE_COUNT", devices) {}
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    void TearDown() override {
        aclFinalize();
        aclGetRecentErrMsg();
    }

 private:
    ScopedEnv soc_;
    ScopedEnv count_;
};

// The default chip, Ascend910B1 (Atlas A2), with two devices.
class DeviceQueries : public ChipTest {
 protected:
    DeviceQueries() : ChipTest("Ascend910B1", "2") {}
};
class DeviceQueriesOn950 : public ChipTest {
 protected:
    DeviceQueriesOn950() : ChipTest("Ascend950PR", "1") {}
};
class DeviceQueriesOn310P : public ChipTest {
 protected:
    DeviceQueriesOn310P() : ChipTest("Ascend310P3", "2") {}
};

// Four devices of which the process sees physical 1 and 3, as user devices 0 and 1.
class DeviceQueriesVisible : public ::testing::Test {
 protected:
    void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
    void TearDown() override {
        aclFinalize();
        aclGetRecentErrMsg();
    }

 private:
    ScopedEnv count_{"OPENACL_DEVICE_COUNT", "4"};
    ScopedEnv visible_{"ASCEND_RT_VISIBLE_DEVICES", "1,3"};
};

std::string PciBusId(int32_t device) {
    char id[32] = {};
    EXPECT_EQ(aclrtDeviceGetPCIBusId(device, id, sizeof id), ACL_SUCCESS) << TakeErrMsg();
    return id;
}

uint32_t HostCapability(aclrtAtomicOperation op) {
    uint32_t bits = 0xdeadbeef;
    EXPECT_EQ(aclrtDeviceGetHostAtomicCapabilities(&bits, &op, 1, 0), ACL_SUCCESS) << TakeErrMsg();
    return bits;
}

size_t Limit(aclrtDeviceLimit limit) {
    size_t value = 0;
    EXPECT_EQ(aclrtDeviceGetLimit(limit, &value), ACL_SUCCESS) << TakeErrMsg();
    return value;
}

uint32_t DeviceRes(int32_t device, aclrtDevResLimitType type) {
    uint32_t value = 0;
    EXPECT_EQ(aclrtGetDeviceResLimit(device, type, &value), ACL_SUCCESS) << TakeErrMsg();
    return value;
}

uint32_t ThreadRes(aclrtDevResLimitType type) {
    uint32_t value = 0;
    EXPECT_EQ(aclrtGetResInCurrentThread(type, &value), ACL_SUCCESS) << TakeErrMsg();
    return value;
}

int32_t Compatible(const char* soc) {
    int32_t compatible = -1;
    EXPECT_EQ(aclrtCheckArchCompatibility(soc, &compatible), ACL_SUCCESS) << TakeErrMsg();
    return compatible;
}

constexpr uint32_t kIntegerWidths =
    ACL_RT_ATOMIC_CAPABILITY_SCALAR8 | ACL_RT_ATOMIC_CAPABILITY_SCALAR16 |
    ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
constexpr uint32_t kSigns = ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED;

}  // namespace

// ---- topology and PCI bus ids ----

TEST_F(DeviceQueries, TwoDevicesOfAnAtlasA2AreLinkedByHccs) {
    uint64_t topology = 0;
    EXPECT_EQ(aclrtGetDevicesTopo(0, 1, &topology), ACL_SUCCESS);
    EXPECT_EQ(topology, ACL_RT_DEVS_TOPOLOGY_HCCS);
}

TEST_F(DeviceQueriesOn310P, InferenceCardsShareAPcieSwitch) {
    uint64_t topology = 0;
    EXPECT_EQ(aclrtGetDevicesTopo(1, 0, &topology), ACL_SUCCESS);
    EXPECT_EQ(topology, ACL_RT_DEVS_TOPOLOGY_PIX);
}

TEST_F(DeviceQueries, ADeviceHasNoTopologyToItself) {
    uint64_t topology = 0;
    EXPECT_EQ(aclrtGetDevicesTopo(0, 0, &topology), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("deviceId and otherDeviceId are both 0");
}

TEST_F(DeviceQueries, TopologyOfAnUnknownDeviceIsInvalidDeviceId) {
    uint64_t topology = 0;
    EXPECT_EQ(aclrtGetDevicesTopo(0, 2, &topology), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(DeviceQueries, PciBusIdsAreWellFormedAndDistinct) {
    const std::string first = PciBusId(0);
    const std::string second = PciBusId(1);
    EXPECT_EQ(first, "0000:01:00.0");
    EXPECT_EQ(second, "0000:02:00.0");
}

TEST_F(DeviceQueries, PciBusIdRoundTripsToItsDevice) {
    for (int32_t device = 0; device < 2; ++device) {
        int32_t found = -1;
        EXPECT_EQ(aclrtDeviceGetByPCIBusId(PciBusId(device).c_str(), &found), ACL_SUCCESS);
        EXPECT_EQ(found, device);
    }
}

TEST_F(DeviceQueries, PciBusIdLookupTakesUpperCaseAndNoDomain) {
    int32_t found = -1;
    EXPECT_EQ(aclrtDeviceGetByPCIBusId("02:00.0", &found), ACL_SUCCESS);
    EXPECT_EQ(found, 1);
    found = -1;
    EXPECT_EQ(aclrtDeviceGetByPCIBusId("0000:01:00.0", &found), ACL_SUCCESS);
    EXPECT_EQ(found, 0);
}

TEST_F(DeviceQueries, PciBusIdBufferShorterThan13BytesIsInvalidParam) {
    char id[12];
    EXPECT_EQ(aclrtDeviceGetPCIBusId(0, id, sizeof id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("len 12 is too short");
}

TEST_F(DeviceQueries, MalformedPciBusIdIsInvalidParam) {
    int32_t found = -1;
    EXPECT_EQ(aclrtDeviceGetByPCIBusId("0000:01:00", &found), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a PCI bus id");
}

TEST_F(DeviceQueries, PciBusIdOfNoVisibleDeviceIsInvalidDeviceId) {
    int32_t found = -1;
    EXPECT_EQ(aclrtDeviceGetByPCIBusId("0000:03:00.0", &found), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("no device visible to this process is at PCI bus id");
}

TEST_F(DeviceQueriesVisible, PciBusIdFollowsThePhysicalDevice) {
    EXPECT_EQ(PciBusId(0), "0000:02:00.0");  // physical device 1
    int32_t found = -1;
    EXPECT_EQ(aclrtDeviceGetByPCIBusId("0000:04:00.0", &found), ACL_SUCCESS);
    EXPECT_EQ(found, 1);  // physical device 3
}

// ---- user, logical and physical ids ----

TEST_F(DeviceQueriesVisible, UserIdsMapOntoTheVisibleLogicalIds) {
    int32_t logical = -1;
    EXPECT_EQ(aclrtGetLogicDevIdByUserDevId(1, &logical), ACL_SUCCESS);
    EXPECT_EQ(logical, 3);
    int32_t user = -1;
    EXPECT_EQ(aclrtGetUserDevIdByLogicDevId(3, &user), ACL_SUCCESS);
    EXPECT_EQ(user, 1);
    EXPECT_EQ(aclrtGetUserDevIdByLogicDevId(1, &user), ACL_SUCCESS);
    EXPECT_EQ(user, 0);
}

TEST_F(DeviceQueriesVisible, AnInvisibleLogicalIdHasNoUserId) {
    int32_t user = -1;
    EXPECT_EQ(aclrtGetUserDevIdByLogicDevId(2, &user), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("logical device 2 is not visible");
}

TEST_F(DeviceQueriesVisible, PhysicalAndLogicalIdsAreTheSameOutsideAContainer) {
    int32_t id = -1;
    EXPECT_EQ(aclrtGetLogicDevIdByPhyDevId(2, &id), ACL_SUCCESS);
    EXPECT_EQ(id, 2);
    EXPECT_EQ(aclrtGetPhyDevIdByLogicDevId(3, &id), ACL_SUCCESS);
    EXPECT_EQ(id, 3);
}

TEST_F(DeviceQueriesVisible, LogicalIdsBeyondTheMachineAreInvalidDeviceId) {
    int32_t id = -1;
    EXPECT_EQ(aclrtGetPhyDevIdByLogicDevId(4, &id), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("logical device 4 is not a device of this machine [0, 4)");
}

TEST_F(DeviceQueriesVisible, UserToLogicalToUserRoundTrips) {
    for (int32_t user = 0; user < 2; ++user) {
        int32_t logical = -1, back = -1, physical = -1;
        ASSERT_EQ(aclrtGetLogicDevIdByUserDevId(user, &logical), ACL_SUCCESS);
        ASSERT_EQ(aclrtGetUserDevIdByLogicDevId(logical, &back), ACL_SUCCESS);
        EXPECT_EQ(back, user);
        ASSERT_EQ(aclrtGetPhyDevIdByUserDevId(user, &physical), ACL_SUCCESS);
        EXPECT_EQ(physical, logical);
    }
}

// ---- peer access ----

TEST_F(DeviceQueries, PeerAccessStatusFollowsEnableAndDisable) {
    int32_t status = -1;
    EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
    EXPECT_EQ(status, 0);
    ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
    EXPECT_EQ(status, 1);
    EXPECT_EQ(aclrtDevicePeerAccessStatus(1, 0, &status), ACL_SUCCESS);
    EXPECT_EQ(status, 0) << "peer access is one-way";
    ASSERT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
    EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
    EXPECT_EQ(status, 0);
}

// ---- atomic capabilities ----

TEST_F(DeviceQueries, IntegerAtomicsAreSignedUnsignedReductionsUpTo64Bits) {
    for (aclrtAtomicOperation op :
         {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_INTEGER_MAX,
          ACL_RT_ATOMIC_OPERATION_XOR, ACL_RT_ATOMIC_OPERATION_DMA_ADD,
          ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN}) {
        const uint32_t bits = HostCapability(op);
        EXPECT_EQ(bits & (kSigns | ACL_RT_ATOMIC_CAPABILITY_REDUCTION | kIntegerWidths),
                  kSigns | ACL_RT_ATOMIC_CAPABILITY_REDUCTION | kIntegerWidths)
            << "operation " << op;
    }
}

TEST_F(DeviceQueries, ExchangeAndCompareAndSwapAreNoReductions) {
    for (aclrtAtomicOperation op :
         {ACL_RT_ATOMIC_OPERATION_EXCHANGE, ACL_RT_ATOMIC_OPERATION_CAS,
          ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS, ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH}) {
        const uint32_t bits = HostCapability(op);
        EXPECT_EQ(bits & ACL_RT_ATOMIC_CAPABILITY_REDUCTION, 0u) << "operation " << op;
        EXPECT_EQ(bits & (kSigns | kIntegerWidths), kSigns | kIntegerWidths) << "operation " << op;
    }
}

TEST_F(DeviceQueries, FloatAtomicsCoverHalfFloatAndDoubleWithoutIntegerSigns) {
    const uint32_t bits = HostCapability(ACL_RT_ATOMIC_OPERATION_FLOAT_ADD);
    EXPECT_EQ(bits & kSigns, 0u);
    EXPECT_EQ(bits & ACL_RT_ATOMIC_CAPABILITY_SCALAR8, 0u);
    const uint32_t wanted = ACL_RT_ATOMIC_CAPABILITY_REDUCTION | ACL_RT_ATOMIC_CAPABILITY_SCALAR16 |
                            ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
    EXPECT_EQ(bits & wanted, wanted);
}

TEST_F(DeviceQueries, OperationsAreAnsweredInTheOrderAsked) {
    const aclrtAtomicOperation ops[] = {ACL_RT_ATOMIC_OPERATION_FLOAT_MIN,
                                        ACL_RT_ATOMIC_OPERATION_INTEGER_MIN};
    uint32_t bits[2] = {};
    ASSERT_EQ(aclrtDeviceGetHostAtomicCapabilities(bits, ops, 2, 0), ACL_SUCCESS);
    EXPECT_EQ(bits[0], HostCapability(ACL_RT_ATOMIC_OPERATION_FLOAT_MIN));
    EXPECT_EQ(bits[1], HostCapability(ACL_RT_ATOMIC_OPERATION_INTEGER_MIN));
    EXPECT_NE(bits[0], bits[1]);
}

TEST_F(DeviceQueries, PeerAtomicsAreTheHostsAtomics) {
    const aclrtAtomicOperation ops[] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD,
                                        ACL_RT_ATOMIC_OPERATION_CAS,
                                        ACL_RT_ATOMIC_OPERATION_FLOAT_MAX};
    uint32_t host[3] = {}, peer[3] = {};
    ASSERT_EQ(aclrtDeviceGetHostAtomicCapabilities(host, ops, 3, 1), ACL_SUCCESS);
    ASSERT_EQ(aclrtDeviceGetP2PAtomicCapabilities(peer, ops, 3, 0, 1), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(peer[i], host[i]) << "operation " << ops[i];
}

TEST_F(DeviceQueries, AnUnknownOperationLeavesTheAnswersUntouched) {
    const aclrtAtomicOperation ops[] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD,
                                        static_cast<aclrtAtomicOperation>(13)};
    uint32_t bits[2] = {7, 7};
    EXPECT_EQ(aclrtDeviceGetHostAtomicCapabilities(bits, ops, 2, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("operations[1] = 13 is not an aclrtAtomicOperation");
    EXPECT_EQ(bits[0], 7u);
    EXPECT_EQ(bits[1], 7u);
}

// ---- stack and printf limits ----

TEST_F(DeviceQueries, SimdLimitsStartAtTheDocumentedDefaults) {
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE), 32768u);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE), 32768u);
}

TEST_F(DeviceQueries, SimdStackRoundsUpTo16KiB) {
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000), ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE), 49152u);
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 196608), ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE), 196608u);
}

TEST_F(DeviceQueries, SimdStackOf32KiBOrLessKeepsTheDefault) {
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 65536), ACL_SUCCESS);
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 1000), ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE), 32768u);
}

TEST_F(DeviceQueries, SimdStackAbove192KiBIsParamInvalidOnAtlasA2) {
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 196609),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("above the 192 KB");
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE), 32768u) << "the value stays";
}

TEST_F(DeviceQueriesOn950, SimdStackAbove128KiBIsParamInvalidOnThe950) {
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 131073),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("above the 128 KB");
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 131072), ACL_SUCCESS);
}

TEST_F(DeviceQueries, SimdPrintfFifoRoundsUpTo8BytesWithin1KiBTo64MiB) {
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1025),
              ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE), 1032u);
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("outside [1024, 67108864]");
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 67108865),
              ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(DeviceQueries, SimtLimitsAreNotSupportedOnAtlasA2) {
    size_t value = 0;
    EXPECT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, &value),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("is a SIMT limit");
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 1 << 20),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(DeviceQueries, LimitsAreOneSetForTheWholeProcess) {
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 65536), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE), 65536u);
}

TEST_F(DeviceQueriesOn950, SimtStackIsAnsweredPerWarpAfterRoundingTo128) {
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE), 1152u * 32) << "the default, per warp";
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 200), ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE), 256u * 32);
}

TEST_F(DeviceQueriesOn950, SimtDivergenceStackRoundsUpTo128) {
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE), 1024u);
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 500), ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE), 512u);
}

TEST_F(DeviceQueriesOn950, SimtStacksCannotBothBeZero) {
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 0),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("cannot both be 0");
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE), 1024u);
}

TEST_F(DeviceQueriesOn950, SimtPrintfFifoTakes1MiBTo64MiB) {
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE), 2u << 20);
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, (1 << 20) - 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, (1 << 20) + 1),
              ACL_SUCCESS);
    EXPECT_EQ(Limit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE), (1u << 20) + 8);
}

TEST_F(DeviceQueriesOn310P, DeviceLimitsAreNotSupportedOnThe310P) {
    size_t value = 0;
    EXPECT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("device limits are not available on Ascend310P3");
}

TEST_F(DeviceQueriesVisible, LimitsNeedDevice0ToBeVisible) {
    EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 65536),
              ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("include device 0");
}

// ---- core resource limits ----

TEST_F(DeviceQueries, DeviceResourceLimitsStartAtTheChipsCores) {
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_CUBE_CORE), 24u);
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_VECTOR_CORE), 48u);
}

TEST_F(DeviceQueries, DeviceResourceLimitRoundTripsAndResets) {
    ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 16), ACL_SUCCESS);
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_CUBE_CORE), 8u);
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_VECTOR_CORE), 16u);
    ASSERT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_CUBE_CORE), 24u);
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_VECTOR_CORE), 48u);
}

TEST_F(DeviceQueries, DeviceResourceLimitsArePerDevice) {
    ASSERT_EQ(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, 4), ACL_SUCCESS);
    EXPECT_EQ(DeviceRes(1, ACL_RT_DEV_RES_CUBE_CORE), 4u);
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_CUBE_CORE), 24u);
}

TEST_F(DeviceQueries, DeviceResourceLimitTakesOneToTheChipsCores) {
    EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 48), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 49),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("49 vector cores is outside [1, 48]");
    EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(DeviceQueries, StreamResourceLimitFallsBackToTheDevicesLimit) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 12), ACL_SUCCESS);
    uint32_t value = 0;
    EXPECT_EQ(aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 12u);
    ASSERT_EQ(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, 6), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 6u);
    ASSERT_EQ(aclrtResetStreamResLimit(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 12u);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(DeviceQueries, NullStreamMeansTheDefaultStream) {
    ASSERT_EQ(aclrtSetStreamResLimit(nullptr, ACL_RT_DEV_RES_VECTOR_CORE, 10), ACL_SUCCESS);
    uint32_t value = 0;
    EXPECT_EQ(aclrtGetStreamResLimit(nullptr, ACL_RT_DEV_RES_VECTOR_CORE, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 10u);
}

TEST_F(DeviceQueries, AThreadUsesItsStreamsLimitsThenTheProcesssThenTheChips) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT_EQ(ThreadRes(ACL_RT_DEV_RES_VECTOR_CORE), 48u);
    ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 32), ACL_SUCCESS);
    EXPECT_EQ(ThreadRes(ACL_RT_DEV_RES_VECTOR_CORE), 32u);
    ASSERT_EQ(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 8), ACL_SUCCESS);
    ASSERT_EQ(aclrtUseStreamResInCurrentThread(stream), ACL_SUCCESS);
    EXPECT_EQ(ThreadRes(ACL_RT_DEV_RES_VECTOR_CORE), 8u);
    EXPECT_EQ(ThreadRes(ACL_RT_DEV_RES_CUBE_CORE), 24u) << "the stream set vector cores only";
    ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(stream), ACL_SUCCESS);
    EXPECT_EQ(ThreadRes(ACL_RT_DEV_RES_VECTOR_CORE), 32u);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(DeviceQueries, StreamLimitsInUseStayWithTheThreadThatChoseThem) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, 3), ACL_SUCCESS);
    ASSERT_EQ(aclrtUseStreamResInCurrentThread(stream), ACL_SUCCESS);
    uint32_t other = 0;
    std::thread([&] {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        other = ThreadRes(ACL_RT_DEV_RES_CUBE_CORE);
    }).join();
    EXPECT_EQ(other, 24u);
    EXPECT_EQ(ThreadRes(ACL_RT_DEV_RES_CUBE_CORE), 3u);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(DeviceQueries, UsingAStreamWithoutLimitsIsInvalidParam) {
    EXPECT_EQ(aclrtUseStreamResInCurrentThread(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("call aclrtSetStreamResLimit on it first");
}

TEST_F(DeviceQueries, UnusingAStreamNotInUseIsInvalidParam) {
    ASSERT_EQ(aclrtSetStreamResLimit(nullptr, ACL_RT_DEV_RES_CUBE_CORE, 3), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnuseStreamResInCurrentThread(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not using the resource limits of stream");
}

TEST_F(DeviceQueriesOn950, StreamResourceLimitsAreNotSupportedOnThe950) {
    EXPECT_EQ(DeviceRes(0, ACL_RT_DEV_RES_CUBE_CORE), 36u) << "process level is";
    EXPECT_EQ(aclrtSetStreamResLimit(nullptr, ACL_RT_DEV_RES_CUBE_CORE, 3),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("stream resource limits are not available on Ascend950PR");
}

// ---- utilisation ----

TEST_F(DeviceQueries, UtilisationReportsMemoryAsUnmeasurable) {
    aclrtUtilizationInfo info{};
    info.cubeUtilization = info.vectorUtilization = info.aicpuUtilization = 1234;
    ASSERT_EQ(aclrtGetDeviceUtilizationRate(1, &info), ACL_SUCCESS);
    EXPECT_EQ(info.memoryUtilization, -1);
    for (int32_t rate : {info.cubeUtilization, info.vectorUtilization, info.aicpuUtilization}) {
        EXPECT_GE(rate, 0);
        EXPECT_LE(rate, 100);
    }
}

TEST_F(DeviceQueries, UtilisationExtensionMustBeNull) {
    aclrtUtilizationInfo info{};
    info.utilizationExtend = reinterpret_cast<aclrtUtilizationExtendInfo*>(&info);
    EXPECT_EQ(aclrtGetDeviceUtilizationRate(0, &info), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("utilizationExtend is reserved");
}

// ---- compute groups ----

TEST_F(DeviceQueries, ComputeGroupsAreNotSupportedOnAtlasA2) {
    EXPECT_EQ(aclrtCreateGroupInfo(), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("compute groups are not available on Ascend910B1");
    uint32_t count = 0;
    EXPECT_EQ(aclrtGetGroupCount(&count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(DeviceQueriesOn310P, OneGroupHoldsTheWholeDevice) {
    uint32_t count = 0;
    ASSERT_EQ(aclrtGetGroupCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 1u);
    aclrtGroupInfo* info = aclrtCreateGroupInfo();
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(aclrtGetAllGroupInfo(info), ACL_SUCCESS);
    auto attr = [&](aclrtGroupAttr which) {
        int32_t value = -1;
        size_t size = 0;
        EXPECT_EQ(aclrtGetGroupInfoDetail(info, 0, which, &value, sizeof value, &size),
                  ACL_SUCCESS);
        EXPECT_EQ(size, sizeof value);
        return value;
    };
    int64_t ai_cores = 0, vector_cores = 0;
    ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &ai_cores), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vector_cores), ACL_SUCCESS);
    EXPECT_EQ(attr(ACL_GROUP_GROUPID_INT), 0);
    EXPECT_EQ(attr(ACL_GROUP_AICORE_INT), ai_cores);
    EXPECT_EQ(attr(ACL_GROUP_AIV_INT), vector_cores);
    EXPECT_GE(attr(ACL_GROUP_SDMANUM_INT), 1);
    EXPECT_EQ(aclrtSetGroup(attr(ACL_GROUP_GROUPID_INT)), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyGroupInfo(info), ACL_SUCCESS);
}

TEST_F(DeviceQueriesOn310P, GroupDetailsNeedAFilledInfo) {
    aclrtGroupInfo* info = aclrtCreateGroupInfo();
    ASSERT_NE(info, nullptr);
    int32_t value = 0;
    size_t size = 0;
    EXPECT_EQ(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, sizeof value, &size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("fill it with aclrtGetAllGroupInfo first");
    EXPECT_EQ(aclrtDestroyGroupInfo(info), ACL_SUCCESS);
}

TEST_F(DeviceQueriesOn310P, GroupIndexBeyondTheGroupCountIsInvalidParam) {
    aclrtGroupInfo* info = aclrtCreateGroupInfo();
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(aclrtGetAllGroupInfo(info), ACL_SUCCESS);
    int32_t value = 0;
    size_t size = 0;
    EXPECT_EQ(aclrtGetGroupInfoDetail(info, 1, ACL_GROUP_AICORE_INT, &value, sizeof value, &size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("groupIndex 1 is outside [0, 1)");
    EXPECT_EQ(aclrtDestroyGroupInfo(info), ACL_SUCCESS);
}

TEST_F(DeviceQueriesOn310P, GroupDetailIntoTooSmallABufferIsInvalidParam) {
    aclrtGroupInfo* info = aclrtCreateGroupInfo();
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(aclrtGetAllGroupInfo(info), ACL_SUCCESS);
    int16_t small = 0;
    size_t size = 0;
    EXPECT_EQ(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &small, sizeof small, &size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("valueLen 2 is too small");
    EXPECT_EQ(aclrtDestroyGroupInfo(info), ACL_SUCCESS);
}

TEST_F(DeviceQueriesOn310P, AGroupOtherThanZeroIsInvalidParam) {
    EXPECT_EQ(aclrtSetGroup(1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("its one group has id 0");
}

TEST_F(DeviceQueriesOn310P, DestroyingAGroupInfoTwiceIsInvalidParam) {
    aclrtGroupInfo* info = aclrtCreateGroupInfo();
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(aclrtDestroyGroupInfo(info), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyGroupInfo(info), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("already destroyed");
}

// ---- architecture compatibility ----

TEST_F(DeviceQueries, SiblingsOfTheConfiguredChipAreCompatible) {
    EXPECT_EQ(Compatible("Ascend910B1"), 1);
    EXPECT_EQ(Compatible("Ascend910B4"), 1);
}

TEST_F(DeviceQueries, OtherFamiliesAreIncompatible) {
    EXPECT_EQ(Compatible("Ascend310P3"), 0);
    EXPECT_EQ(Compatible("Ascend950PR"), 0);
    EXPECT_EQ(Compatible("NotAChip"), 0);
}

TEST_F(DeviceQueries, EmptySocVersionIsInvalidParam) {
    int32_t compatible = -1;
    EXPECT_EQ(aclrtCheckArchCompatibility("", &compatible), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("socVersion is empty");
}

// ---- chip facilities ----

TEST_F(DeviceQueries, L2CacheFlushSucceedsOnTheCurrentDevice) {
    EXPECT_EQ(aclrtDeviceL2CacheFlush(nullptr), ACL_SUCCESS);
}

TEST(DeviceQueriesWithoutDevice, L2CacheFlushNeedsACurrentContext) {
    EXPECT_EQ(aclrtDeviceL2CacheFlush(nullptr), ACL_ERROR_RT_CONTEXT_NULL);
    aclGetRecentErrMsg();
}

TEST_F(DeviceQueries, HardwareSyncAddressIsStable) {
    void* first = nullptr;
    void* second = nullptr;
    ASSERT_EQ(aclrtGetHardwareSyncAddr(&first), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetHardwareSyncAddr(&second), ACL_SUCCESS);
    EXPECT_NE(first, nullptr);
    EXPECT_EQ(first, second);
}

TEST_F(DeviceQueriesOn950, HardwareSyncAddressIsNotSupportedOnThe950) {
    void* addr = nullptr;
    EXPECT_EQ(aclrtGetHardwareSyncAddr(&addr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("no Cube/Vector hardware synchronisation address");
}

TEST_F(DeviceQueries, BareTgidIsTheProcessId) {
    int32_t pid = -1;
    ASSERT_EQ(aclrtDeviceGetBareTgid(&pid), ACL_SUCCESS);
    EXPECT_EQ(pid, static_cast<int32_t>(getpid()));
}

TEST_F(DeviceQueries, EitherTaskSchedulerCanBeChosen) {
    EXPECT_EQ(aclrtSetTsDevice(ACL_TS_ID_AICORE), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("tsId 2 is not");
}
