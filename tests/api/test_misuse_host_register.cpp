// Misuse table, host memory registration and the configured allocations
// (aclrtHostRegister[V2], aclrtHostGetDevicePointer, aclrtHostUnregister,
// aclrtHostMemMapCapabilities, aclrtMallocHostWithCfg, aclrtMallocForTaskScheduler).
#include <cstdlib>

#include "misuse_table.h"

TEST(MisuseTable, HostRegistration) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* page = std::aligned_alloc(4096, 4096);
    ASSERT_NE(page, nullptr);
    void* out = nullptr;
    aclrtHostMemMapCapability capability{};
    aclrtMallocAttribute bad_attr{};
    bad_attr.attr = static_cast<aclrtMallocAttrType>(99);
    aclrtMallocConfig bad_cfg{&bad_attr, 1};
    aclrtMallocConfig null_attrs{nullptr, 2};

    const std::vector<MisuseRow> rows = {
        {"aclrtHostRegister(NULL ptr)",
         [&] { return aclrtHostRegister(nullptr, 4096, ACL_HOST_REGISTER_MAPPED, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostRegister(NULL devPtr)",
         [&] { return aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_MAPPED, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostRegister(size 0)",
         [&] { return aclrtHostRegister(page, 0, ACL_HOST_REGISTER_MAPPED, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostRegister(type 99)",
         [&] {
             return aclrtHostRegister(page, 4096, static_cast<aclrtHostRegisterType>(99), &out);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostRegisterV2(flag 0)", [&] { return aclrtHostRegisterV2(page, 4096, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostRegisterV2(unknown flag bit)",
         [&] { return aclrtHostRegisterV2(page, 4096, ACL_HOST_REG_PINNED | 0x100); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostRegisterV2(unaligned ptr)",
         [&] { return aclrtHostRegisterV2(static_cast<char*>(page) + 1, 64, ACL_HOST_REG_PINNED); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostGetDevicePointer(NULL pDevice)",
         [&] { return aclrtHostGetDevicePointer(page, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtHostGetDevicePointer(flag 1)",
         [&] { return aclrtHostGetDevicePointer(page, &out, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtHostGetDevicePointer(not registered)",
         [&] { return aclrtHostGetDevicePointer(page, &out, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtHostUnregister(NULL)", [&] { return aclrtHostUnregister(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostUnregister(not registered)", [&] { return aclrtHostUnregister(page); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostMemMapCapabilities(NULL capabilities)",
         [&] { return aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtHostMemMapCapabilities(device 64)",
         [&] { return aclrtHostMemMapCapabilities(64, ACL_RT_HAC_TYPE_AIC, &capability); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtHostMemMapCapabilities(hacType 99)",
         [&] { return aclrtHostMemMapCapabilities(0, static_cast<aclrtHacType>(99), &capability); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocHostWithCfg(NULL ptr)",
         [&] { return aclrtMallocHostWithCfg(nullptr, 64, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocHostWithCfg(size 0)", [&] { return aclrtMallocHostWithCfg(&out, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocHostWithCfg(unknown attribute)",
         [&] { return aclrtMallocHostWithCfg(&out, 64, &bad_cfg); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocForTaskScheduler(NULL attrs, numAttrs 2)",
         [&] {
             return aclrtMallocForTaskScheduler(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST, &null_attrs);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocForTaskScheduler(size 0)",
         [&] { return aclrtMallocForTaskScheduler(&out, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    std::free(page);
    aclrtResetDeviceForce(0);
}
