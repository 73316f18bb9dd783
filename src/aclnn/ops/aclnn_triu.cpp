// aclnnop/aclnn_triu.h: the upper triangle (columns j >= i + diagonal) kept, the rest zero.
#include "aclnnop/aclnn_triu.h"

#include "aclnn/ops/triangle.h"
#include "core/error.h"

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanTriangle("aclnnTriu", false, self, diagonal, out, false,
                                        workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Triu)

aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanTriangle("aclnnInplaceTriu", false, selfRef, diagonal, nullptr, true,
                                        workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceTriu)
