// The model API (aclmdlExecute, aclmdlExecuteAsync) next to OpenCV DNN, the engine behind it,
// called directly on the same ONNX model in the same process. bench/run.sh runs it after
// bench_runtime and bench_pocl and summarizes it; docs/PERFORMANCE.md ("Models") has the method
// and the results.
//
// Models (random weights, built in memory; examples/image_classification/resnet_onnx.h):
//   resnet: the image_classification example's ResNet-10 (1x3x224x224 -> 1000, ~0.9 GMAC)
//   mlp:    Gemm+Relu x3 of width 64, Gemm to 10, Softmax (1x64 -> 10): a run of microseconds,
//           where per-call overhead shows
//
// Target (medians, 2-core machine): aclmdlExecute <= 3% slower than cv::dnn::Net::forward on
// the ResNet-style model.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/dnn.hpp>

#include "acl/acl.h"
#include "bench_common.h"
#include "resnet_onnx.h"

namespace {

using bench::NowNs;

void Check(aclError rc, const char* what) {
    if (rc != ACL_SUCCESS) {
        const char* msg = aclGetRecentErrMsg();
        std::fprintf(stderr, "%s failed with %d: %s\n", what, rc, msg ? msg : "(no message)");
        std::abort();
    }
}
#define CHECK_ACL(call) Check((call), #call)

// One model's input and output in device memory, wrapped in datasets.
struct DeviceIo {
    void* input = nullptr;
    void* output = nullptr;
    aclDataBuffer* input_buffer = nullptr;
    aclDataBuffer* output_buffer = nullptr;
    aclmdlDataset* input_set = nullptr;
    aclmdlDataset* output_set = nullptr;

