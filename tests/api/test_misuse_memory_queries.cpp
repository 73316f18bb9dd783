// Misuse table, memory queries (aclrtGetMemUsageInfo, aclrtCheckMemType, aclrtGetMemUceInfo,
// aclrtMemUceRepair).
#include "misuse_table.h"

TEST(MisuseTable, MemoryQueries) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtMemUsageInfo usage[2] = {};
    aclrtMemUceInfo uce[2] = {};
    size_t n = 0;
    uint32_t result = 0;
    int local = 0;
    void* addrs[1] = {&local};

    const std::vector<MisuseRow> rows = {
        {"aclrtGetMemUsageInfo(NULL memUsageInfo)",
         [&] { return aclrtGetMemUsageInfo(0, nullptr, 2, &n); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetMemUsageInfo(inputNum 0)", [&] { return aclrtGetMemUsageInfo(0, usage, 0, &n); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetMemUsageInfo(device 64)", [&] { return aclrtGetMemUsageInfo(64, usage, 2, &n); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtCheckMemType(NULL checkResult)",
         [&] { return aclrtCheckMemType(addrs, 1, ACL_RT_MEM_TYPE_DEV, nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCheckMemType(memType 0x1)",
         [&] { return aclrtCheckMemType(addrs, 1, 0x1, &result, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCheckMemType(reserve 1)",
         [&] { return aclrtCheckMemType(addrs, 1, ACL_RT_MEM_TYPE_DEV, &result, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetMemUceInfo(NULL retSize)", [&] { return aclrtGetMemUceInfo(0, uce, 2, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetMemUceInfo(device 64)", [&] { return aclrtGetMemUceInfo(64, uce, 2, &n); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtMemUceRepair(nothing reported)", [&] { return aclrtMemUceRepair(0, uce, 1); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtResetDeviceForce(0);
}
