// Memory queries: aclrtGetMemUsageInfo (device memory per way of allocating it, now and at
// peak), aclrtCheckMemType, and the uncorrectable-error pair (none ever occur on the CPU).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#define ENABLE_DVPP_INTERFACE
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "test_support.h"

namespace {
class MemoryQueries : public DeviceTest {};
}  // namespace

TEST_F(MemoryQueries, UsageInfoListsEachWayOfAllocatingLargestFirstWithItsPeak) {
    void *a = nullptr, *b = nullptr, *d = nullptr;
    ASSERT_EQ(aclrtMalloc(&a, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&b, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(acldvppMalloc(&d, 4096), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(b), ACL_SUCCESS);
    aclrtMemUsageInfo info[8] = {};
    size_t n = 0;
    ASSERT_EQ(aclrtGetMemUsageInfo(0, info, 8, &n), ACL_SUCCESS);
    ASSERT_GE(n, 2u);
    EXPECT_STREQ(info[0].name, "aclrtMalloc");
    EXPECT_GE(info[0].curMemSize, uint64_t{1} << 20);
    EXPECT_GE(info[0].memPeakSize, uint64_t{2} << 20) << "both were held at once";
    EXPECT_STREQ(info[1].name, "acldvppMalloc");
    size_t one = 0;
    ASSERT_EQ(aclrtGetMemUsageInfo(0, info, 1, &one), ACL_SUCCESS);
    EXPECT_EQ(one, 1u) << "no more than inputNum";
    aclrtFree(a);
    acldvppFree(d);
}

TEST_F(MemoryQueries, CheckMemTypeTellsDeviceDvppAndReservedMemoryApart) {
    void *dev = nullptr, *dvpp = nullptr, *reserved = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(acldvppMalloc(&dvpp, 64), ACL_SUCCESS);
    ASSERT_EQ(aclrtReserveMemAddress(&reserved, 2 << 20, 0, nullptr, 0), ACL_SUCCESS);
    uint32_t result = 9;
    void* devs[1] = {dev};
    ASSERT_EQ(aclrtCheckMemType(devs, 1, ACL_RT_MEM_TYPE_DEV, &result, 0), ACL_SUCCESS);
    EXPECT_EQ(result, 1u);
    void* mixed[2] = {dev, dvpp};
    ASSERT_EQ(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV, &result, 0), ACL_SUCCESS);
    EXPECT_EQ(result, 0u) << "DVPP memory is not of type DEV";
    ASSERT_EQ(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, &result, 0),
              ACL_SUCCESS);
    EXPECT_EQ(result, 1u);
    void* rsvd[1] = {reserved};
    ASSERT_EQ(aclrtCheckMemType(rsvd, 1, ACL_RT_MEM_TYPE_RSVD, &result, 0), ACL_SUCCESS);
    EXPECT_EQ(result, 1u);
    int local = 0;
    void* host[1] = {&local};
    ASSERT_EQ(aclrtCheckMemType(host, 1, ACL_RT_MEM_TYPE_DEV, &result, 0), ACL_SUCCESS);
    EXPECT_EQ(result, 0u) << "host memory is none of them";
    aclrtFree(dev);
    acldvppFree(dvpp);
    aclrtReleaseMemAddress(reserved);
}

TEST_F(MemoryQueries, NoUncorrectableErrorsAreReportedAndSoNoneRepaired) {
    aclrtMemUceInfo info[4] = {};
    size_t n = 99;
    ASSERT_EQ(aclrtGetMemUceInfo(0, info, 4, &n), ACL_SUCCESS);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(aclrtMemUceRepair(0, info, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("reported no uncorrectable memory errors");
}
