// Events on the CUDA backend: record, query and synchronise; timing where ACL_EVENT_TIME_LINE
// asks for it; aclrtStreamWaitEvent orders one stream after another.
#include <gtest/gtest.h>

#include <cstdint>

#include "acl/acl.h"
#include "gpu_kernels.h"
#include "gpu_test_support.h"

using namespace gpu_test;

namespace {

class GpuEvent : public GpuKernelTest {
 protected:
    void TearDown() override {
        for (aclrtEvent e : events_)
            EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
        GpuKernelTest::TearDown();
    }
    aclrtEvent Event(uint32_t flags = 0) {
        aclrtEvent e = nullptr;
        const aclError rc = flags == 0 ? aclrtCreateEvent(&e) : aclrtCreateEventWithFlag(&e, flags);
        EXPECT_EQ(rc, ACL_SUCCESS) << RecentMessage();
        events_.push_back(e);
        return e;
    }
    aclrtEventRecordedStatus Status(aclrtEvent e) {
        aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        EXPECT_EQ(aclrtQueryEventStatus(e, &status), ACL_SUCCESS) << RecentMessage();
        return status;
    }

 private:
    std::vector<aclrtEvent> events_;
};

TEST_F(GpuEvent, RecordedEventIsNotReadyUntilTheWorkBeforeItIsDone) {
    aclrtEvent e = Event();
    ACL_ASSERT(Spin(200'000'000, stream_));
    ACL_ASSERT(aclrtRecordEvent(e, stream_));
    EXPECT_EQ(Status(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ACL_ASSERT(aclrtSynchronizeEvent(e));
    EXPECT_EQ(Status(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(GpuEvent, ElapsedTimeMeasuresTheKernelBetweenTwoEvents) {
    aclrtEvent start = Event(ACL_EVENT_TIME_LINE), end = Event(ACL_EVENT_TIME_LINE);
    ACL_ASSERT(aclrtRecordEvent(start, stream_));
    ACL_ASSERT(Spin(2'000'000, stream_));  // 2 ms on the GPU's clock
    ACL_ASSERT(aclrtRecordEvent(end, stream_));
    ACL_ASSERT(aclrtSynchronizeEvent(end));
    float ms = 0;
    ACL_ASSERT(aclrtEventElapsedTime(&ms, start, end));
    EXPECT_GE(ms, 1.9f);
    EXPECT_LT(ms, 200.0f);
}

TEST_F(GpuEvent, StreamWaitEventOrdersTheSecondStreamAfterTheFirst) {
    aclrtStream second = nullptr;
    ACL_ASSERT(aclrtCreateStream(&second));
    DeviceBuffer word(sizeof(uint64_t));
    PinnedBuffer seen(sizeof(uint64_t));
    ACL_ASSERT(aclrtMemset(word.get(), 8, 0, 8));
    aclrtEvent written = Event();
    // The first stream writes 42 after 100 ms; the second reads the word once the event says so.
    ACL_ASSERT(Spin(100'000'000, stream_, word.get(), 42));
    ACL_ASSERT(aclrtRecordEvent(written, stream_));
    ACL_ASSERT(aclrtStreamWaitEvent(second, written));
    ACL_ASSERT(aclrtMemcpyAsync(seen.get(), 8, word.get(), 8, ACL_MEMCPY_DEVICE_TO_HOST, second));
    ACL_ASSERT(aclrtSynchronizeStream(second));
    EXPECT_EQ(*seen.as<uint64_t>(), 42u) << "the second stream did not wait for the event";
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    ACL_EXPECT(aclrtDestroyStream(second));
}

TEST_F(GpuEvent, StreamsWithoutAWaitRunConcurrently) {
    // The counterpart of the test above: without the wait, the second stream's copy does not
    // queue behind the first stream's kernel (so the wait above is what orders them).
    aclrtStream second = nullptr;
    ACL_ASSERT(aclrtCreateStream(&second));
    DeviceBuffer word(sizeof(uint64_t));
    PinnedBuffer seen(sizeof(uint64_t));
    ACL_ASSERT(aclrtMemset(word.get(), 8, 0, 8));
    ACL_ASSERT(Spin(300'000'000, stream_, word.get(), 42));
    ACL_ASSERT(aclrtMemcpyAsync(seen.get(), 8, word.get(), 8, ACL_MEMCPY_DEVICE_TO_HOST, second));
    ACL_ASSERT(aclrtSynchronizeStream(second));
    EXPECT_EQ(*seen.as<uint64_t>(), 0u) << "the second stream waited for the first";
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    ACL_EXPECT(aclrtDestroyStream(second));
}

}  // namespace
