// Misuse table, managed memory (aclrtMemAllocManaged, aclrtMemManaged*).
#include "misuse_table.h"

TEST(MisuseTable, ManagedMemory) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    constexpr uint64_t kTwoMiB = uint64_t{2} << 20;
    void* p = nullptr;
    ASSERT_EQ(aclrtMemAllocManaged(&p, kTwoMiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
    void* out = nullptr;
    int32_t value = 0;
    int local = 0;
    aclrtMemManagedLocation device{ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    aclrtMemManagedLocation device64{ACL_MEM_LOCATIONTYPE_DEVICE, 64};
    aclrtMemManagedLocation invalid{ACL_MEM_LOCATIONTYPE_INVALID, 0};
    aclrtMemManagedRangeAttribute attribute = ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY;
    void* data[1] = {&value};
    size_t data_sizes[1] = {sizeof value};
    const void* ptrs[1] = {p};
    size_t sizes[1] = {kTwoMiB}, indexes[1] = {0}, bad_indexes[1] = {1};
    int not_a_stream = 0;

    const std::vector<MisuseRow> rows = {
        {"aclrtMemAllocManaged(NULL ptr)",
         [&] { return aclrtMemAllocManaged(nullptr, kTwoMiB, ACL_RT_MEM_ATTACH_GLOBAL); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemAllocManaged(size 0)",
         [&] { return aclrtMemAllocManaged(&out, 0, ACL_RT_MEM_ATTACH_GLOBAL); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemAllocManaged(flag 0)", [&] { return aclrtMemAllocManaged(&out, kTwoMiB, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedAdvise(unaligned size)",
         [&] { return aclrtMemManagedAdvise(p, 100, ACL_MEM_ADVISE_SET_READ_MOSTLY, device); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedAdvise(advise 99)",
         [&] {
             return aclrtMemManagedAdvise(p, kTwoMiB, static_cast<aclrtMemManagedAdviseType>(99),
                                          device);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedAdvise(preferred location device 64)",
         [&] {
             return aclrtMemManagedAdvise(p, kTwoMiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                          device64);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedAdvise(stack memory)",
         [&] {
             return aclrtMemManagedAdvise(&local, kTwoMiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, device);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedGetAttr(NULL data)",
         [&] { return aclrtMemManagedGetAttr(attribute, p, kTwoMiB, nullptr, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedGetAttr(dataSize 1)",
         [&] { return aclrtMemManagedGetAttr(attribute, p, kTwoMiB, &value, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedGetAttr(attribute 99)",
         [&] {
             return aclrtMemManagedGetAttr(static_cast<aclrtMemManagedRangeAttribute>(99), p,
                                           kTwoMiB, &value, sizeof value);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedGetAttrs(numAttributes 0)",
         [&] { return aclrtMemManagedGetAttrs(&attribute, 0, p, kTwoMiB, data, data_sizes); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedGetAttrs(NULL data)",
         [&] { return aclrtMemManagedGetAttrs(&attribute, 1, p, kTwoMiB, nullptr, data_sizes); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedPrefetchAsync(flags 1)",
         [&] { return aclrtMemManagedPrefetchAsync(p, kTwoMiB, device, 1, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedPrefetchAsync(invalid location)",
         [&] { return aclrtMemManagedPrefetchAsync(p, kTwoMiB, invalid, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedPrefetchAsync(not a stream)",
         [&] { return aclrtMemManagedPrefetchAsync(p, kTwoMiB, device, 0, &not_a_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedPrefetchBatchAsync(count 0)",
         [&] {
             return aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 0, &device, indexes, 1, 0,
                                                      nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemManagedPrefetchBatchAsync(prefetchLocIdxs[0] 1)",
         [&] {
             return aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, &device, bad_indexes, 1, 0,
                                                      nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
