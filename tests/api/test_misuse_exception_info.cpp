// Misuse table, errors and exceptions: exception callbacks and their getters, device error
// details and repair, the thread's last task id, operator information cached on tasks.
#include <cstdint>
#include <functional>
#include <string>

#include "async_test_support.h"
#include "misuse_table.h"

namespace {

constexpr aclError kNoInfo = static_cast<aclError>(0xFFFFFFFFu);  // CANN's answer to a NULL info

void NoOpCallback(aclrtExceptionInfo*) {}
void NoOpBinaryCallback(aclrtExceptionInfo*, void*) {}

// Runs the rows that need a live aclrtExceptionInfo inside an exception callback (the info is
// valid only during the call), on the worker that reports the failure.
std::function<void(aclrtExceptionInfo*)> g_inside;
int g_inside_calls = 0;
void RunInside(aclrtExceptionInfo* info) {
    ++g_inside_calls;
    if (g_inside) g_inside(info);
}

}  // namespace

TEST(MisuseTable, ExceptionCallbacksAndTheirGetters) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtBinHandle unloaded = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &unloaded), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(unloaded), ACL_SUCCESS);
    void* args = nullptr;
    uint32_t length = 0;
    aclrtFuncHandle func = nullptr;

    const std::vector<MisuseRow> rows = {
        {"aclrtExceptionInfoCallbackRegister(NULL)",
         [] { return aclrtExceptionInfoCallbackRegister(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtExceptionInfoCallbackUnregister(NULL)",
         [] { return aclrtExceptionInfoCallbackUnregister(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetTaskIdFromExceptionInfo(NULL)",
         [] {
             return aclrtGetTaskIdFromExceptionInfo(nullptr) == 0xFFFFFFFFu ? RecordedError()
                                                                            : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamIdFromExceptionInfo(NULL)",
         [] {
             return aclrtGetStreamIdFromExceptionInfo(nullptr) == 0xFFFFFFFFu ? RecordedError()
                                                                              : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetThreadIdFromExceptionInfo(NULL)",
         [] {
             return aclrtGetThreadIdFromExceptionInfo(nullptr) == 0xFFFFFFFFu ? RecordedError()
                                                                              : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceIdFromExceptionInfo(NULL)",
         [] {
             return aclrtGetDeviceIdFromExceptionInfo(nullptr) == 0xFFFFFFFFu ? RecordedError()
                                                                              : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetErrorCodeFromExceptionInfo(NULL)",
         [] {
             return aclrtGetErrorCodeFromExceptionInfo(nullptr) == 0xFFFFFFFFu ? RecordedError()
                                                                               : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetArgsFromExceptionInfo(NULL, &ptr, &len)",
         [&] { return aclrtGetArgsFromExceptionInfo(nullptr, &args, &length); }, kNoInfo},
        {"aclrtGetFuncHandleFromExceptionInfo(NULL, &func)",
         [&] { return aclrtGetFuncHandleFromExceptionInfo(nullptr, &func); }, kNoInfo},
        {"aclrtBinarySetExceptionCallback(NULL, fn, NULL)",
         [] { return aclrtBinarySetExceptionCallback(nullptr, NoOpBinaryCallback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinarySetExceptionCallback(binary, NULL, NULL)",
         [&] { return aclrtBinarySetExceptionCallback(binary, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinarySetExceptionCallback(unloaded, fn, NULL)",
         [&] { return aclrtBinarySetExceptionCallback(unloaded, NoOpBinaryCallback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtBinaryUnLoad(binary);
    aclrtResetDeviceForce(0);
}

TEST(MisuseTable, GettersOfAnExceptionThatIsNoKernels) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    g_inside_calls = 0;
    g_inside = [](aclrtExceptionInfo* info) {
        void* args = nullptr;
        uint32_t length = 0;
        aclrtFuncHandle func = nullptr;
        const std::vector<MisuseRow> rows = {
            {"aclrtGetArgsFromExceptionInfo(info, NULL, &len)",
             [&] { return aclrtGetArgsFromExceptionInfo(info, nullptr, &length); },
             ACL_ERROR_INVALID_PARAM},
            {"aclrtGetArgsFromExceptionInfo(info, &ptr, NULL)",
             [&] { return aclrtGetArgsFromExceptionInfo(info, &args, nullptr); },
             ACL_ERROR_INVALID_PARAM},
            {"aclrtGetArgsFromExceptionInfo(a fill's info, &ptr, &len)",
             [&] { return aclrtGetArgsFromExceptionInfo(info, &args, &length); }, kNoInfo},
            {"aclrtGetFuncHandleFromExceptionInfo(info, NULL)",
             [&] { return aclrtGetFuncHandleFromExceptionInfo(info, nullptr); },
             ACL_ERROR_INVALID_PARAM},
            {"aclrtGetFuncHandleFromExceptionInfo(a fill's info, &func)",
             [&] { return aclrtGetFuncHandleFromExceptionInfo(info, &func); },
             ACL_ERROR_RT_PARAM_INVALID},
        };
        ExpectEveryRowFails(rows);
    };
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RunInside), ACL_SUCCESS);
    {
        async_test::DeviceBuffer target(64);
        async_test::Gate gate;
        ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemsetAsync(target.get(), 64, 0, 64, stream), ACL_SUCCESS);
        ASSERT_EQ(target.Free(), ACL_SUCCESS);
        gate.Open();
        EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    }
    EXPECT_EQ(aclrtExceptionInfoCallbackUnregister(RunInside), ACL_SUCCESS);
    g_inside = nullptr;
    EXPECT_EQ(g_inside_calls, 1) << "the rows ran inside the callback";
    aclrtDestroyStream(stream);
    aclrtResetDeviceForce(0);
}

TEST(MisuseTable, SetExceptionInfoCallbackTakesNullAndAnyFunction) {
    aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSetExceptionInfoCallback(NoOpCallback), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetExceptionInfoCallback(nullptr), ACL_SUCCESS);  // clears it
    EXPECT_EQ(aclrtSetExceptionInfoCallback(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "none of these is an error";
}

TEST(MisuseTable, DeviceErrorsLastTaskIdAndCachedTaskInfo) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* memory = nullptr;
    ASSERT_EQ(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtErrorInfo info{};
    aclrtErrorInfo bad_type{};
    bad_type.errorType = static_cast<aclrtErrorType>(77);
    aclrtErrorInfo memory_error{};
    memory_error.errorType = ACL_RT_ERROR_MEMORY;
    const char text[] = "info";
    const std::string too_long(64 * 1024 + 1, 'x');
    // The calling thread's last task: one that ran on its stream, or one of a capture that
    // has no cache switch.
    auto eager = [&] { return aclrtMemsetAsync(memory, 64, 0, 64, stream); };
    auto captured = [&](const std::function<aclError()>& cache) {
        aclmdlRI model = nullptr;
        EXPECT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemsetAsync(memory, 64, 0, 64, stream), ACL_SUCCESS);
        const aclError rc = cache();
        EXPECT_EQ(aclmdlRICaptureEnd(stream, &model), ACL_SUCCESS);
        EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
        return rc;
    };

    const std::vector<MisuseRow> rows = {
        {"aclrtGetErrorVerbose(0, NULL)", [] { return aclrtGetErrorVerbose(0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetErrorVerbose(64, &info)", [&] { return aclrtGetErrorVerbose(64, &info); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtRepairError(0, NULL)", [] { return aclrtRepairError(0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRepairError(64, &info)", [&] { return aclrtRepairError(64, &info); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtRepairError(0, errorType 77)", [&] { return aclrtRepairError(0, &bad_type); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRepairError(0, ACL_RT_NO_ERROR)", [&] { return aclrtRepairError(0, &info); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRepairError(0, ACL_RT_ERROR_MEMORY) with no memory fault",
         [&] { return aclrtRepairError(0, &memory_error); }, ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtGetThreadLastTaskId(NULL)", [] { return aclrtGetThreadLastTaskId(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCacheLastTaskOpInfo(NULL, 4)", [] { return aclrtCacheLastTaskOpInfo(nullptr, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCacheLastTaskOpInfo(info, 0)", [&] { return aclrtCacheLastTaskOpInfo(text, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCacheLastTaskOpInfo(info, 64 KiB + 1)",
         [&] { return aclrtCacheLastTaskOpInfo(too_long.data(), too_long.size()); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCacheLastTaskOpInfo(info, 5) after a task that ran on its stream",
         [&] {
             EXPECT_EQ(eager(), ACL_SUCCESS);
             return aclrtCacheLastTaskOpInfo(text, sizeof text);
         },
         ACL_ERROR_RT_STREAM_NOT_CAPTURED},
        {"aclrtCacheLastTaskOpInfo(info, 5) in a capture without the cache switch",
         [&] { return captured([&] { return aclrtCacheLastTaskOpInfo(text, sizeof text); }); },
         ACL_ERROR_RT_INTERNAL_ERROR},
        {"aclrtCacheLastTaskExtendInfo(NULL, 4)",
         [] { return aclrtCacheLastTaskExtendInfo(nullptr, 4); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCacheLastTaskExtendInfo(info, 0)",
         [&] { return aclrtCacheLastTaskExtendInfo(text, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCacheLastTaskExtendInfo(info, 5) after a task that ran on its stream",
         [&] {
             EXPECT_EQ(eager(), ACL_SUCCESS);
             return aclrtCacheLastTaskExtendInfo(text, sizeof text);
         },
         ACL_ERROR_RT_STREAM_NOT_CAPTURED},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    aclrtFree(memory);
    aclrtDestroyStream(stream);
    aclrtResetDeviceForce(0);
}
