// Misuse table, operator timeouts (aclrtSetOpWaitTimeout, aclrtSetOpExecuteTimeOut*,
// aclrtGetOpTimeOutInterval, aclrtGetOpExecuteTimeout) and the overflow status calls.
#include "misuse_table.h"
#include "scoped_env.h"

TEST(MisuseTable, OpTimeoutsWithoutAContext) {
    const std::vector<MisuseRow> rows = {
        {"aclrtSetOpExecuteTimeOut(no current context)", [] { return aclrtSetOpExecuteTimeOut(1); },
         ACL_ERROR_RT_CONTEXT_NULL},
        {"aclrtSetOpWaitTimeout(on the 310P)",
         [] {
             ScopedEnv soc("OPENACL_SOC_NAME", "Ascend310P3");
             if (aclInit(nullptr) != ACL_SUCCESS) return ACL_ERROR_INTERNAL_ERROR;
             const aclError rc = aclrtSetOpWaitTimeout(1);
             aclFinalize();
             return rc;
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
    };
    ExpectEveryRowFails(rows);
}

TEST(MisuseTable, OpTimeoutsAndOverflowStatus) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int not_a_stream = 0;
    unsigned char host[64] = {};
    const std::vector<MisuseRow> rows = {
        {"aclrtSetOpExecuteTimeOutWithMs(any chip)",
         [] { return aclrtSetOpExecuteTimeOutWithMs(100); }, ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtSetOpExecuteTimeOutV2(NULL actualTimeout)",
         [] { return aclrtSetOpExecuteTimeOutV2(1, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetOpTimeOutInterval(NULL)", [] { return aclrtGetOpTimeOutInterval(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetOpExecuteTimeout(NULL)", [] { return aclrtGetOpExecuteTimeout(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetOverflowStatus(NULL outputAddr)",
         [&] { return aclrtGetOverflowStatus(nullptr, 64, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetOverflowStatus(outputSize 8)",
         [&] { return aclrtGetOverflowStatus(dev, 8, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetOverflowStatus(host memory)",
         [&] { return aclrtGetOverflowStatus(host, 64, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetOverflowStatus(not a stream)",
         [&] { return aclrtGetOverflowStatus(dev, 64, &not_a_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtResetOverflowStatus(not a stream)",
         [&] { return aclrtResetOverflowStatus(&not_a_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFloatOverflowStatus(outputSize 0)",
         [&] { return aclrtGetFloatOverflowStatus(dev, 0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtResetFloatOverflowStatus(not a stream)",
         [&] { return aclrtResetFloatOverflowStatus(&not_a_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNpuGetFloatOverFlowStatus(NULL outputAddr)",
         [&] { return aclrtNpuGetFloatOverFlowStatus(nullptr, 64, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNpuClearFloatOverFlowStatus(not a stream)",
         [&] { return aclrtNpuClearFloatOverFlowStatus(0, &not_a_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCtxGetFloatOverflowAddr(NULL)", [] { return aclrtCtxGetFloatOverflowAddr(nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}
