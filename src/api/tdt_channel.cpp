// TDT data channels (acl/acl_tdt.h): data items, datasets and the channels that carry them;
// tdt/channel.h says what a channel is on openacl. Items and datasets need neither aclInit nor a
// device: they only hold pointers and shapes.
#include <cstring>
#include <new>

#include "acl/acl_tdt.h"
#include "core/error.h"
#include "core/runtime.h"
#include "tdt/channel.h"
#include "tdt/data_item.h"
#include "tdt/dataset.h"

using openacl::Fail;

namespace {

// INVALID_PARAM with a message unless `item` is a live item.
aclError CheckItem(const acltdtDataItem* item) {
    if (item == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataItem is null");
    if (!openacl::tdt::IsLiveDataItem(item)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataItem %p is not a live data item (destroyed already, or not made by "
                    "acltdtCreateDataItem or acltdtReceiveTensor)",
                    static_cast<const void*>(item));
    }
    return ACL_SUCCESS;
}

aclError CheckDataset(const acltdtDataset* dataset) {
    if (dataset == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataset is null");
    if (!openacl::tdt::IsLiveDataset(dataset)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataset %p is not a live dataset (destroyed already, or not made by "
                    "acltdtCreateDataset)",
                    static_cast<const void*>(dataset));
    }
    return ACL_SUCCESS;
}

// CANN's pairing of a shape pointer and its length, for acltdtCreateDataItem and
// acltdtGetDimsFromItem.
aclError CheckDims(const int64_t* dims, size_t dim_num) {
    if (dims == nullptr && dim_num != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dims is null but dimNum is %zu (must be 0)", dim_num);
    }
    if (dims != nullptr && dim_num == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dimNum is 0 but dims is not null (pass null)");
    }
    return ACL_SUCCESS;
}

aclError CheckTimeout(int32_t timeout) {
    if (timeout < -1) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d is invalid: -1 (wait for ever), 0 (no wait) or milliseconds > 0",
                    timeout);
    }
    return ACL_SUCCESS;
}

bool IsTensorType(acltdtTensorType type) {
    const int value = static_cast<int>(type);
    return value >= ACL_TENSOR_DATA_UNDEFINED && value <= ACL_TENSOR_DATA_END_TENSOR;
}

acltdtChannelHandle* NewChannel(uint32_t device_id, const char* name, size_t capacity, bool sized) {
    if (name == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "name is null");
        return nullptr;
    }
    if (openacl::Runtime::Get().DeviceById(device_id) == nullptr) return nullptr;
    return openacl::tdt::CreateChannel(device_id, name, capacity, sized);
}

}  // namespace

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem) {
    OPENACL_API();
    if (CheckItem(dataItem) != ACL_SUCCESS) return ACL_TENSOR_DATA_UNDEFINED;
    return dataItem->type;
}

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) {
    OPENACL_API();
    if (CheckItem(dataItem) != ACL_SUCCESS) return ACL_DT_UNDEFINED;
    return dataItem->data_type;
}

void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) {
    OPENACL_API();
    if (CheckItem(dataItem) != ACL_SUCCESS) return nullptr;
    return dataItem->data;
}

size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) {
    OPENACL_API();
    if (CheckItem(dataItem) != ACL_SUCCESS) return 0;
    return dataItem->size;
}

size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) {
    OPENACL_API();
    if (CheckItem(dataItem) != ACL_SUCCESS) return 0;
    return dataItem->dims.size();
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum,
                                    size_t* sliceId) {
    OPENACL_API();
    if (aclError rc = CheckItem(dataItem)) return rc;
    if (sliceNum == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "sliceNum is null");
    if (sliceId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "sliceId is null");
    *sliceNum = dataItem->slice_num;
    *sliceId = dataItem->slice_id;
    return ACL_SUCCESS;
}

aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum) {
    OPENACL_API();
    if (aclError rc = CheckItem(dataItem)) return rc;
    if (aclError rc = CheckDims(dims, dimNum)) return rc;
    if (dimNum < dataItem->dims.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dimNum %zu is less than the item's %zu dimension(s)",
                    dimNum, dataItem->dims.size());
    }
    if (!dataItem->dims.empty()) {
        std::memcpy(dims, dataItem->dims.data(), dataItem->dims.size() * sizeof(int64_t));
    }
    return ACL_SUCCESS;
}

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
                                     aclDataType dataType, void* data, size_t size) {
    OPENACL_API();
    if (CheckDims(dims, dimNum) != ACL_SUCCESS) return nullptr;
    if (dimNum > openacl::tdt::kMaxItemDims) {
        Fail(ACL_ERROR_INVALID_PARAM, "dimNum %zu exceeds the limit of %zu", dimNum,
             openacl::tdt::kMaxItemDims);
        return nullptr;
    }
    if (!IsTensorType(tdtType)) {
        Fail(ACL_ERROR_INVALID_PARAM, "tdtType %d is not an acltdtTensorType",
             static_cast<int>(tdtType));
        return nullptr;
    }
    const bool tensor = tdtType == ACL_TENSOR_DATA_TENSOR;
    if (!tensor && dims != nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "dims must be null for a %s item: only a tensor has a shape",
             openacl::tdt::TensorTypeName(tdtType));
        return nullptr;
    }
    if (tensor && data == nullptr && size != 0) {
        Fail(ACL_ERROR_INVALID_PARAM, "data is null but size is %zu", size);
        return nullptr;
    }
    acltdtDataItem* item = openacl::tdt::NewDataItem();
    if (item == nullptr) {
        Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return nullptr;
    }
    item->type = tdtType;
    if (tensor) {
        try {
            item->dims.assign(dims, dims + dimNum);
        } catch (const std::bad_alloc&) {
            openacl::tdt::DeleteDataItem(item);
            Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
            return nullptr;
        }
        item->data_type = dataType;
        item->data = data;
        item->size = size;
    } else if (data != nullptr || size != 0) {
        // CANN keeps neither: a marker carries nothing.
        openacl::Warn("data and size are ignored for a %s item",
                      openacl::tdt::TensorTypeName(tdtType));
    }
    return item;
}

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) {
    OPENACL_API();
    if (aclError rc = CheckItem(dataItem)) return rc;
    if (dataItem->owner != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataItem %p belongs to dataset %p, which a receive filled: "
                    "acltdtDestroyDataset frees it",
                    static_cast<const void*>(dataItem), static_cast<const void*>(dataItem->owner));
    }
    openacl::tdt::DeleteDataItem(dataItem);
    return ACL_SUCCESS;
}

