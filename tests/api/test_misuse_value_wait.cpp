// Misuse table, aclrtValueWrite / aclrtValueWait.
#include "misuse_table.h"

TEST(MisuseTable, ValueWriteAndWait) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int not_a_stream = 0;
    const std::vector<MisuseRow> rows = {
        {"aclrtValueWrite(NULL devAddr)", [&] { return aclrtValueWrite(nullptr, 1, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtValueWrite(flag 1)", [&] { return aclrtValueWrite(dev, 1, 1, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtValueWrite(not a stream)", [&] { return aclrtValueWrite(dev, 1, 0, &not_a_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtValueWait(flag 4)", [&] { return aclrtValueWait(dev, 1, 4, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtValueWait(unaligned)",
         [&] { return aclrtValueWait(static_cast<char*>(dev) + 1, 1, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}
