// HCCL between virtual devices of one process, next to its peers in the same run: a plain
// single-thread memcpy of the same size (the reference for bandwidth) and Gloo's own allreduce
// (ranks as threads, HashStore rendezvous, TCP on 127.0.0.1), which is what openacl's
// multi-process HCCL runs on.
//
//  - BM_Memcpy16MiB: memcpy of 16 MiB between pre-faulted buffers, one thread.
//  - BM_HcclAllReduce16MiB/ranks:N: N ranks (threads, devices 0..N-1) each enqueue 4
//    back-to-back HcclAllReduce of 16 MiB float32 and synchronise their stream; the time per
//    call is rank 0's wall time / 4. Every iteration also times a 16 MiB memcpy on the benchmark
//    thread while the ranks are idle. Counters: algbw and busbw (nccl-tests' formula:
//    busbw = algbw x 2(N-1)/N) in GB/s, memcpy_gbs and busbw_vs_memcpy (target >= 0.5).
//  - BM_HcclAllReduce8BBackToBack/ranks:N: 2000 back-to-back 8-byte HcclAllReduce per rank,
//    then one synchronise; time per call (target <= 10 us).
//  - BM_HcclAllReduce8BRoundTrip/ranks:N: HcclAllReduce of 8 bytes + aclrtSynchronizeStream,
//    500 times per rank; time per round trip.
//  - BM_GlooAllReduce16MiB / 8B (ranks:N): gloo::allreduce, same sizes, each rank's call
//    blocking, back to back (no stream to synchronise).
// Each iteration runs a batch of calls and reports the time per call (manual time), so the
// iteration counts are fixed; 3 repetitions each. Results are checked: every rank's result is N
// at the end of each benchmark.
#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "bench_common.h"
#include "hccl/hccl.h"

#ifdef OPENACL_BENCH_GLOO
#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/hash_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>
#endif

namespace {

constexpr size_t kLargeBytes = size_t{16} << 20;
constexpr size_t kSmallBytes = 8;
constexpr uint32_t kMaxRanks = 4;

void Check(bool ok, const char* what) {
    if (ok) return;
    const char* detail = aclGetRecentErrMsg();
    std::fprintf(stderr, "bench_hccl: %s failed%s%s\n", what, detail ? ": " : "",
                 detail ? detail : "");
    std::abort();
}

// N persistent threads, one per rank; Run() hands each the same job and waits for all of them.
class RankThreads {
 public:
    explicit RankThreads(uint32_t n) : n_(n) {
        for (uint32_t r = 0; r < n; ++r)
            threads_.emplace_back([this, r] { Main(r); });
    }
    ~RankThreads() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
            ++generation_;
        }
        start_.notify_all();
        for (std::thread& t : threads_)
            t.join();
    }
    RankThreads(const RankThreads&) = delete;
    RankThreads& operator=(const RankThreads&) = delete;

    uint32_t size() const { return n_; }

    void Run(const std::function<void(uint32_t)>& job) {
        std::unique_lock lock(mutex_);
        job_ = &job;
        done_ = 0;
        ++generation_;
        start_.notify_all();
        finished_.wait(lock, [this] { return done_ == n_; });
        job_ = nullptr;
    }

 private:
    void Main(uint32_t rank) {
        uint64_t seen = 0;
        for (;;) {
            const std::function<void(uint32_t)>* job;
            {
                std::unique_lock lock(mutex_);
                start_.wait(lock, [&] { return generation_ != seen; });
                seen = generation_;
                if (stop_) return;
                job = job_;
            }
            (*job)(rank);
            std::lock_guard lock(mutex_);
            if (++done_ == n_) finished_.notify_one();
        }
    }

    const uint32_t n_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable start_, finished_;
    uint64_t generation_ = 0;
    uint32_t done_ = 0;
    bool stop_ = false;
    const std::function<void(uint32_t)>* job_ = nullptr;
};

// The plain reference: a 16 MiB memcpy between two pre-faulted buffers.
class Memcpy16MiB {
 public:
    Memcpy16MiB()
        : src_(bench::MapPrefaulted(kLargeBytes)), dst_(bench::MapPrefaulted(kLargeBytes)) {}
    ~Memcpy16MiB() {
        bench::Unmap(src_, kLargeBytes);
        bench::Unmap(dst_, kLargeBytes);
    }
    // Nanoseconds one copy took.
    int64_t Run() {
        const int64_t t0 = bench::NowNs();
        std::memcpy(dst_, src_, kLargeBytes);
        benchmark::ClobberMemory();
        return bench::NowNs() - t0;
    }

 private:
    void* src_;
    void* dst_;
};

