// aclnnop/aclnn_tanh.h: out = tanh(self); integers and bool compute in float.
#include "aclnnop/aclnn_tanh.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnaryResult;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_BOOL, ACL_UINT8,
                         ACL_INT8,  ACL_INT16,   ACL_INT32, ACL_INT64};
constexpr auto kOutTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_BOOL, ACL_UINT8,
                            ACL_INT8,  ACL_INT16,   ACL_INT32, ACL_INT64};
constexpr auto kInplaceTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kTanh,
            .dtypes = kTypes,
            .out_dtypes = kOutTypes,
            .inplace_dtypes = kInplaceTypes,
            .result = UnaryResult::kFloating,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnTanh", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Tanh)

aclnnStatus aclnnInplaceTanhGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnInplaceTanh", "selfRef"), selfRef, selfRef, true, workspaceSize,
                     executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceTanh)
