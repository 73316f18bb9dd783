// aclnnop/aclnn_constant_pad_nd.h: out = self padded with `value`. pad holds (before, after)
// pairs from the last dimension backwards; negative amounts crop instead.
#include "aclnnop/aclnn_constant_pad_nd.h"

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"
#include "ops/dtype.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad,
                                               const aclScalar* value, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(pad, "pad"); rc != 0) return rc;
    if (aclnnStatus rc = CheckScalarObject(value, "value"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    const int rank = in.shape.rank;
    const size_t amounts = pad->values.size();
    if (amounts % 2 != 0 || amounts > static_cast<size_t>(2 * rank)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "pad has %zu entries: it takes (before, after) pairs for at most self's %d "
                    "dimensions",
                    amounts, rank);
    }
    openacl::ops::LoopShape padded = in.shape;
    Piece copy;  // the part of self that lands in out
    copy.shape = in.shape;
    copy.src = RegionOf(in, -1);
    copy.dst = RegionOf(o, -1);
    for (size_t pair = 0; pair < amounts / 2; ++pair) {
        const int d = rank - 1 - static_cast<int>(pair);
        const int64_t before = pad->values[2 * pair], after = pad->values[2 * pair + 1];
        const int64_t size = in.shape.dims[d];
        padded.dims[d] = size + before + after;
        if (padded.dims[d] < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "pad (%" PRId64 ", %" PRId64 ") crops dimension %d of size %" PRId64
                        " below nothing",
                        before, after, d, size);
        }
        const int64_t from = std::max<int64_t>(0, -before), to = std::max<int64_t>(0, before);
        const int64_t length = std::max<int64_t>(0, size - from - std::max<int64_t>(0, -after));
        openacl::ops::LoopShape unused = in.shape;
        Narrow(&copy.shape, &copy.src, d, from, length);
        Narrow(&unused, &copy.dst, d, to, length);
    }
    if (aclnnStatus rc = CheckShape(o, padded); rc != 0) return rc;
    if (!openacl::ops::CanCast(value->dtype, in.dtype) &&
        !(openacl::ops::IsFloating(value->dtype) && openacl::ops::IsIntegral(in.dtype))) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "value is %s, which cannot fill a %s tensor",
                    openacl::ops::DtypeName(value->dtype), openacl::ops::DtypeName(in.dtype));
    }
    ExecutorBuilder builder("aclnnConstantPadNd");
    copy.src.slot = builder.Input(in, self);
    copy.dst.slot = builder.Output(o, out);
    Piece fill;
    fill.shape = padded;
    fill.dst = RegionOf(o, copy.dst.slot);
    fill.value = value->ToDouble();
    fill.value_int = value->ToInt64();
    return FinishMovement(builder, {fill, copy}, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ConstantPadNd)
