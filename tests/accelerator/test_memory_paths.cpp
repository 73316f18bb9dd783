// Memory on an accelerator device (OPENACL_BACKEND=cuda), through the public API, on the fake
// accelerator: device memory is the accelerator's and only the accelerator moves data in it.
#include <cstring>
#include <numeric>
#include <vector>

#include "accelerator_test.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

namespace openacl::testing {
namespace {

using MemoryPaths = AcceleratorTest;

TEST_F(MemoryPaths, AclInitTakesTheDevicesFromTheAccelerator) {
    uint32_t count = 0;
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 1u);
}

TEST_F(MemoryPaths, MallocAllocatesTheAcceleratorsMemoryAndFreeReturnsIt) {
    void* p = Device(1000);
    EXPECT_TRUE(fake_->fake_memory().Contains(p));
    EXPECT_GE(fake_->fake_memory().used(), 1000u);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(fake_->fake_memory().used(), 0u);
}

TEST_F(MemoryPaths, MemcpyOfEveryKindGoesThroughTheAccelerator) {
    std::vector<int> in(256), out(256, 0);
    std::iota(in.begin(), in.end(), 7);
    const size_t bytes = in.size() * sizeof(int);
    void* a = Device(bytes);
    void* b = Device(bytes);
    void* pinned = Pinned(bytes);
    const uint64_t before = fake_->sync_copies();
    ASSERT_EQ(aclrtMemcpy(a, bytes, in.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpy(b, bytes, a, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(pinned, bytes, b, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.data(), bytes, pinned, bytes, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(b, bytes, in.data(), bytes, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(fake_->sync_copies() - before, 4u) << "copies touching device memory";
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(MemoryPaths, MemsetFillsDeviceMemoryThroughTheAccelerator) {
    void* p = Device(64);
    ASSERT_EQ(aclrtMemset(p, 64, 0x5a, 48), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<unsigned char> out(64, 0);
    ASSERT_EQ(aclrtMemcpy(out.data(), 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (size_t i = 0; i < 48; ++i)
        EXPECT_EQ(out[i], 0x5a) << i;
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

TEST_F(MemoryPaths, Memcpy2dCopiesRowsBetweenPitches) {
    // 3 rows of 4 bytes, from a pitch of 6 on the host to a pitch of 8 on the device and back.
    std::vector<unsigned char> src(18), back(18, 0);
    std::iota(src.begin(), src.end(), 1);
    void* d = Device(24);
    ASSERT_EQ(aclrtMemcpy2d(d, 8, src.data(), 6, 4, 3, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpy2d(back.data(), 6, d, 8, 4, 3, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    for (size_t row = 0; row < 3; ++row) {
        for (size_t col = 0; col < 4; ++col)
            EXPECT_EQ(back[row * 6 + col], src[row * 6 + col]) << row << "," << col;
        EXPECT_EQ(back[row * 6 + 4], 0) << "bytes between rows are not copied";
    }
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

TEST_F(MemoryPaths, GetMemInfoReportsTheAcceleratorsNumbers) {
    void* p = Device(1 << 20);
    size_t free_bytes = 0, total_bytes = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes), ACL_SUCCESS);
    EXPECT_EQ(total_bytes, fake_->fake_memory().capacity());
    EXPECT_EQ(free_bytes, fake_->fake_memory().capacity() - fake_->fake_memory().used());
    EXPECT_LT(free_bytes, total_bytes);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

TEST_F(MemoryPaths, MallocHostPinsThroughTheAccelerator) {
    void* p = Pinned(4096);
    EXPECT_EQ(fake_->pinned_host_blocks(), 1);
    std::memset(p, 1, 4096);  // host memory: the host may touch it
    EXPECT_EQ(aclrtFreeHost(p), ACL_SUCCESS);
    EXPECT_EQ(fake_->pinned_host_blocks(), 0);
}

TEST_F(MemoryPaths, DvppMallocGivesMemoryTheHostCanReadAndWrite) {
    void* p = nullptr;
    ASSERT_EQ(acldvppMalloc(&p, 4096), ACL_SUCCESS) << aclGetRecentErrMsg();
    backend::DeviceMemory::Block block;
    ASSERT_TRUE(fake_->fake_memory().Find(p, &block));
    EXPECT_TRUE(block.tag.host_accessible);
    std::memset(p, 3, 4096);  // would fault on memory only the device can reach
    EXPECT_EQ(static_cast<unsigned char*>(p)[4095], 3);
    EXPECT_EQ(acldvppFree(p), ACL_SUCCESS);
}

TEST_F(MemoryPaths, MallocGivesMemoryOnlyTheDeviceReaches) {
    void* p = Device(64);
    backend::DeviceMemory::Block block;
    ASSERT_TRUE(fake_->fake_memory().Find(p, &block));
    EXPECT_FALSE(block.tag.host_accessible);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

TEST_F(MemoryPaths, FreedDeviceMemoryStaysDeviceMemoryForCopies) {
    void* p = Device(64);
    ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
    char host[64] = {};
    EXPECT_NE(aclrtMemcpy(p, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
        << "a copy into freed device memory was accepted";
}

TEST_F(MemoryPaths, LeakReportAtResetListsAnAclrtMalloc) {
    // Strict checks are read at aclInit: start over with them on.
    ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    stream_ = nullptr;
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    setenv("OPENACL_CHECK", "1", 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* p = Device(100);
    ASSERT_NE(p, nullptr);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    std::string err = ::testing::internal::GetCapturedStderr();
    unsetenv("OPENACL_CHECK");
    EXPECT_NE(err.find("leak report at aclrtResetDevice(0)"), std::string::npos) << err;
    EXPECT_NE(err.find("1 device allocation(s) by aclrtMalloc on device 0, 100 bytes"),
              std::string::npos)
        << err;
    EXPECT_EQ(fake_->fake_memory().used(), 0u) << "reset takes the memory back";
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // for TearDown's reset
}

TEST(TwoAcceleratorPaths, CopyBetweenDevicesGoesThroughTheAccelerator) {
    setenv("OPENACL_BACKEND", "cuda", 1);
    InstallFakeAccelerators(2);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    uint32_t count = 0;
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    ASSERT_EQ(count, 2u);
    std::vector<unsigned char> in(64), out(64, 0);
    std::iota(in.begin(), in.end(), 1);
    void *on0 = nullptr, *on1 = nullptr;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&on0, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(on0, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&on1, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_TRUE(Installed(1)->fake_memory().Contains(on1));
    ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(on1, 64, on0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpy(out.data(), 64, on1, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(aclrtFree(on1), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(on0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    unsetenv("OPENACL_BACKEND");
}

}  // namespace
}  // namespace openacl::testing
