// Soak: threads x streams x devices running random mixes of copies, kernels, cross-stream
// event waits, host functions, callbacks and model executions, each checked byte for byte. CI
// runs it briefly; locally it can run for an hour (--seconds 3600). It exits 1 at the first
// lost or wrong result, naming it.
//
//   soak [--seconds S] [--threads T] [--streams N] [--devices D] [--seed X]
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    double seconds = 10;
    int threads = 4, streams = 3, devices = 2;
    uint64_t seed = 20261130;
};

struct Totals {
    std::atomic<uint64_t> rounds{0}, copies{0}, kernels{0}, waits{0}, host_funcs{0}, callbacks{0},
        models{0}, bytes_checked{0};
};

std::atomic<bool> g_failed{false};

#define SOAK_CHECK(condition, ...)                                       \
    do {                                                                 \
        if (!(condition)) {                                              \
            std::fprintf(stderr, "soak: FAILED: " __VA_ARGS__);          \
            std::fprintf(stderr, " [%s]\n", aclGetRecentErrMsg() ?: ""); \
            g_failed = true;                                             \
            return;                                                      \
        }                                                                \
    } while (0)

// One stream's buffers: pinned host in/out and two device buffers of kBytes.
constexpr size_t kBytes = 64 * 1024;
constexpr size_t kFloats = kBytes / sizeof(float);

struct Lane {
    aclrtStream stream = nullptr;
    float *host_in = nullptr, *host_out = nullptr;
    void *dev_a = nullptr, *dev_b = nullptr;
    aclrtEvent event = nullptr;
    aclmdlDataset *model_in = nullptr, *model_out = nullptr;
    std::vector<aclDataBuffer*> buffers;
};

void CountCallback(void* counter) {
    static_cast<std::atomic<uint64_t>*>(counter)->fetch_add(1, std::memory_order_relaxed);
}

aclmdlDataset* OneBufferDataset(void* data, size_t bytes, Lane& lane) {
    aclmdlDataset* dataset = aclmdlCreateDataset();
    aclDataBuffer* buffer = aclCreateDataBuffer(data, bytes);
    lane.buffers.push_back(buffer);
    aclmdlAddDatasetBuffer(dataset, buffer);
    return dataset;
}

