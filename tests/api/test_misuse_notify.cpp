// Misuse table, notifies (aclrtCreateNotify ... aclrtNotifyBatchReset).
#include "misuse_table.h"

TEST(MisuseTable, Notifies) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtNotify destroyed = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&destroyed, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    aclrtNotify live = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&live, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyNotify(destroyed), ACL_SUCCESS);
    aclrtNotify out = nullptr;
    uint32_t id = 0;
    int not_a_stream = 0;
    aclrtNotify mixed[2] = {live, destroyed};

    const std::vector<MisuseRow> rows = {
        {"aclrtCreateNotify(NULL)", [&] { return aclrtCreateNotify(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateNotify(flag 4)", [&] { return aclrtCreateNotify(&out, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyNotify(NULL)", [&] { return aclrtDestroyNotify(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyNotify(destroyed)", [&] { return aclrtDestroyNotify(destroyed); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordNotify(destroyed)", [&] { return aclrtRecordNotify(destroyed, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordNotify(not a stream)", [&] { return aclrtRecordNotify(live, &not_a_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtWaitAndResetNotify(NULL)",
         [&] { return aclrtWaitAndResetNotify(nullptr, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtWaitAndResetNotify(not a stream)",
         [&] { return aclrtWaitAndResetNotify(live, &not_a_stream, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetNotifyId(NULL notifyId)", [&] { return aclrtGetNotifyId(live, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetNotifyId(destroyed)", [&] { return aclrtGetNotifyId(destroyed, &id); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyBatchReset(NULL)", [&] { return aclrtNotifyBatchReset(nullptr, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyBatchReset(num 0)", [&] { return aclrtNotifyBatchReset(mixed, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyBatchReset(a destroyed one)", [&] { return aclrtNotifyBatchReset(mixed, 2); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtDestroyNotify(live), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
