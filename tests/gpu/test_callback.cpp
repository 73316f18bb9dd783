// Host callbacks on the CUDA backend: aclrtLaunchCallback runs on the thread subscribed with
// aclrtSubscribeReport when it calls aclrtProcessReport; a blocking callback holds its stream;
// aclrtLaunchHostFunc runs in stream order.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "acl/acl.h"
#include "gpu_kernels.h"
#include "gpu_test_support.h"

using namespace gpu_test;
using namespace std::chrono_literals;

namespace {

// The documented set-up: a thread that loops on aclrtProcessReport in the test's context.
class GpuCallback : public GpuKernelTest {
 protected:
    void SetUp() override {
        GpuKernelTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        ACL_ASSERT(aclrtGetCurrentContext(&context_));
        reporter_ = std::thread([this] {
            aclrtSetCurrentContext(context_);
            reporter_id_.store(static_cast<uint64_t>(pthread_self()));
            while (!stop_.load()) {
                const aclError rc = aclrtProcessReport(20);
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
        if (reporter_.joinable()) reporter_.join();
        EXPECT_EQ(unexpected_.load(), ACL_SUCCESS) << "aclrtProcessReport failed unexpectedly";
        GpuKernelTest::TearDown();
    }
    uint64_t reporter() const { return reporter_id_.load(); }

 private:
    aclrtContext context_ = nullptr;
    std::thread reporter_;
    std::atomic<uint64_t> reporter_id_{0};
    std::atomic<bool> stop_{false};
    std::atomic<aclError> unexpected_{ACL_SUCCESS};
};

class GpuHostFunc : public GpuKernelTest {};

struct Calls {
    std::atomic<int> count{0};
    std::atomic<int> on_other_thread{0};
    uint64_t expected_thread = 0;
};

void CountCall(void* arg) {
    auto* calls = static_cast<Calls*>(arg);
    if (static_cast<uint64_t>(pthread_self()) != calls->expected_thread) {
        calls->on_other_thread.fetch_add(1);
    }
    calls->count.fetch_add(1);
}

TEST_F(GpuCallback, EachCallbackRunsOnceOnTheSubscribedThread) {
    ACL_ASSERT(aclrtSubscribeReport(reporter(), stream_));
    Calls calls;
    calls.expected_thread = reporter();
    constexpr int kCallbacks = 200;
    for (int i = 0; i < kCallbacks; ++i) {
        ACL_ASSERT(aclrtLaunchCallback(
            CountCall, &calls, i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, stream_));
    }
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_TRUE(WaitUntil([&] { return calls.count.load() == kCallbacks; }))
        << calls.count.load() << " of " << kCallbacks << " callbacks ran";
    EXPECT_EQ(calls.on_other_thread.load(), 0);
    ACL_EXPECT(aclrtUnSubscribeReport(reporter(), stream_));
}

TEST_F(GpuCallback, BlockingCallbackHoldsTheStreamUntilItHasRun) {
    ACL_ASSERT(aclrtSubscribeReport(reporter(), stream_));
    DeviceBuffer word(sizeof(uint64_t));
    ACL_ASSERT(aclrtMemset(word.get(), 8, 0, 8));
    std::atomic<int> callback_done{0};
    ACL_ASSERT(aclrtLaunchCallback(
        [](void* p) {
            std::this_thread::sleep_for(50ms);
            static_cast<std::atomic<int>*>(p)->store(1);
        },
        &callback_done, ACL_CALLBACK_BLOCK, stream_));
    // GPU work behind the callback: it may start only once the callback has returned.
    PinnedBuffer seen(sizeof(int));
    struct Probe {
        std::atomic<int>* done;
        int* seen;
    } probe{&callback_done, seen.as<int>()};
    *probe.seen = -1;
    ACL_ASSERT(Spin(1000, stream_, word.get(), 7));
    ACL_ASSERT(aclrtLaunchHostFunc(
        stream_,
        [](void* p) {
            auto* probe = static_cast<Probe*>(p);
            *probe->seen = probe->done->load();
        },
        &probe));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_EQ(*probe.seen, 1) << "the stream ran on before the blocking callback returned";
    EXPECT_EQ(Download<uint64_t>(word.get(), 1)[0], 7u);
    ACL_EXPECT(aclrtUnSubscribeReport(reporter(), stream_));
}

TEST_F(GpuHostFunc, HostFuncRunsAfterTheKernelBeforeIt) {
    DeviceBuffer word(sizeof(uint64_t));
    ACL_ASSERT(aclrtMemset(word.get(), 8, 0, 8));
    struct Seen {
        std::atomic<int> runs{0};
        std::chrono::steady_clock::time_point at;
    } seen;
    const auto issued = std::chrono::steady_clock::now();
    ACL_ASSERT(Spin(50'000'000, stream_, word.get(), 1));
    ACL_ASSERT(aclrtLaunchHostFunc(
        stream_,
        [](void* p) {
            auto* s = static_cast<Seen*>(p);
            s->at = std::chrono::steady_clock::now();
            s->runs.fetch_add(1);
        },
        &seen));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_EQ(seen.runs.load(), 1);
    EXPECT_GE(seen.at - issued, 45ms) << "the host function did not wait for the 50 ms kernel";
}

}  // namespace
