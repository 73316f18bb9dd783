// Events: creation and flags, record and query, host synchronisation, cross-stream waits (also
// across contexts), re-recording, reset, timing, destruction and handle checks.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <set>
#include <thread>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

using namespace async_test;

namespace {

// Device 0 set for the test (DeviceTest) under the names of what is tested.
class EventCreate : public DeviceTest {};
class EventRecord : public DeviceTest {};
class EventSync : public DeviceTest {};
class EventWait : public DeviceTest {};
class EventReset : public DeviceTest {};
class EventTiming : public DeviceTest {};
class EventDestroy : public DeviceTest {};
class EventInfo : public DeviceTest {};

// An event destroyed at scope exit.
class ScopedEvent {
 public:
    ScopedEvent() { EXPECT_EQ(aclrtCreateEvent(&event_), ACL_SUCCESS); }
    explicit ScopedEvent(uint32_t flags, bool reusable = false) {
        EXPECT_EQ(reusable ? aclrtCreateEventExWithFlag(&event_, flags)
                           : aclrtCreateEventWithFlag(&event_, flags),
                  ACL_SUCCESS);
    }
    ~ScopedEvent() {
        if (event_ != nullptr) aclrtDestroyEvent(event_);
    }
    ScopedEvent(const ScopedEvent&) = delete;
    ScopedEvent& operator=(const ScopedEvent&) = delete;
    operator aclrtEvent() const { return event_; }  // NOLINT: used like a handle

 private:
    aclrtEvent event_ = nullptr;
};

aclrtEventRecordedStatus Status(aclrtEvent event) {
    aclrtEventRecordedStatus status = static_cast<aclrtEventRecordedStatus>(-1);
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    return status;
}

}  // namespace

// ---- creation ----

TEST_F(EventCreate, EveryCreateVariantGivesAnEvent) {
    aclrtEvent plain = nullptr, flagged = nullptr, reusable = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&plain), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&flagged, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventExWithFlag(&reusable, ACL_EVENT_SYNC), ACL_SUCCESS);
    EXPECT_NE(plain, nullptr);
    EXPECT_NE(plain, flagged);
    EXPECT_NE(flagged, reusable);
    for (aclrtEvent event : {plain, flagged, reusable}) {
        EXPECT_EQ(aclrtRecordEvent(event, nullptr), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    }
}

