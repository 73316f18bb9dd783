// aclnnop/aclnn_batch_matmul.h: out = self @ mat2 for 3-D self and mat2, a batch of 1 on
// either side broadcast (aclnn/ops/product.h). aclnnBatchMatMulWeightNz is not implemented
// (see aclnn_matmul.cpp).
#include "aclnnop/aclnn_batch_matmul.h"

#include "aclnn/ops/product.h"
#include "core/error.h"

using openacl::aclnn::ProductKind;

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                             aclTensor* out, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanProduct({"aclnnBatchMatMul", ProductKind::kBatchMatMul, "mat2"},
                                       self, mat2, out, cubeMathType, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(BatchMatMul)
