// aclnnop/aclnn_log.h: out = ln(self); integers and bool compute in float.
#include "aclnnop/aclnn_log.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnaryResult;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_BOOL,
                         ACL_INT64, ACL_INT32,   ACL_INT16, ACL_INT8,   ACL_UINT8};
constexpr auto kOutTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kLog,
            .dtypes = kTypes,
            .out_dtypes = kOutTypes,
            .inplace_dtypes = kOutTypes,
            .result = UnaryResult::kFloating,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnLogGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnLog", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Log)

aclnnStatus aclnnInplaceLogGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnInplaceLog", "selfRef"), selfRef, selfRef, true, workspaceSize,
                     executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceLog)
