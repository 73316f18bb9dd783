// aclnnop/aclnn_reflection_pad1d.h: the last dimension padded with its own mirror image
// (without repeating the edge): padding = (left, right), each less than the dimension.
#include "aclnnop/aclnn_reflection_pad1d.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(padding, "padding"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (in.shape.rank != 2 && in.shape.rank != 3) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "self has %d dimensions: it takes 2 or 3",
                    in.shape.rank);
    }
    if (padding->values.size() != 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "padding has %zu values: it takes (left, right)",
                    padding->values.size());
    }
    const int last = in.shape.rank - 1;
    const int64_t width = in.shape.dims[last];
    const int64_t left = padding->values[0], right = padding->values[1];
    if (left < 0 || right < 0 || left >= width || right >= width) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "padding (%" PRId64 ", %" PRId64
                    ") must be 0 or more and less than the "
                    "padded dimension (%" PRId64 ")",
                    left, right, width);
    }
    openacl::ops::LoopShape padded = in.shape;
    padded.dims[last] = width + left + right;
    if (aclnnStatus rc = CheckShape(o, padded); rc != 0) return rc;
    ExecutorBuilder builder("aclnnReflectionPad1d");
    const int in_slot = builder.Input(in, self);
    const int out_slot = builder.Output(o, out);
    Piece middle = WholeCopy(in, in_slot, o, out_slot);
    middle.shape = in.shape;  // the input's width, not the padded one
    middle.dst.offset += left * o.strides[last];
    // The left edge is columns left..1 read backwards; the right, columns width-2.. backwards.
    Piece head = middle, tail = middle;
    head.shape.dims[last] = left;
    head.src.offset += left * in.strides[last];
    head.src.strides[last] = -in.strides[last];
    head.dst.offset -= left * o.strides[last];
    tail.shape.dims[last] = right;
    tail.src.offset += (width - 2) * in.strides[last];
    tail.src.strides[last] = -in.strides[last];
    tail.dst.offset += width * o.strides[last];
    return FinishMovement(builder, {middle, head, tail}, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ReflectionPad1d)
