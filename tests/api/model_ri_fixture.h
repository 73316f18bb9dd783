// The fixture of the aclmdlRI* suites: a stream, the example kernels' vector_add, and three
// device vectors x = 0, 1, 2, ..., y = 1, z = 0.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

constexpr uint64_t kCount = 1024;
constexpr size_t kBytes = kCount * sizeof(float);

class ModelRiCapture : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "vector_add", &add_), ACL_SUCCESS);
        for (void** p : {&x_, &y_, &z_})
            ASSERT_EQ(aclrtMalloc(p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        std::vector<float> ones(kCount, 1.0f), ramp(kCount);
        for (uint64_t i = 0; i < kCount; ++i)
            ramp[i] = static_cast<float>(i);
        ASSERT_EQ(aclrtMemcpy(x_, kBytes, ramp.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(y_, kBytes, ones.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemset(z_, kBytes, 0, kBytes), ACL_SUCCESS);
    }
    void TearDown() override {
        for (void* p : {x_, y_, z_})
            aclrtFree(p);
        aclrtBinaryUnLoad(binary_);
        DeviceTest::TearDown();
    }

    // out = a + b on `stream`, arguments from host memory (copied by the launch).
    aclError Add(void* a, void* b, void* out, aclrtStream stream) {
        uint64_t args[4] = {reinterpret_cast<uint64_t>(a), reinterpret_cast<uint64_t>(b),
                            reinterpret_cast<uint64_t>(out), kCount};
        return aclrtLaunchKernelWithHostArgs(add_, 4, stream, nullptr, args, sizeof args, nullptr,
                                             0);
    }
    std::vector<float> Read(void* p) {
        std::vector<float> host(kCount);
        EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, p, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return host;
    }

    aclrtStream stream_ = nullptr;
    aclrtBinHandle binary_ = nullptr;
    aclrtFuncHandle add_ = nullptr;
    void* x_ = nullptr;
    void* y_ = nullptr;
    void* z_ = nullptr;
};
