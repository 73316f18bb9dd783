// Virtual memory management: address space reserved with aclrtReserveMemAddress, physical memory
// from aclrtMallocPhysical, mapped onto it with aclrtMapMem; mapped ranges are device memory to
// copies, kernels and queries, unmapped ones are refused with an explanation.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "sanitizer.h"
#include "test_support.h"

namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kTwoMiB = 2 * kMiB;

aclrtPhysicalMemProp DeviceProp(aclrtMemAttr attr = ACL_MEM_HUGE, uint32_t device = 0) {
    aclrtPhysicalMemProp prop{};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = attr;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    return prop;
}

class VirtualMemory : public DeviceTest {
 protected:
    void TearDown() override {
        for (void* p : mapped_)
            aclrtUnmapMem(p);
        for (aclrtDrvMemHandle h : handles_)
            aclrtFreePhysical(h);
        for (void* p : reserved_)
            aclrtReleaseMemAddress(p);
        DeviceTest::TearDown();
    }
    void* Reserve(size_t size) {
        void* p = nullptr;
        EXPECT_EQ(aclrtReserveMemAddress(&p, size, 0, nullptr, 0), ACL_SUCCESS) << TakeErrMsg();
        if (p != nullptr) reserved_.push_back(p);
        return p;
    }
    aclrtDrvMemHandle Physical(size_t size = kTwoMiB) {
        aclrtPhysicalMemProp prop = DeviceProp();
        aclrtDrvMemHandle h = nullptr;
        EXPECT_EQ(aclrtMallocPhysical(&h, size, &prop, 0), ACL_SUCCESS) << TakeErrMsg();
        if (h != nullptr) handles_.push_back(h);
        return h;
    }
    void Map(void* at, aclrtDrvMemHandle h, size_t size = kTwoMiB) {
        ASSERT_EQ(aclrtMapMem(at, size, 0, h, 0), ACL_SUCCESS) << TakeErrMsg();
        mapped_.push_back(at);
    }
    // Forgets a handle the test freed itself.
    void ForgetHandle(aclrtDrvMemHandle h) { std::erase(handles_, h); }
    void ForgetMapping(void* mapping) { std::erase(mapped_, mapping); }

    std::vector<void*> reserved_, mapped_;
    std::vector<aclrtDrvMemHandle> handles_;
};

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<uint8_t>(i * 131 + seed);
    return v;
}

char* At(void* base, size_t offset) {
    return static_cast<char*>(base) + offset;
}

}  // namespace

TEST_F(VirtualMemory, GranularityIs2MiBAnd1GiBForGiBPages) {
    aclrtPhysicalMemProp prop = DeviceProp(ACL_MEM_NORMAL);
    size_t granularity = 0;
    EXPECT_EQ(
        aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
        ACL_SUCCESS);
    EXPECT_EQ(granularity, kTwoMiB);
    prop.memAttr = ACL_HBM_MEM_HUGE1G;
    EXPECT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
                                               &granularity),
              ACL_SUCCESS);
    EXPECT_EQ(granularity, size_t{1} << 30);
}

TEST_F(VirtualMemory, ReservationsAreAlignedToTheGranularity) {
    void* p = Reserve(3 * kMiB);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kTwoMiB, 0u);
}

TEST_F(VirtualMemory, TwoPhysicalAllocationsMappedSideBySideAreOneContiguousBuffer) {
    void* base = Reserve(2 * kTwoMiB);
    Map(base, Physical());
    Map(At(base, kTwoMiB), Physical());
    const auto data = Pattern(2 * kTwoMiB, 7);
    ASSERT_EQ(aclrtMemcpy(base, data.size(), data.data(), data.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS)
        << TakeErrMsg();
    std::vector<uint8_t> back(data.size());
    ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), base, back.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(back, data);
}

