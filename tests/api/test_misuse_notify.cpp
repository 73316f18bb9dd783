// Misuse table, notifies (aclrtCreateNotify ... aclrtNotifyBatchReset).
#include "misuse_table.h"
#include "scoped_env.h"

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

// Counting notifies, on the chip that has them (the Ascend 950).
TEST(MisuseTable, CountingNotifies) {
    ScopedEnv soc("OPENACL_SOC_NAME", "Ascend950PR_9599");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtCntNotify live = nullptr, destroyed = nullptr, out = nullptr;
    ASSERT_EQ(aclrtCntNotifyCreate(&destroyed, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCntNotifyCreate(&live, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCntNotifyDestroy(destroyed), ACL_SUCCESS);
    aclrtCntNotifyRecordInfo bad_record{static_cast<aclrtCntNotifyRecordMode>(3), 1};
    aclrtCntNotifyWaitInfo bad_wait{};
    bad_wait.mode = static_cast<aclrtCntNotifyWaitMode>(9);
    uint32_t id = 0;

    const std::vector<MisuseRow> rows = {
        {"aclrtCntNotifyCreate(NULL)", [&] { return aclrtCntNotifyCreate(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyCreate(flag 1)", [&] { return aclrtCntNotifyCreate(&out, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyDestroy(destroyed)", [&] { return aclrtCntNotifyDestroy(destroyed); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyRecord(NULL info)",
         [&] { return aclrtCntNotifyRecord(live, nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyRecord(mode 3)",
         [&] { return aclrtCntNotifyRecord(live, nullptr, &bad_record); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyWaitWithTimeout(mode 9)",
         [&] { return aclrtCntNotifyWaitWithTimeout(live, nullptr, &bad_wait); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyReset(destroyed)", [&] { return aclrtCntNotifyReset(destroyed, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyGetId(NULL notifyId)", [&] { return aclrtCntNotifyGetId(live, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCntNotifyGetId(destroyed)", [&] { return aclrtCntNotifyGetId(destroyed, &id); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtCntNotifyDestroy(live), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
    aclFinalize();
}
