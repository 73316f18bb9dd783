// aclnnop/aclnn_convolution.h: Convolution (1-D NCL, 2-D NCHW and 3-D NCDHW convolution and
// transposed convolution, grouped and dilated, bias optional), ConvTbc (a 1-D convolution of
// [time, batch, channel] data) and ConvDepthwise2d (each input channel convolved on its own).
// All three plan one ops::ConvolutionPlan (a oneDNN primitive, built in the first phase and
// kept in the immutable operator) over float32: operands that are float32 and dense in the
// plan's layout are read and written where they lie, the others (float16, bfloat16, strided
// views, ConvTbc's permuted dimensions) are converted into float32 buffers of the workspace
// and the result converted back, rounding to nearest even. cubeMathType only permits lower
// precision on the NPU; openacl always computes in float32.
#include "aclnnop/aclnn_convolution.h"

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/convolution.h"
#include "ops/dtype.h"
#include "ops/elementwise.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

constexpr auto kConvTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr size_t kAlign = 64;

size_t Aligned(size_t bytes) {
    return (bytes + kAlign - 1) / kAlign * kAlign;
}

// 161002 unless `view` carries one of `allowed` formats.
aclnnStatus CheckFormat(const TensorView& view, std::initializer_list<aclFormat> allowed) {
    std::string names;
    for (aclFormat format : allowed) {
        if (format == view.format) return ACLNN_SUCCESS;
        names += names.empty() ? "" : ", ";
        names += FormatText(format);
    }
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has format %s: the operator takes %s here", view.name,
                FormatText(view.format), names.c_str());
}

aclnnStatus CheckRank(const TensorView& view, int rank) {
    if (view.shape.rank == rank) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %d dimensions: it must have %d", view.name,
                view.shape.rank, rank);
}

// 161002 unless cubeMathType is one CANN defines (0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION,
// 2 USE_FP16, 3 USE_HF32, 4 USE_FP32_ADD).
aclnnStatus CheckCubeMathType(int8_t cube_math_type) {
    if (cube_math_type >= 0 && cube_math_type <= 4) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID,
                "cubeMathType is %d: it takes 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), "
                "2 (USE_FP16), 3 (USE_HF32) or 4 (USE_FP32_ADD)",
                static_cast<int>(cube_math_type));
}

// Whether the view is float32 laid out densely in row-major order (size-1 dimensions aside).
bool DenseFloat(const TensorView& view) {
    if (view.dtype != ACL_FLOAT) return false;
    int64_t step = 1;
    for (int d = view.shape.rank - 1; d >= 0; --d) {
        if (view.shape.dims[d] == 1) continue;
        if (view.strides[d] != step) return false;
        step *= view.shape.dims[d];
    }
    return true;
}

ops::Operand DenseFloatOperand(const ops::LoopShape& shape, char* data) {
    ops::Operand operand;
    operand.dtype = ACL_FLOAT;
    operand.data = data;
    int64_t step = 1;
    for (int d = shape.rank - 1; d >= 0; --d) {
        operand.strides[d] = step;
        step *= shape.dims[d];
    }
    return operand;
}

// A tensor the plan reads or writes, in the plan's layout.
struct PlanOperand {
    TensorView view;  // input and output as [N, C, spatial...], weights in the caller's order
    int slot = -1;
    bool packed = false;  // converted through a float32 buffer at `offset` of the workspace
    size_t offset = 0;
};

// Places a packed operand's buffer in the workspace (at *end, which it advances).
void Place(PlanOperand* operand, size_t* end) {
    operand->packed = !DenseFloat(operand->view);
    if (!operand->packed) return;
    operand->offset = *end;
    *end += Aligned(static_cast<size_t>(operand->view.numel) * sizeof(float));
}

class ConvolutionOperator final : public Operator {
 public:
    ConvolutionOperator(std::unique_ptr<ops::ConvolutionPlan> plan, PlanOperand input,
                        PlanOperand weight, PlanOperand bias, PlanOperand out)
        : plan_(std::move(plan)), input_(input), weight_(weight), bias_(bias), out_(out) {}

