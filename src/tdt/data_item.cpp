#include "tdt/data_item.h"

#include <mutex>
#include <new>

#include "core/live_set.h"

namespace openacl::tdt {
namespace {

// Never destroyed: programs may free items from their static destructors.
LiveSet<acltdtDataItem>& LiveItems() {
    static auto* live = new LiveSet<acltdtDataItem>;
    return *live;
}

}  // namespace

acltdtDataItem* NewDataItem() {
    auto* item = new (std::nothrow) acltdtDataItem;
    if (item == nullptr) return nullptr;
    if (LiveItems().Add(item) == nullptr) {
        delete item;
        return nullptr;
    }
    return item;
}

bool DeleteDataItem(const acltdtDataItem* item) {
    if (!LiveItems().Remove(item)) return false;
    delete item;
    return true;
}

bool IsLiveDataItem(const acltdtDataItem* item) {
    return LiveItems().Contains(item);
}

const char* TensorTypeName(acltdtTensorType type) {
    switch (type) {
        case ACL_TENSOR_DATA_UNDEFINED:
            return "ACL_TENSOR_DATA_UNDEFINED";
        case ACL_TENSOR_DATA_TENSOR:
            return "ACL_TENSOR_DATA_TENSOR";
        case ACL_TENSOR_DATA_END_OF_SEQUENCE:
            return "ACL_TENSOR_DATA_END_OF_SEQUENCE";
        case ACL_TENSOR_DATA_ABNORMAL:
            return "ACL_TENSOR_DATA_ABNORMAL";
        case ACL_TENSOR_DATA_SLICE_TENSOR:
            return "ACL_TENSOR_DATA_SLICE_TENSOR";
        case ACL_TENSOR_DATA_END_TENSOR:
            return "ACL_TENSOR_DATA_END_TENSOR";
    }
    return "unknown";
}

}  // namespace openacl::tdt
