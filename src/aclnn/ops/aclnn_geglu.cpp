// aclnnop/aclnn_geglu.h: GeGluV3: outGelu = gelu(one half of self), out = outGelu * the other
// half (activateLeft picks the half; approximate 0 = the exact erf form, 1 = the tanh one).
// GeGlu, the older form, is GeGluV3 activating the right half.
#include "aclnnop/aclnn_geglu.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/glu.h"
#include "core/error.h"

aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                         bool activateLeft, aclTensor* out, aclTensor* outGelu,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (approximate != 0 && approximate != 1) {
        return openacl::Fail(ACLNN_ERR_PARAM_INVALID,
                             "approximate is %" PRId64 ": 0 (erf) or 1 (tanh)", approximate);
    }
    if (outGelu == nullptr) return openacl::Fail(ACLNN_ERR_PARAM_NULLPTR, "outGelu is null");
    const openacl::ops::UnaryOp gelu =
        approximate == 0 ? openacl::ops::UnaryOp::kGeluErf : openacl::ops::UnaryOp::kGeluTanh;
    return openacl::aclnn::PlanGlu({"aclnnGeGluV3", gelu, activateLeft}, self, "self", dim, out,
                                   outGelu, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(GeGluV3)

aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                       aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
    OPENACL_API();
    if (approximate != 0 && approximate != 1) {
        return openacl::Fail(ACLNN_ERR_PARAM_INVALID,
                             "approximate is %" PRId64 ": 0 (erf) or 1 (tanh)", approximate);
    }
    if (outGelu == nullptr) return openacl::Fail(ACLNN_ERR_PARAM_NULLPTR, "outGelu is null");
    const openacl::ops::UnaryOp gelu =
        approximate == 0 ? openacl::ops::UnaryOp::kGeluErf : openacl::ops::UnaryOp::kGeluTanh;
    return openacl::aclnn::PlanGlu({"aclnnGeGlu", gelu, false}, self, "self", dim, out, outGelu,
                                   workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(GeGlu)
