// Misuse table, cache maintenance (aclrtCmoAsync, aclrtCmoGetDescSize, aclrtCmoSetDesc,
// aclrtCmoAsyncWithDesc, aclrtCmoAsyncWithBarrier, aclrtCmoWaitBarrier).
#include "misuse_table.h"

TEST(MisuseTable, CacheOperations) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    char host[64] = {};
    int not_a_stream = 0;
    aclrtBarrierTaskInfo info{};
    const auto prefetch = ACL_RT_CMO_TYPE_PREFETCH;

    const std::vector<MisuseRow> rows = {
        {"aclrtCmoAsync(NULL src)", [&] { return aclrtCmoAsync(nullptr, 64, prefetch, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoAsync(size 0)", [&] { return aclrtCmoAsync(dev, 0, prefetch, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoAsync(host memory)", [&] { return aclrtCmoAsync(host, 64, prefetch, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoAsync(type 9)",
         [&] { return aclrtCmoAsync(dev, 64, static_cast<aclrtCmoType>(9), nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoAsync(not a stream)",
         [&] { return aclrtCmoAsync(dev, 64, prefetch, &not_a_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoGetDescSize(NULL)", [&] { return aclrtCmoGetDescSize(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoSetDesc(host descriptor)", [&] { return aclrtCmoSetDesc(host, dev, 64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoAsyncWithDesc(reserve not NULL)",
         [&] { return aclrtCmoAsyncWithDesc(dev, prefetch, nullptr, host); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCmoAsyncWithBarrier(any)",
         [&] { return aclrtCmoAsyncWithBarrier(dev, 64, ACL_RT_CMO_TYPE_INVALID, 1, nullptr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtCmoWaitBarrier(any)", [&] { return aclrtCmoWaitBarrier(&info, nullptr, 0); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}
