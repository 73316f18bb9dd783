// aclnnop/aclnn_avgpool2d.h: out = 2-D average pooling of self ([N, C, H, W] labelled NCHW, or
// [C, H, W] labelled NCL) with PyTorch's rules: kernelSize, strides (empty: the kernel) and
// paddings take one value for both axes or two (H, W); each padding at most half its kernel;
// ceilMode rounds the output size up but drops a window that would start past the input and
// its leading padding; countIncludePad counts the zero padding a window covers (never what
// ceilMode adds past it); a non-zero divisorOverride replaces the divisor. Computed in double,
// rounded to out's type; cubeMathType only permits lower precision on the NPU.
#include "aclnnop/aclnn_avgpool2d.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/pool2d.h"
#include "core/error.h"
#include "ops/dtype.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                           const aclIntArray* strides, const aclIntArray* paddings,
                                           bool ceilMode, bool countIncludePad,
                                           int64_t divisorOverride, int8_t cubeMathType,
                                           aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(kernelSize, "kernelSize"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(strides, "strides"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(paddings, "paddings"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    PoolViews views;
    if (aclnnStatus rc = PoolViewsOf(self, out, ACL_FORMAT_NCL, ACL_FORMAT_NCHW, &views); rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = CheckDtype(views.self, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}); rc != 0) {
        return rc;
    }
    if (views.out.dtype != views.self.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out is %s but self is %s: they must be the same type",
                    openacl::ops::DtypeName(views.out.dtype),
                    openacl::ops::DtypeName(views.self.dtype));
    }
    openacl::ops::Pool2dArgs args;
    if (aclnnStatus rc = AvgPoolArgsOf(kernelSize, strides, paddings, countIncludePad,
                                       divisorOverride, cubeMathType, &args);
        rc != 0) {
        return rc;
    }
    const int64_t out_h = PooledSize(views.self.shape.dims[2], args.kernel[0], args.pad_begin[0],
                                     args.pad_end[0], args.stride[0], 1, ceilMode);
    const int64_t out_w = PooledSize(views.self.shape.dims[3], args.kernel[1], args.pad_begin[1],
                                     args.pad_end[1], args.stride[1], 1, ceilMode);
    if (aclnnStatus rc = CheckPooledShape(views, out_h, out_w); rc != 0) return rc;
    return FinishPool2d("aclnnAvgPool2d", views, self, out, args, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(AvgPool2d)
