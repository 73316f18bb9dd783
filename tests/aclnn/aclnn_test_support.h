// Helpers of the aclnn tests: device tensors made from host values, read back after a stream
// synchronisation, and a reference for float16/bfloat16 rounding.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "test_support.h"

namespace aclnn_test {

// Device 0 from construction to destruction, so fixtures may hold device tensors as members
// (built after the device is set, freed before it is reset).
class AclnnTest : public ::testing::Test {
 protected:
    AclnnTest() { EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
    ~AclnnTest() override {
        aclrtResetDeviceForce(0);
        aclGetRecentErrMsg();
    }
};

inline std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
    std::vector<int64_t> strides(shape.size());
    int64_t step = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        strides[i] = step;
        step *= shape[i] > 0 ? shape[i] : 1;
    }
    return strides;
}

// Device memory holding `storage` elements of T, and an aclTensor viewing it.
template <class T>
class DeviceTensor {
 public:
    // A contiguous tensor of `shape` holding `values`.
    DeviceTensor(const std::vector<int64_t>& shape, const std::vector<T>& values, aclDataType dtype,
                 aclFormat format = ACL_FORMAT_ND)
        : DeviceTensor(shape, ContiguousStrides(shape), 0, values, dtype, format) {}
    // A view (strides and offset in elements) over storage holding `storage`.
    DeviceTensor(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                 int64_t offset, const std::vector<T>& storage, aclDataType dtype,
                 aclFormat format = ACL_FORMAT_ND)
        : count_(storage.size()) {
        const size_t bytes = (count_ == 0 ? 1 : count_) * sizeof(T);
        EXPECT_EQ(aclrtMalloc(&dev_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        if (count_ > 0) {
            EXPECT_EQ(aclrtMemcpy(dev_, bytes, storage.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
                      ACL_SUCCESS);
        }
        const int64_t storage_dims[1] = {static_cast<int64_t>(count_)};
        tensor_ = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, format,
                                  storage_dims, 1, dev_);
        EXPECT_NE(tensor_, nullptr);
    }
    ~DeviceTensor() {
        aclDestroyTensor(tensor_);
        aclrtFree(dev_);
    }
    DeviceTensor(const DeviceTensor&) = delete;
    DeviceTensor& operator=(const DeviceTensor&) = delete;

    aclTensor* get() const { return tensor_; }
    void* dev() const { return dev_; }
    // The whole storage, after the work queued so far.
    std::vector<T> Read() const {
        std::vector<T> out(count_);
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        if (count_ > 0) {
            EXPECT_EQ(aclrtMemcpy(out.data(), count_ * sizeof(T), dev_, count_ * sizeof(T),
                                  ACL_MEMCPY_DEVICE_TO_HOST),
                      ACL_SUCCESS);
        }
        return out;
    }
    // Replaces the whole storage, once the work queued so far is done.
    void Write(const std::vector<T>& values) {
        ASSERT_EQ(values.size(), count_);
        ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        if (count_ > 0) {
            ASSERT_EQ(aclrtMemcpy(dev_, count_ * sizeof(T), values.data(), count_ * sizeof(T),
                                  ACL_MEMCPY_HOST_TO_DEVICE),
                      ACL_SUCCESS);
        }
    }

 private:
    size_t count_;
    void* dev_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

// A scalar owned by the test.
class Scalar {
 public:
    template <class T>
    Scalar(T value, aclDataType dtype) {
        scalar_ = aclCreateScalar(&value, dtype);
        EXPECT_NE(scalar_, nullptr);
    }
    ~Scalar() { aclDestroyScalar(scalar_); }
    Scalar(const Scalar&) = delete;
    Scalar& operator=(const Scalar&) = delete;
    aclScalar* get() const { return scalar_; }

 private:
    aclScalar* scalar_ = nullptr;
};

inline uint16_t Half(float value) {
    return aclFloatToFloat16(value);
}
inline float FromHalf(uint16_t bits) {
    return aclFloat16ToFloat(bits);
}
inline uint16_t Bf16(float value) {  // exact for the values the tests use
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return static_cast<uint16_t>(bits >> 16);
}
inline float FromBf16(uint16_t bits) {
    const uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

// Runs a first phase's executor on stream (workspace from device memory when asked for).
inline aclnnStatus RunPhase2(aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream),
                             uint64_t workspace_size, aclOpExecutor* executor,
                             aclrtStream stream = nullptr) {
    void* workspace = nullptr;
    if (workspace_size > 0) {
        EXPECT_EQ(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    const aclnnStatus rc = phase2(workspace, workspace_size, executor, stream);
    if (workspace != nullptr) {
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        aclrtFree(workspace);
    }
    return rc;
}

}  // namespace aclnn_test
