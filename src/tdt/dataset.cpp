#include "tdt/dataset.h"

#include <mutex>
#include <new>

#include "core/memory.h"
#include "tdt/data_item.h"

#include "core/live_set.h"

namespace openacl::tdt {
namespace {

// Never destroyed: programs may free datasets from their static destructors.
LiveSet<acltdtDataset>& LiveDatasets() {
    static auto* live = new LiveSet<acltdtDataset>;
    return *live;
}

}  // namespace

acltdtDataset* NewDataset() {
    auto* dataset = new (std::nothrow) acltdtDataset;
    if (dataset == nullptr) return nullptr;
    if (LiveDatasets().Add(dataset) == nullptr) {
        delete dataset;
        return nullptr;
    }
    return dataset;
}

bool DeleteDataset(const acltdtDataset* dataset) {
    if (!LiveDatasets().Remove(dataset)) return false;
    ClearReceived(const_cast<acltdtDataset*>(dataset));
    delete dataset;
    return true;
}

bool IsLiveDataset(const acltdtDataset* dataset) {
    return LiveDatasets().Contains(dataset);
}

void ClearReceived(acltdtDataset* dataset) {
    if (!dataset->received) return;
    for (const acltdtDataItem* item : dataset->items)
        DeleteDataItem(item);
    dataset->items.clear();
}

acltdtDataset::Memory MemoryOf(const void* data) {
    if (data == nullptr) return acltdtDataset::Memory::kUnknown;
    const MemDomain domain = ClassifyPointer(data).domain;
    // Freed device memory counts as device memory: the send reports it.
    return domain == MemDomain::kDevice || domain == MemDomain::kDeviceFreed
               ? acltdtDataset::Memory::kDevice
               : acltdtDataset::Memory::kHost;
}

}  // namespace openacl::tdt
