// Host memory that no acl registry knows is checked against the process's mappings before a
// copy or fill touches it: an address range that is not mapped, or not readable (a source) or
// not writable (a destination), is ACL_ERROR_INVALID_PARAM with a message naming the pointer
// and the range, never a SIGSEGV. Ordinary host memory (malloc, stack) still works.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "sanitizer.h"
#include "test_support.h"

namespace {

// Device 0 set for the test (DeviceTest) under the name of what is tested.
// AddressSanitizer maps its shadow over most of the address space (0xdeadbeef0 included) and
// recycles unmapped pages, so "not mapped" cannot be staged there: those builds skip the suite.
constexpr bool kAsan = kAddressSanitized;
class HostPointer : public DeviceTest {
 protected:
    void SetUp() override {
        if (kAsan) GTEST_SKIP() << "AddressSanitizer's shadow maps the addresses tested here";
        DeviceTest::SetUp();
    }
};

// With OPENACL_CHECK=1 the same refusals happen (strict checks only add detail).
class HostPointerStrict : public InitializedDeviceTest {
 protected:
    void SetUp() override {
        if (kAsan) GTEST_SKIP() << "AddressSanitizer's shadow maps the addresses tested here";
        InitializedDeviceTest::SetUp();
    }

 private:
    ScopedEnv check_{"OPENACL_CHECK", "1"};
};

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));
void* const kWild = reinterpret_cast<void*>(0xdeadbeef0);

// Pages mapped for one test: `count` read-write pages, of which single pages can be made
// read-only, inaccessible (PROT_NONE) or unmapped; everything is unmapped at scope exit.
class Pages {
 public:
    explicit Pages(size_t count) : count_(count) {
        void* p = mmap(nullptr, count * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        EXPECT_NE(p, MAP_FAILED);
        base_ = static_cast<unsigned char*>(p == MAP_FAILED ? nullptr : p);
    }
    ~Pages() {
        if (base_ != nullptr) munmap(base_, count_ * kPage);
    }
    Pages(const Pages&) = delete;
    Pages& operator=(const Pages&) = delete;

    unsigned char* page(size_t i) const { return base_ + i * kPage; }
    // The last `bytes` bytes of page i: a range of more bytes runs into page i + 1.
    unsigned char* end_of(size_t i, size_t bytes) const { return page(i + 1) - bytes; }
    void ReadOnly(size_t i) const { EXPECT_EQ(mprotect(page(i), kPage, PROT_READ), 0); }
    void Inaccessible(size_t i) const { EXPECT_EQ(mprotect(page(i), kPage, PROT_NONE), 0); }
    void Unmap(size_t i) const { EXPECT_EQ(munmap(page(i), kPage), 0); }

 private:
    size_t count_;
    unsigned char* base_ = nullptr;
};

void* DeviceAlloc(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return p;
}

// "devPtr range [0x1000, 0x1040) (64 bytes)": how a message describes a plain range.
std::string RangeText(const char* which, const void* p, size_t bytes) {
    char text[96];
    std::snprintf(text, sizeof text, "%s range [%p, %p) (%zu bytes)", which, p,
                  static_cast<const void*>(static_cast<const char*>(p) + bytes), bytes);
    return text;
}

}  // namespace

// ---- aclrtMemset ----

