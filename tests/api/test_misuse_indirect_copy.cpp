// Misuse table, indirect copies and 32-bit fills (aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc,
// aclrtMemcpyAsyncWithDesc, aclrtMemcpyAsyncWithOffset, aclrtMemsetD32[Async]).
#include "misuse_table.h"

TEST(MisuseTable, IndirectCopiesAndD32Fills) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const auto inner = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    char host[64] = {};
    void* pointers[1] = {dev};
    int not_a_stream = 0;

    const std::vector<MisuseRow> rows = {
        {"aclrtGetMemcpyDescSize(NULL descSize)",
         [&] { return aclrtGetMemcpyDescSize(inner, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetMemcpyDesc(config not NULL)",
         [&] { return aclrtSetMemcpyDesc(dev, inner, dev, dev, 8, host); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetMemcpyDesc(host srcAddr)",
         [&] { return aclrtSetMemcpyDesc(dev, inner, host, dev, 8, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsyncWithDesc(kind HOST_TO_DEVICE)",
         [&] { return aclrtMemcpyAsyncWithDesc(dev, ACL_MEMCPY_HOST_TO_DEVICE, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsyncWithDesc(not a stream)",
         [&] { return aclrtMemcpyAsyncWithDesc(dev, inner, &not_a_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsyncWithOffset(count > destMax)",
         [&] {
             return aclrtMemcpyAsyncWithOffset(pointers, 8, 0, const_cast<const void**>(pointers),
                                               16, 0, inner, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsyncWithOffset(host base pointers)",
         [&] {
             void* on_host[1] = {dev};
             return aclrtMemcpyAsyncWithOffset(on_host, 8, 0, const_cast<const void**>(on_host), 8,
                                               0, inner, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemsetD32(NULL ptr)", [&] { return aclrtMemsetD32(nullptr, 16, 0, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemsetD32(N past memSize)", [&] { return aclrtMemsetD32(dev, 8, 0, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemsetD32Async(not a stream)",
         [&] { return aclrtMemsetD32Async(dev, 16, 0, 4, &not_a_stream); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}
