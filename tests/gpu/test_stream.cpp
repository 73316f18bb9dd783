// Streams on the CUDA backend are in-order queues: copies, fills, kernels and host functions run
// in the order they were issued; a synchronisation with a timeout says when it ran out.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "gpu_kernels.h"
#include "gpu_test_support.h"

using namespace gpu_test;

namespace {

class GpuStream : public GpuKernelTest {};

// What the host function of step i checks: the step's two device-to-host copies have landed.
struct Step {
    const uint64_t* after_fill = nullptr;  // pinned: the slot read back after the memset
    const uint64_t* after_copy = nullptr;  // pinned: the slot read back after H2D + D2D
    uint64_t expected = 0;
    uint8_t fill = 0;
    std::atomic<int>* next = nullptr;  // the step the stream should be at
    int index = 0;
    std::atomic<int>* errors = nullptr;
};

void CheckStep(void* arg) {
    auto* step = static_cast<Step*>(arg);
    uint64_t filled;
    std::memset(&filled, step->fill, sizeof filled);
    const bool in_order = step->next->load() == step->index;
    if (!in_order || *step->after_fill != filled || *step->after_copy != step->expected) {
        step->errors->fetch_add(1);
    }
    step->next->store(step->index + 1);
}

TEST_F(GpuStream, ThousandsOfInterleavedTasksRunInIssueOrder) {
    constexpr int kSteps = 2000;  // 6 tasks each: 12,000 tasks on one stream
    DeviceBuffer a(sizeof(uint64_t)), b(sizeof(uint64_t));
    PinnedBuffer values(kSteps * sizeof(uint64_t));
    PinnedBuffer after_fill(kSteps * sizeof(uint64_t));
    PinnedBuffer after_copy(kSteps * sizeof(uint64_t));
    std::vector<Step> steps(kSteps);
    std::atomic<int> next{0}, errors{0};
    for (int i = 0; i < kSteps; ++i) {
        values.as<uint64_t>()[i] = 0x1000000000ull * (i + 1) + i;
        after_fill.as<uint64_t>()[i] = after_copy.as<uint64_t>()[i] = 0;
        steps[i] = Step{&after_fill.as<uint64_t>()[i],
                        &after_copy.as<uint64_t>()[i],
                        values.as<uint64_t>()[i],
                        static_cast<uint8_t>(i * 7 + 1),
                        &next,
                        i,
                        &errors};
    }
    for (int i = 0; i < kSteps; ++i) {
        // The same two device words are reused by every step, so any reordering shows.
        ASSERT_EQ(aclrtMemsetAsync(a.get(), 8, steps[i].fill, 8, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpyAsync(&after_fill.as<uint64_t>()[i], 8, a.get(), 8,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream_),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpyAsync(a.get(), 8, &values.as<uint64_t>()[i], 8,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream_),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpyAsync(b.get(), 8, a.get(), 8, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpyAsync(&after_copy.as<uint64_t>()[i], 8, b.get(), 8,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream_),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtLaunchHostFunc(stream_, CheckStep, &steps[i]), ACL_SUCCESS)
            << RecentMessage();
    }
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_EQ(next.load(), kSteps) << "not every host function ran";
    EXPECT_EQ(errors.load(), 0) << "steps that saw another step's data or ran out of order";
}

TEST_F(GpuStream, KernelsAndCopiesRunInIssueOrder) {
    DeviceBuffer word(sizeof(uint64_t));
    ACL_ASSERT(aclrtMemset(word.get(), 8, 0, 8));
    // The kernel writes 1 after 20 ms; the memset queued behind it must come after it.
    ACL_ASSERT(Spin(20'000'000, stream_, word.get(), 1));
    ACL_ASSERT(aclrtMemsetAsync(word.get(), 8, 0x22, 8, stream_));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_EQ(Download<uint64_t>(word.get(), 1)[0], 0x2222222222222222ull);
}

TEST_F(GpuStream, SynchronizeWithTimeoutReportsTheTimeout) {
    ACL_ASSERT(Spin(500'000'000, stream_));  // 0.5 s of GPU work
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 5000), ACL_SUCCESS) << RecentMessage();
}

TEST_F(GpuStream, StreamsKeepTheirPriorityAndRunTheirWork) {
    aclrtStream high = nullptr, low = nullptr;
    ACL_ASSERT(aclrtCreateStreamWithConfig(&high, 0, 0));
    ACL_ASSERT(aclrtCreateStreamWithConfig(&low, 7, 0));
    uint32_t priority = 99;
    ACL_EXPECT(aclrtStreamGetPriority(high, &priority));
    EXPECT_EQ(priority, 0u);
    ACL_EXPECT(aclrtStreamGetPriority(low, &priority));
    EXPECT_EQ(priority, 7u);
    DeviceBuffer words(2 * sizeof(uint64_t));
    ACL_ASSERT(aclrtMemsetAsync(words.get(), 8, 0x11, 8, high));
    ACL_ASSERT(aclrtMemsetAsync(words.as<uint8_t>() + 8, 8, 0x77, 8, low));
    ACL_ASSERT(aclrtSynchronizeStream(high));
    ACL_ASSERT(aclrtSynchronizeStream(low));
    const auto out = Download<uint64_t>(words.get(), 2);
    EXPECT_EQ(out[0], 0x1111111111111111ull);
    EXPECT_EQ(out[1], 0x7777777777777777ull);
    ACL_EXPECT(aclrtDestroyStream(high));
    ACL_EXPECT(aclrtDestroyStream(low));
}

}  // namespace
