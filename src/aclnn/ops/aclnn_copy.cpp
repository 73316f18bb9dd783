// aclnnop/aclnn_copy.h: selfRef = src, src broadcast to selfRef's shape and converted to its
// type (any conversion: floating to integer truncates toward zero and saturates, anything to
// bool is "not zero"). A src that shares memory with selfRef other than as the very same view is
// read completely before selfRef is written.
#include "aclnnop/aclnn_copy.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"

namespace {

// CANN's list for selfRef and src (the real types openacl computes on).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                         ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                         ACL_INT64, ACL_UINT64,  ACL_BOOL};

}  // namespace

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    if (aclnnStatus rc = CheckTensorObject(selfRef, "selfRef"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(src, "src"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView dst, from;
    if (aclnnStatus rc = ViewOf(selfRef, "selfRef", &dst); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(src, "src", &from); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(dst, kTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(from, kTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckBroadcastsTo(from, dst.shape); rc != ACLNN_SUCCESS) return rc;
    return PlanConvert("aclnnInplaceCopy", from, src, dst, selfRef, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceCopy)
