// Host functions on a thread of the program's own: aclrtSubscribeHostFunc binds the thread to
// streams, aclrtLaunchHostFunc on such a stream hands the function to it, and the thread runs
// it inside aclrtProcessHostFunc; aclrtUnSubscribeHostFunc ends that.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

using namespace async_test;

namespace {

uint64_t Self() {
    return static_cast<uint64_t>(pthread_self());
}

// The host function's view of where it ran.
struct Where {
    std::atomic<int> runs{0};
    std::atomic<uint64_t> thread{0};
};
void Record(void* arg) {
    auto* where = static_cast<Where*>(arg);
    where->thread.store(Self());
    where->runs.fetch_add(1);
}

// A thread that loops on aclrtProcessHostFunc with the test's context, as the documented
// sequence has it.
class HostFuncThread : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        aclrtContext context = nullptr;
        ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
        thread_ = std::thread([this, context] {
            aclrtSetCurrentContext(context);
            id_.store(Self());
            while (!stop_.load()) {
                const aclError rc = aclrtProcessHostFunc(20);
                if (rc == ACL_ERROR_RT_THREAD_SUBSCRIBE)
                    std::this_thread::sleep_for(1ms);
                else if (rc != ACL_SUCCESS && rc != ACL_ERROR_RT_REPORT_TIMEOUT)
                    last_error_ = rc;
            }
        });
        ASSERT_TRUE(WaitUntil([&] { return id_.load() != 0; }));
    }
    void TearDown() override {
        stop_.store(true);
        thread_.join();
        DeviceTest::TearDown();
    }
    uint64_t id() const { return id_.load(); }

    std::atomic<aclError> last_error_{ACL_SUCCESS};

 private:
    std::thread thread_;
    std::atomic<uint64_t> id_{0};
    std::atomic<bool> stop_{false};
};

class HostFuncWithoutThread : public DeviceTest {};

}  // namespace

TEST_F(HostFuncThread, AHostFunctionRunsOnTheSubscribedThreadAndHoldsItsStream) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    Where where;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Record, &where), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Record, &where), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(where.runs.load(), 2) << "the stream finished only once its host functions ran";
    EXPECT_EQ(where.thread.load(), id());
    EXPECT_EQ(aclrtUnSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    EXPECT_EQ(last_error_.load(), ACL_SUCCESS);
}

TEST_F(HostFuncThread, AfterUnsubscribingTheStreamRunsItsHostFunctionsOnItsWorkerAgain) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtUnSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    Where where;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Record, &where), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(where.runs.load(), 1);
    EXPECT_NE(where.thread.load(), id());
}

TEST_F(HostFuncThread, OneThreadServesSeveralStreams) {
    ScopedStream a, b;
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), a), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), b), ACL_SUCCESS);
    Where where;
    ASSERT_EQ(aclrtLaunchHostFunc(a, Record, &where), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(b, Record, &where), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(b), ACL_SUCCESS);
    EXPECT_EQ(where.runs.load(), 2);
    EXPECT_EQ(where.thread.load(), id());
    EXPECT_EQ(aclrtUnSubscribeHostFunc(id(), a), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeHostFunc(id(), b), ACL_SUCCESS);
}

TEST_F(HostFuncThread, AStreamHasOneHostFunctionThread) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSubscribeHostFunc(Self(), stream), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    EXPECT_THAT_MESSAGE_CONTAINS("a stream has one host function thread");
    EXPECT_EQ(aclrtUnSubscribeHostFunc(id(), stream), ACL_SUCCESS);
}

TEST_F(HostFuncThread, AThrowingHostFunctionFailsItsStream) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(
                  stream, [](void*) { throw std::runtime_error("oops"); }, nullptr),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_FAILURE);
    EXPECT_THAT_MESSAGE_CONTAINS("threw an exception: oops");
    EXPECT_TRUE(WaitUntil([&] { return last_error_.load() == ACL_ERROR_RT_FAILURE; }))
        << "aclrtProcessHostFunc reports it too";
    EXPECT_EQ(aclrtUnSubscribeHostFunc(id(), stream), ACL_SUCCESS);
}

