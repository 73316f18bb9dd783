// Notifies: aclrtRecordNotify sets a flag on one stream, aclrtWaitAndResetNotify holds another
// stream until the flag is set (whenever the record comes) and clears it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

using namespace std::chrono_literals;

void Sleep50ms(void*) {
    std::this_thread::sleep_for(50ms);
}
void Count(void* counter) {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

class Notify : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&a_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&b_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateNotify(&notify_, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStreamForce(a_);
        aclrtDestroyStreamForce(b_);
        aclrtDestroyNotify(notify_);
        DeviceTest::TearDown();
    }
    // True when everything on `stream` has run, after waiting a little.
    static bool DoneSoon(aclrtStream stream) {
        std::this_thread::sleep_for(50ms);
        aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
        EXPECT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
        return status == ACL_STREAM_STATUS_COMPLETE;
    }

    aclrtStream a_ = nullptr, b_ = nullptr;
    aclrtNotify notify_ = nullptr;
    std::atomic<int> after_wait_{0};
};

}  // namespace

TEST_F(Notify, AWaitHoldsItsStreamUntilAnotherStreamRecords) {
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(b_, Count, &after_wait_), ACL_SUCCESS);
    EXPECT_FALSE(DoneSoon(b_)) << "nothing recorded yet";
    EXPECT_EQ(after_wait_.load(), 0);
    ASSERT_EQ(aclrtLaunchHostFunc(a_, Sleep50ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordNotify(notify_, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
    EXPECT_EQ(after_wait_.load(), 1);
}

TEST_F(Notify, ARecordMadeBeforeTheWaitReleasesItToo) {
    ASSERT_EQ(aclrtRecordNotify(notify_, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
}

TEST_F(Notify, EachRecordReleasesOneWait) {
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(b_, Count, &after_wait_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordNotify(notify_, a_), ACL_SUCCESS);
    EXPECT_FALSE(DoneSoon(b_)) << "the first wait took the record";
    ASSERT_EQ(aclrtRecordNotify(notify_, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
    EXPECT_EQ(after_wait_.load(), 1);
}

TEST_F(Notify, TheWaitResetsTheNotifySoTheNextWaitTimesOut) {
    ASSERT_EQ(aclrtRecordNotify(notify_, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 1), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_TASK_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("was not recorded within its timeout");
    EXPECT_GE(std::chrono::steady_clock::now() - start, 900ms) << "a timeout of 1 second";
}

TEST_F(Notify, BatchResetClearsRecordedNotifies) {
    aclrtNotify second = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&second, ACL_NOTIFY_DEVICE_USE_ONLY), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordNotify(notify_, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordNotify(second, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
    aclrtNotify both[2] = {notify_, second};
    ASSERT_EQ(aclrtNotifyBatchReset(both, 2), ACL_SUCCESS);
    ASSERT_EQ(aclrtWaitAndResetNotify(second, b_, 1), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_TASK_TIMEOUT);
    EXPECT_EQ(aclrtDestroyNotify(second), ACL_SUCCESS);
}

TEST_F(Notify, EveryNotifyOfADeviceHasItsOwnId) {
    aclrtNotify second = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&second, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    uint32_t first_id = 99, second_id = 99;
    ASSERT_EQ(aclrtGetNotifyId(notify_, &first_id), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetNotifyId(second, &second_id), ACL_SUCCESS);
    EXPECT_NE(first_id, second_id);
    EXPECT_EQ(aclrtDestroyNotify(second), ACL_SUCCESS);
}

TEST_F(Notify, DestroyingANotifyThatIsWaitedForIsRefused) {
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 0), ACL_SUCCESS);
    std::this_thread::sleep_for(20ms);  // the wait has parked
    EXPECT_EQ(aclrtDestroyNotify(notify_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is still waited for by 1 task(s)");
    ASSERT_EQ(aclrtRecordNotify(notify_, a_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
}

TEST_F(Notify, AForceDestroyedStreamLetsGoOfItsWait) {
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, b_, 0), ACL_SUCCESS);
    std::this_thread::sleep_for(20ms);
    ASSERT_EQ(aclrtDestroyStreamForce(b_), ACL_SUCCESS);
    b_ = nullptr;
    EXPECT_EQ(aclrtDestroyNotify(notify_), ACL_SUCCESS) << TakeErrMsg();
    notify_ = nullptr;
}

TEST_F(Notify, ADeviceHoldsAtMost8192Notifies) {
    std::vector<aclrtNotify> made;
    aclrtNotify n = nullptr;
    while (aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT) == ACL_SUCCESS)
        made.push_back(n);
    EXPECT_EQ(made.size() + 1, 8192u) << "one is the fixture's";
    EXPECT_THAT_MESSAGE_CONTAINS("already holds 8192 notifies");
    for (aclrtNotify m : made)
        ASSERT_EQ(aclrtDestroyNotify(m), ACL_SUCCESS);
}

// Notifies synchronise streams of different devices.
class NotifyAcrossDevices : public InitializedDeviceTest {
 private:
    ScopedEnv count_{"OPENACL_DEVICE_COUNT", "2"};
};

TEST_F(NotifyAcrossDevices, AStreamOfOneDeviceWaitsForARecordOnAnother) {
    aclrtNotify notify = nullptr;
    aclrtStream waiter = nullptr, recorder = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
    ASSERT_EQ(aclrtWaitAndResetNotify(notify, waiter, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&recorder), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordNotify(notify, recorder), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(recorder), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(recorder), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(waiter), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(waiter), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
}

// ---- counting notifies (the Ascend 950's) ----

namespace {

class CountingNotify : public InitializedDeviceTest {
 protected:
    void SetUp() override {
        InitializedDeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&a_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&b_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCntNotifyCreate(&notify_, 0), ACL_SUCCESS) << TakeErrMsg();
    }
    void TearDown() override {
        aclrtDestroyStreamForce(a_);
        aclrtDestroyStreamForce(b_);
        aclrtCntNotifyDestroy(notify_);
        InitializedDeviceTest::TearDown();
    }
    void Record(aclrtCntNotifyRecordMode mode, uint32_t value) {
        aclrtCntNotifyRecordInfo info{mode, value};
        ASSERT_EQ(aclrtCntNotifyRecord(notify_, a_, &info), ACL_SUCCESS) << TakeErrMsg();
    }
    aclError Wait(aclrtCntNotifyWaitMode mode, uint32_t value, uint32_t timeout_s,
                  bool clear = false) {
        aclrtCntNotifyWaitInfo info{};
        info.mode = mode;
        info.value = value;
        info.timeout = timeout_s;
        info.isClear = clear ? 1 : 0;
        return aclrtCntNotifyWaitWithTimeout(notify_, b_, &info);
    }

    aclrtStream a_ = nullptr, b_ = nullptr;
    aclrtCntNotify notify_ = nullptr;

 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend950PR_9599"};
};

}  // namespace

TEST_F(CountingNotify, AWaitForAValueHoldsItsStreamUntilAddsReachIt) {
    ASSERT_EQ(Wait(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, 0), ACL_SUCCESS);
    Record(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    Record(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    std::this_thread::sleep_for(30ms);
    ASSERT_EQ(aclrtStreamQuery(b_, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY) << "2 < 3";
    Record(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
}

TEST_F(CountingNotify, ABitmaskWaitNeedsEveryBitOfTheMask) {
    Record(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x1);
    ASSERT_EQ(Wait(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x5, 1), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_ERROR_RT_TASK_TIMEOUT) << "bit 2 never set";
    EXPECT_THAT_MESSAGE_CONTAINS("did not reach the awaited value within its timeout");
}

TEST_F(CountingNotify, ClearingWaitsResetTheValueAndResetClearsItInStreamOrder) {
    Record(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 7);
    ASSERT_EQ(Wait(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 7, 0, true), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
    ASSERT_EQ(Wait(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 1, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS) << "the clearing wait left 0";
    Record(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 5);
    ASSERT_EQ(aclrtCntNotifyReset(notify_, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
    ASSERT_EQ(Wait(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
}

TEST_F(CountingNotify, AndRecordsClearBits) {
    Record(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0xff);
    Record(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x0f);
    ASSERT_EQ(Wait(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x0f, 5), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
    uint32_t id = 99;
    EXPECT_EQ(aclrtCntNotifyGetId(notify_, &id), ACL_SUCCESS);
}

TEST_F(Notify, CountingNotifiesExistOnTheAscend950Only) {
    aclrtCntNotify counting = nullptr;
    EXPECT_EQ(aclrtCntNotifyCreate(&counting, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("for the Ascend 950 only");
}
