/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_triangular_solve.h: xOut = solution X of A X = self for triangular A (upper/lower,
 * optionally transposed, optionally unit diagonal); mOut = the triangle of A that was used.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_
#define OPENACL_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTriangularSolveGetWorkspaceSize(
    const aclTensor* self, const aclTensor* A, bool upper, bool transpose, bool unitriangular,
    aclTensor* xOut, aclTensor* mOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTriangularSolve(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_ */
