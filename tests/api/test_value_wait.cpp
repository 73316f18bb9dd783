// aclrtValueWrite / aclrtValueWait: a 64-bit value written into device memory in stream order,
// and waits that hold their stream until the value there compares as asked.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "acl/acl.h"
#include "sanitizer.h"
#include "test_support.h"

namespace {

using namespace std::chrono_literals;

class ValueWait : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtMalloc(&word_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemset(word_, 64, 0, 64), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&writer_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&waiter_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStreamForce(writer_);
        aclrtDestroyStreamForce(waiter_);
        aclrtFree(word_);
        DeviceTest::TearDown();
    }
    bool WaiterDone() {
        std::this_thread::sleep_for(20ms);
        aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
        EXPECT_EQ(aclrtStreamQuery(waiter_, &status), ACL_SUCCESS);
        return status == ACL_STREAM_STATUS_COMPLETE;
    }
    uint64_t Word() {
        uint64_t v = 0;
        EXPECT_EQ(aclrtMemcpy(&v, 8, word_, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        return v;
    }

    void* word_ = nullptr;
    aclrtStream writer_ = nullptr, waiter_ = nullptr;
};

}  // namespace

TEST_F(ValueWait, AWriteStoresTheValueInStreamOrder) {
    ASSERT_EQ(aclrtValueWrite(word_, 0x1122334455667788ULL, 0, writer_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(writer_), ACL_SUCCESS);
    EXPECT_EQ(Word(), 0x1122334455667788ULL);
}

TEST_F(ValueWait, AnEqualWaitHoldsItsStreamUntilTheValueIsWritten) {
    ASSERT_EQ(aclrtValueWait(word_, 5, ACL_STREAM_WAIT_VALUE_EQ, waiter_), ACL_SUCCESS);
    EXPECT_FALSE(WaiterDone());
    ASSERT_EQ(aclrtValueWrite(word_, 4, 0, writer_), ACL_SUCCESS);
    EXPECT_FALSE(WaiterDone()) << "4 is not 5";
    ASSERT_EQ(aclrtValueWrite(word_, 5, 0, writer_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(waiter_), ACL_SUCCESS);
}

TEST_F(ValueWait, GeqComparesWithWrapAround) {
    ASSERT_EQ(aclrtValueWrite(word_, 0xFFFFFFFFFFFFFFF0ULL, 0, writer_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(writer_), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWait(word_, 3, ACL_STREAM_WAIT_VALUE_GEQ, waiter_), ACL_SUCCESS);
    EXPECT_FALSE(WaiterDone()) << "(int64_t)(0x...F0 - 3) is negative";
    ASSERT_EQ(aclrtValueWrite(word_, 3, 0, writer_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(waiter_), ACL_SUCCESS);
}

TEST_F(ValueWait, AndAndNorWaitForBits) {
    ASSERT_EQ(aclrtValueWait(word_, 0x4, ACL_STREAM_WAIT_VALUE_AND, waiter_), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWrite(word_, 0x3, 0, writer_), ACL_SUCCESS);
    EXPECT_FALSE(WaiterDone());
    ASSERT_EQ(aclrtValueWrite(word_, 0x6, 0, writer_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(waiter_), ACL_SUCCESS);
    // NOR: some bit is clear in both the memory and the value.
    ASSERT_EQ(aclrtValueWrite(word_, ~0ULL, 0, writer_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(writer_), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWait(word_, 0, ACL_STREAM_WAIT_VALUE_NOR, waiter_), ACL_SUCCESS);
    EXPECT_FALSE(WaiterDone()) << "every bit of the memory is set";
    ASSERT_EQ(aclrtValueWrite(word_, ~1ULL, 0, writer_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(waiter_), ACL_SUCCESS);
}

TEST_F(ValueWait, AValueWrittenByACopyReleasesTheWaitToo) {
    // A plain copy racing with the wait's poll is the device's own business, but a data race
    // to ThreadSanitizer.
    if (kThreadSanitized) GTEST_SKIP() << "a plain write racing with an atomic poll";
    ASSERT_EQ(aclrtValueWait(word_, 9, ACL_STREAM_WAIT_VALUE_EQ, waiter_), ACL_SUCCESS);
    EXPECT_FALSE(WaiterDone());
    const uint64_t nine = 9;
    ASSERT_EQ(aclrtMemcpy(word_, 8, &nine, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(waiter_), ACL_SUCCESS) << "seen by the poll";
}

TEST_F(ValueWait, AnUnalignedAddressIsRefused) {
    EXPECT_EQ(aclrtValueWrite(static_cast<char*>(word_) + 4, 1, 0, writer_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not 8-byte aligned");
}

TEST_F(ValueWait, HostMemoryIsRefused) {
    alignas(8) uint64_t host = 0;
    EXPECT_EQ(aclrtValueWait(&host, 1, ACL_STREAM_WAIT_VALUE_EQ, waiter_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not live device memory");
}