    int32_t Run(void* const* addresses, void* workspace, std::string* error) const override {
        if (plan_ == nullptr) return 0;  // an empty output: nothing to compute
        char* ws = static_cast<char*>(workspace);
        const float* src = Read(input_, addresses, ws);
        const float* weights = Read(weight_, addresses, ws);
        const float* bias = bias_.slot >= 0 ? Read(bias_, addresses, ws) : nullptr;
        float* dst = out_.packed ? reinterpret_cast<float*>(ws + out_.offset)
                                 : reinterpret_cast<float*>(At(out_, addresses));
        if (!plan_->Run(src, weights, bias, dst, ws, error)) return ACL_ERROR_FAILURE;
        if (out_.packed) {
            ops::UnaryArgs copy;
            copy.shape = out_.view.shape;
            copy.in = DenseFloatOperand(out_.view.shape, ws + out_.offset);
            copy.out = OperandOf(out_.view, out_.view.shape, addresses[out_.slot]);
            ops::RunUnary(copy);
        }
        return 0;
    }

 private:
    // The operand's first element in the caller's memory.
    static char* At(const PlanOperand& operand, void* const* addresses) {
        return static_cast<char*>(addresses[operand.slot]) +
               operand.view.offset * static_cast<int64_t>(ops::DtypeSize(operand.view.dtype));
    }

    // The operand as dense float32: where it lies, or converted into its workspace buffer.
    static const float* Read(const PlanOperand& operand, void* const* addresses, char* ws) {
        if (!operand.packed) return reinterpret_cast<const float*>(At(operand, addresses));
        ops::UnaryArgs copy;
        copy.shape = operand.view.shape;
        copy.in = OperandOf(operand.view, operand.view.shape, addresses[operand.slot]);
        copy.out = DenseFloatOperand(operand.view.shape, ws + operand.offset);
        ops::RunUnary(copy);
        return reinterpret_cast<const float*>(ws + operand.offset);
    }

    std::unique_ptr<ops::ConvolutionPlan> plan_;
    PlanOperand input_, weight_, bias_, out_;
};

// What a front end has checked: the plan's views (input and output [N, C, spatial...],
// weights [OC, IC / G, k...] or, transposed, [IC, OC / G, k...]), the caller's tensors, and the
// convolution's shape.
struct Planned {
    TensorView input, weight, bias, out;
    const aclTensor* input_tensor = nullptr;
    const aclTensor* weight_tensor = nullptr;
    const aclTensor* bias_tensor = nullptr;  // null: no bias
    const aclTensor* out_tensor = nullptr;
    ops::ConvolutionShape shape;
};

aclnnStatus FinishConvolution(const char* api, const Planned& p, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
    ExecutorBuilder builder(api);
    PlanOperand input, weight, bias, out;
    input.view = p.input;
    weight.view = p.weight;
    bias.view = p.bias;
    out.view = p.out;
    input.slot = builder.Input(p.input, p.input_tensor);
    weight.slot = builder.Input(p.weight, p.weight_tensor);
    if (p.bias_tensor != nullptr) bias.slot = builder.Input(p.bias, p.bias_tensor);
    out.slot = builder.Output(p.out, p.out_tensor);
    if (p.out.numel == 0) {  // nothing to compute (the checks refused a non-empty result of
                             // empty operands)
        return builder.Finish(
            std::make_unique<ConvolutionOperator>(nullptr, input, weight, bias, out), 0,
            workspaceSize, executor);
    }
    std::string error;
    std::unique_ptr<ops::ConvolutionPlan> plan = ops::ConvolutionPlan::Create(p.shape, &error);
    if (plan == nullptr) return Fail(ACLNN_ERR_INNER, "%s", error.c_str());
    size_t end = Aligned(plan->scratchpad_bytes());
    Place(&input, &end);
    Place(&weight, &end);
    if (bias.slot >= 0) Place(&bias, &end);
    Place(&out, &end);
    return builder.Finish(
        std::make_unique<ConvolutionOperator>(std::move(plan), input, weight, bias, out), end,
        workspaceSize, executor);
}

