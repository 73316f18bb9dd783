// Memory: device, pinned host and DVPP allocation, synchronous copies and fills, pointer
// attributes and cache maintenance, with the checks that keep copies from corrupting memory.
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

// Device 0 set for the test (DeviceTest) under the names of what is tested.
class Memory : public DeviceTest {};
class Memcpy : public DeviceTest {};
class Memcpy2d : public DeviceTest {};
class Memset : public DeviceTest {};
class PointerAttributes : public DeviceTest {};
class CacheMaintenance : public DeviceTest {};

// With OPENACL_STRICT=1, kind/pointer mismatches the real runtime tolerates become errors.
class StrictMemory : public InitializedDeviceTest {
 private:
    ScopedEnv strict_{"OPENACL_STRICT", "1"};
};

// Two devices (OPENACL_DEVICE_COUNT=2), device 0 current.
class TwoDeviceMemory : public InitializedDeviceTest {
 private:
    ScopedEnv count_{"OPENACL_DEVICE_COUNT", "2"};
};

size_t AlignUp(size_t value, size_t to) {
    return (value + to - 1) / to * to;
}

uintptr_t Address(const void* p) {
    return reinterpret_cast<uintptr_t>(p);
}

void* DeviceAlloc(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return p;
}

size_t FreeBytes() {
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total), ACL_SUCCESS);
    return free_bytes;
}

std::vector<unsigned char> Pattern(size_t size, unsigned char seed = 1) {
    std::vector<unsigned char> bytes(size);
    for (size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<unsigned char>(seed + i * 7);
    return bytes;
}

}  // namespace

// ---- aclrtMalloc and its variants ----

TEST_F(Memory, MallocStartIs64ByteAligned) {
    for (size_t size : {size_t{1}, size_t{31}, size_t{100}, size_t{4097}, size_t{1} << 20}) {
        SCOPED_TRACE(size);
        void* p = DeviceAlloc(size);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(Address(p) % 64, 0u);
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    }
}

TEST_F(Memory, MallocOfZeroBytesIsInvalidParam) {
    void* p = reinterpret_cast<void*>(0x1);
    EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("size is 0");
    EXPECT_EQ(p, nullptr);
}

TEST_F(Memory, MallocWithNullOutputIsInvalidParam) {
    EXPECT_EQ(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtMalloc failed");
}

TEST(MemoryWithoutDevice, MallocIsContextNull) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT_MESSAGE_CONTAINS("no current context");
}

