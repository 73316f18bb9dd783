// Ascend C kernels on openacl next to their peers, in one run, each number the median of its
// repetitions (bench/ascendc.sh; method and results in docs/PERFORMANCE.md "Ascend C kernels"):
//   add     64 Mi floats, z = x + y: the kernel (launch + synchronise) over 2, 32 and 64 blocks
//           (64 is more than the chip's 48 vector cores: those run in waves); the same add in
//           plain C++ on the host's threads; aclrtMemcpy device to device of one array
//   matmul  float C = A * B, the Matmul API with the host tiling, against oneDNN's sgemm
//   launch  an empty kernel, launch + synchronise, 1 and 48 blocks
//   vector  4 vector instructions over 8 Ki floats in the UB, 2000 rounds per block, one block
//           per CPU: the instructions against the same loops written by hand in the kernel
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_bench_add.h"
#include "aclrtlaunch_bench_empty.h"
#include "aclrtlaunch_bench_matmul.h"
#include "aclrtlaunch_bench_vector_api.h"
#include "aclrtlaunch_bench_vector_loop.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace {

#define CHECK(call)                                                                             \
    do {                                                                                        \
        const int status_ = static_cast<int>(call);                                             \
        if (status_ != 0) {                                                                     \
            std::fprintf(stderr, "%s failed: %d (%s)\n", #call, status_, aclGetRecentErrMsg()); \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)

using Clock = std::chrono::steady_clock;

// Median seconds of `runs` calls of `body` after one warm-up call.
double MedianSeconds(int runs, const std::function<void()>& body) {
    body();
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        body();
        times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    return times[times.size() / 2];
}

void* DeviceAlloc(size_t bytes) {
    void* p = nullptr;
    CHECK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
}

void BenchAdd(aclrtStream stream) {
    constexpr uint32_t kCount = 64u << 20;
    constexpr size_t kBytes = size_t{kCount} * sizeof(float);
    constexpr double kMoved = 3.0 * kBytes;  // x and y read, z written
    std::vector<float> x(kCount), y(kCount), z(kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
        x[i] = static_cast<float>(i % 1000);
        y[i] = 0.5f;
    }
    void* xd = DeviceAlloc(kBytes);
    void* yd = DeviceAlloc(kBytes);
    void* zd = DeviceAlloc(kBytes);
    CHECK(aclrtMemcpy(xd, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(yd, kBytes, y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    std::printf("add, 64 Mi floats (768 MiB moved)         median     GB/s\n");
    for (uint32_t blocks : {2u, 32u, 64u}) {
        const double s = MedianSeconds(7, [&] {
            CHECK(aclrtlaunch_bench_add(blocks, stream, xd, yd, zd, kCount / blocks));
            CHECK(aclrtSynchronizeStream(stream));
        });
        std::printf("  Ascend C kernel, %2u blocks            %7.2f ms %8.2f\n", blocks, s * 1e3,
                    kMoved / s / 1e9);
    }
    CHECK(aclrtMemcpy(z.data(), kBytes, zd, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < kCount; i += 4099) {
        if (z[i] != x[i] + y[i]) {
            std::fprintf(stderr, "add: z[%u] = %g, want %g\n", i, z[i], x[i] + y[i]);
            std::exit(1);
        }
    }
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const double plain = MedianSeconds(7, [&] {
        std::vector<std::thread> workers;
        for (unsigned t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                const size_t begin = size_t{kCount} * t / threads;
                const size_t end = size_t{kCount} * (t + 1) / threads;
                for (size_t i = begin; i < end; ++i)
                    z[i] = x[i] + y[i];
            });
        }
        for (auto& w : workers)
            w.join();
    });
    std::printf("  plain C++, %u threads                   %7.2f ms %8.2f\n", threads, plain * 1e3,
                kMoved / plain / 1e9);
    const double copy = MedianSeconds(
        7, [&] { CHECK(aclrtMemcpy(zd, kBytes, xd, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE)); });
    std::printf("  aclrtMemcpy device to device, 256 MiB  %7.2f ms %8.2f (read + write)\n",
                copy * 1e3, 2.0 * kBytes / copy / 1e9);
    for (void* p : {xd, yd, zd})
        CHECK(aclrtFree(p));
}

void BenchMatmul(aclrtStream stream, int32_t m, int32_t n, int32_t k) {
    std::vector<float> a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n), ref(size_t(m) * n);
    for (size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>((i * 7) % 17) * 0.25f - 2.0f;
    for (size_t i = 0; i < b.size(); ++i)
        b[i] = static_cast<float>((i * 5) % 13) * 0.25f - 1.5f;
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling api(*platform);
    using matmul_tiling::CubeFormat;
    using matmul_tiling::DataType;
    using matmul_tiling::TPosition;
    api.SetDim(static_cast<int32_t>(platform->GetCoreNumAic()));
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.EnableBias(false);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling tiling;
    CHECK(api.GetTiling(tiling));
    std::vector<uint8_t> tilingBytes(tiling.GetDataSize());
    tiling.SaveToBuffer(tilingBytes.data(), tilingBytes.size());
    const uint32_t blocks = static_cast<uint32_t>(tiling.get_usedCoreNum());
    void* ad = DeviceAlloc(a.size() * sizeof(float));
    void* bd = DeviceAlloc(b.size() * sizeof(float));
    void* cd = DeviceAlloc(c.size() * sizeof(float));
    void* workspace = DeviceAlloc(platform->GetLibApiWorkSpaceSize());
    void* tilingDevice = DeviceAlloc(tilingBytes.size());
    CHECK(aclrtMemcpy(ad, a.size() * 4, a.data(), a.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(bd, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(tilingDevice, tilingBytes.size(), tilingBytes.data(), tilingBytes.size(),
                      ACL_MEMCPY_HOST_TO_DEVICE));
    const double flops = 2.0 * m * n * k;
    const double kernel = MedianSeconds(5, [&] {
        CHECK(aclrtlaunch_bench_matmul(blocks, stream, ad, bd, cd, workspace, tilingDevice));
        CHECK(aclrtSynchronizeStream(stream));
    });
    const double onednn = MedianSeconds(5, [&] {
        CHECK(dnnl_sgemm('N', 'N', m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f, ref.data(), n));
    });
    CHECK(aclrtMemcpy(c.data(), c.size() * 4, cd, c.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < c.size(); i += 97) {
        if (c[i] != ref[i]) {  // quarters: every sum is exact in float
            std::fprintf(stderr, "matmul: C[%zu] = %g, oneDNN %g\n", i, c[i], ref[i]);
            std::exit(1);
        }
    }
    std::printf("matmul %dx%dx%d float                   median   GFLOP/s\n", m, n, k);
    std::printf("  Ascend C Matmul API, %2u blocks         %7.2f ms %8.2f\n", blocks, kernel * 1e3,
                flops / kernel / 1e9);
    std::printf(
        "  oneDNN sgemm                           %7.2f ms %8.2f  (kernel / oneDNN: "
        "%.2f)\n",
        onednn * 1e3, flops / onednn / 1e9, onednn / kernel);
    for (void* p : {ad, bd, cd, workspace, tilingDevice})
        CHECK(aclrtFree(p));
}

void BenchLaunch(aclrtStream stream) {
    void* unused = DeviceAlloc(32);
    std::printf("launch + synchronise, empty kernel      median\n");
    for (uint32_t blocks : {1u, 48u}) {
        constexpr int kLaunches = 200;
        const double s = MedianSeconds(9, [&] {
            for (int i = 0; i < kLaunches; ++i) {
                CHECK(aclrtlaunch_bench_empty(blocks, stream, unused));
                CHECK(aclrtSynchronizeStream(stream));
            }
        });
        std::printf("  %2u block(s)                           %7.2f us (%.2f us per block)\n",
                    blocks, s / kLaunches * 1e6, s / kLaunches / blocks * 1e6);
    }
    CHECK(aclrtFree(unused));
}

void BenchVector(aclrtStream stream) {
    constexpr uint32_t kElements = 8192;  // per block, as in vector_kernel.cpp
    constexpr uint32_t kRounds = 2000;
    const uint32_t blocks = std::max(1u, std::thread::hardware_concurrency());
    const size_t bytes = size_t{kElements} * blocks * sizeof(float);
    void* api = DeviceAlloc(bytes);
    void* loop = DeviceAlloc(bytes);
    const double elements = 4.0 * kElements * kRounds * blocks;
    std::printf("vector instructions on the UB, %u blocks   median  Gelem/s\n", blocks);
    const double s_api = MedianSeconds(5, [&] {
        CHECK(aclrtlaunch_bench_vector_api(blocks, stream, api, kRounds));
        CHECK(aclrtSynchronizeStream(stream));
    });
    std::printf("  Add, Sub, Max, Muls (instructions)     %7.2f ms %8.2f\n", s_api * 1e3,
                elements / s_api / 1e9);
    const double s_loop = MedianSeconds(5, [&] {
        CHECK(aclrtlaunch_bench_vector_loop(blocks, stream, loop, kRounds));
        CHECK(aclrtSynchronizeStream(stream));
    });
    std::printf(
        "  the same loops written in the kernel   %7.2f ms %8.2f  (loops / instructions: "
        "%.2f)\n",
        s_loop * 1e3, elements / s_loop / 1e9, s_loop / s_api);
    std::vector<float> a(bytes / sizeof(float)), b(bytes / sizeof(float));
    CHECK(aclrtMemcpy(a.data(), bytes, api, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtMemcpy(b.data(), bytes, loop, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    if (a != b) {
        std::fprintf(stderr, "vector: the instructions and the loops disagree\n");
        std::exit(1);
    }
    CHECK(aclrtFree(api));
    CHECK(aclrtFree(loop));
}

}  // namespace

// With arguments, only the parts named (add, matmul, launch, vector): for profiling one of them.
int main(int argc, char** argv) {
    auto wanted = [&](const char* part) {
        if (argc < 2) return true;
        for (int i = 1; i < argc; ++i) {
            if (std::strcmp(argv[i], part) == 0) return true;
        }
        return false;
    };
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    if (wanted("add")) BenchAdd(stream);
    if (wanted("matmul")) {
        BenchMatmul(stream, 512, 512, 512);
        BenchMatmul(stream, 1024, 1024, 1024);
    }
    if (wanted("launch")) BenchLaunch(stream);
    if (wanted("vector")) BenchVector(stream);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
