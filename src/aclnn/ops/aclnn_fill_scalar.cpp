// aclnnop/aclnn_fill_scalar.h: every element of selfRef = value, converted to selfRef's type
// (floating values truncate toward zero for integers; bool is "not zero").
#include "aclnnop/aclnn_fill_scalar.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"

namespace {

// CANN's list for selfRef (the real types openacl computes on).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                         ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                         ACL_INT64, ACL_UINT64,  ACL_BOOL};

}  // namespace

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    if (aclnnStatus rc = CheckTensorObject(selfRef, "selfRef"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckScalarObject(value, "value"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView view;
    if (aclnnStatus rc = ViewOf(selfRef, "selfRef", &view); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(view, kTypes); rc != ACLNN_SUCCESS) return rc;
    return PlanFill("aclnnInplaceFillScalar", view, selfRef, value->ToDouble(), value->ToInt64(),
                    workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceFillScalar)
