// aclnnop/aclnn_max_pool.h: out = 2-D max pooling of self ([N, C, H, W] or [C, H, W], any plain
// format, the same for out) with ONNX-like parameters: kernelShape one value or (H, W);
// strides empty (1), one value or (H, W); pads empty (0), one value, (H, W) for both sides, or
// ONNX's [top, left, bottom, right], the two pads of an axis adding up to at most its kernel;
// autoPad only 0 (NOTSET); dilations (empty, 1, 2 or 4 values) only 1; ceilMode non-zero rounds
// the output size up but drops a window that would start past the input and its leading
// padding. Padding never wins; NaN propagates; integers compare exactly.
#include "aclnnop/aclnn_max_pool.h"

#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/pool2d.h"
#include "core/error.h"
#include "ops/dtype.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

namespace {

aclnnStatus CheckCount(const aclIntArray* array, const char* name,
                       std::initializer_list<size_t> counts, const char* text) {
    for (size_t count : counts) {
        if (array->values.size() == count) return ACLNN_SUCCESS;
    }
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %zu values: it takes %s", name,
                array->values.size(), text);
}

}  // namespace

aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape,
                                         const aclIntArray* strides, int64_t autoPad,
                                         const aclIntArray* pads, const aclIntArray* dilations,
                                         int64_t ceilMode, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(kernelShape, "kernelShape"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(strides, "strides"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(pads, "pads"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dilations, "dilations"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    PoolViews views;
    if (aclnnStatus rc = PoolViewsOf(self, out, ACL_FORMAT_UNDEFINED, ACL_FORMAT_UNDEFINED, &views);
        rc != 0) {
        return rc;
    }
    if (aclnnStatus rc =
            CheckDtype(views.self, {ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32, ACL_INT64,
                                    ACL_UINT8, ACL_INT16, ACL_INT8, ACL_UINT16});
        rc != 0) {
        return rc;
    }
    if (views.out.dtype != views.self.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out is %s but self is %s: they must be the same type",
                    openacl::ops::DtypeName(views.out.dtype),
                    openacl::ops::DtypeName(views.self.dtype));
    }
    if (aclnnStatus rc = CheckCount(kernelShape, "kernelShape", {1, 2}, "1 or 2"); rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = CheckCount(strides, "strides", {0, 1, 2}, "0, 1 or 2"); rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = CheckCount(pads, "pads", {0, 1, 2, 4}, "0, 1, 2 or 4"); rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = CheckCount(dilations, "dilations", {0, 1, 2, 4}, "0, 1, 2 or 4");
        rc != 0) {
        return rc;
    }
    if (autoPad != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "autoPad is %" PRId64 ": only 0 (NOTSET, the pads as given) is supported",
                    autoPad);
    }
    for (int64_t dilation : dilations->values) {
        if (dilation != 1) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "dilations hold %" PRId64 ": only 1 (no dilation) is supported", dilation);
        }
    }
    openacl::ops::Pool2dArgs args;
    args.kind = openacl::ops::PoolKind::kMax;
    const std::vector<int64_t>& k = kernelShape->values;
    args.kernel[0] = k[0];
    args.kernel[1] = k.size() == 2 ? k[1] : k[0];
    const std::vector<int64_t>& s = strides->values;
    args.stride[0] = s.empty() ? 1 : s[0];
    args.stride[1] = s.empty() ? 1 : s.size() == 2 ? s[1] : s[0];
    const std::vector<int64_t>& p = pads->values;
    if (p.size() == 1) {
        args.pad_begin[0] = args.pad_begin[1] = args.pad_end[0] = args.pad_end[1] = p[0];
    } else if (p.size() == 2) {
        args.pad_begin[0] = args.pad_end[0] = p[0];
        args.pad_begin[1] = args.pad_end[1] = p[1];
    } else if (p.size() == 4) {  // ONNX: the begins of H and W, then their ends
        args.pad_begin[0] = p[0];
        args.pad_begin[1] = p[1];
        args.pad_end[0] = p[2];
        args.pad_end[1] = p[3];
    }
    for (int i = 0; i < 2; ++i) {
        if (args.kernel[i] <= 0 || args.stride[i] <= 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "the kernel is (%" PRId64 ", %" PRId64 ") and the strides (%" PRId64
                        ", %" PRId64 "): both must be 1 or more",
                        args.kernel[0], args.kernel[1], args.stride[0], args.stride[1]);
        }
        if (args.pad_begin[i] < 0 || args.pad_end[i] < 0 ||
            args.pad_begin[i] + args.pad_end[i] > args.kernel[i]) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "axis %d is padded by %" PRId64 " and %" PRId64
                        ": pads must be 0 or more and add up to at most the kernel (%" PRId64 ")",
                        i, args.pad_begin[i], args.pad_end[i], args.kernel[i]);
        }
    }
    const bool ceil = ceilMode != 0;
    const int64_t out_h = PooledSize(views.self.shape.dims[2], args.kernel[0], args.pad_begin[0],
                                     args.pad_end[0], args.stride[0], 1, ceil);
    const int64_t out_w = PooledSize(views.self.shape.dims[3], args.kernel[1], args.pad_begin[1],
                                     args.pad_end[1], args.stride[1], 1, ceil);
    if (aclnnStatus rc = CheckPooledShape(views, out_h, out_w); rc != 0) return rc;
    return FinishPool2d("aclnnMaxPool", views, self, out, args, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(MaxPool)
