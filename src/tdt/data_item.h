// TDT data items (acltdtDataItem): one tensor of a dataset sent over a data channel, or a marker
// (end of sequence, abnormal) that carries nothing. An item a program makes refers to the
// program's data; an item a receive makes owns a copy and belongs to the dataset it arrived in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_tdt.h"

struct acltdtDataItem {
    acltdtTensorType type = ACL_TENSOR_DATA_UNDEFINED;
    std::vector<int64_t> dims;
    aclDataType data_type = ACL_DT_UNDEFINED;
    void* data = nullptr;  // the program's memory, or owned.get()
    size_t size = 0;
    std::unique_ptr<uint8_t[]> owned;  // a received item's bytes
    // Slicing: which piece of how many a sliced tensor this is. Only the device side slices,
    // so items made on the host, and what openacl's channels deliver, are whole (0, 0).
    size_t slice_num = 0;
    size_t slice_id = 0;
    // The received dataset that frees this item with itself; nullptr for a program's item.
    const acltdtDataset* owner = nullptr;
};

namespace openacl::tdt {

// CANN's bound on an item's dimensions.
constexpr size_t kMaxItemDims = 128;

// A registered, empty item (nullptr when out of memory).
acltdtDataItem* NewDataItem();
// Unregisters and frees a live item; false when `item` is not live.
bool DeleteDataItem(const acltdtDataItem* item);
bool IsLiveDataItem(const acltdtDataItem* item);
// The names of the tensor types, for messages ("ACL_TENSOR_DATA_TENSOR"; "unknown" otherwise).
const char* TensorTypeName(acltdtTensorType type);

}  // namespace openacl::tdt