const char* SpatialText(const int64_t* values, int r) {
    static thread_local char text[96];
    int used = 0;
    for (int i = 0; i < r && used < 80; ++i) {
        used += std::snprintf(text + used, sizeof text - static_cast<size_t>(used), "%s%" PRId64,
                              i == 0 ? "(" : ", ", values[i]);
    }
    std::snprintf(text + used, sizeof text - static_cast<size_t>(used), ")");
    return text;
}

// Checks an array of `r` spatial values (at least `least`) and copies it.
aclnnStatus SpatialValues(const aclIntArray* array, const char* name, int r, int64_t least,
                          int64_t* out) {
    const std::vector<int64_t>& v = array->values;
    if (v.size() != static_cast<size_t>(r)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %zu values: it takes %d, one per spatial axis",
                    name, v.size(), r);
    }
    for (int i = 0; i < r; ++i) {
        out[i] = v[static_cast<size_t>(i)];
        if (out[i] < least) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s is %s: every value must be %" PRId64 " or more", name,
                        SpatialText(out, r), least);
        }
    }
    return ACLNN_SUCCESS;
}

// The expected output shape against out's: 161002 stating it when they differ.
aclnnStatus CheckOutShape(const TensorView& out, const ops::LoopShape& expected) {
    for (int d = 0; d < expected.rank; ++d) {
        if (expected.dims[d] < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "the result would have shape %s: the input is too small for the kernel",
                        ShapeText(expected));
        }
    }
    bool same = out.shape.rank == expected.rank;
    for (int d = 0; same && d < expected.rank; ++d)
        same = out.shape.dims[d] == expected.dims[d];
    if (same) return ACLNN_SUCCESS;
    std::string want = ShapeText(expected);
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has shape %s but the result's shape is %s", out.name,
                ShapeText(out.shape), want.c_str());
}

// Bias: 1-D with `channels` elements, a type of kConvTypes.
aclnnStatus CheckBias(const TensorView& bias, int64_t channels) {
    if (aclnnStatus rc = CheckDtype(bias, kConvTypes); rc != 0) return rc;
    if (bias.shape.rank != 1 || bias.shape.dims[0] != channels) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "bias has shape %s: it must be 1-dimensional with %" PRId64
                    " elements (the output channels)",
                    ShapeText(bias.shape), channels);
    }
    return ACLNN_SUCCESS;
}

