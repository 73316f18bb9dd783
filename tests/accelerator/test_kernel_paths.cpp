// Kernels on an accelerator device (OPENACL_BACKEND=cuda): binaries the device runs are
// loaded into it and launched on the stream's lane; CPU kernel binaries are refused.
#include <cstring>
#include <string>
#include <vector>

#include "accelerator_test.h"
#include "openacl/kernel_binary.h"

namespace openacl::testing {
namespace {

// args: slot 0 a device float*, slot 1 the count; doubles each value.
int32_t DoubleAll(uint32_t, void* args, size_t args_size) {
    if (args_size < 16) return 1;
    void* data = nullptr;
    uint64_t n = 0;
    std::memcpy(&data, args, 8);
    std::memcpy(&n, static_cast<char*>(args) + 8, 8);
    auto* values = static_cast<float*>(FakeAccelerator::HostView(data));
    for (uint64_t i = 0; i < n; ++i)
        values[i] *= 2;
    return 0;
}

int32_t Fault(uint32_t, void*, size_t) {
    return 1;
}

class KernelPaths : public AcceleratorTest {
 protected:
    void SetUp() override {
#ifndef OPENACL_WITH_CUDA
        GTEST_SKIP() << "built without the CUDA backend: no binary is recognised as a device one";
#endif
        AcceleratorTest::SetUp();
        FakeAccelerator::RegisterKernel("double_all", DoubleAll);
        FakeAccelerator::RegisterKernel("fault", Fault);
        image_ = FakeAccelerator::FakeKernelImage({"double_all", "fault"});
        ASSERT_EQ(aclrtBinaryLoadFromData(image_.data(), image_.size(), nullptr, &binary_),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    void TearDown() override {
        if (binary_ != nullptr) {
            EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
        }
        if (fake_ != nullptr) AcceleratorTest::TearDown();
    }
    // A device argument block of 8-byte slots.
    void* Args(std::vector<uint64_t> slots) {
        void* args = Device(slots.size() * 8);
        EXPECT_EQ(aclrtMemcpy(args, slots.size() * 8, slots.data(), slots.size() * 8,
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        return args;
    }
    std::vector<unsigned char> image_;
    aclrtBinHandle binary_ = nullptr;
};

TEST_F(KernelPaths, LaunchRunsTheDeviceKernelOnTheStream) {
    aclrtFuncHandle function = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "double_all", &function), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> values{1, 2, 3, 4};
    void* d = Device(16);
    ASSERT_EQ(aclrtMemcpy(d, 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    void* args = Args({reinterpret_cast<uint64_t>(d), 4});
    ASSERT_EQ(aclrtLaunchKernel(function, 1, args, 16, stream_), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(fake_->launches(), 1u);
    ASSERT_EQ(aclrtMemcpy(values.data(), 16, d, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(values, (std::vector<float>{2, 4, 6, 8}));
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(args), ACL_SUCCESS);
}

TEST_F(KernelPaths, AKernelFaultFailsTheStreamWithTheDevicesExplanation) {
    aclrtFuncHandle function = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "fault", &function), ACL_SUCCESS);
    void* args = Args({0, 0});
    ASSERT_EQ(aclrtLaunchKernel(function, 1, args, 16, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("a kernel fault (fake status 2)"), std::string::npos)
        << message;
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "the fault was reported once";
    EXPECT_EQ(aclrtFree(args), ACL_SUCCESS);
}

using HostBinaryPaths = AcceleratorTest;

TEST_F(HostBinaryPaths, ACpuKernelBinaryIsRefusedNamingTheCudaBuildFunction) {
    // Any ELF shared object that is not a CUDA binary is a CPU kernel binary.
    std::vector<unsigned char> elf(64, 0);
    std::memcpy(elf.data(),
                "\x7f"
                "ELF",
                4);
    aclrtBinHandle binary = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromData(elf.data(), elf.size(), nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("openacl_add_cuda_kernel_binary"), std::string::npos)
        << message;
}

int RunNothing(const void*, uint32_t, uint32_t, char*, size_t) {
    return 0;
}

TEST_F(HostBinaryPaths, AnAscendCKernelIsRefusedSayingItRunsOnTheCpuBackend) {
    // What an Ascend C library's launch stub hands the runtime (aclrtlaunch_<kernel>, <<<>>>).
    static const openaclKernelEntry entry = {"add_custom", 1, 8, RunNothing};
    static const openaclKernelTable table = {OPENACL_KERNEL_BINARY_MAGIC,
                                             OPENACL_KERNEL_BINARY_VERSION, "cpu", 1, &entry};
    uint64_t args = 0;
    EXPECT_EQ(
        openaclLaunchKernelTable("aclrtlaunch_add_custom", &table, "Ascend C kernels of add.cpp", 0,
                                 1, stream_, &args, sizeof args, nullptr),
        ACL_ERROR_INVALID_PARAM);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("Ascend C kernels of add.cpp: Ascend C kernels run on the "
                                        "CPU backend only"),
              std::string::npos)
        << message;
}

}  // namespace
}  // namespace openacl::testing