TEST_F(HostPointer, MemsetOfAWildAddressIsInvalidParam) {
    EXPECT_EQ(aclrtMemset(kWild, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "devPtr range [0xdeadbeef0, 0xdeadbef30) (64 bytes) is not mapped in this process");
}

TEST_F(HostPointer, MemsetOfAnUnmappedPageIsInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    EXPECT_EQ(aclrtMemset(pages.page(1), 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not mapped in this process");
}

TEST_F(HostPointer, MemsetOfAReadOnlyPageIsInvalidParam) {
    Pages pages(1);
    pages.ReadOnly(0);
    EXPECT_EQ(aclrtMemset(pages.page(0), 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(RangeText("devPtr", pages.page(0), 64) +
                                 " is not writable in this process");
}

TEST_F(HostPointer, MemsetRunningIntoAnUnmappedPageIsInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    unsigned char* start = pages.end_of(0, 16);
    EXPECT_EQ(aclrtMemset(start, 64, 0x5a, 64), ACL_ERROR_INVALID_PARAM);
    char text[64];
    std::snprintf(text, sizeof text, "nothing is mapped at %p", pages.page(1));
    EXPECT_THAT_MESSAGE_CONTAINS(text);
    EXPECT_EQ(start[0], 0) << "nothing was written";
}

TEST_F(HostPointer, MemsetOfMallocMemoryStillFills) {
    auto* host = static_cast<unsigned char*>(std::malloc(4096));
    ASSERT_NE(host, nullptr);
    EXPECT_EQ(aclrtMemset(host, 4096, 0x33, 4096), ACL_SUCCESS);
    EXPECT_EQ(host[0], 0x33);
    EXPECT_EQ(host[4095], 0x33);
    std::free(host);
}

TEST_F(HostPointer, MemsetOfZeroBytesAtAWildAddressSucceeds) {
    EXPECT_EQ(aclrtMemset(kWild, 64, 0, 0), ACL_SUCCESS);
}

TEST_F(HostPointer, MemsetOfPinnedAndDeviceMemoryIsUnaffected) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 256), ACL_SUCCESS);
    void* dev = DeviceAlloc(256);
    EXPECT_EQ(aclrtMemset(pinned, 256, 1, 256), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(dev, 256, 1, 256), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

// ---- aclrtMemsetAsync ----

TEST_F(HostPointer, MemsetAsyncOfAWildAddressIsInvalidParam) {
    EXPECT_EQ(aclrtMemsetAsync(kWild, 64, 0, 64, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "devPtr range [0xdeadbeef0, 0xdeadbef30) (64 bytes) is not mapped");
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "the stream is unharmed";
}

TEST_F(HostPointer, MemsetAsyncOfAReadOnlyPageIsInvalidParam) {
    Pages pages(1);
    pages.ReadOnly(0);
    EXPECT_EQ(aclrtMemsetAsync(pages.page(0), 64, 0, 64, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not writable in this process");
}

TEST_F(HostPointer, MemsetAsyncRunningIntoAnUnmappedPageIsInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    EXPECT_EQ(aclrtMemsetAsync(pages.end_of(0, 8), 64, 0, 64, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not mapped in this process");
}

TEST_F(HostPointer, MemsetAsyncOfMallocMemoryStillFills) {
    std::vector<unsigned char> host(4096, 0);
    EXPECT_EQ(aclrtMemsetAsync(host.data(), host.size(), 0x44, host.size(), nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(host[4095], 0x44);
}

// ---- aclrtMemcpy ----

TEST_F(HostPointer, MemcpyFromAnUnmappedPageIsInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpy(dev, 64, pages.page(1), 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(RangeText("src", pages.page(1), 64) +
                                 " is not mapped in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyToAWildAddressIsInvalidParam) {
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpy(kWild, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dst range [0xdeadbeef0, 0xdeadbef30) (64 bytes) is not mapped");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyIntoAReadOnlyPageIsInvalidParam) {
    Pages pages(1);
    pages.ReadOnly(0);
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpy(pages.page(0), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not writable in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyFromAReadOnlyPageWorks) {
    Pages pages(1);
    std::memset(pages.page(0), 0x21, 64);
    pages.ReadOnly(0);
    unsigned char out[64] = {};
    EXPECT_EQ(aclrtMemcpy(out, sizeof out, pages.page(0), 64, ACL_MEMCPY_HOST_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(out[63], 0x21);
}

TEST_F(HostPointer, MemcpyFromAnInaccessiblePageIsInvalidParam) {
    Pages pages(1);
    pages.Inaccessible(0);
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpy(dev, 64, pages.page(0), 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not readable in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyFromAReservationWithoutAccessIsInvalidParam) {
    // An address space reservation (PROT_NONE, MAP_NORESERVE) is mapped but not accessible.
    const size_t size = size_t{1} << 30;
    void* reserved =
        mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ASSERT_NE(reserved, MAP_FAILED);
    unsigned char out[64];
    EXPECT_EQ(aclrtMemcpy(out, sizeof out, reserved, 64, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("PROT_NONE");
    munmap(reserved, size);
}

TEST_F(HostPointer, MemcpySourceRunningIntoAnUnmappedPageIsInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    unsigned char out[64];
    EXPECT_EQ(aclrtMemcpy(out, sizeof out, pages.end_of(0, 32), 64, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src range");
}

TEST_F(HostPointer, MemcpyDestinationRunningIntoAReadOnlyPageIsInvalidParam) {
    Pages pages(2);
    pages.ReadOnly(1);
    unsigned char in[64] = {};
    EXPECT_EQ(aclrtMemcpy(pages.end_of(0, 32), 64, in, 64, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    char text[80];
    std::snprintf(text, sizeof text, "not writable in this process: %p lies in", pages.page(1));
    EXPECT_THAT_MESSAGE_CONTAINS(text);
}

TEST_F(HostPointer, MemcpyWithTheDefaultKindChecksTheHostSide) {
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpy(kWild, 64, dev, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not mapped in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyOfZeroBytesFromAWildAddressSucceeds) {
    unsigned char out[8];
    EXPECT_EQ(aclrtMemcpy(out, sizeof out, kWild, 0, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyOfMallocAndStackMemoryStillWorks) {
    const size_t size = size_t{64} << 20;
    auto* big = static_cast<unsigned char*>(std::malloc(size));
    ASSERT_NE(big, nullptr);
    std::memset(big, 0x7e, size);
    void* dev = DeviceAlloc(size);
    EXPECT_EQ(aclrtMemcpy(dev, size, big, size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    unsigned char tail[256] = {};
    EXPECT_EQ(aclrtMemcpy(tail, sizeof tail, static_cast<unsigned char*>(dev) + size - 256, 256,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(tail[255], 0x7e);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    std::free(big);
}

// ---- aclrtMemcpyAsync: pageable memory is copied before the call returns, so it is checked
// at the call ----

TEST_F(HostPointer, MemcpyAsyncFromAnInaccessiblePageIsInvalidParam) {
    Pages pages(1);
    pages.Inaccessible(0);
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpyAsync(dev, 64, pages.page(0), 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not readable in this process");
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "the stream is unharmed";
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyAsyncIntoAReadOnlyPageIsInvalidParam) {
    Pages pages(1);
    pages.ReadOnly(0);
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpyAsync(pages.page(0), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not writable in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyAsyncFromAnUnmappedPageIsInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    unsigned char out[64];
    EXPECT_EQ(
        aclrtMemcpyAsync(out, sizeof out, pages.page(1), 64, ACL_MEMCPY_HOST_TO_HOST, nullptr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not mapped in this process");
}

TEST_F(HostPointer, MemcpyAsyncRunningIntoAnUnmappedPageIsInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(aclrtMemcpyAsync(pages.end_of(0, 8), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not mapped in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, MemcpyAsyncOfMallocMemoryStillWorks) {
    std::vector<unsigned char> in(4096, 0x19), out(4096, 0);
    void* dev = DeviceAlloc(4096);
    EXPECT_EQ(aclrtMemcpyAsync(dev, 4096, in.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpyAsync(out.data(), 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(out[4095], 0x19);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// ---- aclrtMemcpy2d and aclrtMemcpy2dAsync: only the rows are checked, not the bytes between
// them ----

TEST_F(HostPointer, Memcpy2dSourceRowsRunningIntoAnUnmappedPageAreInvalidParam) {
    Pages pages(2);
    pages.Unmap(1);
    void* dev = DeviceAlloc(1024);
    // 4 rows of 64 bytes at pitch 128 from 256 bytes before the hole: the last row is in it.
    EXPECT_EQ(aclrtMemcpy2d(dev, 64, pages.end_of(0, 256), 128, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src range of 4 rows of 64 bytes, 128 bytes apart");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, Memcpy2dIntoAReadOnlyPageIsInvalidParam) {
    Pages pages(1);
    pages.ReadOnly(0);
    void* dev = DeviceAlloc(1024);
    EXPECT_EQ(aclrtMemcpy2d(pages.page(0), 64, dev, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not writable in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, Memcpy2dFromAnInaccessiblePageIsInvalidParam) {
    Pages pages(1);
    pages.Inaccessible(0);
    void* dev = DeviceAlloc(1024);
    EXPECT_EQ(aclrtMemcpy2d(dev, 64, pages.page(0), 64, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not readable in this process");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, Memcpy2dRowsAroundAnUnmappedPageStillCopy) {
    // Row 0 ends the first page, row 1 starts the third: the hole lies between the rows.
    Pages pages(3);
    pages.Unmap(1);
    std::memset(pages.end_of(0, 16), 0x61, 16);
    std::memset(pages.page(2), 0x62, 16);
    void* dev = DeviceAlloc(64);
    EXPECT_EQ(
        aclrtMemcpy2d(dev, 16, pages.end_of(0, 16), kPage + 16, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE),
        ACL_SUCCESS);
    unsigned char out[32] = {};
    EXPECT_EQ(aclrtMemcpy(out, sizeof out, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out[0], 0x61);
    EXPECT_EQ(out[16], 0x62);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, Memcpy2dAsyncIntoAnInaccessiblePageIsInvalidParam) {
    Pages pages(1);
    pages.Inaccessible(0);
    void* dev = DeviceAlloc(1024);
    EXPECT_EQ(
        aclrtMemcpy2dAsync(pages.page(0), 64, dev, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not writable in this process");
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "the stream is unharmed";
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, Memcpy2dAsyncFromAWildAddressIsInvalidParam) {
    void* dev = DeviceAlloc(1024);
    EXPECT_EQ(aclrtMemcpy2dAsync(dev, 64, kWild, 64, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not mapped in this process: nothing is mapped at 0xdeadbeef0");
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(HostPointer, Memcpy2dAsyncOfMallocMemoryStillWorks) {
    std::vector<unsigned char> in(256, 0x3c), out(256, 0);
    void* dev = DeviceAlloc(256);
    EXPECT_EQ(aclrtMemcpy2dAsync(dev, 64, in.data(), 64, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
              ACL_SUCCESS);
    EXPECT_EQ(
        aclrtMemcpy2dAsync(out.data(), 64, dev, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
        ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(out[255], 0x3c);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// ---- strict checks ----

TEST_F(HostPointerStrict, AWildAddressIsRefusedWithTheSameMessage) {
    EXPECT_EQ(aclrtMemset(kWild, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "devPtr range [0xdeadbeef0, 0xdeadbef30) (64 bytes) is not mapped");
}

TEST_F(HostPointerStrict, FreedPinnedMemoryIsNamed) {
    // 64 MiB is above glibc's largest mmap threshold: freeing it unmaps it.
    const size_t size = size_t{64} << 20;
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, size), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
    unsigned char out[64];
    EXPECT_EQ(aclrtMemcpy(out, sizeof out, pinned, 64, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("it was in a 67108864-byte aclrtMallocHost allocation");
}

// ---- a forked child checks its own mappings, not its parent's ----

TEST_F(HostPointer, AForkedChildChecksItsOwnMappings) {
    Pages pages(1);
    unsigned char out[64];
    // The parent has asked once, so it holds its query descriptor before the fork.
    ASSERT_EQ(aclrtMemcpy(out, sizeof out, pages.page(0), 64, ACL_MEMCPY_HOST_TO_HOST),
              ACL_SUCCESS);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        alarm(20);  // a child that hangs dies instead of holding the test
        munmap(pages.page(0), kPage);
        const aclError rc =
            aclrtMemcpy(out, sizeof out, pages.page(0), 64, ACL_MEMCPY_HOST_TO_HOST);
        _exit(rc == ACL_ERROR_INVALID_PARAM ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "the child saw its parent's mapping (or crashed)";
}
