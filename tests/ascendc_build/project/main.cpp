// The host program of the Ascend C project: launches the kernels of ascendc_library(kernels)
// through aclrtlaunch_<kernel>.h (ACLRT_LAUNCH_KERNEL and the plain function) and through the
// <<<>>> wrappers of the kernel files, and checks results against plain C++.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"
#include "aclrtlaunch_all_cores_rounds.h"
#include "aclrtlaunch_all_cores_skipped.h"
#include "aclrtlaunch_fill_float.h"
#include "aclrtlaunch_fill_int32_t.h"
#include "aclrtlaunch_ib_never_set.h"
#include "aclrtlaunch_ib_prefix.h"
#include "aclrtlaunch_ordered_overwrite.h"
#include "aclrtlaunch_same_cell.h"
#include "aclrtlaunch_strided_tiles.h"
#include "aclrtlaunch_sync_skipped.h"
#include "aclrtlaunch_sync_sum.h"
#include "aclrtlaunch_sync_sum_soft.h"
#include "add_custom_tiling.h"

// The wrappers in the kernel files (add_custom.cpp, fill.cpp).
uint32_t add_custom_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                       AddCustomTilingData tiling, float alpha);
uint32_t scale_copy_do(uint32_t blockDim, void* stream, float* out, const float* in, uint32_t n);
uint32_t fill_on_default_stream(uint32_t blocks, uint8_t* out, int32_t value, uint32_t n);
uint32_t fill_simt(uint32_t blocks, void* stream, uint8_t* out, float value, uint32_t n);
// The device variable and its kernel (device_values.cpp), as the host declares them.
extern int32_t g_device_values[8];
extern "C" void update_device_values(int32_t increment);

