// aclnnop/aclnn_trans_matmul_weight.h: CANN's "matmul-friendly" weights. On an NPU
// aclnnTransMatmulWeight rewrites a weight into FRACTAL_NZ blocks (padded to 16 x 16, so the
// buffer must hold aclnnCalculateMatmulWeightSize(V2) elements) and the matrix products then
// read it as such. openacl keeps every weight in ND layout: TransMatmulWeight queues a task
// that leaves the data as it is (so it stays ordered with the stream's other work, and graph
// capture records it), and the products read an NZ-tagged weight as the ND view it describes
// (op_checks.h, WeightViewOf). The sizes are element counts, as CANN documents them.
#include "aclnnop/aclnn_trans_matmul_weight.h"

#include <cinttypes>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"

using openacl::Fail;

namespace {

constexpr int64_t kNzBlock = 16;  // FRACTAL_NZ's block edge for 16-bit types

// 161001 for null arguments, 161002 unless the shape has low..high dimensions.
aclnnStatus CheckShapeArray(const aclIntArray* tensorShape, const uint64_t* weightTensorSize,
                            size_t low, size_t high) {
    if (aclnnStatus rc = openacl::aclnn::CheckIntArrayObject(tensorShape, "tensorShape");
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (weightTensorSize == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "weightTensorSize is null");
    }
    const size_t rank = tensorShape->values.size();
    if (rank < low || rank > high) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "tensorShape has %zu dimensions: it takes %zu to %zu (batch..., n, k)", rank,
                    low, high);
    }
    for (size_t d = 0; d < rank; ++d) {
        if (tensorShape->values[d] < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "tensorShape's dimension %zu is %" PRId64 ": dimensions are not negative",
                        d, tensorShape->values[d]);
        }
    }
    return ACLNN_SUCCESS;
}

// The product of `dims`, each first rounded up to a multiple of `align[d]`; 161002 on
// overflow.
aclnnStatus Count(const std::vector<int64_t>& dims, const std::vector<int64_t>& align,
                  uint64_t* count) {
    uint64_t total = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
        const auto unit = static_cast<uint64_t>(align[d]);
        const uint64_t dim = (static_cast<uint64_t>(dims[d]) + unit - 1) / unit * unit;
        if (__builtin_mul_overflow(total, dim, &total)) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "tensorShape's element count overflows");
        }
    }
    *count = total;
    return ACLNN_SUCCESS;
}

// Nothing to do: the weight stays in ND layout.
class KeepWeight final : public openacl::aclnn::Operator {
 public:
    int32_t Run(void* const*, void*, std::string*) const override { return 0; }
};

}  // namespace

// CANN's value: the FRACTAL_NZ size of a float16 weight, [batch,] n and k each rounded up to
// 16 (2 or 3 dimensions, as on Atlas A2/A3).
aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape,
                                           uint64_t* weightTensorSize) {
    OPENACL_API();
    if (aclnnStatus rc = CheckShapeArray(tensorShape, weightTensorSize, 2, 3);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    const std::vector<int64_t>& dims = tensorShape->values;
    std::vector<int64_t> align(dims.size(), 1);
    align[dims.size() - 2] = align[dims.size() - 1] = kNzBlock;
    return Count(dims, align, weightTensorSize);
}

// The weight's element count in openacl's ND layout, whatever dataType (2 to 6 dimensions,
// none 0, as CANN checks).
aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                             uint64_t* weightTensorSize) {
    OPENACL_API();
    (void)dataType;
    if (aclnnStatus rc = CheckShapeArray(tensorShape, weightTensorSize, 2, 6);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    const std::vector<int64_t>& dims = tensorShape->values;
    for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] == 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "tensorShape's dimension %zu is 0: the weight may not be empty", d);
        }
    }
    return Count(dims, std::vector<int64_t>(dims.size(), 1), weightTensorSize);
}

aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    if (aclnnStatus rc = CheckTensorObject(mmWeightRef, "mmWeightRef"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView view;
    if (aclnnStatus rc = ViewOf(mmWeightRef, "mmWeightRef", &view); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (view.format != ACL_FORMAT_ND) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "mmWeightRef has format %d: it takes ACL_FORMAT_ND",
                    static_cast<int>(view.format));
    }
    // CANN's types (float16, bfloat16, int8) and float, which llama.cpp's CANN backend sends
    // for float32 models: the layout is kept either way.
    if (aclnnStatus rc = CheckDtype(view, {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_FLOAT});
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    const int rank = view.shape.rank;
    const int most = view.dtype == ACL_INT8 ? 6 : 3;
    if (view.numel > 0 && (rank < 2 || rank > most)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "mmWeightRef has %d dimensions %s: a %s weight has 2 to %d", rank,
                    ShapeText(view.shape), openacl::ops::DtypeName(view.dtype), most);
    }
    ExecutorBuilder builder("aclnnTransMatmulWeight");
    builder.Input(view, mmWeightRef);
    return builder.Finish(std::make_unique<KeepWeight>(), 0, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(TransMatmulWeight)
