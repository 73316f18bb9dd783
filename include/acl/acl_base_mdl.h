/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * acl/acl_base_mdl.h: tensor descriptors (shape, data type, format and
 * related attributes of a tensor) used by the model and operator APIs.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_MDL_H_
#define INC_EXTERNAL_ACL_ACL_BASE_MDL_H_

#include "acl/acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of bounds ([min, max]) per dimension in a shape range. */
#define ACL_TENSOR_SHAPE_RANGE_NUM 2
/* Number of bounds ([min, max]) per entry in a value range. */
#define ACL_TENSOR_VALUE_RANGE_NUM 2
/* Returned by aclGetTensorDescNumDims for a tensor of unknown rank. */
#define ACL_UNKNOWN_RANK 0xFFFFFFFFFFFFFFFE

typedef struct aclTensorDesc aclTensorDesc;

/* Create a descriptor; -1 marks a dynamic dimension, the shape {-2} unknown rank. */
ACL_FUNC_VISIBILITY aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims,
                                                       const int64_t* dims, aclFormat format);

ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc* desc);

/* Per-dimension [min, max] bounds of a dynamic shape. */
ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(
    aclTensorDesc* desc, size_t dimsCount, int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]);

/* Per-element [min, max] bounds of the tensor's values. */
ACL_FUNC_VISIBILITY aclError aclSetTensorValueRange(
    aclTensorDesc* desc, size_t valueCount, int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]);

/* ACL_DT_UNDEFINED when desc is NULL. */
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc* desc);

/* ACL_FORMAT_UNDEFINED when desc is NULL. */
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc);

/* Size in bytes (element count times element size); 0 when desc is NULL. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc* desc);

ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc* desc);

/* Rank; ACL_UNKNOWN_RANK for the shape {-2}. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc* desc);

ACL_DEPRECATED_MESSAGE("aclGetTensorDescDim is deprecated, use aclGetTensorDescDimV2 instead")
ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index);

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index,
                                                   int64_t* dimSize);

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc* desc, size_t index,
                                                      size_t dimRangeNum, int64_t* dimRange);

ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc* desc, const char* name);

/* Empty string when desc is NULL. */
ACL_FUNC_VISIBILITY const char* aclGetTensorDescName(aclTensorDesc* desc);

/* Make a new descriptor with the same tensor in another format. */
ACL_FUNC_VISIBILITY aclError aclTransTensorDescFormat(const aclTensorDesc* srcDesc,
                                                      aclFormat dstFormat, aclTensorDesc** dstDesc);

ACL_DEPRECATED_MESSAGE("aclSetTensorStorageFormat is deprecated, use aclSetTensorFormat instead")
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageFormat(aclTensorDesc* desc, aclFormat format);

ACL_DEPRECATED_MESSAGE("aclSetTensorStorageShape is deprecated, use aclSetTensorShape instead")
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageShape(aclTensorDesc* desc, int numDims,
                                                      const int64_t* dims);

ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format);

ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc* desc, int numDims,
                                               const int64_t* dims);

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format);

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims,
                                                     const int64_t* dims);

/* Element `index` of an array of descriptors. */
ACL_FUNC_VISIBILITY aclTensorDesc* aclGetTensorDescByIndex(aclTensorDesc* desc, size_t index);

ACL_FUNC_VISIBILITY void* aclGetTensorDescAddress(const aclTensorDesc* desc);

ACL_FUNC_VISIBILITY aclError aclSetTensorDynamicInput(aclTensorDesc* desc,
                                                      const char* dynamicInputName);

ACL_FUNC_VISIBILITY aclError aclSetTensorConst(aclTensorDesc* desc, void* dataBuffer,
                                               size_t length);

ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc* desc, aclMemType memType);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_BASE_MDL_H_ */
