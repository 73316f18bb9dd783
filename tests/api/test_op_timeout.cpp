// Operator timeouts: the execute timeout is counted in the hardware's steps (rounded up, at most
// 254 of them, 0 for the longest or for none), process-wide, and kernel launches enqueued after it
// is set run under it unless they carry a timeout of their own (core/op_timeout.h). Most tests use
// a 10 ms step (OPENACL_OP_TIMEOUT_INTERVAL_US) so that timeouts show in milliseconds.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "test_support.h"

namespace {

constexpr uint64_t kA2StepUs = 4294967;  // 2^32 ns: the Atlas A2/A3/950 step

uint64_t Slot(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

// The chip's own step.
class OpTimeout : public InitializedDeviceTest {
 protected:
    void SetUp() override {
        InitializedDeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        if (binary_ != nullptr) aclrtBinaryUnLoad(binary_);
        InitializedDeviceTest::TearDown();
    }
    uint32_t ExecuteTimeoutMs() {
        uint32_t ms = 0;
        EXPECT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
        return ms;
    }
    // A launch of one block that sleeps `ms`, with the launch's own timeout (us) when given.
    void LaunchSleep(uint64_t ms, uint64_t own_timeout_us = 0) {
        if (binary_ == nullptr) {
            ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary_), ACL_SUCCESS)
                << aclGetRecentErrMsg();
            ASSERT_EQ(aclrtMalloc(&ran_, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        }
        aclrtFuncHandle sleep = nullptr;
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "sleep_ms", &sleep), ACL_SUCCESS);
        aclrtLaunchKernelAttr attr{};
        attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
        attr.value.timeoutUs.timeoutLow = static_cast<uint32_t>(own_timeout_us);
        attr.value.timeoutUs.timeoutHigh = static_cast<uint32_t>(own_timeout_us >> 32);
        aclrtLaunchKernelCfg cfg{&attr, 1};
        uint64_t args[2] = {Slot(ran_), ms};
        ASSERT_EQ(
            aclrtLaunchKernelWithHostArgs(sleep, 1, stream_, own_timeout_us != 0 ? &cfg : nullptr,
                                          args, sizeof args, nullptr, 0),
            ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    aclrtStream stream_ = nullptr;
    aclrtBinHandle binary_ = nullptr;
    void* ran_ = nullptr;
};

// A 10 ms step: under 100 ms, so 0 means "never".
class OpTimeoutShortStep : public OpTimeout {
 private:
    ScopedEnv step_{"OPENACL_OP_TIMEOUT_INTERVAL_US", "10000"};
};

class OpTimeoutOn310P : public OpTimeout {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};

TEST_F(OpTimeout, TheIntervalIsTheAtlasA2Step) {
    uint64_t interval = 0;
    ASSERT_EQ(aclrtGetOpTimeOutInterval(&interval), ACL_SUCCESS);
    EXPECT_EQ(interval, kA2StepUs);
}

TEST_F(OpTimeout, TheDefaultExecuteTimeoutIs254Steps) {
    EXPECT_EQ(ExecuteTimeoutMs(), (kA2StepUs * 254 + 999) / 1000);  // 1091 s, as CANN documents
}

TEST_F(OpTimeout, SecondsAreRoundedUpToWholeSteps) {
    ASSERT_EQ(aclrtSetOpExecuteTimeOut(1), ACL_SUCCESS);
    EXPECT_EQ(ExecuteTimeoutMs(), (kA2StepUs + 999) / 1000);  // one step
    ASSERT_EQ(aclrtSetOpExecuteTimeOut(10), ACL_SUCCESS);
    EXPECT_EQ(ExecuteTimeoutMs(), (3 * kA2StepUs + 999) / 1000);
}

TEST_F(OpTimeout, ZeroAsksForTheLongestTimeoutWhenTheStepIsLong) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(0, &actual), ACL_SUCCESS);
    EXPECT_EQ(actual, kA2StepUs * 254);
    ASSERT_EQ(aclrtSetOpExecuteTimeOut(0), ACL_SUCCESS);
    EXPECT_EQ(ExecuteTimeoutMs(), (kA2StepUs * 254 + 999) / 1000);
}

