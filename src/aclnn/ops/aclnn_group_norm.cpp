// aclnnop/aclnn_group_norm.h: self is [N, C, ...] (HxW elements after C); its C channels split
// into `group` groups, and out = (x - mean) / sqrt(var + eps) * gamma + beta per (sample,
// group), gamma and beta per channel (optional). meanOut and rstdOut, shape [N, group], get the
// mean and 1 / sqrt(var + eps); the variance is the population one. Every tensor has self's
// type.
#include "aclnnop/aclnn_group_norm.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/normalization.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

aclnnStatus SameType(const TensorView& view, const TensorView& self) {
    if (view.dtype == self.dtype) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s but self is %s: they must be alike", view.name,
                ops::DtypeName(view.dtype), ops::DtypeName(self.dtype));
}

aclnnStatus PerChannel(const TensorView& view, int64_t c) {
    if (view.shape.rank == 1 && view.shape.dims[0] == c) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID,
                "%s has shape %s: it must be [C] = [%" PRId64 "], one value per channel", view.name,
                ShapeText(view.shape), c);
}

aclnnStatus PlanGroupNorm(const aclTensor* self, const aclTensor* gammaOptional,
                          const aclTensor* betaOptional, int64_t n, int64_t c, int64_t hxw,
                          int64_t group, double eps, const aclTensor* out, const aclTensor* meanOut,
                          const aclTensor* rstdOut, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(meanOut, "meanOut"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(rstdOut, "rstdOut"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView vs, vg, vb, vo, vm, vr;
    if (aclnnStatus rc = ViewOf(self, "self", &vs); rc != ACLNN_SUCCESS) return rc;
    if (gammaOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(gammaOptional, "gammaOptional", &vg); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (betaOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(betaOptional, "betaOptional", &vb); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (aclnnStatus rc = ViewOf(out, "out", &vo); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(meanOut, "meanOut", &vm); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(rstdOut, "rstdOut", &vr); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(vs, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}); rc != ACLNN_SUCCESS) {
        return rc;
    }
    for (const TensorView* view : {&vg, &vb, &vo, &vm, &vr}) {
        if (view->dtype == ACL_DT_UNDEFINED) continue;  // an absent optional
        if (aclnnStatus rc = SameType(*view, vs); rc != ACLNN_SUCCESS) return rc;
    }
    if (group <= 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "group is %" PRId64 ": it must be positive", group);
    }
    if (c % group != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "C is %" PRId64 ", which group %" PRId64 " does not divide", c, group);
    }
    if (!(eps > 0.0)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "eps is %g: it must be positive", eps);
    }
    if (vs.shape.rank < 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self has %d dimensions: it must have 2 to 8 ([N, C, ...])", vs.shape.rank);
    }
    if (aclnnStatus rc = CheckShape(vo, vs.shape); rc != ACLNN_SUCCESS) return rc;
    ops::LoopShape stats;
    stats.rank = 2;
    stats.dims[0] = n;
    stats.dims[1] = group;
    if (aclnnStatus rc = CheckShape(vm, stats); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckShape(vr, stats); rc != ACLNN_SUCCESS) return rc;
    if (vs.shape.dims[0] != n || vs.shape.dims[1] != c ||
        Product(vs.shape, 2, vs.shape.rank) != hxw) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self has shape %s but N = %" PRId64 ", C = %" PRId64 ", HxW = %" PRId64
                    ": self must be [N, C, ...] with HxW elements after C",
                    ShapeText(vs.shape), n, c, hxw);
    }
    if (gammaOptional != nullptr) {
        if (aclnnStatus rc = PerChannel(vg, c); rc != ACLNN_SUCCESS) return rc;
    }
    if (betaOptional != nullptr) {
        if (aclnnStatus rc = PerChannel(vb, c); rc != ACLNN_SUCCESS) return rc;
    }
    if (vs.format != vo.format) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "self and out have different formats (%d and %d)",
                    static_cast<int>(vs.format), static_cast<int>(vo.format));
    }
    if (vs.format == ACL_FORMAT_NHWC || vs.format == ACL_FORMAT_HWCN ||
        vs.format == ACL_FORMAT_NDHWC) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self's format (%d) puts C last: GroupNorm takes ND, NCL, NCHW or NCDHW",
                    static_cast<int>(vs.format));
    }
    NormPlan plan;
    plan.api = "aclnnGroupNorm";
    plan.kind = NormKind::kGroup;
    plan.views[0] = &vs;
    plan.tensors[0] = self;
    if (gammaOptional != nullptr) {
        plan.views[1] = &vg;
        plan.tensors[1] = gammaOptional;
    }
    if (betaOptional != nullptr) {
        plan.views[2] = &vb;
        plan.tensors[2] = betaOptional;
    }
    plan.views[3] = &vo;
    plan.tensors[3] = out;
    plan.views[4] = &vm;
    plan.tensors[4] = meanOut;
    plan.views[5] = &vr;
    plan.tensors[5] = rstdOut;
    plan.n = n;
    plan.c = c;
    plan.hxw = hxw;
    plan.groups = group;
    plan.eps = eps;
    return FinishNorm(plan, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gammaOptional,
                                           const aclTensor* betaOptional, int64_t n, int64_t c,
                                           int64_t hxw, int64_t group, double eps, aclTensor* out,
                                           aclTensor* meanOut, aclTensor* rstdOut,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanGroupNorm(self, gammaOptional, betaOptional, n, c, hxw, group, eps,
                                         out, meanOut, rstdOut, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(GroupNorm)
