// Loads the kernel object ascendc_fatbin_library built (FATBIN_PATH) at run time and launches
// its kernels the two ways CANN's runtime offers for one: an argument handle with
// aclrtLaunchKernelWithConfig, and a packed block with aclrtLaunchKernelWithHostArgs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

struct ScaleTiling {  // as fatbin_kernels.cpp declares it
    float scale;
    float offset;
    uint32_t tileLength;
};

constexpr uint32_t kLength = 1000;
constexpr uint32_t kTile = 128;
constexpr uint32_t kBlocks = (kLength + kTile - 1) / kTile;
constexpr ScaleTiling kTiling{2.0f, 0.5f, kTile};

std::string RecentMessage() {
    const char* message = aclGetRecentErrMsg();
    return message ? message : "";
}

class AscendcFatbin : public ::testing::Test {
 protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryLoadFromFile(FATBIN_PATH, nullptr, &binary_), ACL_SUCCESS)
            << RecentMessage();
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "scale_offset", &scale_offset_), ACL_SUCCESS)
            << RecentMessage();
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "fill_index", &fill_index_), ACL_SUCCESS)
            << RecentMessage();
        for (uint32_t i = 0; i < kLength; ++i)
            in_[i] = static_cast<float>(i) - 300.0f;
        ASSERT_EQ(aclrtMalloc(&in_dev_, kLength * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&out_dev_, kLength * sizeof(int64_t), ACL_MEM_MALLOC_HUGE_FIRST),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(in_dev_, kLength * sizeof(float), in_.data(), kLength * sizeof(float),
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtFree(in_dev_);
        aclrtFree(out_dev_);
        if (binary_ != nullptr) aclrtBinaryUnLoad(binary_);
        aclrtDestroyStream(stream_);
        aclrtResetDevice(0);
        aclFinalize();
    }
    template <class T>
    std::vector<T> Output() {
        std::vector<T> host(kLength);
        EXPECT_EQ(aclrtMemcpy(host.data(), kLength * sizeof(T), out_dev_, kLength * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return host;
    }
    void ExpectScaled() {
        std::vector<float> out = Output<float>();
        for (uint32_t i = 0; i < kLength; ++i)
            ASSERT_EQ(out[i], in_[i] * kTiling.scale + kTiling.offset) << "element " << i;
    }
    void ExpectIndices(int64_t base) {
        std::vector<int64_t> out = Output<int64_t>();
        for (uint32_t i = 0; i < kLength; ++i)
            ASSERT_EQ(out[i], base + i) << "element " << i;
    }
    // Builds a finalized argument handle from (address, size) pairs.
    aclrtArgsHandle Args(aclrtFuncHandle function,
                         std::initializer_list<std::pair<void*, size_t>> params) {
        aclrtArgsHandle args = nullptr;
        EXPECT_EQ(aclrtKernelArgsInit(function, &args), ACL_SUCCESS) << RecentMessage();
        for (auto [value, size] : params) {
            aclrtParamHandle param = nullptr;
            EXPECT_EQ(aclrtKernelArgsAppend(args, value, size, &param), ACL_SUCCESS)
                << RecentMessage();
        }
        EXPECT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
        return args;
    }

    aclrtStream stream_ = nullptr;
    aclrtBinHandle binary_ = nullptr;
    aclrtFuncHandle scale_offset_ = nullptr, fill_index_ = nullptr;
    std::vector<float> in_ = std::vector<float>(kLength);
    void *in_dev_ = nullptr, *out_dev_ = nullptr;
};

TEST_F(AscendcFatbin, KernelsLaunchWithAnArgumentHandle) {
    uint32_t n = kLength;
    ScaleTiling tiling = kTiling;
    aclrtArgsHandle args = Args(scale_offset_, {{&out_dev_, sizeof(void*)},
                                                {&in_dev_, sizeof(void*)},
                                                {&n, sizeof n},
                                                {&tiling, sizeof tiling}});
    ASSERT_EQ(aclrtLaunchKernelWithConfig(scale_offset_, kBlocks, stream_, nullptr, args, nullptr),
              ACL_SUCCESS)
        << RecentMessage();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    ExpectScaled();

    int64_t base = int64_t{1} << 40;
    args = Args(fill_index_, {{&out_dev_, sizeof(void*)}, {&n, sizeof n}, {&base, sizeof base}});
    ASSERT_EQ(aclrtLaunchKernelWithConfig(fill_index_, 3, stream_, nullptr, args, nullptr),
              ACL_SUCCESS)
        << RecentMessage();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    ExpectIndices(base);
}

TEST_F(AscendcFatbin, KernelsLaunchWithAPackedHostBlock) {
    // CANN's packed layout: every field aligned to max(4, its alignment), structs by value.
    struct {
        alignas(8) void* out;
        alignas(8) void* in;
        alignas(4) uint32_t n;
        alignas(4) ScaleTiling tiling;
    } scale{out_dev_, in_dev_, kLength, kTiling};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(scale_offset_, kBlocks, stream_, nullptr, &scale,
                                            sizeof scale, nullptr, 0),
              ACL_SUCCESS)
        << RecentMessage();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    ExpectScaled();

    struct {
        alignas(8) void* out;
        alignas(4) uint32_t n;
        alignas(8) int64_t base;
    } fill{out_dev_, kLength, -77};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(fill_index_, 4, stream_, nullptr, &fill, sizeof fill,
                                            nullptr, 0),
              ACL_SUCCESS)
        << RecentMessage();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentMessage();
    ExpectIndices(-77);
}

