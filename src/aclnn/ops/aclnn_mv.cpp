// aclnnop/aclnn_mv.h: out = self @ vec for a 2-D self and a 1-D vec, one type for all three
// (aclnn/ops/product.h).
#include "aclnnop/aclnn_mv.h"

#include "aclnn/ops/product.h"
#include "core/error.h"

using openacl::aclnn::ProductKind;

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out,
                                    int8_t cubeMathType, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanProduct({"aclnnMv", ProductKind::kMv, "vec"}, self, vec, out,
                                       cubeMathType, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Mv)
