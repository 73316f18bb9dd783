// aclrtStreamWaitEventWithTimeout: a stream waits for an event's newest record as
// aclrtStreamWaitEvent does, and fails when it is not reached within the timeout (seconds, as
// CANN 9 counts it; 0: no limit).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "acl/acl.h"
#include "test_support.h"

namespace {

using namespace std::chrono_literals;

void Sleep(void* ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(reinterpret_cast<intptr_t>(ms)));
}

class EventWaitTimeout : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&a_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&b_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateEventWithFlag(&event_, ACL_EVENT_SYNC), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStreamForce(a_);
        aclrtDestroyStreamForce(b_);
        aclrtDestroyEvent(event_);
        DeviceTest::TearDown();
    }
    void RecordAfter(intptr_t ms) {
        ASSERT_EQ(aclrtLaunchHostFunc(a_, Sleep, reinterpret_cast<void*>(ms)), ACL_SUCCESS);
        ASSERT_EQ(aclrtRecordEvent(event_, a_), ACL_SUCCESS);
    }
    aclrtStream a_ = nullptr, b_ = nullptr;
    aclrtEvent event_ = nullptr;
};

}  // namespace

TEST_F(EventWaitTimeout, AWaitReachedInTimeHoldsTheStreamUntilTheRecord) {
    // Timed from before the record's 50 ms sleep is queued, so a slow machine cannot make the
    // wait look shorter than it was.
    const auto start = std::chrono::steady_clock::now();
    RecordAfter(50);
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(b_, event_, 5), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms) << "it waited for the record";
}

TEST_F(EventWaitTimeout, AWaitNotReachedInTimeFailsItsStream) {
    RecordAfter(1300);
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(b_, event_, 1), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("was not reached within 1000 ms");
}

TEST_F(EventWaitTimeout, ANeverRecordedEventImposesNothing) {
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(b_, event_, 1), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
}

TEST_F(EventWaitTimeout, ATimeoutOfZeroWaitsWithoutALimit) {
    const auto start = std::chrono::steady_clock::now();
    RecordAfter(50);
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(b_, event_, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms) << "it waited for the record";
}

TEST_F(EventWaitTimeout, ANegativeTimeoutIsRefused) {
    EXPECT_EQ(aclrtStreamWaitEventWithTimeout(b_, event_, -1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("use 0 (no limit) or a number of seconds");
}
