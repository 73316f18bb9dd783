// Device memory on the CUDA backend: allocation, copies of every kind, fills, pitched copies,
// and the same domain and bounds checks as the CPU backend.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "cuda_probe.h"
#include "gpu_test_support.h"

using namespace gpu_test;

namespace {

class GpuMemory : public GpuTest {};

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<uint8_t>(seed + i * 131 + (i >> 8));
    return v;
}

TEST_F(GpuMemory, MallocGivesCudaDeviceMemory) {
    DeviceBuffer d(1 << 20);
    EXPECT_EQ(cuda_probe::PointerKind(d.get()), "device");
}

TEST_F(GpuMemory, MallocHostGivesPinnedHostMemory) {
    PinnedBuffer host(1 << 20);
    EXPECT_EQ(cuda_probe::PointerKind(host.get()), "host");
}

TEST_F(GpuMemory, CopiesOfEveryKindRoundTrip) {
    constexpr size_t kBytes = (size_t{1} << 20) + 13;  // odd size: no hidden alignment
    const auto in = Pattern(kBytes, 7);
    DeviceBuffer a(kBytes), b(kBytes);
    std::vector<uint8_t> host_copy(kBytes), out(kBytes);
    ACL_ASSERT(aclrtMemcpy(a.get(), kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_ASSERT(aclrtMemcpy(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ACL_ASSERT(aclrtMemcpy(host_copy.data(), kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_HOST));
    ACL_ASSERT(aclrtMemcpy(out.data(), kBytes, b.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(out, in);
    EXPECT_EQ(host_copy, in);
    std::vector<uint8_t> defaulted(kBytes);
    ACL_ASSERT(aclrtMemcpy(a.get(), kBytes, out.data(), kBytes, ACL_MEMCPY_DEFAULT));
    ACL_ASSERT(aclrtMemcpy(defaulted.data(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEFAULT));
    EXPECT_EQ(defaulted, in);
}

TEST_F(GpuMemory, MemsetFillsExactlyTheRange) {
    constexpr size_t kBytes = 4096;
    DeviceBuffer d(kBytes);
    ACL_ASSERT(aclrtMemset(d.get(), kBytes, 0x11, kBytes));
    ACL_ASSERT(aclrtMemset(static_cast<uint8_t*>(d.get()) + 100, kBytes - 100, 0xAB, 1000));
    const auto out = Download<uint8_t>(d.get(), kBytes);
    for (size_t i = 0; i < kBytes; ++i)
        ASSERT_EQ(out[i], (i >= 100 && i < 1100) ? 0xAB : 0x11) << "byte " << i;
}

TEST_F(GpuMemory, MemsetAsyncIsOrderedOnItsStream) {
    constexpr size_t kBytes = 1 << 20;
    DeviceBuffer d(kBytes);
    PinnedBuffer host(kBytes);
    ACL_ASSERT(aclrtMemsetAsync(d.get(), kBytes, 0x5A, kBytes, stream_));
    ACL_ASSERT(
        aclrtMemcpyAsync(host.get(), kBytes, d.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    for (size_t i = 0; i < kBytes; ++i)
        ASSERT_EQ(host.as<uint8_t>()[i], 0x5A) << "byte " << i;
}

TEST_F(GpuMemory, Memcpy2dCopiesEachRowBetweenPitches) {
    constexpr size_t kWidth = 100, kHeight = 37, kHostPitch = 128, kDevicePitch = 512;
    const auto in = Pattern(kHostPitch * kHeight, 3);
    DeviceBuffer d(kDevicePitch * kHeight);
    ACL_ASSERT(aclrtMemset(d.get(), d.size(), 0, d.size()));
    ACL_ASSERT(aclrtMemcpy2d(d.get(), kDevicePitch, in.data(), kHostPitch, kWidth, kHeight,
                             ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<uint8_t> out(kHostPitch * kHeight, 0xEE);
    ACL_ASSERT(aclrtMemcpy2d(out.data(), kHostPitch, d.get(), kDevicePitch, kWidth, kHeight,
                             ACL_MEMCPY_DEVICE_TO_HOST));
    const auto device = Download<uint8_t>(d.get(), d.size());
    for (size_t r = 0; r < kHeight; ++r) {
        for (size_t c = 0; c < kHostPitch; ++c) {
            if (c < kWidth) {
                ASSERT_EQ(out[r * kHostPitch + c], in[r * kHostPitch + c]) << r << "," << c;
                ASSERT_EQ(device[r * kDevicePitch + c], in[r * kHostPitch + c]) << r << "," << c;
            } else {
                ASSERT_EQ(out[r * kHostPitch + c], 0xEE) << "pad written at " << r << "," << c;
                ASSERT_EQ(device[r * kDevicePitch + c], 0) << "pad written at " << r << "," << c;
            }
        }
    }
}

TEST_F(GpuMemory, PinnedAsyncCopiesRoundTripOnAStream) {
    constexpr size_t kBytes = 8 << 20;
    PinnedBuffer in(kBytes), out(kBytes);
    const auto pattern = Pattern(kBytes, 9);
    std::memcpy(in.get(), pattern.data(), kBytes);
    std::memset(out.get(), 0, kBytes);
    DeviceBuffer a(kBytes), b(kBytes);
    ACL_ASSERT(
        aclrtMemcpyAsync(a.get(), kBytes, in.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    ACL_ASSERT(
        aclrtMemcpyAsync(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
    ACL_ASSERT(
        aclrtMemcpyAsync(out.get(), kBytes, b.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_EQ(std::memcmp(out.get(), pattern.data(), kBytes), 0);
}

TEST_F(GpuMemory, PageableAsyncCopyIsCompleteWhenTheCallReturns) {
    constexpr size_t kBytes = 16 << 20;
    const auto pattern = Pattern(kBytes, 21);
    std::vector<uint8_t> source = pattern, back(kBytes, 0);
    DeviceBuffer d(kBytes);
    ACL_ASSERT(aclrtMemcpyAsync(d.get(), kBytes, source.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE,
                                stream_));
    // Pageable memory may be reused as soon as the call returns: the copy already has it.
    std::fill(source.begin(), source.end(), 0);
    ACL_ASSERT(
        aclrtMemcpyAsync(back.data(), kBytes, d.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
    // ... and the data of a pageable D2H copy is there when the call returns, with no sync.
    EXPECT_EQ(back, pattern);
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
}

TEST_F(GpuMemory, CountAboveDestMaxIsInvalidParam) {
    DeviceBuffer d(256);
    std::vector<uint8_t> host(512);
    EXPECT_EQ(aclrtMemcpy(d.get(), 256, host.data(), 512, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemcpyAsync(d.get(), 256, host.data(), 512, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemset(d.get(), 256, 0, 257), ACL_ERROR_INVALID_PARAM);
}

TEST_F(GpuMemory, CopyPastTheEndOfAnAllocationIsInvalidParam) {
    DeviceBuffer d(256);
    std::vector<uint8_t> host(512);
    // destMax claims more room than the allocation has: the registry knows better.
    EXPECT_EQ(aclrtMemcpy(static_cast<uint8_t*>(d.get()) + 128, 512, host.data(), 512,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
}

TEST_F(GpuMemory, WrongCopyKindIsInvalidParam) {
    DeviceBuffer d(256);
    std::vector<uint8_t> host(256);
    EXPECT_EQ(aclrtMemcpy(d.get(), 256, host.data(), 256, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemcpy(host.data(), 256, d.get(), 256, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(
        aclrtMemcpyAsync(d.get(), 256, host.data(), 256, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
        ACL_ERROR_INVALID_PARAM);
}

TEST_F(GpuMemory, MallocAndFreeDoNotWaitForWorkOnAStream) {
    // The stream is held by a host function until `release` is set: by us after the frees, or
    // by the watchdog after 3 s, so a free that synchronises the device shows as a slow free
    // rather than a hang.
    std::atomic<bool> release{false};
    ACL_ASSERT(aclrtLaunchHostFunc(
        stream_,
        [](void* p) {
            auto* flag = static_cast<std::atomic<bool>*>(p);
            while (!flag->load())
                std::this_thread::sleep_for(std::chrono::microseconds(100));
        },
        &release));
    std::thread watchdog([&] {
        WaitUntil([&] { return release.load(); }, std::chrono::seconds(3));
        release.store(true);
    });
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 8; ++i) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS)
            << RecentMessage();
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS) << RecentMessage();
    }
    const auto elapsed = std::chrono::steady_clock::now() - t0;
    const bool stream_was_busy = !release.exchange(true);
    watchdog.join();
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_TRUE(stream_was_busy) << "aclrtMalloc/aclrtFree waited for the stream";
    EXPECT_LT(elapsed, std::chrono::milliseconds(1000));
}

}  // namespace