acltdtDataset* acltdtCreateDataset(void) {
    OPENACL_API();
    acltdtDataset* dataset = openacl::tdt::NewDataset();
    if (dataset == nullptr) Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    return dataset;
}

aclError acltdtDestroyDataset(acltdtDataset* dataset) {
    OPENACL_API();
    if (dataset == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataset is null");
    // The program's items stay the program's; received items go with the dataset.
    if (!openacl::tdt::DeleteDataset(dataset)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataset %p is not a live dataset (destroyed already?)",
                    static_cast<const void*>(dataset));
    }
    return ACL_SUCCESS;
}

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index) {
    OPENACL_API();
    if (CheckDataset(dataset) != ACL_SUCCESS) return nullptr;
    if (index >= dataset->items.size()) {
        Fail(ACL_ERROR_INVALID_PARAM, "index %zu is out of range: the dataset holds %zu item(s)",
             index, dataset->items.size());
        return nullptr;
    }
    return dataset->items[index];
}

aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem) {
    OPENACL_API();
    if (aclError rc = CheckDataset(dataset)) return rc;
    if (aclError rc = CheckItem(dataItem)) return rc;
    if (dataset->received) {
        return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "dataset %p was filled by acltdtReceiveTensor: items cannot be added to it",
                    static_cast<const void*>(dataset));
    }
    using Memory = acltdtDataset::Memory;
    const Memory memory = openacl::tdt::MemoryOf(dataItem->data);
    if (memory != Memory::kUnknown && dataset->memory != Memory::kUnknown &&
        memory != dataset->memory) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataItem's data (%p) is in %s memory but the dataset's other items are in "
                    "%s memory: a dataset's data is all host memory or all device memory",
                    dataItem->data, memory == Memory::kHost ? "host" : "device",
                    memory == Memory::kHost ? "device" : "host");
    }
    try {
        dataset->items.push_back(dataItem);
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    }
    if (memory != Memory::kUnknown) dataset->memory = memory;
    return ACL_SUCCESS;
}

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) {
    OPENACL_API();
    if (CheckDataset(dataset) != ACL_SUCCESS) return 0;
    return dataset->items.size();
}

const char* acltdtGetDatasetName(const acltdtDataset* dataset) {
    OPENACL_API();
    if (CheckDataset(dataset) != ACL_SUCCESS) return nullptr;
    return dataset->name.c_str();
}

aclError acltdtStopChannel(acltdtChannelHandle* handle) {
    OPENACL_API();
    return openacl::tdt::StopChannel(handle);
}

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
    OPENACL_API();
    return NewChannel(deviceId, name, openacl::tdt::kDefaultCapacity, false);
}

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name,
                                                     size_t capacity) {
    OPENACL_API();
    if (name != nullptr && std::strlen(name) > openacl::tdt::kMaxNameLength) {
        Fail(ACL_ERROR_INVALID_PARAM, "name is %zu characters long; the limit is %zu",
             std::strlen(name), openacl::tdt::kMaxNameLength);
        return nullptr;
    }
    if (capacity < openacl::tdt::kMinCapacity || capacity > openacl::tdt::kMaxCapacity) {
        Fail(ACL_ERROR_INVALID_PARAM, "capacity %zu is out of range [%zu, %zu]", capacity,
             openacl::tdt::kMinCapacity, openacl::tdt::kMaxCapacity);
        return nullptr;
    }
    return NewChannel(deviceId, name, capacity, true);
}

aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
    OPENACL_API();
    return openacl::tdt::DestroyChannel(handle);
}

aclError acltdtCleanChannel(acltdtChannelHandle* handle) {
    OPENACL_API();
    return openacl::tdt::CleanChannel(handle);
}

aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset,
                          int32_t timeout) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (aclError rc = CheckDataset(dataset)) return rc;
    if (aclError rc = CheckTimeout(timeout)) return rc;
    return openacl::tdt::SendTensor(handle, dataset, timeout);
}

aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset,
                             int32_t timeout) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (aclError rc = CheckDataset(dataset)) return rc;
    if (aclError rc = CheckTimeout(timeout)) return rc;
    return openacl::tdt::ReceiveTensor(handle, dataset, timeout);
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "size is null");
    return openacl::tdt::QueryChannelSize(handle, size);
}
