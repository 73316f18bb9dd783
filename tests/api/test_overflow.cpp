// Floating-point overflow detection on the CPU backend: streams with the overflow switch on have
// their kernel launches' IEEE flags read, and their BLAS products' and model executions' outputs
// scanned for infinities and NaNs; the status calls copy what was seen into device memory or
// clear it, in stream order (core/overflow.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "onnx_builder.h"
#include "test_support.h"

namespace {

constexpr uint32_t kOverflowBit = 1;  // a result overflowed to infinity
constexpr uint32_t kInvalidBit = 2;   // an invalid operation made a NaN

uint64_t Slot(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}
uint64_t FloatSlot(float value) {
    uint64_t slot = 0;
    std::memcpy(&slot, &value, sizeof value);
    return slot;
}

class Overflow : public InitializedDeviceTest {
 protected:
    void SetUp() override {
        InitializedDeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        status_ = Device(64);
    }
    void TearDown() override {
        aclrtBinaryUnLoad(binary_);
        InitializedDeviceTest::TearDown();
    }
    aclrtFuncHandle Function(const char* name) {
        aclrtFuncHandle f = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(binary_, name, &f), ACL_SUCCESS) << aclGetRecentErrMsg();
        return f;
    }
    void* Device(size_t bytes) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        return p;
    }
    void* Floats(const std::vector<float>& values) {
        void* p = Device(values.size() * sizeof(float));
        EXPECT_EQ(aclrtMemcpy(p, values.size() * sizeof(float), values.data(),
                              values.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        return p;
    }
    // data[i] = data[i] * mul + add over the floats at data, in four blocks.
    void Affine(void* data, uint64_t n, float mul, float add, aclrtStream stream) {
        uint64_t args[4] = {Slot(data), n, FloatSlot(mul), FloatSlot(add)};
        ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("affine"), 4, stream, nullptr, args,
                                                sizeof args, nullptr, 0),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    // The first word of a status the stream's query wrote.
    uint32_t Status(aclrtStream stream) {
        EXPECT_EQ(aclrtGetOverflowStatus(status_, 64, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
        return ReadStatus(stream);
    }
    uint32_t ReadStatus(aclrtStream stream) {
        EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
        uint32_t words[16] = {};
        EXPECT_EQ(aclrtMemcpy(words, sizeof words, status_, 64, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        for (int i = 1; i < 16; ++i)
            EXPECT_EQ(words[i], 0u) << "word " << i;
        return words[0];
    }
    aclrtStream stream_ = nullptr;
    aclrtBinHandle binary_ = nullptr;
    void* status_ = nullptr;
};

// Two devices, for the status's scope.
class OverflowTwoDevices : public Overflow {
 private:
    ScopedEnv devices_{"OPENACL_DEVICE_COUNT", "2"};
};
class OverflowOn310P : public Overflow {
 private:
    ScopedEnv devices_{"OPENACL_DEVICE_COUNT", "2"};
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};

TEST_F(Overflow, AWatchedLaunchThatOverflowsSetsTheOverflowBit) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    EXPECT_EQ(Status(stream_), kOverflowBit);
}

TEST_F(Overflow, AnInvalidOperationSetsTheInvalidBit) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    const float inf = std::numeric_limits<float>::infinity();
    Affine(Floats(std::vector<float>(16, inf)), 16, 0.0f, 0.0f, stream_);  // inf * 0
    EXPECT_EQ(Status(stream_), kInvalidBit);
}

TEST_F(Overflow, ALaunchThatStaysFiniteLeavesTheStatusClear) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(Floats(std::vector<float>(16, 3.0f)), 16, 2.0f, 1.0f, stream_);
    EXPECT_EQ(Status(stream_), 0u);
}

TEST_F(Overflow, AStreamWithTheSwitchOffIsNotWatched) {
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    EXPECT_EQ(Status(stream_), 0u);
}

TEST_F(Overflow, TheSwitchCountsForTasksEnqueuedWhileItIsOn) {
    void* data = Floats(std::vector<float>(16, 1e30f));
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(data, 16, 1e30f, 0.0f, stream_);
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 0), ACL_SUCCESS);  // before the launch ran
    EXPECT_EQ(Status(stream_), kOverflowBit);
}

TEST_F(Overflow, AResetClearsTheStatusInStreamOrder) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
    EXPECT_EQ(Status(stream_), 0u);
}

TEST_F(Overflow, TheFloatAndNpuFormsShareTheStatus) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    ASSERT_EQ(aclrtGetFloatOverflowStatus(status_, 64, stream_), ACL_SUCCESS);
    EXPECT_EQ(ReadStatus(stream_), kOverflowBit);
    ASSERT_EQ(aclrtNpuGetFloatOverFlowStatus(status_, 64, 0, stream_), ACL_SUCCESS);
    EXPECT_EQ(ReadStatus(stream_), kOverflowBit);
    ASSERT_EQ(aclrtNpuClearFloatOverFlowStatus(0, stream_), ACL_SUCCESS);
    EXPECT_EQ(Status(stream_), 0u);
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    ASSERT_EQ(aclrtResetFloatOverflowStatus(stream_), ACL_SUCCESS);
    EXPECT_EQ(Status(stream_), 0u);
}

