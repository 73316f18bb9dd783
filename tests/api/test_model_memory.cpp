// What a loaded model holds in memory: a model the compiled engine runs keeps its weights once,
// in the formats its primitives read, whether it came as ONNX bytes or as an .om with a
// compiled plan. Measured as the process's resident memory, so every copy counts, wherever it
// lives (host heap, oneDNN's buffers, the device arena).
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "onnx_builder.h"
#include "sanitizer.h"
#include "test_support.h"

namespace {

// A model that is almost all weights: a 3x3 convolution of `channels` to `channels` (stride 2,
// so no Winograd, whose weights are bigger than the graph's) and a fully connected layer of
// `channels` to `features`, on a small input.
std::string WideModel(int64_t channels, int64_t features) {
    const int64_t conv = channels * channels * 9, fc = features * channels;
    return test_onnx::Builder()
        .Input("x", {1, channels, 8, 8})
        .Output("y", {1, features})
        .Weight("w", {channels, channels, 3, 3}, std::vector<float>(conv, 0.001f))
        .Weight("b", {channels}, std::vector<float>(channels, 0.5f))
        .Weight("fc_w", {features, channels}, std::vector<float>(fc, 0.002f))
        .Weight("fc_b", {features}, std::vector<float>(features, 0.25f))
        .Node("Conv", {"x", "w", "b"}, {"c"})
        .IntsAttribute("strides", {2, 2})
        .IntsAttribute("pads", {1, 1, 1, 1})
        .Node("Relu", {"c"}, {"r"})
        .Node("GlobalAveragePool", {"r"}, {"p"})
        .Node("Flatten", {"p"}, {"f"})
        .Node("Gemm", {"f", "fc_w", "fc_b"}, {"y"})
        .IntAttribute("transB", 1)
        .Bytes();
}

constexpr int64_t kChannels = 1024, kFeatures = 8192;
constexpr size_t kWeightBytes =
    (kChannels * kChannels * 9 + kChannels + kFeatures * kChannels + kFeatures) * sizeof(float);

// Sanitizers keep shadow memory for what the program touches (ThreadSanitizer several times
// its bytes, AddressSanitizer an eighth plus a quarantine of freed blocks), so under them the
// resident set no longer tells what the runtime holds (kSanitized: sanitizer.h).

// Resident memory of this process, once the heap has handed its free pages back, so that what
// is counted is what is held.
size_t ResidentBytes() {
    malloc_trim(0);
    std::ifstream statm("/proc/self/statm");
    size_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

class ModelMemoryTest : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        // What a first load pays once per process (oneDNN's kernels and OpenMP's threads, the
        // runtime's tables) is paid here, on the same operators, so it is not counted below.
        const std::string small = WideModel(32, 64);
        uint32_t id = 0;
        ASSERT_EQ(aclmdlLoadFromMem(small.data(), small.size(), &id), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    }
    void TearDown() override {
        if (!om_.empty()) std::remove(om_.c_str());
        DeviceTest::TearDown();
    }
    // The .om atc writes for `onnx`, converted through a temporary file.
    std::string Convert(const std::string& onnx) {
        const std::string stem = "/tmp/openacl-memory-test-" + std::to_string(getpid());
        std::ofstream(stem + ".onnx", std::ios::binary) << onnx;
        const std::string command = std::string(OPENACL_ATC) + " --model=" + stem +
                                    ".onnx --framework=5 --soc_version=Ascend310P3 --log=error "
                                    "--output=" +
                                    stem + " > /dev/null";
        EXPECT_EQ(std::system(command.c_str()), 0) << command;
        std::remove((stem + ".onnx").c_str());
        om_ = stem + ".om";
        return om_;
    }
    std::string om_;
};

TEST_F(ModelMemoryTest, AnOnnxModelLoadedFromMemoryHoldsItsWeightsOnce) {
    if (kSanitized) GTEST_SKIP() << "resident memory means nothing under a sanitizer";
    const std::string bytes = WideModel(kChannels, kFeatures);
    const size_t before = ResidentBytes();
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    const size_t held = ResidentBytes() - before;
    EXPECT_GT(held, kWeightBytes * 9 / 10) << "the weights must be somewhere";
    EXPECT_LT(held, kWeightBytes * 5 / 4)
        << "held " << (held >> 20) << " MiB for " << (kWeightBytes >> 20) << " MiB of weights";
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelMemoryTest, AnOmModelWithACompiledPlanHoldsItsWeightsOnce) {
    if (kSanitized) GTEST_SKIP() << "resident memory means nothing under a sanitizer";
    const std::string om = Convert(WideModel(kChannels, kFeatures));
    const size_t before = ResidentBytes();
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile(om.c_str(), &id), ACL_SUCCESS) << aclGetRecentErrMsg();
    const size_t held = ResidentBytes() - before;
    EXPECT_GT(held, kWeightBytes * 9 / 10) << "the weights must be somewhere";
    EXPECT_LT(held, kWeightBytes * 5 / 4)
        << "held " << (held >> 20) << " MiB for " << (kWeightBytes >> 20) << " MiB of weights";
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// With every input 1, each output is the same number: the convolution's taps that fall inside
// the 8x8 input (4 at a corner, 6 on an edge, 9 inside: 121 over the 4x4 output) averaged by
// the pool, then summed by the fully connected layer.
TEST_F(ModelMemoryTest, AModelComputesWithTheOneCopyItHolds) {
    const std::string bytes = WideModel(kChannels, kFeatures);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    const size_t in_bytes = kChannels * 8 * 8 * sizeof(float),
                 out_bytes = kFeatures * sizeof(float);
    void* in = nullptr;
    void* out = nullptr;
    ASSERT_EQ(aclrtMalloc(&in, in_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out, out_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const std::vector<float> ones(kChannels * 8 * 8, 1.0f);
    ASSERT_EQ(aclrtMemcpy(in, in_bytes, ones.data(), in_bytes, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    aclmdlDataset* inputs = aclmdlCreateDataset();
    aclmdlDataset* outputs = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(inputs, aclCreateDataBuffer(in, in_bytes));
    aclmdlAddDatasetBuffer(outputs, aclCreateDataBuffer(out, out_bytes));
    ASSERT_EQ(aclmdlExecute(id, inputs, outputs), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> y(kFeatures);
    ASSERT_EQ(aclrtMemcpy(y.data(), out_bytes, out, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    const double pooled = 0.5 + 0.001 * kChannels * 121 / 16;
    const double expected = 0.25 + 0.002 * kChannels * pooled;
    for (size_t i = 0; i < y.size(); ++i)
        ASSERT_NEAR(y[i], expected, 1e-4 * expected) << "output " << i;
    for (aclmdlDataset* set : {inputs, outputs}) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, 0));
        aclmdlDestroyDataset(set);
    }
    aclrtFree(in);
    aclrtFree(out);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

}  // namespace
