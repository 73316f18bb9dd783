// acl_mdl.h datasets: the ordered buffers of a model's inputs or outputs and the descriptors
// attached to them. They need neither aclInit nor a device: they only hold pointers.
#include <new>
#include <vector>

#include "acl/acl.h"
#include "core/data_buffer.h"
#include "core/error.h"
#include "model/dataset.h"
#include "model/tensor_desc.h"

using openacl::Fail;
using openacl::model::IsLiveDataset;

namespace {

// INVALID_PARAM with a message unless `dataset` is a live dataset.
aclError CheckDataset(const aclmdlDataset* dataset) {
    if (dataset == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataset is null");
    if (!IsLiveDataset(dataset)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataset %p is not a live dataset (destroyed already, or not made by "
                    "aclmdlCreateDataset)",
                    static_cast<const void*>(dataset));
    }
    return ACL_SUCCESS;
}

aclError CheckIndex(const aclmdlDataset* dataset, size_t index) {
    if (index >= dataset->buffers.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "index %zu is out of range: the dataset holds %zu buffer(s)", index,
                    dataset->buffers.size());
    }
    return ACL_SUCCESS;
}

// Room for one more element, growing geometrically as push_back would.
template <typename T>
void ReserveOneMore(std::vector<T>& items) {
    if (items.size() == items.capacity()) items.reserve(items.empty() ? 4 : 2 * items.size());
}

}  // namespace

aclmdlDataset* aclmdlCreateDataset(void) {
    OPENACL_API();
    aclmdlDataset* dataset = openacl::model::NewDataset();
    if (dataset == nullptr) Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    return dataset;
}

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
    OPENACL_API();
    if (dataset == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataset is null");
    // The buffers stay the caller's: applications destroy them themselves, before or after.
    if (!openacl::model::DeleteDataset(dataset)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataset %p is not a live dataset (destroyed already?)",
                    static_cast<const void*>(dataset));
    }
    return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
    OPENACL_API();
    if (aclError error = CheckDataset(dataset); error != ACL_SUCCESS) return error;
    if (dataBuffer == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataBuffer is null");
    if (!openacl::IsLiveDataBuffer(dataBuffer)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataBuffer %p is not a live data buffer (destroyed already, or not made "
                    "by aclCreateDataBuffer)",
                    static_cast<const void*>(dataBuffer));
    }
    // Both vectors grow together (tensor_descs has one slot per buffer): reserving first makes
    // the appends below unable to fail halfway.
    try {
        ReserveOneMore(dataset->buffers);
        ReserveOneMore(dataset->tensor_descs);
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    }
    dataset->buffers.push_back(dataBuffer);
    dataset->tensor_descs.push_back(nullptr);
    return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
    OPENACL_API();
    if (CheckDataset(dataset) != ACL_SUCCESS) return 0;
    return dataset->buffers.size();
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
    OPENACL_API();
    if (CheckDataset(dataset) != ACL_SUCCESS) return nullptr;
    if (CheckIndex(dataset, index) != ACL_SUCCESS) return nullptr;
    return dataset->buffers[index];
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc,
                                    size_t index) {
    OPENACL_API();
    if (aclError error = CheckDataset(dataset); error != ACL_SUCCESS) return error;
    if (aclError error = CheckIndex(dataset, index); error != ACL_SUCCESS) return error;
    // A null tensorDesc clears the slot: the dataset then describes that buffer by the model.
    if (tensorDesc != nullptr && !openacl::model::IsLiveTensorDesc(tensorDesc)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "tensorDesc %p is not a live tensor descriptor (destroyed already?)",
                    static_cast<const void*>(tensorDesc));
    }
    // The dataset keeps its own copy, so the caller may destroy tensorDesc right away.
    if (!openacl::model::SetDatasetTensorDesc(dataset, index, tensorDesc)) {
        return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    }
    return ACL_SUCCESS;
}

aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index) {
    OPENACL_API();
    if (CheckDataset(dataset) != ACL_SUCCESS) return nullptr;
    if (CheckIndex(dataset, index) != ACL_SUCCESS) return nullptr;
    // nullptr without a message when none was set: that is a state, not a failure.
    return dataset->tensor_descs[index];
}