TEST_F(EventCreate, EveryKnownFlagIsAccepted) {
    for (uint32_t flag : {ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS, ACL_EVENT_TIME_LINE,
                          ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL, ACL_EVENT_IPC}) {
        SCOPED_TRACE(flag);
        aclrtEvent event = nullptr;
        EXPECT_EQ(aclrtCreateEventExWithFlag(&event, flag), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
        if (flag == ACL_EVENT_IPC) {
            // CANN documents IPC events for aclrtCreateEventExWithFlag only.
            EXPECT_EQ(aclrtCreateEventWithFlag(&event, flag), ACL_ERROR_INVALID_PARAM);
            continue;
        }
        EXPECT_EQ(aclrtCreateEventWithFlag(&event, flag), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    }
}

TEST_F(EventCreate, ZeroFlagIsInvalidParam) {
    aclrtEvent event = nullptr;
    EXPECT_EQ(aclrtCreateEventWithFlag(&event, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("flag 0x0 is not a combination of ACL_EVENT_* flags");
    EXPECT_EQ(aclrtCreateEventExWithFlag(&event, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(event, nullptr);
}

TEST_F(EventCreate, UnknownFlagIsInvalidParam) {
    aclrtEvent event = nullptr;
    EXPECT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC | 0x80u), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("flag 0x81");
    EXPECT_EQ(aclrtCreateEventExWithFlag(&event, 0x4u), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(event, nullptr);
}

TEST_F(EventCreate, NullOutputIsInvalidParam) {
    EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("event is null");
    EXPECT_EQ(aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtCreateEventExWithFlag(nullptr, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
}

TEST(EventWithoutContext, CreateEventIsContextNull) {
    aclrtEvent event = nullptr;
    EXPECT_EQ(aclrtCreateEvent(&event), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtCreateEvent failed");
}

// ---- record and query ----

TEST_F(EventRecord, QueryIsNotReadyWhileTheStreamIsBlockedThenComplete) {
    ScopedStream stream;
    ScopedEvent event;
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(EventRecord, DeprecatedQueryEventUsesTheInvertedEnum) {
    // aclrtEventStatus has COMPLETE = 0 and NOT_READY = 1; aclrtEventRecordedStatus the other
    // way round.
    ASSERT_EQ(ACL_EVENT_STATUS_COMPLETE, 0);
    ASSERT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, 1);
    ScopedStream stream;
    ScopedEvent event;
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
    ASSERT_EQ(aclrtQueryEvent(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtQueryEvent(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
}

TEST_F(EventRecord, QueryEventWaitStatusFollowsTheRecordedWork) {
    ScopedStream stream;
    ScopedEvent event;
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
    ASSERT_EQ(aclrtQueryEventWaitStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    ASSERT_EQ(aclrtQueryEventWaitStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_COMPLETE);
}

TEST_F(EventRecord, RecordCapturesOnlyTheWorkSubmittedBeforeIt) {
    ScopedStream stream;
    ScopedEvent event;
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE)
        << "work queued after the record does not make the event pending again";
    gate.Open();
}

TEST_F(EventRecord, RecordOnTheDefaultStream) {
    ScopedEvent event;
    Gate gate;
    ASSERT_EQ(gate.Block(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, nullptr), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(EventRecord, ReusableEventIsCompleteBeforeItsFirstRecord) {
    ScopedEvent event(ACL_EVENT_SYNC, true);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(EventRecord, RecordWithFlagDefaultRecords) {
    ScopedStream stream;
    ScopedEvent event;
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEventWithFlag(event, stream, ACL_EVENT_RECORD_DEFAULT), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
}

TEST_F(EventRecord, RecordWithFlagExternalOutsideCaptureIsInvalidParam) {
    ScopedEvent event;
    EXPECT_EQ(aclrtRecordEventWithFlag(event, nullptr, ACL_EVENT_RECORD_EXTERNAL),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("only valid while a stream is being captured");
    EXPECT_EQ(aclrtRecordEventWithFlag(event, nullptr, 7), ACL_ERROR_INVALID_PARAM);
}

TEST_F(EventRecord, RecordOnAStreamOfAnotherContextIsStreamContext) {
    aclrtContext device_default = nullptr, second = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ScopedStream stream;
    ScopedEvent event;
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtRecordEvent(event, stream), ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtSetCurrentContext");
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
}

// ---- host synchronisation ----

TEST_F(EventSync, SynchronizeEventWaitsForTheRecordedWork) {
    ScopedStream stream;
    ScopedEvent event;
    std::atomic<int> done{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &done), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    EXPECT_EQ(done.load(), 1);
}

TEST_F(EventSync, SynchronizeEventDoesNotWaitForWorkQueuedAfterTheRecord) {
    ScopedStream stream;
    ScopedEvent event;
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 1000), ACL_SUCCESS);
    gate.Open();
}

TEST_F(EventSync, SynchronizeEventWithTimeoutTimesOutWhileTheStreamIsBlocked) {
    ScopedStream stream;
    ScopedEvent event;
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    auto start = Clock::now();
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 30), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    EXPECT_EQ(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, 507047);
    EXPECT_THAT_MESSAGE_CONTAINS("did not complete within 30 ms");
    EXPECT_GE(Clock::now() - start, 25ms);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 0), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 2000), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, -1), ACL_SUCCESS);
}

TEST_F(EventSync, SynchronizeEventWithTimeoutBelowMinusOneIsInvalidParam) {
    ScopedEvent event;
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, -2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout -2 ms is invalid");
}

TEST_F(EventSync, NeverRecordedEventSynchronizesAtOnce) {
    ScopedEvent event;
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
}

// ---- cross-stream waits ----

TEST_F(EventWait, StreamWaitEventHoldsTheWaitingStreamUntilTheRecordCompletes) {
    ScopedStream producer, consumer;
    ScopedEvent event;
    Gate gate;
    std::atomic<int> producer_done{0};
    std::atomic<int> consumer_saw{-1};
    ASSERT_EQ(gate.Block(producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(producer, SetFlag, &producer_done), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
    struct Probe {
        std::atomic<int>* producer_done;
        std::atomic<int>* consumer_saw;
    } probe{&producer_done, &consumer_saw};
    ASSERT_EQ(aclrtLaunchHostFunc(
                  consumer,
                  [](void* p) {
                      auto* probe = static_cast<Probe*>(p);
                      probe->consumer_saw->store(probe->producer_done->load());
                  },
                  &probe),
              ACL_SUCCESS);

    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(consumer_saw.load(), -1) << "the consumer ran before the producer's record";
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(consumer_saw.load(), 1) << "the consumer did not see the producer's work";
}

TEST_F(EventWait, SeveralStreamsMayWaitOnOneEvent) {
    ScopedStream producer, first, second;
    ScopedEvent event;
    Gate gate;
    std::atomic<int> ran{0};
    ASSERT_EQ(gate.Block(producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(first, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(second, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(first, Increment, &ran), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(second, Increment, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(first, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ran.load(), 0);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(first), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 2);
}

TEST_F(EventWait, TheDefaultStreamCanWait) {
    ScopedStream producer;
    ScopedEvent event;
    Gate gate;
    std::atomic<int> ran{0};
    ASSERT_EQ(gate.Block(producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(nullptr, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ran.load(), 0);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(EventWait, WaitAcrossTwoContextsOfOneDevice) {
    aclrtContext device_default = nullptr, second = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ScopedStream producer;
    ScopedEvent event;
    Gate gate;
    ASSERT_EQ(gate.Block(producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);

    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    aclrtStream consumer = nullptr;
    ASSERT_EQ(aclrtCreateStream(&consumer), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(consumer, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ran.load(), 0) << "the other context's stream ran past the wait";
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);

    EXPECT_EQ(aclrtDestroyStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
}

TEST_F(EventWait, EventWithoutSyncFlagCannotBeWaitedOn) {
    ScopedStream stream;
    ScopedEvent timeline(ACL_EVENT_TIME_LINE);
    ScopedEvent reusable_timeline(ACL_EVENT_TIME_LINE, true);
    EXPECT_EQ(aclrtStreamWaitEvent(stream, timeline), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("without ACL_EVENT_SYNC");
    EXPECT_EQ(aclrtStreamWaitEvent(stream, reusable_timeline), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("without ACL_EVENT_SYNC");
}

TEST_F(EventWait, SyncEventsOfEveryCreateVariantCanBeWaitedOn) {
    ScopedStream producer, consumer;
    ScopedEvent flagged(ACL_EVENT_SYNC), reusable(ACL_EVENT_SYNC, true);
    for (aclrtEvent event : {static_cast<aclrtEvent>(flagged), static_cast<aclrtEvent>(reusable)}) {
        Gate gate;
        std::atomic<int> ran{0};
        ASSERT_EQ(gate.Block(producer), ACL_SUCCESS);
        ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);
        ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
        ASSERT_EQ(aclrtLaunchHostFunc(consumer, SetFlag, &ran), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 20),
                  ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        EXPECT_EQ(ran.load(), 0);
        gate.Open();
        EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
        EXPECT_EQ(ran.load(), 1);
    }
}

TEST_F(EventWait, WaitOnANeverRecordedEventDoesNotHold) {
    ScopedStream stream;
    ScopedEvent event;
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtStreamWaitEvent(stream, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 1000), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(EventWait, AWaitEnqueuedBeforeAReRecordKeepsTheOldRecord) {
    ScopedStream blocked, idle, consumer;
    ScopedEvent event;
    Gate gate;
    std::atomic<int> ran{0};
    ASSERT_EQ(gate.Block(blocked), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, blocked), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(consumer, SetFlag, &ran), ACL_SUCCESS);
    // The newest record is on an idle stream and completes at once...
    ASSERT_EQ(aclrtRecordEvent(event, idle), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEventWithTimeout(event, 1000), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    // ...but the consumer still waits for the record it was given.
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ran.load(), 0);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(EventWait, AWaitEnqueuedAfterAReRecordUsesTheNewRecord) {
    ScopedStream first, second, consumer;
    ScopedEvent event;
    Gate gate;
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtRecordEvent(event, first), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    ASSERT_EQ(gate.Block(second), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, second), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(consumer, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ran.load(), 0);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(EventWait, WaitOnAStreamOfAnotherContextIsStreamContext) {
    aclrtContext device_default = nullptr, second = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ScopedStream stream;
    ScopedEvent event;
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamWaitEvent(stream, event), ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtSetCurrentContext");
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
}

// ---- reset ----

TEST_F(EventReset, ResetReturnsASyncEventToItsNeverRecordedState) {
    ScopedStream stream;
    ScopedEvent event(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    uint64_t stamp = 0;
    ASSERT_EQ(aclrtEventGetTimestamp(event, &stamp), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetEvent(event, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventGetTimestamp(event, &stamp), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID)
        << "a reset event has no record any more";
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS) << "it can be recorded again";
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventGetTimestamp(event, &stamp), ACL_SUCCESS);
}

TEST_F(EventReset, AWaitEnqueuedBeforeTheResetStillHolds) {
    ScopedStream producer, consumer;
    ScopedEvent event(ACL_EVENT_SYNC);
    Gate gate;
    std::atomic<int> ran{0};
    ASSERT_EQ(gate.Block(producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetEvent(event, consumer), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(consumer, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ran.load(), 0);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(EventReset, ReusableEventsCannotBeReset) {
    ScopedEvent event(ACL_EVENT_SYNC, true);
    EXPECT_EQ(aclrtResetEvent(event, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("cannot be reset");
}

TEST_F(EventReset, EventsWithoutTheSyncFlagCannotBeReset) {
    ScopedEvent event(ACL_EVENT_TIME_LINE);
    EXPECT_EQ(aclrtResetEvent(event, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "only events created by aclrtCreateEventWithFlag with ACL_EVENT_SYNC");
}

TEST_F(EventReset, EventsFromPlainCreateEventCannotBeReset) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetEvent(event, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("cannot be reset");
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(EventReset, ReusableEventsAreQueriedOnlyWithQueryEventStatus) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtEventStatus old_status;
    EXPECT_EQ(aclrtQueryEvent(event, &old_status), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtQueryEventStatus");
    aclrtEventWaitStatus wait_status;
    EXPECT_EQ(aclrtQueryEventWaitStatus(event, &wait_status), ACL_ERROR_INVALID_PARAM);
    aclrtEventRecordedStatus status;
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE) << "never recorded: complete";
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(EventReset, ResetOnAStreamOfAnotherContextIsStreamContext) {
    aclrtContext device_default = nullptr, second = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ScopedStream stream;
    ScopedEvent event(ACL_EVENT_SYNC);
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetEvent(event, stream), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
}

// ---- timing ----

TEST_F(EventTiming, ElapsedTimeMeasuresTheWorkBetweenTwoRecords) {
    ScopedStream stream;
    ScopedEvent start, end;
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    float ms = -1.0f;
    ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    EXPECT_GE(ms, 15.0f);
    EXPECT_LE(ms, 200.0f);
}

TEST_F(EventTiming, ElapsedTimeWorksWithTimeLineEventsOfEveryCreateVariant) {
    ScopedStream stream;
    ScopedEvent start(ACL_EVENT_TIME_LINE), end(ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC, true);
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    float ms = -1.0f;
    ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    EXPECT_GE(ms, 15.0f);
    EXPECT_LE(ms, 200.0f);
}

TEST_F(EventTiming, ElapsedTimeBeforeCompletionIsTimestampInvalid) {
    ScopedStream stream;
    ScopedEvent start, end;
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(start), ACL_SUCCESS);
    float ms = -1.0f;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("the end event has not completed");
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeEvent(end), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    EXPECT_GE(ms, 0.0f);
}

TEST_F(EventTiming, ElapsedTimeOfNeverRecordedEventsIsTimestampInvalid) {
    ScopedEvent start, end;
    float ms = -1.0f;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("the start event has not completed");
    EXPECT_EQ(ms, -1.0f);
}

TEST_F(EventTiming, ElapsedTimeRequiresTimeLineEvents) {
    ScopedStream stream;
    ScopedEvent start(ACL_EVENT_SYNC), end;
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    float ms = -1.0f;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("without ACL_EVENT_TIME_LINE");
    EXPECT_EQ(aclrtEventElapsedTime(&ms, end, start), ACL_ERROR_INVALID_PARAM);
}

TEST_F(EventTiming, ElapsedTimeWithTheEventsSwappedIsTimestampReversal) {
    ScopedStream stream;
    ScopedEvent start, end;
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    float ms = -1.0f;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, end, start), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL);
}

TEST_F(EventTiming, ElapsedTimeRejectsNullAndDestroyedArguments) {
    ScopedEvent start;
    aclrtEvent destroyed = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&destroyed), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(destroyed), ACL_SUCCESS);
    float ms = 0;
    EXPECT_EQ(aclrtEventElapsedTime(nullptr, start, start), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, nullptr, start), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, destroyed), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live event");
}

TEST_F(EventTiming, TimestampsAreOrderedAndAgreeWithElapsedTime) {
    ScopedStream stream;
    ScopedEvent start, end;
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    uint64_t t0 = 0, t1 = 0;
    ASSERT_EQ(aclrtEventGetTimestamp(start, &t0), ACL_SUCCESS);
    ASSERT_EQ(aclrtEventGetTimestamp(end, &t1), ACL_SUCCESS);
    EXPECT_GT(t1, t0);
    float ms = 0;
    ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    // Both APIs describe the same two moments: the difference of the timestamps (in ns) is
    // the elapsed time.
    EXPECT_NEAR(static_cast<double>(t1 - t0) / 1e6, ms, 0.01);
}

TEST_F(EventTiming, TimestampBeforeCompletionIsTimestampInvalid) {
    ScopedStream stream;
    ScopedEvent event;
    uint64_t stamp = 0;
    EXPECT_EQ(aclrtEventGetTimestamp(event, &stamp), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("has not completed a record yet");
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventGetTimestamp(event, &stamp), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventGetTimestamp(event, &stamp), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventGetTimestamp(event, nullptr), ACL_ERROR_INVALID_PARAM);
}

// ---- destruction ----

TEST_F(EventDestroy, DestroyingAPendingEventDoesNotBlockAndIsSafe) {
    ScopedStream producer, consumer;
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    Gate gate;
    std::atomic<int> ran{0};
    ASSERT_EQ(gate.Block(producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(consumer, SetFlag, &ran), ACL_SUCCESS);

    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(gate.left(), 0) << "destroying waited for the recorded work";
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        << "a wait enqueued before the destruction still holds";
    EXPECT_EQ(ran.load(), 0);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(producer), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(EventDestroy, DestroyedEventHandlesAreRefused) {
    ScopedStream stream;
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    aclrtEventRecordedStatus recorded;
    aclrtEventStatus status;
    uint32_t id = 0;
    uint64_t stamp = 0;
    EXPECT_EQ(aclrtRecordEvent(event, stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live event");
    EXPECT_EQ(aclrtQueryEventStatus(event, &recorded), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtQueryEvent(event, &status), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 10), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtStreamWaitEvent(stream, event), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtResetEvent(event, stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtEventGetTimestamp(event, &stamp), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetEventId(event, &id), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("already destroyed");
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << "nothing was queued";
}

TEST_F(EventDestroy, NullAndForeignHandlesAreRefused) {
    int not_an_event = 0;
    aclrtEventRecordedStatus recorded;
    EXPECT_EQ(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("event is null");
    EXPECT_EQ(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeEvent(&not_an_event), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live event");
    EXPECT_EQ(aclrtQueryEventStatus(&not_an_event, &recorded), ACL_ERROR_INVALID_PARAM);
    ScopedEvent event;
    EXPECT_EQ(aclrtQueryEventStatus(event, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("status is null");
    EXPECT_EQ(aclrtQueryEvent(event, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtQueryEventWaitStatus(event, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(EventDestroy, ResettingTheDeviceInvalidatesItsEvents) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live event");
}

// ---- ids and counts ----

TEST_F(EventInfo, EventsHaveDistinctIds) {
    ScopedEvent a, b(ACL_EVENT_SYNC), c(ACL_EVENT_SYNC, true);
    std::set<uint32_t> ids;
    for (aclrtEvent event :
         {static_cast<aclrtEvent>(a), static_cast<aclrtEvent>(b), static_cast<aclrtEvent>(c)}) {
        uint32_t id = 0;
        ASSERT_EQ(aclrtGetEventId(event, &id), ACL_SUCCESS);
        ids.insert(id);
    }
    EXPECT_EQ(ids.size(), 3u);
    uint32_t again = 0;
    ASSERT_EQ(aclrtGetEventId(a, &again), ACL_SUCCESS);
    EXPECT_EQ(ids.count(again), 1u) << "an event's id does not change";
    EXPECT_EQ(aclrtGetEventId(a, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("eventId is null");
}

TEST_F(EventInfo, AvailableEventCountFollowsCreationAndDestruction) {
    uint32_t before = 0, during = 0, after = 0;
    ASSERT_EQ(aclrtGetEventAvailNum(&before), ACL_SUCCESS);
    EXPECT_GT(before, 1000u);
    aclrtEvent first = nullptr, second = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&first), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&second, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetEventAvailNum(&during), ACL_SUCCESS);
    EXPECT_EQ(during, before - 2);
    ASSERT_EQ(aclrtDestroyEvent(first), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(second), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetEventAvailNum(&after), ACL_SUCCESS);
    EXPECT_EQ(after, before);
    EXPECT_EQ(aclrtGetEventAvailNum(nullptr), ACL_ERROR_INVALID_PARAM);
}
