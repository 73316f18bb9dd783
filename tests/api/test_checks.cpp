// Strict checks (OPENACL_CHECK=1 or aclInit's "openacl": {"check": ...}): misuse that hardware
// answers with a crash, corruption or a slowdown is an error naming the allocation, context or
// call involved, and what is still alive at aclrtResetDevice, aclFinalize or exit is listed
// with where it was created.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

// Checks on, warnings on stdout; aclInit and device 0 (see InitializedDeviceTest).
class StrictChecks : public InitializedDeviceTest {
 private:
    ScopedEnv check_{"OPENACL_CHECK", "1"};
    ScopedEnv print_{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"};
    ScopedEnv level_{"ASCEND_GLOBAL_LOG_LEVEL", "2"};
};

// Checks on and pageable asynchronous copies refused.
class StrictPageableChecks : public InitializedDeviceTest {
 private:
    ScopedEnv check_{"OPENACL_CHECK", "1"};
    ScopedEnv pageable_{"OPENACL_CHECK_PAGEABLE_ASYNC_COPY", "error"};
};

// Checks on with two devices.
class StrictChecksTwoDevices : public InitializedDeviceTest {
 private:
    ScopedEnv check_{"OPENACL_CHECK", "1"};
    ScopedEnv devices_{"OPENACL_DEVICE_COUNT", "2"};
};

// Checks off (the default), warnings on stdout.
class ChecksOff : public InitializedDeviceTest {
 private:
    ScopedEnv check_{"OPENACL_CHECK", "0"};
    ScopedEnv print_{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"};
    ScopedEnv level_{"ASCEND_GLOBAL_LOG_LEVEL", "2"};
};

std::string Hex(const void* p) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", p);
    return text;
}

std::string TakeMessage() {
    const char* message = aclGetRecentErrMsg();
    return message != nullptr ? message : "";
}

void* Malloc(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return p;
}

void* MallocHost(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMallocHost(&p, size), ACL_SUCCESS);
    return p;
}

std::string TestModel(const char* name) {
    return std::string(OPENACL_ONNX_TESTDATA) + "/" + name + "/model.onnx";
}

// ---- pageable host memory in asynchronous copies ----

