// Misuse table, virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical,
// aclrtMapMem and the rest of the family).
#include "misuse_table.h"

TEST(MisuseTable, VirtualMemory) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    constexpr size_t kTwoMiB = size_t{2} << 20;
    aclrtPhysicalMemProp prop{};
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    aclrtPhysicalMemProp bad_attr = prop;
    bad_attr.memAttr = ACL_DDR_MEM_NORMAL;  // host memory only
    aclrtPhysicalMemProp bad_device = prop;
    bad_device.location.id = 64;
    aclrtPhysicalMemProp host_1g = prop;
    host_1g.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    host_1g.memAttr = ACL_MEM_HUGE1G;
    void* reserved = nullptr;
    ASSERT_EQ(aclrtReserveMemAddress(&reserved, 2 * kTwoMiB, 0, nullptr, 0), ACL_SUCCESS);
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0), ACL_SUCCESS);
    aclrtDrvMemHandle freed = nullptr;
    ASSERT_EQ(aclrtMallocPhysical(&freed, kTwoMiB, &prop, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreePhysical(freed), ACL_SUCCESS);
    void* p = nullptr;
    void* base = nullptr;
    size_t size = 0, granularity = 0;
    uint64_t flags = 0;
    aclrtDrvMemHandle out = nullptr;
    aclrtMemAccessDesc desc{};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    aclrtMemAccessDesc bad_flags = desc;
    bad_flags.flags = static_cast<aclrtMemAccessFlags>(2);
    aclrtMemLocation where{};
    where.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    aclrtMemLocation managed = where;
    managed.type = ACL_MEM_LOCATION_TYPE_MANAGED;
    int local = 0;

    const std::vector<MisuseRow> rows = {
        {"aclrtReserveMemAddress(NULL out)",
         [&] { return aclrtReserveMemAddress(nullptr, kTwoMiB, 0, nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReserveMemAddress(size 0)",
         [&] { return aclrtReserveMemAddress(&p, 0, 0, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtReserveMemAddress(alignment 4096)",
         [&] { return aclrtReserveMemAddress(&p, kTwoMiB, 4096, nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReserveMemAddress(expectPtr unaligned)",
         [&] {
             return aclrtReserveMemAddress(
                 &p, kTwoMiB, 0, reinterpret_cast<void*>((uintptr_t{17} << 40) + 4096), 0);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReserveMemAddressNoUCMemory(on Atlas A2)",
         [&] { return aclrtReserveMemAddressNoUCMemory(&p, size_t{1} << 30, 0, nullptr, 0); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtReleaseMemAddress(NULL)", [&] { return aclrtReleaseMemAddress(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReleaseMemAddress(inside a reservation)",
         [&] { return aclrtReleaseMemAddress(static_cast<char*>(reserved) + kTwoMiB); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReleaseMemAddress(not reserved)", [&] { return aclrtReleaseMemAddress(&local); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocPhysical(NULL handle)",
         [&] { return aclrtMallocPhysical(nullptr, kTwoMiB, &prop, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocPhysical(NULL prop)",
         [&] { return aclrtMallocPhysical(&out, kTwoMiB, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocPhysical(size 0)", [&] { return aclrtMallocPhysical(&out, 0, &prop, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocPhysical(flags 1)",
         [&] { return aclrtMallocPhysical(&out, kTwoMiB, &prop, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocPhysical(host-only memAttr on a device)",
         [&] { return aclrtMallocPhysical(&out, kTwoMiB, &bad_attr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocPhysical(device 64)",
         [&] { return aclrtMallocPhysical(&out, kTwoMiB, &bad_device, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocPhysical(1 GiB pages on the host)",
         [&] { return aclrtMallocPhysical(&out, kTwoMiB, &host_1g, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFreePhysical(NULL)", [&] { return aclrtFreePhysical(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFreePhysical(freed)", [&] { return aclrtFreePhysical(freed); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMapMem(NULL virPtr)", [&] { return aclrtMapMem(nullptr, kTwoMiB, 0, handle, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMapMem(freed handle)", [&] { return aclrtMapMem(reserved, kTwoMiB, 0, freed, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMapMem(offset 4096)",
         [&] { return aclrtMapMem(reserved, kTwoMiB, 4096, handle, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMapMem(flags 1)", [&] { return aclrtMapMem(reserved, kTwoMiB, 0, handle, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMapMem(host memory)", [&] { return aclrtMapMem(&local, kTwoMiB, 0, handle, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemMapNoAccess(size of another allocation)",
         [&] { return aclrtMemMapNoAccess(reserved, 2 * kTwoMiB, 0, handle, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtUnmapMem(NULL)", [&] { return aclrtUnmapMem(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtUnmapMem(not mapped)", [&] { return aclrtUnmapMem(reserved); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetAccess(NULL desc)",
         [&] { return aclrtMemSetAccess(reserved, kTwoMiB, nullptr, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetAccess(count 0)",
         [&] { return aclrtMemSetAccess(reserved, kTwoMiB, &desc, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetAccess(flags 2)",
         [&] { return aclrtMemSetAccess(reserved, kTwoMiB, &bad_flags, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetAccess(not mapped)",
         [&] { return aclrtMemSetAccess(reserved, kTwoMiB, &desc, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAccess(NULL flag)",
         [&] { return aclrtMemGetAccess(reserved, &where, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAccess(managed location)",
         [&] { return aclrtMemGetAccess(reserved, &managed, &flags); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAccess(not mapped)",
         [&] { return aclrtMemGetAccess(reserved, &where, &flags); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAllocationGranularity(NULL prop)",
         [&] {
             return aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
                                                     &granularity);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAllocationGranularity(option UNDEF)",
         [&] {
             return aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF,
                                                     &granularity);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemRetainAllocationHandle(not mapped)",
         [&] { return aclrtMemRetainAllocationHandle(reserved, &out); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemRetainAllocationHandle(NULL handle)",
         [&] { return aclrtMemRetainAllocationHandle(reserved, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAllocationPropertiesFromHandle(freed)",
         [&] {
             aclrtPhysicalMemProp read{};
             return aclrtMemGetAllocationPropertiesFromHandle(freed, &read);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAllocationPropertiesFromHandle(NULL prop)",
         [&] { return aclrtMemGetAllocationPropertiesFromHandle(handle, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAddressRange(NULL)",
         [&] { return aclrtMemGetAddressRange(nullptr, &base, &size); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAddressRange(unmapped reservation)",
         [&] { return aclrtMemGetAddressRange(reserved, &base, &size); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemGetAddressRange(stack memory)",
         [&] { return aclrtMemGetAddressRange(&local, &base, &size); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
    EXPECT_EQ(aclrtReleaseMemAddress(reserved), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