// ---- openacl's HCCL ----------------------------------------------------------------------------

struct HcclRank {
    HcclComm comm = nullptr;
    aclrtStream stream = nullptr;
    void* send = nullptr;
    void* recv = nullptr;
};

// N ranks of one communicator, threads on devices 0..N-1, with 16 MiB send and receive
// buffers each (the send buffer holds 1.0f everywhere, so every result element is N).
class HcclRanks {
 public:
    explicit HcclRanks(uint32_t n) : threads_(n), ranks_(n) {
        Check(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice(0)");
        HcclRootInfo root;
        Check(HcclGetRootInfo(&root) == HCCL_SUCCESS, "HcclGetRootInfo");
        threads_.Run([&](uint32_t r) {
            HcclRank& rank = ranks_[r];
            Check(aclrtSetDevice(static_cast<int32_t>(r)) == ACL_SUCCESS, "aclrtSetDevice");
            Check(HcclCommInitRootInfo(n, &root, r, &rank.comm) == HCCL_SUCCESS,
                  "HcclCommInitRootInfo");
            Check(aclrtCreateStream(&rank.stream) == ACL_SUCCESS, "aclrtCreateStream");
            Check(aclrtMalloc(&rank.send, kLargeBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
                  "aclrtMalloc");
            Check(aclrtMalloc(&rank.recv, kLargeBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
                  "aclrtMalloc");
            std::vector<float> ones(kLargeBytes / sizeof(float), 1.0f);
            Check(aclrtMemcpy(rank.send, kLargeBytes, ones.data(), kLargeBytes,
                              ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
                  "aclrtMemcpy");
            Check(aclrtMemset(rank.recv, kLargeBytes, 0, kLargeBytes) == ACL_SUCCESS,
                  "aclrtMemset");
        });
    }
    ~HcclRanks() {
        threads_.Run([&](uint32_t r) {
            HcclRank& rank = ranks_[r];
            aclrtFree(rank.send);
            aclrtFree(rank.recv);
            aclrtDestroyStream(rank.stream);
            HcclCommDestroy(rank.comm);
        });
    }

    uint32_t size() const { return threads_.size(); }

    // Each rank issues `ops` AllReduces of `bytes` (synchronising after each when
    // `sync_each`, else once at the end). Returns rank 0's wall time in ns.
    int64_t AllReduce(size_t bytes, int ops, bool sync_each) {
        std::atomic<int64_t> elapsed{0};
        const uint64_t count = bytes / sizeof(float);
        threads_.Run([&](uint32_t r) {
            HcclRank& rank = ranks_[r];
            const int64_t t0 = bench::NowNs();
            for (int i = 0; i < ops; ++i) {
                Check(HcclAllReduce(rank.send, rank.recv, count, HCCL_DATA_TYPE_FP32,
                                    HCCL_REDUCE_SUM, rank.comm, rank.stream) == HCCL_SUCCESS,
                      "HcclAllReduce");
                if (sync_each)
                    Check(aclrtSynchronizeStream(rank.stream) == ACL_SUCCESS, "synchronize");
            }
            if (!sync_each)
                Check(aclrtSynchronizeStream(rank.stream) == ACL_SUCCESS, "synchronize");
            if (r == 0) elapsed.store(bench::NowNs() - t0);
        });
        return elapsed.load();
    }

    // Every rank's first and last result elements are N.
    bool ResultsAre(float value, size_t bytes) {
        std::atomic<bool> ok{true};
        threads_.Run([&](uint32_t r) {
            float first = 0, last = 0;
            const size_t last_offset = bytes - sizeof(float);
            aclrtMemcpy(&first, sizeof first, ranks_[r].recv, sizeof first,
                        ACL_MEMCPY_DEVICE_TO_HOST);
            aclrtMemcpy(&last, sizeof last, static_cast<char*>(ranks_[r].recv) + last_offset,
                        sizeof last, ACL_MEMCPY_DEVICE_TO_HOST);
            if (first != value || last != value) ok = false;
        });
        return ok.load();
    }

 private:
    RankThreads threads_;
    std::vector<HcclRank> ranks_;
};

// Made on first use, kept for the later benchmarks, destroyed before aclFinalize.
std::unique_ptr<HcclRanks> g_hccl[kMaxRanks + 1];

HcclRanks& Hccl(uint32_t n) {
    if (!g_hccl[n]) g_hccl[n] = std::make_unique<HcclRanks>(n);
    return *g_hccl[n];
}

void SetBandwidth(benchmark::State& state, uint32_t n, int64_t op_ns, int64_t ops, int64_t copy_ns,
                  int64_t copies) {
    const double op_s = static_cast<double>(op_ns) / static_cast<double>(ops) * 1e-9;
    const double algbw = static_cast<double>(kLargeBytes) / op_s * 1e-9;
    const double busbw = algbw * 2.0 * (n - 1) / n;
    state.counters["algbw_gbs"] = algbw;
    state.counters["busbw_gbs"] = busbw;
    if (copies > 0) {
        const double copy_s = static_cast<double>(copy_ns) / static_cast<double>(copies) * 1e-9;
        const double memcpy_gbs = static_cast<double>(kLargeBytes) / copy_s * 1e-9;
        state.counters["memcpy_gbs"] = memcpy_gbs;
        state.counters["busbw_vs_memcpy"] = busbw / memcpy_gbs;
    }
}

void BM_Memcpy16MiB(benchmark::State& state) {
    Memcpy16MiB copy;
    int64_t ns = 0;
    for (auto _ : state) {
        const int64_t t = copy.Run();
        ns += t;
        state.SetIterationTime(static_cast<double>(t) * 1e-9);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kLargeBytes));
    state.counters["gbs"] = static_cast<double>(kLargeBytes) *
                            static_cast<double>(state.iterations()) / static_cast<double>(ns);
}

void BM_HcclAllReduce16MiB(benchmark::State& state) {
    const auto n = static_cast<uint32_t>(state.range(0));
    HcclRanks& ranks = Hccl(n);
    Memcpy16MiB copy;
    constexpr int kOps = 4;
    ranks.AllReduce(kLargeBytes, 1, false);  // warm: first touches of the buffers
    int64_t op_ns = 0, copy_ns = 0, ops = 0, copies = 0;
    bool copy_first = false;
    for (auto _ : state) {
        if (copy_first) copy_ns += copy.Run(), ++copies;
        const int64_t t = ranks.AllReduce(kLargeBytes, kOps, false);
        if (!copy_first) copy_ns += copy.Run(), ++copies;
        copy_first = !copy_first;
        op_ns += t;
        ops += kOps;
        state.SetIterationTime(static_cast<double>(t) * 1e-9 / kOps);
    }
    Check(ranks.ResultsAre(static_cast<float>(n), kLargeBytes), "the AllReduce result");
    SetBandwidth(state, n, op_ns, ops, copy_ns, copies);
}

void BM_HcclAllReduce8B(benchmark::State& state, bool sync_each) {
    const auto n = static_cast<uint32_t>(state.range(0));
    HcclRanks& ranks = Hccl(n);
    const int ops = sync_each ? 500 : 2000;
    ranks.AllReduce(kSmallBytes, 10, sync_each);
    for (auto _ : state) {
        const int64_t t = ranks.AllReduce(kSmallBytes, ops, sync_each);
        state.SetIterationTime(static_cast<double>(t) * 1e-9 / ops);
    }
    Check(ranks.ResultsAre(static_cast<float>(n), kSmallBytes), "the AllReduce result");
}

void BM_HcclAllReduce8BBackToBack(benchmark::State& state) {
    BM_HcclAllReduce8B(state, false);
}
void BM_HcclAllReduce8BRoundTrip(benchmark::State& state) {
    BM_HcclAllReduce8B(state, true);
}

BENCHMARK(BM_Memcpy16MiB)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.2)
    ->Repetitions(3)
    ->DisplayAggregatesOnly(true);
BENCHMARK(BM_HcclAllReduce16MiB)
    ->ArgName("ranks")
    ->Arg(2)
    ->Arg(4)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(10)
    ->Repetitions(3)
    ->DisplayAggregatesOnly(true);
BENCHMARK(BM_HcclAllReduce8BBackToBack)
    ->ArgName("ranks")
    ->Arg(2)
    ->Arg(4)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20)
    ->Repetitions(3)
    ->DisplayAggregatesOnly(true);
BENCHMARK(BM_HcclAllReduce8BRoundTrip)
    ->ArgName("ranks")
    ->Arg(2)
    ->Arg(4)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20)
    ->Repetitions(3)
    ->DisplayAggregatesOnly(true);

