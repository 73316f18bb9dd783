// Copies whose addresses are read from device memory when they run (aclrtMemcpyAsyncWithDesc
// with a descriptor from aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithOffset), and 32-bit fills
// (aclrtMemsetD32[Async]).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

constexpr size_t kBytes = 1024;

class IndirectCopy : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        for (void** p : {&src_, &dst_, &desc_, &bases_})
            ASSERT_EQ(aclrtMalloc(p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        std::vector<uint8_t> pattern(kBytes);
        for (size_t i = 0; i < kBytes; ++i)
            pattern[i] = static_cast<uint8_t>(i * 7 + 3);
        ASSERT_EQ(aclrtMemcpy(src_, kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemset(dst_, kBytes, 0, kBytes), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        for (void* p : {src_, dst_, desc_, bases_})
            aclrtFree(p);
        DeviceTest::TearDown();
    }
    std::vector<uint8_t> Read(void* dev, size_t n) {
        std::vector<uint8_t> out(n);
        EXPECT_EQ(aclrtMemcpy(out.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        return out;
    }

    void *src_ = nullptr, *dst_ = nullptr, *desc_ = nullptr, *bases_ = nullptr;
    aclrtStream stream_ = nullptr;
};

}  // namespace

TEST_F(IndirectCopy, ADescriptorCopiesWhatItWasSetTo) {
    size_t size = 0;
    ASSERT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size), ACL_SUCCESS);
    ASSERT_LE(size, kBytes);
    ASSERT_EQ(
        aclrtSetMemcpyDesc(desc_, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src_, dst_, 512, nullptr),
        ACL_SUCCESS)
        << TakeErrMsg();
    ASSERT_EQ(aclrtMemcpyAsyncWithDesc(desc_, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const auto src = Read(src_, kBytes), dst = Read(dst_, kBytes);
    EXPECT_TRUE(std::equal(src.begin(), src.begin() + 512, dst.begin()));
    EXPECT_EQ(dst[512], 0) << "only count bytes";
}

TEST_F(IndirectCopy, TheDescriptorIsReadWhenTheCopyRuns) {
    ASSERT_EQ(
        aclrtLaunchHostFunc(
            stream_, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); },
            nullptr),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtSetMemcpyDesc(desc_, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src_, dst_, 16, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsyncWithDesc(desc_, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
              ACL_SUCCESS);
    // Rewritten before the copy runs: the new length applies, as on the device.
    ASSERT_EQ(aclrtSetMemcpyDesc(desc_, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src_, dst_, 64, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const auto dst = Read(dst_, kBytes);
    EXPECT_NE(dst[63], 0);
    EXPECT_EQ(dst[64], 0);
}

TEST_F(IndirectCopy, MemoryThatHoldsNoDescriptorFailsTheCopyWithAMessage) {
    ASSERT_EQ(aclrtMemset(desc_, kBytes, 0, kBytes), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsyncWithDesc(desc_, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
              ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_THAT_MESSAGE_CONTAINS("holds no copy descriptor");
}

TEST_F(IndirectCopy, ADescriptorMustLieInDeviceMemory) {
    char host[32];
    EXPECT_EQ(aclrtSetMemcpyDesc(host, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src_, dst_, 8, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not live device memory");
}

TEST_F(IndirectCopy, OnlyCopiesWithinADeviceAreDescribed) {
    size_t size = 0;
    EXPECT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_HOST_TO_DEVICE, &size), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_MEMCPY_INNER_DEVICE_TO_DEVICE");
}

TEST_F(IndirectCopy, AnOffsetCopyReadsItsBaseAddressesFromDeviceMemoryAndAddsTheOffsets) {
    void* bases[2] = {dst_, src_};
    ASSERT_EQ(aclrtMemcpy(bases_, sizeof bases, bases, sizeof bases, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    auto** dst_base = static_cast<void**>(bases_);
    auto** src_base = const_cast<const void**>(static_cast<void**>(bases_) + 1);
    ASSERT_EQ(aclrtMemcpyAsyncWithOffset(dst_base, 100, 10, src_base, 100, 200,
                                         ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
              ACL_SUCCESS)
        << TakeErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const auto src = Read(src_, kBytes), dst = Read(dst_, kBytes);
    EXPECT_TRUE(std::equal(src.begin() + 200, src.begin() + 300, dst.begin() + 10));
    EXPECT_EQ(dst[9], 0);
    EXPECT_EQ(dst[110], 0);
}

TEST_F(IndirectCopy, AnOffsetCopyPastItsBufferFailsWhenItRuns) {
    void* bases[2] = {dst_, src_};
    ASSERT_EQ(aclrtMemcpy(bases_, sizeof bases, bases, sizeof bases, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsyncWithOffset(static_cast<void**>(bases_), 200, kBytes - 100,
                                         const_cast<const void**>(static_cast<void**>(bases_) + 1),
                                         200, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
              ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
}

TEST_F(IndirectCopy, MemsetD32FillsThirtyTwoBitValues) {
    ASSERT_EQ(aclrtMemsetD32(dst_, kBytes, 0xdeadbeef, 10), ACL_SUCCESS) << TakeErrMsg();
    const auto dst = Read(dst_, 44);
    uint32_t values[11];
    std::memcpy(values, dst.data(), sizeof values);
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(values[i], 0xdeadbeefu) << i;
    EXPECT_EQ(values[10], 0u);
}

TEST_F(IndirectCopy, MemsetD32AsyncFillsDeviceMemoryInStreamOrder) {
    ASSERT_EQ(aclrtMemsetD32Async(dst_, kBytes, 7, kBytes / 4, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetD32Async(dst_, kBytes, 9, 1, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const auto dst = Read(dst_, kBytes);
    uint32_t first = 0, last = 0;
    std::memcpy(&first, dst.data(), 4);
    std::memcpy(&last, dst.data() + kBytes - 4, 4);
    EXPECT_EQ(first, 9u);
    EXPECT_EQ(last, 7u);
}

TEST_F(IndirectCopy, MemsetD32OfMoreValuesThanMemSizeHoldsIsRefused) {
    EXPECT_EQ(aclrtMemsetD32(dst_, 16, 1, 5), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is more than memSize (16 bytes) holds");
}