TEST_F(OverflowTwoDevices, OnAtlasA2TheStatusIsTheProcesss) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    void* other_status = Device(64);
    ASSERT_EQ(aclrtGetOverflowStatus(other_status, 64, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    uint32_t word = 0;
    ASSERT_EQ(aclrtMemcpy(&word, 4, other_status, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(word, kOverflowBit) << "device 1 sees device 0's overflow";
    ASSERT_EQ(aclrtResetOverflowStatus(nullptr), ACL_SUCCESS);  // on device 1: clears both
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(Status(stream_), 0u);
}

TEST_F(OverflowOn310P, OnTheInferenceSeriesTheStatusIsTheDevices) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    void* other_status = Device(64);
    ASSERT_EQ(aclrtGetOverflowStatus(other_status, 64, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    uint32_t word = 1;
    ASSERT_EQ(aclrtMemcpy(&word, 4, other_status, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(word, 0u) << "device 1 has its own status";
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(Status(stream_), kOverflowBit);
}

TEST_F(Overflow, TheContextWordRecordsTheContextsOverflows) {
    void* word = nullptr;
    ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&word), ACL_SUCCESS);
    void* again = nullptr;
    ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&again), ACL_SUCCESS);
    EXPECT_EQ(word, again);
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    Affine(Floats(std::vector<float>(16, 1e30f)), 16, 1e30f, 0.0f, stream_);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    uint32_t value = 0;
    ASSERT_EQ(aclrtMemcpy(&value, 4, word, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(value, kOverflowBit);
    ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(&value, 4, word, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(value, 0u);
}

TEST_F(Overflow, AKernelMayReportAnOverflowThroughTheContextWord) {
    void* word = nullptr;
    ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&word), ACL_SUCCESS);
    uint64_t args[2] = {Slot(word), 1};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("write_value"), 1, stream_, nullptr, args,
                                            sizeof args, nullptr, 0),
              ACL_SUCCESS);
    EXPECT_EQ(Status(stream_), 1u);
}

TEST_F(Overflow, ABlasProductThatOverflowsSetsTheStatus) {
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    const aclFloat16 big = aclFloatToFloat16(60000.0f), one = aclFloatToFloat16(1.0f),
                     zero = aclFloatToFloat16(0.0f);
    std::vector<aclFloat16> host(4, big);
    void* a = Device(8);
    void* b = Device(8);
    void* c = Device(8);
    ASSERT_EQ(aclrtMemcpy(a, 8, host.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(b, 8, host.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &one,
                           static_cast<aclFloat16*>(a), -1, static_cast<aclFloat16*>(b), -1, &zero,
                           static_cast<aclFloat16*>(c), -1, ACL_COMPUTE_HIGH_PRECISION, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(Status(stream_), kOverflowBit);  // 2 * 60000^2 is past half's 65504
}

TEST_F(Overflow, AModelExecutionThatOverflowsSetsTheStatus) {
    const std::string bytes = test_onnx::Builder()
                                  .Input("x", {1, 4})
                                  .Output("y", {1, 4})
                                  .Node("Mul", {"x", "x"}, {"y"})
                                  .Bytes();
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    void* x = Floats({1e30f, 2.0f, 3.0f, 4.0f});
    void* y = Device(16);
    aclmdlDataset* inputs = aclmdlCreateDataset();
    aclmdlDataset* outputs = aclmdlCreateDataset();
    aclDataBuffer* in = aclCreateDataBuffer(x, 16);
    aclDataBuffer* out = aclCreateDataBuffer(y, 16);
    ASSERT_EQ(aclmdlAddDatasetBuffer(inputs, in), ACL_SUCCESS);
    ASSERT_EQ(aclmdlAddDatasetBuffer(outputs, out), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id, inputs, outputs, stream_), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(Status(stream_), kOverflowBit);
    aclmdlUnload(id);
    aclDestroyDataBuffer(in);
    aclDestroyDataBuffer(out);
    aclmdlDestroyDataset(inputs);
    aclmdlDestroyDataset(outputs);
}

TEST_F(Overflow, TheStatusNeedsSixtyFourBytesOfDeviceMemory) {
    EXPECT_EQ(aclrtGetOverflowStatus(status_, 32, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("outputSize is 32");
    std::vector<unsigned char> host(64);
    EXPECT_EQ(aclrtGetOverflowStatus(host.data(), 64, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("device memory");
    EXPECT_EQ(aclrtGetFloatOverflowStatus(nullptr, 64, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("outputAddr is null");
}

TEST_F(Overflow, AQueryIntoMemoryFreedBeforeItRunsFailsTheStream) {
    void* ran = Device(4);
    uint64_t args[2] = {Slot(ran), 30};  // holds the stream for 30 ms
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("sleep_ms"), 1, stream_, nullptr, args,
                                            sizeof args, nullptr, 0),
              ACL_SUCCESS);
    void* status = Device(64);
    ASSERT_EQ(aclrtGetOverflowStatus(status, 64, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(status), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("was freed before the query ran");
}

}  // namespace
