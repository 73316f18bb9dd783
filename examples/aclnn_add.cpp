// Adding two tensors with an aclnn operator, the way CANN's first runtime example does:
// describe device memory as aclTensors, ask the operator for its workspace and an executor
// (first phase), run it on a stream (second phase), synchronise and read the result.
// Build against an installed tree (after source set_env.sh):
//   c++ aclnn_add.cpp -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 -lacl_rt
//       -lnnopbase -lopapi
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

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

// A contiguous float tensor over device memory filled from `values`.
int MakeTensor(const std::vector<int64_t>& shape, const std::vector<float>& values, void** device,
               aclTensor** tensor) {
    const size_t bytes = values.size() * sizeof(float);
    CHECK(aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(*device, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size() - 1; i > 0; --i)
        strides[i - 1] = strides[i] * shape[i];
    *tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0,
                              ACL_FORMAT_ND, shape.data(), shape.size(), *device);
    return *tensor != nullptr ? 0 : 1;
}

}  // namespace

int main() {
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    const std::vector<int64_t> shape = {4, 2};
    const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7}, y = {1, 1, 1, 1, 2, 2, 2, 2};
    void *x_dev = nullptr, *y_dev = nullptr, *out_dev = nullptr;
    aclTensor *self = nullptr, *other = nullptr, *out = nullptr;
    CHECK(MakeTensor(shape, x, &x_dev, &self));
    CHECK(MakeTensor(shape, y, &y_dev, &other));
    CHECK(MakeTensor(shape, std::vector<float>(8, 0), &out_dev, &out));
    float alpha_value = 1.5f;
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);

    // First phase: checks the arguments, sizes the workspace, plans the work.
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    CHECK(aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspace_size, &executor));
    void* workspace = nullptr;
    if (workspace_size > 0) {
        CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    // Second phase: queues the addition on the stream (and consumes the executor).
    CHECK(aclnnAdd(workspace, workspace_size, executor, stream));
    CHECK(aclrtSynchronizeStream(stream));

    std::vector<float> result(8);
    CHECK(aclrtMemcpy(result.data(), result.size() * sizeof(float), out_dev,
                      result.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    bool ok = true;
    for (size_t i = 0; i < result.size(); ++i) {
        std::printf("%g + 1.5 * %g = %g\n", x[i], y[i], result[i]);
        ok = ok && result[i] == x[i] + 1.5f * y[i];
    }

    aclDestroyTensor(self);
    aclDestroyTensor(other);
    aclDestroyTensor(out);
    aclDestroyScalar(alpha);
    aclrtFree(workspace);
    aclrtFree(x_dev);
    aclrtFree(y_dev);
    aclrtFree(out_dev);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    std::printf(ok ? "aclnnAdd OK\n" : "aclnnAdd gave a wrong result\n");
    return ok ? 0 : 1;
}
