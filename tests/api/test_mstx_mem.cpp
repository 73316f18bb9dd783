// mstx memory pools (mstx/ms_tools_ext_mem.h): a program's own pool of device memory (a heap)
// and what it hands out of it (regions), registered and unregistered as documented.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "mstx/ms_tools_ext.h"
#include "test_support.h"

namespace {

constexpr uint64_t kPoolBytes = 1 << 20;

// A pool of device memory on device 0, and the descriptions of it and of its parts.
class MstxMem : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtMalloc(&pool_, kPoolBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        pool_range_ = {0, pool_, kPoolBytes};
        heap_desc_.usage = MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR;
        heap_desc_.type = MSTX_MEM_TYPE_VIRTUAL_ADDRESS;
        heap_desc_.typeSpecificDesc = &pool_range_;
    }
    void TearDown() override {
        aclrtFree(pool_);
        DeviceTest::TearDown();
    }
    mstxMemVirtualRangeDesc_t Part(uint64_t offset, uint64_t bytes) const {
        return {0, static_cast<char*>(pool_) + offset, bytes};
    }
    // Registers `ranges` as regions of `heap`; returns their handles.
    static std::vector<mstxMemRegionHandle_t> Register(
        mstxDomainHandle_t domain, mstxMemHeapHandle_t heap,
        const std::vector<mstxMemVirtualRangeDesc_t>& ranges) {
        std::vector<mstxMemRegionHandle_t> handles(ranges.size());
        mstxMemRegionsRegisterBatch_t batch{};
        batch.heap = heap;
        batch.regionType = MSTX_MEM_TYPE_VIRTUAL_ADDRESS;
        batch.regionCount = ranges.size();
        batch.regionDescArray = ranges.data();
        batch.regionHandleArrayOut = handles.data();
        mstxMemRegionsRegister(domain, &batch);
        return handles;
    }
    static void Unregister(mstxDomainHandle_t domain, const std::vector<mstxMemRegionRef_t>& refs) {
        mstxMemRegionsUnregisterBatch_t batch{refs.size(), refs.data()};
        mstxMemRegionsUnregister(domain, &batch);
    }
    static mstxMemRegionRef_t ByPointer(const void* p) {
        mstxMemRegionRef_t ref{};
        ref.refType = MSTX_MEM_REGION_REF_TYPE_POINTER;
        ref.pointer = p;
        return ref;
    }
    static mstxMemRegionRef_t ByHandle(mstxMemRegionHandle_t handle) {
        mstxMemRegionRef_t ref{};
        ref.refType = MSTX_MEM_REGION_REF_TYPE_HANDLE;
        ref.handle = handle;
        return ref;
    }

    void* pool_ = nullptr;
    mstxMemVirtualRangeDesc_t pool_range_{};
    mstxMemHeapDesc_t heap_desc_{};
};

TEST_F(MstxMem, RegionsOfAHeapComeAndGoByPointerOrByHandle) {
    mstxMemHeapHandle_t heap = mstxMemHeapRegister(globalDomain, &heap_desc_);
    ASSERT_NE(heap, nullptr);
    const auto parts = std::vector{Part(0, 4096), Part(4096, 8192)};
    const auto handles = Register(globalDomain, heap, parts);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    ASSERT_NE(handles[0], nullptr);
    ASSERT_NE(handles[1], nullptr);
    EXPECT_NE(handles[0], handles[1]);
    Unregister(globalDomain, {ByPointer(parts[0].ptr), ByHandle(handles[1])});
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    Unregister(globalDomain, {ByHandle(handles[0])});  // gone already
    EXPECT_THAT_MESSAGE_CONTAINS("names no region registered");
    mstxMemHeapUnregister(globalDomain, heap);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST_F(MstxMem, ARegionMustLieInsideItsHeap) {
    mstxMemHeapHandle_t heap = mstxMemHeapRegister(globalDomain, &heap_desc_);
    ASSERT_NE(heap, nullptr);
    const auto handles = Register(globalDomain, heap, {Part(0, 64), Part(kPoolBytes - 64, 128)});
    EXPECT_THAT_MESSAGE_CONTAINS("region 1");
    // All or none: the first region was not registered either.
    Unregister(globalDomain, {ByPointer(pool_)});
    EXPECT_THAT_MESSAGE_CONTAINS("names no region registered");
    Register(globalDomain, heap, {Part(kPoolBytes - 64, 64)});  // the last bytes are inside
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    mstxMemHeapUnregister(globalDomain, heap);
}

TEST_F(MstxMem, AHeapIsDeviceMemoryAlreadyAllocatedOnTheDeviceItNames) {
    std::vector<char> host(4096);
    mstxMemVirtualRangeDesc_t on_host{0, host.data(), host.size()};
    heap_desc_.typeSpecificDesc = &on_host;
    EXPECT_EQ(mstxMemHeapRegister(globalDomain, &heap_desc_), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("not device memory");
    mstxMemVirtualRangeDesc_t other_device = pool_range_;
    other_device.deviceId = 1;
    heap_desc_.typeSpecificDesc = &other_device;
    EXPECT_EQ(mstxMemHeapRegister(globalDomain, &heap_desc_), nullptr);
    uint32_t devices = 0;
    ASSERT_EQ(aclrtGetDeviceCount(&devices), ACL_SUCCESS);
    EXPECT_THAT_MESSAGE_CONTAINS(devices > 1 ? "memory of device 0, but deviceId is 1"
                                             : "deviceId 1 is not a device");
}

TEST_F(MstxMem, UnregisteringAHeapUnregistersItsRegions) {
    mstxMemHeapHandle_t heap = mstxMemHeapRegister(globalDomain, &heap_desc_);
    const auto handles = Register(globalDomain, heap, {Part(0, 256)});
    mstxMemHeapUnregister(globalDomain, heap);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    Unregister(globalDomain, {ByHandle(handles[0])});
    EXPECT_THAT_MESSAGE_CONTAINS("names no region registered");
    mstxMemHeapUnregister(globalDomain, heap);
    EXPECT_THAT_MESSAGE_CONTAINS("not a registered heap");
}

TEST_F(MstxMem, HeapsAndRegionsBelongToTheirDomain) {
    mstxDomainHandle_t domain = mstxDomainCreateA("pool_owner");
    mstxMemHeapHandle_t heap = mstxMemHeapRegister(domain, &heap_desc_);
    ASSERT_NE(heap, nullptr);
    Register(globalDomain, heap, {Part(0, 64)});
    EXPECT_THAT_MESSAGE_CONTAINS("not to the default domain");
    const auto handles = Register(domain, heap, {Part(0, 64)});
    Unregister(globalDomain, {ByHandle(handles[0])});
    EXPECT_THAT_MESSAGE_CONTAINS("names no region registered in the default domain");
    mstxMemHeapUnregister(globalDomain, heap);
    EXPECT_THAT_MESSAGE_CONTAINS("belongs to domain");
    mstxMemHeapUnregister(domain, heap);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    mstxDomainDestroy(domain);
}

TEST_F(MstxMem, DestroyingADomainUnregistersItsHeaps) {
    mstxDomainHandle_t domain = mstxDomainCreateA("pool_domain");
    mstxMemHeapHandle_t heap = mstxMemHeapRegister(domain, &heap_desc_);
    ASSERT_NE(heap, nullptr);
    mstxDomainDestroy(domain);
    mstxDomainHandle_t again = mstxDomainCreateA("pool_domain");
    mstxMemHeapUnregister(again, heap);
    EXPECT_THAT_MESSAGE_CONTAINS("not a registered heap");
    mstxDomainDestroy(again);
}

}  // namespace
