// Contexts (the default context of a device, explicit contexts, the per-thread current context,
// system options) and the stream handles a context owns.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "test_support.h"

namespace {

// Device 0 set for the test (DeviceTest) under the names of what is tested.
class Context : public DeviceTest {};
class SysParam : public DeviceTest {};
class Stream : public DeviceTest {};

// aclInit with OPENACL_DEVICE_COUNT=2 (aclInit re-reads the environment), aclFinalize after.
class TwoDeviceContexts : public ::testing::Test {
 protected:
    void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
    void TearDown() override {
        aclFinalize();
        aclGetRecentErrMsg();
    }

 private:
    ScopedEnv count_{"OPENACL_DEVICE_COUNT", "2"};
};

aclrtContext Current() {
    aclrtContext ctx = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    return ctx;
}

int32_t CurrentDevice() {
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    return device;
}

int32_t StreamId(aclrtStream stream) {
    int32_t id = -1;
    EXPECT_EQ(aclrtStreamGetId(stream, &id), ACL_SUCCESS);
    return id;
}

}  // namespace

// ---- the default context ----

TEST(DefaultContext, IsSharedByThreadsThatSetTheSameDevice) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext here = Current();
    aclrtContext there = nullptr;
    std::thread([&] {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        there = Current();
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    }).join();
    EXPECT_NE(here, nullptr);
    EXPECT_EQ(here, there);
    EXPECT_EQ(Current(), here) << "the other thread's reset only dropped its own count";
    aclrtResetDevice(0);
}

TEST(DefaultContext, SetDeviceMakesItCurrentAgain) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext default_ctx = Current();
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    ASSERT_EQ(Current(), created);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(Current(), default_ctx);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}

TEST_F(Context, DefaultContextCannotBeDestroyed) {
    aclrtContext default_ctx = Current();
    EXPECT_EQ(aclrtDestroyContext(default_ctx), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("device 0's default context: it cannot be destroyed");
    EXPECT_EQ(Current(), default_ctx) << "it is still current and usable";
}

TEST(DefaultContext, PrimaryCtxStateFollowsSetAndReset) {
    int32_t active = -1;
    uint32_t flags = 99;
    EXPECT_EQ(aclrtGetPrimaryCtxState(0, &flags, &active), ACL_SUCCESS);
    EXPECT_EQ(active, 0);
    EXPECT_EQ(flags, 0u);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetPrimaryCtxState(0, nullptr, &active), ACL_SUCCESS);
    EXPECT_EQ(active, 1);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetPrimaryCtxState(0, nullptr, &active), ACL_SUCCESS);
    EXPECT_EQ(active, 0);
}

