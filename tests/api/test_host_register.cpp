// Host memory registration: memory the program allocated itself becomes pinned memory for the
// runtime (aclrtHostRegister, aclrtHostRegisterV2, aclrtHostUnregister), with a device address
// (aclrtHostGetDevicePointer) that kernels can be given.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

constexpr size_t kPage = 4096;

// Page-aligned memory from the C library, as programs register it.
class PageBuffer {
 public:
    explicit PageBuffer(size_t size) : size_(size), p_(std::aligned_alloc(kPage, size)) {}
    ~PageBuffer() { std::free(p_); }
    void* get() const { return p_; }
    size_t size() const { return size_; }
    char* at(size_t offset) const { return static_cast<char*>(p_) + offset; }

 private:
    size_t size_;
    void* p_;
};

class HostRegister : public DeviceTest {};

}  // namespace

TEST_F(HostRegister, RegisteredMallocMemoryIsPinnedHostMemory) {
    PageBuffer buffer(4 * kPage);
    void* device = nullptr;
    ASSERT_EQ(aclrtHostRegister(buffer.get(), buffer.size(), ACL_HOST_REGISTER_MAPPED, &device),
              ACL_SUCCESS)
        << TakeErrMsg();
    EXPECT_EQ(device, buffer.get()) << "one address space on the CPU";
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(buffer.at(100), &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    EXPECT_EQ(aclrtHostUnregister(buffer.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtPointerGetAttributes(buffer.at(100), &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

TEST_F(HostRegister, AsyncCopiesFromRegisteredMemoryRunOnTheStream) {
    PageBuffer buffer(kPage);
    ASSERT_EQ(aclrtHostRegisterV2(buffer.get(), buffer.size(), ACL_HOST_REG_PINNED), ACL_SUCCESS);
    for (size_t i = 0; i < kPage; ++i)
        buffer.at(0)[i] = static_cast<char>(i * 7);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, kPage, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dev, kPage, buffer.get(), kPage, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    std::vector<char> back(kPage);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(back.data(), kPage, dev, kPage, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(back.data(), buffer.get(), kPage), 0);
    aclrtDestroyStream(stream);
    aclrtFree(dev);
    EXPECT_EQ(aclrtHostUnregister(buffer.get()), ACL_SUCCESS);
}

TEST_F(HostRegister, ACopyRunningPastTheRegisteredRangeIsRefused) {
    PageBuffer buffer(2 * kPage);
    ASSERT_EQ(aclrtHostRegisterV2(buffer.get(), kPage, ACL_HOST_REG_PINNED), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 2 * kPage, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(dev, 2 * kPage, buffer.get(), 2 * kPage, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM)
        << "registered memory is bounded by its registration, as aclrtMallocHost memory is";
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    EXPECT_EQ(aclrtMemcpy(dev, kPage, buffer.get(), kPage, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    aclrtFree(dev);
    aclrtHostUnregister(buffer.get());
}

TEST_F(HostRegister, MappedRegistrationsHaveADevicePointer) {
    PageBuffer buffer(kPage);
    ASSERT_EQ(aclrtHostRegisterV2(buffer.get(), kPage, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED),
              ACL_SUCCESS);
    void* device = nullptr;
    ASSERT_EQ(aclrtHostGetDevicePointer(buffer.at(64), &device, 0), ACL_SUCCESS);
    EXPECT_EQ(device, buffer.at(64));
    aclrtHostUnregister(buffer.get());
}

TEST_F(HostRegister, PinnedOnlyRegistrationsHaveNoDevicePointer) {
    PageBuffer buffer(kPage);
    ASSERT_EQ(aclrtHostRegisterV2(buffer.get(), kPage, ACL_HOST_REG_PINNED), ACL_SUCCESS);
    void* device = nullptr;
    EXPECT_EQ(aclrtHostGetDevicePointer(buffer.get(), &device, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("without ACL_HOST_REG_MAPPED");
    aclrtHostUnregister(buffer.get());
}

TEST_F(HostRegister, AclrtMallocHostMemoryCanBeRegisteredToo) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 2 * kPage), ACL_SUCCESS);
    void* device = nullptr;
    // aclrtMallocHost aligns to 64 bytes; register the page-aligned part of it.
    auto* page = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(pinned) + kPage - 1) &
                                         ~uintptr_t{kPage - 1});
    const size_t left = 2 * kPage - (static_cast<char*>(page) - static_cast<char*>(pinned));
    ASSERT_EQ(aclrtHostRegister(page, left, ACL_HOST_REGISTER_MAPPED, &device), ACL_SUCCESS)
        << TakeErrMsg();
    EXPECT_EQ(aclrtHostUnregister(page), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(HostRegister, AnUnalignedAddressIsRefused) {
    PageBuffer buffer(2 * kPage);
    void* device = nullptr;
    EXPECT_EQ(aclrtHostRegister(buffer.at(8), kPage, ACL_HOST_REGISTER_MAPPED, &device),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not aligned to the 4096-byte page");
}

TEST_F(HostRegister, RegisteringAnOverlappingRangeIsRefused) {
    PageBuffer buffer(4 * kPage);
    ASSERT_EQ(aclrtHostRegisterV2(buffer.at(kPage), 2 * kPage, ACL_HOST_REG_PINNED), ACL_SUCCESS);
    EXPECT_EQ(aclrtHostRegisterV2(buffer.get(), 2 * kPage, ACL_HOST_REG_PINNED),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("overlaps the registered range");
    EXPECT_EQ(aclrtHostRegisterV2(buffer.at(2 * kPage), kPage, ACL_HOST_REG_PINNED),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtHostRegisterV2(buffer.at(3 * kPage), kPage, ACL_HOST_REG_PINNED), ACL_SUCCESS)
        << "the page after the range is free";
    aclrtHostUnregister(buffer.at(kPage));
    aclrtHostUnregister(buffer.at(3 * kPage));
}

TEST_F(HostRegister, UnmappedMemoryIsRefused) {
    // Another thread of the process (a sanitizer's allocator, the runtime's own) may map the
    // freed page again before the call, and the call then rightly succeeds: only an answer
    // given while the page was still unmapped counts.
    for (int attempt = 0; attempt < 20; ++attempt) {
        void* p =
            mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(p, MAP_FAILED);
        char* second = static_cast<char*>(p) + kPage;
        munmap(second, kPage);
        const aclError rc = aclrtHostRegisterV2(p, 2 * kPage, ACL_HOST_REG_PINNED);
        const bool still_unmapped = msync(second, kPage, MS_ASYNC) != 0 && errno == ENOMEM;
        if (rc == ACL_SUCCESS) {
            EXPECT_EQ(aclrtHostUnregister(p), ACL_SUCCESS);
        }
        munmap(p, kPage);
        if (!still_unmapped) continue;
        EXPECT_EQ(rc, ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("not mapped");
        return;
    }
    FAIL() << "the freed page was mapped again before every call";
}

TEST_F(HostRegister, ReadOnlyMemoryIsRefused) {
    void* p = mmap(nullptr, kPage, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    EXPECT_EQ(aclrtHostRegisterV2(p, kPage, ACL_HOST_REG_PINNED), ACL_ERROR_INVALID_PARAM);
    munmap(p, kPage);
}

TEST_F(HostRegister, DeviceMemoryCannotBeRegistered) {
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 2 * kPage, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    void* aligned = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(dev) + kPage - 1) &
                                            ~uintptr_t{kPage - 1});
    EXPECT_EQ(aclrtHostRegisterV2(aligned, 64, ACL_HOST_REG_PINNED), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is device memory");
    aclrtFree(dev);
}

TEST_F(HostRegister, FreeingRegisteredMemoryWithAclrtFreeHostIsRefused) {
    PageBuffer buffer(kPage);
    ASSERT_EQ(aclrtHostRegisterV2(buffer.get(), kPage, ACL_HOST_REG_PINNED), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(buffer.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("undo it with aclrtHostUnregister");
    aclrtHostUnregister(buffer.get());
}

TEST_F(HostRegister, UnregisteringTwiceIsRefused) {
    PageBuffer buffer(kPage);
    ASSERT_EQ(aclrtHostRegisterV2(buffer.get(), kPage, ACL_HOST_REG_PINNED), ACL_SUCCESS);
    ASSERT_EQ(aclrtHostUnregister(buffer.get()), ACL_SUCCESS);
    EXPECT_EQ(aclrtHostUnregister(buffer.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not registered host memory");
}

TEST_F(HostRegister, ReservedRegistrationKindsAreFeatureNotSupport) {
    PageBuffer buffer(kPage);
    void* device = nullptr;
    EXPECT_EQ(aclrtHostRegister(buffer.get(), kPage, ACL_HOST_REGISTER_READONLY, &device),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclrtHostRegisterV2(buffer.get(), kPage, ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(HostRegister, EveryEngineOfTheCpuDeviceReachesRegisteredMemory) {
    for (int hac = ACL_RT_HAC_TYPE_STARS; hac <= ACL_RT_HAC_TYPE_CCU; ++hac) {
        aclrtHostMemMapCapability capability = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
        ASSERT_EQ(aclrtHostMemMapCapabilities(0, static_cast<aclrtHacType>(hac), &capability),
                  ACL_SUCCESS);
        EXPECT_EQ(capability, ACL_RT_HOST_MEM_MAP_SUPPORTED) << hac;
    }
}

TEST_F(HostRegister, MallocHostWithCfgIsPinnedMemory) {
    aclrtMallocAttribute attribute{};
    attribute.attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attribute.value.moduleId = 3;
    aclrtMallocConfig cfg{&attribute, 1};
    void* p = nullptr;
    ASSERT_EQ(aclrtMallocHostWithCfg(&p, 1000, &cfg), ACL_SUCCESS);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(p, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    EXPECT_EQ(aclrtFreeHost(p), ACL_SUCCESS);
}

TEST_F(HostRegister, TaskSchedulerMemoryIsDeviceMemory) {
    void* p = nullptr;
    ASSERT_EQ(aclrtMallocForTaskScheduler(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST, nullptr),
              ACL_SUCCESS);
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(p, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}
