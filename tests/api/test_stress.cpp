// The asynchronous engine under load: several host threads, each driving two streams of the
// shared default context, with about 100k tasks in all (copies between pinned and device
// buffers, fills, host functions, event records and cross-stream waits, some between threads).
// Host functions check every message as it arrives and checksums tell whether anything was
// lost, duplicated or reordered.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

using namespace async_test;

namespace {

class Stress : public DeviceTest {};

constexpr int kThreads = 4;
constexpr int kRounds = 3000;          // per thread
constexpr size_t kWords = 64;          // uint32 words per message
constexpr size_t kBytes = kWords * 4;  // one message
constexpr int kPatterns = 16;          // distinct pinned source messages per thread

// Message of round r: word 0 is the round, the others derive from it and the thread.
uint32_t Word(int thread, int round, size_t i) {
    return i == 0 ? static_cast<uint32_t>(round)
                  : static_cast<uint32_t>(round * 2654435761u + thread * 40503u + i * 97u);
}

// One host thread's pipeline:
//   producer: wait(consumed) -> host function writes the round's message into a pinned slot ->
//             copy slot -> staging (device) -> record(produced)
//   consumer: wait(produced) -> fill inbox (device) with 0 -> copy staging -> inbox ->
//             copy inbox -> outbox (pinned) -> host function checks the outbox ->
//             record(consumed)
// Every 50 rounds the consumer also waits on the previous thread's `produced` event.
struct Pipeline {
    int thread = 0;
    aclrtStream producer = nullptr, consumer = nullptr;
    aclrtEvent produced = nullptr, consumed = nullptr;
    void* staging = nullptr;
    void* inbox = nullptr;
    void* outbox = nullptr;    // pinned
    void* patterns = nullptr;  // pinned, kPatterns messages
    // Written only by the consumer stream's host functions (one at a time, in order).
    int next_round = 0;
    int out_of_order = 0;
    int corrupt = 0;
    uint64_t checksum = 0;
    std::atomic<int> checked{0};
};

struct Check {
    Pipeline* pipeline;
    int round;
    int pattern;
};

void CheckMessage(void* arg) {
    auto* check = static_cast<Check*>(arg);
    Pipeline& p = *check->pipeline;
    const auto* words = static_cast<const uint32_t*>(p.outbox);
    if (check->round != p.next_round) ++p.out_of_order;
    p.next_round = check->round + 1;
    bool intact = true;
    for (size_t i = 0; i < kWords; ++i) {
        intact = intact && words[i] == Word(p.thread, check->round, i);
        p.checksum += words[i];
    }
    if (!intact) ++p.corrupt;
    p.checked.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

TEST_F(Stress, ThreadsStreamsAndEventsLoseAndReorderNothing) {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::vector<Pipeline> pipelines(kThreads);
    std::vector<std::vector<Check>> checks(kThreads, std::vector<Check>(kRounds));
    for (int t = 0; t < kThreads; ++t) {
        Pipeline& p = pipelines[t];
        p.thread = t;
        ASSERT_EQ(aclrtCreateStream(&p.producer), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&p.consumer), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateEventWithFlag(&p.produced, ACL_EVENT_SYNC), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateEventExWithFlag(&p.consumed, ACL_EVENT_SYNC), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&p.staging, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&p.inbox, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMallocHost(&p.outbox, kBytes), ACL_SUCCESS);
        ASSERT_EQ(aclrtMallocHost(&p.patterns, kBytes * kPatterns), ACL_SUCCESS);
    }
    // Each round sends its own message, written into a pinned pattern slot by a host function
    // on the producer stream just before the copy that sends it.
    std::atomic<int> enqueue_failures{0};
    auto drive = [&](int t) {
        if (aclrtSetCurrentContext(context) != ACL_SUCCESS) {
            enqueue_failures.fetch_add(1);
            return;
        }
        Pipeline& p = pipelines[t];
        Pipeline& previous = pipelines[(t + kThreads - 1) % kThreads];
        auto ok = [&](aclError rc) {
            if (rc != ACL_SUCCESS) enqueue_failures.fetch_add(1);
        };
        for (int r = 0; r < kRounds; ++r) {
            const int slot = r % kPatterns;
            void* pattern = static_cast<char*>(p.patterns) + slot * kBytes;
            ok(aclrtStreamWaitEvent(p.producer, p.consumed));
            checks[t][r] = {&p, r, slot};
            ok(aclrtLaunchHostFunc(
                p.producer,
                [](void* arg) {
                    auto* c = static_cast<Check*>(arg);
                    auto* words =
                        static_cast<uint32_t*>(c->pipeline->patterns) + c->pattern * kWords;
                    for (size_t i = 0; i < kWords; ++i)
                        words[i] = Word(c->pipeline->thread, c->round, i);
                },
                &checks[t][r]));
            ok(aclrtMemcpyAsync(p.staging, kBytes, pattern, kBytes, ACL_MEMCPY_HOST_TO_DEVICE,
                                p.producer));
            ok(aclrtRecordEvent(p.produced, p.producer));
            ok(aclrtStreamWaitEvent(p.consumer, p.produced));
            if (r % 50 == 0) ok(aclrtStreamWaitEvent(p.consumer, previous.produced));
            ok(aclrtMemsetAsync(p.inbox, kBytes, 0, kBytes, p.consumer));
            ok(aclrtMemcpyAsync(p.inbox, kBytes, p.staging, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                p.consumer));
            ok(aclrtMemcpyAsync(p.outbox, kBytes, p.inbox, kBytes, ACL_MEMCPY_DEVICE_TO_HOST,
                                p.consumer));
            ok(aclrtLaunchHostFunc(p.consumer, CheckMessage, &checks[t][r]));
            ok(aclrtRecordEvent(p.consumed, p.consumer));
        }
    };
    auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back(drive, t);
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(enqueue_failures.load(), 0);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    auto took = Clock::now() - start;

    for (int t = 0; t < kThreads; ++t) {
        uint64_t sum = 0;
        for (int r = 0; r < kRounds; ++r) {
            for (size_t i = 0; i < kWords; ++i)
                sum += Word(t, r, i);
        }
        const Pipeline& p = pipelines[t];
        SCOPED_TRACE("thread " + std::to_string(t));
        EXPECT_EQ(p.checked.load(), kRounds) << "messages lost or duplicated";
        EXPECT_EQ(p.next_round, kRounds);
        EXPECT_EQ(p.out_of_order, 0);
        EXPECT_EQ(p.corrupt, 0) << "a message arrived different from what was sent";
        EXPECT_EQ(p.checksum, sum);
    }
    // 10 tasks per round, plus a cross-thread wait every 50 rounds.
    const int tasks = kThreads * (kRounds * 10 + kRounds / 50);
    EXPECT_GE(tasks, 100000);
    EXPECT_LT(took, std::chrono::seconds(10)) << tasks << " tasks";
    RecordProperty("tasks", tasks);
    RecordProperty(
        "milliseconds",
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));

