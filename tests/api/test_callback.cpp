// Host callbacks (aclrtSubscribeReport / aclrtLaunchCallback / aclrtProcessReport, in the
// documented sequence) and host functions (aclrtLaunchHostFunc).
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

using namespace async_test;

namespace {

uint64_t ThreadId(pthread_t thread) {
    return static_cast<uint64_t>(thread);
}

// The documented set-up: a thread that loops on aclrtProcessReport (after making the test's
// context current), subscribed to the streams it serves.
class Callback : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtGetCurrentContext(&context_), ACL_SUCCESS);
        reporter_ = std::thread([this] {
            aclrtSetCurrentContext(context_);
            reporter_id_.store(ThreadId(pthread_self()));
            while (!stop_.load()) {
                aclError rc = aclrtProcessReport(20);
                if (rc != ACL_SUCCESS && rc != ACL_ERROR_RT_REPORT_TIMEOUT &&
                    rc != ACL_ERROR_RT_THREAD_SUBSCRIBE) {
                    unexpected_.store(rc);
                }
                if (rc == ACL_ERROR_RT_THREAD_SUBSCRIBE) std::this_thread::sleep_for(1ms);
            }
        });
        ASSERT_TRUE(WaitUntil([&] { return reporter_id_.load() != 0; }));
    }
    void TearDown() override {
        stop_.store(true);
        reporter_.join();
        EXPECT_EQ(unexpected_.load(), ACL_SUCCESS) << "aclrtProcessReport failed unexpectedly";
        DeviceTest::TearDown();
    }
    uint64_t reporter() const { return reporter_id_.load(); }

 private:
    aclrtContext context_ = nullptr;
    std::thread reporter_;
    std::atomic<uint64_t> reporter_id_{0};
    std::atomic<bool> stop_{false};
    std::atomic<aclError> unexpected_{ACL_SUCCESS};
};

class CallbackWithoutReporter : public DeviceTest {};
class HostFunc : public DeviceTest {};

// What a callback saw: how often it ran and on which thread.
struct Calls {
    std::atomic<int> count{0};
    std::atomic<int> on_other_thread{0};
    uint64_t expected_thread = 0;
};

void CountCall(void* arg) {
    auto* calls = static_cast<Calls*>(arg);
    if (ThreadId(pthread_self()) != calls->expected_thread) calls->on_other_thread.fetch_add(1);
    calls->count.fetch_add(1);
}

struct Slot {
    Calls* calls;
    std::atomic<int> runs{0};
};

void CountSlot(void* arg) {
    auto* slot = static_cast<Slot*>(arg);
    slot->runs.fetch_add(1);
    CountCall(slot->calls);
}

}  // namespace

// ---- the documented sequence ----

