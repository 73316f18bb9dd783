// aclnnop/aclnn_index_copy.h: selfRef's slices along dim at index[i] = source's slice i
// (IndexCopy writes the result to outRef, InplaceIndexCopy into selfRef).
#include "aclnnop/aclnn_index_copy.h"

#include "aclnn/ops/gather.h"
#include "core/error.h"

aclnnStatus aclnnIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                           const aclTensor* source, aclTensor* outRef,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanIndexCopy("aclnnIndexCopy", outRef, "outRef", selfRef, dim, index,
                                         source, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(IndexCopy)

aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                  const aclTensor* index, const aclTensor* source,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanIndexCopy("aclnnInplaceIndexCopy", selfRef, "selfRef", nullptr, dim,
                                         index, source, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceIndexCopy)
