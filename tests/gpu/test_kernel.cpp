// Kernels on the CUDA backend: CUDA binaries (fatbin, cubin, PTX) load from a file or from
// memory; every launch form passes the packed 8-byte argument slots; numBlocks thread blocks run,
// each with the block size of the kernel's __launch_bounds__ (1 without).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gpu_kernels.h"
#include "gpu_test_support.h"

using namespace gpu_test;

namespace {

class GpuKernel : public GpuKernelTest {
 protected:
    // x, y and z = 0 on the device, for vector_add over n floats.
    void PrepareVectors(uint64_t n) {
        x_.resize(n), y_.resize(n);
        for (uint64_t i = 0; i < n; ++i)
            x_[i] = static_cast<float>(i), y_[i] = 0.25f * static_cast<float>(i) - 3.0f;
        dx_ = std::make_unique<DeviceBuffer>(n * 4);
        dy_ = std::make_unique<DeviceBuffer>(n * 4);
        dz_ = std::make_unique<DeviceBuffer>(n * 4);
        Upload(dx_->get(), x_);
        Upload(dy_->get(), y_);
        ACL_ASSERT(aclrtMemset(dz_->get(), n * 4, 0, n * 4));
    }
    void ExpectSums() {
        ACL_ASSERT(aclrtSynchronizeStream(stream_));
        const auto z = Download<float>(dz_->get(), x_.size());
        for (size_t i = 0; i < z.size(); ++i)
            ASSERT_EQ(z[i], x_[i] + y_[i]) << "element " << i;
    }
    std::vector<float> x_, y_;
    std::unique_ptr<DeviceBuffer> dx_, dy_, dz_;
};

// ---- loading each binary form ----

class GpuKernelBinary : public GpuKernel, public ::testing::WithParamInterface<KernelFormat> {
 protected:
    void LaunchVectorAdd(aclrtBinHandle binary) {
        aclrtFuncHandle f = nullptr;
        ACL_ASSERT(aclrtBinaryGetFunction(binary, "vector_add", &f));
        const uint64_t n = 4099;
        PrepareVectors(n);
        void* args = DeviceArgs({Slot(dx_->get()), Slot(dy_->get()), Slot(dz_->get()), n});
        ACL_ASSERT(aclrtLaunchKernel(f, 8, args, 32, stream_));
        ExpectSums();
    }
};

TEST_P(GpuKernelBinary, LoadsFromFileAndRuns) {
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(GetParam().path, nullptr, &binary), ACL_SUCCESS)
        << GetParam().path << ": " << RecentMessage();
    LaunchVectorAdd(binary);
    ACL_EXPECT(aclrtSynchronizeStream(stream_));
    ACL_EXPECT(aclrtBinaryUnLoad(binary));
}

TEST_P(GpuKernelBinary, LoadsFromDataAndRuns) {
    std::string bytes = ReadFile(GetParam().path);
    ASSERT_FALSE(bytes.empty()) << "cannot read " << GetParam().path;
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &binary), ACL_SUCCESS)
        << GetParam().name << " of " << bytes.size() << " bytes: " << RecentMessage();
    // The loaded binary does not depend on the caller's buffer.
    std::memset(bytes.data(), 0, bytes.size());
    LaunchVectorAdd(binary);
    ACL_EXPECT(aclrtSynchronizeStream(stream_));
    ACL_EXPECT(aclrtBinaryUnLoad(binary));
}

