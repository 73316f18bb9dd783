// Managed memory: aclrtMemAllocManaged gives memory host and device reach at one address, in
// CANN's UVM range, rounded up to 2 MiB and freed with aclrtFree; advice is kept per 2 MiB page
// and read back with the attribute queries; prefetches record where they went, in stream order.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "sanitizer.h"
#include "test_support.h"

namespace {

constexpr uint64_t kTwoMiB = uint64_t{2} << 20;

aclrtMemManagedLocation Device(int32_t id = 0) {
    return {ACL_MEM_LOCATIONTYPE_DEVICE, id};
}
aclrtMemManagedLocation Host() {
    return {ACL_MEM_LOCATIONTYPE_HOST, 0};
}

class ManagedMemory : public DeviceTest {
 protected:
    void TearDown() override {
        if (p_ != nullptr) aclrtFree(p_);
        DeviceTest::TearDown();
    }
    void Allocate(uint64_t size) {
        ASSERT_EQ(aclrtMemAllocManaged(&p_, size, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS)
            << TakeErrMsg();
    }
    char* At(uint64_t offset) const { return static_cast<char*>(p_) + offset; }

    void* p_ = nullptr;
};

}  // namespace

TEST_F(ManagedMemory, AllocationsLieInTheUvmRangeAlignedTo2MiB) {
    Allocate(100);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p_) % kTwoMiB, 0u);
    if (!kSanitized) {  // a sanitizer's shadow memory may hold the range
        EXPECT_GE(reinterpret_cast<uintptr_t>(p_), 0x90000000000ULL);
        EXPECT_LT(reinterpret_cast<uintptr_t>(p_), 0x90000000000ULL + (uint64_t{3} << 40));
    }
    void* base = nullptr;
    size_t size = 0;
    ASSERT_EQ(aclrtMemGetAddressRange(At(50), &base, &size), ACL_SUCCESS);
    EXPECT_EQ(base, p_);
    EXPECT_EQ(size, 100u);
}

TEST_F(ManagedMemory, TheHostAndCopiesOfEveryKindReachIt) {
    Allocate(kTwoMiB);
    std::memset(p_, 0x11, 1024);  // the host writes it directly
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dev, 1024, p_, 1024, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS)
        << TakeErrMsg();
    std::vector<uint8_t> host(1024, 0);
    ASSERT_EQ(aclrtMemcpy(host.data(), 1024, dev, 1024, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(host, std::vector<uint8_t>(1024, 0x11));
    host.assign(1024, 0x22);
    ASSERT_EQ(aclrtMemcpy(At(4096), 1024, host.data(), 1024, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS)
        << "managed memory is host memory too";
    EXPECT_EQ(static_cast<uint8_t>(At(4096)[1023]), 0x22);
    aclrtFree(dev);
}

TEST_F(ManagedMemory, PointerAttributesSayManaged) {
    Allocate(kTwoMiB);
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(At(10), &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
}

TEST_F(ManagedMemory, AclrtFreeReleasesItAndTheSpaceIsReused) {
    Allocate(3 * kTwoMiB);
    void* first = p_;
    ASSERT_EQ(aclrtFree(p_), ACL_SUCCESS);
    p_ = nullptr;
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(first, &attributes), ACL_SUCCESS);
    EXPECT_NE(attributes.location.type, ACL_MEM_LOCATION_TYPE_MANAGED) << "no longer managed";
    Allocate(kTwoMiB);
    EXPECT_EQ(p_, first) << "the freed range is the first that fits";
}

TEST_F(ManagedMemory, FreeingAnAddressInsideAnAllocationIsRefused) {
    Allocate(kTwoMiB);
    EXPECT_EQ(aclrtFree(At(64)), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("free the address aclrtMemAllocManaged returned");
}

TEST_F(ManagedMemory, AdviceIsReadBackPerRange) {
    Allocate(2 * kTwoMiB);
    ASSERT_EQ(aclrtMemManagedAdvise(p_, kTwoMiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()),
              ACL_SUCCESS)
        << TakeErrMsg();
    int32_t read_mostly = -1;
    ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p_, kTwoMiB, &read_mostly,
                                     sizeof read_mostly),
              ACL_SUCCESS);
    EXPECT_EQ(read_mostly, 1);
    ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p_, 2 * kTwoMiB,
                                     &read_mostly, sizeof read_mostly),
              ACL_SUCCESS);
    EXPECT_EQ(read_mostly, 0) << "only half the range is read-mostly";
}

