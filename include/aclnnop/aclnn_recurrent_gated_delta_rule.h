/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_recurrent_gated_delta_rule.h: gated delta-rule linear attention, one recurrent
 * step per token: updates the per-sequence state stateRef in place and writes the attention output
 * to out.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_
#define OPENACL_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRecurrentGatedDeltaRuleGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* beta,
    aclTensor* stateRef, const aclTensor* actualSeqLengths, const aclTensor* ssmStateIndices,
    const aclTensor* g, const aclTensor* gk, const aclTensor* numAcceptedTokens, float scaleValue,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRecurrentGatedDeltaRule(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_ */