TEST_F(ChecksOff, PageableAsyncCopyWarningNamesThePointerTheCallAndTheFix) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* device = Malloc(256);
    std::vector<unsigned char> host(256, 1);
    testing::internal::CaptureStdout();
    aclError rc =
        aclrtMemcpyAsync(device, 256, host.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, ACL_SUCCESS);
    EXPECT_NE(out.find("[WARNING]"), std::string::npos) << out;
    EXPECT_NE(out.find("aclrtMemcpyAsync: src " + Hex(host.data())), std::string::npos) << out;
    EXPECT_NE(out.find("pageable host memory"), std::string::npos) << out;
    EXPECT_NE(out.find("aclrtMallocHost"), std::string::npos) << out;
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(StrictChecks, PageableAsyncCopyStaysAWarningByDefault) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* device = Malloc(64);
    std::vector<unsigned char> host(64, 7);
    testing::internal::CaptureStdout();
    aclError rc = aclrtMemcpyAsync(device, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, ACL_SUCCESS);
    EXPECT_NE(out.find("aclrtMemcpyAsync: src " + Hex(host.data())), std::string::npos) << out;
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(StrictPageableChecks, PageableAsyncCopyIsRefusedWhenConfiguredAsAnError) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* device = Malloc(128);
    std::vector<unsigned char> host(128, 0);
    ASSERT_EQ(aclrtMemset(device, 128, 9, 128), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(host.data(), 128, device, 128, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("aclrtMemcpyAsync failed"), std::string::npos) << message;
    EXPECT_NE(message.find("dst " + Hex(host.data()) + " is pageable host memory"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("allocate it with aclrtMallocHost"), std::string::npos) << message;
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(host[0], 0) << "nothing may be copied";
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(StrictPageableChecks, PinnedAsyncCopiesAreNotAffected) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* device = Malloc(128);
    void* host = MallocHost(128);
    EXPECT_EQ(aclrtMemcpyAsync(device, 128, host, 128, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST(StrictChecksConfig, AclInitFileTurnsChecksOnAndPageableCopiesIntoErrors) {
    TempFile config(R"({"openacl": {"check": {"enable": true, "pageable_async_copy": "error"}}})");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* device = Malloc(32);
    std::vector<unsigned char> host(32, 0);
    EXPECT_EQ(aclrtMemcpyAsync(device, 32, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is pageable host memory");
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(StrictChecksConfig, AclInitFileAcceptsTrueAsTheWholeSection) {
    TempFile config(R"({"openacl": {"check": true}})");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* p = Malloc(64);
    ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("double free");
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(StrictChecksConfig, UnknownPageablePolicyIsRefusedByAclInit) {
    TempFile config(R"({"openacl": {"check": {"pageable_async_copy": "sometimes"}}})");
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_FILE_ATTR_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("openacl.check.pageable_async_copy must be \"warn\" or \"error\"");
}

TEST(StrictChecksConfig, CheckSectionOfTheWrongTypeIsRefusedByAclInit) {
    TempFile config(R"({"openacl": {"check": "yes"}})");
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_FILE_ATTR_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("openacl.check must be true, false or {\"enable\": true");
}

TEST(StrictChecksConfig, BadOpenaclCheckEnvironmentValueIsRefusedByAclInit) {
    ScopedEnv check("OPENACL_CHECK", "maybe");
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("OPENACL_CHECK=maybe: expected 0 or 1");
}

// ---- pointers of the wrong kind, device, or lifetime ----

TEST_F(StrictChecks, DeviceMemoryWhereHostMemoryIsExpectedIsAnErrorNamingTheAllocation) {
    void* device = Malloc(4096);
    void* other = Malloc(4096);
    EXPECT_EQ(aclrtMemcpy(device, 4096, other, 4096, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("dst " + Hex(device) + " is device memory"), std::string::npos)
        << message;
    EXPECT_NE(message.find("a 4096-byte aclrtMalloc allocation at " + Hex(device) + " on device 0"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("allocated at"), std::string::npos) << message;
    EXPECT_NE(message.find("test_checks.cpp:"), std::string::npos) << message;
    EXPECT_NE(message.find("strict checks"), std::string::npos) << message;
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(other), ACL_SUCCESS);
}

TEST_F(ChecksOff, DeviceMemoryWhereHostMemoryIsExpectedIsOnlyAWarningWithoutChecks) {
    void* device = Malloc(64);
    void* other = Malloc(64);
    EXPECT_EQ(aclrtMemcpy(device, 64, other, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(other), ACL_SUCCESS);
}

TEST_F(StrictChecks, PinnedHostMemoryWhereDeviceMemoryIsExpectedIsAnErrorNamingTheAllocation) {
    void* host = MallocHost(100);
    std::vector<unsigned char> source(100, 3);
    EXPECT_EQ(aclrtMemcpy(host, 100, source.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("dst " + Hex(host) + " is pinned host memory"), std::string::npos)
        << message;
    EXPECT_NE(message.find("a 100-byte aclrtMallocHost allocation"), std::string::npos) << message;
    EXPECT_NE(message.find("test_checks.cpp:"), std::string::npos) << message;
    EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST_F(StrictChecks, PageableHostMemoryWhereDeviceMemoryIsExpectedIsAnError) {
    std::vector<unsigned char> host(64, 0), source(64, 1);
    EXPECT_EQ(aclrtMemcpy(host.data(), 64, source.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("dst " + Hex(host.data()) + " is not device-accessible memory"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("ACL_MEMCPY_HOST_TO_DEVICE says it is device memory"), std::string::npos)
        << message;
}

TEST_F(StrictChecks, FreeingDeviceMemoryWithFreeHostNamesTheAllocation) {
    void* device = Malloc(512);
    EXPECT_EQ(aclrtFreeHost(device), ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("a 512-byte aclrtMalloc allocation at " + Hex(device) + " on device 0"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("free it with aclrtFree"), std::string::npos) << message;
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(StrictChecks, FreeingPinnedMemoryWithFreeNamesTheAllocation) {
    void* host = MallocHost(200);
    EXPECT_EQ(aclrtFree(host), ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("a 200-byte aclrtMallocHost allocation at " + Hex(host)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("free it with aclrtFreeHost"), std::string::npos) << message;
    EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST_F(StrictChecksTwoDevices, MemoryOfAnotherDeviceIsAnErrorNamingBothDevices) {
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    void* remote = Malloc(1024);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    std::vector<unsigned char> host(1024, 0);
    EXPECT_EQ(aclrtMemcpy(remote, 1024, host.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("dst " + Hex(remote) + " is memory of device 1"), std::string::npos)
        << message;
    EXPECT_NE(message.find("a 1024-byte aclrtMalloc allocation"), std::string::npos) << message;
    EXPECT_NE(message.find("current device is 0"), std::string::npos) << message;
    EXPECT_EQ(aclrtFree(remote), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("devPtr " + Hex(remote) + " is memory of device 1");
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(remote), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST_F(StrictChecksTwoDevices, CopyWithinAnotherDeviceIsAnError) {
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    void* a = Malloc(64);
    void* b = Malloc(64);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(a, 64, b, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dst " + Hex(a) + " is memory of device 1");
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(a, 64, b, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST_F(StrictChecksTwoDevices, MemoryOfAPeerDeviceIsAccepted) {
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    void* remote = Malloc(64);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<unsigned char> host(64, 0);
    EXPECT_EQ(aclrtMemcpy(remote, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(remote), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST_F(StrictChecks, UseAfterFreeNamesTheFreedAllocationAndWhereItWasFreed) {
    void* device = Malloc(4096);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
    std::vector<unsigned char> host(16, 0);
    EXPECT_EQ(aclrtMemcpy(static_cast<char*>(device) + 16, 16, host.data(), 16,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("points into freed device memory"), std::string::npos) << message;
    EXPECT_NE(message.find("a 4096-byte aclrtMalloc allocation at " + Hex(device) + " on device 0"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("freed by aclrtFree at"), std::string::npos) << message;
    EXPECT_NE(message.find("test_checks.cpp:"), std::string::npos) << message;
}

TEST_F(StrictChecks, ModelInputInFreedDeviceMemoryNamesTheFreedAllocation) {
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS);
    const size_t bytes = 60 * sizeof(float);
    void* input = Malloc(bytes);
    void* output = Malloc(bytes);
    ASSERT_EQ(aclrtFree(input), ACL_SUCCESS);  // freed, but still in the dataset
    aclmdlDataset* inputs = aclmdlCreateDataset();
    aclmdlDataset* outputs = aclmdlCreateDataset();
    ASSERT_EQ(aclmdlAddDatasetBuffer(inputs, aclCreateDataBuffer(input, bytes)), ACL_SUCCESS);
    ASSERT_EQ(aclmdlAddDatasetBuffer(outputs, aclCreateDataBuffer(output, bytes)), ACL_SUCCESS);
    EXPECT_EQ(aclmdlExecute(id, inputs, outputs), ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("input 0"), std::string::npos) << message;
    EXPECT_NE(message.find("a 240-byte aclrtMalloc allocation at " + Hex(input)), std::string::npos)
        << message;
    EXPECT_NE(message.find("freed by aclrtFree at"), std::string::npos) << message;
    EXPECT_NE(message.find("test_checks.cpp:"), std::string::npos) << message;
    for (aclmdlDataset* set : {inputs, outputs}) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, 0));
        aclmdlDestroyDataset(set);
    }
    ASSERT_EQ(aclrtFree(output), ACL_SUCCESS);
    ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(StrictChecks, DoubleFreeOfDeviceMemoryNamesTheAllocation) {
    void* device = Malloc(300);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("double free: " + Hex(device)), std::string::npos) << message;
    EXPECT_NE(message.find("a 300-byte aclrtMalloc allocation"), std::string::npos) << message;
    EXPECT_NE(message.find("allocated at"), std::string::npos) << message;
    EXPECT_NE(message.find("freed by aclrtFree"), std::string::npos) << message;
}

TEST_F(StrictChecks, DoubleFreeOfPinnedMemoryNamesTheAllocation) {
    void* host = MallocHost(48);
    ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("double free: " + Hex(host)), std::string::npos) << message;
    EXPECT_NE(message.find("a 48-byte aclrtMallocHost allocation"), std::string::npos) << message;
    EXPECT_NE(message.find("freed by aclrtFreeHost"), std::string::npos) << message;
}

TEST_F(StrictChecks, FreedPinnedMemoryWhereDeviceMemoryIsExpectedIsNamed) {
    void* host = MallocHost(64);
    ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    void* device = Malloc(64);
    EXPECT_EQ(aclrtMemcpy(device, 64, host, 64, ACL_MEMCPY_DEVICE_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("src " + Hex(host) + " points into freed pinned host memory"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("freed by aclrtFreeHost"), std::string::npos) << message;
    EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(ChecksOff, DoubleFreeWithoutChecksSaysHowToLearnMore) {
    void* device = Malloc(64);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("set OPENACL_CHECK=1");
}

// ---- streams, events and models used from the wrong context ----

TEST_F(StrictChecks, StreamOfAnotherContextNamesBothContexts) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtContext own = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_STREAM_CONTEXT);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("belongs to context " + Hex(own) + " (the default context of device 0)"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("current context is context " + Hex(other) +
                           " (created by aclrtCreateContext on device 0)"),
              std::string::npos)
        << message;
    ASSERT_EQ(aclrtSetCurrentContext(own), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

TEST_F(StrictChecks, StreamUsedFromAThreadWithoutContextNamesItsContext) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtContext own = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    aclError rc = ACL_SUCCESS;
    std::string message;
    std::thread([&] {
        rc = aclrtSynchronizeStream(stream);
        message = TakeMessage();
    }).join();
    EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(message.find("belongs to context " + Hex(own)), std::string::npos) << message;
    EXPECT_NE(message.find("this thread has no current context"), std::string::npos) << message;
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StrictChecks, EventOfAnotherContextNamesBothContexts) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    aclrtContext own = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    aclrtEventRecordedStatus status;
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("event " + Hex(event) + " belongs to context " + Hex(own)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("current context is context " + Hex(other)), std::string::npos)
        << message;
    ASSERT_EQ(aclrtSetCurrentContext(own), ACL_SUCCESS);
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

TEST_F(StrictChecks, EventOfADestroyedContextSaysTheContextIsGone) {
    aclrtContext own = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(own), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
    aclrtEventRecordedStatus status;
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("belongs to context " + Hex(other) + " (destroyed)");
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(StrictChecks, EventUsedFromAThreadWithoutContextNamesItsContext) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    aclError rc = ACL_SUCCESS;
    std::string message;
    std::thread([&] {
        rc = aclrtSynchronizeEvent(event);
        message = TakeMessage();
    }).join();
    EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(message.find("(the default context of device 0)"), std::string::npos) << message;
    EXPECT_NE(message.find("current context is no context"), std::string::npos) << message;
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(ChecksOff, EventsAreNotTiedToTheirContextWithoutChecks) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    aclrtContext own = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    aclrtEventRecordedStatus status;
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(own), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

TEST_F(StrictChecks, ModelOfAnotherContextNamesBothContexts) {
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    aclrtContext own = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    aclmdlDataset* inputs = aclmdlCreateDataset();
    aclmdlDataset* outputs = aclmdlCreateDataset();
    EXPECT_EQ(aclmdlExecute(id, inputs, outputs), ACL_ERROR_RT_MODEL_CONTEXT);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("was loaded in context " + Hex(own)), std::string::npos) << message;
    EXPECT_NE(message.find("current context is context " + Hex(other)), std::string::npos)
        << message;
    aclmdlDestroyDataset(inputs);
    aclmdlDestroyDataset(outputs);
    ASSERT_EQ(aclrtSetCurrentContext(own), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

TEST_F(StrictChecks, ModelUsedFromAThreadWithoutContextNamesItsContext) {
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    aclrtContext own = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    aclmdlDataset* inputs = aclmdlCreateDataset();
    aclmdlDataset* outputs = aclmdlCreateDataset();
    aclError rc = ACL_SUCCESS;
    std::string message;
    std::thread([&] {
        rc = aclmdlExecute(id, inputs, outputs);
        message = TakeMessage();
    }).join();
    EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(message.find("was loaded in context " + Hex(own)), std::string::npos) << message;
    EXPECT_NE(message.find("current context is no context"), std::string::npos) << message;
    aclmdlDestroyDataset(inputs);
    aclmdlDestroyDataset(outputs);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// ---- leak reports ----

// Allocations made here are reported with this function's file and line.
void ForgetTwoAllocations() {
    volatile int count = 2;  // one call site, as in a loop that forgets to free (no unrolling)
    for (int i = 0; i < count; ++i)
        Malloc(100);
}

TEST_F(StrictChecks, ResetDeviceReportsEachLiveResourceWithItsAllocationSite) {
    ForgetTwoAllocations();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("leak report at aclrtResetDevice(0)"), std::string::npos) << err;
    EXPECT_NE(err.find("2 device allocation(s) by aclrtMalloc on device 0, 200 bytes, "
                       "allocated at"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("test_checks.cpp:"), std::string::npos) << err;
    EXPECT_NE(err.find("stream " + Hex(stream)), std::string::npos) << err;
    EXPECT_NE(err.find("event " + Hex(event) + " on device 0, never destroyed, created at"),
              std::string::npos)
        << err;
}

TEST_F(StrictChecks, ResetDeviceWritesTheReportToTheLogToo) {
    Malloc(64);
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    std::string out = testing::internal::GetCapturedStdout();
    testing::internal::GetCapturedStderr();
    EXPECT_NE(out.find("[WARNING]"), std::string::npos) << out;
    EXPECT_NE(out.find("1 device allocation(s) by aclrtMalloc on device 0, 64 bytes"),
              std::string::npos)
        << out;
}

TEST_F(StrictChecks, ResetDeviceReportsModelsStillLoaded) {
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("model " + std::to_string(id) + " in context"), std::string::npos) << err;
    EXPECT_NE(err.find("never unloaded with aclmdlUnload, loaded at"), std::string::npos) << err;
    EXPECT_NE(err.find("by aclmdlLoad (model memory)"), std::string::npos) << err;
}

TEST_F(StrictChecks, FinalizeReportsModelsStillLoaded) {
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(TestModel("node/test_relu").c_str(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("leak report at aclFinalize, still alive:"), std::string::npos) << err;
    EXPECT_NE(err.find("model " + std::to_string(id) + " in context"), std::string::npos) << err;
    EXPECT_NE(err.find("loaded at"), std::string::npos) << err;
    EXPECT_NE(err.find("test_checks.cpp:"), std::string::npos) << err;
}

TEST_F(StrictChecks, ResetDeviceWithNothingAliveReportsNothing) {
    void* p = Malloc(64);
    ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST_F(StrictChecks, MemoryReleasedByAResetIsNamedWhenUsedAfterwards) {
    void* p = Malloc(256);
    testing::internal::CaptureStderr();
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    testing::internal::GetCapturedStderr();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("freed by aclrtResetDevice");
}

TEST_F(StrictChecks, FinalizeReportsPinnedHostMemory) {
    MallocHost(1000);
    Malloc(10);
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("leak report at aclFinalize(0)"), std::string::npos) << err;
    EXPECT_NE(err.find("1 device allocation(s) by aclrtMalloc on device 0, 10 bytes"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("leak report at aclFinalize, still alive:"), std::string::npos) << err;
    EXPECT_NE(err.find("1 pinned host allocation(s) by aclrtMallocHost, 1000 bytes, allocated at"),
              std::string::npos)
        << err;
}

TEST_F(ChecksOff, ResetDeviceSummarisesLeaksAndSaysHowToGetTheReport) {
    Malloc(64);
    testing::internal::CaptureStdout();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_NE(out.find("1 device allocation(s) totalling 64 bytes"), std::string::npos) << out;
    EXPECT_NE(out.find("set OPENACL_CHECK=1"), std::string::npos) << out;
}

// The process exits with a device still set: the report comes at exit, on stderr.
void ExitWithoutReset() {
    setenv("OPENACL_CHECK", "1", 1);
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::_Exit(3);
    ForgetTwoAllocations();
    std::exit(0);
}

TEST(StrictChecksAtExit, ProcessExitReportsWhatWasNeverReleased) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(ExitWithoutReset(), testing::ExitedWithCode(0),
                "leak report at process exit.*2 device allocation\\(s\\) by aclrtMalloc on "
                "device 0, 200 bytes, allocated at .*test_checks.cpp:");
}

}  // namespace

TEST_F(StrictChecks, DestroyingAnEventOfAnotherContextNamesBothContexts) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    aclrtContext own = nullptr, other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&own), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM);
    std::string message = TakeMessage();
    EXPECT_NE(message.find("event " + Hex(event) + " belongs to context " + Hex(own)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("current context is context " + Hex(other)), std::string::npos)
        << message;
    ASSERT_EQ(aclrtSetCurrentContext(own), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS) << "the refused call left the event alive";
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}
