// aclnnop/aclnn_logsoftmax.h: out = self - max - log(sum(exp(self - max))) along dim
// (negative dims count from the end); self and out may differ in type.
#include "aclnnop/aclnn_logsoftmax.h"

#include "aclnn/ops/reduction.h"
#include "core/error.h"

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanSoftmax("aclnnLogSoftmax", true, self, dim, out, workspaceSize,
                                       executor);
}
OPENACL_ACLNN_SECOND_PHASE(LogSoftmax)
