// Asynchronous copies and fills: aclrtMemcpyAsync in every kind with pinned and device memory
// (truly asynchronous), pageable host memory (accepted, but the call returns only after the
// copy, with a warning), the checks made when a copy is enqueued, aclrtMemsetAsync and
// aclrtMemcpy2dAsync.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

using namespace async_test;

namespace {

// Device 0 set for the test (DeviceTest) under the names of what is tested.
class MemcpyAsync : public DeviceTest {};
class MemcpyAsyncChecks : public DeviceTest {};
class MemsetAsync : public DeviceTest {};
class Memcpy2dAsync : public DeviceTest {};

// Warnings printed to stdout (read at aclInit), device 0 set.
class PageableMemcpyAsync : public InitializedDeviceTest {
 private:
    ScopedEnv print_{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"};
    ScopedEnv level_{"ASCEND_GLOBAL_LOG_LEVEL", "2"};
};

std::vector<unsigned char> Pattern(size_t size, unsigned char seed) {
    std::vector<unsigned char> bytes(size);
    for (size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<unsigned char>(seed + i * 7);
    return bytes;
}

// Device memory read back synchronously (aclrtMemcpy uses no stream, so it is not held back
// by a blocked stream).
std::vector<unsigned char> ReadDevice(const void* device, size_t size) {
    std::vector<unsigned char> bytes(size);
    EXPECT_EQ(aclrtMemcpy(bytes.data(), size, device, size, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return bytes;
}

void WriteDevice(void* device, const std::vector<unsigned char>& bytes) {
    EXPECT_EQ(
        aclrtMemcpy(device, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
        ACL_SUCCESS);
}

std::vector<unsigned char> ReadHost(const void* host, size_t size) {
    const auto* p = static_cast<const unsigned char*>(host);
    return std::vector<unsigned char>(p, p + size);
}

struct KindCase {
    const char* name;
    aclrtMemcpyKind kind;
    bool dst_on_device;
    bool src_on_device;
};

void PrintTo(const KindCase& c, std::ostream* os) {
    *os << c.name;
}

class MemcpyAsyncKinds : public DeviceTest, public ::testing::WithParamInterface<KindCase> {};

}  // namespace

// ---- pinned and device memory: truly asynchronous ----

TEST_P(MemcpyAsyncKinds, CopyHappensOnlyWhenTheStreamGetsToIt) {
    const KindCase& c = GetParam();
    constexpr size_t kSize = 4096;
    ScopedStream stream;
    DeviceBuffer device_src(kSize), device_dst(kSize);
    PinnedBuffer pinned_src(kSize), pinned_dst(kSize);
    void* src = c.src_on_device ? device_src.get() : pinned_src.get();
    void* dst = c.dst_on_device ? device_dst.get() : pinned_dst.get();
    const auto data = Pattern(kSize, 3), old = Pattern(kSize, 100);
    auto write = [](void* p, bool on_device, const std::vector<unsigned char>& bytes) {
        if (on_device) {
            WriteDevice(p, bytes);
        } else {
            std::memcpy(p, bytes.data(), bytes.size());
        }
    };
    auto read = [](const void* p, bool on_device) {
        return on_device ? ReadDevice(p, kSize) : ReadHost(p, kSize);
    };
    write(src, c.src_on_device, data);
    write(dst, c.dst_on_device, old);

    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst, kSize, src, kSize, c.kind, stream), ACL_SUCCESS);
    EXPECT_EQ(read(dst, c.dst_on_device), old) << "the copy ran before the stream reached it";
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(read(dst, c.dst_on_device), data);
}

INSTANTIATE_TEST_SUITE_P(
    PinnedAndDeviceMemory, MemcpyAsyncKinds,
    ::testing::Values(KindCase{"HostToDevice", ACL_MEMCPY_HOST_TO_DEVICE, true, false},
                      KindCase{"DeviceToHost", ACL_MEMCPY_DEVICE_TO_HOST, false, true},
                      KindCase{"DeviceToDevice", ACL_MEMCPY_DEVICE_TO_DEVICE, true, true},
                      KindCase{"InnerDeviceToDevice", ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, true,
                               true},
                      KindCase{"DefaultHostToDevice", ACL_MEMCPY_DEFAULT, true, false},
                      KindCase{"DefaultDeviceToHost", ACL_MEMCPY_DEFAULT, false, true},
                      KindCase{"DefaultDeviceToDevice", ACL_MEMCPY_DEFAULT, true, true}),
    [](const ::testing::TestParamInfo<KindCase>& info) { return std::string(info.param.name); });

TEST_F(MemcpyAsync, HostToBufToDeviceLetsTheCallerReuseTheHostBufferAtOnce) {
    // ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE stages the host data in a runtime buffer: the host
    // memory may be reused as soon as the call returns, even though the copy runs later.
    constexpr size_t kSize = 1024;
    ScopedStream stream;
    DeviceBuffer device(kSize);
    PinnedBuffer host(kSize);
    const auto data = Pattern(kSize, 9);
    std::memcpy(host.get(), data.data(), kSize);
    WriteDevice(device.get(), Pattern(kSize, 50));
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(device.get(), kSize, host.get(), kSize,
                               ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, stream),
              ACL_SUCCESS);
    std::memset(host.get(), 0xEE, kSize);  // reused right away
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), kSize), data);
}