// Non-empty operands cannot make an empty result, nor empty operands a non-empty one.
aclnnStatus CheckEmpty(const TensorView& input, const TensorView& weight, const TensorView& out) {
    if ((input.numel == 0 || weight.numel == 0) && out.numel != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s %s and %s %s hold no elements but %s %s does: an empty operand gives an "
                    "empty result",
                    input.name, std::string(ShapeText(input.shape)).c_str(), weight.name,
                    std::string(ShapeText(weight.shape)).c_str(), out.name, ShapeText(out.shape));
    }
    return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                             const aclTensor* bias, const aclIntArray* stride,
                                             const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, int64_t groups,
                                             aclTensor* output, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(input, "input"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(weight, "weight"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(stride, "stride"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(padding, "padding"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dilation, "dilation"); rc != 0) return rc;
    if (transposed) {  // ignored otherwise, and may then be null
        if (aclnnStatus rc = CheckIntArrayObject(outputPadding, "outputPadding"); rc != 0) {
            return rc;
        }
    }
    if (aclnnStatus rc = CheckTensorObject(output, "output"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    Planned p;
    if (aclnnStatus rc = ViewOf(input, "input", &p.input); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(weight, "weight", &p.weight); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(output, "output", &p.out); rc != 0) return rc;
    if (bias != nullptr) {
        if (aclnnStatus rc = ViewOf(bias, "bias", &p.bias); rc != 0) return rc;
    }
    // Types: any of the three for input, weight and output (computed in float32); a
    // transposed convolution writes the input's type.
    if (aclnnStatus rc = CheckDtype(p.input, kConvTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(p.weight, kConvTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(p.out, kConvTypes); rc != 0) return rc;
    if (bias != nullptr) {
        if (aclnnStatus rc = CheckDtype(p.bias, kConvTypes); rc != 0) return rc;
    }
    if (transposed && p.out.dtype != p.input.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "output is %s but input is %s: a transposed convolution writes the input's "
                    "type",
                    ops::DtypeName(p.out.dtype), ops::DtypeName(p.input.dtype));
    }
    // Ranks and formats: NCL, NCHW or NCDHW for all three.
    const int rank = p.input.shape.rank;
    if (rank < 3 || rank > 5) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "input has %d dimensions: it takes 3 (NCL), 4 (NCHW) or 5 (NCDHW)", rank);
    }
    if (aclnnStatus rc = CheckRank(p.weight, rank); rc != 0) return rc;
    if (aclnnStatus rc = CheckRank(p.out, rank); rc != 0) return rc;
    const aclFormat format = rank == 3   ? ACL_FORMAT_NCL
                             : rank == 4 ? ACL_FORMAT_NCHW
                                         : ACL_FORMAT_NCDHW;
    for (const TensorView* view : {&p.input, &p.weight, &p.out}) {
        if (aclnnStatus rc = CheckFormat(*view, {format}); rc != 0) return rc;
    }
    if (bias != nullptr) {
        if (aclnnStatus rc = CheckFormat(
                p.bias, {ACL_FORMAT_ND, ACL_FORMAT_NCL, ACL_FORMAT_NCHW, ACL_FORMAT_NCDHW});
            rc != 0) {
            return rc;
        }
    }
    // The window: stride and dilation per spatial axis; padding per axis, or (1-D and 2-D,
    // transposed 2-D too) begin and end per axis: [left, right], [top, bottom, left, right].
    const int r = rank - 2;
    ops::ConvolutionShape& s = p.shape;
    s.spatial = r;
    s.transposed = transposed;
    s.bias = bias != nullptr;
    if (aclnnStatus rc = SpatialValues(stride, "stride", r, 1, s.stride); rc != 0) return rc;
    if (aclnnStatus rc = SpatialValues(dilation, "dilation", r, 1, s.dilation); rc != 0) return rc;
    const std::vector<int64_t>& pad = padding->values;
    const bool pairs_allowed = (r == 1 && !transposed) || r == 2;
    if (pad.size() == static_cast<size_t>(r)) {
        for (int i = 0; i < r; ++i)
            s.pad_begin[i] = s.pad_end[i] = pad[static_cast<size_t>(i)];
    } else if (pairs_allowed && pad.size() == static_cast<size_t>(2 * r)) {
        for (int i = 0; i < r; ++i) {
            s.pad_begin[i] = pad[static_cast<size_t>(2 * i)];
            s.pad_end[i] = pad[static_cast<size_t>(2 * i + 1)];
        }
    } else {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "padding has %zu values: a %s%d-D convolution takes %d%s", pad.size(),
                    transposed ? "transposed " : "", r, r,
                    pairs_allowed
                        ? (r == 1 ? " or 2 ([left, right])" : " or 4 ([top, bottom, left, right])")
                        : "");
    }
    for (int64_t value : pad) {
        if (value < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "padding holds %" PRId64 ": it must be 0 or more",
                        value);
        }
    }
    int64_t output_padding[ops::kMaxConvSpatial] = {};
    if (transposed) {
        if (aclnnStatus rc = SpatialValues(outputPadding, "outputPadding", r, 0, output_padding);
            rc != 0) {
            return rc;
        }
        for (int i = 0; i < r; ++i) {
            if (output_padding[i] >= s.stride[i] && output_padding[i] >= s.dilation[i]) {
                return Fail(ACLNN_ERR_PARAM_INVALID,
                            "outputPadding[%d] is %" PRId64
                            ": it must be less than stride (%" PRId64 ") or dilation (%" PRId64 ")",
                            i, output_padding[i], s.stride[i], s.dilation[i]);
            }
        }
    }
    // Channels and groups.
    if (groups < 1) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "groups is %" PRId64 ": it must be 1 or more", groups);
    }
    const int64_t in_channels = p.input.shape.dims[1];
    const int64_t w0 = p.weight.shape.dims[0], w1 = p.weight.shape.dims[1];
    if (!transposed && w1 * groups != in_channels) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "input has %" PRId64 " channels but weight's dimension 1 (%" PRId64
                    ") times groups (%" PRId64 ") is %" PRId64 ": they must be equal",
                    in_channels, w1, groups, w1 * groups);
    }
    if (transposed && w0 != in_channels) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "input has %" PRId64 " channels but weight's dimension 0 is %" PRId64
                    ": a transposed convolution's weight is [input channels, output channels / "
                    "groups, kernel...]",
                    in_channels, w0);
    }
    if (w0 % groups != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "weight's dimension 0 (%" PRId64 ") is not divisible by groups (%" PRId64 ")",
                    w0, groups);
    }
    if (transposed && in_channels == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "input has no channels: a transposed convolution "
                    "needs at least one");
    }
    s.groups = groups;
    s.batch = p.input.shape.dims[0];
    s.in_channels = in_channels;
    s.out_channels = transposed ? w1 * groups : w0;
    for (int i = 0; i < r; ++i) {
        s.in[i] = p.input.shape.dims[2 + i];
        s.kernel[i] = p.weight.shape.dims[2 + i];
        if (s.kernel[i] <= 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "weight has shape %s: its spatial dimensions must be 1 or more",
                        ShapeText(p.weight.shape));
        }
    }
    if (bias != nullptr) {
        if (aclnnStatus rc = CheckBias(p.bias, s.out_channels); rc != 0) return rc;
    }
    // The result's shape.
    ops::LoopShape expected;
    expected.rank = rank;
    expected.dims[0] = s.batch;
    expected.dims[1] = s.out_channels;
    for (int i = 0; i < r; ++i) {
        const int64_t span = s.dilation[i] * (s.kernel[i] - 1) + 1;  // the dilated kernel
        const int64_t pads = s.pad_begin[i] + s.pad_end[i];
        if (transposed) {
            s.out[i] = (s.in[i] - 1) * s.stride[i] - pads + span + output_padding[i];
            s.pad_end[i] -= output_padding[i];  // rows past the full result
        } else {
            const int64_t room = s.in[i] + pads - span;
            if (room < 0 && p.input.numel > 0) {
                return Fail(ACLNN_ERR_PARAM_INVALID,
                            "spatial axis %d of input is %" PRId64 ", padded by %" PRId64
                            ": smaller than the dilated kernel (%" PRId64 ")",
                            i, s.in[i], pads, span);
            }
            s.out[i] = room < 0 ? -1 : room / s.stride[i] + 1;
        }
        expected.dims[2 + i] = s.out[i];
    }
    if (aclnnStatus rc = CheckOutShape(p.out, expected); rc != 0) return rc;
    if (aclnnStatus rc = CheckEmpty(p.input, p.weight, p.out); rc != 0) return rc;
    if (aclnnStatus rc = CheckCubeMathType(cubeMathType); rc != 0) return rc;
    p.input_tensor = input;
    p.weight_tensor = weight;
    p.bias_tensor = bias;
    p.out_tensor = output;
    return FinishConvolution("aclnnConvolution", p, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Convolution)

