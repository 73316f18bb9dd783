/*
 * openacl - an independent implementation of the AscendCL C API.
 *
 * acl/ops/acl_cblas.h: BLAS-style matrix/vector routines (GEMV and GEMM).
 *
 * All routines operate on device memory and are queued on the given stream, i.e. they return
 * as soon as the work has been submitted; the result is visible after the stream has been
 * synchronised. The scalars alpha and beta are read from host memory and have the type used
 * for the computation.
 *
 * GEMM: C = alpha * op(A) * op(B) + beta * C
 * GEMV: y = alpha * op(A) * x + beta * y
 *
 * The aclblasCreateHandleFor* functions build an aclopHandle that can be executed repeatedly
 * with aclopExecWithHandle.
 */
#ifndef INC_EXTERNAL_ACL_OPS_ACL_CBLAS_H_
#define INC_EXTERNAL_ACL_OPS_ACL_CBLAS_H_

#include "acl/acl_mdl.h"
#include "acl/acl_op.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a matrix operand is stored / to be interpreted. */
typedef enum aclTransType {
    ACL_TRANS_N = 0,   /* as stored (row-major) */
    ACL_TRANS_T = 1,   /* transposed */
    ACL_TRANS_NZ = 2,  /* Ascend fractal (NZ) layout */
    ACL_TRANS_NZ_T = 3 /* fractal layout, transposed */
} aclTransType;

/* Precision preference for the computation. */
typedef enum aclComputeType {
    ACL_COMPUTE_HIGH_PRECISION = 0,
    ACL_COMPUTE_LOW_PRECISION = 1
} aclComputeType;

/* ---- matrix-vector product ---------------------------------------------------------------- */

/* Generic GEMV; the element type of every operand is given explicitly. */
ACL_FUNC_VISIBILITY aclError aclblasGemvEx(aclTransType transA, int m, int n, const void* alpha,
                                           const void* a, int lda, aclDataType dataTypeA,
                                           const void* x, int incx, aclDataType dataTypeX,
                                           const void* beta, void* y, int incy,
                                           aclDataType dataTypeY, aclComputeType type,
                                           aclrtStream stream);

/* Prepares a reusable operator handle for aclblasGemvEx. */
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemvEx(
    aclTransType transA, int m, int n, aclDataType dataTypeA, aclDataType dataTypeX,
    aclDataType dataTypeY, aclComputeType type, aclopHandle** handle);

/* GEMV on half-precision data. */
ACL_FUNC_VISIBILITY aclError aclblasHgemv(aclTransType transA, int m, int n,
                                          const aclFloat16* alpha, const aclFloat16* a, int lda,
                                          const aclFloat16* x, int incx, const aclFloat16* beta,
                                          aclFloat16* y, int incy, aclComputeType type,
                                          aclrtStream stream);

/* Prepares a reusable operator handle for aclblasHgemv. */
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n,
                                                         aclComputeType type, aclopHandle** handle);

/* GEMV on int8 inputs with int32 scalars and int32 result. */
ACL_FUNC_VISIBILITY aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t* alpha,
                                           const int8_t* a, int lda, const int8_t* x, int incx,
                                           const int32_t* beta, int32_t* y, int incy,
                                           aclComputeType type, aclrtStream stream);

/* Prepares a reusable operator handle for aclblasS8gemv. */
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n,
                                                          aclComputeType type,
                                                          aclopHandle** handle);

/* ---- matrix-matrix product ---------------------------------------------------------------- */

/* Generic GEMM; the element type of every matrix is given explicitly. */
ACL_FUNC_VISIBILITY aclError aclblasGemmEx(aclTransType transA, aclTransType transB,
                                           aclTransType transC, int m, int n, int k,
                                           const void* alpha, const void* matrixA, int lda,
                                           aclDataType dataTypeA, const void* matrixB, int ldb,
                                           aclDataType dataTypeB, const void* beta, void* matrixC,
                                           int ldc, aclDataType dataTypeC, aclComputeType type,
                                           aclrtStream stream);

/* Prepares a reusable operator handle for aclblasGemmEx. */
ACL_FUNC_VISIBILITY aclError
aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m,
                             int n, int k, aclDataType dataTypeA, aclDataType dataTypeB,
                             aclDataType dataTypeC, aclComputeType type, aclopHandle** handle);

/* GEMM on half-precision data. */
ACL_FUNC_VISIBILITY aclError aclblasHgemm(aclTransType transA, aclTransType transB,
                                          aclTransType transC, int m, int n, int k,
                                          const aclFloat16* alpha, const aclFloat16* matrixA,
                                          int lda, const aclFloat16* matrixB, int ldb,
                                          const aclFloat16* beta, aclFloat16* matrixC, int ldc,
                                          aclComputeType type, aclrtStream stream);

/* Prepares a reusable operator handle for aclblasHgemm. */
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB,
                                                         aclTransType transC, int m, int n, int k,
                                                         aclComputeType type, aclopHandle** handle);

/* GEMM on int8 inputs with int32 scalars and int32 result. */
ACL_FUNC_VISIBILITY aclError aclblasS8gemm(aclTransType transA, aclTransType transB,
                                           aclTransType transC, int m, int n, int k,
                                           const int32_t* alpha, const int8_t* matrixA, int lda,
                                           const int8_t* matrixB, int ldb, const int32_t* beta,
                                           int32_t* matrixC, int ldc, aclComputeType type,
                                           aclrtStream stream);

/* Prepares a reusable operator handle for aclblasS8gemm. */
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB,
                                                          aclTransType transC, int m, int n, int k,
                                                          aclComputeType type,
                                                          aclopHandle** handle);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_OPS_ACL_CBLAS_H_ */
