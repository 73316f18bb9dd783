/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * acl/acl_op.h: single-operator execution: operator attributes, loading
 * single-op models, executing operators (directly or through a handle) and
 * registering custom operator kernels.
 */
#ifndef INC_EXTERNAL_ACL_ACL_OP_H_
#define INC_EXTERNAL_ACL_ACL_OP_H_

/* The include order is part of the documented header layout. */
/* clang-format off */
#include "acl_base.h"
#include "acl_rt.h"
#include "acl_dump.h"
/* clang-format on */

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque objects. */
typedef struct aclopHandle aclopHandle;
typedef struct aclopAttr aclopAttr;
typedef struct aclopKernelDesc aclopKernelDesc;

/* Releases kernel binary data passed to aclopCreateKernel. */
typedef void (*aclDataDeallocator)(void* data, size_t length);

static const int ACL_COMPILE_FLAG_BIN_SELECTOR = 1;

/* Engine that runs a custom kernel. */
typedef enum aclEngineType {
    ACL_ENGINE_SYS = 0,
    ACL_ENGINE_AICORE = 1,
    ACL_ENGINE_VECTOR = 2
} aclopEngineType;

/* ---- Single-op models ---- */

/* Directory holding single-op models; may be set once per process. */
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char* modelDir);

/* Load single-op models from memory; may be called repeatedly. */
ACL_FUNC_VISIBILITY aclError aclopLoad(const void* model, size_t modelSize);

/* ---- Operator attributes ---- */

/* NULL when out of memory. */
ACL_FUNC_VISIBILITY aclopAttr* aclopCreateAttr(void);

ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr* attr);

/* attrValue 0 means false, anything else true. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName,
                                              uint8_t attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName,
                                             int64_t attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName,
                                               float attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr* attr, const char* attrName,
                                                const char* attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName,
                                                  aclDataType attrValue);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr* attr, const char* attrName,
                                                      int numValues, const aclDataType values[]);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName,
                                                  int numValues, const uint8_t* values);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName,
                                                 int numValues, const int64_t* values);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName,
                                                   int numValues, const float* values);

ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName,
                                                    int numValues, const char** values);

/* numLists lists; list i has numValues[i] entries starting at values[i]. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName,
                                                     int numLists, const int* numValues,
                                                     const int64_t* const values[]);

/* ---- Execution ---- */

/* Find the operator matching type, tensor descriptions and attributes, and enqueue it. */
ACL_DEPRECATED_MESSAGE("aclopExecute is deprecated, use aclopExecuteV2 instead")
ACL_FUNC_VISIBILITY aclError aclopExecute(const char* opType, int numInputs,
                                          const aclTensorDesc* const inputDesc[],
                                          const aclDataBuffer* const inputs[], int numOutputs,
                                          const aclTensorDesc* const outputDesc[],
                                          aclDataBuffer* const outputs[], const aclopAttr* attr,
                                          aclrtStream stream);

/* Like aclopExecute, and also updates outputDesc with the actual output shapes. */
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char* opType, int numInputs,
                                            aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                                            int numOutputs, aclTensorDesc* outputDesc[],
                                            aclDataBuffer* outputs[], aclopAttr* attr,
                                            aclrtStream stream);

/* Resolve an operator once so that it can be run repeatedly with aclopExecWithHandle. */
ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char* opType, int numInputs,
                                               const aclTensorDesc* const inputDesc[],
                                               int numOutputs,
                                               const aclTensorDesc* const outputDesc[],
                                               const aclopAttr* opAttr, aclopHandle** handle);

ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle* handle);

ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle* handle, int numInputs,
                                                 const aclDataBuffer* const inputs[],
                                                 int numOutputs, aclDataBuffer* const outputs[],
                                                 aclrtStream stream);

/* Convert a tensor to another data type; truncate 0 = no truncation. */
ACL_FUNC_VISIBILITY aclError aclopCast(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer,
                                       const aclTensorDesc* dstDesc, aclDataBuffer* dstBuffer,
                                       uint8_t truncate, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclopCreateHandleForCast(aclTensorDesc* srcDesc,
                                                      aclTensorDesc* dstDesc, uint8_t truncate,
                                                      aclopHandle** handle);

/* ---- Custom kernels ---- */

/* Register a kernel binary; deallocator (may be NULL) releases binData later. */
ACL_FUNC_VISIBILITY aclError aclopCreateKernel(const char* opType, const char* kernelId,
                                               const char* kernelName, void* binData, int binSize,
                                               aclopEngineType enginetype,
                                               aclDataDeallocator deallocator);

/* Selects and configures the kernel for a concrete set of tensor descriptions. */
typedef aclError (*aclopCompileFunc)(int numInputs, const aclTensorDesc* const inputDesc[],
                                     int numOutputs, const aclTensorDesc* const outputDesc[],
                                     const aclopAttr* opAttr, aclopKernelDesc* kernelDesc);

ACL_FUNC_VISIBILITY aclError aclopRegisterCompileFunc(const char* opType, aclopCompileFunc func);

ACL_FUNC_VISIBILITY aclError aclopUnregisterCompileFunc(const char* opType);

ACL_FUNC_VISIBILITY aclError aclopSetKernelArgs(aclopKernelDesc* kernelDesc, const char* kernelId,
                                                uint32_t blockDim, const void* args,
                                                uint32_t argSize);

ACL_FUNC_VISIBILITY aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc* kernelDesc,
                                                          int numWorkspaces,
                                                          size_t* workspaceSizes);

/* Compile a dynamic-shape operator for the given descriptions. */
ACL_FUNC_VISIBILITY aclError aclopUpdateParams(const char* opType, int numInputs,
                                               const aclTensorDesc* const inputDesc[],
                                               int numOutputs,
                                               const aclTensorDesc* const outputDesc[],
                                               const aclopAttr* attr);

/* Capacity of the operator cache. */
ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum);

/* Infer output shapes synchronously into outputDesc. */
ACL_FUNC_VISIBILITY aclError aclopInferShape(const char* opType, int numInputs,
                                             aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                                             int numOutputs, aclTensorDesc* outputDesc[],
                                             aclopAttr* attr);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_OP_H_ */
