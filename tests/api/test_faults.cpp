// Faults: each ends in a defined state with a clear error, releases what it held, and leaves
// other streams and later work unaffected.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.h"

namespace {

// Copies `n` bytes host -> device -> host `rounds` times on `stream` and checks every byte.
bool CopiesRoundTrip(aclrtStream stream, size_t n, int rounds) {
    void *host_in = nullptr, *host_out = nullptr, *dev = nullptr;
    if (aclrtMallocHost(&host_in, n) != ACL_SUCCESS ||
        aclrtMallocHost(&host_out, n) != ACL_SUCCESS ||
        aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return false;
    }
    bool ok = true;
    for (int r = 0; r < rounds && ok; ++r) {
        std::memset(host_in, r & 0xff, n);
        ok = aclrtMemcpyAsync(dev, n, host_in, n, ACL_MEMCPY_HOST_TO_DEVICE, stream) ==
                 ACL_SUCCESS &&
             aclrtMemcpyAsync(host_out, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, stream) ==
                 ACL_SUCCESS &&
             aclrtSynchronizeStream(stream) == ACL_SUCCESS &&
             std::memcmp(host_in, host_out, n) == 0;
    }
    aclrtFree(dev);
    aclrtFreeHost(host_in);
    aclrtFreeHost(host_out);
    return ok;
}

class Faults : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&other_), ACL_SUCCESS);
    }
    aclrtStream stream_ = nullptr;
    aclrtStream other_ = nullptr;
};

}  // namespace

TEST_F(Faults, HostFunctionThatThrowsFailsItsStreamNotTheProcess) {
    ASSERT_EQ(aclrtLaunchHostFunc(
                  stream_, [](void*) { throw std::runtime_error("disk full"); }, nullptr),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_FAILURE);
    EXPECT_THAT_MESSAGE_CONTAINS("threw an exception: disk full");
    EXPECT_TRUE(CopiesRoundTrip(stream_, 4096, 3)) << "the stream keeps working";
    EXPECT_TRUE(CopiesRoundTrip(other_, 4096, 3));
}