TEST(DefaultContext, PrimaryCtxStateRejectsNullActiveAndUnknownDevices) {
    int32_t active = -1;
    EXPECT_EQ(aclrtGetPrimaryCtxState(0, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("active is null");
    EXPECT_EQ(aclrtGetPrimaryCtxState(3, nullptr, &active), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device id 3 is out of range");
}

// ---- explicit contexts ----

TEST_F(Context, CreateContextMakesItCurrent) {
    aclrtContext default_ctx = Current();
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    EXPECT_NE(created, nullptr);
    EXPECT_NE(created, default_ctx);
    EXPECT_EQ(Current(), created);
    EXPECT_EQ(CurrentDevice(), 0);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
}

TEST(ExplicitContext, CreateContextWithoutSetDeviceOpensTheDevice) {
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    EXPECT_EQ(CurrentDevice(), 0);
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST_F(Context, CreateContextOnAnUnknownDeviceFails) {
    aclrtContext created = nullptr;
    EXPECT_EQ(aclrtCreateContext(&created, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtCreateContext failed");
    EXPECT_EQ(created, nullptr);
}

TEST_F(TwoDeviceContexts, SetCurrentContextSwitchesTheDevice) {
    aclrtContext on1 = nullptr;
    ASSERT_EQ(aclrtCreateContext(&on1, 1), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext on0 = Current();
    EXPECT_EQ(CurrentDevice(), 0);
    ASSERT_EQ(aclrtSetCurrentContext(on1), ACL_SUCCESS);
    EXPECT_EQ(CurrentDevice(), 1);
    EXPECT_EQ(Current(), on1);
    ASSERT_EQ(aclrtSetCurrentContext(on0), ACL_SUCCESS);
    EXPECT_EQ(CurrentDevice(), 0);
    EXPECT_EQ(aclrtDestroyContext(on1), ACL_SUCCESS);
}

TEST_F(TwoDeviceContexts, MemoryIsAllocatedOnTheCurrentContextsDevice) {
    aclrtContext on1 = nullptr;
    ASSERT_EQ(aclrtCreateContext(&on1, 1), ACL_SUCCESS);
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtPtrAttributes attributes{};
    EXPECT_EQ(aclrtPointerGetAttributes(p, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(attributes.location.id, 1u);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(on1), ACL_SUCCESS);
}

TEST_F(Context, ContextCanBeUsedFromAnotherThread) {
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    aclrtContext seen = nullptr;
    std::thread([&] {
        ASSERT_EQ(aclrtSetCurrentContext(created), ACL_SUCCESS);
        seen = Current();
    }).join();
    EXPECT_EQ(seen, created);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
}

TEST_F(Context, DestroyedContextIsRefusedBySetCurrentContext) {
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetCurrentContext(created), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live context");
}

TEST_F(Context, DestroyingAContextTwiceIsRefused) {
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("already destroyed, or its device was reset");
}

TEST_F(Context, DestroyingTheCurrentContextLeavesTheThreadWithoutOne) {
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
    aclrtContext ctx = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("this thread has no current context");
}

TEST_F(Context, ThreadWhoseContextWasDestroyedElsewhereGetsContextNull) {
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    std::thread([&] { EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS); }).join();
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtMalloc failed");
}

TEST(ExplicitContext, ResetDeviceInvalidatesTheDevicesContexts) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext default_ctx = Current();
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetCurrentContext(created), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live context");
    EXPECT_EQ(aclrtSetCurrentContext(default_ctx), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_ERROR_INVALID_PARAM);
    aclrtContext ctx = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(ExplicitContext, NullContextArgumentsAreInvalidParam) {
    EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("context is null");
    EXPECT_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(ExplicitContext, ForeignPointerIsNotAContext) {
    int not_a_context = 0;
    EXPECT_EQ(aclrtSetCurrentContext(&not_a_context), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live context");
}

// ---- default streams ----

TEST_F(Context, CtxGetCurrentDefaultStreamAnswersTheContextsOwnStream) {
    aclrtStream default0 = nullptr;
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default0), ACL_SUCCESS);
    EXPECT_NE(default0, nullptr);
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    aclrtStream default1 = nullptr;
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default1), ACL_SUCCESS);
    EXPECT_NE(default1, nullptr);
    EXPECT_NE(default1, default0) << "each context owns its own default stream";
    EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
}

TEST(ExplicitContext, CtxGetCurrentDefaultStreamWithoutAContextIsContextNull) {
    aclrtStream stream = nullptr;
    EXPECT_EQ(aclrtCtxGetCurrentDefaultStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_EQ(aclrtCtxGetCurrentDefaultStream(nullptr), ACL_ERROR_INVALID_PARAM);
}

// ---- system options ----

TEST_F(SysParam, CtxGetBeforeSetIsNotSet) {
    int64_t value = -1;
    EXPECT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value),
              ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    EXPECT_THAT_MESSAGE_CONTAINS("never set in this context");
}

TEST_F(SysParam, CtxSetThenGet) {
    ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
    int64_t value = -1;
    EXPECT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 1);
    EXPECT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &value),
              ACL_ERROR_RT_SYSPARAMOPT_NOT_SET)
        << "options are independent";
}

TEST_F(SysParam, CtxOptionsBelongToOneContext) {
    ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 5), ACL_SUCCESS);
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    int64_t value = -1;
    EXPECT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &value),
              ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
}