namespace {

constexpr uint32_t kLength = 1000;
constexpr uint32_t kTile = 64;
constexpr uint32_t kBlocks = (kLength + kTile - 1) / kTile;
constexpr float kAlpha = 0.5f;

class AscendcBuild : public ::testing::Test {
 protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        for (uint32_t i = 0; i < kLength; ++i) {
            x_[i] = static_cast<float>(i);
            y_[i] = static_cast<float>(2 * i + 1);
        }
        x_dev_ = Upload(x_);
        y_dev_ = Upload(y_);
        z_dev_ = Upload(std::vector<float>(kLength, -1.0f));
    }
    void TearDown() override {
        for (void* p : {x_dev_, y_dev_, z_dev_})
            aclrtFree(p);
        aclrtDestroyStream(stream_);
        aclrtResetDevice(0);
        aclFinalize();
    }
    template <class T>
    void* Upload(const std::vector<T>& host) {
        void* dev = nullptr;
        EXPECT_EQ(aclrtMalloc(&dev, host.size() * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(dev, host.size() * sizeof(T), host.data(), host.size() * sizeof(T),
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        return dev;
    }
    template <class T>
    std::vector<T> Download(void* dev, size_t count) {
        std::vector<T> host(count);
        EXPECT_EQ(aclrtMemcpy(host.data(), count * sizeof(T), dev, count * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return host;
    }
    // The C++ reference of add_custom.
    void ExpectSum() {
        std::vector<float> z = Download<float>(z_dev_, kLength);
        for (uint32_t i = 0; i < kLength; ++i) {
            ASSERT_EQ(z[i], x_[i] + kAlpha * y_[i]) << "element " << i;
        }
    }
    static std::string RecentMessage() {
        const char* message = aclGetRecentErrMsg();
        return message ? message : "";
    }

    aclrtStream stream_ = nullptr;
    std::vector<float> x_ = std::vector<float>(kLength), y_ = std::vector<float>(kLength);
    void *x_dev_ = nullptr, *y_dev_ = nullptr, *z_dev_ = nullptr;
    AddCustomTilingData tiling_{kLength, kTile};
};

TEST_F(AscendcBuild, AclrtLaunchKernelMacroRunsTheKernel) {
    EXPECT_EQ(
        ACLRT_LAUNCH_KERNEL(add_custom)(kBlocks, stream_, x_dev_, y_dev_, z_dev_, &tiling_, kAlpha),
        0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectSum();
}

TEST_F(AscendcBuild, AclrtlaunchFunctionRunsTheKernel) {
    EXPECT_EQ(aclrtlaunch_add_custom(kBlocks, stream_, x_dev_, y_dev_, z_dev_, &tiling_, kAlpha),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectSum();
}

TEST_F(AscendcBuild, ChevronWrapperInTheKernelFileRunsTheKernel) {
    EXPECT_EQ(add_custom_do(kBlocks, stream_, static_cast<uint8_t*>(x_dev_),
                            static_cast<uint8_t*>(y_dev_), static_cast<uint8_t*>(z_dev_), tiling_,
                            kAlpha),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectSum();
}

TEST_F(AscendcBuild, TemplateKernelLaunchedWithChevronsRunsItsInstance) {
    EXPECT_EQ(scale_copy_do(7, stream_, static_cast<float*>(z_dev_),
                            static_cast<const float*>(x_dev_), kLength),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<float> z = Download<float>(z_dev_, kLength);
    for (uint32_t i = 0; i < kLength; ++i)
        ASSERT_EQ(z[i], 3 * x_[i]) << "element " << i;
}

TEST_F(AscendcBuild, TokenPastedKernelsHaveTheirOwnLaunchFunctions) {
    EXPECT_EQ(aclrtlaunch_fill_int32_t(5, stream_, z_dev_, 42, kLength, 0), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (int32_t v : Download<int32_t>(z_dev_, kLength))
        ASSERT_EQ(v, 42);
    EXPECT_EQ(ACLRT_LAUNCH_KERNEL(fill_float)(5, stream_, z_dev_, 2.5f, kLength, 0), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (float v : Download<float>(z_dev_, kLength))
        ASSERT_EQ(v, 2.5f);
}

TEST_F(AscendcBuild, LaunchIsAsynchronousAndAnEventAfterItCompletesAfterIt) {
    constexpr uint32_t kDelayMs = 300;
    aclrtEvent done = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
    auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(aclrtlaunch_fill_int32_t(4, stream_, z_dev_, 7, kLength, kDelayMs), 0u);
    auto returned = std::chrono::steady_clock::now();
    ASSERT_EQ(aclrtRecordEvent(done, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(done), ACL_SUCCESS);
    auto completed = std::chrono::steady_clock::now();
    // The call returned while block 0 was still waiting; the event completed only after it.
    EXPECT_LT(returned - start, std::chrono::milliseconds(kDelayMs / 2));
    EXPECT_GE(completed - start, std::chrono::milliseconds(kDelayMs));
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    EXPECT_EQ(aclrtQueryEventStatus(done, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    for (int32_t v : Download<int32_t>(z_dev_, kLength))
        ASSERT_EQ(v, 7);
    aclrtDestroyEvent(done);
}

TEST_F(AscendcBuild, ChevronsWithTwoArgumentsLaunchOnTheDefaultStream) {
    EXPECT_EQ(fill_on_default_stream(3, static_cast<uint8_t*>(z_dev_), -5, kLength), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    for (int32_t v : Download<int32_t>(z_dev_, kLength))
        ASSERT_EQ(v, -5);
}

TEST_F(AscendcBuild, ChevronsWithFourArgumentsLaunchOnTheirStream) {
    EXPECT_EQ(fill_simt(3, stream_, static_cast<uint8_t*>(z_dev_), 1.25f, kLength), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (float v : Download<float>(z_dev_, kLength))
        ASSERT_EQ(v, 1.25f);
}

TEST_F(AscendcBuild, NullTilingPointerIsRefusedWithAMessage) {
    EXPECT_EQ(aclrtlaunch_add_custom(kBlocks, stream_, x_dev_, y_dev_, z_dev_, nullptr, kAlpha),
              static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM));
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("aclrtlaunch_add_custom"), std::string::npos) << message;
    EXPECT_NE(message.find("tiling is null"), std::string::npos) << message;
}

TEST_F(AscendcBuild, ZeroBlocksIsRefused) {
    EXPECT_EQ(aclrtlaunch_add_custom(0, stream_, x_dev_, y_dev_, z_dev_, &tiling_, kAlpha),
              static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM));
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("numBlocks is 0"), std::string::npos) << message;
}

TEST_F(AscendcBuild, ForeignStreamIsRefused) {
    int not_a_stream = 0;
    EXPECT_NE(
        aclrtlaunch_add_custom(kBlocks, &not_a_stream, x_dev_, y_dev_, z_dev_, &tiling_, kAlpha),
        0u);
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("aclrtlaunch_add_custom"), std::string::npos) << message;
}

TEST_F(AscendcBuild, KernelsLaunchAgainAfterFinalizeAndInit) {
    ASSERT_EQ(aclrtlaunch_add_custom(kBlocks, stream_, x_dev_, y_dev_, z_dev_, &tiling_, kAlpha),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    TearDown();
    SetUp();
    EXPECT_EQ(aclrtlaunch_add_custom(kBlocks, stream_, x_dev_, y_dev_, z_dev_, &tiling_, kAlpha),
              0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectSum();
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

// ---- SyncAll: blocks that wait for one another ----

namespace {

constexpr uint32_t kPerBlock = 16;

// Runs sync_sum (or its soft form) over `blocks` blocks; returns the stream's result and, when
// it succeeded, checks that every block saw every other block's writes.
aclError RunSyncSum(aclrtStream stream, uint32_t blocks, bool soft) {
    const uint32_t n = blocks * kPerBlock;
    std::vector<float> in(n);
    float expected = 0;
    for (uint32_t i = 0; i < n; ++i) {
        in[i] = static_cast<float>(i % 7);
        expected += 2.0f * in[i];
    }
    void *in_dev = nullptr, *work = nullptr, *out = nullptr, *sync = nullptr;
    EXPECT_EQ(aclrtMalloc(&in_dev, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&work, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&out, blocks * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&sync, blocks * 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(in_dev, n * 4, in.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(sync, blocks * 32, 0, blocks * 32), ACL_SUCCESS);
    const uint32_t launched =
        soft ? aclrtlaunch_sync_sum_soft(blocks, stream, in_dev, work, out, sync, kPerBlock)
             : aclrtlaunch_sync_sum(blocks, stream, in_dev, work, out, kPerBlock);
    EXPECT_EQ(launched, 0u);
    const aclError rc = aclrtSynchronizeStream(stream);
    if (rc == ACL_SUCCESS) {
        std::vector<float> sums(blocks);
        EXPECT_EQ(aclrtMemcpy(sums.data(), blocks * 4, out, blocks * 4, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        for (uint32_t b = 0; b < blocks; ++b)
            EXPECT_EQ(sums[b], expected) << "block " << b;
    }
    for (void* p : {in_dev, work, out, sync})
        aclrtFree(p);
    return rc;
}

}  // namespace

TEST_F(AscendcBuild, SyncAllLetsEveryBlockSeeTheOthersWrites) {
    EXPECT_EQ(RunSyncSum(stream_, 8, false), ACL_SUCCESS) << RecentMessage();
}

TEST_F(AscendcBuild, SyncAllWorksWithAsManyBlocksAsTheChipHasCores) {
    int64_t cores = 0;
    ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &cores), ACL_SUCCESS);
    EXPECT_EQ(cores, 48) << "Ascend910B1, the default chip";
    EXPECT_EQ(RunSyncSum(stream_, static_cast<uint32_t>(cores), false), ACL_SUCCESS)
        << RecentMessage();
}

TEST_F(AscendcBuild, SoftSyncAllWithItsWorkspacesLetsEveryBlockSeeTheOthersWrites) {
    EXPECT_EQ(RunSyncSum(stream_, 12, true), ACL_SUCCESS) << RecentMessage();
}

TEST_F(AscendcBuild, SyncAllWithMoreBlocksThanTheChipHasCoresFailsTheLaunch) {
    EXPECT_NE(RunSyncSum(stream_, 49, false), ACL_SUCCESS);
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("more blocks (49) than the chip has cores"), std::string::npos)
        << message;
}

TEST_F(AscendcBuild, ABlockReturningBeforeSyncAllFailsTheLaunch) {
    EXPECT_EQ(aclrtlaunch_sync_skipped(4, stream_, z_dev_), 0u);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("returned without reaching this SyncAll"), std::string::npos) << message;
}

// ---- IBSet / IBWait: a block waits for another's flag ----

TEST_F(AscendcBuild, IBWaitLetsAChainOfBlocksSeeThePreviousBlocksWrites) {
    constexpr uint32_t kBlocks = 6, kN = 32;
    std::vector<float> in(kBlocks * kN), want(kBlocks * kN);
    for (uint32_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<float>(i % 5 + 1);
    for (uint32_t b = 0; b < kBlocks; ++b) {
        for (uint32_t i = 0; i < kN; ++i)
            want[b * kN + i] = (b > 0 ? want[(b - 1) * kN + i] : 0.0f) + in[b * kN + i];
    }
    void* in_dev = Upload(in);
    void* out_dev = Upload(std::vector<float>(kBlocks * kN, 0.0f));
    void* sync = Upload(std::vector<int32_t>(kBlocks * 8, 0));
    EXPECT_EQ(aclrtlaunch_ib_prefix(kBlocks, stream_, in_dev, out_dev, sync, kN), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    std::vector<float> got(kBlocks * kN);
    ASSERT_EQ(
        aclrtMemcpy(got.data(), got.size() * 4, out_dev, got.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS);
    EXPECT_EQ(got, want);
    for (void* p : {in_dev, out_dev, sync})
        aclrtFree(p);
}

TEST_F(AscendcBuild, IBWaitForAnEventNoBlockSetsFailsTheLaunchInsteadOfHanging) {
    void* sync = Upload(std::vector<int32_t>(2 * 8 * 4, 0));
    EXPECT_EQ(aclrtlaunch_ib_never_set(2, stream_, sync), 0u);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("block 0 never sets event 3"), std::string::npos) << message;
    aclrtFree(sync);
}

// ---- Blocks writing the same global memory ----

TEST_F(AscendcBuild, BlocksWritingTheSameGlobalMemoryFailTheLaunch) {
    void* out = Upload(std::vector<float>(64, 0.0f));
    EXPECT_EQ(aclrtlaunch_strided_tiles(4, stream_, out, 4u, 0u), 0u);  // tiles of 8, 4 apart
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("kernel strided_tiles: blocks 0 and 1 both write the 16 bytes of "
                           "global memory at"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("(DataCopy in block 0, DataCopy in block 1), outside atomics"),
              std::string::npos)
        << message;
    aclrtFree(out);
}

TEST_F(AscendcBuild, BlocksWritingTheirOwnPartsAreNotReported) {
    void* out = Upload(std::vector<float>(64, 0.0f));
    EXPECT_EQ(aclrtlaunch_strided_tiles(4, stream_, out, 8u, 0u), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    const std::vector<float> got = Download<float>(out, 32);
    for (uint32_t i = 0; i < 32; ++i)
        EXPECT_EQ(got[i], static_cast<float>(i / 8 + 1)) << i;
    aclrtFree(out);
}

TEST_F(AscendcBuild, OverlappingWritesUnderSetAtomicAddAddUp) {
    void* out = Upload(std::vector<float>(64, 0.0f));
    EXPECT_EQ(aclrtlaunch_strided_tiles(2, stream_, out, 4u, 1u), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    const std::vector<float> got = Download<float>(out, 12);
    EXPECT_EQ(got, (std::vector<float>{1, 1, 1, 1, 3, 3, 3, 3, 2, 2, 2, 2}));
    aclrtFree(out);
}

TEST_F(AscendcBuild, OverwritesOrderedBySyncAllAreNotReported) {
    void* out = Upload(std::vector<float>(8, 0.0f));
    EXPECT_EQ(aclrtlaunch_ordered_overwrite(2, stream_, out), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    EXPECT_EQ(Download<float>(out, 8), std::vector<float>(8, 2.0f));
    aclrtFree(out);
}

TEST_F(AscendcBuild, ScalarWritesOfOneElementByTwoBlocksAreReported) {
    void* out = Upload(std::vector<int32_t>(8, -1));
    EXPECT_EQ(aclrtlaunch_same_cell(2, stream_, out), 0u);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("blocks 0 and 1 both write the 4 bytes of global memory at"),
              std::string::npos)
        << message;
    EXPECT_NE(
        message.find("(GlobalTensor::SetValue in block 0, GlobalTensor::SetValue in block 1)"),
        std::string::npos)
        << message;
    aclrtFree(out);
}

// ---- CrossCoreSetFlag mode 0: every core of the launch ----

TEST_F(AscendcBuild, ModeZeroRoundsWaitForEveryBlockOfTheLaunch) {
    constexpr uint32_t kBlocks = 8, kN = 4;
    std::vector<float> in(kBlocks * kN);
    float total = 0;
    for (uint32_t i = 0; i < in.size(); ++i) {
        in[i] = static_cast<float>(i % 3 + 1);
        total += in[i];
    }
    void* work = Upload(in);
    void* out = Upload(std::vector<float>(2 * kBlocks, 0.0f));
    EXPECT_EQ(aclrtlaunch_all_cores_rounds(kBlocks, stream_, work, out, kN), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    std::vector<float> want(2 * kBlocks, 2 * total);
    std::fill(want.begin() + kBlocks, want.end(), 4 * total);
    EXPECT_EQ(Download<float>(out, 2 * kBlocks), want);
    aclrtFree(work);
    aclrtFree(out);
}

TEST_F(AscendcBuild, AModeZeroRoundABlockNeverJoinsFailsTheLaunch) {
    EXPECT_EQ(aclrtlaunch_all_cores_skipped(4, stream_, z_dev_), 0u);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::string message = RecentMessage();
    EXPECT_NE(message.find("flag 1 never completes a round"), std::string::npos) << message;
}

TEST_F(AscendcBuild, GetFuncBySymbolFindsAKernelBeforeItsFirstLaunch) {
    aclrtFuncHandle function = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&update_device_values), &function),
              ACL_SUCCESS)
        << RecentMessage();
    char name[64] = {};
    ASSERT_EQ(aclrtGetFunctionName(function, sizeof name, name), ACL_SUCCESS);
    EXPECT_STREQ(name, "update_device_values");
    void* aic = nullptr;
    void* aiv = nullptr;
    ASSERT_EQ(aclrtGetFunctionAddr(function, &aic, &aiv), ACL_SUCCESS) << RecentMessage();
    EXPECT_EQ(aiv, reinterpret_cast<void*>(&update_device_values));
}

TEST_F(AscendcBuild, AKernelFoundBySymbolUpdatesTheDeviceVariableTheHostFilled) {
    int32_t* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(reinterpret_cast<void**>(&host), sizeof g_device_values),
              ACL_SUCCESS);
    for (int32_t i = 0; i < 8; ++i)
        host[i] = 10 * (i + 1);
    ASSERT_EQ(aclrtMemcpyToSymbolAsync(g_device_values, host, sizeof g_device_values, 0,
                                       ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS)
        << RecentMessage();
    aclrtFuncHandle function = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&update_device_values), &function),
              ACL_SUCCESS)
        << RecentMessage();
    int32_t increment = 7;  // the kernel's packed arguments: one int32_t
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(function, 1, stream_, nullptr, &increment,
                                            sizeof increment, nullptr, 0),
              ACL_SUCCESS)
        << RecentMessage();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    int32_t values[8] = {};
    ASSERT_EQ(aclrtMemcpyFromSymbol(values, sizeof values, g_device_values, sizeof values, 0,
                                    ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS)
        << RecentMessage();
    for (int32_t i = 0; i < 8; ++i)
        EXPECT_EQ(values[i], 10 * (i + 1) + 7) << "element " << i;
    aclrtFreeHost(host);
}