TEST_F(ManagedMemory, APreferredLocationIsReadBackAsLocationTypeAndId) {
    Allocate(kTwoMiB);
    ASSERT_EQ(aclrtMemManagedAdvise(p_, kTwoMiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Device()),
              ACL_SUCCESS);
    aclrtMemManagedLocation where{};
    int32_t type = -1, id = -1;
    aclrtMemManagedRangeAttribute attributes[3] = {ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
                                                   ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
                                                   ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID};
    void* data[3] = {&where, &type, &id};
    size_t sizes[3] = {sizeof where, sizeof type, sizeof id};
    ASSERT_EQ(aclrtMemManagedGetAttrs(attributes, 3, p_, 100, data, sizes), ACL_SUCCESS);
    EXPECT_EQ(where.type, ACL_MEM_LOCATIONTYPE_DEVICE);
    EXPECT_EQ(where.id, 0);
    EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_DEVICE);
    EXPECT_EQ(id, 0);
    ASSERT_EQ(aclrtMemManagedAdvise(p_, kTwoMiB, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, Host()),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p_, 100,
                                     &type, sizeof type),
              ACL_SUCCESS);
    EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_INVALID);
}

TEST_F(ManagedMemory, AccessedByListsEveryLocationTheWholeRangeNames) {
    Allocate(2 * kTwoMiB);
    ASSERT_EQ(aclrtMemManagedAdvise(p_, 2 * kTwoMiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, Device()),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemManagedAdvise(p_, kTwoMiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, Host()),
              ACL_SUCCESS);
    aclrtMemManagedLocation by[3] = {};
    ASSERT_EQ(
        aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p_, 2 * kTwoMiB, by, sizeof by),
        ACL_SUCCESS);
    EXPECT_EQ(by[0].type, ACL_MEM_LOCATIONTYPE_DEVICE) << "the one location both pages list";
    EXPECT_EQ(by[1].type, ACL_MEM_LOCATIONTYPE_INVALID);
    EXPECT_EQ(by[2].type, ACL_MEM_LOCATIONTYPE_INVALID);
}

TEST_F(ManagedMemory, AdviceNeedsWholePagesOfOneAllocation) {
    Allocate(kTwoMiB);
    EXPECT_EQ(aclrtMemManagedAdvise(p_, 4096, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("must be multiples of 2 MiB");
    EXPECT_EQ(aclrtMemManagedAdvise(p_, 2 * kTwoMiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not inside one live aclrtMemAllocManaged allocation");
}

TEST_F(ManagedMemory, APrefetchRecordsItsLocationInStreamOrder) {
    Allocate(kTwoMiB);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemManagedPrefetchAsync(p_, kTwoMiB, Device(), 0, stream), ACL_SUCCESS)
        << TakeErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    int32_t type = -1;
    ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p_,
                                     kTwoMiB, &type, sizeof type),
              ACL_SUCCESS);
    EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_DEVICE);
    const void* ptrs[2] = {p_, At(kTwoMiB / 2)};
    size_t sizes[2] = {kTwoMiB / 2, kTwoMiB / 2};
    aclrtMemManagedLocation locations[1] = {Host()};
    size_t indexes[1] = {0};
    ASSERT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locations, indexes, 1, 0, stream),
              ACL_SUCCESS)
        << TakeErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p_,
                                     kTwoMiB, &type, sizeof type),
              ACL_SUCCESS);
    EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_HOST);
    aclrtDestroyStream(stream);
}

TEST_F(ManagedMemory, AKernelComputesInManagedMemory) {
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle add = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "vector_add", &add), ACL_SUCCESS);
    constexpr uint64_t n = 1000;
    Allocate(3 * n * sizeof(float));
    auto* x = static_cast<float*>(p_);
    float* y = x + n;
    float* z = y + n;
    for (uint64_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);  // the host fills the inputs in place
        y[i] = 1.0f;
    }
    uint64_t args[4] = {reinterpret_cast<uint64_t>(x), reinterpret_cast<uint64_t>(y),
                        reinterpret_cast<uint64_t>(z), n};
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(add, 4, nullptr, nullptr, args, sizeof args, nullptr, 0),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    for (uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(z[i], static_cast<float>(i) + 1.0f) << i;  // and reads the result in place
    aclrtBinaryUnLoad(binary);
}

// CANN documents managed memory for Atlas A2 only.
class ManagedMemoryOnAtlasA3 : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend910_9391"};
};

TEST_F(ManagedMemoryOnAtlasA3, AllocatingIsFeatureNotSupport) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMemAllocManaged(&p, kTwoMiB, ACL_RT_MEM_ATTACH_GLOBAL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("for Atlas A2 only");
}