TEST_F(Callback, EachCallbackRunsExactlyOnceOnTheSubscribedThread) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    Calls calls;
    calls.expected_thread = reporter();
    std::vector<Slot> slots(200);
    for (Slot& slot : slots) {
        slot.calls = &calls;
        ASSERT_EQ(aclrtLaunchCallback(CountSlot, &slot, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(calls.count.load(), 200) << "the stream finished before its blocking callbacks";
    WaitUntil([&] { return calls.count.load() >= 200; });  // even then, let them end here
    EXPECT_EQ(calls.on_other_thread.load(), 0) << "callbacks ran off the subscribed thread";
    for (size_t i = 0; i < slots.size(); ++i)
        ASSERT_EQ(slots[i].runs.load(), 1) << "callback " << i;
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
}

TEST_F(Callback, NoBlockCallbacksAlsoRunExactlyOnceOnTheSubscribedThread) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    Calls calls;
    calls.expected_thread = reporter();
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(aclrtLaunchCallback(CountCall, &calls, ACL_CALLBACK_NO_BLOCK, stream),
                  ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_TRUE(WaitUntil([&] { return calls.count.load() >= 100; }));
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(calls.count.load(), 100);
    EXPECT_EQ(calls.on_other_thread.load(), 0);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
}

TEST_F(Callback, BlockingCallbackHoldsTheStreamUntilItHasRun) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    struct Shared {
        std::atomic<int> callback_done{0};
        std::atomic<int> seen_by_host_func{-1};
    } shared;
    ASSERT_EQ(aclrtLaunchCallback(
                  [](void* p) {
                      std::this_thread::sleep_for(20ms);
                      static_cast<Shared*>(p)->callback_done.store(1);
                  },
                  &shared, ACL_CALLBACK_BLOCK, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(
                  stream,
                  [](void* p) {
                      auto* s = static_cast<Shared*>(p);
                      s->seen_by_host_func.store(s->callback_done.load());
                  },
                  &shared),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(shared.seen_by_host_func.load(), 1) << "the stream ran on before the callback";
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
}

TEST_F(Callback, SynchronizeStreamWaitsForABlockingCallback) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    std::atomic<int> done{0};
    ASSERT_EQ(aclrtLaunchCallback(
                  [](void* p) {
                      std::this_thread::sleep_for(20ms);
                      SetFlag(p);
                  },
                  &done, ACL_CALLBACK_BLOCK, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(done.load(), 1);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
}

TEST_F(Callback, NoBlockCallbackDoesNotHoldTheStream) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    // The callback waits for a release that comes only after the stream has finished.
    struct Hold {
        std::atomic<int> release{0};
        std::atomic<int> finished{0};
    };
    auto hold = std::make_shared<Hold>();
    ASSERT_EQ(aclrtLaunchCallback(
                  [](void* p) {
                      auto* h = static_cast<Hold*>(p);
                      WaitUntil([&] { return h->release.load() == 1; }, 3000ms);
                      h->finished.store(1);
                  },
                  hold.get(), ACL_CALLBACK_NO_BLOCK, stream),
              ACL_SUCCESS);
    std::atomic<int> later{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &later), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 1000), ACL_SUCCESS);
    EXPECT_EQ(later.load(), 1);
    EXPECT_EQ(hold->finished.load(), 0) << "the stream waited for a NO_BLOCK callback";
    hold->release.store(1);
    EXPECT_TRUE(WaitUntil([&] { return hold->finished.load() == 1; }));
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
}

TEST_F(Callback, OneThreadServesSeveralStreamsIncludingTheDefaultStream) {
    ScopedStream first, second;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), first), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeReport(reporter(), second), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeReport(reporter(), nullptr), ACL_SUCCESS);
    Calls calls;
    calls.expected_thread = reporter();
    for (aclrtStream stream : {first.get(), second.get(), static_cast<aclrtStream>(nullptr)}) {
        ASSERT_EQ(aclrtLaunchCallback(CountCall, &calls, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(calls.count.load(), 3);
    EXPECT_EQ(calls.on_other_thread.load(), 0);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), first), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), second), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), nullptr), ACL_SUCCESS);
}

TEST_F(Callback, AfterUnsubscribingLaunchesAreRefused) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
    std::atomic<int> ran{0};
    EXPECT_EQ(aclrtLaunchCallback(SetFlag, &ran, ACL_CALLBACK_BLOCK, stream),
              ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0);
}

TEST_F(Callback, StreamsCanBeResubscribedAfterUnsubscribing) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchCallback(SetFlag, &ran, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
}

TEST_F(Callback, SubscribingAStreamTwiceIsRefused) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    EXPECT_THAT_MESSAGE_CONTAINS("is already subscribed");
    uint64_t other = ThreadId(pthread_self());
    EXPECT_EQ(aclrtSubscribeReport(other, stream), ACL_ERROR_RT_STREAM_SUBSCRIBE)
        << "a stream has one callback thread";
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_SUCCESS);
}

TEST_F(Callback, DestroyingASubscribedStreamDropsItsSubscription) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeReport(reporter(), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
    ScopedStream fresh;
    EXPECT_EQ(aclrtSubscribeReport(reporter(), fresh), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter(), fresh), ACL_SUCCESS);
}

// ---- errors of the callback API ----

TEST_F(CallbackWithoutReporter, ProcessReportOnAnUnsubscribedThreadIsThreadSubscribe) {
    EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    EXPECT_EQ(ACL_ERROR_RT_THREAD_SUBSCRIBE, 107012);
    EXPECT_THAT_MESSAGE_CONTAINS("is not subscribed to any stream");
}

TEST_F(CallbackWithoutReporter,
       ProcessReportOnAnUnsubscribedThreadReturnsAtOnceWhateverTheTimeout) {
    // As CANN's runtime does: the calling thread's subscription is looked up before any wait,
    // so a report thread started before its channel does not wait out its timeout (nor hang
    // with -1) while nothing can arrive.
    for (int32_t timeout : {-1, 1000}) {
        const auto start = Clock::now();
        EXPECT_EQ(aclrtProcessReport(timeout), ACL_ERROR_RT_THREAD_SUBSCRIBE);
        EXPECT_LT(Clock::now() - start, 500ms) << "timeout " << timeout;
    }
}

