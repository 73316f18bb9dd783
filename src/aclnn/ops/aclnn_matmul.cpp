// aclnnop/aclnn_matmul.h: out = self @ mat2 with torch.matmul's shapes: 1 to 8 dimensions
// each, batch dimensions broadcast (aclnn/ops/product.h). aclnnMatmulWeightNz, which takes a
// weight really laid out in FRACTAL_NZ blocks, is not implemented: openacl keeps weights in ND
// layout, and aclnnMatmul reads an NZ-tagged weight as the ND view it describes.
#include "aclnnop/aclnn_matmul.h"

#include "aclnn/ops/product.h"
#include "core/error.h"

using openacl::aclnn::ProductKind;

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                        aclTensor* out, int8_t cubeMathType,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanProduct({"aclnnMatmul", ProductKind::kMatmul, "mat2"}, self, mat2,
                                       out, cubeMathType, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Matmul)