    for (Pipeline& p : pipelines) {
        EXPECT_EQ(aclrtDestroyStream(p.producer), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyStream(p.consumer), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyEvent(p.produced), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyEvent(p.consumed), ACL_SUCCESS);
        EXPECT_EQ(aclrtFree(p.staging), ACL_SUCCESS);
        EXPECT_EQ(aclrtFree(p.inbox), ACL_SUCCESS);
        EXPECT_EQ(aclrtFreeHost(p.outbox), ACL_SUCCESS);
        EXPECT_EQ(aclrtFreeHost(p.patterns), ACL_SUCCESS);
    }
}

TEST_F(Stress, ManyStreamsFedFromManyThreadsAtOnce) {
    // 8 threads each own 4 streams and keep a running sum per stream with host functions;
    // memsets and copies between a per-stream device cell and pinned cell are interleaved.
    constexpr int kFeeders = 8, kStreamsEach = 4, kSteps = 400;
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    struct Lane {
        aclrtStream stream = nullptr;
        void* device = nullptr;
        void* pinned = nullptr;
        uint64_t sum = 0;  // of the bytes the host functions read back
        int steps = 0;
    };
    std::vector<Lane> lanes(kFeeders * kStreamsEach);
    for (Lane& lane : lanes) {
        ASSERT_EQ(aclrtCreateStream(&lane.stream), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&lane.device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMallocHost(&lane.pinned, 64), ACL_SUCCESS);
    }
    std::atomic<int> failures{0};
    std::vector<std::thread> feeders;
    for (int f = 0; f < kFeeders; ++f) {
        feeders.emplace_back([&, f] {
            if (aclrtSetCurrentContext(context) != ACL_SUCCESS) failures.fetch_add(1);
            for (int s = 0; s < kSteps; ++s) {
                for (int k = 0; k < kStreamsEach; ++k) {
                    Lane& lane = lanes[f * kStreamsEach + k];
                    int value = (s * 31 + k) % 256;
                    bool ok =
                        aclrtMemsetAsync(lane.device, 64, value, 64, lane.stream) == ACL_SUCCESS &&
                        aclrtMemcpyAsync(lane.pinned, 64, lane.device, 64,
                                         ACL_MEMCPY_DEVICE_TO_HOST, lane.stream) == ACL_SUCCESS &&
                        aclrtLaunchHostFunc(
                            lane.stream,
                            [](void* arg) {
                                auto* l = static_cast<Lane*>(arg);
                                l->sum += static_cast<const unsigned char*>(l->pinned)[63];
                                ++l->steps;
                            },
                            &lane) == ACL_SUCCESS;
                    if (!ok) failures.fetch_add(1);
                }
            }
        });
    }
    for (auto& feeder : feeders)
        feeder.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    uint64_t expected_per_k[kStreamsEach] = {};
    for (int k = 0; k < kStreamsEach; ++k) {
        for (int s = 0; s < kSteps; ++s)
            expected_per_k[k] += (s * 31 + k) % 256;
    }
    for (size_t i = 0; i < lanes.size(); ++i) {
        EXPECT_EQ(lanes[i].steps, kSteps) << "lane " << i;
        EXPECT_EQ(lanes[i].sum, expected_per_k[i % kStreamsEach]) << "lane " << i;
        EXPECT_EQ(aclrtDestroyStream(lanes[i].stream), ACL_SUCCESS);
        EXPECT_EQ(aclrtFree(lanes[i].device), ACL_SUCCESS);
        EXPECT_EQ(aclrtFreeHost(lanes[i].pinned), ACL_SUCCESS);
    }
}
