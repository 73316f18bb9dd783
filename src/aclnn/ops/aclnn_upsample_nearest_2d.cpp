// aclnnop/aclnn_upsample_nearest_2d.h: self [N, C, H, W] resized to outputSize [OH, OW] by
// nearest neighbour: output row y reads input row floor(y * H / OH) (columns alike). Whole
// scale factors are one strided copy; other sizes one copy per output row and column run.
#include "aclnnop/aclnn_upsample_nearest_2d.h"

#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor* self,
                                                   const aclIntArray* outputSize, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(outputSize, "outputSize"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_UINT8});
        rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (in.shape.rank != 4) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "self has %d dimensions: it takes [N, C, H, W]",
                    in.shape.rank);
    }
    if (outputSize->values.size() != 2 || outputSize->values[0] <= 0 ||
        outputSize->values[1] <= 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "outputSize must be two positive sizes (it has %zu values)",
                    outputSize->values.size());
    }
    if (in.format == ACL_FORMAT_NHWC) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self is labelled NHWC: openacl reads its dimensions as [N, C, H, W] only");
    }
    const int64_t h = in.shape.dims[2], w = in.shape.dims[3];
    const int64_t oh = outputSize->values[0], ow = outputSize->values[1];
    openacl::ops::LoopShape expected = in.shape;
    expected.dims[2] = oh;
    expected.dims[3] = ow;
    if (aclnnStatus rc = CheckShape(o, expected); rc != 0) return rc;
    ExecutorBuilder builder("aclnnUpsampleNearest2d");
    const int in_slot = builder.Input(in, self);
    const int out_slot = builder.Output(o, out);
    std::vector<Piece> pieces;
    if (h > 0 && w > 0 && oh % h == 0 && ow % w == 0) {
        // [N, C, H, fh, W, fw]: each input element repeated over an fh x fw block.
        Piece piece;
        piece.shape.rank = 6;
        const int64_t dims[6] = {in.shape.dims[0], in.shape.dims[1], h, oh / h, w, ow / w};
        const int64_t src[6] = {in.strides[0], in.strides[1], in.strides[2], 0, in.strides[3], 0};
        const int64_t dst[6] = {o.strides[0],
                                o.strides[1],
                                o.strides[2] * (oh / h),
                                o.strides[2],
                                o.strides[3] * (ow / w),
                                o.strides[3]};
        piece.src = RegionOf(in, in_slot);
        piece.dst = RegionOf(o, out_slot);
        for (int d = 0; d < 6; ++d) {
            piece.shape.dims[d] = dims[d];
            piece.src.strides[d] = src[d];
            piece.dst.strides[d] = dst[d];
        }
        pieces.push_back(piece);
    } else if (h > 0 && w > 0) {
        // Output columns that read the same input column form runs; each (row, run) is a copy
        // over [N, C, 1, run] with a stride-0 source column.
        for (int64_t y = 0; y < oh; ++y) {
            const int64_t sy = y * h / oh;
            for (int64_t x = 0; x < ow;) {
                const int64_t sx = x * w / ow;
                int64_t end = x + 1;
                while (end < ow && end * w / ow == sx)
                    ++end;
                Piece piece = WholeCopy(in, in_slot, o, out_slot);
                piece.shape.dims[2] = 1;
                piece.shape.dims[3] = end - x;
                piece.src.offset += sy * in.strides[2] + sx * in.strides[3];
                piece.src.strides[3] = 0;
                piece.dst.offset += y * o.strides[2] + x * o.strides[3];
                pieces.push_back(piece);
                x = end;
            }
        }
    }
    return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(UpsampleNearest2d)
