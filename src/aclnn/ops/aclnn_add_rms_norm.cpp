// aclnnop/aclnn_add_rms_norm.h: xOut = x1 + x2 (in x1's type), then RmsNorm of that sum:
// yOut = x / sqrt(mean(x^2) + epsilon) * gamma over gamma's dimensions, rstdOut (float32) =
// 1 / sqrt(mean(x^2) + epsilon) per row. rstdOut and xOut may be null (not computed), but
// rstdOut without xOut is refused, as CANN does.
#include "aclnnop/aclnn_add_rms_norm.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/normalization.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {

namespace {

constexpr auto kRmsTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// 161002 unless view has x1's type and shape.
aclnnStatus LikeX1(const TensorView& view, const TensorView& x1) {
    if (view.dtype != x1.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s but x1 is %s: they must be alike", view.name,
                    ops::DtypeName(view.dtype), ops::DtypeName(x1.dtype));
    }
    return CheckShape(view, x1.shape);
}

aclnnStatus PlanAddRmsNorm(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                           double epsilon, const aclTensor* yOut, const aclTensor* rstdOut,
                           const aclTensor* xOut, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(x1, "x1"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(x2, "x2"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(gamma, "gamma"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(yOut, "yOut"); rc != ACLNN_SUCCESS) return rc;
    if (rstdOut != nullptr && xOut == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "xOut is null but rstdOut is not: give both");
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView v1, v2, vg, vy, vr, vx;
    if (aclnnStatus rc = ViewOf(x1, "x1", &v1); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(x2, "x2", &v2); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(gamma, "gamma", &vg); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(yOut, "yOut", &vy); rc != ACLNN_SUCCESS) return rc;
    if (rstdOut != nullptr) {
        if (aclnnStatus rc = ViewOf(rstdOut, "rstdOut", &vr); rc != ACLNN_SUCCESS) return rc;
        if (aclnnStatus rc = CheckDtype(vr, {ACL_FLOAT}); rc != ACLNN_SUCCESS) return rc;
    }
    if (xOut != nullptr) {
        if (aclnnStatus rc = ViewOf(xOut, "xOut", &vx); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = CheckDtype(v1, kRmsTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = LikeX1(v2, v1); rc != ACLNN_SUCCESS) return rc;
    if (vg.dtype != v1.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "gamma is %s but x1 is %s: they must be alike",
                    ops::DtypeName(vg.dtype), ops::DtypeName(v1.dtype));
    }
    if (aclnnStatus rc = LikeX1(vy, v1); rc != ACLNN_SUCCESS) return rc;
    if (xOut != nullptr) {
        if (aclnnStatus rc = LikeX1(vx, v1); rc != ACLNN_SUCCESS) return rc;
    }
    NormPlan plan;
    if (aclnnStatus rc = SplitRows(v1, vg, &plan.rows, &plan.cols); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (rstdOut != nullptr) {
        if (aclnnStatus rc = CheckRowCount(
                vr, plan.rows, "x1's shape with gamma's dimensions set to 1 (or dropped)");
            rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    plan.api = "aclnnAddRmsNorm";
    plan.kind = NormKind::kRms;
    plan.views[0] = &v1;
    plan.tensors[0] = x1;
    plan.views[1] = &v2;
    plan.tensors[1] = x2;
    plan.views[2] = &vg;
    plan.tensors[2] = gamma;
    plan.views[3] = &vy;
    plan.tensors[3] = yOut;
    if (rstdOut != nullptr) {
        plan.views[4] = &vr;
        plan.tensors[4] = rstdOut;
    }
    if (xOut != nullptr) {
        plan.views[5] = &vx;
        plan.tensors[5] = xOut;
    }
    plan.eps = epsilon;
    return FinishNorm(plan, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                            const aclTensor* gamma, double epsilon,
                                            const aclTensor* yOut, const aclTensor* rstdOut,
                                            const aclTensor* xOut, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanAddRmsNorm(x1, x2, gamma, epsilon, yOut, rstdOut, xOut,
                                          workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(AddRmsNorm)
