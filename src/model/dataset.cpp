#include "model/dataset.h"

#include <mutex>
#include <new>
#include <unordered_set>

namespace openacl::model {
namespace {

std::mutex g_datasets_mutex;
// Never destroyed: datasets may be released from static destructors of applications.
std::unordered_set<const aclmdlDataset*>& LiveDatasets() {
    static auto* live = new std::unordered_set<const aclmdlDataset*>;
    return *live;
}

}  // namespace

aclmdlDataset* NewDataset() {
    auto* dataset = new (std::nothrow) aclmdlDataset;
    if (dataset == nullptr) return nullptr;
    try {
        std::lock_guard lock(g_datasets_mutex);
        LiveDatasets().insert(dataset);
    } catch (const std::bad_alloc&) {
        delete dataset;
        return nullptr;
    }
    return dataset;
}

bool DeleteDataset(const aclmdlDataset* dataset) {
    {
        std::lock_guard lock(g_datasets_mutex);
        if (LiveDatasets().erase(dataset) == 0) return false;
    }
    for (const aclTensorDesc* desc : dataset->tensor_descs)
        DeleteTensorDesc(desc);
    delete dataset;
    return true;
}

bool IsLiveDataset(const aclmdlDataset* dataset) {
    std::lock_guard lock(g_datasets_mutex);
    return LiveDatasets().count(dataset) != 0;
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