TEST_F(AscendcFatbin, ArgumentHandleMissingAParameterIsRefusedWithAMessage) {
    uint32_t n = kLength;
    aclrtArgsHandle args = Args(fill_index_, {{&out_dev_, sizeof(void*)}, {&n, sizeof n}});
    EXPECT_EQ(aclrtLaunchKernelWithConfig(fill_index_, 1, stream_, nullptr, args, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(RecentMessage().find("takes 3 parameters but argsHandle"), std::string::npos)
        << RecentMessage();
}

TEST_F(AscendcFatbin, ArgumentOfTheWrongSizeIsRefusedWithAMessage) {
    uint32_t n = kLength;
    int32_t narrow_base = 5;  // the kernel takes an int64_t
    aclrtArgsHandle args =
        Args(fill_index_,
             {{&out_dev_, sizeof(void*)}, {&n, sizeof n}, {&narrow_base, sizeof narrow_base}});
    EXPECT_EQ(aclrtLaunchKernelWithConfig(fill_index_, 1, stream_, nullptr, args, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(RecentMessage().find("a parameter was appended with a size other than its type's"),
              std::string::npos)
        << RecentMessage();
}

TEST_F(AscendcFatbin, LoadingAFileThatIsNoKernelObjectFailsWithAMessage) {
    const std::string path = ::testing::TempDir() + "not_a_kernel.o";
    FILE* file = std::fopen(path.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fputs("this is text, not a kernel object\n", file);
    std::fclose(file);
    aclrtBinHandle binary = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromFile(path.c_str(), nullptr, &binary), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(RecentMessage().find("is not a kernel binary"), std::string::npos) << RecentMessage();
    std::remove(path.c_str());

    // An ELF shared object without openacl's kernel table.
    EXPECT_EQ(aclrtBinaryLoadFromFile(ASCENDCL_PATH, nullptr, &binary), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(RecentMessage().find("has no openacl kernel table"), std::string::npos)
        << RecentMessage();
}

TEST(AscendcFatbinBuild, KernelObjectIsWhereCannPutsIt) {
    const std::string path = FATBIN_PATH;
    const std::string tail = "/fatbin/fatbin_kernels/fatbin_kernels.o";
    ASSERT_GE(path.size(), tail.size());
    EXPECT_EQ(path.substr(path.size() - tail.size()), tail);
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