TEST_F(HostFuncThread, ReportsAndHostFunctionsAreSeparateSubscriptions) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchCallback(Record, nullptr, ACL_CALLBACK_NO_BLOCK, stream),
              ACL_ERROR_RT_STREAM_NO_CB_REG)
        << "a host function thread takes no callbacks";
    EXPECT_EQ(aclrtUnSubscribeReport(id(), stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT_THAT_MESSAGE_CONTAINS("(aclrtSubscribeReport)");
    EXPECT_EQ(aclrtUnSubscribeHostFunc(id(), stream), ACL_SUCCESS);
}

TEST_F(HostFuncThread, DestroyingAStreamEndsItsSubscription) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeHostFunc(id(), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeHostFunc(id(), stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
}

TEST_F(HostFuncWithoutThread, ProcessHostFuncOnTheSubscribedThreadRunsWhatItWasHanded) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeHostFunc(Self(), stream), ACL_SUCCESS);
    Where where;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Record, &where), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        << "the host function waits for this thread";
    EXPECT_EQ(aclrtProcessHostFunc(1000), ACL_SUCCESS);
    EXPECT_EQ(where.runs.load(), 1);
    EXPECT_EQ(where.thread.load(), Self());
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_REPORT_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("no host function arrived within 10 ms");
    EXPECT_EQ(aclrtUnSubscribeHostFunc(Self(), stream), ACL_SUCCESS);
}

TEST_F(HostFuncWithoutThread, AnUnsubscribedThreadIsThreadSubscribe) {
    EXPECT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    EXPECT_THAT_MESSAGE_CONTAINS("call aclrtSubscribeHostFunc with this thread's id first");
}

TEST_F(HostFuncWithoutThread, ProcessHostFuncTimeoutMustBeMinusOneOrPositive) {
    EXPECT_EQ(aclrtProcessHostFunc(0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout 0 ms is invalid");
    EXPECT_EQ(aclrtProcessHostFunc(-2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout -2 ms is invalid");
}

TEST_F(HostFuncWithoutThread, UnsubscribingAPairThatIsNotSubscribedIsNoCallbackRegistered) {
    ScopedStream stream;
    EXPECT_EQ(aclrtUnSubscribeHostFunc(Self(), stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT_THAT_MESSAGE_CONTAINS("(aclrtSubscribeHostFunc)");
    EXPECT_EQ(aclrtUnSubscribeHostFunc(Self(), stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT_THAT_MESSAGE_CONTAINS("is not subscribed to stream");
}

TEST_F(HostFuncWithoutThread, SubscribingABadStreamIsInvalidParam) {
    aclrtStream gone = nullptr;
    ASSERT_EQ(aclrtCreateStream(&gone), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(gone), ACL_SUCCESS);
    EXPECT_EQ(aclrtSubscribeHostFunc(Self(), gone), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
}

TEST_F(HostFuncWithoutThread, AnAbortDiscardsAHostFunctionWaitingForItsThread) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeHostFunc(Self(), stream), ACL_SUCCESS);
    Where where;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Record, &where), ACL_SUCCESS);
    Where later;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Record, &later), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamAbort(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << "the stream no longer waits";
    // The thread runs what it was handed before the abort (if the first function got that
    // far), never what the abort discarded.
    const aclError rc = aclrtProcessHostFunc(20);
    EXPECT_TRUE(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_REPORT_TIMEOUT) << rc;
    aclGetRecentErrMsg();
    EXPECT_EQ(later.runs.load(), 0) << "the host function queued behind it was discarded";
    EXPECT_EQ(aclrtUnSubscribeHostFunc(Self(), stream), ACL_SUCCESS);
}
