// Kernel binaries and launches on the CPU backend: the example kernels (examples/kernels)
// against host references, and the test kernels (tests/kernels) for how blocks are dealt to
// workers, stream ordering, launch configs, argument building, loading and failures.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_kernels.h"
#include "test_support.h"

using namespace async_test;

namespace {

class Kernel : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        aclrtBinaryUnLoad(binary_);
        if (test_binary_ != nullptr) aclrtBinaryUnLoad(test_binary_);
        DeviceTest::TearDown();
    }
    aclrtFuncHandle Function(const char* name) {
        aclrtFuncHandle f = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(binary_, name, &f), ACL_SUCCESS);
        return f;
    }
    // A kernel of the test kernel binary (tests/kernels), loaded on first use.
    aclrtFuncHandle TestFunction(const char* name) {
        if (test_binary_ == nullptr) {
            EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &test_binary_),
                      ACL_SUCCESS)
                << aclGetRecentErrMsg();
        }
        aclrtFuncHandle f = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(test_binary_, name, &f), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        return f;
    }
    template <typename T>
    void* Upload(const std::vector<T>& host) {
        void* p = Device(host.size() * sizeof(T));
        EXPECT_EQ(aclrtMemcpy(p, host.size() * sizeof(T), host.data(), host.size() * sizeof(T),
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        return p;
    }
    template <typename T>
    std::vector<T> Download(const void* device, size_t count) {
        std::vector<T> host(count);
        EXPECT_EQ(aclrtMemcpy(host.data(), count * sizeof(T), device, count * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return host;
    }
    void* Device(size_t bytes) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        return p;
    }
    // Packs arguments into device memory, one 8-byte slot each.
    void* DeviceArgs(const std::vector<uint64_t>& slots) {
        void* args = Device(slots.size() * 8);
        EXPECT_EQ(aclrtMemcpy(args, slots.size() * 8, slots.data(), slots.size() * 8,
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        return args;
    }
    aclrtBinHandle binary_ = nullptr;
    aclrtBinHandle test_binary_ = nullptr;
    aclrtStream stream_ = nullptr;
};

// The same with two worker threads per device, set before the runtime reads its settings.
class KernelTwoWorkers : public Kernel {
 private:
    ScopedEnv workers_{"OPENACL_WORKER_THREADS", "2"};
};

uint64_t Slot(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}
uint64_t FloatSlot(float value) {
    uint64_t slot = 0;
    std::memcpy(&slot, &value, sizeof value);
    return slot;
}
uint64_t DoubleSlot(double value) {
    uint64_t slot = 0;
    std::memcpy(&slot, &value, sizeof value);
    return slot;
}

// Deterministic pseudo-random floats in [lo, hi).
std::vector<float> RandomFloats(size_t count, float lo, float hi, uint32_t seed) {
    std::vector<float> values(count);
    uint32_t state = seed * 2654435761u + 1;
    for (float& v : values) {
        state = state * 1664525u + 1013904223u;
        v = lo + (hi - lo) * static_cast<float>(state >> 8) / static_cast<float>(1u << 24);
    }
    return values;
}

std::vector<unsigned char> ReadFile(const char* path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The newest error message ("" if none), clearing the messages.
std::string RecentMessage() {
    const char* message = aclGetRecentErrMsg();
    return message != nullptr ? message : "";
}

uint64_t ThisThread() {
    return static_cast<uint64_t>(std::hash<std::thread::id>{}(std::this_thread::get_id()));
}

// A launch config with one timeout attribute.
struct TimeoutConfig {
    explicit TimeoutConfig(uint64_t us) {
        attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
        attr.value.timeoutUs.timeoutLow = static_cast<uint32_t>(us);
        attr.value.timeoutUs.timeoutHigh = static_cast<uint32_t>(us >> 32);
    }
    static TimeoutConfig Seconds(uint16_t seconds) {
        TimeoutConfig cfg(0);
        cfg.attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
        cfg.attr.value.timeout = seconds;
        return cfg;
    }
    aclrtLaunchKernelCfg* get() {
        cfg.attrs = &attr;
        cfg.numAttrs = 1;
        return &cfg;
    }
    aclrtLaunchKernelAttr attr{};
    aclrtLaunchKernelCfg cfg{};
};

// For host functions and callbacks: takes the next number of a sequence the stamp kernel
// also counts with.
struct Stamp {
    uint64_t* seq = nullptr;
    std::atomic<uint64_t> taken{~uint64_t{0}};
};
void TakeStamp(void* arg) {
    auto* stamp = static_cast<Stamp*>(arg);
    stamp->taken.store(__atomic_fetch_add(stamp->seq, uint64_t{1}, __ATOMIC_SEQ_CST));
}

}  // namespace

TEST_F(Kernel, VectorAddMatchesTheHostForManyBlockCounts) {
    const uint64_t n = 10007;  // not divisible by any block count below
    std::vector<float> x(n), y(n), z(n);
    for (uint64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i), y[i] = 0.5f * i;
    void* dx = Device(n * 4);
    void* dy = Device(n * 4);
    void* dz = Device(n * 4);
    ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dy, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    void* args = DeviceArgs({Slot(dx), Slot(dy), Slot(dz), n});
    for (uint32_t blocks : {1u, 2u, 3u, 7u, 64u, 1000u}) {
        SCOPED_TRACE(blocks);
        ASSERT_EQ(aclrtMemset(dz, n * 4, 0, n * 4), ACL_SUCCESS);
        ASSERT_EQ(aclrtLaunchKernel(Function("vector_add"), blocks, args, 32, stream_),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        for (uint64_t i = 0; i < n; ++i)
            ASSERT_EQ(z[i], x[i] + y[i]) << i;
    }
}

TEST_F(Kernel, AFailingBlockFailsTheStreamWithKernelNameAndBlock) {
    void* src = Device(16);
    void* dst = Device(16);
    void* args = DeviceArgs({Slot(src), Slot(dst), 16, 3});
    ASSERT_EQ(aclrtLaunchKernel(Function("checked_copy"), 8, args, 32, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel checked_copy failed in block 3 of 8");
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(Kernel, UnknownKernelNameIsSymbolNotFound) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, "no_such_kernel", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    EXPECT_THAT_MESSAGE_CONTAINS("vector_add");
}

TEST_F(Kernel, HostArgumentsAreCopiedAtLaunch) {
    const uint64_t n = 64;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), z(n);
    void* dx = Device(n * 4);
    void* dy = Device(n * 4);
    void* dz = Device(n * 4);
    ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dy, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    uint64_t host_args[4] = {Slot(dx), Slot(dy), Slot(dz), n};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("vector_add"), 4, stream_, nullptr, host_args,
                                            sizeof host_args, nullptr, 0),
              ACL_SUCCESS);
    std::memset(host_args, 0, sizeof host_args);  // the launch has its own copy
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (float v : z)
        EXPECT_EQ(v, 3.0f);
}

// ---- The example kernels against host references ----

TEST_F(Kernel, RowSoftmaxMatchesTheHostForManySizesAndBlockCounts) {
    struct Shape {
        uint32_t rows, cols;
    };
    for (Shape shape :
         {Shape{1, 1}, Shape{33, 47}, Shape{64, 32}, Shape{1001, 33}, Shape{5, 1000}}) {
        SCOPED_TRACE(std::to_string(shape.rows) + " x " + std::to_string(shape.cols));
        const size_t count = size_t{shape.rows} * shape.cols;
        std::vector<float> in = RandomFloats(count, -5.0f, 5.0f, shape.rows + shape.cols);
        // Large values too: a softmax without its max-shift overflows float on these.
        for (uint32_t c = 0; c < shape.cols; c += 3)
            in[c] += 100.0f;
        std::vector<double> ref(count);
        for (uint32_t r = 0; r < shape.rows; ++r) {
            const float* row = &in[size_t{r} * shape.cols];
            double peak = *std::max_element(row, row + shape.cols), sum = 0;
            for (uint32_t c = 0; c < shape.cols; ++c)
                sum += ref[size_t{r} * shape.cols + c] = std::exp(double{row[c]} - peak);
            for (uint32_t c = 0; c < shape.cols; ++c)
                ref[size_t{r} * shape.cols + c] /= sum;
        }
        void* din = Upload(in);
        void* dout = Device(count * 4);
        void* args = DeviceArgs({Slot(din), Slot(dout), shape.rows, shape.cols});
        for (uint32_t blocks : {1u, 3u, 64u, 1000u}) {
            SCOPED_TRACE(blocks);
            ASSERT_EQ(aclrtMemset(dout, count * 4, 0xFF, count * 4), ACL_SUCCESS);  // NaNs
            ASSERT_EQ(aclrtLaunchKernel(Function("row_softmax"), blocks, args, 32, stream_),
                      ACL_SUCCESS);
            ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
            std::vector<float> out = Download<float>(dout, count);
            for (size_t i = 0; i < count; ++i)
                ASSERT_NEAR(out[i], ref[i], 1e-6 + 1e-5 * ref[i]) << "element " << i;
        }
    }
}

TEST_F(Kernel, TiledMatmulMatchesTheHostForManySizesAndBlockCounts) {
    struct Shape {
        uint32_t m, n, k;
    };
    for (Shape s : {Shape{1, 1, 1}, Shape{33, 47, 29}, Shape{64, 64, 64}, Shape{100, 65, 31},
                    Shape{7, 130, 3}, Shape{96, 33, 100}}) {
        SCOPED_TRACE(std::to_string(s.m) + " x " + std::to_string(s.n) + " x " +
                     std::to_string(s.k));
        std::vector<float> a = RandomFloats(size_t{s.m} * s.k, -1.0f, 1.0f, s.m);
        std::vector<float> b = RandomFloats(size_t{s.k} * s.n, -1.0f, 1.0f, s.n + 7);
        std::vector<double> ref(size_t{s.m} * s.n), bound(size_t{s.m} * s.n);
        for (uint32_t i = 0; i < s.m; ++i) {
            for (uint32_t j = 0; j < s.n; ++j) {
                double acc = 0, magnitude = 0;
                for (uint32_t p = 0; p < s.k; ++p) {
                    double term = double{a[size_t{i} * s.k + p]} * b[size_t{p} * s.n + j];
                    acc += term;
                    magnitude += std::fabs(term);
                }
                ref[size_t{i} * s.n + j] = acc;
                bound[size_t{i} * s.n + j] = 1e-5 + 1e-5 * magnitude;
            }
        }
        void* da = Upload(a);
        void* db = Upload(b);
        void* dc = Device(ref.size() * 4);
        void* args = DeviceArgs({Slot(da), Slot(db), Slot(dc), s.m, s.n, s.k});
        for (uint32_t blocks : {1u, 3u, 64u, 1000u}) {
            SCOPED_TRACE(blocks);
            ASSERT_EQ(aclrtMemset(dc, ref.size() * 4, 0xFF, ref.size() * 4), ACL_SUCCESS);
            ASSERT_EQ(aclrtLaunchKernel(Function("tiled_matmul"), blocks, args, 48, stream_),
                      ACL_SUCCESS);
            ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
            std::vector<float> c = Download<float>(dc, ref.size());
            for (size_t i = 0; i < ref.size(); ++i)
                ASSERT_NEAR(c[i], ref[i], bound[i]) << "element " << i;
        }
    }
}

// ---- Blocks and workers ----

TEST_F(Kernel, EveryBlockRunsExactlyOnceAndKnowsTheBlockCount) {
    for (uint32_t blocks : {1u, 3u, 64u, 1000u, 4099u}) {
        SCOPED_TRACE(blocks);
        void* runs = Upload(std::vector<uint32_t>(blocks, 0));
        void* threads = Device(blocks * 8);
        void* nums = Upload(std::vector<int64_t>(blocks, -1));
        void* args = DeviceArgs({Slot(runs), Slot(threads), Slot(nums), 0});
        ASSERT_EQ(aclrtLaunchKernel(TestFunction("record_blocks"), blocks, args, 32, stream_),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<uint32_t> counted = Download<uint32_t>(runs, blocks);
        std::vector<int64_t> told = Download<int64_t>(nums, blocks);
        for (uint32_t b = 0; b < blocks; ++b) {
            ASSERT_EQ(counted[b], 1u) << "block " << b;
            ASSERT_EQ(told[b], blocks) << "GetBlockNum() in block " << b;
        }
    }
}

TEST_F(KernelTwoWorkers, BlocksRunOnSeveralWorkerThreads) {
    const uint32_t blocks = 200;
    void* runs = Upload(std::vector<uint32_t>(blocks, 0));
    void* threads = Device(blocks * 8);
    void* nums = Device(blocks * 8);
    void* args = DeviceArgs({Slot(runs), Slot(threads), Slot(nums), 300});  // 300 us each
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("record_blocks"), blocks, args, 32, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<uint32_t> counted = Download<uint32_t>(runs, blocks);
    std::vector<uint64_t> ran_on = Download<uint64_t>(threads, blocks);
    for (uint32_t b = 0; b < blocks; ++b)
        ASSERT_EQ(counted[b], 1u) << "block " << b;
    std::set<uint64_t> distinct(ran_on.begin(), ran_on.end());
    EXPECT_EQ(distinct.size(), 2u) << "200 blocks of 300 us should use both workers, and only them";
    EXPECT_EQ(distinct.count(ThisThread()), 0u) << "a block ran on the launching thread";
}

TEST_F(KernelTwoWorkers, BlocksAreDealtDynamically) {
    // Block 0 holds its worker until all other blocks have finished: only possible when the
    // other worker takes every remaining block rather than a fixed share of them.
    const uint32_t blocks = 64;
    void* finished = Upload(std::vector<uint32_t>{0});
    void* ok = Upload(std::vector<uint32_t>{0});
    void* args = DeviceArgs({Slot(finished), Slot(ok), 1000});
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("wait_for_others"), blocks, args, 24, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint32_t>(finished, 1)[0], blocks - 1);
    EXPECT_EQ(Download<uint32_t>(ok, 1)[0], 1u)
        << "the other blocks did not all run while block 0 held its worker";
}

TEST_F(Kernel, ALaunchCompletesOnlyWhenEveryBlockHasFinished) {
    const uint32_t blocks = 64;
    void* seq = Upload(std::vector<uint64_t>{0});
    void* stamps = Upload(std::vector<uint64_t>(blocks, ~uint64_t{0}));
    void* args = DeviceArgs({Slot(seq), Slot(stamps), 200});
    Stamp before, after;
    before.seq = after.seq = static_cast<uint64_t*>(seq);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, TakeStamp, &before), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("stamp"), blocks, args, 24, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, TakeStamp, &after), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(before.taken.load(), 0u);
    EXPECT_EQ(after.taken.load(), blocks + 1) << "the next task ran before every block had";
    std::vector<uint64_t> got = Download<uint64_t>(stamps, blocks);
    std::sort(got.begin(), got.end());
    for (uint32_t b = 0; b < blocks; ++b)
        ASSERT_EQ(got[b], b + 1u);
}

// ---- Ordering on streams ----

TEST_F(Kernel, LaunchesAreOrderedWithAsyncCopiesOnTheirStream) {
    const uint64_t n = 4097;
    PinnedBuffer in(n * 4), out1(n * 4), out2(n * 4);
    auto* x = static_cast<float*>(in.get());
    for (uint64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i);
    std::memset(out1.get(), 0, n * 4);
    std::memset(out2.get(), 0, n * 4);
    void* d = Device(n * 4);
    void* double_plus_one = DeviceArgs({Slot(d), n, FloatSlot(2.0f), FloatSlot(1.0f)});
    void* triple_minus_one = DeviceArgs({Slot(d), n, FloatSlot(3.0f), FloatSlot(-1.0f)});
    aclrtFuncHandle affine = TestFunction("affine");
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(d, n * 4, in.get(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(affine, 7, double_plus_one, 32, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out1.get(), n * 4, d, n * 4, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(affine, 64, triple_minus_one, 32, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out2.get(), n * 4, d, n * 4, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
    std::this_thread::sleep_for(10ms);
    EXPECT_EQ(static_cast<float*>(out1.get())[n - 1], 0.0f) << "ran before the gate opened";
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto* y1 = static_cast<const float*>(out1.get());
    const auto* y2 = static_cast<const float*>(out2.get());
    for (uint64_t i = 0; i < n; ++i) {
        ASSERT_EQ(y1[i], 2.0f * i + 1.0f) << i;
        ASSERT_EQ(y2[i], (2.0f * i + 1.0f) * 3.0f - 1.0f) << i;
    }
}

TEST_F(Kernel, LaunchesAreOrderedAcrossStreamsByEvents) {
    const uint64_t n = 1000;
    std::vector<float> x(n);
    for (uint64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i);
    void* d = Upload(x);
    void* twice = DeviceArgs({Slot(d), n, FloatSlot(2.0f), FloatSlot(0.0f)});
    void* plus_five = DeviceArgs({Slot(d), n, FloatSlot(1.0f), FloatSlot(5.0f)});
    aclrtFuncHandle affine = TestFunction("affine");
    ScopedStream second;
    aclrtEvent done = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(affine, 3, twice, 32, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(done, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(second, done), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(affine, 64, plus_five, 32, second), ACL_SUCCESS);
    std::this_thread::sleep_for(10ms);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> y = Download<float>(d, n);
    for (uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], 2.0f * i + 5.0f) << "the second stream's launch ran before the event";
    EXPECT_EQ(aclrtDestroyEvent(done), ACL_SUCCESS);
}

TEST_F(Kernel, LaunchesAreOrderedWithHostFunctions) {
    const uint32_t blocks = 32;
    void* seq = Upload(std::vector<uint64_t>{0});
    void* stamps1 = Device(blocks * 8);
    void* stamps2 = Device(blocks * 8);
    void* args1 = DeviceArgs({Slot(seq), Slot(stamps1), 50});
    void* args2 = DeviceArgs({Slot(seq), Slot(stamps2), 0});
    aclrtFuncHandle stamp = TestFunction("stamp");
    Stamp first, middle, last;
    first.seq = middle.seq = last.seq = static_cast<uint64_t*>(seq);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, TakeStamp, &first), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(stamp, blocks, args1, 24, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, TakeStamp, &middle), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(stamp, blocks, args2, 24, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, TakeStamp, &last), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(first.taken.load(), 0u);
    EXPECT_EQ(middle.taken.load(), blocks + 1);
    EXPECT_EQ(last.taken.load(), 2 * blocks + 2);
    std::vector<uint64_t> s1 = Download<uint64_t>(stamps1, blocks);
    std::vector<uint64_t> s2 = Download<uint64_t>(stamps2, blocks);
    for (uint32_t b = 0; b < blocks; ++b) {
        EXPECT_TRUE(s1[b] >= 1 && s1[b] <= blocks) << "block " << b << ": " << s1[b];
        EXPECT_TRUE(s2[b] >= blocks + 2 && s2[b] <= 2 * blocks + 1)
            << "block " << b << ": " << s2[b];
    }
}

TEST_F(Kernel, LaunchesAreOrderedWithCallbacks) {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> reporter_id{0};
    std::thread reporter([&] {
        aclrtSetCurrentContext(context);
        reporter_id.store(static_cast<uint64_t>(pthread_self()));
        while (!stop.load())
            aclrtProcessReport(10);
    });
    ASSERT_TRUE(WaitUntil([&] { return reporter_id.load() != 0; }));
    ASSERT_EQ(aclrtSubscribeReport(reporter_id.load(), stream_), ACL_SUCCESS);
    const uint32_t blocks = 16;
    void* seq = Upload(std::vector<uint64_t>{0});
    void* stamps = Device(blocks * 8);
    void* args = DeviceArgs({Slot(seq), Slot(stamps), 100});
    Stamp before, after;
    before.seq = after.seq = static_cast<uint64_t*>(seq);
    EXPECT_EQ(aclrtLaunchCallback(TakeStamp, &before, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchKernel(TestFunction("stamp"), blocks, args, 24, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchCallback(TakeStamp, &after, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(before.taken.load(), 0u);
    EXPECT_EQ(after.taken.load(), blocks + 1);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter_id.load(), stream_), ACL_SUCCESS);
    stop.store(true);
    reporter.join();
}

TEST_F(Kernel, DeviceArgumentsAreReadWhenTheLaunchRuns) {
    void* out0 = Upload(std::vector<uint64_t>{0});
    void* out1 = Upload(std::vector<uint64_t>{0});
    void* out2 = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out0), 999});
    PinnedBuffer first(16), second(16);
    const uint64_t a1[2] = {Slot(out1), 111}, a2[2] = {Slot(out2), 222};
    std::memcpy(first.get(), a1, 16);
    std::memcpy(second.get(), a2, 16);
    aclrtFuncHandle write = TestFunction("write_value");
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(args, 16, first.get(), 16, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(write, 4, args, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(args, 16, second.get(), 16, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(write, 4, args, 16, stream_), ACL_SUCCESS);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint64_t>(out0, 1)[0], 0u) << "a launch used the arguments of its call";
    EXPECT_EQ(Download<uint64_t>(out1, 1)[0], 111u);
    EXPECT_EQ(Download<uint64_t>(out2, 1)[0], 222u);
}

TEST_F(Kernel, LaunchesOnTheDefaultStream) {
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 4242});
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("write_value"), 2, args, 16, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 4242u);
}

// ---- Launch configs: timeouts ----

TEST_F(Kernel, ALaunchPastItsTimeoutFailsTheStreamWithTheKernelName) {
    void* ran = Upload(std::vector<uint32_t>{0});
    void* args = DeviceArgs({Slot(ran), 300});  // every block sleeps 300 ms
    TimeoutConfig cfg(20000);                   // 20 ms
    ASSERT_EQ(aclrtLaunchKernelV2(TestFunction("sleep_ms"), 1, args, 16, cfg.get(), stream_),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel sleep_ms did not finish within");
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    // The same through the host-argument launches.
    uint64_t host[2] = {Slot(ran), 150};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(TestFunction("sleep_ms"), 1, stream_, cfg.get(), host,
                                            sizeof host, nullptr, 0),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel sleep_ms");
    aclrtArgsHandle handle = nullptr;
    aclrtParamHandle p = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(TestFunction("sleep_ms"), &handle), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(handle, &host[0], 8, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(handle, &host[1], 8, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsFinalize(handle), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(TestFunction("sleep_ms"), 1, stream_, cfg.get(), handle,
                                          nullptr),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel sleep_ms");
}

TEST_F(KernelTwoWorkers, ATimedOutLaunchSkipsTheBlocksNotStarted) {
    void* ran = Upload(std::vector<uint32_t>{0});
    void* args = DeviceArgs({Slot(ran), 10});  // 64 blocks of 10 ms on 2 workers: 320 ms
    TimeoutConfig cfg(30000);
    auto start = Clock::now();
    ASSERT_EQ(aclrtLaunchKernelV2(TestFunction("sleep_ms"), 64, args, 16, cfg.get(), stream_),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
    auto elapsed = Clock::now() - start;
    EXPECT_THAT_MESSAGE_CONTAINS("kernel sleep_ms did not finish within its 30 ms timeout");
    EXPECT_LT(Download<uint32_t>(ran, 1)[0], 64u) << "every block ran despite the timeout";
    EXPECT_LT(elapsed, 250ms);
}

TEST_F(Kernel, ALaunchWithinItsTimeoutSucceeds) {
    void* ran = Upload(std::vector<uint32_t>{0});
    void* args = DeviceArgs({Slot(ran), 1});
    TimeoutConfig micros(1000000);
    TimeoutConfig seconds = TimeoutConfig::Seconds(1);
    ASSERT_EQ(aclrtLaunchKernelV2(TestFunction("sleep_ms"), 4, args, 16, micros.get(), stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelV2(TestFunction("sleep_ms"), 4, args, 16, seconds.get(), stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelV2(TestFunction("sleep_ms"), 4, args, 16, nullptr, stream_),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint32_t>(ran, 1)[0], 12u);
}

TEST_F(Kernel, BadLaunchConfigsAreInvalidParam) {
    void* ran = Upload(std::vector<uint32_t>{0});
    void* args = DeviceArgs({Slot(ran), 0});
    aclrtFuncHandle f = TestFunction("sleep_ms");
    aclrtLaunchKernelAttr attrs[2] = {};
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
    attrs[0].value.timeout = 1;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attrs[1].value.timeoutUs.timeoutLow = 1000;
    aclrtLaunchKernelCfg both{attrs, 2};
    EXPECT_EQ(aclrtLaunchKernelV2(f, 1, args, 16, &both, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("mutually exclusive");
    uint64_t host[2] = {Slot(ran), 0};
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, stream_, &both, host, 16, nullptr, 0),
              ACL_ERROR_INVALID_PARAM);
    aclrtLaunchKernelCfg missing{nullptr, 1};
    EXPECT_EQ(aclrtLaunchKernelV2(f, 1, args, 16, &missing, stream_), ACL_ERROR_INVALID_PARAM);
    aclrtLaunchKernelAttr unknown{};
    unknown.id = static_cast<aclrtLaunchKernelAttrId>(999);
    aclrtLaunchKernelCfg odd{&unknown, 1};
    EXPECT_EQ(aclrtLaunchKernelV2(f, 1, args, 16, &odd, stream_), ACL_ERROR_INVALID_PARAM);
    // Scheduling hints are accepted and change nothing.
    aclrtLaunchKernelAttr hint{};
    hint.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    aclrtLaunchKernelCfg hinted{&hint, 1};
    EXPECT_EQ(aclrtLaunchKernelV2(f, 1, args, 16, &hinted, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint32_t>(ran, 1)[0], 1u) << "only the valid launch may run";
}

// ---- Host-side arguments: aclrtKernelArgs* and aclrtLaunchKernelWithHostArgs ----

TEST_F(Kernel, KernelArgsCarryScalarsAndAPlaceholder) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    aclrtArgsHandle args = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(probe, &args), ACL_SUCCESS);
    void* out1 = Device(sizeof(test_kernels::Probe));
    void* out2 = Device(sizeof(test_kernels::Probe));
    aclrtParamHandle p_out = nullptr, p_holder = nullptr, p_a = nullptr, p_b = nullptr,
                     p_c = nullptr;
    ASSERT_EQ(aclrtKernelArgsAppend(args, &out1, sizeof out1, &p_out), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &p_holder), ACL_SUCCESS);
    uint32_t a = 1;
    float b = 2.5f;
    double c = -3.25;
    ASSERT_EQ(aclrtKernelArgsAppend(args, &a, sizeof a, &p_a), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(args, &b, sizeof b, &p_b), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(args, &c, sizeof c, &p_c), ACL_SUCCESS);
    void* buffer = nullptr;
    ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, p_holder, 32, &buffer), ACL_SUCCESS);
    ASSERT_NE(buffer, nullptr);
    for (int i = 0; i < 32; ++i)
        static_cast<unsigned char*>(buffer)[i] = static_cast<unsigned char>(i + 1);
    a = 7;
    ASSERT_EQ(aclrtKernelArgsParaUpdate(args, p_a, &a, sizeof a), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);

    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(probe, 3, stream_, nullptr, args, nullptr), ACL_SUCCESS);
    // The launch took its copy: changes now are for the next launch only.
    a = 9;
    ASSERT_EQ(aclrtKernelArgsParaUpdate(args, p_a, &a, sizeof a), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsParaUpdate(args, p_out, &out2, sizeof out2), ACL_SUCCESS);
    std::memset(buffer, 0xAB, 32);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(probe, 3, stream_, nullptr, args, nullptr), ACL_SUCCESS);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();

    auto first = Download<test_kernels::Probe>(out1, 1)[0];
    EXPECT_EQ(first.a, 7u);
    EXPECT_EQ(first.b, 2.5f);
    EXPECT_EQ(first.c, -3.25);
    EXPECT_NE(first.placeholder_address, 0u);
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(first.placeholder_bytes[i], i + 1) << "placeholder byte " << i;
    auto second = Download<test_kernels::Probe>(out2, 1)[0];
    EXPECT_EQ(second.a, 9u);
    EXPECT_EQ(second.c, -3.25);
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(second.placeholder_bytes[i], 0xAB) << "placeholder byte " << i;
}

TEST_F(Kernel, KernelArgsMisuseIsRefused) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    aclrtArgsHandle args = nullptr;
    aclrtParamHandle p = nullptr, holder = nullptr;
    uint64_t value = 1;
    unsigned char wide[16] = {};
    EXPECT_EQ(aclrtKernelArgsInit(nullptr, &args), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsInit(probe, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclrtKernelArgsInit(probe, &args), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsAppend(args, wide, sizeof wide, &p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("8-byte slot");
    EXPECT_EQ(aclrtKernelArgsAppend(args, &value, 0, &p), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsAppend(args, nullptr, 8, &p), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsAppend(args, &value, 8, nullptr), ACL_ERROR_INVALID_PARAM);
    int not_a_handle = 0;
    EXPECT_EQ(
        aclrtKernelArgsAppend(reinterpret_cast<aclrtArgsHandle>(&not_a_handle), &value, 8, &p),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsFinalize(nullptr), ACL_ERROR_INVALID_PARAM);

    void* out = Device(sizeof(test_kernels::Probe));
    ASSERT_EQ(aclrtKernelArgsAppend(args, &out, 8, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &holder), ACL_SUCCESS);
    void* buffer = nullptr;
    EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, p, 8, &buffer), ACL_ERROR_INVALID_PARAM)
        << "a plain parameter is no placeholder";
    EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, holder, 0, &buffer),
              ACL_ERROR_INVALID_PARAM);
    // (args_probe reads 32 bytes of its placeholder.)
    ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, holder, 32, &buffer), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsParaUpdate(args, reinterpret_cast<aclrtParamHandle>(uintptr_t{100}),
                                        &value, 8),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsParaUpdate(args, nullptr, &value, 8), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsParaUpdate(args, p, wide, sizeof wide), ACL_ERROR_INVALID_PARAM);
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(aclrtKernelArgsAppend(args, &value, 8, &p), ACL_SUCCESS);

    EXPECT_EQ(aclrtLaunchKernelWithConfig(probe, 1, stream_, nullptr, args, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not finalized");
    ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsAppend(args, &value, 8, &p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("finalized");
    EXPECT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &p), ACL_ERROR_INVALID_PARAM);
    int reserve = 0;
    EXPECT_EQ(aclrtLaunchKernelWithConfig(probe, 1, stream_, nullptr, args, &reserve),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("reserve");
    EXPECT_EQ(
        aclrtLaunchKernelWithConfig(Function("vector_add"), 1, stream_, nullptr, args, nullptr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("was built for kernel args_probe");
    EXPECT_EQ(aclrtLaunchKernelWithConfig(probe, 0, stream_, nullptr, args, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernelWithConfig(probe, 1, stream_, nullptr, nullptr, nullptr),
              ACL_ERROR_INVALID_PARAM);

    // Fewer parameters than the kernel takes.
    aclrtArgsHandle short_args = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(Function("vector_add"), &short_args), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(short_args, &out, 8, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsFinalize(short_args), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchKernelWithConfig(Function("vector_add"), 1, stream_, nullptr, short_args,
                                          nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("takes 4 parameters");
    // Nothing was launched, and the valid launch still works.
    EXPECT_EQ(aclrtLaunchKernelWithConfig(probe, 1, stream_, nullptr, args, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(Kernel, ArgsHandlesGoAwayWithTheirBinary) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    aclrtArgsHandle args = nullptr;
    aclrtParamHandle p = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(probe, &args), ACL_SUCCESS);
    uint64_t value = 0;
    for (int i = 0; i < 5; ++i)
        ASSERT_EQ(aclrtKernelArgsAppend(args, &value, 8, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(test_binary_), ACL_SUCCESS);
    test_binary_ = nullptr;
    EXPECT_EQ(aclrtLaunchKernelWithConfig(probe, 1, stream_, nullptr, args, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(
        aclrtLaunchKernelWithConfig(Function("empty_kernel"), 1, stream_, nullptr, args, nullptr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("goes away with its binary's aclrtBinaryUnLoad");
    EXPECT_EQ(aclrtKernelArgsFinalize(args), ACL_ERROR_INVALID_PARAM) << "the handle was freed";
}

TEST_F(Kernel, HostArgsWithAPlaceholder) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    void* out = Device(sizeof(test_kernels::Probe));
    // Slots: out, placeholder, a, b, c; then 32 bytes of placeholder data.
    unsigned char host[72] = {};
    const uint64_t slots[5] = {Slot(out), 0, 5, FloatSlot(0.75f), DoubleSlot(6.5)};
    std::memcpy(host, slots, sizeof slots);
    for (int i = 0; i < 32; ++i)
        host[40 + i] = static_cast<unsigned char>(100 + i);
    aclrtPlaceHolderInfo holder{8, 40};
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(probe, 2, stream_, nullptr, host, sizeof host, &holder, 1),
        ACL_SUCCESS);
    std::memset(host, 0, sizeof host);  // the launch has its own copy
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    auto probed = Download<test_kernels::Probe>(out, 1)[0];
    EXPECT_EQ(probed.a, 5u);
    EXPECT_EQ(probed.b, 0.75f);
    EXPECT_EQ(probed.c, 6.5);
    EXPECT_NE(probed.placeholder_address, reinterpret_cast<uint64_t>(host + 40))
        << "the placeholder must point into the launch's copy, not the caller's buffer";
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(probed.placeholder_bytes[i], 100 + i) << "placeholder byte " << i;
}

TEST_F(Kernel, BadHostArgsAreRefused) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    unsigned char host[72] = {};
    aclrtPlaceHolderInfo data_at_end{8, 72}, addr_past_end{68, 40};
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(probe, 1, stream_, nullptr, host, sizeof host,
                                            &data_at_end, 1),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("placeholder 0");
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(probe, 1, stream_, nullptr, host, sizeof host,
                                            &addr_past_end, 1),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(
        aclrtLaunchKernelWithHostArgs(probe, 1, stream_, nullptr, host, sizeof host, nullptr, 1),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(probe, 1, stream_, nullptr, nullptr, 40, nullptr, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(probe, 1, stream_, nullptr, host, 32, nullptr, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("takes 5 parameters");
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(probe, 0, stream_, nullptr, host, 40, nullptr, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(nullptr, 1, stream_, nullptr, host, 40, nullptr, 0),
              ACL_ERROR_INVALID_PARAM);
    // A kernel without parameters needs no arguments at all.
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(Function("empty_kernel"), 3, stream_, nullptr, nullptr,
                                            0, nullptr, 0),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
}

// ---- Loading binaries ----

TEST_F(Kernel, LoadFromDataRunsTheFileBytes) {
    std::vector<unsigned char> bytes = ReadFile(OPENACL_TEST_KERNELS);
    ASSERT_GT(bytes.size(), 4u);
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &binary), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::fill(bytes.begin(), bytes.end(), 0);  // the loaded binary keeps no reference to them
    aclrtFuncHandle write = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "write_value", &write), ACL_SUCCESS);
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 31337});
    ASSERT_EQ(aclrtLaunchKernel(write, 1, args, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 31337u);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
}

TEST_F(Kernel, CreateBinaryLoadAndDestroy) {
    std::vector<unsigned char> bytes = ReadFile(OPENACL_TEST_KERNELS);
    aclrtBinary image = aclrtCreateBinary(bytes.data(), bytes.size());
    ASSERT_NE(image, nullptr) << aclGetRecentErrMsg();
    std::fill(bytes.begin(), bytes.end(), 0);  // the image holds its own copy
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoad(image, &binary), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtDestroyBinary(image), ACL_SUCCESS);  // the loaded binary outlives its image
    EXPECT_EQ(aclrtDestroyBinary(image), ACL_ERROR_INVALID_PARAM);
    aclrtBinHandle again = nullptr;
    EXPECT_EQ(aclrtBinaryLoad(image, &again), ACL_ERROR_INVALID_PARAM);
    aclrtFuncHandle write = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "write_value", &write), ACL_SUCCESS);
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 8086});
    ASSERT_EQ(aclrtLaunchKernel(write, 1, args, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 8086u);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);

    EXPECT_EQ(aclrtCreateBinary(nullptr, 16), nullptr);
    EXPECT_EQ(aclrtCreateBinary(bytes.data(), 0), nullptr);
    EXPECT_EQ(aclrtDestroyBinary(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryLoad(nullptr, &again), ACL_ERROR_INVALID_PARAM);
    // An image is checked when it is loaded.
    const char text[] = "not a kernel";
    aclrtBinary junk = aclrtCreateBinary(text, sizeof text);
    ASSERT_NE(junk, nullptr);
    EXPECT_EQ(aclrtBinaryLoad(junk, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryLoad(junk, &again), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a kernel binary");
    EXPECT_EQ(aclrtDestroyBinary(junk), ACL_SUCCESS);
}

TEST_F(Kernel, LoadOptionsAreChecked) {
    aclrtBinHandle binary = nullptr;
    aclrtBinaryLoadOption option{};
    option.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    aclrtBinaryLoadOptions options{&option, 1};
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, &options, &binary), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
    aclrtBinaryLoadOptions missing{nullptr, 1};
    EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, &missing, &binary),
              ACL_ERROR_INVALID_PARAM);
    option.type = static_cast<aclrtBinaryLoadOptionType>(77);
    EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, &options, &binary),
              ACL_ERROR_INVALID_PARAM);
}

TEST_F(Kernel, AMissingFileIsInvalidFile) {
    aclrtBinHandle binary = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/openacl/kernels.so", nullptr, &binary),
              ACL_ERROR_INVALID_FILE);
    EXPECT_THAT_MESSAGE_CONTAINS("/nonexistent/openacl/kernels.so");
    EXPECT_EQ(binary, nullptr);
}

