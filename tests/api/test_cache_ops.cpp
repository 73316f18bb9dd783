// Cache maintenance (aclrtCmoAsync and the CMO descriptors): prefetches of live device memory in
// stream order; the other operations and the barrier forms answer as CANN documents them.
#include <gtest/gtest.h>

#include "acl/acl.h"
#include "test_support.h"

namespace {

class CacheOps : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&desc_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtFree(dev_);
        aclrtFree(desc_);
        DeviceTest::TearDown();
    }
    void *dev_ = nullptr, *desc_ = nullptr;
};

}  // namespace

TEST_F(CacheOps, APrefetchOfDeviceMemoryRunsOnItsStream) {
    EXPECT_EQ(aclrtCmoAsync(dev_, 4096, ACL_RT_CMO_TYPE_PREFETCH, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

TEST_F(CacheOps, OnlyPrefetchIsSupported) {
    EXPECT_EQ(aclrtCmoAsync(dev_, 4096, ACL_RT_CMO_TYPE_FLUSH, nullptr),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("supports only ACL_RT_CMO_TYPE_PREFETCH");
}

TEST_F(CacheOps, APrefetchPastTheAllocationIsRefused) {
    EXPECT_EQ(aclrtCmoAsync(dev_, 8192, ACL_RT_CMO_TYPE_PREFETCH, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
}

TEST_F(CacheOps, ADescriptorPrefetchesTheRangeItWasSetTo) {
    size_t size = 0;
    ASSERT_EQ(aclrtCmoGetDescSize(&size), ACL_SUCCESS);
    EXPECT_LE(size, 64u);
    ASSERT_EQ(aclrtCmoSetDesc(desc_, dev_, 4096), ACL_SUCCESS);
    EXPECT_EQ(aclrtCmoAsyncWithDesc(desc_, ACL_RT_CMO_TYPE_PREFETCH, nullptr, nullptr),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

TEST_F(CacheOps, MemoryHoldingNoDescriptorFailsTheStream) {
    ASSERT_EQ(aclrtMemset(desc_, 64, 0, 64), ACL_SUCCESS);
    ASSERT_EQ(aclrtCmoAsyncWithDesc(desc_, ACL_RT_CMO_TYPE_PREFETCH, nullptr, nullptr),
              ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_THAT_MESSAGE_CONTAINS("holds no CMO descriptor");
}

TEST_F(CacheOps, TheBarrierFormsExistOnNoProduct) {
    EXPECT_EQ(aclrtCmoAsyncWithBarrier(dev_, 4096, ACL_RT_CMO_TYPE_INVALID, 1, nullptr),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    aclrtBarrierTaskInfo info{};
    EXPECT_EQ(aclrtCmoWaitBarrier(&info, nullptr, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("documents it for no product");
}
