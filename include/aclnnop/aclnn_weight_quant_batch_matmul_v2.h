/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_weight_quant_batch_matmul_v2.h: y = x @ dequantised(weight) + bias, where weight
 * holds int8/int4 values dequantised with antiquantScale (and offset), per channel or per
 * antiquantGroupSize group; the output may be quantised again.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_
#define OPENACL_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
    const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_ */