// ---- Gloo, the peer -----------------------------------------------------------------------------
#ifdef OPENACL_BENCH_GLOO

// N Gloo ranks (threads) in one full mesh over TCP on 127.0.0.1, with 16 MiB buffers each.
class GlooRanks {
 public:
    explicit GlooRanks(uint32_t n) : threads_(n), contexts_(n), send_(n), recv_(n) {
        gloo::rendezvous::HashStore store;
        gloo::transport::tcp::attr attr;
        attr.hostname = "127.0.0.1";  // loopback only, never the machine's other interfaces
        threads_.Run([&](uint32_t r) {
            auto device = gloo::transport::tcp::CreateDevice(attr);
            auto context = std::make_shared<gloo::rendezvous::Context>(static_cast<int>(r),
                                                                       static_cast<int>(n));
            context->connectFullMesh(store, device);
            contexts_[r] = std::move(context);
            send_[r].assign(kLargeBytes / sizeof(float), 1.0f);
            recv_[r].assign(kLargeBytes / sizeof(float), 0.0f);
        });
    }
    ~GlooRanks() {
        threads_.Run([&](uint32_t r) { contexts_[r].reset(); });
    }

    int64_t AllReduce(size_t bytes, int ops) {
        std::atomic<int64_t> elapsed{0};
        const size_t count = bytes / sizeof(float);
        threads_.Run([&](uint32_t r) {
            const int64_t t0 = bench::NowNs();
            for (int i = 0; i < ops; ++i) {
                gloo::AllreduceOptions options(contexts_[r]);
                options.setInput(send_[r].data(), count);
                options.setOutput(recv_[r].data(), count);
                void (*sum)(void*, const void*, const void*, size_t) = &gloo::sum<float>;
                options.setReduceFunction(sum);
                options.setTag(static_cast<uint32_t>(i));
                gloo::allreduce(options);
            }
            if (r == 0) elapsed.store(bench::NowNs() - t0);
        });
        return elapsed.load();
    }