// out[t][b][o] = bias[o] + sum over k, c of self[t + k - pad][b][c] * weight[k][c][o]: PyTorch's
// conv_tbc. The views are permuted into the plan's [batch, channel, time] and [out, in, k].
aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                         const aclTensor* bias, int64_t pad, aclTensor* output,
                                         int8_t cubeMathType, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(weight, "weight"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(bias, "bias"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(output, "output"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, w, b, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(weight, "weight", &w); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(bias, "bias", &b); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(output, "output", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kConvTypes); rc != 0) return rc;
    if (w.dtype != in.dtype || o.dtype != in.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self is %s, weight %s and output %s: the three must be the same type",
                    ops::DtypeName(in.dtype), ops::DtypeName(w.dtype), ops::DtypeName(o.dtype));
    }
    if (aclnnStatus rc = CheckDtype(b, kConvTypes); rc != 0) return rc;
    for (const TensorView* view : {&in, &w, &o}) {
        if (aclnnStatus rc = CheckRank(*view, 3); rc != 0) return rc;
        if (aclnnStatus rc = CheckFormat(*view, {ACL_FORMAT_ND, ACL_FORMAT_NCL}); rc != 0) {
            return rc;
        }
    }
    if (aclnnStatus rc = CheckFormat(b, {ACL_FORMAT_ND}); rc != 0) return rc;
    if (pad < 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "pad is %" PRId64 ": it must be 0 or more", pad);
    }
    const int64_t time = in.shape.dims[0], batch = in.shape.dims[1], channels = in.shape.dims[2];
    const int64_t k = w.shape.dims[0], out_channels = w.shape.dims[2];
    if (k <= 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "weight has shape %s: its kernel (dimension 0) must be 1 or more",
                    ShapeText(w.shape));
    }
    if (w.shape.dims[1] != channels) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self has %" PRId64
                    " channels (dimension 2) but weight's dimension 1 is %" PRId64,
                    channels, w.shape.dims[1]);
    }
    if (aclnnStatus rc = CheckBias(b, out_channels); rc != 0) return rc;
    ops::LoopShape expected;
    expected.rank = 3;
    expected.dims[0] = time + 2 * pad - k + 1;
    expected.dims[1] = batch;
    expected.dims[2] = out_channels;
    if (aclnnStatus rc = CheckOutShape(o, expected); rc != 0) return rc;
    if (aclnnStatus rc = CheckEmpty(in, w, o); rc != 0) return rc;
    if (aclnnStatus rc = CheckCubeMathType(cubeMathType); rc != 0) return rc;
    // [T, B, C] read as [B, C, T]; weight [K, C, O] as [O, C, K].
    auto permute = [](const TensorView& view, const int order[3]) {
        TensorView permuted = view;
        for (int d = 0; d < 3; ++d) {
            permuted.shape.dims[d] = view.shape.dims[order[d]];
            permuted.strides[d] = view.strides[order[d]];
        }
        return permuted;
    };
    const int data_order[3] = {1, 2, 0}, weight_order[3] = {2, 1, 0};
    Planned p;
    p.input = permute(in, data_order);
    p.weight = permute(w, weight_order);
    p.out = permute(o, data_order);
    p.bias = b;
    p.input_tensor = self;
    p.weight_tensor = weight;
    p.bias_tensor = bias;
    p.out_tensor = output;
    ops::ConvolutionShape& s = p.shape;
    s.spatial = 1;
    s.bias = true;
    s.batch = batch;
    s.in_channels = channels;
    s.out_channels = out_channels;
    s.in[0] = time;
    s.kernel[0] = k;
    s.out[0] = expected.dims[0];
    s.stride[0] = s.dilation[0] = 1;
    s.pad_begin[0] = s.pad_end[0] = pad;
    return FinishConvolution("aclnnConvTbc", p, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ConvTbc)

