// aclnnop/aclnn_avgpool2d_backward.h: gradInput = the gradient of aclnnAvgPool2d with respect to
// self, given gradOutput (the gradient of its result) and the same window: each element of
// gradOutput divided by its window's divisor is added to every element of self the window
// covers (the padding takes its share and drops it). The window rules, types and layouts are
// aclnnAvgPool2d's; gradOutput has the pooled shape, gradInput self's. Computed in double,
// rounded once to gradInput's type.
#include "aclnnop/aclnn_avgpool2d_backward.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/pool2d.h"
#include "core/error.h"
#include "ops/dtype.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnAvgPool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, bool ceilMode, bool countIncludePad,
    int64_t divisorOverride, int8_t cubeMathType, aclTensor* gradInput, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(gradOutput, "gradOutput"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(kernelSize, "kernelSize"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(stride, "stride"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(padding, "padding"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(gradInput, "gradInput"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    PoolViews views;
    if (aclnnStatus rc = PoolViewsOf(self, gradOutput, ACL_FORMAT_NCL, ACL_FORMAT_NCHW, &views,
                                     "self", "gradOutput");
        rc != 0) {
        return rc;
    }
    TensorView grad_in;
    if (aclnnStatus rc = ViewOf(gradInput, "gradInput", &grad_in); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(views.self, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}); rc != 0) {
        return rc;
    }
    for (const TensorView* view : {&views.out, &grad_in}) {
        if (view->dtype != views.self.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s is %s but self is %s: they must be the same type", view->name,
                        openacl::ops::DtypeName(view->dtype),
                        openacl::ops::DtypeName(views.self.dtype));
        }
    }
    TensorView self_view;
    if (aclnnStatus rc = ViewOf(self, "self", &self_view); rc != 0) return rc;
    if (aclnnStatus rc = CheckShape(grad_in, self_view.shape); rc != 0) return rc;
    if (grad_in.format != self_view.format) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "gradInput has format %s but self %s: they must agree",
                    FormatText(grad_in.format), FormatText(self_view.format));
    }
    openacl::ops::Pool2dArgs args;
    if (aclnnStatus rc = AvgPoolArgsOf(kernelSize, stride, padding, countIncludePad,
                                       divisorOverride, cubeMathType, &args, "stride", "padding");
        rc != 0) {
        return rc;
    }
    const int64_t out_h = PooledSize(views.self.shape.dims[2], args.kernel[0], args.pad_begin[0],
                                     args.pad_end[0], args.stride[0], 1, ceilMode);
    const int64_t out_w = PooledSize(views.self.shape.dims[3], args.kernel[1], args.pad_begin[1],
                                     args.pad_end[1], args.stride[1], 1, ceilMode);
    if (aclnnStatus rc = CheckPooledShape(views, out_h, out_w); rc != 0) return rc;
    return FinishAvgPool2dBackward(views, gradOutput, Batched(grad_in), gradInput, args,
                                   workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(AvgPool2dBackward)