    bool ResultsAre(float value, size_t bytes) const {
        for (const std::vector<float>& recv : recv_) {
            if (recv[0] != value || recv[bytes / sizeof(float) - 1] != value) return false;
        }
        return true;
    }

 private:
    RankThreads threads_;
    std::vector<std::shared_ptr<gloo::rendezvous::Context>> contexts_;
    std::vector<std::vector<float>> send_, recv_;
};

std::unique_ptr<GlooRanks> g_gloo[kMaxRanks + 1];

GlooRanks& Gloo(uint32_t n) {
    if (!g_gloo[n]) g_gloo[n] = std::make_unique<GlooRanks>(n);
    return *g_gloo[n];
}

void BM_GlooAllReduce16MiB(benchmark::State& state) {
    const auto n = static_cast<uint32_t>(state.range(0));
    GlooRanks& ranks = Gloo(n);
    Memcpy16MiB copy;
    constexpr int kOps = 2;
    ranks.AllReduce(kLargeBytes, 1);
    int64_t op_ns = 0, copy_ns = 0, ops = 0, copies = 0;
    for (auto _ : state) {
        const int64_t t = ranks.AllReduce(kLargeBytes, kOps);
        copy_ns += copy.Run();
        ++copies;
        op_ns += t;
        ops += kOps;
        state.SetIterationTime(static_cast<double>(t) * 1e-9 / kOps);
    }
    Check(ranks.ResultsAre(static_cast<float>(n), kLargeBytes), "Gloo's allreduce result");
    SetBandwidth(state, n, op_ns, ops, copy_ns, copies);
}

void BM_GlooAllReduce8B(benchmark::State& state) {
    const auto n = static_cast<uint32_t>(state.range(0));
    GlooRanks& ranks = Gloo(n);
    constexpr int kOps = 200;
    ranks.AllReduce(kSmallBytes, 10);
    for (auto _ : state) {
        const int64_t t = ranks.AllReduce(kSmallBytes, kOps);
        state.SetIterationTime(static_cast<double>(t) * 1e-9 / kOps);
    }
    Check(ranks.ResultsAre(static_cast<float>(n), kSmallBytes), "Gloo's allreduce result");
}

BENCHMARK(BM_GlooAllReduce16MiB)
    ->ArgName("ranks")
    ->Arg(2)
    ->Arg(4)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(5)
    ->Repetitions(3)
    ->DisplayAggregatesOnly(true);
BENCHMARK(BM_GlooAllReduce8B)
    ->ArgName("ranks")
    ->Arg(2)
    ->Arg(4)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(10)
    ->Repetitions(3)
    ->DisplayAggregatesOnly(true);
#endif

}  // namespace

int main(int argc, char** argv) {
    // One virtual device per rank (unless the caller chose a count).
    setenv("OPENACL_DEVICE_COUNT", std::to_string(kMaxRanks).c_str(), 0);
    Check(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    for (auto& ranks : g_hccl)
        ranks.reset();
#ifdef OPENACL_BENCH_GLOO
    for (auto& ranks : g_gloo)
        ranks.reset();
#endif
    aclFinalize();
    return 0;
}
