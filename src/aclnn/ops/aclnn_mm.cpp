// aclnnop/aclnn_mm.h: out = self @ mat2 for 2-D self and mat2 (aclnn/ops/product.h).
#include "aclnnop/aclnn_mm.h"

#include "aclnn/ops/product.h"
#include "core/error.h"

using openacl::aclnn::ProductKind;

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                    int8_t cubeMathType, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanProduct({"aclnnMm", ProductKind::kMm, "mat2"}, self, mat2, out,
                                       cubeMathType, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Mm)
