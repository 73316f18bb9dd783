// aclnnop/aclnn_gather_v2.h: out = self's slices along dim picked by index (any shape).
#include "aclnnop/aclnn_gather_v2.h"

#include "aclnn/ops/gather.h"
#include "core/error.h"

aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim,
                                          const aclTensor* index, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanGather("aclnnGatherV2", self, "self", dim, index, "index", out,
                                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(GatherV2)
