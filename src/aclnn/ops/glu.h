// Gated linear units (SwiGlu, GeGluV3): x split in two halves along dim, one half through an
// activation, the product with the other half written to out (and, for GeGlu, the activated
// half to outGelu). The activation is kept in float in the workspace, so a 16-bit result is
// rounded once.
#pragma once

#include "aclnn/op_executor.h"
#include "ops/elementwise.h"

namespace openacl::aclnn {

struct GluSpec {
    const char* api;
    ops::UnaryOp activation;
    bool activate_left = true;  // which half goes through the activation
};

aclnnStatus PlanGlu(const GluSpec& spec, const aclTensor* x, const char* x_name, int64_t dim,
                    const aclTensor* out, const aclTensor* activated_out, uint64_t* workspaceSize,
                    aclOpExecutor** executor);

}  // namespace openacl::aclnn
