// Batch copies (aclrtMemcpyBatch, aclrtMemcpyBatchAsync and their V2 forms): many copies of one
// direction whose attributes say where each side lies, checked as aclrtMemcpy checks one copy;
// the V1 forms name the copy a check refused in failIndex.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

constexpr size_t kCopies = 6;
constexpr size_t kBytes = 4096;

aclrtMemcpyBatchAttr Attr(aclrtMemLocationType dst, aclrtMemLocationType src) {
    aclrtMemcpyBatchAttr attr{};
    attr.dstLoc.type = dst;
    attr.srcLoc.type = src;
    return attr;
}
const aclrtMemcpyBatchAttr kHostToDevice =
    Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
const aclrtMemcpyBatchAttr kDeviceToHost =
    Attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_DEVICE);

// kCopies device buffers and as many host ones (pinned or malloc'd), each with its own pattern.
class MemcpyBatch : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        for (size_t i = 0; i < kCopies; ++i) {
            ASSERT_EQ(aclrtMalloc(&device_[i], kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            ASSERT_EQ(aclrtMallocHost(&pinned_[i], kBytes), ACL_SUCCESS);
            pageable_[i].assign(kBytes, static_cast<uint8_t>(0x10 + i));
            std::memset(pinned_[i], 0x40 + static_cast<int>(i), kBytes);
            sizes_[i] = kBytes - 64 * i;  // pieces of different lengths
            maxes_[i] = kBytes;
        }
    }
    void TearDown() override {
        for (size_t i = 0; i < kCopies; ++i) {
            aclrtFree(device_[i]);
            aclrtFreeHost(pinned_[i]);
        }
        DeviceTest::TearDown();
    }
    std::vector<uint8_t> DeviceBytes(size_t i) {
        std::vector<uint8_t> out(kBytes);
        EXPECT_EQ(aclrtMemcpy(out.data(), kBytes, device_[i], kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return out;
    }
    // Expects device buffer i to start with sizes_[i] bytes of `value` and keep 0 after them.
    void ExpectDevice(size_t i, uint8_t value) {
        const std::vector<uint8_t> bytes = DeviceBytes(i);
        for (size_t k = 0; k < kBytes; ++k) {
            ASSERT_EQ(bytes[k], k < sizes_[i] ? value : 0) << "copy " << i << ", byte " << k;
        }
    }
    void ZeroDevices() {
        for (void* d : device_)
            ASSERT_EQ(aclrtMemset(d, kBytes, 0, kBytes), ACL_SUCCESS);
    }

    void* device_[kCopies] = {};
    void* pinned_[kCopies] = {};
    std::vector<uint8_t> pageable_[kCopies];
    size_t sizes_[kCopies] = {};
    size_t maxes_[kCopies] = {};
    size_t fail_ = 12345;
};

}  // namespace

TEST_F(MemcpyBatch, CopiesEveryPieceFromPageableHostMemoryToTheDevice) {
    ZeroDevices();
    void* srcs[kCopies];
    for (size_t i = 0; i < kCopies; ++i)
        srcs[i] = pageable_[i].data();
    aclrtMemcpyBatchAttr attr = kHostToDevice;
    size_t first = 0;
    ASSERT_EQ(aclrtMemcpyBatch(device_, maxes_, srcs, sizes_, kCopies, &attr, &first, 1, &fail_),
              ACL_SUCCESS)
        << TakeErrMsg();
    EXPECT_EQ(fail_, SIZE_MAX) << "no copy failed";
    for (size_t i = 0; i < kCopies; ++i)
        ExpectDevice(i, static_cast<uint8_t>(0x10 + i));
}

TEST_F(MemcpyBatch, CopiesEveryPieceFromTheDeviceToPinnedMemory) {
    void* srcs[kCopies];
    for (size_t i = 0; i < kCopies; ++i) {
        ASSERT_EQ(aclrtMemset(device_[i], kBytes, 0x70 + static_cast<int>(i), kBytes), ACL_SUCCESS);
        srcs[i] = device_[i];
    }
    aclrtMemcpyBatchAttr attr = kDeviceToHost;
    size_t first = 0;
    ASSERT_EQ(aclrtMemcpyBatchV2(pinned_, maxes_, srcs, sizes_, kCopies, &attr, &first, 1),
              ACL_SUCCESS)
        << TakeErrMsg();
    for (size_t i = 0; i < kCopies; ++i) {
        const auto* bytes = static_cast<const uint8_t*>(pinned_[i]);
        EXPECT_EQ(bytes[0], 0x70 + i);
        EXPECT_EQ(bytes[sizes_[i] - 1], 0x70 + i);
        if (sizes_[i] < kBytes) {
            EXPECT_EQ(bytes[sizes_[i]], 0x40 + i) << "past the piece";
        }
    }
}

TEST_F(MemcpyBatch, EachAttributeAppliesFromItsIndexToTheNextOnes) {
    ZeroDevices();
    void* srcs[kCopies];
    for (size_t i = 0; i < kCopies; ++i)
        srcs[i] = i < 4 ? pinned_[i] : pageable_[i].data();
    aclrtMemcpyBatchAttr attrs[2] = {kHostToDevice, kHostToDevice};
    size_t indexes[2] = {0, 4};
    ASSERT_EQ(aclrtMemcpyBatch(device_, maxes_, srcs, sizes_, kCopies, attrs, indexes, 2, &fail_),
              ACL_SUCCESS)
        << TakeErrMsg();
    for (size_t i = 0; i < kCopies; ++i)
        ExpectDevice(i, static_cast<uint8_t>(i < 4 ? 0x40 + i : 0x10 + i));
}

TEST_F(MemcpyBatch, AnAsyncBatchFromPinnedMemoryRunsInStreamOrder) {
    ZeroDevices();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    // The stream is busy for 200 ms first: the call must not wait for it.
    ASSERT_EQ(
        aclrtLaunchHostFunc(
            stream, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(200)); },
            nullptr),
        ACL_SUCCESS);
    aclrtMemcpyBatchAttr attr = kHostToDevice;
    size_t first = 0;
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(aclrtMemcpyBatchAsync(device_, maxes_, pinned_, sizes_, kCopies, &attr, &first, 1,
                                    &fail_, stream),
              ACL_SUCCESS)
        << TakeErrMsg();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150))
        << "the call enqueues the batch";
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    for (size_t i = 0; i < kCopies; ++i)
        ExpectDevice(i, static_cast<uint8_t>(0x40 + i));
    aclrtDestroyStream(stream);
}

