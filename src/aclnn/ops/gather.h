// Gathers along one dimension by indices read when the task runs (GatherV2, IndexSelect,
// Embedding): out = self with dimension `dim` replaced by the index tensor's dimensions.
#pragma once

#include "aclnn/op_executor.h"

namespace openacl::aclnn {

// self (named self_name), dim, index and out, as the operators take them; api names the
// second phase.
aclnnStatus PlanGather(const char* api, const aclTensor* self, const char* self_name, int64_t dim,
                       const aclTensor* index, const char* index_name, const aclTensor* out,
                       uint64_t* workspaceSize, aclOpExecutor** executor);

// IndexCopy: target's slices along dim at index[i] = source's slice i (index 1-D, source shaped
// like target with index's length along dim). With copy_from (the non-in-place form), target
// is first filled from it.
aclnnStatus PlanIndexCopy(const char* api, const aclTensor* target, const char* target_name,
                          const aclTensor* copy_from, int64_t dim, const aclTensor* index,
                          const aclTensor* source, uint64_t* workspaceSize,
                          aclOpExecutor** executor);

}  // namespace openacl::aclnn
