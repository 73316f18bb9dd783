// Streams as the asynchronous engine runs them: in-order execution within a stream,
// concurrency between streams, host synchronisation (stream and device, with timeouts),
// queries, destruction with pending work, the context a stream may be used from, and how a
// failed task is reported (failure modes). Stream creation is covered by test_context.cpp.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

using namespace async_test;

namespace {

// Device 0 set for the test (DeviceTest) under the names of what is tested.
class StreamOrder : public DeviceTest {};
class StreamSync : public DeviceTest {};
class StreamQuery : public DeviceTest {};
class DeviceSync : public DeviceTest {};
class StreamDestroy : public DeviceTest {};
class StreamFailure : public DeviceTest {};
class StreamBadInput : public DeviceTest {};

// Two worker threads whatever the machine, set before the device's executor starts.
class StreamConcurrency : public InitializedDeviceTest {
 private:
    ScopedEnv workers_{"OPENACL_WORKER_THREADS", "2"};
};

// Appends the sequence number it is given to a log, and checks a byte that the stream's
// earlier tasks wrote into pinned memory.
struct OrderLog {
    std::vector<uint32_t> sequence;
    std::vector<uint32_t> mismatches;  // steps whose byte did not hold the expected value
    const unsigned char* observed = nullptr;
};

struct OrderStep {
    OrderLog* log;
    uint32_t index;
    unsigned char expected;
};

void RecordStep(void* arg) {
    auto* step = static_cast<OrderStep*>(arg);
    step->log->sequence.push_back(step->index);
    if (step->log->observed[0] != step->expected || step->log->observed[63] != step->expected) {
        step->log->mismatches.push_back(step->index);
    }
}

// Waits for the other host function of a pair to start; passes only if both run at once.
struct Rendezvous {
    std::atomic<int> started{0};
    std::atomic<int> met{0};
};

void MeetTheOther(void* arg) {
    auto* r = static_cast<Rendezvous*>(arg);
    r->started.fetch_add(1);
    if (WaitUntil([&] { return r->started.load() == 2; }, 1500ms)) r->met.fetch_add(1);
}

std::string RecentMessage() {
    const char* text = aclGetRecentErrMsg();
    return text != nullptr ? text : "";
}

}  // namespace

// ---- order within a stream ----