TEST_F(MemcpyAsync, TheDefaultStreamIsUsedForANullStream) {
    constexpr size_t kSize = 256;
    DeviceBuffer device(kSize);
    PinnedBuffer host(kSize);
    const auto data = Pattern(kSize, 1);
    std::memcpy(host.get(), data.data(), kSize);
    Gate gate;
    ASSERT_EQ(gate.Block(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(device.get(), kSize, host.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE,
                               nullptr),
              ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(nullptr, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), kSize), data);
}

TEST_F(MemcpyAsync, PartOfAnAllocationCanBeCopied) {
    ScopedStream stream;
    DeviceBuffer device(256);
    PinnedBuffer host(256);
    WriteDevice(device.get(), std::vector<unsigned char>(256, 0));
    std::memset(host.get(), 0x42, 256);
    ASSERT_EQ(aclrtMemcpyAsync(static_cast<char*>(device.get()) + 100, 156, host.bytes() + 10, 50,
                               ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    auto bytes = ReadDevice(device.get(), 256);
    for (size_t i = 0; i < 256; ++i) {
        ASSERT_EQ(bytes[i], (i >= 100 && i < 150) ? 0x42 : 0) << "byte " << i;
    }
}

TEST_F(MemcpyAsync, CountZeroIsANoOp) {
    ScopedStream stream;
    DeviceBuffer device(64);
    PinnedBuffer host(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(device.get(), 64, host.get(), 0, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(device.get(), 0, host.get(), 0, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtMemsetAsync(device.get(), 64, 1, 0, stream), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    // Not even the pageable path waits for the stream when there is nothing to copy.
    std::vector<unsigned char> pageable(64);
    Gate second;
    ASSERT_EQ(second.Block(stream), ACL_SUCCESS);
    EXPECT_EQ(
        aclrtMemcpyAsync(pageable.data(), 64, device.get(), 0, ACL_MEMCPY_DEVICE_TO_HOST, stream),
        ACL_SUCCESS);
    EXPECT_EQ(second.left(), 0);
    second.Open();
}

// ---- pageable host memory ----

TEST_F(PageableMemcpyAsync, DeviceToPageableHostIsDoneWhenTheCallReturns) {
    constexpr size_t kSize = 4096;
    ScopedStream stream;
    DeviceBuffer device(kSize);
    WriteDevice(device.get(), Pattern(kSize, 0));
    std::unique_ptr<unsigned char, decltype(&std::free)> host(
        static_cast<unsigned char*>(std::malloc(kSize)), &std::free);
    std::memset(host.get(), 0, kSize);
    // Earlier tasks delay the stream: the copy must wait for them, and sees their effect.
    std::atomic<int> earlier_done{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(device.get(), kSize, 0x6B, kSize, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &earlier_done), ACL_SUCCESS);
    testing::internal::CaptureStdout();
    aclError rc =
        aclrtMemcpyAsync(host.get(), kSize, device.get(), kSize, ACL_MEMCPY_DEVICE_TO_HOST, stream);
    std::string out = testing::internal::GetCapturedStdout();
    ASSERT_EQ(rc, ACL_SUCCESS);
    EXPECT_EQ(earlier_done.load(), 1) << "the copy did not wait for the stream's earlier tasks";
    EXPECT_EQ(ReadHost(host.get(), kSize), std::vector<unsigned char>(kSize, 0x6B));
    EXPECT_NE(out.find("[WARNING]"), std::string::npos) << out;
    EXPECT_NE(out.find("pageable host memory"), std::string::npos) << out;
    EXPECT_NE(out.find("aclrtMallocHost"), std::string::npos) << "the warning gives advice";
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

TEST_F(PageableMemcpyAsync, PageableHostToDeviceLetsTheCallerReuseTheBufferAtOnce) {
    constexpr size_t kSize = 1024;
    ScopedStream stream;
    DeviceBuffer device(kSize);
    std::vector<unsigned char> host = Pattern(kSize, 5);
    const auto data = host;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    testing::internal::CaptureStdout();
    aclError rc = aclrtMemcpyAsync(device.get(), kSize, host.data(), kSize,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream);
    std::string out = testing::internal::GetCapturedStdout();
    ASSERT_EQ(rc, ACL_SUCCESS);
    std::fill(host.begin(), host.end(), 0);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), kSize), data);
    EXPECT_NE(out.find("[WARNING]"), std::string::npos) << out;
}

TEST_F(PageableMemcpyAsync, PageableMemsetAsyncIsDoneWhenTheCallReturns) {
    ScopedStream stream;
    std::vector<unsigned char> host(128, 0);
    std::atomic<int> earlier_done{0};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SetFlag, &earlier_done), ACL_SUCCESS);
    testing::internal::CaptureStdout();
    aclError rc = aclrtMemsetAsync(host.data(), 128, 0x3C, 128, stream);
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, ACL_SUCCESS);
    EXPECT_EQ(earlier_done.load(), 1);
    EXPECT_EQ(host, std::vector<unsigned char>(128, 0x3C));
    EXPECT_NE(out.find("pageable host memory"), std::string::npos) << out;
}

