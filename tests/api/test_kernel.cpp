// Kernel binaries and launches on the CPU backend.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

class Kernel : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        aclrtBinaryUnLoad(binary_);
        DeviceTest::TearDown();
    }
    aclrtFuncHandle Function(const char* name) {
        aclrtFuncHandle f = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(binary_, name, &f), ACL_SUCCESS);
        return f;
    }
    void* Device(size_t bytes) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        return p;
    }
    // Packs arguments into device memory, one 8-byte slot each.
    void* DeviceArgs(const std::vector<uint64_t>& slots) {
        void* args = Device(slots.size() * 8);
        EXPECT_EQ(aclrtMemcpy(args, slots.size() * 8, slots.data(), slots.size() * 8,
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        return args;
    }
    aclrtBinHandle binary_ = nullptr;
    aclrtStream stream_ = nullptr;
};

uint64_t Slot(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

}  // namespace

TEST_F(Kernel, VectorAddMatchesTheHostForManyBlockCounts) {
    const uint64_t n = 10007;  // not divisible by any block count below
    std::vector<float> x(n), y(n), z(n);
    for (uint64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i), y[i] = 0.5f * i;
    void* dx = Device(n * 4);
    void* dy = Device(n * 4);
    void* dz = Device(n * 4);
    ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dy, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    void* args = DeviceArgs({Slot(dx), Slot(dy), Slot(dz), n});
    for (uint32_t blocks : {1u, 2u, 3u, 7u, 64u, 1000u}) {
        SCOPED_TRACE(blocks);
        ASSERT_EQ(aclrtMemset(dz, n * 4, 0, n * 4), ACL_SUCCESS);
        ASSERT_EQ(aclrtLaunchKernel(Function("vector_add"), blocks, args, 32, stream_),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        for (uint64_t i = 0; i < n; ++i)
            ASSERT_EQ(z[i], x[i] + y[i]) << i;
    }
}

TEST_F(Kernel, AFailingBlockFailsTheStreamWithKernelNameAndBlock) {
    void* src = Device(16);
    void* dst = Device(16);
    void* args = DeviceArgs({Slot(src), Slot(dst), 16, 3});
    ASSERT_EQ(aclrtLaunchKernel(Function("checked_copy"), 8, args, 32, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel checked_copy failed in block 3 of 8");
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(Kernel, UnknownKernelNameIsSymbolNotFound) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, "no_such_kernel", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    EXPECT_THAT_MESSAGE_CONTAINS("vector_add");
}

TEST_F(Kernel, HostArgumentsAreCopiedAtLaunch) {
    const uint64_t n = 64;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), z(n);
    void* dx = Device(n * 4);
    void* dy = Device(n * 4);
    void* dz = Device(n * 4);
    ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dy, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    uint64_t host_args[4] = {Slot(dx), Slot(dy), Slot(dz), n};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("vector_add"), 4, stream_, nullptr, host_args,
                                            sizeof host_args, nullptr, 0),
              ACL_SUCCESS);
    std::memset(host_args, 0, sizeof host_args);  // the launch has its own copy
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (float v : z)
        EXPECT_EQ(v, 3.0f);
}