TEST_F(CallbackWithoutReporter, AThreadWhoseStreamsWereAllUnsubscribedIsNoLongerSubscribed) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtUnSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    EXPECT_THAT_MESSAGE_CONTAINS("is not subscribed to any stream");
}

TEST_F(CallbackWithoutReporter, ProcessReportWithNothingPendingTimesOut) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
    auto start = Clock::now();
    EXPECT_EQ(aclrtProcessReport(30), ACL_ERROR_RT_REPORT_TIMEOUT);
    EXPECT_EQ(ACL_ERROR_RT_REPORT_TIMEOUT, 507012);
    EXPECT_THAT_MESSAGE_CONTAINS("no callback arrived within 30 ms");
    EXPECT_GE(Clock::now() - start, 25ms);
    EXPECT_EQ(aclrtUnSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
}

TEST_F(CallbackWithoutReporter, ProcessReportRunsPendingCallbacksOnTheCallingThread) {
    // The subscribed thread may be the test's own: a NO_BLOCK callback waits until it calls
    // aclrtProcessReport.
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
    Calls calls;
    calls.expected_thread = ThreadId(pthread_self());
    ASSERT_EQ(aclrtLaunchCallback(CountCall, &calls, ACL_CALLBACK_NO_BLOCK, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(calls.count.load(), 0) << "nobody has processed reports yet";
    EXPECT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);
    EXPECT_EQ(calls.count.load(), 1);
    EXPECT_EQ(calls.on_other_thread.load(), 0);
    EXPECT_EQ(aclrtUnSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
}

TEST_F(CallbackWithoutReporter,
       ABlockingCallbackOutlivingItsForceDestroyedStreamFailsOnlyItsReport) {
    // The callback is handed to the subscribed thread, then its stream is destroyed with
    // ...Force (which does not wait for it) and reclaimed; when the thread finally runs it and
    // it throws, the report says so and the destroyed stream is not touched.
    ScopedStream kept;  // keeps this thread subscribed once the other stream is gone
    aclrtStream doomed = nullptr;
    ASSERT_EQ(aclrtCreateStream(&doomed), ACL_SUCCESS);
    const uint64_t self = ThreadId(pthread_self());
    ASSERT_EQ(aclrtSubscribeReport(self, kept), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeReport(self, doomed), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchCallback([](void*) { throw std::runtime_error("late"); }, nullptr,
                                  ACL_CALLBACK_BLOCK, doomed),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(doomed, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        << "the blocking callback holds its stream until it has run";
    ASSERT_EQ(aclrtDestroyStreamForce(doomed), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(kept), ACL_SUCCESS);  // later calls let the reclaimer free it

    EXPECT_EQ(aclrtProcessReport(1000), ACL_ERROR_RT_FAILURE);
    EXPECT_THAT_MESSAGE_CONTAINS("threw an exception: late");
    ASSERT_EQ(aclrtSynchronizeStream(kept), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(self, kept), ACL_SUCCESS);
}

TEST_F(CallbackWithoutReporter, ProcessReportTimeoutMustBeMinusOneOrPositive) {
    EXPECT_EQ(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout 0 ms is invalid");
    EXPECT_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout -2 ms is invalid");
}

TEST_F(CallbackWithoutReporter, LaunchingOnAnUnsubscribedStreamIsNoCallbackRegistered) {
    ScopedStream stream;
    std::atomic<int> ran{0};
    EXPECT_EQ(aclrtLaunchCallback(SetFlag, &ran, ACL_CALLBACK_BLOCK, stream),
              ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_NO_CB_REG, 107015);
    EXPECT_THAT_MESSAGE_CONTAINS("call aclrtSubscribeReport(its id, stream) first");
    EXPECT_EQ(aclrtLaunchCallback(SetFlag, &ran, ACL_CALLBACK_NO_BLOCK, nullptr),
              ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtProcessReport");
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0);
}

TEST_F(CallbackWithoutReporter, UnsubscribingAPairThatIsNotSubscribedIsRefused) {
    ScopedStream stream, other;
    uint64_t self = ThreadId(pthread_self());
    EXPECT_EQ(aclrtUnSubscribeReport(self, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT_THAT_MESSAGE_CONTAINS("is not subscribed to stream");
    ASSERT_EQ(aclrtSubscribeReport(self, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(self + 1, stream), ACL_ERROR_RT_STREAM_NO_CB_REG)
        << "another thread's id";
    EXPECT_EQ(aclrtUnSubscribeReport(self, other), ACL_ERROR_RT_STREAM_NO_CB_REG)
        << "another stream";
    EXPECT_EQ(aclrtUnSubscribeReport(self, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(self, stream), ACL_ERROR_RT_STREAM_NO_CB_REG) << "twice";
}

TEST_F(CallbackWithoutReporter, NullCallbackAndUnknownBlockTypeAreInvalidParam) {
    ScopedStream stream;
    ASSERT_EQ(aclrtSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
    int data = 0;
    EXPECT_EQ(aclrtLaunchCallback(nullptr, &data, ACL_CALLBACK_BLOCK, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("fn is null");
    EXPECT_EQ(aclrtLaunchCallback(SetFlag, &data, static_cast<aclrtCallbackBlockType>(2), stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("blockType 2");
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE) << "nothing was queued";
    EXPECT_EQ(aclrtUnSubscribeReport(ThreadId(pthread_self()), stream), ACL_SUCCESS);
}

TEST_F(CallbackWithoutReporter, SubscribingOnADestroyedStreamIsRefused) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSubscribeReport(ThreadId(pthread_self()), stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
}

// ---- aclrtLaunchHostFunc ----

TEST_F(HostFunc, HostFunctionsRunInLaunchOrder) {
    ScopedStream stream;
    struct Step {
        std::vector<int>* log;
        int value;
    };
    std::vector<int> log;
    std::vector<Step> steps;
    steps.reserve(1000);
    for (int i = 0; i < 1000; ++i) {
        steps.push_back({&log, i});
        ASSERT_EQ(aclrtLaunchHostFunc(
                      stream,
                      [](void* p) {
                          auto* s = static_cast<Step*>(p);
                          s->log->push_back(s->value);
                      },
                      &steps.back()),
                  ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(log.size(), 1000u);
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(log[i], i);
}

TEST_F(HostFunc, AHostFunctionBlocksTheStreamUntilItReturns) {
    ScopedStream stream;
    DeviceBuffer device(16);
    PinnedBuffer host(16);
    std::memset(host.get(), 0, 16);
    struct Shared {
        std::atomic<int> slow_done{0};
        std::atomic<int> seen{-1};
    } shared;
    ASSERT_EQ(aclrtLaunchHostFunc(
                  stream,
                  [](void* p) {
                      std::this_thread::sleep_for(20ms);
                      static_cast<Shared*>(p)->slow_done.store(1);
                  },
                  &shared),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(device.get(), 16, 0x44, 16, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(host.get(), 16, device.get(), 16, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(
                  stream,
                  [](void* p) {
                      auto* s = static_cast<Shared*>(p);
                      s->seen.store(s->slow_done.load());
                  },
                  &shared),
              ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    EXPECT_EQ(host.bytes()[0], 0) << "the copy ran while the host function was still running";
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(shared.seen.load(), 1);
    EXPECT_EQ(host.bytes()[15], 0x44);
}

TEST_F(HostFunc, HostFunctionsNeedNoSubscription) {
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(HostFunc, NullFunctionIsInvalidParam) {
    ScopedStream stream;
    EXPECT_EQ(aclrtLaunchHostFunc(stream, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("fn is null");
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(HostFunc, ANullArgumentIsPassedThrough) {
    static std::atomic<int> seen{0};
    ASSERT_EQ(aclrtLaunchHostFunc(
                  nullptr, [](void* arg) { seen.store(arg == nullptr ? 1 : 2); }, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(seen.load(), 1);
}

// ---- what a report thread's loop writes to the log ----

namespace {

class ReportThreadLog : public InitializedDeviceTest {
 private:
    ScopedEnv print_{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"};
    ScopedEnv level_{"ASCEND_GLOBAL_LOG_LEVEL", "1"};  // CANN logs these at INFO
};

}  // namespace

TEST_F(ReportThreadLog, PollingBeforeAnySubscriptionWritesAFewLinesNotOnePerCall) {
    // Media programs loop on aclrtProcessReport from a thread their VDEC/VENC channel
    // subscribes only later; each turn fails at once.
    testing::internal::CaptureStdout();
    for (int i = 0; i < 20000; ++i)
        EXPECT_EQ(aclrtProcessReport(1000), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_GE(CountOccurrences(out, "is not subscribed to any stream"), 1u)
        << "the first ones show";
    // 10 in the first second, then one copy and one count per (doubling) window: a few dozen
    // at most however long the loop takes, against one line per call before.
    EXPECT_LE(CountOccurrences(out, "is not subscribed to any stream"), 30u) << out.substr(0, 2000);
}