TEST_F(PageableMemcpyAsync, PinnedCopiesLogNoWarning) {
    ScopedStream stream;
    DeviceBuffer device(64);
    PinnedBuffer host(64);
    testing::internal::CaptureStdout();
    aclError rc =
        aclrtMemcpyAsync(device.get(), 64, host.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, ACL_SUCCESS);
    EXPECT_EQ(out.find("[WARNING]"), std::string::npos) << out;
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

// ---- checks made when the copy is enqueued ----

TEST_F(MemcpyAsyncChecks, CountLargerThanDestMaxIsRefusedAndNothingIsQueued) {
    ScopedStream stream;
    DeviceBuffer device(64);
    PinnedBuffer host(64);
    WriteDevice(device.get(), std::vector<unsigned char>(64, 1));
    std::memset(host.get(), 2, 64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(device.get(), 32, host.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("larger than destMax");
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), 64), std::vector<unsigned char>(64, 1));
}

TEST_F(MemcpyAsyncChecks, RangePastTheEndOfAnAllocationIsRefusedAndNothingIsQueued) {
    ScopedStream stream;
    DeviceBuffer device(64);
    PinnedBuffer host(4096);
    WriteDevice(device.get(), std::vector<unsigned char>(64, 1));
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    EXPECT_EQ(
        aclrtMemcpyAsync(device.get(), 4096, host.get(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    EXPECT_EQ(
        aclrtMemcpyAsync(host.get(), 4096, device.get(), 4096, ACL_MEMCPY_DEVICE_TO_HOST, stream),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src range of 4096 bytes");
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), 64), std::vector<unsigned char>(64, 1));
}

TEST_F(MemcpyAsyncChecks, HostMemoryWhereTheKindSaysDeviceIsRefused) {
    ScopedStream stream;
    std::vector<unsigned char> pageable(64, 0);
    PinnedBuffer host(64);
    EXPECT_EQ(
        aclrtMemcpyAsync(pageable.data(), 64, host.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not device-accessible memory");
    EXPECT_EQ(
        aclrtMemcpyAsync(host.get(), 64, pageable.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST, stream),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src");
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

TEST_F(MemcpyAsyncChecks, FreedDeviceMemoryIsRefusedAtEnqueue) {
    ScopedStream stream;
    PinnedBuffer host(64);
    void* freed = nullptr;
    ASSERT_EQ(aclrtMalloc(&freed, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(freed, 64, host.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not into a live allocation");
    EXPECT_EQ(aclrtMemsetAsync(freed, 64, 0, 64, stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

TEST_F(MemcpyAsyncChecks, NullPointersAndUnknownKindsAreInvalidParam) {
    ScopedStream stream;
    DeviceBuffer device(64);
    PinnedBuffer host(64);
    EXPECT_EQ(aclrtMemcpyAsync(nullptr, 64, host.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dst is null");
    EXPECT_EQ(aclrtMemcpyAsync(device.get(), 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src is null");
    EXPECT_EQ(aclrtMemcpyAsync(device.get(), 64, host.get(), 64, static_cast<aclrtMemcpyKind>(99),
                               stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("kind 99 is not an aclrtMemcpyKind");
    EXPECT_EQ(aclrtMemsetAsync(nullptr, 64, 0, 64, stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("devPtr is null");
}

TEST_F(MemcpyAsyncChecks, DeprecatedWithConditionVariantChecksAndCopiesTheSame) {
    ScopedStream stream;
    DeviceBuffer device(64);
    PinnedBuffer host(64);
    std::memset(host.get(), 0x11, 64);
    EXPECT_EQ(aclrtMemcpyAsyncWithCondition(device.get(), 32, host.get(), 64,
                                            ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemcpyAsyncWithCondition(device.get(), 64, host.get(), 64,
                                            ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), 64), std::vector<unsigned char>(64, 0x11));
}

// ---- aclrtMemsetAsync ----

TEST_F(MemsetAsync, FillHappensOnlyWhenTheStreamGetsToIt) {
    constexpr size_t kSize = 1000;
    ScopedStream stream;
    DeviceBuffer device(kSize);
    WriteDevice(device.get(), std::vector<unsigned char>(kSize, 0));
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(device.get(), kSize, 0xAB, kSize - 1, stream), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), kSize), std::vector<unsigned char>(kSize, 0));
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    auto bytes = ReadDevice(device.get(), kSize);
    EXPECT_EQ(bytes[0], 0xAB);
    EXPECT_EQ(bytes[kSize - 2], 0xAB);
    EXPECT_EQ(bytes[kSize - 1], 0) << "only count bytes are filled";
}

TEST_F(MemsetAsync, ValueIsTakenAsAByte) {
    ScopedStream stream;
    DeviceBuffer device(16);
    ASSERT_EQ(aclrtMemsetAsync(device.get(), 16, 0x1234, 16, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(device.get(), 16), std::vector<unsigned char>(16, 0x34));
}

TEST_F(MemsetAsync, PinnedHostMemoryCanBeFilled) {
    ScopedStream stream;
    PinnedBuffer host(64);
    std::memset(host.get(), 0, 64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(host.get(), 64, 0x77, 64, stream), ACL_SUCCESS);
    EXPECT_EQ(host.bytes()[0], 0) << "a fill of pinned memory is asynchronous too";
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadHost(host.get(), 64), std::vector<unsigned char>(64, 0x77));
}

TEST_F(MemsetAsync, CountLargerThanMaxCountIsRefused) {
    ScopedStream stream;
    DeviceBuffer device(64);
    EXPECT_EQ(aclrtMemsetAsync(device.get(), 32, 0, 64, stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("larger than maxCount");
    EXPECT_EQ(aclrtMemsetAsync(device.get(), 4096, 0, 4096, stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

// ---- aclrtMemcpy2dAsync ----

TEST_F(Memcpy2dAsync, DeviceToDeviceCopiesRowsBetweenPitches) {
    // 4 rows of 10 bytes, from a pitch of 16 to a pitch of 32; the bytes between rows stay.
    constexpr size_t kWidth = 10, kHeight = 4, kSrcPitch = 16, kDstPitch = 32;
    ScopedStream stream;
    DeviceBuffer src(kSrcPitch * kHeight), dst(kDstPitch * kHeight);
    const auto src_bytes = Pattern(kSrcPitch * kHeight, 1);
    WriteDevice(src.get(), src_bytes);
    WriteDevice(dst.get(), std::vector<unsigned char>(kDstPitch * kHeight, 0xFF));
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy2dAsync(dst.get(), kDstPitch, src.get(), kSrcPitch, kWidth, kHeight,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
              ACL_SUCCESS);
    EXPECT_EQ(ReadDevice(dst.get(), kDstPitch * kHeight),
              std::vector<unsigned char>(kDstPitch * kHeight, 0xFF));
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    auto out = ReadDevice(dst.get(), kDstPitch * kHeight);
    for (size_t row = 0; row < kHeight; ++row) {
        for (size_t col = 0; col < kDstPitch; ++col) {
            unsigned char expected = col < kWidth ? src_bytes[row * kSrcPitch + col] : 0xFF;
            ASSERT_EQ(out[row * kDstPitch + col], expected) << "row " << row << " col " << col;
        }
    }
}

TEST_F(Memcpy2dAsync, HostToDeviceAndBackWithPinnedMemory) {
    constexpr size_t kWidth = 8, kHeight = 3, kPitch = 8;
    ScopedStream stream;
    DeviceBuffer device(kPitch * kHeight);
    PinnedBuffer in(kPitch * kHeight), out(kPitch * kHeight);
    const auto data = Pattern(kPitch * kHeight, 20);
    std::memcpy(in.get(), data.data(), data.size());
    std::memset(out.get(), 0, kPitch * kHeight);
    ASSERT_EQ(aclrtMemcpy2dAsync(device.get(), kPitch, in.get(), kPitch, kWidth, kHeight,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy2dAsync(out.get(), kPitch, device.get(), kPitch, kWidth, kHeight,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ReadHost(out.get(), kPitch * kHeight), data);
}

TEST_F(Memcpy2dAsync, OtherKindsAreInvalidParam) {
    ScopedStream stream;
    PinnedBuffer a(64), b(64);
    EXPECT_EQ(aclrtMemcpy2dAsync(a.get(), 8, b.get(), 8, 8, 8, ACL_MEMCPY_HOST_TO_HOST, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not ACL_MEMCPY_HOST_TO_HOST");
    EXPECT_EQ(aclrtMemcpy2dAsync(a.get(), 8, b.get(), 8, 8, 8, ACL_MEMCPY_DEFAULT, stream),
              ACL_ERROR_INVALID_PARAM);
}

TEST_F(Memcpy2dAsync, DocumentedLimitsAreEnforced) {
    ScopedStream stream;
    DeviceBuffer a(64), b(64);
    EXPECT_EQ(aclrtMemcpy2dAsync(a.get(), 5000001, b.get(), 5000001, 5000001, 1,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("exceed the limits");
    EXPECT_EQ(
        aclrtMemcpy2dAsync(a.get(), 8, b.get(), 8, 1, 5242881, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("exceed the limits");
    EXPECT_EQ(
        aclrtMemcpy2dAsync(a.get(), 8, b.get(), 16, 9, 2, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("must not exceed dpitch");
    EXPECT_EQ(aclrtMemcpy2dAsync(a.get(), 8, b.get(), 8, 0, 2, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("must be > 0");
    // 16 rows at pitch 8 span 128 bytes: past the end of a 64-byte allocation.
    EXPECT_EQ(
        aclrtMemcpy2dAsync(a.get(), 8, b.get(), 8, 8, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

TEST_F(Memcpy2dAsync, PageableHostMemoryIsCopiedBeforeTheCallReturns) {
    constexpr size_t kWidth = 4, kHeight = 4, kPitch = 4;
    ScopedStream stream;
    DeviceBuffer device(kPitch * kHeight);
    WriteDevice(device.get(), Pattern(kPitch * kHeight, 30));
    std::vector<unsigned char> host(kPitch * kHeight, 0);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(device.get(), kPitch * kHeight, 0x21, kPitch * kHeight, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy2dAsync(host.data(), kPitch, device.get(), kPitch, kWidth, kHeight,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    EXPECT_EQ(host, std::vector<unsigned char>(kPitch * kHeight, 0x21));
}

TEST_F(Memcpy2dAsync, FreedDestinationFailsTheNextSynchronize) {
    ScopedStream stream;
    DeviceBuffer src(64), dst(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(
        aclrtMemcpy2dAsync(dst.get(), 8, src.get(), 8, 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
        ACL_SUCCESS);
    ASSERT_EQ(dst.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("a buffer was freed before the copy ran");
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}
