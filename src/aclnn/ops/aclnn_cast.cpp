// aclnnop/aclnn_cast.h: out = self converted to dtype. Floating values to integers truncate
// toward zero and saturate (NaN gives 0), anything to bool is "not zero", float16 and bfloat16
// round to nearest even; a conversion to the same type copies the bits.
#include "aclnnop/aclnn_cast.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"
#include "ops/dtype.h"

using openacl::Fail;

namespace {

// CANN's list for self and dtype (the real types openacl computes on).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                         ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                         ACL_INT64, ACL_UINT64,  ACL_BOOL};

}  // namespace

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView src, dst;
    if (aclnnStatus rc = ViewOf(self, "self", &src); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &dst); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(src, kTypes); rc != ACLNN_SUCCESS) return rc;
    bool listed = false;
    for (aclDataType type : kTypes)
        listed = listed || type == dtype;
    if (!listed) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "dtype is %s: aclnnCast converts to bool, integer and floating types",
                    openacl::ops::DtypeName(dtype));
    }
    if (dst.dtype != dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out is %s but dtype is %s: out holds the result",
                    openacl::ops::DtypeName(dst.dtype), openacl::ops::DtypeName(dtype));
    }
    if (aclnnStatus rc = CheckShape(dst, src.shape); rc != ACLNN_SUCCESS) return rc;
    return PlanConvert("aclnnCast", src, self, dst, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Cast)
