// aclnnop/aclnn_norm.h: out = the p-norm of self over dim (every dimension when dim is empty):
// (sum |x|^p)^(1/p); p = inf: max |x|, -inf: min |x|, 0: the number of non-zero elements. The
// norm of nothing is 0.
#include "aclnnop/aclnn_norm.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

constexpr auto kNormTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanNorm(const aclTensor* self, const aclScalar* pScalar, const aclIntArray* dim,
                     bool keepdim, const aclTensor* out, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckScalarObject(pScalar, "pScalar"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dim, "dim"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(a, kNormTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, kNormTypes); rc != ACLNN_SUCCESS) return rc;
    if (ops::DtypeSize(pScalar->dtype) == 0 || ops::IsComplex(pScalar->dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "pScalar is %s: p must be a real number",
                    ops::DtypeName(pScalar->dtype));
    }
    Reduction reduction;
    reduction.api = "aclnnNorm";
    reduction.op = ops::ReduceOp::kNorm;
    reduction.p = pScalar->ToDouble();
    if (aclnnStatus rc = DimMask(a, dim, "dim", &reduction.mask); rc != ACLNN_SUCCESS) return rc;
    reduction.keepdim = keepdim;
    if (aclnnStatus rc = CheckReducedShape(o, a, reduction.mask, keepdim); rc != ACLNN_SUCCESS) {
        return rc;
    }
    reduction.fill_empty = true;
    reduction.fill = 0.0;
    return FinishReduction(reduction, a, self, o, out, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar,
                                      const aclIntArray* dim, bool keepdim, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanNorm(self, pScalar, dim, keepdim, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Norm)