TEST_F(MemcpyBatch, AnAsyncBatchFromPageableMemoryIsDoneWhenTheCallReturns) {
    ZeroDevices();
    void* srcs[kCopies];
    for (size_t i = 0; i < kCopies; ++i)
        srcs[i] = pageable_[i].data();
    aclrtMemcpyBatchAttr attr = kHostToDevice;
    size_t first = 0;
    ASSERT_EQ(
        aclrtMemcpyBatchAsyncV2(device_, maxes_, srcs, sizes_, kCopies, &attr, &first, 1, nullptr),
        ACL_SUCCESS)
        << TakeErrMsg();
    for (auto& host : pageable_)
        host.assign(kBytes, 0xee);  // reusing the host memory at once is allowed
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    for (size_t i = 0; i < kCopies; ++i)
        ExpectDevice(i, static_cast<uint8_t>(0x10 + i));
}

TEST_F(MemcpyBatch, CopiesInBothDirectionsAreRefusedAtTheFirstCopyOfTheOtherWay) {
    void* srcs[kCopies];
    void* dsts[kCopies];
    for (size_t i = 0; i < kCopies; ++i) {
        srcs[i] = i < 3 ? pinned_[i] : device_[i];
        dsts[i] = i < 3 ? device_[i] : pinned_[i];
    }
    aclrtMemcpyBatchAttr attrs[2] = {kHostToDevice, kDeviceToHost};
    size_t indexes[2] = {0, 3};
    EXPECT_EQ(aclrtMemcpyBatch(dsts, maxes_, srcs, sizes_, kCopies, attrs, indexes, 2, &fail_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(fail_, 3u);
    EXPECT_THAT_MESSAGE_CONTAINS("all the copies of a batch go one way");
}

TEST_F(MemcpyBatch, DeviceToDeviceAttributesAreRefused) {
    aclrtMemcpyBatchAttr attr = Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_DEVICE);
    size_t first = 0;
    EXPECT_EQ(aclrtMemcpyBatch(device_, maxes_, device_, sizes_, kCopies, &attr, &first, 1, &fail_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(fail_, 0u);
    EXPECT_THAT_MESSAGE_CONTAINS("host to device or device to host only");
}

TEST_F(MemcpyBatch, ACopyLargerThanItsDestinationNamesItsIndex) {
    maxes_[2] = sizes_[2] - 1;
    aclrtMemcpyBatchAttr attr = kHostToDevice;
    size_t first = 0;
    EXPECT_EQ(aclrtMemcpyBatch(device_, maxes_, pinned_, sizes_, kCopies, &attr, &first, 1, &fail_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(fail_, 2u);
    EXPECT_THAT_MESSAGE_CONTAINS("larger than destMax");
    ZeroDevices();
    EXPECT_EQ(DeviceBytes(0)[0], 0) << "nothing was copied: every copy is checked first";
}

TEST_F(MemcpyBatch, ACopyWhoseDestinationIsNotDeviceMemoryNamesItsIndex) {
    void* dsts[kCopies];
    for (size_t i = 0; i < kCopies; ++i)
        dsts[i] = i == 4 ? pageable_[i].data() : device_[i];
    aclrtMemcpyBatchAttr attr = kHostToDevice;
    size_t first = 0;
    EXPECT_EQ(aclrtMemcpyBatch(dsts, maxes_, pinned_, sizes_, kCopies, &attr, &first, 1, &fail_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(fail_, 4u);
    EXPECT_THAT_MESSAGE_CONTAINS("is not device-accessible memory");
}

TEST_F(MemcpyBatch, AttributeIndexesThatDoNotStartAtZeroAreRefusedWithNoCopyNamed) {
    aclrtMemcpyBatchAttr attrs[2] = {kHostToDevice, kHostToDevice};
    size_t indexes[2] = {1, 3};
    EXPECT_EQ(
        aclrtMemcpyBatch(device_, maxes_, pinned_, sizes_, kCopies, attrs, indexes, 2, &fail_),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(fail_, SIZE_MAX);
    EXPECT_THAT_MESSAGE_CONTAINS("the first entry must be 0");
}

TEST_F(MemcpyBatch, AttributeIndexesMustRiseAndStayBelowTheBatchSize) {
    aclrtMemcpyBatchAttr attrs[2] = {kHostToDevice, kHostToDevice};
    size_t indexes[2] = {0, kCopies};
    EXPECT_EQ(aclrtMemcpyBatchV2(device_, maxes_, pinned_, sizes_, kCopies, attrs, indexes, 2),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("less than numBatches");
}
