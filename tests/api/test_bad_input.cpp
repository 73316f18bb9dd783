// Bad input across the API: every row is one wrong call, the code the documentation gives for
// it, and a recorded message that names the function.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

struct BadCall {
    std::string name;  // "function(arguments)": the function is what precedes '('
    std::function<aclError()> call;
    aclError expected;
};

// For functions that answer NULL / 0 on failure: the code they recorded as the last error.
aclError LastError() {
    return RecordedError();
}

}  // namespace

TEST(BadInput, EveryRowFailsWithItsDocumentedCodeAndNamesTheFunction) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);

    // Handles that were valid once.
    aclrtContext default_ctx = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&default_ctx), ACL_SUCCESS);
    aclrtContext destroyed_ctx = nullptr;
    ASSERT_EQ(aclrtCreateContext(&destroyed_ctx, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(destroyed_ctx), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(default_ctx), ACL_SUCCESS);
    aclrtStream destroyed_stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&destroyed_stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(destroyed_stream), ACL_SUCCESS);
    char memory[64] = {};
    aclDataBuffer* destroyed_buffer = aclCreateDataBuffer(memory, sizeof memory);
    ASSERT_EQ(aclDestroyDataBuffer(destroyed_buffer), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    void* freed = nullptr;  // allocated after dev, so dev never reuses its address
    ASSERT_EQ(aclrtMalloc(&freed, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);

    // Handles that never were.
    int foreign_object = 0;
    void* foreign = &foreign_object;
    auto* foreign_buffer = reinterpret_cast<aclDataBuffer*>(&foreign_object);

    int32_t i32 = 0;
    int64_t i64 = 0;
    size_t sz = 0;
    void* ptr = nullptr;
    aclrtContext ctx = nullptr;
    aclrtStream stream = nullptr;
    aclrtPtrAttributes attributes{};
    const auto kBadKind = static_cast<aclrtMemcpyKind>(99);

    const std::vector<BadCall> rows = {
        // Device ids out of range.
        {"aclrtSetDevice(-1)", [] { return aclrtSetDevice(-1); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtSetDevice(64)", [] { return aclrtSetDevice(64); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtSetDevice(INT32_MAX)", [] { return aclrtSetDevice(INT32_MAX); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtResetDevice(-1)", [] { return aclrtResetDevice(-1); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtResetDevice(64)", [] { return aclrtResetDevice(64); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtResetDeviceForce(INT32_MAX)", [] { return aclrtResetDeviceForce(INT32_MAX); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtCreateContext(&ctx, -1)", [&] { return aclrtCreateContext(&ctx, -1); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtCreateContext(&ctx, 64)", [&] { return aclrtCreateContext(&ctx, 64); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetDeviceInfo(64, ...)",
         [&] { return aclrtGetDeviceInfo(64, ACL_DEV_ATTR_AICORE_CORE_NUM, &i64); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetDeviceInfo(UINT32_MAX, ...)",
         [&] { return aclrtGetDeviceInfo(UINT32_MAX, ACL_DEV_ATTR_AICORE_CORE_NUM, &i64); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclGetDeviceCapability(64, ...)",
         [&] { return aclGetDeviceCapability(64, ACL_DEVICE_INFO_AI_CORE_NUM, &i64); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetDeviceCapability(-1, ...)",
         [&] {
             return aclrtGetDeviceCapability(-1, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV,
                                             &i32);
         },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetPrimaryCtxState(INT32_MAX, ...)",
         [&] { return aclrtGetPrimaryCtxState(INT32_MAX, nullptr, &i32); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDeviceCanAccessPeer(&i32, 0, 64)",
         [&] { return aclrtDeviceCanAccessPeer(&i32, 0, 64); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDeviceEnablePeerAccess(-1, 0)", [] { return aclrtDeviceEnablePeerAccess(-1, 0); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDeviceDisablePeerAccess(64)", [] { return aclrtDeviceDisablePeerAccess(64); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtQueryDeviceStatus(64, ...)",
         [] {
             aclrtDeviceStatus status;
             return aclrtQueryDeviceStatus(64, &status);
         },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetPhyDevIdByUserDevId(-1, ...)",
         [&] { return aclrtGetPhyDevIdByUserDevId(-1, &i32); }, ACL_ERROR_RT_INVALID_DEVICEID},

        // Null output pointers.
        {"aclrtGetDevice(NULL)", [] { return aclrtGetDevice(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceCount(NULL)", [] { return aclrtGetDeviceCount(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetRunMode(NULL)", [] { return aclrtGetRunMode(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceInfo(0, attr, NULL)",
         [] { return aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateContext(NULL, 0)", [] { return aclrtCreateContext(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetCurrentContext(NULL)", [] { return aclrtGetCurrentContext(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCtxGetCurrentDefaultStream(NULL)",
         [] { return aclrtCtxGetCurrentDefaultStream(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateStream(NULL)", [] { return aclrtCreateStream(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamGetId(NULL stream, NULL)", [] { return aclrtStreamGetId(nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMalloc(NULL, 64, ...)",
         [] { return aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocHost(NULL, 64)", [] { return aclrtMallocHost(nullptr, 64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFree(NULL)", [] { return aclrtFree(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeHost(NULL)", [] { return aclrtFreeHost(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy(NULL, ...)",
         [&] { return aclrtMemcpy(nullptr, 64, memory, 64, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy(dev, 64, NULL, ...)",
         [&] { return aclrtMemcpy(dev, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemset(NULL, ...)", [] { return aclrtMemset(nullptr, 64, 0, 64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetMemInfo(DDR, NULL, NULL)",
         [] { return aclrtGetMemInfo(ACL_DDR_MEM, nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtPointerGetAttributes(NULL, ...)",
         [&] { return aclrtPointerGetAttributes(nullptr, &attributes); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetVersion(NULL, ...)", [&] { return aclrtGetVersion(nullptr, &i32, &i32); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSysParamOpt(opt, NULL)",
         [] { return aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetCannAttribute(attr, NULL)",
         [] { return aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclDestroyDataBuffer(NULL)", [] { return aclDestroyDataBuffer(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclInitCallbackRegister(type, NULL, NULL)",
         [] { return aclInitCallbackRegister(ACL_REG_TYPE_OTHER, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},

        // Unknown and destroyed handles.
        {"aclrtSetCurrentContext(foreign)", [&] { return aclrtSetCurrentContext(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetCurrentContext(destroyed)", [&] { return aclrtSetCurrentContext(destroyed_ctx); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyContext(foreign)", [&] { return aclrtDestroyContext(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyContext(destroyed)", [&] { return aclrtDestroyContext(destroyed_ctx); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyContext(default)", [&] { return aclrtDestroyContext(default_ctx); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeStream(foreign)", [&] { return aclrtSynchronizeStream(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeStream(destroyed)",
         [&] { return aclrtSynchronizeStream(destroyed_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyStream(foreign)", [&] { return aclrtDestroyStream(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyStream(destroyed)", [&] { return aclrtDestroyStream(destroyed_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyStream(NULL)", [] { return aclrtDestroyStream(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamQuery(destroyed, ...)",
         [&] {
             aclrtStreamStatus status;
             return aclrtStreamQuery(destroyed_stream, &status);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclDestroyDataBuffer(foreign)", [&] { return aclDestroyDataBuffer(foreign_buffer); },
         ACL_ERROR_INVALID_PARAM},
        {"aclDestroyDataBuffer(destroyed)", [&] { return aclDestroyDataBuffer(destroyed_buffer); },
         ACL_ERROR_INVALID_PARAM},
        {"aclUpdateDataBuffer(destroyed, ...)",
         [&] { return aclUpdateDataBuffer(destroyed_buffer, memory, 8); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetDataBufferAddr(destroyed)",
         [&] { return aclGetDataBufferAddr(destroyed_buffer) ? ACL_SUCCESS : LastError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetDataBufferSizeV2(foreign)",
         [&] { return aclGetDataBufferSizeV2(foreign_buffer) ? ACL_SUCCESS : LastError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetDataBufferSize(destroyed)",
         [&] { return aclGetDataBufferSize(destroyed_buffer) ? ACL_SUCCESS : LastError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFree(freed)", [&] { return aclrtFree(freed); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFree(foreign)", [&] { return aclrtFree(foreign); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeHost(foreign)", [&] { return aclrtFreeHost(foreign); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtPointerGetAttributes(freed, ...)",
         [&] { return aclrtPointerGetAttributes(freed, &attributes); }, ACL_ERROR_INVALID_PARAM},

        // Wrong kinds and enumerators.
        {"aclrtMemcpy(..., kind 99)", [&] { return aclrtMemcpy(dev, 64, memory, 64, kBadKind); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy2d(..., kind 99)",
         [&] { return aclrtMemcpy2d(dev, 8, memory, 8, 8, 8, kBadKind); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy2d(..., ACL_MEMCPY_DEVICE_TO_DEVICE)",
         [&] { return aclrtMemcpy2d(dev, 8, dev, 8, 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetMemInfo(attr 99, ...)",
         [&] { return aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &sz, &sz); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceInfo(0, attr 12345, ...)",
         [&] { return aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(12345), &i64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, ...)",
         [&] { return aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &i64); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclGetDeviceCapability(0, info 99, ...)",
         [&] { return aclGetDeviceCapability(0, static_cast<aclDeviceInfo>(99), &i64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCtxSetSysParamOpt(opt 99, 1)",
         [] { return aclrtCtxSetSysParamOpt(static_cast<aclSysParamOpt>(99), 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, ...) before set",
         [&] { return aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &i64); },
         ACL_ERROR_RT_SYSPARAMOPT_NOT_SET},
        {"aclrtMallocCached(..., ACL_MEM_MALLOC_HUGE_FIRST_P2P)",
         [&] { return aclrtMallocCached(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST_P2P); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetDeviceSatMode(mode 99)",
         [] { return aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(99)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtPeekAtLastError(level 1)",
         [] { return aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(1)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateStreamWithConfig(&stream, priority 8, 0)",
         [&] { return aclrtCreateStreamWithConfig(&stream, 8, 0); }, ACL_ERROR_INVALID_PARAM},

        // Bad sizes and flags.
        {"aclrtMalloc(&ptr, 0, ...)",
         [&] { return aclrtMalloc(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocAlign32(&ptr, 0, ...)",
         [&] { return aclrtMallocAlign32(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocHost(&ptr, 0)", [&] { return aclrtMallocHost(&ptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMalloc(&ptr, SIZE_MAX, ...)",
         [&] { return aclrtMalloc(&ptr, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST); },
         ACL_ERROR_RT_MEMORY_ALLOCATION},
        {"aclrtMemcpy(count > destMax)",
         [&] { return aclrtMemcpy(dev, 32, memory, 64, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy(past the end)",
         [&] { return aclrtMemcpy(dev, 4096, memory, 4096, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemset(count > maxCount)", [&] { return aclrtMemset(dev, 32, 0, 64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy2d(width > pitch)",
         [&] { return aclrtMemcpy2d(dev, 8, memory, 8, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemFlush(dev, 0)", [&] { return aclrtMemFlush(dev, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemInvalidate(dev, 4096)", [&] { return aclrtMemInvalidate(dev, 4096); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceEnablePeerAccess(0, flags 1)",
         [] { return aclrtDeviceEnablePeerAccess(0, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeDeviceWithTimeout(-5)",
         [] { return aclrtSynchronizeDeviceWithTimeout(-5); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeStreamWithTimeout(NULL, -5)",
         [] { return aclrtSynchronizeStreamWithTimeout(nullptr, -5); }, ACL_ERROR_INVALID_PARAM},

        // Files.
        {"aclInit(/nonexistent/acl.json)", [] { return aclInit("/nonexistent/acl.json"); },
         ACL_ERROR_INVALID_FILE},
        {"aclFinalize() without aclInit", [] { return aclFinalize(); }, ACL_ERROR_REPEAT_FINALIZE},
    };

    for (const BadCall& row : rows) {
        SCOPED_TRACE(row.name);
        ClearErrMsgs();  // start from no messages
        EXPECT_EQ(row.call(), row.expected);
        const char* message = TakeErrMsg();
        ASSERT_NE(message, nullptr) << "no message was recorded";
        std::string text = message;
        std::string function = row.name.substr(0, row.name.find_first_of("( "));
        EXPECT_NE(text.find(function + " failed (error " + std::to_string(row.expected) + ")"),
                  std::string::npos)
            << "message: " << text;
        EXPECT_GT(text.size(), function.size() + 30) << "the message says what was wrong";
    }

    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