TEST_F(StreamOrder, ThousandsOfMixedTasksRunInSubmissionOrder) {
    // Each step fills device memory with its own value, copies it to pinned memory and has a
    // host function check the copy: run out of order, a host function sees another step's
    // value, or the log is out of sequence.
    constexpr uint32_t kSteps = 3000;
    ScopedStream stream;
    DeviceBuffer device(64);
    PinnedBuffer pinned(64);
    std::memset(pinned.get(), 0xFF, 64);
    OrderLog log;
    log.observed = pinned.bytes();
    log.sequence.reserve(kSteps);
    std::vector<OrderStep> steps(kSteps);
    for (uint32_t i = 0; i < kSteps; ++i) {
        steps[i] = {&log, i, static_cast<unsigned char>(i % 251)};
        ASSERT_EQ(aclrtMemsetAsync(device.get(), 64, steps[i].expected, 64, stream), ACL_SUCCESS);
        ASSERT_EQ(
            aclrtMemcpyAsync(pinned.get(), 64, device.get(), 64, ACL_MEMCPY_DEVICE_TO_HOST, stream),
            ACL_SUCCESS);
        ASSERT_EQ(aclrtLaunchHostFunc(stream, RecordStep, &steps[i]), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(log.sequence.size(), kSteps);
    for (uint32_t i = 0; i < kSteps; ++i)
        ASSERT_EQ(log.sequence[i], i) << "host functions ran out of order";
    EXPECT_TRUE(log.mismatches.empty())
        << log.mismatches.size() << " steps saw another step's data, first " << log.mismatches[0];
}

TEST_F(StreamOrder, ChainedCopiesProduceTheResultOfSubmissionOrder) {
    // A rotation through three device buffers: any reordering of the copies leaves different
    // bytes behind.
    constexpr int kRounds = 1000;
    ScopedStream stream;
    DeviceBuffer a(4), b(4), c(4);
    PinnedBuffer out(12);
    const unsigned char init[3][4] = {{1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}};
    ASSERT_EQ(aclrtMemcpy(a.get(), 4, init[0], 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(b.get(), 4, init[1], 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(c.get(), 4, init[2], 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    DeviceBuffer tmp(4);
    for (int i = 0; i < kRounds; ++i) {
        // (a, b, c) <- (c, a, b); in the second-last round b's first byte is overwritten.
        ASSERT_EQ(aclrtMemcpyAsync(tmp.get(), 4, c.get(), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpyAsync(c.get(), 4, b.get(), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpyAsync(b.get(), 4, a.get(), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpyAsync(a.get(), 4, tmp.get(), 4, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
                  ACL_SUCCESS);
        if (i == kRounds - 2) {
            ASSERT_EQ(aclrtMemsetAsync(b.get(), 4, 9, 1, stream), ACL_SUCCESS);
        }
    }
    ASSERT_EQ(aclrtMemcpyAsync(out.get(), 4, a.get(), 4, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out.bytes() + 4, 4, b.get(), 4, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out.bytes() + 8, 4, c.get(), 4, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    // 1000 rotations = 333 full cycles + 1 leave (a, b, c) = (3, 1, 2); the byte written into b
    // in round 998 moved on to c in round 999.
    const unsigned char expected[12] = {3, 3, 3, 3, 1, 1, 1, 1, 9, 2, 2, 2};
    EXPECT_EQ(std::memcmp(out.get(), expected, 12), 0)
        << "got " << int(out.bytes()[0]) << int(out.bytes()[4]) << int(out.bytes()[8])
        << int(out.bytes()[9]);
}

TEST_F(StreamOrder, TheDefaultStreamRunsItsTasksInOrderToo) {
    std::vector<int> log;
    struct Step {
        std::vector<int>* log;
        int value;
    };
    std::vector<Step> steps;
    steps.reserve(500);
    for (int i = 0; i < 500; ++i) {
        steps.push_back({&log, i});
        ASSERT_EQ(aclrtLaunchHostFunc(
                      nullptr,
                      [](void* p) {
                          auto* s = static_cast<Step*>(p);
                          s->log->push_back(s->value);
                      },
                      &steps.back()),
                  ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    ASSERT_EQ(log.size(), 500u);
    for (int i = 0; i < 500; ++i)
        ASSERT_EQ(log[i], i);
}

// ---- concurrency between streams ----

TEST_F(StreamConcurrency, TwoStreamsRunAtTheSameTime) {
    ScopedStream first, second;
    Rendezvous rendezvous;
    ASSERT_EQ(aclrtLaunchHostFunc(first, MeetTheOther, &rendezvous), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(second, MeetTheOther, &rendezvous), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(first), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
    EXPECT_EQ(rendezvous.met.load(), 2) << "the streams' host functions did not overlap";
}

TEST_F(StreamConcurrency, ABlockedStreamDoesNotHoldBackAnother) {
    ScopedStream blocked, free_running;
    Gate gate;
    ASSERT_EQ(gate.Block(blocked), ACL_SUCCESS);
    ASSERT_TRUE(gate.WaitEntered());
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(free_running, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(free_running, 1000), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(blocked), ACL_SUCCESS);
}

// ---- host synchronisation ----

TEST_F(StreamSync, SynchronizeStreamWaitsForEveryTask) {
    ScopedStream stream;
    PinnedBuffer pinned(16);
    std::memset(pinned.get(), 0, 16);
    std::atomic<int> done{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(pinned.get(), 16, 0x5A, 16, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &done), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(done.load(), 1);
    EXPECT_EQ(pinned.bytes()[15], 0x5A);
}

TEST_F(StreamSync, SynchronizeWithTimeoutTimesOutWhileAHostFunctionIsBlocked) {
    ScopedStream stream;
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    auto start = Clock::now();
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    auto waited = Clock::now() - start;
    EXPECT_THAT_MESSAGE_CONTAINS("still has unfinished tasks");
    EXPECT_GE(waited, 45ms);
    EXPECT_LT(waited, 1000ms);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 2000), ACL_SUCCESS);
    EXPECT_FALSE(gate.gave_up());
}

TEST_F(StreamSync, SynchronizeWithTimeoutZeroOnlyPolls) {
    ScopedStream stream;
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, -1), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_SUCCESS) << "nothing left";
}

TEST_F(StreamSync, SynchronizingTheDefaultStreamLeavesOtherStreamsAlone) {
    ScopedStream other;
    Gate gate;
    ASSERT_EQ(gate.Block(other), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 1000), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
}

// ---- queries ----

TEST_F(StreamQuery, NotReadyWhileBlockedThenComplete) {
    ScopedStream stream;
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE) << "an empty stream is complete";
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(StreamQuery, QueryOfTheDefaultStream) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    Gate gate;
    ASSERT_EQ(gate.Block(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamQuery(nullptr, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamQuery(nullptr, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(StreamQuery, QueryReportsNoFailureAndLeavesItForTheNextSynchronize) {
    ScopedStream stream;
    DeviceBuffer dst(64);
    PinnedBuffer src(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst.get(), 64, src.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(dst.Free(), ACL_SUCCESS);
    gate.Open();
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_TRUE(WaitUntil([&] {
        return aclrtStreamQuery(stream, &status) == ACL_SUCCESS &&
               status == ACL_STREAM_STATUS_COMPLETE;
    }));
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
}

// ---- device synchronisation ----

TEST_F(DeviceSync, SynchronizeDeviceWaitsForEveryStreamOfEveryContext) {
    aclrtContext device_default = nullptr, second = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ScopedStream first;
    std::atomic<int> count{0};
    ASSERT_EQ(aclrtLaunchHostFunc(first, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(first, Increment, &count), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, Increment, &count), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    aclrtStream other_context_stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other_context_stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(other_context_stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(other_context_stream, Increment, &count), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);

    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(count.load(), 3);

    ASSERT_EQ(aclrtSetCurrentContext(second), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(other_context_stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
}

TEST_F(DeviceSync, SynchronizeDeviceWithTimeoutTimesOutOnAnyBlockedStream) {
    aclrtContext device_default = nullptr, second = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    aclrtStream blocked = nullptr;
    ASSERT_EQ(aclrtCreateStream(&blocked), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(blocked), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);

    auto start = Clock::now();
    EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("still has unfinished tasks after 50 ms");
    EXPECT_LT(Clock::now() - start, 1000ms);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(2000), ACL_SUCCESS);

    ASSERT_EQ(aclrtSetCurrentContext(second), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(blocked), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
}

TEST_F(DeviceSync, SynchronizeDeviceReportsAFailedTaskOnce) {
    ScopedStream stream;
    DeviceBuffer dst(64);
    PinnedBuffer src(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst.get(), 64, src.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(dst.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("freed before the copy ran");
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << "the failure was reported already";
}

TEST_F(DeviceSync, AStreamMayBeDestroyedWhileAnotherThreadSynchronizesTheDevice) {
    // The synchronizing thread is held by the first stream while another thread destroys the
    // second; the device synchronisation must not touch the destroyed stream afterwards.
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    ScopedStream held;
    aclrtStream doomed = nullptr;
    ASSERT_EQ(aclrtCreateStream(&doomed), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(held), ACL_SUCCESS);
    ASSERT_EQ(gate.Block(nullptr), ACL_SUCCESS);
    ASSERT_TRUE(gate.WaitEntered(2));
    std::atomic<aclError> synced{-1};
    std::thread synchronizer([&] {
        aclrtSetCurrentContext(context);
        synced.store(aclrtSynchronizeDevice());
    });
    std::this_thread::sleep_for(20ms);  // let it start waiting on the held streams
    EXPECT_EQ(aclrtDestroyStream(doomed), ACL_SUCCESS);
    for (int i = 0; i < 8; ++i) {  // reuse the freed memory
        aclrtStream fresh = nullptr;
        EXPECT_EQ(aclrtCreateStream(&fresh), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyStream(fresh), ACL_SUCCESS);
    }
    gate.Open();
    synchronizer.join();
    EXPECT_EQ(synced.load(), ACL_SUCCESS);
}

// ---- destruction with pending work ----

TEST_F(StreamDestroy, DestroyStreamWaitsForPendingTasks) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1) << "aclrtDestroyStream returned before the stream's work ran";
}

// A destroyed stream's resources are recycled once no call that began before the destroy is
// running. A report thread blocked in aclrtProcessReport, here without a timeout, holds no
// stream while it waits and must not hold that back: another thread creating and destroying
// streams meanwhile, far more of them in all than a device may hold at once (a VDEC channel
// per clip does), must not run out (the executor keeps 4 x 1984 queue slots).
TEST_F(StreamDestroy, StreamsComeAndGoWhileAReportThreadWaitsForever) {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    aclrtStream subscribed = nullptr;
    ASSERT_EQ(aclrtCreateStream(&subscribed), ACL_SUCCESS);
    std::atomic<uint64_t> reporter{0};
    std::atomic<bool> done{false};
    std::thread report([&] {
        aclrtSetCurrentContext(context);
        reporter.store(static_cast<uint64_t>(pthread_self()));
        while (!done.load())
            aclrtProcessReport(-1);  // returns when the callback below arrives
    });
    while (reporter.load() == 0)
        std::this_thread::yield();
    ASSERT_EQ(aclrtSubscribeReport(reporter.load(), subscribed), ACL_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the report thread waits
    constexpr int kStreams = 10000;
    int created = 0;
    for (; created < kStreams; ++created) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) break;
        ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
    EXPECT_EQ(created, kStreams) << aclGetRecentErrMsg();
    done.store(true);
    std::atomic<int> called{0};
    ASSERT_EQ(aclrtLaunchCallback(SetFlag, &called, ACL_CALLBACK_NO_BLOCK, subscribed),
              ACL_SUCCESS);
    report.join();
    EXPECT_EQ(aclrtUnSubscribeReport(reporter.load(), subscribed), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(subscribed), ACL_SUCCESS);
}

TEST_F(StreamDestroy, DestroyStreamWaitsForAStreamBlockedOnAnotherStream) {
    // The stream waits (through an event) on a gated stream; destroying it returns only once
    // the gate has opened and its own task has run.
    ScopedStream gated;
    aclrtStream waiting = nullptr;
    ASSERT_EQ(aclrtCreateStream(&waiting), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(gated), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, gated), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(waiting, event), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(waiting, SetFlag, &ran), ACL_SUCCESS);
    auto start = Clock::now();
    std::thread opener([&] {
        std::this_thread::sleep_for(50ms);
        gate.Open();
    });
    EXPECT_EQ(aclrtDestroyStream(waiting), ACL_SUCCESS);
    EXPECT_GE(Clock::now() - start, 50ms);
    EXPECT_EQ(ran.load(), 1);
    opener.join();
    EXPECT_EQ(aclrtSynchronizeStream(gated), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(StreamDestroy, DestroyStreamForceDiscardsPendingTasks) {
    // The stream is parked on an event of a gated stream, so nothing of it is running: a
    // forced destruction returns at once, while the gate is still closed, and its queued host
    // function never runs.
    ScopedStream gated;
    aclrtStream doomed = nullptr;
    ASSERT_EQ(aclrtCreateStream(&doomed), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(gated), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, gated), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(doomed, event), ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(doomed, SetFlag, &ran), ACL_SUCCESS);

    EXPECT_EQ(aclrtDestroyStreamForce(doomed), ACL_SUCCESS);
    EXPECT_EQ(gate.entered(), 1);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(gated), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0) << "a discarded host function ran";
    EXPECT_EQ(aclrtSynchronizeStream(doomed), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(StreamDestroy, DestroyStreamForceStillWaitsForTheRunningTask) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_TRUE(gate.WaitEntered());
    auto start = Clock::now();
    std::thread opener([&] {
        std::this_thread::sleep_for(30ms);
        gate.Open();
    });
    EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
    EXPECT_EQ(gate.left(), 1) << "returned while its running host function was still inside";
    EXPECT_GE(Clock::now() - start, 30ms);
    opener.join();
}

// ---- the context a stream is used from ----

TEST_F(StreamBadInput, EnqueueingFromAThreadWithAnotherContextIsStreamContext) {
    ScopedStream stream;
    PinnedBuffer host(16);
    DeviceBuffer device(16);
    aclrtContext owner = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&owner), ACL_SUCCESS);
    std::atomic<int> ran{0};
    aclError launch = ACL_SUCCESS, copy = ACL_SUCCESS,
             launch_after_switch = ACL_ERROR_INVALID_PARAM;
    std::string launch_message, copy_message;
    std::thread([&] {
        aclrtContext own = nullptr;
        ASSERT_EQ(aclrtCreateContext(&own, 0), ACL_SUCCESS);
        launch = aclrtLaunchHostFunc(stream, SetFlag, &ran);
        launch_message = RecentMessage();
        copy =
            aclrtMemcpyAsync(device.get(), 16, host.get(), 16, ACL_MEMCPY_HOST_TO_DEVICE, stream);
        copy_message = RecentMessage();
        ASSERT_EQ(aclrtSetCurrentContext(owner), ACL_SUCCESS);
        launch_after_switch = aclrtLaunchHostFunc(stream, SetFlag, &ran);
        EXPECT_EQ(aclrtDestroyContext(own), ACL_SUCCESS);
    }).join();
    EXPECT_EQ(launch, ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_NE(launch_message.find("aclrtSetCurrentContext"), std::string::npos) << launch_message;
    EXPECT_EQ(copy, ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_NE(copy_message.find("aclrtSetCurrentContext"), std::string::npos) << copy_message;
    EXPECT_EQ(launch_after_switch, ACL_SUCCESS) << "after aclrtSetCurrentContext it is accepted";
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1) << "only the accepted launch ran";
}

TEST_F(StreamBadInput, ThreadWithoutAContextCannotUseAStream) {
    ScopedStream stream;
    aclError rc = ACL_SUCCESS;
    std::atomic<int> ran{0};
    std::thread([&] { rc = aclrtLaunchHostFunc(stream, SetFlag, &ran); }).join();
    EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 0);
}

// ---- failures of asynchronous tasks ----

TEST_F(StreamFailure, CopyIntoMemoryFreedBeforeItRanFailsTheNextSynchronize) {
    ScopedStream stream;
    DeviceBuffer dst(64);
    PinnedBuffer src(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst.get(), 64, src.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(dst.Free(), ACL_SUCCESS) << "freeing does not wait for the stream";
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    EXPECT_EQ(ACL_ERROR_RT_COPY_DATA, 507052);
    EXPECT_THAT_MESSAGE_CONTAINS("the destination was freed before the copy ran");
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << "a failure is reported once";
}

TEST_F(StreamFailure, CopyFromMemoryFreedBeforeItRanNamesTheSource) {
    ScopedStream stream;
    PinnedBuffer dst(64);
    DeviceBuffer src(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst.get(), 64, src.get(), 64, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(src.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("the source was freed before the copy ran");
}

TEST_F(StreamFailure, FillOfMemoryFreedBeforeItRanFailsTheNextSynchronize) {
    ScopedStream stream;
    DeviceBuffer target(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(target.get(), 64, 0, 64, stream), ACL_SUCCESS);
    ASSERT_EQ(target.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("freed before the fill ran");
}

TEST_F(StreamFailure, ByDefaultLaterTasksStillRunAfterAFailure) {
    ScopedStream stream;
    DeviceBuffer dst(64);
    PinnedBuffer src(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst.get(), 64, src.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &ran), ACL_SUCCESS);
    ASSERT_EQ(dst.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    EXPECT_EQ(ran.load(), 1) << "ACL_CONTINUE_ON_FAILURE is the default";
}

TEST_F(StreamFailure, StopOnFailureSkipsTheStreamsLaterTasksButNotOtherStreams) {
    aclrtContext device_default = nullptr, other_context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    // A stream of another context: ACL_STOP_ON_FAILURE is documented to stop the failing
    // stream's own context only.
    ASSERT_EQ(aclrtCreateContext(&other_context, 0), ACL_SUCCESS);
    aclrtStream bystander = nullptr;
    ASSERT_EQ(aclrtCreateStream(&bystander), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);

    ScopedStream stream;
    ASSERT_EQ(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    DeviceBuffer dst(64);
    PinnedBuffer src(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst.get(), 64, src.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    std::atomic<int> skipped{0}, bystander_ran{0}, after_report{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &skipped), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &skipped), ACL_SUCCESS);
    ASSERT_EQ(dst.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    EXPECT_EQ(skipped.load(), 0) << "tasks after the failure ran despite ACL_STOP_ON_FAILURE";

    ASSERT_EQ(aclrtSetCurrentContext(other_context), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(bystander, SetFlag, &bystander_ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(bystander), ACL_SUCCESS);
    EXPECT_EQ(bystander_ran.load(), 1);
    EXPECT_EQ(aclrtDestroyStream(bystander), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(other_context), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);

    // Once the failure has been reported the stream runs again.
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &after_report), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(after_report.load(), 1);
}

TEST_F(StreamFailure, FailureModeCanBeSetOnlyOnce) {
    ScopedStream stream;
    EXPECT_EQ(aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("may be set once");
    EXPECT_EQ(aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_INVALID_PARAM);
}

TEST_F(StreamFailure, UnknownFailureModeIsInvalidParam) {
    ScopedStream stream;
    EXPECT_EQ(aclrtSetStreamFailureMode(stream, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("neither ACL_CONTINUE_ON_FAILURE nor ACL_STOP_ON_FAILURE");
    EXPECT_EQ(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE), ACL_SUCCESS)
        << "a refused mode does not count as set";
}

// ---- bad input ----

TEST_F(StreamBadInput, DestroyedStreamIsRefusedByEveryAsyncCall) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    PinnedBuffer host(16);
    DeviceBuffer device(16);
    std::atomic<int> ran{0};
    aclrtStreamStatus status;
    EXPECT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &ran), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
    EXPECT_EQ(aclrtMemcpyAsync(device.get(), 16, host.get(), 16, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemsetAsync(device.get(), 16, 0, 16, stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtStreamQuery(stream, &status), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 10), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(ran.load(), 0);
}

TEST_F(StreamBadInput, PointerThatIsNoStreamIsRefused) {
    int not_a_stream = 0;
    EXPECT_EQ(aclrtSynchronizeStream(&not_a_stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live stream");
    aclrtStreamStatus status;
    EXPECT_EQ(aclrtStreamQuery(&not_a_stream, &status), ACL_ERROR_INVALID_PARAM);
}

TEST_F(StreamBadInput, TimeoutBelowMinusOneIsInvalidParam) {
    ScopedStream stream;
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, -2), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("timeout -2 ms is invalid");
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, INT32_MIN), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(-5), ACL_ERROR_INVALID_PARAM);
}

TEST_F(StreamBadInput, QueryWithANullStatusIsInvalidParam) {
    ScopedStream stream;
    EXPECT_EQ(aclrtStreamQuery(stream, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("status is null");
}

TEST_F(StreamBadInput, DestroyingAStreamOfAnotherContextIsStreamContext) {
    aclrtContext device_default = nullptr, second = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&device_default), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtSetCurrentContext");
    ASSERT_EQ(aclrtSetCurrentContext(device_default), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS) << "the refused call left it alive";
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
}
