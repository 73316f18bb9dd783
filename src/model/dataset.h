// Datasets (aclmdlDataset): the ordered data buffers of a model's inputs or outputs, with an
// optional tensor descriptor per buffer (the actual shape of a dynamic input, or an output's
// shape after execution). A dataset owns its descriptors, never its buffers.
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_mdl.h"
#include "core/data_buffer.h"
#include "model/tensor_desc.h"

struct aclmdlDataset {
    std::vector<aclDataBuffer*> buffers;
    std::vector<aclTensorDesc*> tensor_descs;  // same length as buffers; nullptr = none set
    // Dynamic-shape choices made with aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize /
    // aclmdlSetInputDynamicDims: 0 = not set.
    uint64_t dynamic_batch = 0;
    uint64_t dynamic_height = 0;
    uint64_t dynamic_width = 0;
    int64_t dynamic_dims_gear = -1;  // aclmdlSetInputDynamicDims: the gear's index; -1 = not set
};

namespace openacl::model {

// Creates a registered, empty dataset (nullptr when out of memory).
aclmdlDataset* NewDataset();
// Frees a live dataset and the descriptors it owns, never its buffers; false when `dataset` is
// not live.
bool DeleteDataset(const aclmdlDataset* dataset);
bool IsLiveDataset(const aclmdlDataset* dataset);
// Replaces the descriptor at index (the dataset takes a copy of desc; nullptr clears).
bool SetDatasetTensorDesc(aclmdlDataset* dataset, size_t index, const aclTensorDesc* desc);

}  // namespace openacl::model
