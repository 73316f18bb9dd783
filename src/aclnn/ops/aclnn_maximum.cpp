// aclnnop/aclnn_maximum.h: out = the larger of self and other (NaN wins), with broadcasting and
// type promotion.
#include "aclnnop/aclnn_maximum.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::ops::BinaryOp;

namespace {

// CANN's list for Maximum.
constexpr auto kMaximumTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

}  // namespace

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanBinary(
        {.api = "aclnnMaximum", .op = BinaryOp::kMaximum, .dtypes = kMaximumTypes}, self, other,
        nullptr, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Maximum)
