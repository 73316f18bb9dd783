// Streams, events and callbacks on an accelerator device (OPENACL_BACKEND=cuda): each stream
// is a device lane; copies, fills, host functions and event records run on it in order.
#include <pthread.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "accelerator_test.h"

namespace openacl::testing {
namespace {

using namespace std::chrono_literals;
using StreamPaths = AcceleratorTest;

// Snapshots `size` bytes of host memory when the stream reaches it.
struct Snapshot {
    const void* from = nullptr;
    size_t size = 0;
    std::vector<unsigned char> bytes;
    static void Take(void* self) {
        auto* s = static_cast<Snapshot*>(self);
        const auto* p = static_cast<const unsigned char*>(s->from);
        s->bytes.assign(p, p + s->size);
    }
};

void Count(void* counter) {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

TEST_F(StreamPaths, AsyncCopiesFillsAndHostFunctionsRunInStreamOrder) {
    constexpr size_t kBytes = 256;
    auto* in = static_cast<unsigned char*>(Pinned(kBytes));
    auto* out = static_cast<unsigned char*>(Pinned(kBytes));
    std::iota(in, in + kBytes, 0);
    std::memset(out, 0xee, kBytes);
    void* d = Device(kBytes);
    Snapshot copied{out, kBytes, {}}, filled{out, kBytes, {}};
    ASSERT_EQ(aclrtMemcpyAsync(d, kBytes, in, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpyAsync(out, kBytes, d, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, &Snapshot::Take, &copied), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(d, kBytes, 0x11, kBytes, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out, kBytes, d, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, &Snapshot::Take, &filled), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(copied.bytes, std::vector<unsigned char>(in, in + kBytes));
    EXPECT_EQ(filled.bytes, std::vector<unsigned char>(kBytes, 0x11));
    EXPECT_GE(fake_->lane_copies(), 3u) << "async copies go to the device lane";
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(in), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(out), ACL_SUCCESS);
}

TEST_F(StreamPaths, Memcpy2dAsyncCopiesRowsInStreamOrder) {
    auto* src = static_cast<unsigned char*>(Pinned(18));
    auto* back = static_cast<unsigned char*>(Pinned(18));
    std::iota(src, src + 18, 1);
    std::memset(back, 0, 18);
    void* d = Device(24);
    ASSERT_EQ(aclrtMemcpy2dAsync(d, 8, src, 6, 4, 3, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpy2dAsync(back, 6, d, 8, 4, 3, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (size_t row = 0; row < 3; ++row) {
        for (size_t col = 0; col < 4; ++col)
            EXPECT_EQ(back[row * 6 + col], src[row * 6 + col]) << row << "," << col;
    }
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(src), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(back), ACL_SUCCESS);
}

TEST_F(StreamPaths, AsyncCopyToPageableMemoryIsCompleteWhenItReturns) {
    std::vector<int> in(64), out(64, -1);
    std::iota(in.begin(), in.end(), 100);
    void* d = Device(in.size() * sizeof(int));
    ASSERT_EQ(aclrtMemcpy(d, 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    std::thread opener([&] {
        std::this_thread::sleep_for(30ms);
        gate.Open();
    });
    ASSERT_EQ(aclrtMemcpyAsync(out.data(), 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out, in) << "the pageable destination was not written when the call returned";
    opener.join();
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

TEST_F(StreamPaths, SynchronizeWithTimeoutReportsTheTimeoutWhileTheStreamIsBusy) {
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 5000), ACL_SUCCESS);
}

TEST_F(StreamPaths, StreamQueryTellsWhetherQueuedWorkIsDone) {
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(StreamPaths, SynchronizeDeviceWaitsForEveryStream) {
    std::atomic<int> ran{0};
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(other), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(other, Count, &ran), ACL_SUCCESS);
    std::thread opener([&] {
        std::this_thread::sleep_for(20ms);
        gate.Open();
    });
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 1);
    opener.join();
    EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

// ---- events ----

TEST_F(StreamPaths, EventIsCompleteOnceTheStreamReachesItsRecord) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(StreamPaths, SynchronizeEventWithTimeoutReportsTheTimeout) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 5000), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

void Sleep30ms(void*) {
    std::this_thread::sleep_for(30ms);
}

TEST_F(StreamPaths, ElapsedTimeMeasuresTheWorkBetweenTwoRecords) {
    aclrtEvent start = nullptr, end = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(start, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, Sleep30ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(end, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    float ms = 0;
    ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_GE(ms, 29.0f);
    EXPECT_LT(ms, 2000.0f);
    uint64_t t0 = 0, t1 = 0;
    ASSERT_EQ(aclrtEventGetTimestamp(start, &t0), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtEventGetTimestamp(end, &t1), ACL_SUCCESS);
    EXPECT_GT(t0, 0u);
    EXPECT_GE(t1 - t0, 29000u) << "timestamps are in microseconds";
    EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(StreamPaths, StreamWaitEventHoldsAnotherStreamUntilTheRecord) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    aclrtStream consumer = nullptr;
    ASSERT_EQ(aclrtCreateStream(&consumer), ACL_SUCCESS);
    auto* in = static_cast<int*>(Pinned(sizeof(int)));
    auto* out = static_cast<int*>(Pinned(sizeof(int)));
    *in = 42;
    *out = 0;
    void* d = Device(sizeof(int));
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(d, 4, in, 4, ACL_MEMCPY_HOST_TO_DEVICE, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpyAsync(out, 4, d, 4, ACL_MEMCPY_DEVICE_TO_HOST, consumer), ACL_SUCCESS);
    std::this_thread::sleep_for(20ms);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(consumer, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(*out, 42);
    EXPECT_EQ(aclrtDestroyStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(in), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(out), ACL_SUCCESS);
}

TEST_F(StreamPaths, WaitOnANeverRecordedEventImposesNothing) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, event), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 5000), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

// ---- callbacks ----

// A thread looping on aclrtProcessReport, as the documentation sets it up.
class CallbackPaths : public AcceleratorTest {
 protected:
    void StartReporter() {
        aclrtContext context = nullptr;
        ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
        reporter_ = std::thread([this, context] {
            aclrtSetCurrentContext(context);
            reporter_id_.store(static_cast<uint64_t>(pthread_self()));
            while (!stop_.load()) {
                if (!process_.load()) {
                    std::this_thread::sleep_for(1ms);
                    continue;
                }
                aclError rc = aclrtProcessReport(20);
                if (rc == ACL_ERROR_RT_THREAD_SUBSCRIBE) std::this_thread::sleep_for(1ms);
            }
        });
        while (reporter_id_.load() == 0)
            std::this_thread::sleep_for(1ms);
        ASSERT_EQ(aclrtSubscribeReport(reporter_id_.load(), stream_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    void TearDown() override {
        process_.store(true);
        if (reporter_.joinable()) {
            EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
            EXPECT_EQ(aclrtUnSubscribeReport(reporter_id_.load(), stream_), ACL_SUCCESS);
            stop_.store(true);
            reporter_.join();
        }
        AcceleratorTest::TearDown();
    }

    std::thread reporter_;
    std::atomic<uint64_t> reporter_id_{0};
    std::atomic<bool> stop_{false};
    std::atomic<bool> process_{true};
};

TEST_F(CallbackPaths, BlockingCallbackHoldsTheStreamUntilProcessed) {
    process_.store(false);
    StartReporter();
    std::atomic<int> callbacks{0}, after{0};
    ASSERT_EQ(aclrtLaunchCallback(Count, &callbacks, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, Count, &after), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(after.load(), 0) << "work after an unprocessed blocking callback ran";
    process_.store(true);
    ASSERT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 5000), ACL_SUCCESS);
    EXPECT_EQ(callbacks.load(), 1);
    EXPECT_EQ(after.load(), 1);
}

TEST_F(CallbackPaths, NonBlockingCallbackLetsTheStreamGoOn) {
    process_.store(false);
    StartReporter();
    std::atomic<int> callbacks{0};
    ASSERT_EQ(aclrtLaunchCallback(Count, &callbacks, ACL_CALLBACK_NO_BLOCK, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 5000), ACL_SUCCESS);
    process_.store(true);
    for (int i = 0; i < 500 && callbacks.load() == 0; ++i)
        std::this_thread::sleep_for(2ms);
    EXPECT_EQ(callbacks.load(), 1);
}

void Throw(void*) {
    throw std::runtime_error("callback failure");
}

TEST_F(CallbackPaths, StopOnFailureSkipsLaterHostTasks) {
    ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    StartReporter();
    std::atomic<int> after{0};
    ASSERT_EQ(aclrtLaunchCallback(Throw, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, Count, &after), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_FAILURE);
    EXPECT_EQ(after.load(), 0) << "a host task after the failure ran despite ACL_STOP_ON_FAILURE";
    // The failure was reported: the stream runs again.
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, Count, &after), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(after.load(), 1);
}

TEST_F(CallbackPaths, WithoutStopOnFailureLaterHostTasksRun) {
    StartReporter();
    std::atomic<int> after{0};
    ASSERT_EQ(aclrtLaunchCallback(Throw, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, Count, &after), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_FAILURE);
    EXPECT_EQ(after.load(), 1);
}

TEST_F(CallbackPaths, APageableCopyLeavesAnEarlierFailureToTheNextSynchronize) {
    // As on the CPU backend: the copy waits for the stream but does not report (and so
    // swallow) a failure of earlier work; the next synchronisation does.
    StartReporter();
    std::vector<int> in(16, 9), out(16, 0);
    void* d = Device(64);
    ASSERT_EQ(aclrtMemcpy(d, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchCallback(Throw, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(out.data(), 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_FAILURE);
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

}  // namespace
}  // namespace openacl::testing