TEST_F(OpTimeoutShortStep, V2RoundsARequestUpToWholeSteps) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(10001, &actual), ACL_SUCCESS);
    EXPECT_EQ(actual, 20000u);
    EXPECT_EQ(ExecuteTimeoutMs(), 20u);
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(1, &actual), ACL_SUCCESS);
    EXPECT_EQ(actual, 10000u);
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(30000, &actual), ACL_SUCCESS);
    EXPECT_EQ(actual, 30000u);
}

TEST_F(OpTimeoutShortStep, V2CapsARequestAt254Steps) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(UINT64_MAX, &actual), ACL_SUCCESS);
    EXPECT_EQ(actual, 2540000u);
    EXPECT_EQ(ExecuteTimeoutMs(), 2540u);
}

TEST_F(OpTimeoutShortStep, ZeroMeansNeverWhenTheStepIsUnder100Ms) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(0, &actual), ACL_SUCCESS);
    EXPECT_EQ(actual, UINT64_MAX);
    EXPECT_EQ(ExecuteTimeoutMs(), UINT32_MAX);
}

TEST_F(OpTimeoutShortStep, ALaunchPastTheExecuteTimeoutFailsItsStream) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(20000, &actual), ACL_SUCCESS);
    LaunchSleep(60);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel sleep_ms did not finish within its 20 ms timeout");
}

TEST_F(OpTimeoutShortStep, ALaunchsOwnTimeoutWinsOverTheExecuteTimeout) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(20000, &actual), ACL_SUCCESS);
    LaunchSleep(60, 1000000);  // its own: 1 s
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(OpTimeoutShortStep, LaunchesEnqueuedBeforeTheSettingAreNotTimed) {
    LaunchSleep(60);
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(20000, &actual), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(OpTimeoutShortStep, NeverLeavesLaunchesUntimed) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(20000, &actual), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(0, &actual), ACL_SUCCESS);
    LaunchSleep(60);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(OpTimeoutShortStep, TheSettingsEndWithAclFinalize) {
    uint64_t actual = 0;
    ASSERT_EQ(aclrtSetOpExecuteTimeOutV2(20000, &actual), ACL_SUCCESS);
    aclFinalize();
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(ExecuteTimeoutMs(), 2540u);  // the default: 254 steps
}

TEST_F(OpTimeout, SettingAnExecuteTimeoutNeedsACurrentContext) {
    aclError seconds = ACL_SUCCESS, micros = ACL_SUCCESS;
    std::string message;
    std::thread([&] {
        seconds = aclrtSetOpExecuteTimeOut(1);
        uint64_t actual = 0;
        micros = aclrtSetOpExecuteTimeOutV2(1, &actual);
        const char* text = aclGetRecentErrMsg();
        message = text != nullptr ? text : "";
    }).join();
    EXPECT_EQ(seconds, ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_EQ(micros, ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(message.find("no current context"), std::string::npos) << message;
}

TEST_F(OpTimeout, TheMillisecondFormIsNotOnAnyDocumentedChip) {
    EXPECT_EQ(aclrtSetOpExecuteTimeOutWithMs(100), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("use aclrtSetOpExecuteTimeOutV2");
}

TEST_F(OpTimeout, TheWaitTimeoutTakesSeconds) {
    EXPECT_EQ(aclrtSetOpWaitTimeout(5), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetOpWaitTimeout(0), ACL_SUCCESS);  // never: the default
}

TEST_F(OpTimeoutOn310P, TheInferenceSeriesHasNoWaitTimeout) {
    EXPECT_EQ(aclrtSetOpWaitTimeout(5), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("Ascend310P3");
}

TEST_F(OpTimeout, NullOutputsAreInvalidParam) {
    EXPECT_EQ(aclrtSetOpExecuteTimeOutV2(1, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("actualTimeout is null");
    EXPECT_EQ(aclrtGetOpTimeOutInterval(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("interval is null");
    EXPECT_EQ(aclrtGetOpExecuteTimeout(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeoutMs is null");
}

}  // namespace
