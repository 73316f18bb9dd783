// Tril and Triu (and their in-place forms): the lower or upper triangle of the last two
// dimensions kept (relative to `diagonal`), the rest zero.
#pragma once

#include "aclnn/op_executor.h"

namespace openacl::aclnn {

aclnnStatus PlanTriangle(const char* api, bool lower, const aclTensor* self, int64_t diagonal,
                         const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                         aclOpExecutor** executor);

}  // namespace openacl::aclnn
