// Compute threads shared by models and BLAS operators: a model execution and a GEMM each borrow
// the OpenMP threads they compute with from the CPU backend's one gate (backend/cpu/
// compute_gate.h), so that on two streams at once they never compute with more threads than
// the device has workers; each waits while the threads are lent out.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "backend/cpu/compute_gate.h"
#include "onnx_builder.h"

namespace openacl {
namespace {

using namespace std::chrono_literals;
using cpu::ComputeGate;
using cpu::ComputeLease;

constexpr int64_t kChannels = 64, kSide = 32;
constexpr size_t kImageBytes = kChannels * kSide * kSide * sizeof(float);
constexpr int kOrder = 256;  // the GEMM's square matrices
constexpr size_t kMatrixBytes = kOrder * kOrder * sizeof(aclFloat16);

// Two 3x3 convolutions: a few milliseconds of oneDNN's work per execution.
std::string ConvModel() {
    const std::vector<float> w(kChannels * kChannels * 9, 0.01f);
    return test_onnx::Builder()
        .Input("x", {1, kChannels, kSide, kSide})
        .Output("y", {1, kChannels, kSide, kSide})
        .Weight("w1", {kChannels, kChannels, 3, 3}, w)
        .Weight("w2", {kChannels, kChannels, 3, 3}, w)
        .Node("Conv", {"x", "w1"}, {"h"})
        .IntsAttribute("pads", {1, 1, 1, 1})
        .Node("Conv", {"h", "w2"}, {"y"})
        .IntsAttribute("pads", {1, 1, 1, 1})
        .Bytes();
}

void* Device(size_t bytes) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(p, bytes, 0, bytes), ACL_SUCCESS);
    return p;
}

class ComputeSharing : public ::testing::Test {
 protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        const std::string model = ConvModel();
        ASSERT_EQ(aclmdlLoadFromMem(model.data(), model.size(), &model_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        for (void** p : {&image_in_, &image_out_})
            *p = Device(kImageBytes);
        for (void** p : {&a_, &b_, &c_})
            *p = Device(kMatrixBytes);
        inputs_ = aclmdlCreateDataset();
        outputs_ = aclmdlCreateDataset();
        aclmdlAddDatasetBuffer(inputs_, aclCreateDataBuffer(image_in_, kImageBytes));
        aclmdlAddDatasetBuffer(outputs_, aclCreateDataBuffer(image_out_, kImageBytes));
        ASSERT_EQ(aclrtCreateStream(&model_stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&gemm_stream_), ACL_SUCCESS);
        ComputeGate::Get().ResetStats();
    }
    void TearDown() override {
        aclrtSynchronizeDevice();
        for (aclmdlDataset* set : {inputs_, outputs_}) {
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, 0));
            aclmdlDestroyDataset(set);
        }
        aclmdlUnload(model_);
        aclrtDestroyStream(model_stream_);
        aclrtDestroyStream(gemm_stream_);
        for (void* p : {image_in_, image_out_, a_, b_, c_})
            aclrtFree(p);
        aclrtResetDevice(0);
        aclFinalize();
    }
    void EnqueueModel() {
        ASSERT_EQ(aclmdlExecuteAsync(model_, inputs_, outputs_, model_stream_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    void EnqueueGemm() {
        const aclFloat16 one = aclFloatToFloat16(1.0f), zero = aclFloatToFloat16(0.0f);
        ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, kOrder, kOrder, kOrder, &one,
                                a_, kOrder, ACL_FLOAT16, b_, kOrder, ACL_FLOAT16, &zero, c_, kOrder,
                                ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION, gemm_stream_),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    // Whether the stream's work is still queued or running `wait` after the call.
    static bool StillBusyAfter(aclrtStream stream, std::chrono::milliseconds wait) {
        std::this_thread::sleep_for(wait);
        aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
        EXPECT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
        return status == ACL_STREAM_STATUS_NOT_READY;
    }

    uint32_t model_ = 0;
    void* image_in_ = nullptr;
    void* image_out_ = nullptr;
    void* a_ = nullptr;
    void* b_ = nullptr;
    void* c_ = nullptr;
    aclmdlDataset* inputs_ = nullptr;
    aclmdlDataset* outputs_ = nullptr;
    aclrtStream model_stream_ = nullptr;
    aclrtStream gemm_stream_ = nullptr;
};

TEST_F(ComputeSharing, AGemmWaitsWhileTheComputeThreadsAreLentOut) {
    auto held = std::make_unique<ComputeLease>(ComputeGate::Get().capacity());
    EnqueueGemm();
    EXPECT_TRUE(StillBusyAfter(gemm_stream_, 200ms));
    held.reset();
    EXPECT_EQ(aclrtSynchronizeStream(gemm_stream_), ACL_SUCCESS);
}

TEST_F(ComputeSharing, AModelExecutionWaitsWhileTheComputeThreadsAreLentOut) {
    auto held = std::make_unique<ComputeLease>(ComputeGate::Get().capacity());
    EnqueueModel();
    EXPECT_TRUE(StillBusyAfter(model_stream_, 200ms));
    held.reset();
    EXPECT_EQ(aclrtSynchronizeStream(model_stream_), ACL_SUCCESS);
}

TEST_F(ComputeSharing, AModelAndAGemmOnTwoStreamsNeverComputeWithMoreThreadsThanTheWorkers) {
    constexpr int kEach = 20;
    for (int i = 0; i < kEach; ++i) {
        EnqueueModel();
        EnqueueGemm();
    }
    ASSERT_EQ(aclrtSynchronizeStream(model_stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(gemm_stream_), ACL_SUCCESS);
    const ComputeGate::Stats stats = ComputeGate::Get().stats();
    EXPECT_EQ(stats.loans, 2u * kEach) << "every execution and product borrowed its threads";
    EXPECT_LE(stats.most_lent, ComputeGate::Get().capacity());
}

}  // namespace
}  // namespace openacl