TEST_F(SysParam, ProcessGetBeforeSetIsNotSet) {
    int64_t value = -1;
    EXPECT_EQ(aclrtGetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, &value),
              ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    EXPECT_THAT_MESSAGE_CONTAINS("never set in this process");
}

TEST_F(SysParam, ProcessSetThenGetFromAnyThread) {
    ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, 7), ACL_SUCCESS);
    int64_t value = -1;
    std::thread([&] {
        EXPECT_EQ(aclrtGetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, &value), 0);
    }).join();
    EXPECT_EQ(value, 7);
}

TEST_F(SysParam, UnknownOptionIsInvalidParam) {
    int64_t value = -1;
    auto unknown = static_cast<aclSysParamOpt>(4);
    EXPECT_EQ(aclrtCtxSetSysParamOpt(unknown, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("opt 4 is not an aclSysParamOpt");
    EXPECT_EQ(aclrtCtxGetSysParamOpt(unknown, &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSetSysParamOpt(unknown, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetSysParamOpt(unknown, &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr), ACL_ERROR_INVALID_PARAM);
}

// ---- streams ----

TEST_F(Stream, CreateAndDestroy) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT_NE(stream, nullptr);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(Stream, StreamsAreDistinctFromTheDefaultStream) {
    aclrtStream a = nullptr, b = nullptr, default_stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default_stream), ACL_SUCCESS);
    EXPECT_NE(a, b);
    EXPECT_NE(StreamId(a), StreamId(b));
    EXPECT_NE(StreamId(a), StreamId(default_stream));
    EXPECT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
}

TEST_F(Stream, NullStreamIsTheDefaultStream) {
    aclrtStream default_stream = nullptr;
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default_stream), ACL_SUCCESS);
    EXPECT_EQ(StreamId(nullptr), StreamId(default_stream));
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    EXPECT_EQ(aclrtStreamQuery(nullptr, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(Stream, NullStreamFollowsTheCurrentContext) {
    int32_t default_id = StreamId(nullptr);
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    EXPECT_NE(StreamId(nullptr), default_id);
    EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
}

TEST_F(Stream, DestroyingTheDefaultStreamIsRefused) {
    EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("the default stream (NULL) cannot be destroyed");
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "it is still there";
}

// Disabled until src/api/stream.cpp refuses it: aclrtDestroyStream on the handle from
// aclrtCtxGetCurrentDefaultStream destroys the default stream, and NULL-stream calls then
// succeed without a stream.
TEST_F(Stream, DestroyingTheDefaultStreamByItsHandleIsRefused) {
    aclrtStream default_stream = nullptr;
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default_stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(default_stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("cannot be destroyed");
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "it is still there";
}

TEST_F(Stream, StreamOfAnotherContextIsRefusedNamingSetCurrentContext) {
    aclrtContext first = nullptr, second = nullptr;
    ASSERT_EQ(aclrtCreateContext(&first, 0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_THAT_MESSAGE_CONTAINS("call aclrtSetCurrentContext");
    ASSERT_EQ(aclrtSetCurrentContext(first), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(first), ACL_SUCCESS);
}

TEST_F(Stream, StreamUsedFromAThreadWithAnotherContextIsRefused) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclError rc = ACL_SUCCESS;
    std::string message;
    std::thread([&] {
        aclrtContext own = nullptr;
        ASSERT_EQ(aclrtCreateContext(&own, 0), ACL_SUCCESS);
        rc = aclrtSynchronizeStream(stream);
        const char* text = aclGetRecentErrMsg();
        message = text != nullptr ? text : "";
        EXPECT_EQ(aclrtDestroyContext(own), ACL_SUCCESS);
    }).join();
    EXPECT_EQ(rc, ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_NE(message.find("aclrtSetCurrentContext"), std::string::npos) << message;
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(Stream, DestroyedStreamHandleIsRefused) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtDestroyStream failed");
}

TEST_F(Stream, StreamsDieWithTheirContext) {
    aclrtContext created = nullptr;
    ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
}

TEST(StreamWithoutContext, CreateStreamIsContextNull) {
    aclrtStream stream = nullptr;
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtCreateStream failed");
}