    DeviceIo(const std::vector<float>& host_input, size_t output_bytes) {
        const size_t input_bytes = host_input.size() * sizeof(float);
        CHECK_ACL(aclrtMalloc(&input, input_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMalloc(&output, output_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMemcpy(input, input_bytes, host_input.data(), input_bytes,
                              ACL_MEMCPY_HOST_TO_DEVICE));
        input_buffer = aclCreateDataBuffer(input, input_bytes);
        output_buffer = aclCreateDataBuffer(output, output_bytes);
        input_set = aclmdlCreateDataset();
        output_set = aclmdlCreateDataset();
        if (!input_buffer || !output_buffer || !input_set || !output_set) {
            Check(ACL_ERROR_FAILURE, "creating data buffers and datasets");
        }
        CHECK_ACL(aclmdlAddDatasetBuffer(input_set, input_buffer));
        CHECK_ACL(aclmdlAddDatasetBuffer(output_set, output_buffer));
    }
    ~DeviceIo() {
        CHECK_ACL(aclDestroyDataBuffer(input_buffer));
        CHECK_ACL(aclDestroyDataBuffer(output_buffer));
        CHECK_ACL(aclmdlDestroyDataset(input_set));
        CHECK_ACL(aclmdlDestroyDataset(output_set));
        CHECK_ACL(aclrtFree(input));
        CHECK_ACL(aclrtFree(output));
    }
    DeviceIo(const DeviceIo&) = delete;
    DeviceIo& operator=(const DeviceIo&) = delete;
};

// The same ONNX bytes loaded twice: through the model API, and as a cv::dnn::Net the benchmark
// calls directly.
struct ModelPair {
    std::string name;
    std::vector<int> input_dims;
    std::vector<float> host_input;  // the OpenCV side's input, and the device input's content
    size_t output_bytes = 0;
    uint32_t model_id = 0;
    cv::dnn::Net net;
    std::vector<float> host_output;  // where the OpenCV side puts its result

    ModelPair(std::string model_name, const std::string& onnx, std::vector<int> dims)
        : name(std::move(model_name)), input_dims(std::move(dims)) {
        size_t count = 1;
        for (int d : input_dims)
            count *= static_cast<size_t>(d);
        resnet_onnx::Random random(99);
        host_input.resize(count);
        for (float& v : host_input)
            v = static_cast<float>(4.0 * random.Uniform() - 2.0);
        CHECK_ACL(aclmdlLoadFromMem(onnx.data(), onnx.size(), &model_id));
        aclmdlDesc* desc = aclmdlCreateDesc();
        CHECK_ACL(aclmdlGetDesc(desc, model_id));
        output_bytes = aclmdlGetOutputSizeByIndex(desc, 0);
        CHECK_ACL(aclmdlDestroyDesc(desc));
        host_output.resize(output_bytes / sizeof(float));
        net = cv::dnn::readNetFromONNX(onnx.data(), onnx.size());
    }
    ~ModelPair() { CHECK_ACL(aclmdlUnload(model_id)); }

    // What an OpenCV DNN application does per inference: set the input, forward, read the
    // output out of the returned blob.
    void ForwardOpenCv() {
        cv::Mat blob(static_cast<int>(input_dims.size()), input_dims.data(), CV_32F,
                     host_input.data());
        net.setInput(blob);
        cv::Mat out = net.forward();
        if (out.total() * sizeof(float) != output_bytes || !out.isContinuous()) {
            std::fprintf(stderr, "%s: OpenCV produced %zu floats, the model API says %zu bytes\n",
                         name.c_str(), out.total(), output_bytes);
            std::abort();
        }
        std::memcpy(host_output.data(), out.ptr<float>(), output_bytes);
    }
};

struct Models {
    ModelPair resnet{"resnet",
                     resnet_onnx::MakeResNet(2024),
                     {1, 3, static_cast<int>(resnet_onnx::kImageSize),
                      static_cast<int>(resnet_onnx::kImageSize)}};
    ModelPair mlp{"mlp", resnet_onnx::MakeMlp(7), {1, 64}};
};

Models* g_models = nullptr;

ModelPair& Model(int64_t index) {
    return index == 0 ? g_models->resnet : g_models->mlp;
}

// The two outputs must agree, or the comparison would be between different computations.
void CheckSameResult(ModelPair& m, const DeviceIo& io) {
    std::vector<float> acl(m.host_output.size());
    m.ForwardOpenCv();
    CHECK_ACL(aclmdlExecute(m.model_id, io.input_set, io.output_set));
    CHECK_ACL(aclrtMemcpy(acl.data(), m.output_bytes, io.output, m.output_bytes,
                          ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < acl.size(); ++i) {
        if (std::abs(acl[i] - m.host_output[i]) > 1e-5f * (1.0f + std::abs(acl[i]))) {
            std::fprintf(stderr, "%s: output %zu differs: aclmdlExecute %g, OpenCV %g\n",
                         m.name.c_str(), i, acl[i], m.host_output[i]);
            std::abort();
        }
    }
}

// ---- Latency: aclmdlExecute vs cv::dnn::Net::forward ----------------------------------------
// Each iteration runs both once, alternating which goes first, so that the host's drift and
// cache effects fall on both alike. The reported time is aclmdlExecute's; counters: acl_us and
// opencv_us (means over the repetition), overhead_us and overhead_pct (aclmdlExecute's total
// over forward's total, minus 1).

void BM_ExecuteVsOpenCv(benchmark::State& state) {
    ModelPair& m = Model(state.range(0));
    DeviceIo io(m.host_input, m.output_bytes);
    CheckSameResult(m, io);
    int64_t acl_ns = 0, cv_ns = 0, runs = 0;
    for (auto _ : state) {
        const bool acl_first = (runs & 1) == 0;
        int64_t t_acl = 0, t_cv = 0;
        for (int k = 0; k < 2; ++k) {
            const int64_t t0 = NowNs();
            if ((k == 0) == acl_first) {
                CHECK_ACL(aclmdlExecute(m.model_id, io.input_set, io.output_set));
                t_acl = NowNs() - t0;
            } else {
                m.ForwardOpenCv();
                t_cv = NowNs() - t0;
            }
        }
        state.SetIterationTime(static_cast<double>(t_acl) * 1e-9);
        acl_ns += t_acl;
        cv_ns += t_cv;
        ++runs;
    }
    if (runs == 0 || cv_ns == 0) return;
    state.counters["acl_us"] = static_cast<double>(acl_ns) / static_cast<double>(runs) * 1e-3;
    state.counters["opencv_us"] = static_cast<double>(cv_ns) / static_cast<double>(runs) * 1e-3;
    state.counters["overhead_us"] =
        static_cast<double>(acl_ns - cv_ns) / static_cast<double>(runs) * 1e-3;
    state.counters["overhead_pct"] =
        100.0 * (static_cast<double>(acl_ns) / static_cast<double>(cv_ns) - 1.0);
}
BENCHMARK(BM_ExecuteVsOpenCv)
    ->ArgName("model")
    ->Arg(0)
    ->Arg(1)
    ->UseManualTime()
    ->MinTime(2.0)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// ---- Throughput: aclmdlExecuteAsync on 1 or 2 streams ---------------------------------------
// Each iteration runs a batch of executions (8 of the ResNet, 256 of the MLP) three ways, in a
// rotating order so that the host's drift falls on all alike: synchronous aclmdlExecute calls on
// the benchmark's thread (the baseline); aclmdlExecuteAsync calls queued on one stream, then
// aclrtSynchronizeStream; the same round robin over two streams (each with its own input and
// output buffers), then both synchronized. Counters: executions per second of each way over the
// repetition (sync_per_s, stream1_per_s, streams2_per_s) and two_vs_one = streams2_per_s /
// stream1_per_s. The reported time (and items_per_second) is the two-stream batch's.

void BM_ExecuteAsyncThroughput(benchmark::State& state) {
    ModelPair& m = Model(state.range(0));
    const int queued = state.range(0) == 0 ? 8 : 256;
    aclrtStream stream[2] = {};
    std::unique_ptr<DeviceIo> io[2];
    for (int s = 0; s < 2; ++s) {
        io[s] = std::make_unique<DeviceIo>(m.host_input, m.output_bytes);
        CHECK_ACL(aclrtCreateStream(&stream[s]));
    }
    auto run = [&](int streams) {
        const int64_t t0 = NowNs();
        if (streams == 0) {
            for (int i = 0; i < queued; ++i)
                CHECK_ACL(aclmdlExecute(m.model_id, io[0]->input_set, io[0]->output_set));
            return NowNs() - t0;
        }
        for (int i = 0; i < queued; ++i) {
            const int s = i % streams;
            CHECK_ACL(
                aclmdlExecuteAsync(m.model_id, io[s]->input_set, io[s]->output_set, stream[s]));
        }
        for (int s = 0; s < streams; ++s)
            CHECK_ACL(aclrtSynchronizeStream(stream[s]));
        return NowNs() - t0;
    };
    int64_t ns[3] = {};
    int64_t rounds = 0;
    for (auto _ : state) {
        int64_t two = 0;
        for (int k = 0; k < 3; ++k) {
            const auto way = static_cast<int>((rounds + k) % 3);
            const int64_t t = run(way);
            ns[way] += t;
            if (way == 2) two = t;
        }
        state.SetIterationTime(static_cast<double>(two) * 1e-9);
        ++rounds;
    }
    state.SetItemsProcessed(rounds * queued);
    for (auto s : stream)
        CHECK_ACL(aclrtDestroyStream(s));
    if (rounds == 0) return;
    auto per_s = [&](int way) {
        return static_cast<double>(rounds * queued) / (static_cast<double>(ns[way]) * 1e-9);
    };
    state.counters["sync_per_s"] = per_s(0);
    state.counters["stream1_per_s"] = per_s(1);
    state.counters["streams2_per_s"] = per_s(2);
    state.counters["two_vs_one"] = per_s(2) / per_s(1);
}
BENCHMARK(BM_ExecuteAsyncThroughput)
    ->ArgName("model")
    ->Arg(0)
    ->Arg(1)
    ->UseManualTime()
    ->MinTime(1.0)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    // Both sides run OpenCV with its default thread count (one per core); the runtime's own
    // workers are idle during aclmdlExecute, which runs on the calling thread.
    benchmark::AddCustomContext("peer", "OpenCV DNN " CV_VERSION ", called directly");
    benchmark::AddCustomContext("opencv_threads", std::to_string(cv::getNumThreads()));
    const std::string build = cv::getBuildInformation();
    const size_t at = build.find("Parallel framework:");
    if (at != std::string::npos) {
        const size_t begin = build.find_first_not_of(' ', at + 19);
        benchmark::AddCustomContext("opencv_parallel",
                                    build.substr(begin, build.find('\n', begin) - begin));
    }
    g_models = new Models;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    delete g_models;
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
