// aclnnMatmul and aclnnBatchMatMul (float32) next to oneDNN's matmul primitive, the kernel
// behind them, called directly in the same process on the same shapes and layouts.
//
//   dnnl:  a primitive created once, executed and waited for.
//   aclnn: what ggml and torch_npu do per call: phase 1 (checks, the plan from the cache),
//          phase 2 (the task queued on a stream), aclrtSynchronizeStream.
//   reuse: a repeatable executor: phase 2 and the synchronisation only.
//
// Shapes (args m, k, n, batch, transposed weight): square products, a linear layer as llama.cpp's
// CANN backend runs it (the weight [n, k] passed as a transposed [k, n] view) for a batch of
// tokens and for one token, and an attention-sized batched product.
//
// Target: Aclnn within 90% of Dnnl's throughput on the float32 shapes.
#include <benchmark/benchmark.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "bench_common.h"

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

struct Shape {
    int64_t m, k, n, batch;
    bool transposed;  // b is the transpose of a row-major [batch, n, k] weight
    int64_t A() const { return batch * m * k; }
    int64_t B() const { return batch * k * n; }
    int64_t C() const { return batch * m * n; }
    std::vector<int64_t> ADims() const {
        return batch > 1 ? std::vector<int64_t>{batch, m, k} : std::vector<int64_t>{m, k};
    }
    std::vector<int64_t> BDims() const {
        return batch > 1 ? std::vector<int64_t>{batch, k, n} : std::vector<int64_t>{k, n};
    }
    std::vector<int64_t> CDims() const {
        return batch > 1 ? std::vector<int64_t>{batch, m, n} : std::vector<int64_t>{m, n};
    }
    std::vector<int64_t> BStrides() const {
        if (!transposed)
            return batch > 1 ? std::vector<int64_t>{k * n, n, 1} : std::vector<int64_t>{n, 1};
        return batch > 1 ? std::vector<int64_t>{k * n, 1, k} : std::vector<int64_t>{1, k};
    }
};

Shape ShapeOf(const benchmark::State& state) {
    return {state.range(0), state.range(1), state.range(2), state.range(3), state.range(4) != 0};
}

std::vector<float> Filled(int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>((i * 7919) % 17) * 0.0625f - 0.5f;
    return v;
}

// oneDNN's primitive for the shape, created once, on host buffers.
class Direct {
 public:
    explicit Direct(const Shape& s)
        : engine_(dnnl::engine::kind::cpu, 0),
          stream_(engine_),
          ha_(Filled(s.A())),
          hb_(Filled(s.B())),
          hc_(static_cast<size_t>(s.C())) {
        using dnnl::memory;
        const memory::desc a(s.ADims(), memory::data_type::f32,
                             s.batch > 1 ? memory::dims{s.m * s.k, s.k, 1} : memory::dims{s.k, 1});
        const memory::desc b(s.BDims(), memory::data_type::f32, s.BStrides());
        const memory::desc c(s.CDims(), memory::data_type::f32,
                             s.batch > 1 ? memory::dims{s.m * s.n, s.n, 1} : memory::dims{s.n, 1});
        pd_ = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a, b, c), engine_);
        matmul_ = dnnl::matmul(pd_);
        args_ = {{DNNL_ARG_SRC, memory(a, engine_, ha_.data())},
                 {DNNL_ARG_WEIGHTS, memory(b, engine_, hb_.data())},
                 {DNNL_ARG_DST, memory(c, engine_, hc_.data())}};
    }
    void Run() {
        matmul_.execute(stream_, args_);
        stream_.wait();
    }
    const char* implementation() const { return pd_.impl_info_str(); }

 private:
    dnnl::engine engine_;
    dnnl::stream stream_;
    std::vector<float> ha_, hb_, hc_;
    dnnl::matmul::primitive_desc pd_;
    dnnl::matmul matmul_;
    std::unordered_map<int, dnnl::memory> args_;
};

