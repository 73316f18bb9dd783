// The shared part of the 2-D pooling operators (aclnn/ops/pool2d.h).
#include "aclnn/ops/pool2d.h"

#include <cinttypes>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"

namespace openacl::aclnn {

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

namespace {

// Runs `run` (ops::RunPool2d or ops::RunAvgPool2dBackward) from the view in the `in` slot to
// the one in the `out` slot.
class PoolOperator final : public Operator {
 public:
    PoolOperator(void (*run)(const ops::Pool2dArgs&), const ops::Pool2dArgs& args,
                 const TensorView& in, const TensorView& out, int in_slot, int out_slot)
        : run_(run), args_(args), in_(in), out_(out), in_slot_(in_slot), out_slot_(out_slot) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::Pool2dArgs args = args_;
        args.in = OperandOf(in_, in_.shape, addresses[in_slot_]);
        args.out = OperandOf(out_, out_.shape, addresses[out_slot_]);
        run_(args);
        return 0;
    }

 private:
    void (*run_)(const ops::Pool2dArgs&);
    ops::Pool2dArgs args_;
    TensorView in_, out_;  // [N, C, H, W]
    int in_slot_, out_slot_;
};

// One value for both axes, or (H, W); `minimum` bounds each. An empty array is 161002 unless
// `fallback` is given (strides: the kernel).
aclnnStatus Pair(const aclIntArray* array, const char* name, int64_t minimum,
                 const int64_t* fallback, int64_t out[2]) {
    const std::vector<int64_t>& v = array->values;
    if (v.empty() && fallback != nullptr) {
        out[0] = fallback[0];
        out[1] = fallback[1];
        return ACLNN_SUCCESS;
    }
    if (v.size() != 1 && v.size() != 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %zu values: it takes %s1 or 2", name, v.size(),
                    fallback != nullptr ? "0, " : "");
    }
    out[0] = v[0];
    out[1] = v.size() == 2 ? v[1] : v[0];
    if (out[0] < minimum || out[1] < minimum) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s is (%" PRId64 ", %" PRId64 "): values must be %" PRId64 " or more", name,
                    out[0], out[1], minimum);
    }
    return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus AvgPoolArgsOf(const aclIntArray* kernelSize, const aclIntArray* strides,
                          const aclIntArray* paddings, bool countIncludePad,
                          int64_t divisorOverride, int8_t cubeMathType, ops::Pool2dArgs* args,
                          const char* strides_name, const char* paddings_name) {
    args->kind = ops::PoolKind::kAvg;
    if (aclnnStatus rc = Pair(kernelSize, "kernelSize", 1, nullptr, args->kernel); rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = Pair(strides, strides_name, 1, args->kernel, args->stride); rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = Pair(paddings, paddings_name, 0, nullptr, args->pad_begin); rc != 0) {
        return rc;
    }
    for (int i = 0; i < 2; ++i) {
        if (2 * args->pad_begin[i] > args->kernel[i]) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s[%d] is %" PRId64 ": it must be at most half the kernel (%" PRId64 ")",
                        paddings_name, i, args->pad_begin[i], args->kernel[i]);
        }
        args->pad_end[i] = args->pad_begin[i];
    }
    if (cubeMathType < 0 || cubeMathType > 4) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "cubeMathType is %d: it takes 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), "
                    "2 (USE_FP16), 3 (USE_HF32) or 4 (USE_FP32_ADD)",
                    static_cast<int>(cubeMathType));
    }
    args->count_include_pad = countIncludePad;
    args->divisor = divisorOverride;
    return ACLNN_SUCCESS;
}

aclnnStatus PoolViewsOf(const aclTensor* self, const aclTensor* out, aclFormat format3,
                        aclFormat format4, PoolViews* views, const char* self_name,
                        const char* out_name) {
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, out_name, &o); rc != 0) return rc;
    if (in.shape.rank != 3 && in.shape.rank != 4) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has %d dimensions: it takes [N, C, H, W] or [C, H, W]", self_name,
                    in.shape.rank);
    }
    if (o.shape.rank != in.shape.rank) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %d dimensions but %s %d: they must agree",
                    out_name, o.shape.rank, self_name, in.shape.rank);
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
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s has format %s but %s %s: they must agree",
                    self_name, FormatText(in.format), out_name, FormatText(o.format));
    }
    views->batched = in.shape.rank == 4;
    views->self = Batched(in);
    views->out = Batched(o);
    const ops::LoopShape& s = views->self.shape;
    if (s.dims[1] == 0 || s.dims[2] == 0 || s.dims[3] == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has shape %s: only its batch may be empty (channels, rows and columns "
                    "must be 1 or more)",
                    self_name, ShapeText(in.shape));
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
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has shape %s but the result's shape is %s",
                views.out.name, ShapeText(got), want.c_str());
}

namespace {

// The image's and the pooled result's sizes into args.
void Sizes(const PoolViews& views, ops::Pool2dArgs* args) {
    const ops::LoopShape& image = views.self.shape;
    args->n = image.dims[0];
    args->c = image.dims[1];
    args->h = image.dims[2];
    args->w = image.dims[3];
    args->out_h = views.out.shape.dims[2];
    args->out_w = views.out.shape.dims[3];
}

}  // namespace

aclnnStatus FinishPool2d(const char* api, const PoolViews& views, const aclTensor* self,
                         const aclTensor* out, ops::Pool2dArgs args, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    Sizes(views, &args);
    ExecutorBuilder builder(api);
    const int self_slot = builder.Input(views.self, self);
    const int out_slot = builder.Output(views.out, out);
    return builder.Finish(std::make_unique<PoolOperator>(ops::RunPool2d, args, views.self,
                                                         views.out, self_slot, out_slot),
                          0, workspaceSize, executor);
}

aclnnStatus FinishAvgPool2dBackward(const PoolViews& views, const aclTensor* grad_output,
                                    const TensorView& image_grad, const aclTensor* grad_input,
                                    ops::Pool2dArgs args, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
    Sizes(views, &args);
    ExecutorBuilder builder("aclnnAvgPool2dBackward");
    const int in_slot = builder.Input(views.out, grad_output);
    const int out_slot = builder.Output(image_grad, grad_input);
    return builder.Finish(std::make_unique<PoolOperator>(ops::RunAvgPool2dBackward, args, views.out,
                                                         image_grad, in_slot, out_slot),
                          0, workspaceSize, executor);
}

}  // namespace openacl::aclnn