// A grouped 2-D convolution with one group per input channel: weight [OC, 1, kh, kw], OC a
// multiple of the input's channels.
aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                                 const aclIntArray* kernelSize,
                                                 const aclTensor* bias, const aclIntArray* stride,
                                                 const aclIntArray* padding,
                                                 const aclIntArray* dilation, aclTensor* out,
                                                 int8_t cubeMathType, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(weight, "weight"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(kernelSize, "kernelSize"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(stride, "stride"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(padding, "padding"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dilation, "dilation"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    Planned p;
    if (aclnnStatus rc = ViewOf(self, "self", &p.input); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(weight, "weight", &p.weight); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &p.out); rc != 0) return rc;
    if (bias != nullptr) {
        if (aclnnStatus rc = ViewOf(bias, "bias", &p.bias); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckDtype(p.input, kConvTypes); rc != 0) return rc;
    if (p.weight.dtype != p.input.dtype || p.out.dtype != p.input.dtype ||
        (bias != nullptr && p.bias.dtype != p.input.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self is %s, weight %s, out %s%s%s: they must be the same type",
                    ops::DtypeName(p.input.dtype), ops::DtypeName(p.weight.dtype),
                    ops::DtypeName(p.out.dtype), bias != nullptr ? " and bias " : "",
                    bias != nullptr ? ops::DtypeName(p.bias.dtype) : "");
    }
    for (const TensorView* view : {&p.input, &p.weight, &p.out}) {
        if (aclnnStatus rc = CheckRank(*view, 4); rc != 0) return rc;
        if (aclnnStatus rc = CheckFormat(*view, {ACL_FORMAT_NCHW}); rc != 0) return rc;
    }
    ops::ConvolutionShape& s = p.shape;
    s.spatial = 2;
    s.bias = bias != nullptr;
    if (aclnnStatus rc = SpatialValues(stride, "stride", 2, 1, s.stride); rc != 0) return rc;
    if (aclnnStatus rc = SpatialValues(padding, "padding", 2, 0, s.pad_begin); rc != 0) return rc;
    if (aclnnStatus rc = SpatialValues(dilation, "dilation", 2, 1, s.dilation); rc != 0) return rc;
    int64_t kernel[2];
    if (aclnnStatus rc = SpatialValues(kernelSize, "kernelSize", 2, 1, kernel); rc != 0) return rc;
    const int64_t channels = p.input.shape.dims[1], out_channels = p.weight.shape.dims[0];
    if (p.weight.shape.dims[1] != 1) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "weight has shape %s: its dimension 1 must be 1 (one input channel per "
                    "filter)",
                    ShapeText(p.weight.shape));
    }
    if (channels == 0 || out_channels == 0 || out_channels % channels != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "weight has %" PRId64 " filters and self %" PRId64
                    " channels: the filters must be a positive multiple of the channels",
                    out_channels, channels);
    }
    if (p.weight.shape.dims[2] != kernel[0] || p.weight.shape.dims[3] != kernel[1]) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "kernelSize is (%" PRId64 ", %" PRId64
                    ") but weight has shape %s: they must "
                    "agree",
                    kernel[0], kernel[1], ShapeText(p.weight.shape));
    }
    if (bias != nullptr) {
        if (aclnnStatus rc = CheckBias(p.bias, out_channels); rc != 0) return rc;
    }
    s.groups = channels;
    s.batch = p.input.shape.dims[0];
    s.in_channels = channels;
    s.out_channels = out_channels;
    ops::LoopShape expected;
    expected.rank = 4;
    expected.dims[0] = s.batch;
    expected.dims[1] = out_channels;
    for (int i = 0; i < 2; ++i) {
        s.pad_end[i] = s.pad_begin[i];
        s.in[i] = p.input.shape.dims[2 + i];
        s.kernel[i] = kernel[i];
        const int64_t room = s.in[i] + 2 * s.pad_begin[i] - s.dilation[i] * (kernel[i] - 1) - 1;
        if (room < 0 && p.input.numel > 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "spatial axis %d of self is %" PRId64 ", padded by 2 x %" PRId64
                        ": smaller than the dilated kernel (%" PRId64 ")",
                        i, s.in[i], s.pad_begin[i], s.dilation[i] * (kernel[i] - 1) + 1);
        }
        s.out[i] = room < 0 ? -1 : room / s.stride[i] + 1;
        expected.dims[2 + i] = s.out[i];
    }
    if (aclnnStatus rc = CheckOutShape(p.out, expected); rc != 0) return rc;
    if (aclnnStatus rc = CheckEmpty(p.input, p.weight, p.out); rc != 0) return rc;
    if (aclnnStatus rc = CheckCubeMathType(cubeMathType); rc != 0) return rc;
    p.input_tensor = self;
    p.weight_tensor = weight;
    p.bias_tensor = bias;
    p.out_tensor = out;
    return FinishConvolution("aclnnConvDepthwise2d", p, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ConvDepthwise2d)
