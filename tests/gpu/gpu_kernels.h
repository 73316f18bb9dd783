// Loading and launching the test kernels (kernels/test_kernels.cu, built by nvcc into a fatbin,
// a cubin and PTX whose paths CMake passes in) through the public kernel API.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gpu_test_support.h"

namespace gpu_test {

// The three forms of the same kernels.
struct KernelFormat {
    const char* name;
    const char* path;
};
inline const KernelFormat kFatbin{"fatbin", OPENACL_GPU_TEST_FATBIN};
inline const KernelFormat kCubin{"cubin", OPENACL_GPU_TEST_CUBIN};
inline const KernelFormat kPtx{"ptx", OPENACL_GPU_TEST_PTX};
// How gtest names a format in test output.
inline void PrintTo(const KernelFormat& format, std::ostream* out) {
    *out << format.name;
}

// GpuTest plus the fatbin, loaded on first use, and device memory for argument blocks.
class GpuKernelTest : public GpuTest {
 protected:
    void TearDown() override {
        ReleaseKernels();
        GpuTest::TearDown();
    }
    // Waits for the launches, frees their argument blocks and unloads the kernels.
    void ReleaseKernels() {
        if (binary_ != nullptr || !args_.empty()) {
            EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS) << RecentMessage();
        }
        args_.clear();
        if (binary_ != nullptr) {
            EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
        }
        binary_ = nullptr;
    }
    aclrtFuncHandle Function(const char* name) {
        if (binary_ == nullptr) {
            const aclError rc = aclrtBinaryLoadFromFile(kFatbin.path, nullptr, &binary_);
            EXPECT_EQ(rc, ACL_SUCCESS) << "loading " << kFatbin.path << ": " << RecentMessage();
            if (rc != ACL_SUCCESS) return nullptr;
        }
        aclrtFuncHandle f = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(binary_, name, &f), ACL_SUCCESS)
            << name << ": " << RecentMessage();
        return f;
    }
    // Copies the argument slots into device memory (aclrtLaunchKernel reads them there) that
    // lives until the test ends.
    void* DeviceArgs(std::initializer_list<uint64_t> slots) {
        const std::vector<uint64_t> values(slots);
        args_.push_back(std::make_unique<DeviceBuffer>(values.size() * sizeof(uint64_t)));
        Upload(args_.back()->get(), values);
        return args_.back()->get();
    }
    // aclrtLaunchKernel of `name` with device-memory arguments.
    aclError Launch(const char* name, uint32_t blocks, std::initializer_list<uint64_t> slots,
                    aclrtStream stream) {
        aclrtFuncHandle f = Function(name);
        if (f == nullptr) return ACL_ERROR_INVALID_PARAM;
        return aclrtLaunchKernel(f, blocks, DeviceArgs(slots), slots.size() * sizeof(uint64_t),
                                 stream);
    }
    // A one-block kernel that keeps `stream` busy on the GPU for `ns` nanoseconds, then writes
    // `value` to `out` (if not null).
    aclError Spin(uint64_t ns, aclrtStream stream, void* out = nullptr, uint64_t value = 0) {
        return Launch("spin_ns", 1, {ns, Slot(out), value}, stream);
    }

    aclrtBinHandle binary_ = nullptr;

 private:
    std::vector<std::unique_ptr<DeviceBuffer>> args_;
};

}  // namespace gpu_test