TEST_F(Memory, MallocRoundsSizeUpTo32PlusPadding) {
    for (size_t size : {size_t{1}, size_t{32}, size_t{100}, size_t{1000}}) {
        SCOPED_TRACE(size);
        size_t usable = AlignUp(size, 32) + 32;
        void* p = DeviceAlloc(size);
        std::vector<unsigned char> host = Pattern(usable + 1);
        EXPECT_EQ(aclrtMemcpy(p, usable, host.data(), usable, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(p, usable + 1, host.data(), usable + 1, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    }
}

TEST_F(Memory, MallocAlign32RoundsSizeUpTo32WithoutPadding) {
    for (size_t size : {size_t{1}, size_t{32}, size_t{100}}) {
        SCOPED_TRACE(size);
        size_t usable = AlignUp(size, 32);
        void* p = nullptr;
        ASSERT_EQ(aclrtMallocAlign32(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(Address(p) % 64, 0u);
        std::vector<unsigned char> host = Pattern(usable + 1);
        EXPECT_EQ(aclrtMemcpy(p, usable, host.data(), usable, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(p, usable + 1, host.data(), usable + 1, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    }
}

TEST_F(Memory, MallocCachedAcceptsTheDocumentedPolicies) {
    for (aclrtMemMallocPolicy policy :
         {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY}) {
        SCOPED_TRACE(static_cast<int>(policy));
        void* p = nullptr;
        ASSERT_EQ(aclrtMallocCached(&p, 100, policy), ACL_SUCCESS);
        EXPECT_EQ(Address(p) % 64, 0u);
        std::vector<unsigned char> host = Pattern(161);
        EXPECT_EQ(aclrtMemcpy(p, 160, host.data(), 160, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
            << "the same padding as aclrtMalloc";
        EXPECT_EQ(aclrtMemcpy(p, 161, host.data(), 161, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    }
}

TEST(MemoryHuge1G, MallocCachedHuge1GOnlyRoundsUpToAGibibyte) {
    ScopedEnv memory("OPENACL_DEVICE_MEMORY_MB", "2048");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    size_t before = FreeBytes();
    void* p = nullptr;
    ASSERT_EQ(aclrtMallocCached(&p, 100, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_SUCCESS);
    EXPECT_EQ(before - FreeBytes(), size_t{1} << 30);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(FreeBytes(), before);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(Memory, MallocCachedRejectsOtherPolicies) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMallocCached(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST_P2P), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtMallocCached takes ACL_MEM_MALLOC_HUGE_FIRST");
    EXPECT_EQ(aclrtMallocCached(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY_P2P), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Memory, DvppMallocIs128ByteAligned) {
    std::vector<void*> blocks;
    for (size_t size : {size_t{1}, size_t{100}, size_t{1000}, size_t{5000}}) {
        SCOPED_TRACE(size);
        void* p = nullptr;
        ASSERT_EQ(acldvppMalloc(&p, size), ACL_SUCCESS);
        EXPECT_EQ(Address(p) % 128, 0u);
        blocks.push_back(p);
    }
    for (void* p : blocks)
        EXPECT_EQ(acldvppFree(p), ACL_SUCCESS);
}

TEST_F(Memory, DvppMallocOfZeroBytesIsInvalidParam) {
    void* p = nullptr;
    EXPECT_EQ(acldvppMalloc(&p, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("acldvppMalloc failed");
}

// ---- capacity ----

TEST(MemoryCapacity, ExhaustionIsMemoryAllocationAndLeaksNothing) {
    ScopedEnv memory("OPENACL_DEVICE_MEMORY_MB", "64");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* big = DeviceAlloc(size_t{40} << 20);
    size_t free_before = FreeBytes();
    void* p = reinterpret_cast<void*>(0x1);
    EXPECT_EQ(aclrtMalloc(&p, size_t{40} << 20, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_THAT_MESSAGE_CONTAINS("out of device memory");
    EXPECT_EQ(p, nullptr);
    EXPECT_EQ(FreeBytes(), free_before) << "the failed allocation took nothing";
    void* small = DeviceAlloc(size_t{16} << 20);
    EXPECT_NE(small, nullptr) << "a smaller allocation still fits";
    EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(big), ACL_SUCCESS);
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total), ACL_SUCCESS);
    EXPECT_EQ(free_bytes, total);
    EXPECT_EQ(total, size_t{64} << 20);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(MemoryCapacity, RequestLargerThanTheDeviceFailsNamingTheCapacity) {
    ScopedEnv memory("OPENACL_DEVICE_MEMORY_MB", "64");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size_t{65} << 20, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_THAT_MESSAGE_CONTAINS("OPENACL_DEVICE_MEMORY_MB");
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// ---- aclrtFree ----

TEST_F(Memory, FreeOfNullIsInvalidParam) {
    EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("devPtr is null");
}

TEST_F(Memory, FreeOfHostMemoryIsInvalidParam) {
    void* host = std::calloc(1, 64);
    EXPECT_EQ(aclrtFree(host), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not device memory");
    std::free(host);
}

TEST_F(Memory, FreeOfPinnedMemoryPointsToFreeHost) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(pinned), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("free it with aclrtFreeHost");
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(Memory, DoubleFreeIsInvalidParam) {
    void* p = DeviceAlloc(64);
    ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("was it freed already?");
}

TEST_F(Memory, FreeOfAnInteriorPointerIsInvalidParam) {
    void* p = DeviceAlloc(256);
    EXPECT_EQ(aclrtFree(static_cast<char*>(p) + 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("points 64 bytes into the allocation");
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS) << "the allocation itself is untouched";
}

TEST_F(Memory, FreeWithDevSyncFreesDeviceMemory) {
    void* p = DeviceAlloc(64);
    EXPECT_EQ(aclrtFreeWithDevSync(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
}

// ---- pinned host memory ----

TEST_F(Memory, MallocHostIs64ByteAligned) {
    for (size_t size : {size_t{1}, size_t{100}, size_t{4097}}) {
        SCOPED_TRACE(size);
        void* p = nullptr;
        ASSERT_EQ(aclrtMallocHost(&p, size), ACL_SUCCESS);
        EXPECT_EQ(Address(p) % 64, 0u);
        std::memset(p, 0xab, size);  // host memory: directly usable
        EXPECT_EQ(aclrtFreeHost(p), ACL_SUCCESS);
    }
}

TEST(MemoryWithoutDevice, MallocHostNeedsNoDevice) {
    void* p = nullptr;
    ASSERT_EQ(aclrtMallocHost(&p, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(p), ACL_SUCCESS);
}

TEST_F(Memory, MallocHostOfZeroBytesIsInvalidParam) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtMallocHost failed");
    EXPECT_EQ(aclrtMallocHost(nullptr, 64), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Memory, FreeHostOfDeviceMemoryIsRefused) {
    void* p = DeviceAlloc(64);
    EXPECT_EQ(aclrtFreeHost(p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("free it with aclrtFree, not aclrtFreeHost");
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

TEST_F(Memory, FreeHostTwiceIsRefused) {
    void* p = nullptr;
    ASSERT_EQ(aclrtMallocHost(&p, 64), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeHost(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live aclrtMallocHost allocation");
    EXPECT_EQ(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);
}

// ---- aclrtMemcpy ----

TEST_F(Memcpy, HostToDeviceAndBack) {
    constexpr size_t kSize = 1000;
    void* dev = DeviceAlloc(kSize);
    std::vector<unsigned char> in = Pattern(kSize), out(kSize, 0);
    ASSERT_EQ(aclrtMemcpy(dev, kSize, in.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.data(), kSize, dev, kSize, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy, DeviceToDevice) {
    constexpr size_t kSize = 256;
    void* a = DeviceAlloc(kSize);
    void* b = DeviceAlloc(kSize);
    std::vector<unsigned char> in = Pattern(kSize, 3), out(kSize, 0);
    ASSERT_EQ(aclrtMemcpy(a, kSize, in.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    for (aclrtMemcpyKind kind : {ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE}) {
        SCOPED_TRACE(static_cast<int>(kind));
        ASSERT_EQ(aclrtMemset(b, kSize, 0, kSize), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(b, kSize, a, kSize, kind), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(out.data(), kSize, b, kSize, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        EXPECT_EQ(out, in);
    }
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
}

TEST_F(Memcpy, HostToHost) {
    std::vector<unsigned char> in = Pattern(64), out(64, 0);
    EXPECT_EQ(aclrtMemcpy(out.data(), 64, in.data(), 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
}

TEST_F(Memcpy, HostToBufToDeviceCopiesLikeHostToDevice) {
    void* dev = DeviceAlloc(64);
    std::vector<unsigned char> in = Pattern(64), out(64, 0);
    ASSERT_EQ(aclrtMemcpy(dev, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.data(), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy, DefaultKindInfersTheDirectionFromTheAddresses) {
    void* a = DeviceAlloc(64);
    void* b = DeviceAlloc(64);
    std::vector<unsigned char> in = Pattern(64), out(64, 0), other(64, 0);
    ASSERT_EQ(aclrtMemcpy(a, 64, in.data(), 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);   // H2D
    ASSERT_EQ(aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);           // D2D
    ASSERT_EQ(aclrtMemcpy(out.data(), 64, b, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);  // D2H
    EXPECT_EQ(out, in);
    ASSERT_EQ(aclrtMemcpy(other.data(), 64, out.data(), 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    EXPECT_EQ(other, in);
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
}

TEST_F(Memcpy, DefaultKindStillRefusesFreedDeviceMemory) {
    void* dev = DeviceAlloc(64);
    ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
    char host[64] = {};
    EXPECT_EQ(aclrtMemcpy(host, 64, dev, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not into a live allocation");
}

TEST_F(Memcpy, DeviceToHostWhoseSourceIsPinnedHostMemoryWorks) {
    // A published sample copies results out of an aclrtMallocHost buffer with
    // ACL_MEMCPY_DEVICE_TO_HOST; the real runtime accepts it.
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    std::vector<unsigned char> in = Pattern(64), out(64, 0);
    std::memcpy(pinned, in.data(), 64);
    EXPECT_EQ(aclrtMemcpy(out.data(), 64, pinned, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(Memcpy, PinnedHostMemoryCanBeEitherSideOfAHostDeviceCopy) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 128), ACL_SUCCESS);
    void* dev = DeviceAlloc(128);
    std::vector<unsigned char> in = Pattern(128);
    std::memcpy(pinned, in.data(), 128);
    ASSERT_EQ(aclrtMemcpy(dev, 128, pinned, 128, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    std::memset(pinned, 0, 128);
    ASSERT_EQ(aclrtMemcpy(pinned, 128, dev, 128, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(pinned, in.data(), 128), 0);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(Memcpy, CountLargerThanDestMaxIsInvalidParam) {
    void* dev = DeviceAlloc(64);
    char host[64] = {};
    EXPECT_EQ(aclrtMemcpy(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("count (64 bytes) is larger than destMax (32 bytes)");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy, CountZeroSucceedsAndCopiesNothing) {
    void* dev = DeviceAlloc(64);
    unsigned char host[64];
    std::memset(host, 0x5a, sizeof host);
    ASSERT_EQ(aclrtMemset(dev, 64, 0, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(host, sizeof host, dev, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(host[0], 0x5a);
    EXPECT_EQ(aclrtMemcpy(dev, 0, host, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy, NullPointersAreInvalidParam) {
    void* dev = DeviceAlloc(64);
    char host[64] = {};
    EXPECT_EQ(aclrtMemcpy(nullptr, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dst is null");
    EXPECT_EQ(aclrtMemcpy(dev, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src is null");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy, UnknownKindIsInvalidParam) {
    char a[8] = {}, b[8] = {};
    EXPECT_EQ(aclrtMemcpy(a, 8, b, 8, static_cast<aclrtMemcpyKind>(99)), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("kind 99 is not an aclrtMemcpyKind");
}

TEST_F(Memcpy, StackMemoryWhereTheKindSaysDeviceIsInvalidParam) {
    char dst[64] = {}, src[64] = {};
    EXPECT_EQ(aclrtMemcpy(dst, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not device-accessible memory");
}

TEST_F(Memcpy, MallocMemoryWhereTheKindSaysDeviceIsInvalidParam) {
    void* host = std::calloc(1, 64);
    char out[64] = {};
    EXPECT_EQ(aclrtMemcpy(out, 64, host, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_MEMCPY_DEVICE_TO_HOST says it is device memory");
    std::free(host);
}

TEST_F(Memcpy, FreedDeviceMemoryIsRefused) {
    void* dev = DeviceAlloc(64);
    ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
    char host[64] = {};
    EXPECT_EQ(aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("was freed, or never allocated");
}

TEST_F(Memcpy, RangeRunningPastTheEndOfAnAllocationIsRefused) {
    void* dev = DeviceAlloc(100);  // 160 usable bytes
    std::vector<unsigned char> host = Pattern(160);
    char* inside = static_cast<char*>(dev) + 100;
    EXPECT_EQ(aclrtMemcpy(inside, 60, host.data(), 60, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(inside, 61, host.data(), 61, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("60 bytes left");
    EXPECT_EQ(aclrtMemcpy(host.data(), 160, inside, 61, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM)
        << "the source side is checked too";
    EXPECT_THAT_MESSAGE_CONTAINS("src range of 61 bytes");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy, PinnedRangeRunningPastTheEndIsRefused) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    void* dev = DeviceAlloc(256);
    EXPECT_EQ(aclrtMemcpy(pinned, 128, dev, 128, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(Memcpy, HostToDeviceWhoseSourceIsDeviceMemoryIsToleratedAndCopies) {
    void* a = DeviceAlloc(64);
    void* b = DeviceAlloc(64);
    std::vector<unsigned char> in = Pattern(64), out(64, 0);
    ASSERT_EQ(aclrtMemcpy(a, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "a warning, not an error";
    ASSERT_EQ(aclrtMemcpy(out.data(), 64, b, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
}

TEST_F(StrictMemory, HostToDeviceWhoseSourceIsDeviceMemoryFails) {
    void* a = DeviceAlloc(64);
    void* b = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "is device memory but ACL_MEMCPY_HOST_TO_DEVICE says it is host memory (refused because "
        "OPENACL_STRICT is set)");
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
}

TEST_F(StrictMemory, DeviceToHostWhoseDestinationIsDeviceMemoryFails) {
    void* a = DeviceAlloc(64);
    void* b = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpy(b, 64, a, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is device memory but ACL_MEMCPY_DEVICE_TO_HOST says it is host");
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
}

TEST_F(StrictMemory, CorrectKindsStillWork) {
    void* dev = DeviceAlloc(64);
    std::vector<unsigned char> in = Pattern(64), out(64, 0);
    EXPECT_EQ(aclrtMemcpy(dev, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(out.data(), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(TwoDeviceMemory, CrossDeviceCopyNeedsPeerAccess) {
    void* on0 = DeviceAlloc(64);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    void* on1 = DeviceAlloc(64);
    std::vector<unsigned char> in = Pattern(64), out(64, 0);
    ASSERT_EQ(aclrtMemcpy(on0, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(on1, 64, on0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("needs peer access: call aclrtDeviceEnablePeerAccess");
    ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(on1, 64, on0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.data(), 64, on1, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtMemcpy(on0, 64, on1, 64, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(on1), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(on0), ACL_SUCCESS) << "memory of another device can be freed";
}

// ---- aclrtMemset ----

TEST_F(Memset, FillsBytes) {
    void* dev = DeviceAlloc(64);
    ASSERT_EQ(aclrtMemset(dev, 64, 0x1ab, 64), ACL_SUCCESS);
    std::vector<unsigned char> out(64, 0);
    ASSERT_EQ(aclrtMemcpy(out.data(), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, std::vector<unsigned char>(64, 0xab)) << "the value is used as a byte";
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memset, CountLargerThanMaxCountIsInvalidParam) {
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemset(dev, 32, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("count (64 bytes) is larger than maxCount (32 bytes)");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memset, CountZeroSucceedsAndWritesNothing) {
    void* dev = DeviceAlloc(64);
    ASSERT_EQ(aclrtMemset(dev, 64, 7, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(dev, 64, 9, 0), ACL_SUCCESS);
    unsigned char first = 0;
    ASSERT_EQ(aclrtMemcpy(&first, 1, dev, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(first, 7);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memset, RangePastTheEndOfTheAllocationIsRefused) {
    void* dev = DeviceAlloc(32);  // 64 usable bytes
    EXPECT_EQ(aclrtMemset(dev, 64, 0, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(dev, 65, 0, 65), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memset, FreedDeviceMemoryIsRefused) {
    void* dev = DeviceAlloc(64);
    ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(dev, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtMemset failed");
}

TEST_F(Memset, NullIsInvalidParam) {
    EXPECT_EQ(aclrtMemset(nullptr, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("devPtr is null");
}

TEST_F(Memset, PinnedHostMemoryIsFilled) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(pinned, 64, 0x11, 64), ACL_SUCCESS);
    EXPECT_EQ(static_cast<unsigned char*>(pinned)[63], 0x11);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(StrictMemory, MemsetOfPinnedHostMemoryIsAllowed) {
    // The runtime decides from the pointer whether it is host or device memory; host memory
    // from aclrtMallocHost is a documented target.
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(pinned, 64, 0x22, 64), ACL_SUCCESS);
    EXPECT_EQ(static_cast<unsigned char*>(pinned)[0], 0x22);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(StrictMemory, MemsetOfHostMemoryNotFromAclIsRefused) {
    char host[64] = {};
    EXPECT_EQ(aclrtMemset(host, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("did not come from an acl allocation");
}

// ---- aclrtMemcpy2d ----

TEST_F(Memcpy2d, CopiesRowsBetweenPitches) {
    constexpr size_t kWidth = 8, kHeight = 4, kHostPitch = 16, kDevPitch = 32;
    void* dev = DeviceAlloc(kDevPitch * kHeight);
    ASSERT_EQ(aclrtMemset(dev, kDevPitch * kHeight, 0xee, kDevPitch * kHeight), ACL_SUCCESS);
    std::vector<unsigned char> src = Pattern(kHostPitch * kHeight);
    ASSERT_EQ(aclrtMemcpy2d(dev, kDevPitch, src.data(), kHostPitch, kWidth, kHeight,
                            ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    std::vector<unsigned char> image(kDevPitch * kHeight, 0);
    ASSERT_EQ(aclrtMemcpy(image.data(), image.size(), dev, image.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (size_t row = 0; row < kHeight; ++row) {
        for (size_t col = 0; col < kDevPitch; ++col) {
            unsigned char expected = col < kWidth ? src[row * kHostPitch + col] : 0xee;
            ASSERT_EQ(image[row * kDevPitch + col], expected) << "row " << row << " col " << col;
        }
    }
    std::vector<unsigned char> packed(kWidth * kHeight, 0);
    ASSERT_EQ(aclrtMemcpy2d(packed.data(), kWidth, dev, kDevPitch, kWidth, kHeight,
                            ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (size_t row = 0; row < kHeight; ++row) {
        for (size_t col = 0; col < kWidth; ++col) {
            ASSERT_EQ(packed[row * kWidth + col], src[row * kHostPitch + col]);
        }
    }
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy2d, OnlyHostToDeviceAndDeviceToHost) {
    void* a = DeviceAlloc(64);
    void* b = DeviceAlloc(64);
    char host[64] = {}, other[64] = {};
    for (aclrtMemcpyKind kind : {ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT}) {
        SCOPED_TRACE(static_cast<int>(kind));
        EXPECT_EQ(aclrtMemcpy2d(b, 8, a, 8, 8, 8, kind), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("copies only ACL_MEMCPY_HOST_TO_DEVICE or");
    }
    EXPECT_EQ(aclrtMemcpy2d(host, 8, other, 8, 8, 8, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
}

TEST_F(Memcpy2d, WidthLargerThanAPitchIsRejected) {
    void* dev = DeviceAlloc(256);
    char host[256] = {};
    EXPECT_EQ(aclrtMemcpy2d(dev, 8, host, 16, 12, 2, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("width (12) must not exceed dpitch (8) or spitch (16)");
    EXPECT_EQ(aclrtMemcpy2d(dev, 16, host, 8, 12, 2, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy2d, RowsRunningPastTheDeviceAllocationAreRefused) {
    void* dev = DeviceAlloc(100);  // 160 usable bytes
    std::vector<unsigned char> host(1024, 0);
    // 5 rows at pitch 32: the last row ends at 4 * 32 + 32 = 160 bytes, which fits.
    EXPECT_EQ(aclrtMemcpy2d(dev, 32, host.data(), 32, 32, 5, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy2d(dev, 32, host.data(), 32, 32, 6, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    EXPECT_EQ(aclrtMemcpy2d(host.data(), 32, dev, 40, 32, 5, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM)
        << "the source span is (height - 1) * spitch + width";
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy2d, SpansThatOverflowTheAddressSpaceAreRejected) {
    // (height - 1) * pitch + width wraps around to 0: no byte may be written.
    void* dev = DeviceAlloc(64);
    char host[64] = {};
    const size_t huge_pitch = SIZE_MAX - 7;
    EXPECT_EQ(aclrtMemcpy2d(dev, huge_pitch, host, 8, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("overflow");
    EXPECT_EQ(aclrtMemcpy2d(host, 8, dev, huge_pitch, 8, 2, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(Memcpy2d, HostMemoryWhereTheKindSaysDeviceIsRefused) {
    char a[64] = {}, b[64] = {};
    EXPECT_EQ(aclrtMemcpy2d(a, 8, b, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not device-accessible memory");
}

TEST_F(Memcpy2d, NullPointersAreInvalidParam) {
    char host[64] = {};
    EXPECT_EQ(aclrtMemcpy2d(nullptr, 8, host, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dst is null");
    EXPECT_EQ(aclrtMemcpy2d(host, 8, nullptr, 8, 8, 8, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src is null");
}

// ---- aclrtPointerGetAttributes ----

TEST_F(PointerAttributes, DeviceMemoryIsOnItsDevice) {
    void* dev = DeviceAlloc(256);
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(dev, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(attributes.location.id, 0u);
    EXPECT_GT(attributes.pageSize, 0u);
    ASSERT_EQ(aclrtPointerGetAttributes(static_cast<char*>(dev) + 100, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE) << "interior pointers too";
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(PointerAttributes, PinnedMemoryIsHost) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(pinned, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(PointerAttributes, OrdinaryHostMemoryIsUnregistered) {
    int local = 0;
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(&local, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

TEST_F(PointerAttributes, FreedDeviceMemoryIsInvalidParam) {
    void* dev = DeviceAlloc(64);
    ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
    aclrtPtrAttributes attributes{};
    EXPECT_EQ(aclrtPointerGetAttributes(dev, &attributes), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not into a live allocation");
}

TEST_F(PointerAttributes, NullArgumentsAreInvalidParam) {
    int local = 0;
    aclrtPtrAttributes attributes{};
    EXPECT_EQ(aclrtPointerGetAttributes(nullptr, &attributes), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ptr is null");
    EXPECT_EQ(aclrtPointerGetAttributes(&local, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("attributes is null");
}

// ---- aclrtMemFlush / aclrtMemInvalidate ----

TEST_F(CacheMaintenance, FlushAndInvalidateAcceptAclAllocations) {
    void* dev = DeviceAlloc(256);
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 256), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemFlush(dev, 256), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemInvalidate(dev, 256), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemFlush(static_cast<char*>(dev) + 64, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemFlush(pinned, 256), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemInvalidate(pinned, 256), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(CacheMaintenance, ZeroSizeIsInvalidParam) {
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemFlush(dev, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("size must be > 0");
    EXPECT_EQ(aclrtMemInvalidate(dev, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtMemInvalidate failed");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(CacheMaintenance, MemoryNotFromAclIsInvalidParam) {
    char host[64] = {};
    EXPECT_EQ(aclrtMemFlush(host, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not an acl allocation");
    EXPECT_EQ(aclrtMemInvalidate(nullptr, 64), ACL_ERROR_INVALID_PARAM);
}

TEST_F(CacheMaintenance, RangePastTheEndIsInvalidParam) {
    void* dev = DeviceAlloc(32);  // 64 usable bytes
    EXPECT_EQ(aclrtMemFlush(dev, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemFlush(dev, 65), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("run past the end of the allocation");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}
