// aclnnop/aclnn_gelu_v2.h: y = GELU(x), with the tanh approximation when approximate is 1 and
// exactly (x * Phi(x), through erf) otherwise (CANN maps every other value to "none").
#include "aclnnop/aclnn_gelu_v2.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's list: x and y share one of these types.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kTanh = 1;

}  // namespace

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    const UnarySpec spec = {.api = "aclnnGeluV2",
                            .op = approximate == kTanh ? UnaryOp::kGeluTanh : UnaryOp::kGeluErf,
                            .dtypes = kTypes,
                            .same_dtype = true,
                            .self_name = "x",
                            .out_name = "y"};
    return openacl::aclnn::PlanUnary(spec, x, y, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(GeluV2)
