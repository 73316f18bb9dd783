// Data-parallel training with HCCL: each device holds its own shard of the data and a replica
// of a linear model; every step computes the gradient on the shard with aclnn operators,
// sums the gradients of all devices with HcclAllReduce, and applies the same update
// everywhere, so the replicas stay identical. Ranks are threads, one device each, as HCCL's
// own examples run them: HcclGetRootInfo on the main thread, HcclCommInitRootInfo per rank.
// On openacl the devices are virtual (OPENACL_DEVICE_COUNT=2 gives two).
//   c++ hccl_data_parallel.cpp -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 -lhccl
//       -lacl_rt -lnnopbase -lopapi -pthread
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_sub.h"
#include "hccl/hccl.h"

#define CHECK(call)                                                                       \
    do {                                                                                  \
        const int rc_ = (call);                                                           \
        if (rc_ != 0) {                                                                   \
            const char* why_ = aclGetRecentErrMsg();                                      \
            std::printf("%s failed (%d): %s\n", #call, rc_, why_ != nullptr ? why_ : ""); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

namespace {

constexpr int64_t kFeatures = 4;
constexpr int64_t kSamplesPerRank = 256;
constexpr int kSteps = 300;
constexpr float kLearningRate = 0.1f;
const float kTrueWeights[kFeatures] = {2.0f, -3.0f, 0.5f, 1.0f};

// A float tensor over `device` memory with the given shape and strides (elements).
aclTensor* Tensor(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                  void* device, int64_t storage) {
    return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                           &storage, 1, device);
}

// An aclnn executor made once and run every step.
struct Step {
    aclOpExecutor* executor = nullptr;
    uint64_t workspace_size = 0;
    void* workspace = nullptr;
};

int Prepare(aclnnStatus first_phase, Step* step) {
    CHECK(first_phase);
    CHECK(aclSetAclOpExecutorRepeatable(step->executor));
    if (step->workspace_size > 0)
        CHECK(aclrtMalloc(&step->workspace, step->workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
    return 0;
}

struct Result {
    int rc = 1;
    std::vector<float> weights;
    std::vector<float> losses;
};

int Train(uint32_t rank, uint32_t ranks, const HcclRootInfo& root, Result* result) {
    CHECK(aclrtSetDevice(static_cast<int32_t>(rank)));
    HcclComm comm = nullptr;
    CHECK(HcclCommInitRootInfo(ranks, &root, rank, &comm));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    // This rank's shard: y = X * w_true, X row-major [samples, features].
    std::mt19937 random(1234 + rank);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> x(kSamplesPerRank * kFeatures), y(kSamplesPerRank);
    for (int64_t i = 0; i < kSamplesPerRank; ++i) {
        float sum = 0;
        for (int64_t j = 0; j < kFeatures; ++j) {
            x[i * kFeatures + j] = uniform(random);
            sum += x[i * kFeatures + j] * kTrueWeights[j];
        }
        y[i] = sum;
    }
    void *x_dev, *y_dev, *w_dev, *pred_dev, *err_dev, *grad_dev;
    CHECK(aclrtMalloc(&x_dev, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y_dev, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&w_dev, kFeatures * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&pred_dev, kSamplesPerRank * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&err_dev, kSamplesPerRank * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&grad_dev, kFeatures * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(x_dev, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y_dev, y.size() * 4, y.data(), y.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset(w_dev, kFeatures * 4, 0, kFeatures * 4));

    aclTensor* xs = Tensor({kSamplesPerRank, kFeatures}, {kFeatures, 1}, x_dev, x.size());
    aclTensor* xt = Tensor({kFeatures, kSamplesPerRank}, {1, kFeatures}, x_dev, x.size());
    aclTensor* ys = Tensor({kSamplesPerRank, 1}, {1, 1}, y_dev, kSamplesPerRank);
    aclTensor* w = Tensor({kFeatures, 1}, {1, 1}, w_dev, kFeatures);
    aclTensor* pred = Tensor({kSamplesPerRank, 1}, {1, 1}, pred_dev, kSamplesPerRank);
    aclTensor* err = Tensor({kSamplesPerRank, 1}, {1, 1}, err_dev, kSamplesPerRank);
    aclTensor* grad = Tensor({kFeatures, 1}, {1, 1}, grad_dev, kFeatures);
    const float one = 1.0f;
    // The gradient of the mean squared error over every rank's samples: 2/N * X^T (Xw - y).
    const float step_scale = -kLearningRate * 2.0f / static_cast<float>(kSamplesPerRank * ranks);
    aclScalar* alpha_one = aclCreateScalar(const_cast<float*>(&one), ACL_FLOAT);
    aclScalar* alpha_step = aclCreateScalar(const_cast<float*>(&step_scale), ACL_FLOAT);

    Step forward, residual, backward, update;
    if (Prepare(
            aclnnMatmulGetWorkspaceSize(xs, w, pred, 0, &forward.workspace_size, &forward.executor),
            &forward) != 0 ||
        Prepare(aclnnSubGetWorkspaceSize(pred, ys, alpha_one, err, &residual.workspace_size,
                                         &residual.executor),
                &residual) != 0 ||
        Prepare(aclnnMatmulGetWorkspaceSize(xt, err, grad, 0, &backward.workspace_size,
                                            &backward.executor),
                &backward) != 0 ||
        Prepare(aclnnAddGetWorkspaceSize(w, grad, alpha_step, w, &update.workspace_size,
                                         &update.executor),
                &update) != 0) {
        return 1;
    }

    void* loss_dev = nullptr;
    CHECK(aclrtMalloc(&loss_dev, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<float> residuals(kSamplesPerRank);
    for (int step = 0; step < kSteps; ++step) {
        CHECK(aclnnMatmul(forward.workspace, forward.workspace_size, forward.executor, stream));
        CHECK(aclnnSub(residual.workspace, residual.workspace_size, residual.executor, stream));
        CHECK(aclnnMatmul(backward.workspace, backward.workspace_size, backward.executor, stream));
        // Every replica applies the sum of all shards' gradients.
        CHECK(HcclAllReduce(grad_dev, grad_dev, kFeatures, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                            comm, stream));
        CHECK(aclnnAdd(update.workspace, update.workspace_size, update.executor, stream));
        if (step % 50 == 0 || step == kSteps - 1) {
            // The loss over all shards: each rank's sum of squares, summed by HCCL.
            CHECK(aclrtMemcpyAsync(residuals.data(), residuals.size() * 4, err_dev,
                                   residuals.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST, stream));
            CHECK(aclrtSynchronizeStream(stream));
            float squares = 0;
            for (float r : residuals)
                squares += r * r;
            CHECK(aclrtMemcpy(loss_dev, 4, &squares, 4, ACL_MEMCPY_HOST_TO_DEVICE));
            CHECK(HcclAllReduce(loss_dev, loss_dev, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm,
                                stream));
            CHECK(aclrtMemcpyAsync(&squares, 4, loss_dev, 4, ACL_MEMCPY_DEVICE_TO_HOST, stream));
            CHECK(aclrtSynchronizeStream(stream));
            result->losses.push_back(squares / static_cast<float>(kSamplesPerRank * ranks));
        }
    }
    CHECK(aclrtSynchronizeStream(stream));
    result->weights.resize(kFeatures);
    CHECK(aclrtMemcpy(result->weights.data(), kFeatures * 4, w_dev, kFeatures * 4,
                      ACL_MEMCPY_DEVICE_TO_HOST));

    for (Step* s : {&forward, &residual, &backward, &update}) {
        aclDestroyAclOpExecutor(s->executor);
        aclrtFree(s->workspace);
    }
    for (aclTensor* t : {xs, xt, ys, w, pred, err, grad})
        aclDestroyTensor(t);
    aclDestroyScalar(alpha_one);
    aclDestroyScalar(alpha_step);
    for (void* p : {x_dev, y_dev, w_dev, pred_dev, err_dev, grad_dev, loss_dev})
        aclrtFree(p);
    CHECK(aclrtDestroyStream(stream));
    CHECK(HcclCommDestroy(comm));
    CHECK(aclrtResetDevice(static_cast<int32_t>(rank)));
    result->rc = 0;
    return 0;
}

}  // namespace

int main() {
    CHECK(aclInit(nullptr));
    uint32_t devices = 0;
    CHECK(aclrtGetDeviceCount(&devices));
    const uint32_t ranks = devices >= 2 ? 2 : 1;
    std::printf("training on %u device(s)%s\n", ranks,
                ranks == 1 ? " (set OPENACL_DEVICE_COUNT=2 for two)" : "");

    // The root info is made on the main thread with device 0 set, then shared with the ranks.
    CHECK(aclrtSetDevice(0));
    HcclRootInfo root;
    CHECK(HcclGetRootInfo(&root));
    std::vector<Result> results(ranks);
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] { Train(r, ranks, root, &results[r]); });
    for (std::thread& t : threads)
        t.join();

    bool ok = true;
    for (uint32_t r = 0; r < ranks; ++r) {
        ok = ok && results[r].rc == 0;
        if (results[r].rc != 0) continue;
        if (r == 0) {
            for (size_t i = 0; i < results[0].losses.size(); ++i)
                std::printf("loss %.6f\n", results[0].losses[i]);
        }
        std::printf("rank %u weights:", r);
        for (int64_t j = 0; j < kFeatures; ++j) {
            std::printf(" %.4f", results[r].weights[j]);
            ok = ok && std::fabs(results[r].weights[j] - kTrueWeights[j]) < 1e-3f &&
                 results[r].weights[j] == results[0].weights[j];
        }
        std::printf("\n");
    }
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    std::printf(ok ? "data-parallel training OK\n" : "data-parallel training FAILED\n");
    return ok ? 0 : 1;
}