// One worker thread: its own device choice, context, streams and report thread.
void Worker(int index, const Options& options, Clock::time_point deadline, Totals& totals) {
    const int32_t device = index % options.devices;
    SOAK_CHECK(aclrtSetDevice(device) == ACL_SUCCESS, "thread %d: aclrtSetDevice(%d)", index,
               device);
    aclrtContext context = nullptr;
    SOAK_CHECK(aclrtCreateContext(&context, device) == ACL_SUCCESS, "thread %d: context", index);
    // Models and kernels belong to a device: each thread loads its own.
    uint32_t model_id = 0;
    aclrtBinHandle kernels = nullptr;
    aclrtFuncHandle vector_add = nullptr;
    SOAK_CHECK(
        aclmdlLoadFromFile(OPENACL_SOAK_MODEL, &model_id) == ACL_SUCCESS &&
            aclrtBinaryLoadFromFile(OPENACL_SOAK_KERNELS, nullptr, &kernels) == ACL_SUCCESS &&
            aclrtBinaryGetFunction(kernels, "vector_add", &vector_add) == ACL_SUCCESS,
        "thread %d: loading the model and kernels", index);
    aclmdlDesc* desc = aclmdlCreateDesc();
    aclmdlGetDesc(desc, model_id);
    const size_t model_bytes = aclmdlGetInputSizeByIndex(desc, 0);
    aclmdlDestroyDesc(desc);
    std::mt19937_64 rng(options.seed + static_cast<uint64_t>(index));
    std::vector<Lane> lanes(static_cast<size_t>(options.streams));
    std::atomic<bool> stop_reports{false};
    std::atomic<uint64_t> callbacks_run{0}, host_funcs_run{0};
    std::thread reporter([&] {
        aclrtSetCurrentContext(context);
        while (!stop_reports)
            aclrtProcessReport(20);
    });
    const uint64_t reporter_id = static_cast<uint64_t>(reporter.native_handle());
    for (Lane& lane : lanes) {
        SOAK_CHECK(aclrtCreateStream(&lane.stream) == ACL_SUCCESS, "thread %d: stream", index);
        SOAK_CHECK(
            aclrtMallocHost(reinterpret_cast<void**>(&lane.host_in), kBytes) == ACL_SUCCESS &&
                aclrtMallocHost(reinterpret_cast<void**>(&lane.host_out), kBytes) == ACL_SUCCESS &&
                aclrtMalloc(&lane.dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                aclrtMalloc(&lane.dev_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
            "thread %d: memory", index);
        SOAK_CHECK(aclrtCreateEvent(&lane.event) == ACL_SUCCESS, "thread %d: event", index);
        SOAK_CHECK(aclrtSubscribeReport(reporter_id, lane.stream) == ACL_SUCCESS,
                   "thread %d: subscribe", index);
        lane.model_in = OneBufferDataset(lane.dev_a, model_bytes, lane);
        lane.model_out = OneBufferDataset(lane.dev_b, model_bytes, lane);
    }
    const size_t model_floats = model_bytes / sizeof(float);
    uint64_t expected_callbacks = 0, expected_host_funcs = 0;

    while (Clock::now() < deadline && !g_failed) {
        // A round: every lane gets one operation whose result is known; then all are checked.
        std::vector<int> ops(lanes.size());
        std::vector<float> salt(lanes.size());
        for (size_t l = 0; l < lanes.size(); ++l) {
            Lane& lane = lanes[l];
            ops[l] = static_cast<int>(rng() % 5);
            salt[l] = static_cast<float>(rng() % 1000);
            for (size_t i = 0; i < kFloats; ++i)
                lane.host_in[i] = salt[l] + static_cast<float>(i % 251) - 125.0f;
            const aclrtStream s = lane.stream;
            bool ok = aclrtMemcpyAsync(lane.dev_a, kBytes, lane.host_in, kBytes,
                                       ACL_MEMCPY_HOST_TO_DEVICE, s) == ACL_SUCCESS;
            switch (ops[l]) {
                case 0:  // copies: device to device, then back
                    ok = ok && aclrtMemcpyAsync(lane.dev_b, kBytes, lane.dev_a, kBytes,
                                                ACL_MEMCPY_DEVICE_TO_DEVICE, s) == ACL_SUCCESS;
                    totals.copies += 3;
                    break;
                case 1: {  // kernel: b = a + a
                    uint64_t args[4] = {reinterpret_cast<uint64_t>(lane.dev_a),
                                        reinterpret_cast<uint64_t>(lane.dev_a),
                                        reinterpret_cast<uint64_t>(lane.dev_b), kFloats};
                    ok = ok && aclrtLaunchKernelWithHostArgs(
                                   vector_add, 1 + static_cast<uint32_t>(rng() % 16), s, nullptr,
                                   args, sizeof args, nullptr, 0) == ACL_SUCCESS;
                    totals.kernels += 1;
                    break;
                }
                case 2: {  // another lane copies a -> b once this lane's upload is recorded
                    Lane& other = lanes[(l + 1) % lanes.size()];
                    ok = ok && aclrtRecordEvent(lane.event, s) == ACL_SUCCESS &&
                         aclrtStreamWaitEvent(other.stream, lane.event) == ACL_SUCCESS &&
                         aclrtMemcpyAsync(lane.dev_b, kBytes, lane.dev_a, kBytes,
                                          ACL_MEMCPY_DEVICE_TO_DEVICE,
                                          other.stream) == ACL_SUCCESS &&
                         aclrtRecordEvent(lane.event, other.stream) == ACL_SUCCESS &&
                         aclrtStreamWaitEvent(s, lane.event) == ACL_SUCCESS;
                    totals.waits += 2;
                    break;
                }
                case 3:  // a host function and a blocking callback around a copy
                    ok = ok &&
                         aclrtLaunchHostFunc(s, CountCallback, &host_funcs_run) == ACL_SUCCESS &&
                         aclrtMemcpyAsync(lane.dev_b, kBytes, lane.dev_a, kBytes,
                                          ACL_MEMCPY_DEVICE_TO_DEVICE, s) == ACL_SUCCESS &&
                         aclrtLaunchCallback(CountCallback, &callbacks_run,
                                             rng() % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK,
                                             s) == ACL_SUCCESS;
                    ++expected_host_funcs;
                    ++expected_callbacks;
                    totals.host_funcs += 1;
                    totals.callbacks += 1;
                    break;
                default:  // model: b[:n] = relu(a[:n])
                    ok = ok && aclmdlExecuteAsync(model_id, lane.model_in, lane.model_out, s) ==
                                   ACL_SUCCESS;
                    totals.models += 1;
                    break;
            }
            ok = ok && aclrtMemcpyAsync(lane.host_out, kBytes, lane.dev_b, kBytes,
                                        ACL_MEMCPY_DEVICE_TO_HOST, s) == ACL_SUCCESS;
            SOAK_CHECK(ok, "thread %d lane %zu: enqueueing operation %d", index, l, ops[l]);
        }
        for (size_t l = 0; l < lanes.size(); ++l) {
            Lane& lane = lanes[l];
            SOAK_CHECK(aclrtSynchronizeStream(lane.stream) == ACL_SUCCESS,
                       "thread %d lane %zu: synchronize", index, l);
        }
        for (size_t l = 0; l < lanes.size(); ++l) {
            const Lane& lane = lanes[l];
            const size_t n = ops[l] == 4 ? model_floats : kFloats;
            for (size_t i = 0; i < n; ++i) {
                const float in = lane.host_in[i];
                const float want = ops[l] == 1 ? in + in : ops[l] == 4 ? std::max(in, 0.0f) : in;
                SOAK_CHECK(lane.host_out[i] == want,
                           "thread %d lane %zu op %d: element %zu is %g, not %g", index, l, ops[l],
                           i, static_cast<double>(lane.host_out[i]), static_cast<double>(want));
            }
            totals.bytes_checked += n * sizeof(float);
        }
        SOAK_CHECK(host_funcs_run.load() == expected_host_funcs,
                   "thread %d: %llu of %llu host functions ran", index,
                   static_cast<unsigned long long>(host_funcs_run.load()),
                   static_cast<unsigned long long>(expected_host_funcs));
        ++totals.rounds;
    }
    // Non-blocking callbacks may still be on their way to the report thread.
    for (int i = 0; i < 500 && callbacks_run.load() != expected_callbacks; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    SOAK_CHECK(callbacks_run.load() == expected_callbacks, "thread %d: %llu of %llu callbacks ran",
               index, static_cast<unsigned long long>(callbacks_run.load()),
               static_cast<unsigned long long>(expected_callbacks));
    for (Lane& lane : lanes) {
        aclrtUnSubscribeReport(reporter_id, lane.stream);
        aclmdlDestroyDataset(lane.model_in);
        aclmdlDestroyDataset(lane.model_out);
        for (aclDataBuffer* buffer : lane.buffers)
            aclDestroyDataBuffer(buffer);
        aclrtDestroyEvent(lane.event);
        aclrtDestroyStream(lane.stream);
        aclrtFree(lane.dev_a);
        aclrtFree(lane.dev_b);
        aclrtFreeHost(lane.host_in);
        aclrtFreeHost(lane.host_out);
    }
    stop_reports = true;
    reporter.join();
    aclmdlUnload(model_id);
    aclrtBinaryUnLoad(kernels);
    aclrtDestroyContext(context);
    aclrtResetDevice(device);
}

bool Parse(int argc, char** argv, Options* options) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const char* value = argv[i + 1];
        if (flag == "--seconds") {
            options->seconds = std::atof(value);
        } else if (flag == "--threads") {
            options->threads = std::atoi(value);
        } else if (flag == "--streams") {
            options->streams = std::atoi(value);
        } else if (flag == "--devices") {
            options->devices = std::atoi(value);
        } else if (flag == "--seed") {
            options->seed = std::strtoull(value, nullptr, 10);
        } else {
            return false;
        }
    }
    return argc % 2 == 1 && options->seconds > 0 && options->threads > 0 && options->streams > 1 &&
           options->devices > 0 && options->devices <= 64;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!Parse(argc, argv, &options)) {
        std::fprintf(
            stderr,
            "usage: %s [--seconds S] [--threads T] [--streams N>=2] [--devices D] [--seed X]\n",
            argv[0]);
        return 2;
    }
    setenv("OPENACL_DEVICE_COUNT", std::to_string(options.devices).c_str(), 1);
    if (aclInit(nullptr) != ACL_SUCCESS) return 1;

    Totals totals;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options.seconds));
    std::vector<std::thread> threads;
    for (int t = 0; t < options.threads; ++t) {
        threads.emplace_back(Worker, t, std::cref(options), deadline, std::ref(totals));
    }
    for (auto& thread : threads)
        thread.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

    size_t free_bytes = 0, total_bytes = 0;
    aclrtSetDevice(0);
    aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total_bytes);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf(
        "soak: %.1f s, %d threads x %d streams over %d devices: %llu rounds; %llu copies, %llu "
        "kernels, "
        "%llu event waits, %llu host functions, %llu callbacks, %llu model runs; %.1f MB checked "
        "byte "
        "for byte; device 0 memory all free at the end: %s; %s\n",
        elapsed, options.threads, options.streams, options.devices,
        static_cast<unsigned long long>(totals.rounds.load()),
        static_cast<unsigned long long>(totals.copies.load()),
        static_cast<unsigned long long>(totals.kernels.load()),
        static_cast<unsigned long long>(totals.waits.load()),
        static_cast<unsigned long long>(totals.host_funcs.load()),
        static_cast<unsigned long long>(totals.callbacks.load()),
        static_cast<unsigned long long>(totals.models.load()),
        static_cast<double>(totals.bytes_checked.load()) / 1e6,
        free_bytes == total_bytes ? "yes" : "NO", g_failed ? "FAILED" : "nothing lost or wrong");
    return g_failed || free_bytes != total_bytes ? 1 : 0;
}
