// The shared part of the 2-D pooling operators (aclnn/ops/pool2d.h).
#include "aclnn/ops/pool2d.h"

#include <cinttypes>
#include <memory>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"

namespace openacl::aclnn {
namespace {

// The view with a leading batch of 1 (stride 0) when it is 3-D.
TensorView Batched(const TensorView& view) {
    if (view.shape.rank == 4) return view;
    TensorView batched = view;
    batched.shape.rank = 4;
    batched.shape.dims[0] = 1;
    batched.strides[0] = 0;
    for (int d = 0; d < 3; ++d) {
        batched.shape.dims[d + 1] = view.shape.dims[d];
        batched.strides[d + 1] = view.strides[d];
    }
    return batched;
}

class PoolOperator final : public Operator {
 public:
    PoolOperator(const ops::Pool2dArgs& args, const TensorView& self, const TensorView& out,
                 int self_slot, int out_slot)
        : args_(args), self_(self), out_(out), self_slot_(self_slot), out_slot_(out_slot) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::Pool2dArgs args = args_;
        args.in = OperandOf(self_, self_.shape, addresses[self_slot_]);
        args.out = OperandOf(out_, out_.shape, addresses[out_slot_]);
        ops::RunPool2d(args);
        return 0;
    }

 private:
    ops::Pool2dArgs args_;
    TensorView self_, out_;  // [N, C, H, W]
    int self_slot_, out_slot_;
};

}  // namespace

aclnnStatus PoolViewsOf(const aclTensor* self, const aclTensor* out, aclFormat format3,
                        aclFormat format4, PoolViews* views) {
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (in.shape.rank != 3 && in.shape.rank != 4) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self has %d dimensions: it takes [N, C, H, W] or [C, H, W]", in.shape.rank);
    }
    if (o.shape.rank != in.shape.rank) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out has %d dimensions but self %d: they must agree",
                    o.shape.rank, in.shape.rank);
    }
    const aclFormat wanted = in.shape.rank == 3 ? format3 : format4;
    if (wanted != ACL_FORMAT_UNDEFINED) {
        for (const TensorView* view : {&in, &o}) {
            if (view->format != wanted) {
                return Fail(ACLNN_ERR_PARAM_INVALID,
                            "%s is %d-dimensional with format %s: it must be %s", view->name,
                            in.shape.rank, FormatText(view->format), FormatText(wanted));
            }
        }
    } else if (in.format != o.format) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "self has format %s but out %s: they must agree",
                    FormatText(in.format), FormatText(o.format));
    }
    views->batched = in.shape.rank == 4;
    views->self = Batched(in);
    views->out = Batched(o);
    const ops::LoopShape& s = views->self.shape;
    if (s.dims[1] == 0 || s.dims[2] == 0 || s.dims[3] == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self has shape %s: only its batch may be empty (channels, rows and columns "
                    "must be 1 or more)",
                    ShapeText(in.shape));
    }
    return ACLNN_SUCCESS;
}

int64_t PooledSize(int64_t size, int64_t kernel, int64_t pad_begin, int64_t pad_end, int64_t stride,
                   int64_t dilation, bool ceil_mode) {
    const int64_t room =
        size + pad_begin + pad_end - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    // Division rounding toward negative infinity.
    int64_t out = room / stride - ((room % stride != 0 && room < 0) ? 1 : 0) + 1;
    if (ceil_mode && (out - 1) * stride >= size + pad_begin) --out;
    return out;
}

aclnnStatus CheckPooledShape(const PoolViews& views, int64_t out_h, int64_t out_w) {
    const ops::LoopShape& in = views.self.shape;
    if (out_h <= 0 || out_w <= 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "a %" PRId64 "x%" PRId64 " image gives a %" PRId64 "x%" PRId64
                    " result with this window: it must be 1x1 or more",
                    in.dims[2], in.dims[3], out_h, out_w);
    }
    ops::LoopShape expected = in;
    expected.dims[2] = out_h;
    expected.dims[3] = out_w;
    if (!views.batched) {  // [C, H, W]
        expected.rank = 3;
        for (int d = 0; d < 3; ++d)
            expected.dims[d] = expected.dims[d + 1];
    }
    ops::LoopShape got = views.out.shape;
    if (!views.batched) {
        got.rank = 3;
        for (int d = 0; d < 3; ++d)
            got.dims[d] = got.dims[d + 1];
    }
    bool same = true;
    for (int d = 0; d < expected.rank; ++d)
        same = same && got.dims[d] == expected.dims[d];
    if (same) return ACLNN_SUCCESS;
    std::string want = ShapeText(expected);
    return Fail(ACLNN_ERR_PARAM_INVALID, "out has shape %s but the result's shape is %s",
                ShapeText(got), want.c_str());
}

aclnnStatus FinishPool2d(const char* api, const PoolViews& views, const aclTensor* self,
                         const aclTensor* out, ops::Pool2dArgs args, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    const ops::LoopShape& in = views.self.shape;
    args.n = in.dims[0];
    args.c = in.dims[1];
    args.h = in.dims[2];
    args.w = in.dims[3];
    args.out_h = views.out.shape.dims[2];
    args.out_w = views.out.shape.dims[3];
    ExecutorBuilder builder(api);
    const int self_slot = builder.Input(views.self, self);
    const int out_slot = builder.Output(views.out, out);
    return builder.Finish(
        std::make_unique<PoolOperator>(args, views.self, views.out, self_slot, out_slot), 0,
        workspaceSize, executor);
}

}  // namespace openacl::aclnn
