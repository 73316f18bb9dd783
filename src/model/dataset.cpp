#include "model/dataset.h"

#include <mutex>
#include <new>

#include "core/live_set.h"

namespace openacl::model {
namespace {

// Never destroyed: datasets may be released from static destructors of applications.
LiveSet<aclmdlDataset>& LiveDatasets() {
    static auto* live = new LiveSet<aclmdlDataset>;
    return *live;
}

}  // namespace

aclmdlDataset* NewDataset() {
    auto* dataset = new (std::nothrow) aclmdlDataset;
    if (dataset == nullptr) return nullptr;
    if (LiveDatasets().Add(dataset) == nullptr) {
        delete dataset;
        return nullptr;
    }
    return dataset;
}

bool DeleteDataset(const aclmdlDataset* dataset) {
    if (!LiveDatasets().Remove(dataset)) return false;
    for (const aclTensorDesc* desc : dataset->tensor_descs)
        DeleteTensorDesc(desc);
    delete dataset;
    return true;
}

bool IsLiveDataset(const aclmdlDataset* dataset) {
    return LiveDatasets().Contains(dataset);
}

bool SetDatasetTensorDesc(aclmdlDataset* dataset, size_t index, const aclTensorDesc* desc) {
    if (dataset == nullptr || index >= dataset->tensor_descs.size()) return false;
    aclTensorDesc* copy = nullptr;
    if (desc != nullptr) {
        // Copied before the old one is released: desc may be the descriptor being replaced.
        copy = CloneOwnedTensorDesc(*desc);
        if (copy == nullptr) return false;
    }
    DeleteTensorDesc(dataset->tensor_descs[index]);
    dataset->tensor_descs[index] = copy;
    return true;
}

}  // namespace openacl::model