INSTANTIATE_TEST_SUITE_P(Forms, GpuKernelBinary, ::testing::Values(kFatbin, kCubin, kPtx),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_F(GpuKernel, UnknownKernelNameIsSymbolNotFound) {
    ASSERT_NE(Function("empty_kernel"), nullptr);
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, "no_such_kernel", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
}

// ---- the launch forms ----

TEST_F(GpuKernel, LaunchKernelReadsItsArgumentsFromDeviceMemory) {
    const uint64_t n = 100'003;  // not a multiple of any block count or block size
    PrepareVectors(n);
    for (uint32_t blocks : {1u, 7u, 1000u}) {
        SCOPED_TRACE(blocks);
        ACL_ASSERT(aclrtMemset(dz_->get(), n * 4, 0, n * 4));
        ACL_ASSERT(Launch("vector_add", blocks,
                          {Slot(dx_->get()), Slot(dy_->get()), Slot(dz_->get()), n}, stream_));
        ExpectSums();
    }
}

TEST_F(GpuKernel, LaunchWithHostArgsCopiesTheArgumentsAtTheCall) {
    const uint64_t n = 65'536;
    PrepareVectors(n);
    uint64_t host_args[4] = {Slot(dx_->get()), Slot(dy_->get()), Slot(dz_->get()), n};
    ACL_ASSERT(aclrtLaunchKernelWithHostArgs(Function("vector_add"), 64, stream_, nullptr,
                                             host_args, sizeof host_args, nullptr, 0));
    std::memset(host_args, 0, sizeof host_args);  // the launch has its own copy
    ExpectSums();
}

TEST_F(GpuKernel, LaunchWithConfigTakesArgumentsBuiltWithKernelArgs) {
    const uint64_t n = 10'007;
    PrepareVectors(n);
    aclrtFuncHandle f = Function("vector_add");
    aclrtArgsHandle args = nullptr;
    ACL_ASSERT(aclrtKernelArgsInit(f, &args));
    void* x = dx_->get();
    void* y = dy_->get();
    void* z = dz_->get();
    uint64_t count = n;
    aclrtParamHandle p = nullptr;
    ACL_ASSERT(aclrtKernelArgsAppend(args, &x, sizeof x, &p));
    ACL_ASSERT(aclrtKernelArgsAppend(args, &y, sizeof y, &p));
    ACL_ASSERT(aclrtKernelArgsAppend(args, &z, sizeof z, &p));
    ACL_ASSERT(aclrtKernelArgsAppend(args, &count, sizeof count, &p));
    ACL_ASSERT(aclrtKernelArgsFinalize(args));
    ACL_ASSERT(aclrtLaunchKernelWithConfig(f, 16, stream_, nullptr, args, nullptr));
    ExpectSums();
}

TEST_F(GpuKernel, LaunchWithArgsArrayPassesEachEightByteArgument) {
    DeviceBuffer out(3 * sizeof(uint64_t));
    void* out_ptr = out.get();
    uint64_t a = 0x0123456789ABCDEFull;
    double b = -1.0 / 3.0;
    int64_t c = -42;
    void* values[4] = {&out_ptr, &a, &b, &c};
    ACL_ASSERT(aclrtLaunchKernelWithArgsArray(Function("args_probe"), 1, stream_, nullptr, values));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    const auto probed = Download<uint64_t>(out.get(), 3);
    EXPECT_EQ(probed[0], a);
    double b_back = 0;
    std::memcpy(&b_back, &probed[1], sizeof b_back);
    EXPECT_EQ(b_back, b);
    EXPECT_EQ(static_cast<int64_t>(probed[2]), c);
}

// ---- the launch geometry ----

TEST_F(GpuKernel, NumBlocksThreadBlocksRunOnceEach) {
    for (uint32_t blocks : {1u, 3u, 1000u, 70'000u}) {  // 70,000: past a 16-bit grid dimension
        SCOPED_TRACE(blocks);
        DeviceBuffer ids(blocks * sizeof(uint64_t)), runs(sizeof(uint64_t));
        ACL_ASSERT(aclrtMemset(ids.get(), ids.size(), 0, ids.size()));
        ACL_ASSERT(aclrtMemset(runs.get(), 8, 0, 8));
        ACL_ASSERT(Launch("record_blocks", blocks, {Slot(ids.get()), Slot(runs.get())}, stream_));
        ACL_ASSERT(aclrtSynchronizeStream(stream_));
        EXPECT_EQ(Download<uint64_t>(runs.get(), 1)[0], blocks);
        const auto seen = Download<uint64_t>(ids.get(), blocks);
        for (uint32_t i = 0; i < blocks; ++i)
            ASSERT_EQ(seen[i], i + 1u) << "block " << i;
    }
}

TEST_F(GpuKernel, BlockSizeComesFromLaunchBounds) {
    DeviceBuffer size(sizeof(uint64_t)), threads(sizeof(uint64_t));
    ACL_ASSERT(aclrtMemset(threads.get(), 8, 0, 8));
    ACL_ASSERT(Launch("record_block_size", 5, {Slot(size.get()), Slot(threads.get())}, stream_));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_EQ(Download<uint64_t>(size.get(), 1)[0], 256u);
    EXPECT_EQ(Download<uint64_t>(threads.get(), 1)[0], 5u * 256u);
}

TEST_F(GpuKernel, BlockSizeIsOneWithoutLaunchBounds) {
    DeviceBuffer size(sizeof(uint64_t)), threads(sizeof(uint64_t));
    ACL_ASSERT(aclrtMemset(threads.get(), 8, 0, 8));
    ACL_ASSERT(
        Launch("record_block_size_unbounded", 5, {Slot(size.get()), Slot(threads.get())}, stream_));
    ACL_ASSERT(aclrtSynchronizeStream(stream_));
    EXPECT_EQ(Download<uint64_t>(size.get(), 1)[0], 1u);
    EXPECT_EQ(Download<uint64_t>(threads.get(), 1)[0], 5u);
}

}  // namespace
