// Stream control: aclrtStreamWaitEventWithFlag, aclrtStreamStop, aclrtStreamAbort,
// aclrtDeviceTaskAbort and aclrtSetDeviceTaskAbortCallback.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "scoped_env.h"
#include "test_support.h"

using namespace async_test;

namespace {

// Two streams: `held_` waits for an event that `source_` records behind a gate, so it holds a
// waiting task (and whatever the test queues after it) until the gate opens.
class StreamControl : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        source_ = std::make_unique<ScopedStream>();
        held_ = std::make_unique<ScopedStream>();
        ASSERT_EQ(aclrtCreateEventWithFlag(&event_, ACL_EVENT_SYNC), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&word_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemset(word_, 64, 0, 64), ACL_SUCCESS);
    }
    void TearDown() override {
        gate_.Open();
        aclrtValueWrite(word_, 1, 0, nullptr);  // releases value waits an abort left
        aclrtSynchronizeDevice();
        source_.reset();
        held_.reset();
        aclrtDestroyEvent(event_);
        aclrtFree(word_);
        DeviceTest::TearDown();
    }
    // Queues on `stream` a wait for a device word nobody writes.
    void HoldWithAValueWait(aclrtStream stream) {
        ASSERT_EQ(aclrtValueWait(word_, 1, ACL_VALUE_WAIT_EQ, stream), ACL_SUCCESS);
    }
    // Queues on held_ a wait for source_'s gated record.
    void HoldWithAWait() {
        ASSERT_EQ(gate_.Block(*source_), ACL_SUCCESS);
        ASSERT_EQ(aclrtRecordEvent(event_, *source_), ACL_SUCCESS);
        ASSERT_EQ(aclrtStreamWaitEvent(*held_, event_), ACL_SUCCESS);
    }
    aclrtStream held() const { return *held_; }
    aclrtStream source() const { return *source_; }

    std::unique_ptr<ScopedStream> source_;
    std::unique_ptr<ScopedStream> held_;
    aclrtEvent event_ = nullptr;
    void* word_ = nullptr;
    Gate gate_;
};

void Throw(void*) {
    throw std::runtime_error("boom");
}

// Device task abort callbacks, registered for one test and removed at its end.
struct AbortCall {
    int32_t device;
    aclrtDeviceTaskAbortStage stage;
    uint32_t timeout;
};
struct AbortRecorder {
    std::vector<AbortCall> calls;
    int32_t answer = 0;
    std::function<void(aclrtDeviceTaskAbortStage)> during;
};
int32_t RecordAbort(int32_t device, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void* args) {
    auto* recorder = static_cast<AbortRecorder*>(args);
    recorder->calls.push_back({device, stage, timeout});
    if (recorder->during) recorder->during(stage);
    return recorder->answer;
}
class ScopedAbortCallback {
 public:
    ScopedAbortCallback(const char* name, AbortRecorder* recorder) : name_(name) {
        EXPECT_EQ(aclrtSetDeviceTaskAbortCallback(name, RecordAbort, recorder), ACL_SUCCESS);
    }
    ~ScopedAbortCallback() { aclrtSetDeviceTaskAbortCallback(name_.c_str(), nullptr, nullptr); }

 private:
    std::string name_;
};

}  // namespace

// ---- aclrtStreamWaitEventWithFlag ---------------------------------------------------------