// Device tensors for one shape, and the calls on them.
class Aclnn {
 public:
    explicit Aclnn(const Shape& s) : batched_(s.batch > 1) {
        const std::vector<float> ha = Filled(s.A()), hb = Filled(s.B());
        CHECK_ACL(aclrtMalloc(&da_, ha.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMalloc(&db_, hb.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMalloc(&dc_, static_cast<size_t>(s.C()) * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(
            aclrtMemcpy(da_, ha.size() * 4, ha.data(), ha.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_ACL(
            aclrtMemcpy(db_, hb.size() * 4, hb.data(), hb.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
        const std::vector<int64_t> ad = s.ADims(), bd = s.BDims(), cd = s.CDims();
        const std::vector<int64_t> bs = s.BStrides();
        const int64_t na[1] = {s.A()}, nb[1] = {s.B()}, nc[1] = {s.C()};
        a_ =
            aclCreateTensor(ad.data(), ad.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, na, 1, da_);
        b_ = aclCreateTensor(bd.data(), bd.size(), ACL_FLOAT, bs.data(), 0, ACL_FORMAT_ND, nb, 1,
                             db_);
        c_ =
            aclCreateTensor(cd.data(), cd.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nc, 1, dc_);
        CHECK_ACL(aclrtCreateStream(&stream_));
        uint64_t size = 0;
        CHECK_ACL(Phase1(&size, &repeatable_));
        CHECK_ACL(aclSetAclOpExecutorRepeatable(repeatable_));
        Workspace(size);
    }
    ~Aclnn() {
        aclDestroyAclOpExecutor(repeatable_);
        aclDestroyTensor(a_);
        aclDestroyTensor(b_);
        aclDestroyTensor(c_);
        aclrtFree(da_);
        aclrtFree(db_);
        aclrtFree(dc_);
        if (workspace_ != nullptr) aclrtFree(workspace_);
        aclrtDestroyStream(stream_);
    }
    // What a client does per call: both phases, then waits.
    void Run() {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        CHECK_ACL(Phase1(&size, &executor));
        CHECK_ACL(Phase2(Workspace(size), size, executor));
        CHECK_ACL(aclrtSynchronizeStream(stream_));
    }
    // The second phase of a repeatable executor, then waits.
    void Reuse() {
        CHECK_ACL(Phase2(workspace_, workspace_bytes_, repeatable_));
        CHECK_ACL(aclrtSynchronizeStream(stream_));
    }

 private:
    aclnnStatus Phase1(uint64_t* size, aclOpExecutor** executor) {
        return batched_ ? aclnnBatchMatMulGetWorkspaceSize(a_, b_, c_, 1, size, executor)
                        : aclnnMatmulGetWorkspaceSize(a_, b_, c_, 1, size, executor);
    }
    aclnnStatus Phase2(void* workspace, uint64_t size, aclOpExecutor* executor) {
        return batched_ ? aclnnBatchMatMul(workspace, size, executor, stream_)
                        : aclnnMatmul(workspace, size, executor, stream_);
    }
    void* Workspace(uint64_t bytes) {
        if (bytes > workspace_bytes_) {
            if (workspace_ != nullptr) aclrtFree(workspace_);
            CHECK_ACL(aclrtMalloc(&workspace_, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
            workspace_bytes_ = bytes;
        }
        return workspace_;
    }

    bool batched_;
    void *da_ = nullptr, *db_ = nullptr, *dc_ = nullptr, *workspace_ = nullptr;
    uint64_t workspace_bytes_ = 0;
    aclTensor *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
    aclrtStream stream_ = nullptr;
    aclOpExecutor* repeatable_ = nullptr;
};

// Each iteration times the three, in a rotating order, so drifts of a shared machine hit all
// alike. Counters: milliseconds per product, and each aclnn form's throughput as a fraction of
// oneDNN's (>= 0.9 is the target).
void BM_MatmulVsDnnl(benchmark::State& state) {
    const Shape s = ShapeOf(state);
    Direct direct(s);
    Aclnn aclnn(s);
    direct.Run();  // first runs: page faults, oneDNN's kernel generation
    aclnn.Run();
    aclnn.Reuse();
    int64_t ns[3] = {0, 0, 0};
    int turn = 0;
    for (auto _ : state) {
        for (int i = 0; i < 3; ++i) {
            const int which = (turn + i) % 3;
            const int64_t t0 = NowNs();
            if (which == 0) direct.Run();
            if (which == 1) aclnn.Run();
            if (which == 2) aclnn.Reuse();
            ns[which] += NowNs() - t0;
        }
        ++turn;
    }
    const double n = static_cast<double>(state.iterations());
    state.counters["dnnl_ms"] = static_cast<double>(ns[0]) / n * 1e-6;
    state.counters["aclnn_ms"] = static_cast<double>(ns[1]) / n * 1e-6;
    state.counters["reuse_ms"] = static_cast<double>(ns[2]) / n * 1e-6;
    state.counters["aclnn_vs_dnnl"] = static_cast<double>(ns[0]) / static_cast<double>(ns[1]);
    state.counters["reuse_vs_dnnl"] = static_cast<double>(ns[0]) / static_cast<double>(ns[2]);
    state.counters["dnnl_GFLOPS"] =
        2.0 * static_cast<double>(s.m * s.n * s.k * s.batch) * n / static_cast<double>(ns[0]);
    state.SetLabel(direct.implementation());
}

BENCHMARK(BM_MatmulVsDnnl)
    ->ArgNames({"m", "k", "n", "batch", "bT"})
    ->Args({8, 8, 8, 1, 0})  // per-call cost
    ->Args({256, 256, 256, 1, 0})
    ->Args({1024, 1024, 1024, 1, 0})
    ->Args({2048, 2048, 2048, 1, 0})
    ->Args({32, 4096, 4096, 1, 1})  // a linear layer, 32 tokens
    ->Args({1, 4096, 4096, 1, 1})   // one token
    ->Args({128, 64, 128, 32, 0})   // attention scores, 32 heads
    ->MinTime(2.0)
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    benchmark::AddCustomContext("peer", "oneDNN's matmul primitive, called directly");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
