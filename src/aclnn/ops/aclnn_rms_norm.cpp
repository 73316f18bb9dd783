// aclnnop/aclnn_rms_norm.h: yOut = x / sqrt(mean(x^2) + epsilon) * gamma, the mean over gamma's
// dimensions (the last ones of x); rstdOut (float32) = 1 / sqrt(mean(x^2) + epsilon) per row.
#include "aclnnop/aclnn_rms_norm.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/normalization.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {

namespace {

constexpr auto kRmsTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanRmsNorm(const aclTensor* x, const aclTensor* gamma, double epsilon,
                        const aclTensor* yOut, const aclTensor* rstdOut, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(x, "x"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(gamma, "gamma"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(yOut, "yOut"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(rstdOut, "rstdOut"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView vx, vg, vy, vr;
    if (aclnnStatus rc = ViewOf(x, "x", &vx); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(gamma, "gamma", &vg); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(yOut, "yOut", &vy); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(rstdOut, "rstdOut", &vr); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(vx, kRmsTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(vg, kRmsTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(vy, kRmsTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(vr, {ACL_FLOAT}); rc != ACLNN_SUCCESS) return rc;
    if (vg.dtype != vx.dtype && vg.dtype != ACL_FLOAT) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "gamma is %s and x is %s: gamma must be x's type or float32",
                    ops::DtypeName(vg.dtype), ops::DtypeName(vx.dtype));
    }
    if (vy.dtype != vx.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "yOut is %s but x is %s: they must be alike",
                    ops::DtypeName(vy.dtype), ops::DtypeName(vx.dtype));
    }
    NormPlan plan;
    if (aclnnStatus rc = SplitRows(vx, vg, &plan.rows, &plan.cols); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckShape(vy, vx.shape); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc =
            CheckRowCount(vr, plan.rows, "x's shape with gamma's dimensions dropped (or set to 1)");
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    plan.api = "aclnnRmsNorm";
    plan.kind = NormKind::kRms;
    plan.views[0] = &vx;
    plan.tensors[0] = x;
    plan.views[2] = &vg;
    plan.tensors[2] = gamma;
    plan.views[3] = &vy;
    plan.tensors[3] = yOut;
    plan.views[4] = &vr;
    plan.tensors[4] = rstdOut;
    plan.eps = epsilon;
    return FinishNorm(plan, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                         const aclTensor* yOut, const aclTensor* rstdOut,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanRmsNorm(x, gamma, epsilon, yOut, rstdOut, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(RmsNorm)