TEST_F(StreamControl, WaitWithTheDefaultFlagAndNoTimeoutHoldsTheStreamUntilTheRecord) {
    ASSERT_EQ(gate_.Block(source()), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event_, source()), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEventWithFlag(held(), event_, 0, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(held(), 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ran.load(), 0);
    gate_.Open();
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(StreamControl, WaitWithTheDefaultFlagCountsItsTimeoutInSeconds) {
    // A record 30 ms late is within a 1 s timeout (it would not be within 1 ms).
    ASSERT_EQ(aclrtLaunchHostFunc(
                  source(), [](void*) { std::this_thread::sleep_for(30ms); }, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event_, source()), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEventWithFlag(held(), event_, 1, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS) << TakeErrMsg();
}

TEST_F(StreamControl, WaitWithAnUnknownFlagIsRefused) {
    EXPECT_EQ(aclrtStreamWaitEventWithFlag(held(), event_, 0, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "flag 2 is neither ACL_EVENT_WAIT_DEFAULT nor ACL_EVENT_WAIT_EXTERNAL");
}

TEST_F(StreamControl, WaitWithFlagOnABadEventOrStreamIsInvalidParam) {
    EXPECT_EQ(aclrtStreamWaitEventWithFlag(held(), nullptr, 0, ACL_EVENT_WAIT_DEFAULT),
              ACL_ERROR_INVALID_PARAM);
    aclrtStream gone = nullptr;
    ASSERT_EQ(aclrtCreateStream(&gone), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(gone), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamWaitEventWithFlag(gone, event_, 1, ACL_EVENT_WAIT_DEFAULT),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
}

TEST_F(StreamControl, AnExternalWaitOutsideACaptureIsStreamNotCaptured) {
    aclrtEvent external = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&external, ACL_EVENT_SYNC), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamWaitEventWithFlag(held(), external, 0, ACL_EVENT_WAIT_EXTERNAL),
              ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    EXPECT_THAT_MESSAGE_CONTAINS("only valid while stream");
    aclrtDestroyEvent(external);
}

TEST_F(StreamControl, AnExternalWaitTakesNoTimeout) {
    aclrtEvent external = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&external, ACL_EVENT_SYNC), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamWaitEventWithFlag(held(), external, 5, ACL_EVENT_WAIT_EXTERNAL),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout 5 s is invalid with ACL_EVENT_WAIT_EXTERNAL");
    aclrtDestroyEvent(external);
}

TEST_F(StreamControl, AnExternalWaitTakesOnlyExEventsWithSyncAlone) {
    ASSERT_EQ(aclmdlRICaptureBegin(held(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    aclrtEvent timed = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&timed, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE),
              ACL_SUCCESS);
    for (aclrtEvent event : {event_, timed}) {
        EXPECT_EQ(aclrtStreamWaitEventWithFlag(held(), event, 0, ACL_EVENT_WAIT_EXTERNAL),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("aclrtCreateEventExWithFlag with ACL_EVENT_SYNC alone");
    }
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(held(), &model), ACL_SUCCESS);
    aclmdlRIDestroy(model);
    aclrtDestroyEvent(timed);
}

TEST_F(StreamControl, AnExternalWaitInACaptureWaitsForTheOutsideRecordAtEachReplay) {
    aclrtEvent external = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&external, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(held(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEventWithFlag(held(), external, 0, ACL_EVENT_WAIT_EXTERNAL),
              ACL_SUCCESS)
        << TakeErrMsg();
    std::atomic<int> runs{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), Increment, &runs), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(held(), &model), ACL_SUCCESS);
    EXPECT_EQ(runs.load(), 0) << "capturing runs nothing";

    ASSERT_EQ(gate_.Block(source()), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(external, source()), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, held()), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(held(), 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        << "the replay waits for the record outside the graph";
    EXPECT_EQ(runs.load(), 0);
    gate_.Open();
    ASSERT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(runs.load(), 1);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyEvent(external);
}

TEST_F(StreamControl, AnExternalWaitForARecordOfTheSameCaptureIsRefused) {
    aclrtEvent external = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&external, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(held(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(external, held()), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamWaitEventWithFlag(held(), external, 0, ACL_EVENT_WAIT_EXTERNAL),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("last recorded in this same capture");
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(held(), &model), ACL_SUCCESS);
    aclmdlRIDestroy(model);
    aclrtDestroyEvent(external);
}

// ---- aclrtStreamStop ------------------------------------------------------------------------

TEST_F(StreamControl, StopEndsTheWaitingTaskWithTaskAbortStopAndKeepsTheQueuedOnes) {
    HoldWithAWait();
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamStop(held()), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_ERROR_RT_TASK_ABORT_STOP);
    EXPECT_THAT_MESSAGE_CONTAINS("stopped by aclrtStreamStop");
    EXPECT_EQ(ran.load(), 1) << "the queued host function ran (ACL_CONTINUE_ON_FAILURE)";
    EXPECT_FALSE(gate_.WaitLeft(1, 0ms)) << "the stop did not wait for the event's stream";
}

TEST_F(StreamControl, AfterAStopInStopOnFailureModeTheQueuedTasksAreSkipped) {
    ASSERT_EQ(aclrtSetStreamFailureMode(held(), ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    HoldWithAWait();
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamStop(held()), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_ERROR_RT_TASK_ABORT_STOP);
    EXPECT_EQ(ran.load(), 0);
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS) << "reported, the stream runs again";
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(StreamControl, StoppingAStreamWithNothingRunningSucceedsAndChangesNothing) {
    ASSERT_EQ(aclrtStreamStop(held()), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(StreamControl, StopRefusesTheDefaultStream) {
    EXPECT_EQ(aclrtStreamStop(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("does not take the default stream (NULL)");
    aclrtStream default_stream = nullptr;
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default_stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamStop(default_stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("does not take the default stream");
}

TEST_F(StreamControl, StopAndAbortOfADestroyedStreamAreInvalidParam) {
    aclrtStream gone = nullptr;
    ASSERT_EQ(aclrtCreateStream(&gone), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(gone), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamStop(gone), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
    EXPECT_EQ(aclrtStreamAbort(gone), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
}

TEST_F(StreamControl, StopAndAbortRefuseACapturedStream) {
    ASSERT_EQ(aclmdlRICaptureBegin(held(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamStop(held()), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_THAT_MESSAGE_CONTAINS("end the capture first");
    EXPECT_EQ(aclrtStreamAbort(held()), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlRICaptureEnd");
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(held(), &model), ACL_SUCCESS);
    aclmdlRIDestroy(model);
}

TEST_F(StreamControl, StopAndAbortRefuseAStreamBoundToAModelBeingBuilt) {
    aclrtStream persistent = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model, persistent, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamStop(persistent), ACL_ERROR_RT_STREAM_MODEL);
    EXPECT_THAT_MESSAGE_CONTAINS("does not take model streams");
    EXPECT_EQ(aclrtStreamAbort(persistent), ACL_ERROR_RT_STREAM_MODEL);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlRIAbort");
    ASSERT_EQ(aclmdlRIEndTask(model, persistent), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
    aclmdlRIUnbindStream(model, persistent);
    aclmdlRIDestroy(model);
    aclrtDestroyStream(persistent);
}

TEST_F(StreamControl, StopAndAbortRefuseADeviceOnlyStream) {
    aclrtStream device_only = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&device_only, 0, ACL_STREAM_DEVICE_USE_ONLY),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamStop(device_only), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_STREAM_DEVICE_USE_ONLY");
    EXPECT_EQ(aclrtStreamAbort(device_only), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_STREAM_DEVICE_USE_ONLY");
    aclrtDestroyStream(device_only);
}

// ---- aclrtStreamAbort -----------------------------------------------------------------------

TEST_F(StreamControl, AbortDiscardsTheQueuedTasksAndStopsTheWaitingOne) {
    HoldWithAWait();
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), Increment, &ran), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(held(), Increment, &ran), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamAbort(held()), ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
    ASSERT_EQ(aclrtStreamQuery(held(), &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE) << "nothing is left once the abort returns";
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    gate_.Open();
    ASSERT_EQ(aclrtSynchronizeStream(source()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0);
}

TEST_F(StreamControl, TheStreamRunsWhatIsSubmittedAfterTheAbort) {
    HoldWithAWait();
    ASSERT_EQ(aclrtStreamAbort(held()), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(StreamControl, AThreadBlockedInSynchronizeStreamReturnsStreamAbort) {
    HoldWithAWait();
    std::atomic<int> result{-1};
    std::atomic<int> timed_result{-1};
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    auto wait = [&](std::atomic<int>* out, bool with_timeout) {
        aclrtSetCurrentContext(context);
        *out = with_timeout ? aclrtSynchronizeStreamWithTimeout(held(), 5000)
                            : aclrtSynchronizeStream(held());
    };
    std::thread waiter(wait, &result, false);
    std::thread timed_waiter(wait, &timed_result, true);
    std::this_thread::sleep_for(20ms);  // both are blocked by now (the stream cannot finish)
    EXPECT_EQ(result.load(), -1);
    ASSERT_EQ(aclrtStreamAbort(held()), ACL_SUCCESS);
    // Were the abort to leave them blocked, opening the gate ends their wait (and the test).
    if (!WaitUntil([&] { return result.load() != -1 && timed_result.load() != -1; })) gate_.Open();
    waiter.join();
    timed_waiter.join();
    EXPECT_EQ(result.load(), ACL_ERROR_RT_STREAM_ABORT);
    EXPECT_EQ(timed_result.load(), ACL_ERROR_RT_STREAM_ABORT);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS) << "the next wait is an ordinary one";
}

TEST_F(StreamControl, AThreadBlockedInSynchronizeEventOnADiscardedRecordReturnsStreamAbort) {
    HoldWithAWait();
    aclrtEvent behind = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&behind, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(behind, held()), ACL_SUCCESS);  // queued behind the wait
    std::atomic<int> result{-1};
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::thread waiter([&] {
        aclrtSetCurrentContext(context);
        result = aclrtSynchronizeEvent(behind);
    });
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(result.load(), -1);
    ASSERT_EQ(aclrtStreamAbort(held()), ACL_SUCCESS);
    if (!WaitUntil([&] { return result.load() != -1; })) {
        ADD_FAILURE() << "aclrtSynchronizeEvent still waits for a record the abort discarded";
        ASSERT_EQ(aclrtRecordEvent(behind, source()), ACL_SUCCESS);  // ends the wait
    }
    waiter.join();
    EXPECT_EQ(result.load(), ACL_ERROR_RT_STREAM_ABORT);
    aclrtDestroyEvent(behind);
}

TEST_F(StreamControl, AThreadBlockedInSynchronizeDeviceDuringAStreamAbortReturnsStreamAbort) {
    HoldWithAWait();
    std::atomic<int> result{-1};
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::thread waiter([&] {
        aclrtSetCurrentContext(context);
        result = aclrtSynchronizeDevice();
    });
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(result.load(), -1);
    ASSERT_EQ(aclrtStreamAbort(held()), ACL_SUCCESS);
    gate_.Open();  // the source stream finishes: only the abort is left to report
    waiter.join();
    EXPECT_EQ(result.load(), ACL_ERROR_RT_STREAM_ABORT);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS) << "the next wait is an ordinary one";
}

TEST_F(StreamControl, AbortWaitsForATaskAlreadyExecutingAndDiscardsWhatFollowsIt) {
    ASSERT_EQ(gate_.Block(held()), ACL_SUCCESS);  // a host function: it cannot be interrupted
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    ASSERT_TRUE(gate_.WaitEntered());
    const auto start = Clock::now();  // before the opener's sleep begins: a firm lower bound
    std::thread opener([&] {
        std::this_thread::sleep_for(30ms);
        gate_.Open();
    });
    ASSERT_EQ(aclrtStreamAbort(held()), ACL_SUCCESS);
    EXPECT_GE(Clock::now() - start, 30ms) << "the abort returned before the running task ended";
    opener.join();
    EXPECT_EQ(gate_.left(), 1);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0);
}

TEST_F(StreamControl, TheErrorsOfAbortedWorkAreDropped) {
    ASSERT_EQ(aclrtSetStreamFailureMode(held(), ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(held(), Throw, nullptr), ACL_SUCCESS);
    HoldWithAWait();
    ASSERT_EQ(aclrtStreamAbort(held()), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(ran.load(), 1) << "the stream is back in service, not stopped on the old failure";
}

TEST_F(StreamControl, AbortFromATaskOfTheSameDeviceIsRefusedInsteadOfWaitingForItself) {
    struct Call {
        aclrtContext context;
        aclrtStream stream;
        std::atomic<aclError> stream_abort{-1};
        std::atomic<aclError> device_abort{-1};
    } call;
    ASSERT_EQ(aclrtGetCurrentContext(&call.context), ACL_SUCCESS);
    call.stream = held();
    ASSERT_EQ(aclrtLaunchHostFunc(
                  held(),
                  [](void* arg) {
                      auto* c = static_cast<Call*>(arg);
                      aclrtSetCurrentContext(c->context);
                      c->stream_abort = aclrtStreamAbort(c->stream);
                      c->device_abort = aclrtDeviceTaskAbort(0, 0);
                  },
                  &call),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(call.stream_abort.load(), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(call.device_abort.load(), ACL_ERROR_INVALID_PARAM);
}

TEST_F(StreamControl, AbortOfNullAbortsTheDefaultStream) {
    ASSERT_EQ(gate_.Block(source()), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event_, source()), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(nullptr, event_), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, SetFlag, &ran), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamAbort(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0);
}

// ---- aclrtDeviceTaskAbort -------------------------------------------------------------------

TEST_F(StreamControl, DeviceAbortRunsThePreThenThePostCallbacksAndAbortsEveryStream) {
    AbortRecorder recorder;
    ScopedAbortCallback registered("stream-control-test", &recorder);
    std::atomic<int> ran{0};
    for (aclrtStream stream : {held(), source(), static_cast<aclrtStream>(nullptr)}) {
        HoldWithAValueWait(stream);
        ASSERT_EQ(aclrtLaunchHostFunc(stream, Increment, &ran), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_SUCCESS) << TakeErrMsg();
    ASSERT_EQ(recorder.calls.size(), 2u);
    EXPECT_EQ(recorder.calls[0].device, 0);
    EXPECT_EQ(recorder.calls[0].stage, ACL_RT_DEVICE_TASK_ABORT_PRE);
    EXPECT_EQ(recorder.calls[0].timeout, 0u) << "0: no limit, as the caller asked";
    EXPECT_EQ(recorder.calls[1].stage, ACL_RT_DEVICE_TASK_ABORT_POST);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0) << "what every stream had queued was discarded";
    ASSERT_EQ(aclrtLaunchHostFunc(held(), Increment, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1) << "the streams are back in service";
}

TEST_F(StreamControl, DeviceAbortCallbacksGetWhatIsLeftOfTheTimeout) {
    AbortRecorder recorder;
    ScopedAbortCallback registered("stream-control-test", &recorder);
    ASSERT_EQ(aclrtDeviceTaskAbort(0, 60000), ACL_SUCCESS);
    ASSERT_EQ(recorder.calls.size(), 2u);
    EXPECT_GT(recorder.calls[0].timeout, 50000u);
    EXPECT_LE(recorder.calls[0].timeout, 60000u);
    EXPECT_LE(recorder.calls[1].timeout, recorder.calls[0].timeout);
}

TEST_F(StreamControl, DuringADeviceAbortSynchronizeAnswersDeviceTaskAbortAndStopStreamAbort) {
    AbortRecorder recorder;
    aclError sync = ACL_SUCCESS, device_sync = ACL_SUCCESS, stop = ACL_SUCCESS, abort = -1;
    recorder.during = [&](aclrtDeviceTaskAbortStage stage) {
        if (stage != ACL_RT_DEVICE_TASK_ABORT_POST) return;
        sync = aclrtSynchronizeStream(held());
        device_sync = aclrtSynchronizeDevice();
        stop = aclrtStreamStop(held());
        abort = aclrtStreamAbort(held());
    };
    ScopedAbortCallback registered("stream-control-test", &recorder);
    ASSERT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_SUCCESS);
    EXPECT_EQ(sync, ACL_ERROR_RT_DEVICE_TASK_ABORT);
    EXPECT_EQ(device_sync, ACL_ERROR_RT_DEVICE_TASK_ABORT);
    EXPECT_EQ(stop, ACL_ERROR_RT_STREAM_ABORT);
    EXPECT_EQ(abort, ACL_SUCCESS) << "a stream abort leaves the device's abort to do the work";
    aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
}

TEST_F(StreamControl, DeviceAbortDiscardsTheWorkOfAReplayOnTheModelsOwnStreams) {
    // A built model: its bound stream waits for word_ == 1, then writes 5 into marker.
    aclrtStream bound = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&bound, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    void* marker = nullptr;
    ASSERT_EQ(aclrtMalloc(&marker, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(marker, 8, 0, 8), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model, bound, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWait(word_, 1, ACL_VALUE_WAIT_EQ, bound), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWrite(marker, 5, 0, bound), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIEndTask(model, bound), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, held()), ACL_SUCCESS);
    std::this_thread::sleep_for(20ms);  // the replay waits on the model's own stream

    ASSERT_EQ(aclrtDeviceTaskAbort(0, 5000), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWrite(word_, 1, 0, source()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(source()), ACL_SUCCESS);
    std::this_thread::sleep_for(20ms);
    uint64_t value = 0;
    ASSERT_EQ(aclrtMemcpy(&value, 8, marker, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(value, 0u) << "the discarded replay's wait and write never run";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS) << "no replay of it is left running";
    aclrtFree(marker);
    aclrtDestroyStream(bound);
}

TEST_F(StreamControl, ACallbackFailingAtPreStopsTheDeviceAbortBeforeAnyTaskIsTouched) {
    AbortRecorder recorder;
    recorder.answer = 7;
    ScopedAbortCallback registered("stream-control-test", &recorder);
    std::atomic<int> ran{0};
    ASSERT_EQ(gate_.Block(held()), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_DEVICE_TASK_ABORT);
    EXPECT_THAT_MESSAGE_CONTAINS("returned 7 at ACL_RT_DEVICE_TASK_ABORT_PRE");
    EXPECT_EQ(recorder.calls.size(), 1u);
    gate_.Open();
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(StreamControl, ADeviceAbortOutlastedByARunningTaskIsWaitTimeout) {
    ASSERT_EQ(gate_.Block(held()), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(held(), SetFlag, &ran), ACL_SUCCESS);
    ASSERT_TRUE(gate_.WaitEntered());
    EXPECT_EQ(aclrtDeviceTaskAbort(0, 20), ACL_ERROR_RT_WAIT_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("did not finish within 20 ms");
    gate_.Open();
    EXPECT_EQ(aclrtSynchronizeStream(held()), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0) << "what the running task held back is still discarded";
}

TEST_F(StreamControl, DeviceAbortChecksItsDeviceAndTimeout) {
    EXPECT_EQ(aclrtDeviceTaskAbort(0, 36u * 60u * 1000u + 1u), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("(36 minutes)");
    EXPECT_EQ(aclrtDeviceTaskAbort(-1, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device id -1");
    EXPECT_EQ(aclrtDeviceTaskAbort(1000, 0), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST(DeviceTaskAbortWithoutDevice, ADeviceNotInUseIsInvalidDeviceId) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_THAT_MESSAGE_CONTAINS("device 0 is not in use");
    aclFinalize();
}

TEST(DeviceTaskAbortCallbackRegistration, NamesMustBeGivenAndUnique) {
    EXPECT_EQ(aclrtSetDeviceTaskAbortCallback(nullptr, RecordAbort, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("regName is null");
    EXPECT_EQ(aclrtSetDeviceTaskAbortCallback("", RecordAbort, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("regName is empty");
    AbortRecorder recorder;
    ScopedAbortCallback registered("unique-name", &recorder);
    EXPECT_EQ(aclrtSetDeviceTaskAbortCallback("unique-name", RecordAbort, nullptr),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("already registered as \"unique-name\"");
    EXPECT_EQ(aclrtSetDeviceTaskAbortCallback("never-registered", nullptr, nullptr), ACL_SUCCESS)
        << "removing a name that is not there is no error";
}

// ---- chips ----------------------------------------------------------------------------------

namespace {
// CANN documents stopping and aborting for the Ascend 950 and Atlas A2/A3 only.
class StreamControlOn310P : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};
class StreamControlOn950 : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend950PR"};
};
}  // namespace

TEST_F(StreamControlOn310P, StopAbortAndDeviceAbortAreFeatureNotSupport) {
    ScopedStream stream;
    EXPECT_EQ(aclrtStreamStop(stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtStreamStop is not available on Ascend310P3");
    EXPECT_EQ(aclrtStreamAbort(stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("Atlas A2/A3");
    EXPECT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtDeviceTaskAbort is not available");
}

TEST_F(StreamControlOn950, AbortRefusesTheDefaultAndPersistentStreams) {
    EXPECT_EQ(aclrtStreamAbort(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("does not take the default stream");
    aclrtStream persistent = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamAbort(persistent), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_STREAM_PERSISTENT");
    aclrtDestroyStream(persistent);
    ScopedStream stream;
    EXPECT_EQ(aclrtStreamAbort(stream), ACL_SUCCESS);
}