TEST_F(Kernel, TruncatedKernelBinariesAreRefusedBeforeTheLoaderMapsThem) {
    // The dynamic loader would map segments past the end of the file and fault on them.
    std::vector<unsigned char> module = ReadFile(OPENACL_EXAMPLE_KERNELS);
    ASSERT_GT(module.size(), 4096u);
    aclrtBinHandle binary = nullptr;
    for (size_t keep : {size_t{64}, size_t{200}, module.size() / 2, module.size() - 1}) {
        SCOPED_TRACE(keep);
        EXPECT_EQ(aclrtBinaryLoadFromData(module.data(), keep, nullptr, &binary),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("truncated");
        TempFile cut(
            std::string(module.begin(), module.begin() + static_cast<std::ptrdiff_t>(keep)), ".so");
        EXPECT_EQ(aclrtBinaryLoadFromFile(cut.path(), nullptr, &binary), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("is damaged or foreign: truncated");
    }
    EXPECT_EQ(binary, nullptr);
}

TEST_F(Kernel, KernelBinariesOfAnotherKindOfElfAreRefused) {
    std::vector<unsigned char> module = ReadFile(OPENACL_EXAMPLE_KERNELS);
    aclrtBinHandle binary = nullptr;
    std::vector<unsigned char> executable = module;
    executable[16] = 2;  // e_type: ET_EXEC
    EXPECT_EQ(aclrtBinaryLoadFromData(executable.data(), executable.size(), nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a shared object");
    std::vector<unsigned char> foreign = module;
    foreign[18] = 40;  // e_machine: ARM
    EXPECT_EQ(aclrtBinaryLoadFromData(foreign.data(), foreign.size(), nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("built for another CPU");
    EXPECT_EQ(binary, nullptr);
}

TEST_F(Kernel, FilesThatAreNotKernelBinariesAreRefused) {
    aclrtBinHandle binary = nullptr;
    TempFile text("just some text, not a kernel\n", ".so");
    EXPECT_EQ(aclrtBinaryLoadFromFile(text.path(), nullptr, &binary), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a kernel binary");
    TempFile broken_elf(std::string("\x7f"
                                    "ELF",
                                    4) +
                            std::string(200, 'x'),
                        ".so");
    EXPECT_EQ(aclrtBinaryLoadFromFile(broken_elf.path(), nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel binary");
    EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_NO_TABLE_MODULE, nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not an openacl CPU kernel binary");
    if (access("/lib/x86_64-linux-gnu/libm.so.6", R_OK) == 0) {
        EXPECT_EQ(aclrtBinaryLoadFromFile("/lib/x86_64-linux-gnu/libm.so.6", nullptr, &binary),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("not an openacl CPU kernel binary");
    }
    EXPECT_EQ(binary, nullptr);

    // The same bytes from memory.
    std::vector<unsigned char> module = ReadFile(OPENACL_NO_TABLE_MODULE);
    EXPECT_EQ(aclrtBinaryLoadFromData(module.data(), module.size(), nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not an openacl CPU kernel binary");
    const char words[] = "hello";
    EXPECT_EQ(aclrtBinaryLoadFromData(words, sizeof words, nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a kernel binary");
    EXPECT_EQ(aclrtBinaryLoadFromData(words, 0, nullptr, &binary), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryLoadFromData(nullptr, 8, nullptr, &binary), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(binary, nullptr);
}

TEST_F(Kernel, BinariesForAnotherBackendOrTableVersionAreRefused) {
    aclrtBinHandle binary = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_CUDA_TABLE_MODULE, nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("built for the cuda backend");
    std::vector<unsigned char> cuda = ReadFile(OPENACL_CUDA_TABLE_MODULE);
    EXPECT_EQ(aclrtBinaryLoadFromData(cuda.data(), cuda.size(), nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("built for the cuda backend");
    EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_VERSION_3_TABLE_MODULE, nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("has version 3");
    EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_BAD_MAGIC_TABLE_MODULE, nullptr, &binary),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not an openacl CPU kernel binary");
    EXPECT_EQ(binary, nullptr);
}

TEST_F(Kernel, UnknownKernelNameListsTheBinarysKernels) {
    TestFunction("record_blocks");
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(test_binary_, "not_there", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    for (const char* expected : {"not_there", "record_blocks", "args_probe", "sleep_ms"})
        EXPECT_NE(std::string(message).find(expected), std::string::npos) << message;
    EXPECT_EQ(f, nullptr);
    // Kernel names are exact.
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, "vector_ad", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, "vector_add_", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
}

TEST_F(Kernel, FunctionHandlesAreStableAndNamed) {
    aclrtFuncHandle a = Function("tiled_matmul"), b = Function("tiled_matmul");
    EXPECT_EQ(a, b);
    EXPECT_NE(a, Function("row_softmax"));
    char name[32] = {};
    ASSERT_EQ(aclrtGetFunctionName(a, sizeof name, name), ACL_SUCCESS);
    EXPECT_STREQ(name, "tiled_matmul");
    EXPECT_EQ(aclrtGetFunctionName(a, 5, name), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetFunctionName(nullptr, sizeof name, name), ACL_ERROR_INVALID_PARAM);
}

// ---- Bad launches ----

TEST_F(Kernel, NumBlocksZeroIsRefusedByEveryLaunch) {
    aclrtFuncHandle write = TestFunction("write_value");
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 5});
    EXPECT_EQ(aclrtLaunchKernel(write, 0, args, 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("numBlocks is 0");
    EXPECT_EQ(aclrtLaunchKernelV2(write, 0, args, 16, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
    uint64_t host[2] = {Slot(out), 5};
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(write, 0, stream_, nullptr, host, 16, nullptr, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u);
}

TEST_F(Kernel, ArgsThatAreNotDeviceMemoryAreRefused) {
    aclrtFuncHandle write = TestFunction("write_value");
    void* out = Upload(std::vector<uint64_t>{0});
    uint64_t on_stack[2] = {Slot(out), 1};
    EXPECT_EQ(aclrtLaunchKernel(write, 1, on_stack, 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("must be device memory");
    auto* heap = static_cast<uint64_t*>(std::malloc(16));
    std::memcpy(heap, on_stack, 16);
    EXPECT_EQ(aclrtLaunchKernel(write, 1, heap, 16, stream_), ACL_ERROR_INVALID_PARAM);
    std::free(heap);
    PinnedBuffer pinned(16);
    std::memcpy(pinned.get(), on_stack, 16);
    EXPECT_EQ(aclrtLaunchKernel(write, 1, pinned.get(), 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("must be device memory");
    EXPECT_EQ(aclrtLaunchKernelV2(write, 1, pinned.get(), 16, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    void* freed = DeviceArgs({Slot(out), 1});
    ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchKernel(write, 1, freed, 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernel(write, 1, nullptr, 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u) << "a refused launch ran";
}

TEST_F(Kernel, ArgsSizeMustCoverTheParametersAndStayInTheAllocation) {
    const uint64_t n = 8;
    void* x = Upload(std::vector<float>(n, 1.0f));
    void* z = Upload(std::vector<float>(n, 0.0f));
    void* args = DeviceArgs({Slot(x), Slot(x), Slot(z), n});
    EXPECT_EQ(aclrtLaunchKernel(Function("vector_add"), 1, args, 24, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel vector_add takes 4 parameters");
    EXPECT_EQ(aclrtLaunchKernel(Function("vector_add"), 1, args, 0, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernel(Function("vector_add"), 1, args, size_t{1} << 20, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end");
    // Arguments that start inside an allocation but run past its end.
    void* small = Device(4096);
    void* near_end = static_cast<unsigned char*>(small) + 4096 - 8;
    EXPECT_EQ(aclrtLaunchKernel(Function("vector_add"), 1, near_end, 32 + 4096, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<float>(z, n)[0], 0.0f) << "a refused launch ran";
    // More than the kernel needs is fine.
    void* roomy = Device(64);
    ASSERT_EQ(aclrtMemcpy(roomy, 64, args, 32, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchKernel(Function("vector_add"), 2, roomy, 64, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<float>(z, n)[n - 1], 2.0f);
}

TEST_F(Kernel, NullAndForeignHandlesAreRefused) {
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 1});
    int not_a_handle = 0;
    auto* bogus_function = reinterpret_cast<aclrtFuncHandle>(&not_a_handle);
    EXPECT_EQ(aclrtLaunchKernel(nullptr, 1, args, 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernel(bogus_function, 1, args, 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernel(reinterpret_cast<aclrtFuncHandle>(binary_), 1, args, 16, stream_),
              ACL_ERROR_INVALID_PARAM)
        << "a binary handle is no function handle";
    EXPECT_EQ(aclrtLaunchKernelV2(nullptr, 1, args, 16, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(aclrtLaunchKernel(TestFunction("write_value"), 1, args, 16,
                                reinterpret_cast<aclrtStream>(&not_a_handle)),
              ACL_SUCCESS);
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(nullptr, "vector_add", &f), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(
        aclrtBinaryGetFunction(reinterpret_cast<aclrtBinHandle>(&not_a_handle), "vector_add", &f),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, nullptr, &f), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, "vector_add", nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryUnLoad(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryUnLoad(reinterpret_cast<aclrtBinHandle>(&not_a_handle)),
              ACL_ERROR_INVALID_PARAM);
    aclrtBinHandle binary = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromFile(nullptr, nullptr, &binary), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u) << "a refused launch ran";
}

TEST_F(Kernel, FunctionsOfAnUnloadedBinaryAreRefused) {
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle write = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "write_value", &write), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 1});
    EXPECT_EQ(aclrtLaunchKernel(write, 1, args, 16, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("binary that was unloaded");
    uint64_t host[2] = {Slot(out), 1};
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(write, 1, stream_, nullptr, host, 16, nullptr, 0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("binary that was unloaded");
    void* values[2] = {&host[0], &host[1]};
    EXPECT_EQ(aclrtLaunchKernelWithArgsArray(write, 1, stream_, nullptr, values),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("binary that was unloaded");
    aclrtArgsHandle handle = nullptr;
    EXPECT_EQ(aclrtKernelArgsInit(write, &handle), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("binary that was unloaded");
    size_t size = 0;
    EXPECT_EQ(aclrtKernelArgsGetHandleMemSize(write, &size), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("binary that was unloaded");
    char name[32];
    EXPECT_EQ(aclrtGetFunctionName(write, sizeof name, name), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "(kernel write_value) is a function of a kernel binary that was "
        "unloaded");
    aclrtFuncHandle again = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary, "write_value", &again), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u);
}

TEST_F(Kernel, UnloadingWhileALaunchIsQueuedIsSafe) {
    // Loaded only here, so unloading it really closes the module unless queued launches
    // still hold it.
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle write = nullptr, records = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "write_value", &write), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "record_blocks", &records), ACL_SUCCESS);
    void* out1 = Upload(std::vector<uint64_t>{0});
    void* out2 = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out1), 77});
    const uint32_t blocks = 100;
    void* runs = Upload(std::vector<uint32_t>(blocks, 0));
    void* threads = Device(blocks * 8);
    void* nums = Device(blocks * 8);
    uint64_t host[4] = {Slot(runs), Slot(threads), Slot(nums), 0};
    uint64_t host2[2] = {Slot(out2), 78};
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(write, 4, args, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(records, blocks, stream_, nullptr, host, sizeof host,
                                            nullptr, 0),
              ACL_SUCCESS);
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(write, 1, stream_, nullptr, host2, sizeof host2, nullptr, 0),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchKernel(write, 1, args, 16, stream_), ACL_ERROR_INVALID_PARAM);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint64_t>(out1, 1)[0], 77u);
    EXPECT_EQ(Download<uint64_t>(out2, 1)[0], 78u);
    std::vector<uint32_t> counted = Download<uint32_t>(runs, blocks);
    for (uint32_t b = 0; b < blocks; ++b)
        ASSERT_EQ(counted[b], 1u) << "block " << b;
}

TEST_F(Kernel, ArgsFreedBeforeTheLaunchRanFailTheStream) {
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 5});
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("write_value"), 1, args, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(args), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    std::string message = RecentMessage();
    EXPECT_NE(message.find("kernel write_value"), std::string::npos) << message;
    EXPECT_NE(message.find("freed before the launch ran"), std::string::npos) << message;
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// ---- Kernels that fail ----

TEST_F(Kernel, AThrowingKernelFailsTheStreamWithNameAndBlock) {
    aclrtFuncHandle thrower = TestFunction("throw_in_block");
    struct Case {
        int64_t mode;
        const char* says;
    };
    for (Case c : {Case{0, "thrown on purpose"}, Case{1, "the kernel threw an exception"},
                   Case{2, "trapped on purpose in block 5"}}) {
        SCOPED_TRACE(c.mode);
        void* args = DeviceArgs({5, static_cast<uint64_t>(c.mode)});
        ASSERT_EQ(aclrtLaunchKernel(thrower, 16, args, 16, stream_), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
        const char* message = aclGetRecentErrMsg();
        ASSERT_NE(message, nullptr);
        EXPECT_NE(std::string(message).find("kernel throw_in_block failed in block 5"),
                  std::string::npos)
            << message;
        EXPECT_NE(std::string(message).find(c.says), std::string::npos) << message;
        EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "the failure was reported twice";
    }
    // The stream works on afterwards.
    void* args = DeviceArgs({static_cast<uint64_t>(-1), 0});
    ASSERT_EQ(aclrtLaunchKernel(thrower, 16, args, 16, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(Kernel, AFailedAssertFailsTheStreamWithNameAndBlock) {
    void* args = DeviceArgs({997});
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("assert_block"), 1000, args, 8, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("kernel assert_block failed in block 997 of 1000"),
              std::string::npos)
        << message;
    EXPECT_NE(std::string(message).find("assertion failed: GetBlockIdx() != fail_block"),
              std::string::npos)
        << message;
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(Kernel, LaterTasksRunAfterAFailedLaunchByDefault) {
    void* bad = DeviceArgs({0, 0});
    void* out = Upload(std::vector<uint64_t>{0});
    void* good = DeviceArgs({Slot(out), 12});
    std::atomic<int> ran{0};
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("throw_in_block"), 4, bad, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("write_value"), 1, good, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, SetFlag, &ran), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 12u);
    EXPECT_EQ(ran.load(), 1);
}

TEST_F(Kernel, StopOnFailureSkipsLaterLaunches) {
    ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    void* bad = DeviceArgs({0, 0});
    void* out = Upload(std::vector<uint64_t>{0});
    void* good = DeviceArgs({Slot(out), 12});
    uint64_t host[2] = {Slot(out), 13};
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("throw_in_block"), 4, bad, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("write_value"), 1, good, 16, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(TestFunction("write_value"), 1, stream_, nullptr, host,
                                            sizeof host, nullptr, 0),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u) << "a launch after the failure ran";
    ASSERT_EQ(aclrtLaunchKernel(TestFunction("write_value"), 1, good, 16, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 12u);
}

TEST_F(Kernel, BinariesLoadedFromDataOneAfterAnotherStayApart) {
    std::vector<unsigned char> examples = ReadFile(OPENACL_EXAMPLE_KERNELS);
    std::vector<unsigned char> tests = ReadFile(OPENACL_TEST_KERNELS);
    aclrtBinHandle first = nullptr, second = nullptr, third = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromData(examples.data(), examples.size(), nullptr, &first),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromData(tests.data(), tests.size(), nullptr, &second), ACL_SUCCESS);
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(second, "write_value", &f), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtBinaryGetFunction(first, "vector_add", &f), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtBinaryUnLoad(first), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(second), ACL_SUCCESS);
    // A binary that stays resident after its unload is not mistaken for the next one either.
    std::vector<unsigned char> resident = ReadFile(OPENACL_RESIDENT_KERNELS);
    for (int round = 0; round < 2; ++round) {
        SCOPED_TRACE(round);
        ASSERT_EQ(aclrtBinaryLoadFromData(resident.data(), resident.size(), nullptr, &first),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtBinaryGetFunction(first, "resident_count", &f), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtBinaryUnLoad(first), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryLoadFromData(tests.data(), tests.size(), nullptr, &third),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtBinaryGetFunction(third, "write_value", &f), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(aclrtBinaryUnLoad(third), ACL_SUCCESS);
    }
}

// ---- Function handles after an unload ----

TEST_F(Kernel, AStaleFunctionHandleNeverNamesAFunctionLoadedLater) {
    // Each round frees a function and makes the next one at once, where an allocator likes to
    // reuse the address: a handle that was an address would then launch the new function.
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 6});
    std::vector<aclrtFuncHandle> stale;
    for (int round = 0; round < 8; ++round) {
        SCOPED_TRACE(round);
        aclrtBinHandle binary = nullptr;
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary), ACL_SUCCESS);
        aclrtFuncHandle write = nullptr;
        ASSERT_EQ(aclrtBinaryGetFunction(binary, "write_value", &write), ACL_SUCCESS);
        for (aclrtFuncHandle old : stale) {
            EXPECT_NE(old, write);
            EXPECT_EQ(aclrtLaunchKernel(old, 1, args, 16, stream_), ACL_ERROR_INVALID_PARAM);
            EXPECT_THAT_MESSAGE_CONTAINS("binary that was unloaded");
        }
        ASSERT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
        stale.push_back(write);
    }
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u) << "a stale handle launched a kernel";
}

TEST_F(Kernel, OtherHandlesAndPointersAreNoFunctionHandles) {
    void* out = Upload(std::vector<uint64_t>{0});
    void* args = DeviceArgs({Slot(out), 1});
    aclrtArgsHandle owned = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(TestFunction("write_value"), &owned), ACL_SUCCESS);
    for (void* other : {static_cast<void*>(stream_), static_cast<void*>(test_binary_),
                        static_cast<void*>(owned), args}) {
        EXPECT_EQ(aclrtLaunchKernel(other, 1, args, 16, stream_), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("is not a kernel function");
    }
}

// ---- aclrtBinaryGetFunctionByEntry ----

TEST_F(Kernel, GetFunctionByEntryTakesTheKernelsIndexInTheBinary) {
    // The test binary's kernels in source order: record_blocks, wait_for_others, affine, ...
    const char* expected[] = {"record_blocks", "wait_for_others", "affine"};
    TestFunction("affine");  // loads the test binary
    for (uint64_t entry = 0; entry < 3; ++entry) {
        SCOPED_TRACE(entry);
        aclrtFuncHandle f = nullptr;
        ASSERT_EQ(aclrtBinaryGetFunctionByEntry(test_binary_, entry, &f), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        char name[32] = {};
        ASSERT_EQ(aclrtGetFunctionName(f, sizeof name, name), ACL_SUCCESS);
        EXPECT_STREQ(name, expected[entry]);
        EXPECT_EQ(f, TestFunction(expected[entry])) << "one kernel, one handle";
    }
}

TEST_F(Kernel, GetFunctionByEntryEnumeratesEveryKernel) {
    std::vector<std::string> names;
    for (uint64_t entry = 0;; ++entry) {
        aclrtFuncHandle f = nullptr;
        aclError rc = aclrtBinaryGetFunctionByEntry(binary_, entry, &f);
        if (rc == ACL_ERROR_RT_SYMBOL_NOT_FOUND) break;
        ASSERT_EQ(rc, ACL_SUCCESS);
        char name[32] = {};
        ASSERT_EQ(aclrtGetFunctionName(f, sizeof name, name), ACL_SUCCESS);
        names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"checked_copy", "empty_kernel", "row_softmax",
                                               "tiled_matmul", "vector_add"}));
}

TEST_F(Kernel, AnUnknownEntryIsSymbolNotFoundListingTheValidOnes) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunctionByEntry(binary_, 5, &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    EXPECT_THAT_MESSAGE_CONTAINS("vector_add");
    EXPECT_EQ(aclrtBinaryGetFunctionByEntry(binary_, ~uint64_t{0}, &f),
              ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    std::string message = RecentMessage();
    EXPECT_NE(message.find("index in the binary's kernel table"), std::string::npos) << message;
    EXPECT_NE(message.find("valid entries: 0 "), std::string::npos) << message;
    EXPECT_EQ(f, nullptr);
}

TEST_F(Kernel, GetFunctionByEntryRefusesNullAndForeignHandles) {
    aclrtFuncHandle f = nullptr;
    int not_a_handle = 0;
    EXPECT_EQ(aclrtBinaryGetFunctionByEntry(binary_, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryGetFunctionByEntry(nullptr, 0, &f), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtBinaryGetFunctionByEntry(&not_a_handle, 0, &f), ACL_ERROR_INVALID_PARAM);
    aclrtBinHandle unloaded = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &unloaded), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(unloaded), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryGetFunctionByEntry(unloaded, 0, &f), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(f, nullptr);
}

// ---- aclrtLaunchKernelWithArgsArray ----

TEST_F(Kernel, LaunchWithArgsArrayPassesEachArgumentByValue) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    void* out = Device(sizeof(test_kernels::Probe));
    unsigned char data[32];
    for (int i = 0; i < 32; ++i)
        data[i] = static_cast<unsigned char>(50 + i);
    void* placeholder = data;  // a pointer parameter: its value is the address
    // Each value sits in 8 bytes of its own: the launch reads a full slot at every pointer.
    struct {
        uint32_t value, unused;
    } a{42, 0};
    struct {
        float value, unused;
    } b{1.5f, 0};
    double c = -0.125;
    void* values[5] = {&out, &placeholder, &a.value, &b.value, &c};
    ASSERT_EQ(aclrtLaunchKernelWithArgsArray(probe, 2, stream_, nullptr, values), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    auto probed = Download<test_kernels::Probe>(out, 1)[0];
    EXPECT_EQ(probed.a, 42u);
    EXPECT_EQ(probed.b, 1.5f);
    EXPECT_EQ(probed.c, -0.125);
    EXPECT_EQ(probed.placeholder_address, reinterpret_cast<uint64_t>(data));
    EXPECT_EQ(probed.placeholder_bytes[31], 50 + 31);
}

TEST_F(Kernel, LaunchWithArgsArrayCopiesTheArgumentsAtTheCall) {
    void* out = Upload(std::vector<uint64_t>{0});
    uint64_t value = 1234;
    void* target = out;
    void* values[2] = {&target, &value};
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(
        aclrtLaunchKernelWithArgsArray(TestFunction("write_value"), 1, stream_, nullptr, values),
        ACL_SUCCESS);
    value = 99;  // the launch has its own copy
    values[0] = nullptr;
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 1234u);
}

TEST_F(Kernel, LaunchWithArgsArrayTakesALaunchConfig) {
    void* ran = Upload(std::vector<uint32_t>{0});
    uint64_t ms = 300;
    void* values[2] = {&ran, &ms};
    TimeoutConfig cfg(20000);
    ASSERT_EQ(
        aclrtLaunchKernelWithArgsArray(TestFunction("sleep_ms"), 1, stream_, cfg.get(), values),
        ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel sleep_ms did not finish within");
}

TEST_F(Kernel, LaunchWithArgsArrayRefusesMissingArguments) {
    aclrtFuncHandle write = TestFunction("write_value");
    void* out = Upload(std::vector<uint64_t>{0});
    uint64_t value = 5;
    void* values[2] = {&out, nullptr};
    EXPECT_EQ(aclrtLaunchKernelWithArgsArray(write, 1, stream_, nullptr, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("kernel write_value takes 2 parameters");
    EXPECT_EQ(aclrtLaunchKernelWithArgsArray(write, 1, stream_, nullptr, values),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("args[1] is null");
    values[1] = &value;
    EXPECT_EQ(aclrtLaunchKernelWithArgsArray(write, 0, stream_, nullptr, values),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtLaunchKernelWithArgsArray(nullptr, 1, stream_, nullptr, values),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint64_t>(out, 1)[0], 0u) << "a refused launch ran";
}

TEST_F(Kernel, LaunchWithArgsArrayNeedsNoArrayForAKernelWithoutParameters) {
    EXPECT_EQ(
        aclrtLaunchKernelWithArgsArray(Function("empty_kernel"), 4, stream_, nullptr, nullptr),
        ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
}

// ---- Argument handles in the caller's memory: aclrtKernelArgsInitByUserMem ----

namespace {

// The two buffers of a user-memory argument handle, sized as the runtime says.
struct UserArgsMemory {
    UserArgsMemory(aclrtFuncHandle f, size_t user_args_size) {
        EXPECT_EQ(aclrtKernelArgsGetHandleMemSize(f, &handle_size), ACL_SUCCESS);
        EXPECT_EQ(aclrtKernelArgsGetMemSize(f, user_args_size, &args_size), ACL_SUCCESS);
        handle.resize(handle_size / 8 + 1);
        args.resize(args_size);
    }
    aclrtArgsHandle Handle() { return handle.data(); }
    bool Holds(const void* p, size_t bytes) const {
        auto begin = reinterpret_cast<uintptr_t>(args.data()), at = reinterpret_cast<uintptr_t>(p);
        return at >= begin && at + bytes <= begin + args.size();
    }
    size_t handle_size = 0, args_size = 0;
    std::vector<uint64_t> handle;  // 8-byte aligned
    std::vector<unsigned char> args;
};

}  // namespace

TEST_F(Kernel, KernelArgsGetHandleMemSizeGrowsWithTheParameters) {
    size_t two = 0, five = 0;
    ASSERT_EQ(aclrtKernelArgsGetHandleMemSize(TestFunction("write_value"), &two), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsGetHandleMemSize(TestFunction("args_probe"), &five), ACL_SUCCESS);
    EXPECT_GT(two, 0u);
    EXPECT_GT(five, two) << "the handle keeps a record per possible placeholder";
    EXPECT_EQ(aclrtKernelArgsGetHandleMemSize(TestFunction("args_probe"), nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsGetHandleMemSize(nullptr, &two), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Kernel, KernelArgsGetMemSizeCoversTheSlotsAndTheArgumentData) {
    aclrtFuncHandle probe = TestFunction("args_probe");  // 5 parameters
    size_t size = 0;
    ASSERT_EQ(aclrtKernelArgsGetMemSize(probe, 0, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 40u) << "one 8-byte slot per parameter";
    ASSERT_EQ(aclrtKernelArgsGetMemSize(probe, 72, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 40u + 72u) << "slots, then room for userArgsSize bytes";
    ASSERT_EQ(aclrtKernelArgsGetMemSize(probe, 33, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 40u + 40u) << "rounded up to whole slots";
    EXPECT_EQ(aclrtKernelArgsGetMemSize(probe, SIZE_MAX - 4, &size), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsGetMemSize(probe, 8, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsGetMemSize(nullptr, 8, &size), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Kernel, KernelArgsInitByUserMemKeepsTheArgumentsInTheCallersMemory) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    UserArgsMemory memory(probe, 4 * 8 + 32);  // four plain values and 32 bytes of placeholder
    ASSERT_EQ(
        aclrtKernelArgsInitByUserMem(probe, memory.Handle(), memory.args.data(), memory.args_size),
        ACL_SUCCESS)
        << aclGetRecentErrMsg();
    void* out = Device(sizeof(test_kernels::Probe));
    aclrtParamHandle p = nullptr, holder = nullptr;
    uint64_t a = 3;
    ASSERT_EQ(aclrtKernelArgsAppend(memory.Handle(), &out, sizeof out, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(memory.Handle(), &holder), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(memory.Handle(), &a, sizeof a, &p), ACL_SUCCESS);
    void* buffer = nullptr;
    ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(memory.Handle(), holder, 32, &buffer),
              ACL_SUCCESS);
    EXPECT_TRUE(memory.Holds(buffer, 32)) << "the placeholder data lives in the caller's memory";
    uint64_t slots[3];
    std::memcpy(slots, memory.args.data(), sizeof slots);
    EXPECT_EQ(slots[0], Slot(out)) << "the slots start the caller's memory, in order";
    EXPECT_EQ(slots[2], 3u);
}

TEST_F(Kernel, KernelArgsInitByUserMemLaunchesLikeKernelArgsInit) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    UserArgsMemory memory(probe, 4 * 8 + 32);
    ASSERT_EQ(
        aclrtKernelArgsInitByUserMem(probe, memory.Handle(), memory.args.data(), memory.args_size),
        ACL_SUCCESS);
    void* out1 = Device(sizeof(test_kernels::Probe));
    void* out2 = Device(sizeof(test_kernels::Probe));
    aclrtParamHandle p_out = nullptr, holder = nullptr, p_a = nullptr, p = nullptr;
    uint32_t a = 1;
    float b = 2.5f;
    double c = 4.0;
    ASSERT_EQ(aclrtKernelArgsAppend(memory.Handle(), &out1, sizeof out1, &p_out), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(memory.Handle(), &holder), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(memory.Handle(), &a, sizeof a, &p_a), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(memory.Handle(), &b, sizeof b, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(memory.Handle(), &c, sizeof c, &p), ACL_SUCCESS);
    void* buffer = nullptr;
    ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(memory.Handle(), holder, 32, &buffer),
              ACL_SUCCESS);
    std::memset(buffer, 0x11, 32);
    ASSERT_EQ(aclrtKernelArgsFinalize(memory.Handle()), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(probe, 2, stream_, nullptr, memory.Handle(), nullptr),
              ACL_SUCCESS);
    // The launch took its copy: changes now are for the next launch only.
    a = 2;
    ASSERT_EQ(aclrtKernelArgsParaUpdate(memory.Handle(), p_a, &a, sizeof a), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsParaUpdate(memory.Handle(), p_out, &out2, sizeof out2), ACL_SUCCESS);
    std::memset(buffer, 0x22, 32);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(probe, 2, stream_, nullptr, memory.Handle(), nullptr),
              ACL_SUCCESS);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    auto first = Download<test_kernels::Probe>(out1, 1)[0];
    auto second = Download<test_kernels::Probe>(out2, 1)[0];
    EXPECT_EQ(first.a, 1u);
    EXPECT_EQ(first.b, 2.5f);
    EXPECT_EQ(first.c, 4.0);
    EXPECT_EQ(first.placeholder_bytes[0], 0x11);
    EXPECT_EQ(first.placeholder_bytes[31], 0x11);
    EXPECT_EQ(second.a, 2u);
    EXPECT_EQ(second.placeholder_bytes[31], 0x22);
    EXPECT_FALSE(memory.Holds(reinterpret_cast<void*>(first.placeholder_address), 1))
        << "the placeholder must point into the launch's copy, not the caller's memory";
}

TEST_F(Kernel, KernelArgsInitByUserMemHoldsOneSlotPerParameter) {
    aclrtFuncHandle write = TestFunction("write_value");  // 2 parameters
    UserArgsMemory memory(write, 64);
    ASSERT_EQ(
        aclrtKernelArgsInitByUserMem(write, memory.Handle(), memory.args.data(), memory.args_size),
        ACL_SUCCESS);
    uint64_t value = 0;
    aclrtParamHandle p = nullptr;
    ASSERT_EQ(aclrtKernelArgsAppend(memory.Handle(), &value, 8, &p), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(memory.Handle(), &p), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsAppend(memory.Handle(), &value, 8, &p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("already holds all 2 parameters of kernel write_value");
    EXPECT_EQ(aclrtKernelArgsAppendPlaceHolder(memory.Handle(), &p), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Kernel, KernelArgsInitByUserMemRefusesTooLittleMemory) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    UserArgsMemory memory(probe, 8);
    EXPECT_EQ(aclrtKernelArgsInitByUserMem(probe, memory.Handle(), memory.args.data(), 39),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtKernelArgsGetMemSize");
    // Room for the slots and 8 bytes of data: a 32-byte placeholder buffer does not fit.
    ASSERT_EQ(
        aclrtKernelArgsInitByUserMem(probe, memory.Handle(), memory.args.data(), memory.args_size),
        ACL_SUCCESS);
    aclrtParamHandle holder = nullptr;
    void* buffer = nullptr;
    ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(memory.Handle(), &holder), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(memory.Handle(), holder, 32, &buffer),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("has no room for 32 more bytes");
    EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(memory.Handle(), holder, 8, &buffer),
              ACL_SUCCESS);
    EXPECT_TRUE(memory.Holds(buffer, 8));
}

TEST_F(Kernel, KernelArgsInitByUserMemRefusesBadMemory) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    UserArgsMemory memory(probe, 64);
    auto* handle = static_cast<unsigned char*>(memory.Handle());
    EXPECT_EQ(aclrtKernelArgsInitByUserMem(probe, nullptr, memory.args.data(), memory.args_size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsInitByUserMem(probe, handle, nullptr, memory.args_size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsInitByUserMem(nullptr, handle, memory.args.data(), memory.args_size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtKernelArgsInitByUserMem(probe, handle + 4, memory.args.data(), memory.args_size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aligned");
    EXPECT_EQ(aclrtKernelArgsInitByUserMem(probe, handle, handle + 8, memory.args_size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("overlap");
    aclrtArgsHandle owned = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(probe, &owned), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsInitByUserMem(probe, owned, memory.args.data(), memory.args_size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("made by aclrtKernelArgsInit");
    // None of them became a handle.
    EXPECT_EQ(aclrtKernelArgsFinalize(handle), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Kernel, UserMemoryArgsHandlesGoAwayWithTheirBinary) {
    aclrtFuncHandle probe = TestFunction("args_probe");
    UserArgsMemory memory(probe, 64);
    ASSERT_EQ(
        aclrtKernelArgsInitByUserMem(probe, memory.Handle(), memory.args.data(), memory.args_size),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(test_binary_), ACL_SUCCESS);
    test_binary_ = nullptr;
    EXPECT_EQ(aclrtKernelArgsFinalize(memory.Handle()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("goes away with its binary's aclrtBinaryUnLoad");
}

// ---- Loading: what is not a regular file ----

TEST_F(Kernel, ADirectoryIsInvalidFile) {
    aclrtBinHandle binary = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromFile("/tmp", nullptr, &binary), ACL_ERROR_INVALID_FILE);
    EXPECT_THAT_MESSAGE_CONTAINS("/tmp is a directory");
    EXPECT_EQ(binary, nullptr);
}

TEST_F(Kernel, ASpecialFileIsInvalidFile) {
    aclrtBinHandle binary = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromFile("/dev/null", nullptr, &binary), ACL_ERROR_INVALID_FILE);
    EXPECT_THAT_MESSAGE_CONTAINS("not a regular file");
    // A FIFO nobody writes to: reading it would block for ever.
    std::string fifo = "/tmp/openacl-test-fifo-" + std::to_string(getpid());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(aclrtBinaryLoadFromFile(fifo.c_str(), nullptr, &binary), ACL_ERROR_INVALID_FILE);
    unlink(fifo.c_str());
    EXPECT_EQ(binary, nullptr);
}

// ---- Arguments on another device ----

namespace {

// Two devices (OPENACL_DEVICE_COUNT=2, read by aclInit), device 0 current.
class KernelTwoDevices : public InitializedDeviceTest {
 private:
    ScopedEnv count_{"OPENACL_DEVICE_COUNT", "2"};
};

}  // namespace

TEST_F(KernelTwoDevices, ArgsOnAnotherDeviceThanTheStreamAreRefused) {
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle write = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "write_value", &write), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    void *out = nullptr, *args = nullptr;
    ASSERT_EQ(aclrtMalloc(&out, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&args, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const uint64_t slots[2] = {Slot(out), 7};
    ASSERT_EQ(aclrtMemcpy(args, 16, slots, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    aclrtStream on_device1 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&on_device1), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream on_device0 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&on_device0), ACL_SUCCESS);

    EXPECT_EQ(aclrtLaunchKernel(write, 1, args, 16, on_device0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is device memory of device 1, but the stream runs on device 0");
    EXPECT_EQ(aclrtLaunchKernelV2(write, 1, args, 16, nullptr, on_device0),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(on_device0), ACL_SUCCESS);
    // On its own device's stream the same block launches.
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchKernel(write, 1, args, 16, on_device1), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStream(on_device1), ACL_SUCCESS) << aclGetRecentErrMsg();
    uint64_t written = 0;
    ASSERT_EQ(aclrtMemcpy(&written, 8, out, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(written, 7u);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
}
