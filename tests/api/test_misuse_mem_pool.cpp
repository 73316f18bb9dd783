// Misuse table, stream-ordered memory pools (acl_rt_memory_soma.h) and the platform query
// (acl_platform.h).
#include "acl/acl_platform.h"
#include "acl/acl_rt_memory_soma.h"
#include "misuse_table.h"

TEST(MisuseTable, MemPool) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtMemPoolProps props{};
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.maxSize = size_t{1} << 20;
    aclrtMemPoolProps host = props;
    host.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    aclrtMemPoolProps shared = props;
    shared.handleType = static_cast<aclrtMemHandleType>(1);
    aclrtMemPool pool = nullptr;
    ASSERT_EQ(aclrtMemPoolCreate(&pool, &props), ACL_SUCCESS);
    aclrtMemPool destroyed = nullptr;
    ASSERT_EQ(aclrtMemPoolCreate(&destroyed, &props), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemPoolDestroy(destroyed), ACL_SUCCESS);
    void* malloced = nullptr;
    ASSERT_EQ(aclrtMalloc(&malloced, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    void* p = nullptr;
    uint64_t value = 1;
    uint32_t two = 2;
    char text[64];

    const std::vector<MisuseRow> rows = {
        {"aclrtMemPoolCreate(NULL out)", [&] { return aclrtMemPoolCreate(nullptr, &props); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolCreate(NULL props)", [&] { return aclrtMemPoolCreate(&p, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolCreate(host location)", [&] { return aclrtMemPoolCreate(&p, &host); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolCreate(shareable handle type)",
         [&] { return aclrtMemPoolCreate(&p, &shared); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolDestroy(NULL)", [&] { return aclrtMemPoolDestroy(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolDestroy(destroyed)", [&] { return aclrtMemPoolDestroy(destroyed); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolSetAttr(NULL value)",
         [&] { return aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolSetAttr(switch 2)",
         [&] { return aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &two); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolSetAttr(read-only)",
         [&] { return aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &value); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolSetAttr(destroyed pool)",
         [&] {
             return aclrtMemPoolSetAttr(destroyed, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &value);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolGetAttr(NULL value)",
         [&] { return aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolGetAttr(unknown attr)",
         [&] { return aclrtMemPoolGetAttr(pool, static_cast<aclrtMemPoolAttr>(42), &value); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolMallocAsync(NULL out)",
         [&] { return aclrtMemPoolMallocAsync(nullptr, 64, pool, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolMallocAsync(size 0)",
         [&] { return aclrtMemPoolMallocAsync(&p, 0, pool, stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolMallocAsync(NULL pool)",
         [&] { return aclrtMemPoolMallocAsync(&p, 64, nullptr, stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolMallocAsync(beyond maxSize)",
         [&] { return aclrtMemPoolMallocAsync(&p, size_t{2} << 20, pool, stream); },
         ACL_ERROR_RT_MEMORY_ALLOCATION},
        {"aclrtMemPoolFreeAsync(NULL)", [&] { return aclrtMemPoolFreeAsync(nullptr, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolFreeAsync(aclrtMalloc memory)",
         [&] { return aclrtMemPoolFreeAsync(malloced, stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolFreeAsync(stack memory)",
         [&] { return aclrtMemPoolFreeAsync(&value, stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolTrimTo(NULL)", [&] { return aclrtMemPoolTrimTo(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemPoolTrimTo(destroyed)", [&] { return aclrtMemPoolTrimTo(destroyed, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclplatformGetDeviceInfo(NULL value)",
         [&] { return aclplatformGetDeviceInfo(ACL_PLATFORM_AICORE_CNT, nullptr, 64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclplatformGetDeviceInfo(maxLen 0)",
         [&] { return aclplatformGetDeviceInfo(ACL_PLATFORM_AICORE_CNT, text, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclplatformGetDeviceInfo(unknown info)",
         [&] { return aclplatformGetDeviceInfo(static_cast<aclplatformDevInfo>(77), text, 64); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(malloced), ACL_SUCCESS);
    aclrtDestroyStream(stream);
    aclrtResetDeviceForce(0);
}