TEST_F(VirtualMemory, AMappingIsDeviceMemoryOfThePhysicalsDevice) {
    void* base = Reserve(kTwoMiB);
    Map(base, Physical());
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(At(base, 100), &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(attributes.location.id, 0u);
}

TEST_F(VirtualMemory, OnePhysicalMappedAtTwoAddressesSharesItsBytes) {
    aclrtDrvMemHandle h = Physical();
    void* a = Reserve(kTwoMiB);
    void* b = Reserve(kTwoMiB);
    Map(a, h);
    Map(b, h);
    ASSERT_EQ(aclrtMemset(a, kTwoMiB, 0x5a, kTwoMiB), ACL_SUCCESS);
    std::vector<uint8_t> back(kTwoMiB);
    ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), b, back.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(back, std::vector<uint8_t>(kTwoMiB, 0x5a));
}

TEST_F(VirtualMemory, AsyncCopiesOnAStreamReachMappedMemory) {
    void* base = Reserve(kTwoMiB);
    Map(base, Physical());
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, kTwoMiB), ACL_SUCCESS);
    const auto data = Pattern(kTwoMiB, 3);
    std::memcpy(pinned, data.data(), data.size());
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(base, kTwoMiB, pinned, kTwoMiB, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS)
        << TakeErrMsg();
    ASSERT_EQ(aclrtMemsetAsync(pinned, kTwoMiB, 0, kTwoMiB, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(pinned, kTwoMiB, base, kTwoMiB, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(pinned, data.data(), data.size()), 0);
    aclrtDestroyStream(stream);
    aclrtFreeHost(pinned);
}

TEST_F(VirtualMemory, AKernelComputesInMappedMemory) {
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle add = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "vector_add", &add), ACL_SUCCESS);
    constexpr uint64_t n = kTwoMiB / sizeof(float) / 4;  // three vectors in one mapping
    void* base = Reserve(kTwoMiB);
    Map(base, Physical());
    std::vector<float> x(n), y(n);
    for (uint64_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);
        y[i] = 0.5f * static_cast<float>(i);
    }
    void* px = base;
    void* py = At(base, n * sizeof(float));
    void* pz = At(base, 2 * n * sizeof(float));
    ASSERT_EQ(aclrtMemcpy(px, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(py, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    uint64_t args[4] = {reinterpret_cast<uint64_t>(px), reinterpret_cast<uint64_t>(py),
                        reinterpret_cast<uint64_t>(pz), n};
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(add, 8, nullptr, nullptr, args, sizeof args, nullptr, 0),
        ACL_SUCCESS)
        << TakeErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << TakeErrMsg();
    std::vector<float> z(n);
    ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, pz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (uint64_t i = 0; i < n; i += 997)
        EXPECT_EQ(z[i], 1.5f * static_cast<float>(i)) << i;
    aclrtBinaryUnLoad(binary);
}

TEST_F(VirtualMemory, ACopyIntoAnUnmappedPartOfAReservationIsRefused) {
    void* base = Reserve(2 * kTwoMiB);
    Map(base, Physical());
    const auto data = Pattern(64, 1);
    EXPECT_EQ(aclrtMemcpy(At(base, kTwoMiB), 64, data.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("an unmapped part of the 4194304-byte reservation");
    EXPECT_EQ(aclrtMemcpy(At(base, kTwoMiB - 32), 64, data.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM)
        << "a copy running past the mapping's end";
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
}

TEST_F(VirtualMemory, UnmappingMakesTheRangeRefuseCopiesAgain) {
    void* base = Reserve(kTwoMiB);
    aclrtDrvMemHandle h = Physical();
    Map(base, h);
    ASSERT_EQ(aclrtUnmapMem(base), ACL_SUCCESS);
    ForgetMapping(base);
    EXPECT_EQ(aclrtMemset(base, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("map physical memory there with aclrtMapMem first");
    Map(base, h);  // the range and the handle can be used again
    EXPECT_EQ(aclrtMemset(base, 64, 0, 64), ACL_SUCCESS);
}

TEST_F(VirtualMemory, PhysicalMemoryKeepsItsContentAcrossUnmapAndMap) {
    aclrtDrvMemHandle h = Physical();
    void* a = Reserve(kTwoMiB);
    Map(a, h);
    ASSERT_EQ(aclrtMemset(a, kTwoMiB, 0x33, kTwoMiB), ACL_SUCCESS);
    ASSERT_EQ(aclrtUnmapMem(a), ACL_SUCCESS);
    ForgetMapping(a);
    void* b = Reserve(kTwoMiB);
    Map(b, h);
    uint8_t byte = 0;
    ASSERT_EQ(aclrtMemcpy(&byte, 1, At(b, 12345), 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(byte, 0x33);
}

TEST_F(VirtualMemory, ReleasingAReservationThatStillHasMappingsIsRefused) {
    void* base = Reserve(kTwoMiB);
    Map(base, Physical());
    EXPECT_EQ(aclrtReleaseMemAddress(base), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("unmap them with aclrtUnmapMem first");
}

TEST_F(VirtualMemory, FreeingMappedPhysicalMemoryKeepsItUntilTheLastUnmap) {
    void* base = Reserve(kTwoMiB);
    aclrtDrvMemHandle h = Physical();
    Map(base, h);
    ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
    ForgetHandle(h);
    EXPECT_EQ(aclrtMemset(base, kTwoMiB, 1, kTwoMiB), ACL_SUCCESS) << "still mapped, still there";
    aclrtPhysicalMemProp prop{};
    EXPECT_EQ(aclrtMemGetAllocationPropertiesFromHandle(h, &prop), ACL_ERROR_INVALID_PARAM)
        << "the handle itself is gone";
    EXPECT_THAT_MESSAGE_CONTAINS("freed already");
}

TEST_F(VirtualMemory, RetainingTheHandleOfAMappingNeedsItsOwnFree) {
    void* base = Reserve(kTwoMiB);
    aclrtDrvMemHandle h = Physical();
    Map(base, h);
    aclrtDrvMemHandle retained = nullptr;
    ASSERT_EQ(aclrtMemRetainAllocationHandle(base, &retained), ACL_SUCCESS);
    EXPECT_EQ(retained, h);
    ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);  // the first reference
    aclrtPhysicalMemProp prop{};
    EXPECT_EQ(aclrtMemGetAllocationPropertiesFromHandle(h, &prop), ACL_SUCCESS)
        << "the retained reference keeps the handle valid";
    EXPECT_EQ(prop.memAttr, ACL_MEM_HUGE);
    EXPECT_EQ(prop.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
}

TEST_F(VirtualMemory, ReadOnlyAccessRefusesCopiesIntoTheMappingButNotOutOfIt) {
    void* base = Reserve(kTwoMiB);
    Map(base, Physical());
    aclrtMemAccessDesc desc{};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = 0;
    ASSERT_EQ(aclrtMemSetAccess(base, kTwoMiB, &desc, 1), ACL_SUCCESS) << TakeErrMsg();
    uint64_t flags = 0;
    ASSERT_EQ(aclrtMemGetAccess(base, &desc.location, &flags), ACL_SUCCESS);
    EXPECT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
    uint8_t byte = 9;
    EXPECT_EQ(aclrtMemcpy(base, 1, &byte, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("which the device may only read");
    EXPECT_EQ(aclrtMemcpy(&byte, 1, base, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(byte, 0) << "physical memory starts zeroed";
}

TEST_F(VirtualMemory, MapNoAccessRefusesEveryAccessUntilSetAccessGrantsOne) {
    void* base = Reserve(kTwoMiB);
    aclrtDrvMemHandle h = Physical();
    ASSERT_EQ(aclrtMemMapNoAccess(base, kTwoMiB, 0, h, 0), ACL_SUCCESS) << TakeErrMsg();
    mapped_.push_back(base);
    uint8_t byte = 0;
    EXPECT_EQ(aclrtMemcpy(&byte, 1, base, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("which the device may not access at all");
    aclrtMemAccessDesc desc{};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    ASSERT_EQ(aclrtMemSetAccess(base, kTwoMiB, &desc, 1), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(base, kTwoMiB, 7, kTwoMiB), ACL_SUCCESS);
}

TEST_F(VirtualMemory, AMappingMapsAWholePhysicalAllocationAtAnAlignedAddress) {
    void* base = Reserve(3 * kTwoMiB);
    aclrtDrvMemHandle h = Physical();
    EXPECT_EQ(aclrtMapMem(base, kMiB, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("a mapping maps a whole physical allocation");
    EXPECT_EQ(aclrtMapMem(At(base, kMiB), kTwoMiB, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not aligned to 2097152 bytes");
    EXPECT_EQ(aclrtMapMem(At(base, 2 * kTwoMiB), 2 * kTwoMiB, 0, Physical(2 * kTwoMiB), 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("does not lie inside one reservation");
}

TEST_F(VirtualMemory, MappingOverALiveMappingIsRefused) {
    void* base = Reserve(kTwoMiB);
    Map(base, Physical());
    EXPECT_EQ(aclrtMapMem(base, kTwoMiB, 0, Physical(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("overlaps the mapping at");
}

TEST_F(VirtualMemory, APhysicalSizeOffTheGranularityCanBeAllocatedButNotMapped) {
    aclrtDrvMemHandle h = Physical(kMiB);
    void* base = Reserve(kTwoMiB);
    EXPECT_EQ(aclrtMapMem(base, kMiB, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a multiple of the granularity");
}

TEST_F(VirtualMemory, AChosenAddressBetween16And24TiBIsHonoured) {
    if (kThreadSanitized) GTEST_SKIP() << "ThreadSanitizer holds the addresses this test chooses";
    void* const wanted = reinterpret_cast<void*>(uintptr_t{17} << 40);
    void* p = nullptr;
    ASSERT_EQ(aclrtReserveMemAddress(&p, kTwoMiB, 0, wanted, 0), ACL_SUCCESS) << TakeErrMsg();
    reserved_.push_back(p);
    EXPECT_EQ(p, wanted);
    void* again = nullptr;
    EXPECT_EQ(aclrtReserveMemAddress(&again, kTwoMiB, 0, wanted, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not free");
}

TEST_F(VirtualMemory, AChosenAddressOutside16To24TiBIsRefused) {
    void* p = nullptr;
    EXPECT_EQ(
        aclrtReserveMemAddress(&p, kTwoMiB, 0, reinterpret_cast<void*>(uintptr_t{1} << 40), 0),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("outside the 16 TiB - 24 TiB range");
}

TEST_F(VirtualMemory, AddressRangeAnswersForMallocPinnedAndMappedMemory) {
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    void* base = nullptr;
    size_t size = 0;
    ASSERT_EQ(aclrtMemGetAddressRange(At(dev, 10), &base, &size), ACL_SUCCESS);
    EXPECT_EQ(base, dev);
    EXPECT_EQ(size, 1000u);
    void* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host, 300), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemGetAddressRange(At(host, 299), &base, &size), ACL_SUCCESS);
    EXPECT_EQ(base, host);
    EXPECT_EQ(size, 300u);
    void* reserved = Reserve(2 * kTwoMiB);
    Map(At(reserved, kTwoMiB), Physical());
    ASSERT_EQ(aclrtMemGetAddressRange(At(reserved, kTwoMiB + 5), &base, &size), ACL_SUCCESS);
    EXPECT_EQ(base, At(reserved, kTwoMiB));
    EXPECT_EQ(size, kTwoMiB);
    int local = 0;
    EXPECT_EQ(aclrtMemGetAddressRange(&local, &base, &size), ACL_ERROR_INVALID_PARAM);
    aclrtFree(dev);
    aclrtFreeHost(host);
}

TEST_F(VirtualMemory, AclrtFreeOfAMappedAddressPointsToUnmap) {
    void* base = Reserve(kTwoMiB);
    Map(base, Physical());
    EXPECT_EQ(aclrtFree(base), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("undo the mapping with aclrtUnmapMem");
}

TEST_F(VirtualMemory, ThreadsMapCopyAndUnmapTheirOwnRangesAtOnce) {
    std::vector<std::thread> threads;
    std::vector<int> failures(4, 0);
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([t, &failures] {
            aclrtSetDevice(0);
            const auto data = Pattern(kTwoMiB, static_cast<uint8_t>(t));
            std::vector<uint8_t> back(kTwoMiB);
            for (int round = 0; round < 10; ++round) {
                void* p = nullptr;
                aclrtDrvMemHandle h = nullptr;
                aclrtPhysicalMemProp prop = DeviceProp();
                bool ok =
                    aclrtReserveMemAddress(&p, kTwoMiB, 0, nullptr, 0) == ACL_SUCCESS &&
                    aclrtMallocPhysical(&h, kTwoMiB, &prop, 0) == ACL_SUCCESS &&
                    aclrtMapMem(p, kTwoMiB, 0, h, 0) == ACL_SUCCESS &&
                    aclrtMemcpy(p, kTwoMiB, data.data(), kTwoMiB, ACL_MEMCPY_HOST_TO_DEVICE) ==
                        ACL_SUCCESS &&
                    aclrtMemcpy(back.data(), kTwoMiB, p, kTwoMiB, ACL_MEMCPY_DEVICE_TO_HOST) ==
                        ACL_SUCCESS &&
                    back == data && aclrtUnmapMem(p) == ACL_SUCCESS &&
                    aclrtFreePhysical(h) == ACL_SUCCESS && aclrtReleaseMemAddress(p) == ACL_SUCCESS;
                if (!ok) ++failures[t];
            }
        });
    }
    for (std::thread& t : threads)
        t.join();
    EXPECT_EQ(failures, std::vector<int>(4, 0));
}

// Physical memory is device memory: it counts against the device's capacity.
class VirtualMemoryOnASmallDevice : public InitializedDeviceTest {
 private:
    ScopedEnv memory_{"OPENACL_DEVICE_MEMORY_MB", "8"};
};

TEST_F(VirtualMemoryOnASmallDevice, PhysicalMemoryCountsAgainstTheDevicesFreeMemory) {
    size_t free_before = 0, total = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), ACL_SUCCESS);
    aclrtPhysicalMemProp prop = DeviceProp();
    aclrtDrvMemHandle h = nullptr;
    ASSERT_EQ(aclrtMallocPhysical(&h, kTwoMiB, &prop, 0), ACL_SUCCESS);
    size_t free_after = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
    EXPECT_EQ(free_before - free_after, kTwoMiB);
    EXPECT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
}

TEST_F(VirtualMemoryOnASmallDevice, MorePhysicalMemoryThanTheDeviceHasIsAnAllocationError) {
    aclrtPhysicalMemProp prop = DeviceProp();
    aclrtDrvMemHandle h = nullptr;
    EXPECT_EQ(aclrtMallocPhysical(&h, 16 * kMiB, &prop, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_THAT_MESSAGE_CONTAINS("bytes free, not the 16777216 this physical allocation takes");
}

// CANN documents the family for Atlas A2/A3 and the 950; the 310P has none of it.
class VirtualMemoryOn310P : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};

TEST_F(VirtualMemoryOn310P, ReservingIsFeatureNotSupport) {
    void* p = nullptr;
    EXPECT_EQ(aclrtReserveMemAddress(&p, kTwoMiB, 0, nullptr, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("not available on Ascend310P3");
}

TEST_F(VirtualMemory, NoUcMemoryReservationsExistOnAtlasA3Only) {
    void* p = nullptr;
    EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(&p, size_t{1} << 30, 0,
                                               reinterpret_cast<void*>(uintptr_t{48} << 40), 0),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("Atlas A3 parts only");
}

class VirtualMemoryOnAtlasA3 : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend910_9391"};
};

TEST_F(VirtualMemoryOnAtlasA3, NoUcMemoryReservationsTakeWholeGiBAtAChosenAddress) {
    if (kThreadSanitized) GTEST_SKIP() << "ThreadSanitizer holds the addresses this test chooses";
    void* const wanted = reinterpret_cast<void*>(uintptr_t{48} << 40);
    void* p = nullptr;
    EXPECT_EQ(aclrtReserveMemAddressNoUCMemory(&p, size_t{1} << 29, 0, wanted, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a whole number of GiB");
    ASSERT_EQ(aclrtReserveMemAddressNoUCMemory(&p, size_t{1} << 30, 0, wanted, 0), ACL_SUCCESS)
        << TakeErrMsg();
    EXPECT_EQ(p, wanted);
    EXPECT_EQ(aclrtReleaseMemAddress(p), ACL_SUCCESS);
}
