// Models on an accelerator device (OPENACL_BACKEND=cuda): the host engine runs them on host
// copies of the device buffers (src/model/staging.cpp). The outputs must be those of the CPU
// backend, computed in the same process first.
#include <pthread.h>
#include <unistd.h>
#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "accelerator_test.h"
#include "onnx_builder.h"

namespace openacl::testing {
namespace {

using Floats = std::vector<float>;

// d = a - b and r = relu(d), on 2x3 floats.
std::string SubReluModel() {
    return test_onnx::Builder()
        .Input("a", {2, 3})
        .Input("b", {2, 3})
        .Output("d", {2, 3})
        .Output("r", {2, 3})
        .Node("Sub", {"a", "b"}, {"d"})
        .Node("Relu", {"d"}, {"r"})
        .Bytes();
}

const Floats kA{1, -2, 3, -4, 5, -6};
const Floats kB{0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
constexpr size_t kBytes = 6 * sizeof(float);

enum class Mode { kSync, kAsync };

class ModelPaths : public ::testing::Test {
 protected:
    void TearDown() override {
        if (started_) Stop();
        unsetenv("OPENACL_BACKEND");
    }
    void Start(bool accelerator) {
        if (accelerator) {
            setenv("OPENACL_BACKEND", "cuda", 1);
            InstallFakeAccelerators(1);
        } else {
            unsetenv("OPENACL_BACKEND");
        }
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
        started_ = true;
        ASSERT_EQ(aclmdlLoadFromMem(model_.data(), model_.size(), &id_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    void Stop() {
        EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
        started_ = false;
    }
    void* Device(size_t size) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        return p;
    }
    static aclmdlDataset* Dataset(std::initializer_list<std::pair<void*, size_t>> buffers) {
        aclmdlDataset* set = aclmdlCreateDataset();
        for (auto [data, size] : buffers)
            aclmdlAddDatasetBuffer(set, aclCreateDataBuffer(data, size));
        return set;
    }
    static void Destroy(aclmdlDataset* set) {
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i)
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
        aclmdlDestroyDataset(set);
    }
    static Floats Download(const void* device) {
        Floats values(6);
        EXPECT_EQ(aclrtMemcpy(values.data(), kBytes, device, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
        return values;
    }
    // Runs the model on the current device; outputs d and r. Output r's buffer starts as
    // `r_fill` bytes so that untouched bytes would show.
    std::vector<Floats> Run(Mode mode, bool runtime_outputs = false) {
        void* a = Device(kBytes);
        void* b = Device(kBytes);
        EXPECT_EQ(aclrtMemcpy(a, kBytes, kA.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(b, kBytes, kB.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        void* d = runtime_outputs ? nullptr : Device(kBytes);
        void* r = runtime_outputs ? nullptr : Device(kBytes);
        aclmdlDataset* inputs = Dataset({{a, kBytes}, {b, kBytes}});
        aclmdlDataset* outputs = Dataset({{d, d ? kBytes : 0}, {r, r ? kBytes : 0}});
        if (mode == Mode::kSync) {
            EXPECT_EQ(aclmdlExecute(id_, inputs, outputs), ACL_SUCCESS) << aclGetRecentErrMsg();
        } else {
            aclrtStream stream = nullptr;
            EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
            EXPECT_EQ(aclmdlExecuteAsync(id_, inputs, outputs, stream), ACL_SUCCESS)
                << aclGetRecentErrMsg();
            EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
        }
        std::vector<Floats> result;
        for (size_t o = 0; o < 2; ++o) {
            void* data = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(outputs, o));
            EXPECT_NE(data, nullptr) << "output " << o;
            result.push_back(data ? Download(data) : Floats{});
            if (data != nullptr) {
                EXPECT_EQ(aclrtFree(data), ACL_SUCCESS);
            }
        }
        Destroy(inputs);
        Destroy(outputs);
        EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
        EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
        return result;
    }
    std::vector<Floats> OnCpu(Mode mode) {
        Start(false);
        std::vector<Floats> result = Run(mode);
        Stop();
        return result;
    }

    std::string model_ = SubReluModel();
    uint32_t id_ = 0;
    bool started_ = false;
};

const std::vector<Floats> kExpected{{0.5f, -2.5f, 2.5f, -4.5f, 4.5f, -6.5f},
                                    {0.5f, 0, 2.5f, 0, 4.5f, 0}};

TEST_F(ModelPaths, ExecuteGivesTheOutputsOfTheCpuBackend) {
    const std::vector<Floats> cpu = OnCpu(Mode::kSync);
    ASSERT_EQ(cpu, kExpected);
    Start(true);
    const uint64_t copies = Installed()->sync_copies();
    EXPECT_EQ(Run(Mode::kSync), cpu);
    EXPECT_GE(Installed()->sync_copies() - copies, 4u) << "inputs and outputs were not staged";
}

TEST_F(ModelPaths, ExecuteAsyncGivesTheOutputsOfTheCpuBackend) {
    const std::vector<Floats> cpu = OnCpu(Mode::kAsync);
    ASSERT_EQ(cpu, kExpected);
    Start(true);
    const uint64_t copies = Installed()->lane_copies();
    EXPECT_EQ(Run(Mode::kAsync), cpu);
    EXPECT_GE(Installed()->lane_copies() - copies, 6u) << "in, out and back on the lane";
}

TEST_F(ModelPaths, ExecuteAllocatesOutputsTheCallerLeftEmpty) {
    Start(true);
    EXPECT_EQ(Run(Mode::kSync, /*runtime_outputs=*/true), kExpected);
}

TEST_F(ModelPaths, ExecuteAsyncAllocatesOutputsTheCallerLeftEmpty) {
    Start(true);
    EXPECT_EQ(Run(Mode::kAsync, /*runtime_outputs=*/true), kExpected);
}

TEST_F(ModelPaths, RepeatedAsyncExecutionsReuseTheirStagingBuffers) {
    Start(true);
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(Run(Mode::kAsync), kExpected) << i;
    EXPECT_EQ(Installed()->pinned_host_blocks(), 4) << "one staging buffer per input and output";
    EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    EXPECT_EQ(Installed()->pinned_host_blocks(), 0) << "unload frees the staging buffers";
    ASSERT_EQ(aclmdlLoadFromMem(model_.data(), model_.size(), &id_), ACL_SUCCESS);
}

TEST_F(ModelPaths, ExecuteAsyncRunsInStreamOrderBetweenAsyncCopies) {
    Start(true);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host, 2 * kBytes), ACL_SUCCESS);
    auto* h = static_cast<float*>(host);
    std::memcpy(h, kA.data(), kBytes);
    std::memcpy(h + 6, kB.data(), kBytes);
    void* a = Device(kBytes);
    void* b = Device(kBytes);
    void* d = Device(kBytes);
    void* r = Device(kBytes);
    aclmdlDataset* inputs = Dataset({{a, kBytes}, {b, kBytes}});
    aclmdlDataset* outputs = Dataset({{d, kBytes}, {r, kBytes}});
    Gate gate;  // everything below is queued before any of it runs
    ASSERT_EQ(gate.Block(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(a, kBytes, h, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(b, kBytes, h + 6, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id_, inputs, outputs, stream), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpyAsync(h, kBytes, r, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Floats(h, h + 6), kExpected[1]);
    Destroy(inputs);
    Destroy(outputs);
    for (void* p : {a, b, d, r})
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(ModelPaths, LoadWithMemPutsTheModelInTheCallersDeviceMemory) {
    Start(true);
    size_t work_size = 0, weight_size = 0;
    ASSERT_EQ(aclmdlQuerySizeFromMem(model_.data(), model_.size(), &work_size, &weight_size),
              ACL_SUCCESS);
    void* work = Device(std::max<size_t>(work_size, 1));
    void* weight = Device(weight_size);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromMemWithMem(model_.data(), model_.size(), &id, work, work_size, weight,
                                       weight_size),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::swap(id, id_);
    EXPECT_EQ(Run(Mode::kSync), kExpected);
    std::swap(id, id_);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(work), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(weight), ACL_SUCCESS);
}

TEST_F(ModelPaths, SetDynamicBatchSizeWritesTheChoiceIntoDeviceMemory) {
    const std::string om = "/tmp/openacl-accelerator-test-" + std::to_string(getpid());
    const std::string command = std::string(OPENACL_ATC) + " --model=" + OPENACL_ONNX_TESTDATA +
                                "/pytorch-converted/test_Conv2d/model.onnx --framework=5 "
                                "--soc_version=Ascend310P3 --log=error --output=" +
                                om + " --input_shape=0:-1,3,7,5 --dynamic_batch_size=1,2,4" +
                                " > /dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    Start(true);
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromFile((om + ".om").c_str(), &id), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::remove((om + ".om").c_str());
    aclmdlDesc* desc = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
    size_t dynamic = 0;
    ASSERT_EQ(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &dynamic), ACL_SUCCESS);
    ASSERT_EQ(dynamic, 1u);
    const size_t in_size = aclmdlGetInputSizeByIndex(desc, 0);
    const size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
    void* in = Device(in_size);
    void* choice = Device(8);
    void* out = Device(out_size);
    ASSERT_EQ(aclrtMemset(in, in_size, 0, in_size), ACL_SUCCESS);
    aclmdlDataset* inputs = Dataset({{in, in_size}, {choice, 8}});
    aclmdlDataset* outputs = Dataset({{out, out_size}});
    ASSERT_EQ(aclmdlSetDynamicBatchSize(id, inputs, dynamic, 2), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    int64_t written = 0;
    ASSERT_EQ(aclrtMemcpy(&written, 8, choice, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(written, 2);
    ASSERT_EQ(aclmdlExecute(id, inputs, outputs), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclmdlIODims dims;
    ASSERT_EQ(aclmdlGetCurOutputDims(desc, 0, &dims), ACL_SUCCESS);
    EXPECT_EQ(dims.dims[0], 2);
    Destroy(inputs);
    Destroy(outputs);
    for (void* p : {in, choice, out})
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    aclmdlDestroyDesc(desc);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

void Throw(void*) {
    throw std::runtime_error("callback failure");
}

TEST_F(ModelPaths, AnExecutionSkippedAfterAFailureStillReturnsItsStagingAndModel) {
    Start(true);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::atomic<uint64_t> reporter_id{0};
    std::atomic<bool> stop{false};
    std::thread reporter([&] {
        aclrtSetCurrentContext(context);
        reporter_id.store(static_cast<uint64_t>(pthread_self()));
        while (!stop.load())
            aclrtProcessReport(10);
    });
    while (reporter_id.load() == 0)
        std::this_thread::yield();
    ASSERT_EQ(aclrtSubscribeReport(reporter_id.load(), stream), ACL_SUCCESS);
    void* a = Device(kBytes);
    void* b = Device(kBytes);
    void* d = Device(kBytes);
    void* r = Device(kBytes);
    aclmdlDataset* inputs = Dataset({{a, kBytes}, {b, kBytes}});
    aclmdlDataset* outputs = Dataset({{d, kBytes}, {r, kBytes}});
    ASSERT_EQ(aclrtLaunchCallback(Throw, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id_, inputs, outputs, stream), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_FAILURE);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter_id.load(), stream), ACL_SUCCESS);
    stop.store(true);
    reporter.join();
    Destroy(inputs);
    Destroy(outputs);
    for (void* p : {a, b, d, r})
        EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    EXPECT_EQ(Installed()->pinned_host_blocks(), 0)
        << "the skipped execution kept its staging buffers (or its model)";
    ASSERT_EQ(aclmdlLoadFromMem(model_.data(), model_.size(), &id_), ACL_SUCCESS);
}

}  // namespace
}  // namespace openacl::testing
