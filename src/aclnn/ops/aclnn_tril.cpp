// aclnnop/aclnn_tril.h: the lower triangle (columns j <= i + diagonal) kept, the rest zero.
#include "aclnnop/aclnn_tril.h"

#include "aclnn/ops/triangle.h"
#include "core/error.h"

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanTriangle("aclnnTril", true, self, diagonal, out, false,
                                        workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Tril)

aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanTriangle("aclnnInplaceTril", true, selfRef, diagonal, nullptr, true,
                                        workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceTril)