TEST_F(Faults, CallbackThatThrowsFailsItsStreamAndTheReportCall) {
    std::atomic<bool> stop{false};
    std::atomic<int> failed_reports{0};
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::thread reporter([&] {
        aclrtSetCurrentContext(context);
        while (!stop) {
            if (aclrtProcessReport(20) == ACL_ERROR_RT_FAILURE) ++failed_reports;
        }
    });
    ASSERT_EQ(aclrtSubscribeReport(static_cast<uint64_t>(reporter.native_handle()), stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchCallback([](void*) { throw 42; }, nullptr, ACL_CALLBACK_BLOCK, stream_),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_FAILURE);
    EXPECT_THAT_MESSAGE_CONTAINS("threw an exception that is no std::exception");
    static std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchCallback([](void*) { ++ran; }, nullptr, ACL_CALLBACK_BLOCK, stream_),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "later callbacks run";
    EXPECT_EQ(ran.load(), 1);
    EXPECT_EQ(aclrtUnSubscribeReport(static_cast<uint64_t>(reporter.native_handle()), stream_),
              ACL_SUCCESS);
    stop = true;
    reporter.join();
    EXPECT_EQ(failed_reports.load(), 1) << "aclrtProcessReport told its thread once";
}

TEST_F(Faults, KernelFailingInOneStreamLeavesTheOthersRunning) {
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle checked_copy = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "checked_copy", &checked_copy), ACL_SUCCESS);
    void *src = nullptr, *dst = nullptr;
    ASSERT_EQ(aclrtMalloc(&src, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&dst, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::atomic<bool> others_ok{true};
    std::thread other([&] {
        aclrtContext context = nullptr;
        aclrtSetDevice(0);
        aclrtGetCurrentContext(&context);
        others_ok = CopiesRoundTrip(other_, 1 << 16, 50);
    });
    uint64_t args[4] = {reinterpret_cast<uint64_t>(src), reinterpret_cast<uint64_t>(dst), 64, 5};
    for (int i = 0; i < 20; ++i) {
        ASSERT_EQ(aclrtLaunchKernelWithHostArgs(checked_copy, 8, stream_, nullptr, args,
                                                sizeof args, nullptr, 0),
                  ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel checked_copy failed in block 5 of 8");
    other.join();
    EXPECT_TRUE(others_ok.load()) << "the other stream's copies were all right";
    EXPECT_EQ(aclrtFree(src), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dst), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
}

// As documented for aclrtResetDevice, the reset first lets the streams finish what they hold.
TEST_F(Faults, ResetDeviceForceWithWorkInFlightFinishesItThenReleasesEverything) {
    size_t free_before = 0, total = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_before, &total), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    static std::atomic<int> ran{0};
    ran = 0;
    for (int i = 0; i < 10; ++i) {
        ASSERT_EQ(aclrtLaunchHostFunc(
                      stream_,
                      [](void*) {
                          std::this_thread::sleep_for(std::chrono::milliseconds(5));
                          ++ran;
                      },
                      nullptr),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemsetAsync(dev, 1 << 20, i, 1 << 20, other_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT_EQ(ran.load(), 10) << "the queued work ran before the release";

    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    size_t free_after = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_after, &total), ACL_SUCCESS);
    EXPECT_EQ(free_after, free_before) << "the reset released the device's memory";
    aclrtStream fresh = nullptr;
    ASSERT_EQ(aclrtCreateStream(&fresh), ACL_SUCCESS);
    EXPECT_TRUE(CopiesRoundTrip(fresh, 4096, 3)) << "the device works again";
    EXPECT_EQ(aclrtDestroyStream(fresh), ACL_SUCCESS);
}

class FaultsWithSmallMemory : public InitializedDeviceTest {
 protected:
    ScopedEnv memory_{"OPENACL_DEVICE_MEMORY_MB", "16"};
};

TEST_F(FaultsWithSmallMemory, DeviceMemoryExhaustedMidPipelineFailsOnlyTheAllocation) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::atomic<bool> copies_ok{true}, stop{false};
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::thread pipeline([&] {
        aclrtSetCurrentContext(context);
        while (!stop && copies_ok)
            copies_ok = CopiesRoundTrip(stream, 1 << 16, 4);
    });
    std::vector<void*> blocks;
    aclError rc = ACL_SUCCESS;
    while (rc == ACL_SUCCESS) {
        void* block = nullptr;
        rc = aclrtMalloc(&block, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST);
        if (rc == ACL_SUCCESS) blocks.push_back(block);
    }
    EXPECT_EQ(rc, ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_THAT_MESSAGE_CONTAINS("16");
    EXPECT_LT(blocks.size(), 16u);
    for (size_t i = 0; i < blocks.size(); i += 2)
        EXPECT_EQ(aclrtFree(blocks[i]), ACL_SUCCESS);
    void* again = nullptr;
    EXPECT_EQ(aclrtMalloc(&again, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS)
        << "freed memory is usable";
    stop = true;
    pipeline.join();
    EXPECT_TRUE(copies_ok.load())
        << "the pipeline's copies carried on (its buffers may have been refused)";
    EXPECT_EQ(aclrtFree(again), ACL_SUCCESS);
    for (size_t i = 1; i < blocks.size(); i += 2)
        EXPECT_EQ(aclrtFree(blocks[i]), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(FaultsAtFinalize, DeviceMemoryUsedAfterFinalizeIsRefusedNotWritten) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);  // releases the device and its memory
    // The pointer must not pass for ordinary host memory (writing to it would fault).
    char host[64] = {};
    EXPECT_NE(aclrtMemset(dev, 4096, 0, 4096), ACL_SUCCESS);
    EXPECT_NE(aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    EXPECT_THAT_MESSAGE_CONTAINS("device");
}
