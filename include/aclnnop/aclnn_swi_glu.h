/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_swi_glu.h: splits x in two halves along dim and returns SiLU(first half) * second
 * half.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SWI_GLU_H_
#define OPENACL_ACLNNOP_ACLNN_SWI_GLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim,
                                                  const aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwiGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SWI_GLU_H_ */
