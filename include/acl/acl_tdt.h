/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * acl/acl_tdt.h: tensor data transfer (TDT) channels. A channel carries
 * datasets (ordered lists of tensors, the data items) between the host and
 * the device side; CANN ships these functions in libacl_tdt_channel.so.
 * acl/acl.h does not include this header.
 */
#ifndef INC_EXTERNAL_ACL_ACL_TDT_H_
#define INC_EXTERNAL_ACL_ACL_TDT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a data item carries: a tensor, or a marker with no data. */
typedef enum acltdtTensorType {
    ACL_TENSOR_DATA_UNDEFINED = -1,      /* answered for a null item */
    ACL_TENSOR_DATA_TENSOR = 0,          /* a tensor: dims, data type and data */
    ACL_TENSOR_DATA_END_OF_SEQUENCE = 1, /* the sender has nothing more to send */
    ACL_TENSOR_DATA_ABNORMAL = 2,        /* the sender failed */
    ACL_TENSOR_DATA_SLICE_TENSOR = 3,    /* one slice of a tensor sent in pieces */
    ACL_TENSOR_DATA_END_TENSOR = 4       /* the last slice of such a tensor */
} acltdtTensorType;

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

/* Data items. */

/* The item's tensor type; ACL_TENSOR_DATA_UNDEFINED for a null item. */
ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem);

/* The item's element type; ACL_DT_UNDEFINED for a null item or a marker. */
ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem);

/* The item's data; NULL on failure. */
ACL_FUNC_VISIBILITY void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem);

/* The item's data size in bytes; 0 on failure. */
ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem);

/* How many dimensions the item's shape has; 0 on failure. */
ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem);

/* Into *sliceNum and *sliceId: how many slices the item's tensor was cut into, and which one
 * this item is (0 and 0 for a whole tensor). */
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem,
                                                        size_t* sliceNum, size_t* sliceId);

/* Copies the item's shape into dims, which has room for dimNum values (at least
 * acltdtGetDimNumFromItem). */
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims,
                                                   size_t dimNum);

/* A data item describing size bytes at data, of shape dims[0..dimNum) and element type
 * dataType. The item refers to data, it does not copy it: data must stay valid while the item
 * is used. Markers (any type but ACL_TENSOR_DATA_TENSOR) take no dims and carry no data.
 * NULL on failure. */
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType,
                                                         const int64_t* dims, size_t dimNum,
                                                         aclDataType dataType, void* data,
                                                         size_t size);

/* Frees an item made by acltdtCreateDataItem (never its data). */
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem* dataItem);

/* Datasets. */

/* An empty dataset; NULL on failure. */
ACL_FUNC_VISIBILITY acltdtDataset* acltdtCreateDataset(void);

/* Frees a dataset. The items a program added stay the program's; the items a receive put in
 * the dataset are freed with it. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset* dataset);

/* The item at index; NULL on failure (index out of range). */
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index);

/* Appends an item to a dataset the program fills. */
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem);

/* How many items the dataset holds; 0 on failure. */
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset* dataset);

/* The dataset's name ("" when it has none); NULL on failure. */
ACL_FUNC_VISIBILITY const char* acltdtGetDatasetName(const acltdtDataset* dataset);

/* Channels. */

/* Wakes the threads blocked in acltdtSendTensor or acltdtReceiveTensor on the channel; call it
 * from another thread before acltdtDestroyChannel. */
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle* handle);

/* A channel named name on device deviceId; NULL on failure. */
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name);

/* A channel named name on device deviceId that holds at most capacity datasets (2 to 8192);
 * NULL on failure. */
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId,
                                                                         const char* name,
                                                                         size_t capacity);

/* Frees a channel made by acltdtCreateChannel or acltdtCreateChannelWithCapacity. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle* handle);

/* Drops every dataset waiting in a channel made with a capacity. */
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle* handle);

/* Sends a dataset to the device side. timeout in milliseconds: -1 waits for room as long as it
 * takes, 0 fails at once when the channel is full, > 0 waits that long at most. */
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle* handle,
                                              const acltdtDataset* dataset, int32_t timeout);

/* Receives a dataset from the device side into dataset (empty, or filled by an earlier
 * receive). timeout as for acltdtSendTensor, waiting for data. */
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle* handle,
                                                 acltdtDataset* dataset, int32_t timeout);

/* Into *size: how many datasets wait in a channel made with a capacity. */
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle,
                                                    size_t* size);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_TDT_H_ */
