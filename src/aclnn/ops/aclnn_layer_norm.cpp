// aclnnop/aclnn_layer_norm.h: out = (input - mean) / sqrt(var + eps) * weight + bias over the
// last dimensions of input (normalizedShape); meanOutOptional and rstdOutOptional get the mean
// and 1 / sqrt(var + eps) of each row. The variance is the population one. implMode (0 high
// precision, 1 high performance, 2 keep float16) only picks the device's kernel: openacl always
// computes in double.
#include "aclnnop/aclnn_layer_norm.h"

#include <cinttypes>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/normalization.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

constexpr auto kLayerNormTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

// weight and bias: float32 or input's type, `normalizedShape` as their shape.
aclnnStatus CheckAffine(const TensorView& view, const TensorView& input,
                        const aclIntArray* normalizedShape) {
    if (aclnnStatus rc = CheckDtype(view, kLayerNormTypes); rc != ACLNN_SUCCESS) return rc;
    if (view.dtype != ACL_FLOAT && view.dtype != input.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s is %s and input is %s: it must be input's type or float32", view.name,
                    ops::DtypeName(view.dtype), ops::DtypeName(input.dtype));
    }
    bool same = view.shape.rank == static_cast<int>(normalizedShape->values.size());
    for (int d = 0; same && d < view.shape.rank; ++d) {
        same = view.shape.dims[d] == normalizedShape->values[static_cast<size_t>(d)];
    }
    if (same) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has shape %s but normalizedShape has %zu values",
                view.name, ShapeText(view.shape), normalizedShape->values.size());
}

aclnnStatus PlanLayerNorm(const char* api, const aclTensor* input,
                          const aclIntArray* normalizedShape, const aclTensor* weightOptional,
                          const aclTensor* biasOptional, double eps, const aclTensor* out,
                          const aclTensor* meanOutOptional, const aclTensor* rstdOutOptional,
                          int32_t implMode, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(input, "input"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(normalizedShape, "normalizedShape");
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView vi, vw, vb, vo, vm, vr;
    if (aclnnStatus rc = ViewOf(input, "input", &vi); rc != ACLNN_SUCCESS) return rc;
    if (weightOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(weightOptional, "weightOptional", &vw); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (biasOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(biasOptional, "biasOptional", &vb); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (aclnnStatus rc = ViewOf(out, "out", &vo); rc != ACLNN_SUCCESS) return rc;
    if (meanOutOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(meanOutOptional, "meanOutOptional", &vm); rc != ACLNN_SUCCESS) {
            return rc;
        }
        if (aclnnStatus rc = CheckDtype(vm, kLayerNormTypes); rc != ACLNN_SUCCESS) return rc;
    }
    if (rstdOutOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(rstdOutOptional, "rstdOutOptional", &vr); rc != ACLNN_SUCCESS) {
            return rc;
        }
        if (aclnnStatus rc = CheckDtype(vr, kLayerNormTypes); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = CheckDtype(vi, kLayerNormTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(vo, kLayerNormTypes); rc != ACLNN_SUCCESS) return rc;
    const auto norm_rank = static_cast<int>(normalizedShape->values.size());
    if (norm_rank < 1 || norm_rank > ops::kMaxDims) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "normalizedShape has %d values: it takes 1 to %d",
                    norm_rank, ops::kMaxDims);
    }
    if (norm_rank > vi.shape.rank) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "normalizedShape has %d values but input has only %d dimensions", norm_rank,
                    vi.shape.rank);
    }
    const int begin = vi.shape.rank - norm_rank;
    for (int d = 0; d < norm_rank; ++d) {
        const int64_t want = normalizedShape->values[static_cast<size_t>(d)];
        if (want != vi.shape.dims[begin + d]) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "normalizedShape[%d] is %" PRId64 " but input %s has %" PRId64
                        " in dimension %d: normalizedShape must be input's last dimensions",
                        d, want, ShapeText(vi.shape), vi.shape.dims[begin + d], begin + d);
        }
    }
    if (weightOptional != nullptr) {
        if (aclnnStatus rc = CheckAffine(vw, vi, normalizedShape); rc != ACLNN_SUCCESS) return rc;
    }
    if (biasOptional != nullptr) {
        if (aclnnStatus rc = CheckAffine(vb, vi, normalizedShape); rc != ACLNN_SUCCESS) return rc;
    }
    if (weightOptional != nullptr && biasOptional != nullptr && vw.dtype != vb.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "weightOptional is %s but biasOptional is %s: they must be alike",
                    ops::DtypeName(vw.dtype), ops::DtypeName(vb.dtype));
    }
    if (aclnnStatus rc = CheckShape(vo, vi.shape); rc != ACLNN_SUCCESS) return rc;
    NormPlan plan;
    plan.rows = Product(vi.shape, 0, begin);
    plan.cols = Product(vi.shape, begin, vi.shape.rank);
    const char* stat_shape = "input's shape with normalizedShape's dimensions set to 1";
    if (meanOutOptional != nullptr) {
        if (aclnnStatus rc = CheckRowCount(vm, plan.rows, stat_shape); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (rstdOutOptional != nullptr) {
        if (aclnnStatus rc = CheckRowCount(vr, plan.rows, stat_shape); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (implMode < 0 || implMode > 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "implMode is %d: it must be 0 (high precision), 1 (high performance) or 2 "
                    "(keep float16)",
                    implMode);
    }
    if (implMode == 2 &&
        (vi.dtype != ACL_FLOAT16 || (weightOptional != nullptr && vw.dtype != ACL_FLOAT16) ||
         (biasOptional != nullptr && vb.dtype != ACL_FLOAT16))) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "implMode 2 (keep float16) takes float16 input, weight and bias only");
    }
    plan.api = api;
    plan.kind = NormKind::kLayer;
    plan.views[0] = &vi;
    plan.tensors[0] = input;
    if (weightOptional != nullptr) {
        plan.views[1] = &vw;
        plan.tensors[1] = weightOptional;
    }
    if (biasOptional != nullptr) {
        plan.views[2] = &vb;
        plan.tensors[2] = biasOptional;
    }
    plan.views[3] = &vo;
    plan.tensors[3] = out;
    if (meanOutOptional != nullptr) {
        plan.views[4] = &vm;
        plan.tensors[4] = meanOutOptional;
    }
    if (rstdOutOptional != nullptr) {
        plan.views[5] = &vr;
        plan.tensors[5] = rstdOutOptional;
    }
    plan.eps = eps;
    return FinishNorm(plan, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanLayerNorm("aclnnLayerNorm", input, normalizedShape, weightOptional,
                                         biasOptional, eps, out, meanOutOptional, rstdOutOptional,
                                         0, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(LayerNorm)

aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, int32_t implMode, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanLayerNorm("aclnnLayerNormWithImplMode", input, normalizedShape,
                                         weightOptional, biasOptional, eps, out, meanOutOptional,
                                         rstdOutOptional, implMode, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(LayerNormWithImplMode)
