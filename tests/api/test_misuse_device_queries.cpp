// Misuse table, device queries and limits (topology, PCI bus ids, id mappings, atomic
// capabilities, limits, resource limits, utilisation, groups and chip facilities).
#include "misuse_table.h"
#include "scoped_env.h"

namespace {

const aclrtDevResLimitType kBadResType = static_cast<aclrtDevResLimitType>(2);
const aclrtDeviceLimit kBadLimit = static_cast<aclrtDeviceLimit>(5);

}  // namespace

TEST(MisuseTable, DeviceQueries) {
    ScopedEnv count("OPENACL_DEVICE_COUNT", "2");
    ScopedEnv soc("OPENACL_SOC_NAME", "Ascend910B1");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    uint64_t topology = 0;
    char pci[32] = {};
    int32_t id = 0;
    int32_t status = 0;
    uint32_t bits[2] = {};
    const aclrtAtomicOperation ops[] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD,
                                        static_cast<aclrtAtomicOperation>(99)};
    size_t limit = 0;
    uint32_t value = 0;
    aclrtUtilizationInfo utilization{};
    aclrtUtilizationInfo extended{};
    extended.utilizationExtend = reinterpret_cast<aclrtUtilizationExtendInfo*>(&extended);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int64_t not_a_stream = 0;
    int32_t compatible = 0;
    int local = 0;

    const std::vector<MisuseRow> rows = {
        {"aclrtGetDevicesTopo(NULL value)", [&] { return aclrtGetDevicesTopo(0, 1, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDevicesTopo(device 2)", [&] { return aclrtGetDevicesTopo(0, 2, &topology); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetDevicesTopo(same device)", [&] { return aclrtGetDevicesTopo(1, 1, &topology); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetPCIBusId(NULL)", [&] { return aclrtDeviceGetPCIBusId(0, nullptr, 32); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetPCIBusId(device -1)", [&] { return aclrtDeviceGetPCIBusId(-1, pci, 32); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDeviceGetPCIBusId(len 8)", [&] { return aclrtDeviceGetPCIBusId(0, pci, 8); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetByPCIBusId(NULL id)",
         [&] { return aclrtDeviceGetByPCIBusId(nullptr, &id); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetByPCIBusId(NULL deviceId)",
         [&] { return aclrtDeviceGetByPCIBusId("0000:01:00.0", nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetByPCIBusId(garbage)",
         [&] { return aclrtDeviceGetByPCIBusId("device zero", &id); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetByPCIBusId(trailing text)",
         [&] { return aclrtDeviceGetByPCIBusId("0000:01:00.0x", &id); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetByPCIBusId(no such device)",
         [&] { return aclrtDeviceGetByPCIBusId("0000:7f:00.0", &id); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetLogicDevIdByUserDevId(NULL)",
         [&] { return aclrtGetLogicDevIdByUserDevId(0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetLogicDevIdByUserDevId(user 2)",
         [&] { return aclrtGetLogicDevIdByUserDevId(2, &id); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetUserDevIdByLogicDevId(NULL)",
         [&] { return aclrtGetUserDevIdByLogicDevId(0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetUserDevIdByLogicDevId(logical 5)",
         [&] { return aclrtGetUserDevIdByLogicDevId(5, &id); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetLogicDevIdByPhyDevId(NULL)",
         [&] { return aclrtGetLogicDevIdByPhyDevId(0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetLogicDevIdByPhyDevId(physical -1)",
         [&] { return aclrtGetLogicDevIdByPhyDevId(-1, &id); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetPhyDevIdByLogicDevId(NULL)",
         [&] { return aclrtGetPhyDevIdByLogicDevId(0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetPhyDevIdByLogicDevId(logical 2)",
         [&] { return aclrtGetPhyDevIdByLogicDevId(2, &id); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDevicePeerAccessStatus(NULL)",
         [&] { return aclrtDevicePeerAccessStatus(0, 1, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDevicePeerAccessStatus(peer 2)",
         [&] { return aclrtDevicePeerAccessStatus(0, 2, &status); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDevicePeerAccessStatus(itself)",
         [&] { return aclrtDevicePeerAccessStatus(1, 1, &status); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetHostAtomicCapabilities(NULL capabilities)",
         [&] { return aclrtDeviceGetHostAtomicCapabilities(nullptr, ops, 1, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetHostAtomicCapabilities(NULL operations)",
         [&] { return aclrtDeviceGetHostAtomicCapabilities(bits, nullptr, 1, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetHostAtomicCapabilities(operation 99)",
         [&] { return aclrtDeviceGetHostAtomicCapabilities(bits, ops, 2, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetHostAtomicCapabilities(device 2)",
         [&] { return aclrtDeviceGetHostAtomicCapabilities(bits, ops, 1, 2); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDeviceGetP2PAtomicCapabilities(NULL capabilities)",
         [&] { return aclrtDeviceGetP2PAtomicCapabilities(nullptr, ops, 1, 0, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetP2PAtomicCapabilities(operation 99)",
         [&] { return aclrtDeviceGetP2PAtomicCapabilities(bits, ops, 2, 0, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetP2PAtomicCapabilities(dst device 2)",
         [&] { return aclrtDeviceGetP2PAtomicCapabilities(bits, ops, 1, 0, 2); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDeviceSetLimit(limit 5)", [&] { return aclrtDeviceSetLimit(kBadLimit, 4096); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceSetLimit(SIMT on Atlas A2)",
         [&] { return aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 1024); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtDeviceSetLimit(SIMD stack 256 KB)",
         [&] { return aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 256 * 1024); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtDeviceSetLimit(printf FIFO 512 B)",
         [&] { return aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 512); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtDeviceGetLimit(NULL)",
         [&] { return aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetLimit(limit 5)", [&] { return aclrtDeviceGetLimit(kBadLimit, &limit); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetLimit(SIMT on Atlas A2)",
         [&] { return aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, &limit); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtGetDeviceResLimit(NULL)",
         [&] { return aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceResLimit(device 2)",
         [&] { return aclrtGetDeviceResLimit(2, ACL_RT_DEV_RES_CUBE_CORE, &value); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetDeviceResLimit(type 2)",
         [&] { return aclrtGetDeviceResLimit(0, kBadResType, &value); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetDeviceResLimit(device 2)",
         [&] { return aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_CUBE_CORE, 1); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtSetDeviceResLimit(type 2)",
         [&] { return aclrtSetDeviceResLimit(0, kBadResType, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetDeviceResLimit(0 cores)",
         [&] { return aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtSetDeviceResLimit(25 cube cores)",
         [&] { return aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtResetDeviceResLimit(device -1)", [&] { return aclrtResetDeviceResLimit(-1); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetStreamResLimit(NULL value)",
         [&] { return aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamResLimit(not a stream)",
         [&] { return aclrtGetStreamResLimit(&not_a_stream, ACL_RT_DEV_RES_CUBE_CORE, &value); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamResLimit(type 2)",
         [&] { return aclrtGetStreamResLimit(stream, kBadResType, &value); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamResLimit(type 2)",
         [&] { return aclrtSetStreamResLimit(stream, kBadResType, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamResLimit(49 vector cores)",
         [&] { return aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 49); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtSetStreamResLimit(not a stream)",
         [&] { return aclrtSetStreamResLimit(&not_a_stream, ACL_RT_DEV_RES_CUBE_CORE, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtResetStreamResLimit(not a stream)",
         [&] { return aclrtResetStreamResLimit(&not_a_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtUseStreamResInCurrentThread(no limits set)",
         [&] { return aclrtUseStreamResInCurrentThread(stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtUseStreamResInCurrentThread(not a stream)",
         [&] { return aclrtUseStreamResInCurrentThread(&not_a_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtUnuseStreamResInCurrentThread(not in use)",
         [&] { return aclrtUnuseStreamResInCurrentThread(stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetResInCurrentThread(NULL)",
         [&] { return aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetResInCurrentThread(type 2)",
         [&] { return aclrtGetResInCurrentThread(kBadResType, &value); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceUtilizationRate(NULL)",
         [&] { return aclrtGetDeviceUtilizationRate(0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceUtilizationRate(extension set)",
         [&] { return aclrtGetDeviceUtilizationRate(0, &extended); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceUtilizationRate(device 2)",
         [&] { return aclrtGetDeviceUtilizationRate(2, &utilization); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetGroupCount(on Atlas A2)", [&] { return aclrtGetGroupCount(&value); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtCreateGroupInfo(on Atlas A2)",
         [&] {
             return aclrtCreateGroupInfo() == nullptr ? ACL_ERROR_RT_FEATURE_NOT_SUPPORT
                                                      : ACL_SUCCESS;
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtDestroyGroupInfo(on Atlas A2)", [&] { return aclrtDestroyGroupInfo(nullptr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtGetAllGroupInfo(on Atlas A2)", [&] { return aclrtGetAllGroupInfo(nullptr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtGetGroupInfoDetail(on Atlas A2)",
         [&] {
             return aclrtGetGroupInfoDetail(nullptr, 0, ACL_GROUP_AICORE_INT, nullptr, 0, nullptr);
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtSetGroup(on Atlas A2)", [&] { return aclrtSetGroup(0); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtCheckArchCompatibility(NULL soc)",
         [&] { return aclrtCheckArchCompatibility(nullptr, &compatible); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCheckArchCompatibility(NULL out)",
         [&] { return aclrtCheckArchCompatibility("Ascend910B1", nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCheckArchCompatibility(empty soc)",
         [&] { return aclrtCheckArchCompatibility("", &compatible); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceL2CacheFlush(rsv set)", [&] { return aclrtDeviceL2CacheFlush(&local); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetHardwareSyncAddr(NULL)", [&] { return aclrtGetHardwareSyncAddr(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetBareTgid(NULL)", [&] { return aclrtDeviceGetBareTgid(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetTsDevice(ACL_TS_ID_RESERVED)",
         [&] { return aclrtSetTsDevice(ACL_TS_ID_RESERVED); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetTsDevice(-1)", [&] { return aclrtSetTsDevice(static_cast<aclrtTsId>(-1)); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(MisuseTable, DeviceQueriesWithoutADevice) {
    uint32_t value = 0;
    const std::vector<MisuseRow> rows = {
        {"aclrtDeviceL2CacheFlush(no context)", [&] { return aclrtDeviceL2CacheFlush(nullptr); },
         ACL_ERROR_RT_CONTEXT_NULL},
        {"aclrtGetResInCurrentThread(no context)",
         [&] { return aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &value); },
         ACL_ERROR_RT_CONTEXT_NULL},
    };
    ExpectEveryRowFails(rows);
}

TEST(MisuseTable, DeviceQueriesOn950) {
    ScopedEnv soc("OPENACL_SOC_NAME", "Ascend950PR");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    uint32_t value = 0;
    size_t limit = 0;
    void* addr = nullptr;
    const std::vector<MisuseRow> rows = {
        {"aclrtDeviceSetLimit(SIMD stack 160 KB)",
         [&] { return aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 160 * 1024); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtDeviceSetLimit(SIMT printf FIFO 1 KB)",
         [&] { return aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 1024); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtDeviceGetLimit(limit 5)",
         [&] { return aclrtDeviceGetLimit(static_cast<aclrtDeviceLimit>(5), &limit); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamResLimit(on the 950)",
         [&] { return aclrtGetStreamResLimit(nullptr, ACL_RT_DEV_RES_CUBE_CORE, &value); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtSetStreamResLimit(on the 950)",
         [&] { return aclrtSetStreamResLimit(nullptr, ACL_RT_DEV_RES_CUBE_CORE, 1); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtResetStreamResLimit(on the 950)", [&] { return aclrtResetStreamResLimit(nullptr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtUseStreamResInCurrentThread(on the 950)",
         [&] { return aclrtUseStreamResInCurrentThread(nullptr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtUnuseStreamResInCurrentThread(on the 950)",
         [&] { return aclrtUnuseStreamResInCurrentThread(nullptr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtGetResInCurrentThread(on the 950)",
         [&] { return aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &value); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtGetHardwareSyncAddr(on the 950)", [&] { return aclrtGetHardwareSyncAddr(&addr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(MisuseTable, DeviceQueriesOn310P) {
    ScopedEnv soc("OPENACL_SOC_NAME", "Ascend310P3");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtGroupInfo* info = aclrtCreateGroupInfo();
    ASSERT_NE(info, nullptr);
    aclrtGroupInfo* unfilled = aclrtCreateGroupInfo();
    ASSERT_NE(unfilled, nullptr);
    ASSERT_EQ(aclrtGetAllGroupInfo(info), ACL_SUCCESS);
    int64_t foreign[8] = {};
    auto* not_info = reinterpret_cast<aclrtGroupInfo*>(foreign);
    int32_t value = 0;
    size_t size = 0;
    uint32_t res = 0;
    size_t limit = 0;
    const std::vector<MisuseRow> rows = {
        {"aclrtGetGroupCount(NULL)", [&] { return aclrtGetGroupCount(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyGroupInfo(NULL)", [&] { return aclrtDestroyGroupInfo(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyGroupInfo(not made by aclrtCreateGroupInfo)",
         [&] { return aclrtDestroyGroupInfo(not_info); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetAllGroupInfo(NULL)", [&] { return aclrtGetAllGroupInfo(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetAllGroupInfo(not made by aclrtCreateGroupInfo)",
         [&] { return aclrtGetAllGroupInfo(not_info); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetGroupInfoDetail(NULL info)",
         [&] {
             return aclrtGetGroupInfoDetail(nullptr, 0, ACL_GROUP_AICORE_INT, &value, 4, &size);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetGroupInfoDetail(NULL value)",
         [&] { return aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, nullptr, 4, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetGroupInfoDetail(index -1)",
         [&] { return aclrtGetGroupInfoDetail(info, -1, ACL_GROUP_AICORE_INT, &value, 4, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetGroupInfoDetail(attr 6)",
         [&] {
             return aclrtGetGroupInfoDetail(info, 0, static_cast<aclrtGroupAttr>(6), &value, 4,
                                            &size);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetGroupInfoDetail(valueLen 1)",
         [&] { return aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, 1, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetGroupInfoDetail(not filled)",
         [&] {
             return aclrtGetGroupInfoDetail(unfilled, 0, ACL_GROUP_AICORE_INT, &value, 4, &size);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetGroup(group 3)", [&] { return aclrtSetGroup(3); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceResLimit(on the 310P)",
         [&] { return aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &res); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtSetDeviceResLimit(on the 310P)",
         [&] { return aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtResetDeviceResLimit(on the 310P)", [&] { return aclrtResetDeviceResLimit(0); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtDeviceSetLimit(on the 310P)",
         [&] { return aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 65536); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtDeviceGetLimit(on the 310P)",
         [&] { return aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &limit); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtDestroyGroupInfo(unfilled), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyGroupInfo(info), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}
