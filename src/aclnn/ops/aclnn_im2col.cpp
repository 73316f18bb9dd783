// aclnnop/aclnn_im2col.h: the sliding windows of an image as columns. self is [N, C, H, W]
// (or [C, H, W]); out is [N, C * kh * kw, L] (or without N), L = the number of window
// positions; out[n][(c * kh + i) * kw + j][y * OW + x] is self at row y * sh - ph + i * dh and
// column x * sw - pw + j * dw, or 0 outside the image. One zero fill, then one strided copy
// per kernel offset (i, j) of the positions that fall inside.
#include "aclnnop/aclnn_im2col.h"

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

namespace {

aclnnStatus Pair(const aclIntArray* array, const char* name, bool positive, int64_t out[2]) {
    if (aclnnStatus rc = CheckIntArrayObject(array, name); rc != 0) return rc;
    const std::vector<int64_t>& v = array->values;
    if (v.size() != 1 && v.size() != 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %zu values: it takes 1 or 2", name, v.size());
    }
    out[0] = v[0];
    out[1] = v.size() == 2 ? v[1] : v[0];
    if (out[0] < (positive ? 1 : 0) || out[1] < (positive ? 1 : 0)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is (%" PRId64 ", %" PRId64 "): values must be %s",
                    name, out[0], out[1], positive ? "positive" : "0 or more");
    }
    return ACLNN_SUCCESS;
}

// The first and one-past-last window positions whose sample at `shift` lies in [0, size).
void ValidRange(int64_t size, int64_t positions, int64_t stride, int64_t shift, int64_t* first,
                int64_t* last) {
    // position p samples p * stride + shift.
    *first = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
    *last = size - shift <= 0 ? 0 : std::min(positions, (size - shift - 1) / stride + 1);
    *first = std::min(*first, *last);
}

}  // namespace

aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                        const aclIntArray* dilation, const aclIntArray* padding,
                                        const aclIntArray* stride, const aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    int64_t k[2], dl[2], pd[2], st[2];
    if (aclnnStatus rc = Pair(kernelSize, "kernelSize", true, k); rc != 0) return rc;
    if (aclnnStatus rc = Pair(dilation, "dilation", true, dl); rc != 0) return rc;
    if (aclnnStatus rc = Pair(padding, "padding", false, pd); rc != 0) return rc;
    if (aclnnStatus rc = Pair(stride, "stride", true, st); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (in.shape.rank != 3 && in.shape.rank != 4) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self has %d dimensions: it takes [N, C, H, W] or "
                    "[C, H, W]",
                    in.shape.rank);
    }
    const bool batched = in.shape.rank == 4;
    const int b = batched ? 1 : 0;  // index of C
    const int64_t n = batched ? in.shape.dims[0] : 1, c = in.shape.dims[b];
    const int64_t h = in.shape.dims[b + 1], w = in.shape.dims[b + 2];
    const int64_t oh = (h + 2 * pd[0] - dl[0] * (k[0] - 1) - 1) / st[0] + 1;
    const int64_t ow = (w + 2 * pd[1] - dl[1] * (k[1] - 1) - 1) / st[1] + 1;
    if (oh <= 0 || ow <= 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "a %" PRId64 "x%" PRId64 " image padded by (%" PRId64 ", %" PRId64
                    ") has no room for the dilated kernel",
                    h, w, pd[0], pd[1]);
    }
    openacl::ops::LoopShape expected;
    expected.rank = batched ? 3 : 2;
    int at = 0;
    if (batched) expected.dims[at++] = n;
    expected.dims[at++] = c * k[0] * k[1];
    expected.dims[at++] = oh * ow;
    if (aclnnStatus rc = CheckShape(o, expected); rc != 0) return rc;
    ExecutorBuilder builder("aclnnIm2col");
    const int in_slot = builder.Input(in, self);
    const int out_slot = builder.Output(o, out);
    std::vector<Piece> pieces;
    Piece zero;
    zero.shape = o.shape;
    zero.dst = RegionOf(o, out_slot);
    pieces.push_back(zero);
    const int64_t in_n = batched ? in.strides[0] : 0, out_n = batched ? o.strides[0] : 0;
    const int64_t out_row = o.strides[b], out_col = o.strides[b + 1];
    for (int64_t i = 0; i < k[0]; ++i) {
        for (int64_t j = 0; j < k[1]; ++j) {
            int64_t y0, y1, x0, x1;
            ValidRange(h, oh, st[0], i * dl[0] - pd[0], &y0, &y1);
            ValidRange(w, ow, st[1], j * dl[1] - pd[1], &x0, &x1);
            if (y0 >= y1 || x0 >= x1) continue;
            Piece piece;  // over [N, C, rows y0..y1, columns x0..x1]
            piece.shape.rank = 4;
            piece.shape.dims[0] = n;
            piece.shape.dims[1] = c;
            piece.shape.dims[2] = y1 - y0;
            piece.shape.dims[3] = x1 - x0;
            piece.src.slot = in_slot;
            piece.src.dtype = in.dtype;
            piece.src.offset = in.offset + (y0 * st[0] + i * dl[0] - pd[0]) * in.strides[b + 1] +
                               (x0 * st[1] + j * dl[1] - pd[1]) * in.strides[b + 2];
            const int64_t src_strides[4] = {in_n, in.strides[b], st[0] * in.strides[b + 1],
                                            st[1] * in.strides[b + 2]};
            piece.dst.slot = out_slot;
            piece.dst.dtype = o.dtype;
            piece.dst.offset = o.offset + (i * k[1] + j) * out_row + (y0 * ow + x0) * out_col;
            const int64_t dst_strides[4] = {out_n, k[0] * k[1] * out_row, ow * out_col, out_col};
            for (int d = 0; d < 4; ++d) {
                piece.src.strides[d] = src_strides[d];
                piece.dst.strides[d] = dst_strides[d];
            }
            pieces.push_back(piece);
        }
    }
    return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Im2col)
