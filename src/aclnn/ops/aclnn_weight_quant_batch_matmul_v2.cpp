// aclnnop/aclnn_weight_quant_batch_matmul_v2.h: y = x @ ((weight + antiquantOffset) *
// antiquantScale) + bias for an int8 or int4 weight, the product llama.cpp's CANN backend runs
// for Q8_0 and Q4_0 models (x float16, per-32 groups of float16 scales, the weight passed as
// the transposed view of its row-major [n, k] storage).
//
// The weight is dequantized into the workspace as floats (ops/antiquant.h), in its own memory
// order, and multiplied by ops/matmul.h: float32 accumulation, one rounding to y's type, the
// bias added before it. Per-tensor, per-channel and per-group scales (ops-nn's A2/A3 rules:
// x [m, k] float16 or bfloat16, weight [k, n] int8 or int4, ND or FRACTAL_NZ-tagged). Not
// implemented, refused with 161002: output quantization (quantScaleOptional, y int8), the
// uint64/int64 scale modes, int32-packed and float8/float4 weights, batched (3-D+) x.
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

#include <cinttypes>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/antiquant.h"
#include "ops/dtype.h"
#include "ops/matmul.h"

using openacl::Fail;
using openacl::aclnn::TensorView;

namespace {

constexpr uint64_t kAlign = 64;

uint64_t AlignUp(uint64_t bytes) {
    return (bytes + kAlign - 1) / kAlign * kAlign;
}

const char* At(const void* base, int64_t bytes) {
    return base == nullptr ? nullptr : static_cast<const char*>(base) + bytes;
}

int64_t OffsetBytes(const TensorView& view) {
    return view.offset * static_cast<int64_t>(openacl::ops::DtypeSize(view.dtype));
}

// The weight: int8 through WeightViewOf; int4 (no byte size, so ViewOf refuses it) copied
// here, with `bytes` the view of the bytes it reaches, which the executor checks against
// device memory.
aclnnStatus QuantWeightView(const aclTensor* tensor, TensorView* view, TensorView* bytes) {
    using namespace openacl::aclnn;
    if (aclnnStatus rc = CheckTensorObject(tensor, "weight"); rc != ACLNN_SUCCESS) return rc;
    if (tensor->dtype != ACL_INT4) {
        if (aclnnStatus rc = WeightViewOf(tensor, "weight", view); rc != ACLNN_SUCCESS) return rc;
        if (aclnnStatus rc = CheckDtype(*view, {ACL_INT8, ACL_INT4}); rc != ACLNN_SUCCESS) {
            return rc;
        }
        *bytes = *view;
        return ACLNN_SUCCESS;
    }
    // Checked as an int8 tensor of the same view (format, rank), then given its real type.
    aclTensor as_bytes = *tensor;
    as_bytes.dtype = ACL_INT8;
    as_bytes.storage.clear();  // counted in int4 elements: checked below
    if (aclnnStatus rc = WeightViewOf(&as_bytes, "weight", view); rc != ACLNN_SUCCESS) return rc;
    view->dtype = ACL_INT4;
    if (!tensor->storage.empty() && view->numel > 0) {
        int64_t storage = 1;
        for (int64_t dim : tensor->storage)
            storage *= dim;
        // As op_checks.cpp's View: storageDims may count from the buffer or from the offset.
        if (view->extent > storage) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "weight spans %" PRId64 " int4 elements but storageDims hold %" PRId64,
                        view->extent, storage);
        }
    }
    *bytes = TensorView{};
    bytes->name = "weight";
    bytes->dtype = ACL_INT8;
    bytes->shape.rank = 1;
    bytes->strides[0] = 1;
    bytes->offset = view->offset / 2;
    bytes->extent =
        view->numel == 0 ? 0 : (view->offset + view->extent - 1) / 2 - bytes->offset + 1;
    bytes->numel = bytes->extent;
    bytes->shape.dims[0] = bytes->extent;
    return ACLNN_SUCCESS;
}

class WeightQuantOperator final : public openacl::aclnn::Operator {
 public:
    WeightQuantOperator(std::shared_ptr<const openacl::ops::MatmulPlan> plan,
                        openacl::ops::AntiquantArgs antiquant, uint64_t dequant_bytes)
        : plan_(std::move(plan)), antiquant_(antiquant), dequant_bytes_(dequant_bytes) {}

    // Slots: x, weight, scale, offset (or -1), bias (or -1), y; byte offsets of the views.
    void SetSlots(const int slots[6], const int64_t offsets[6]) {
        for (int i = 0; i < 6; ++i) {
            slots_[i] = slots[i];
            offsets_[i] = offsets[i];
        }
    }

    int32_t Run(void* const* addresses, void* workspace, std::string* error) const override {
        auto address = [&](int which) -> const char* {
            return slots_[which] < 0 ? nullptr : At(addresses[slots_[which]], offsets_[which]);
        };
        char* ws = reinterpret_cast<char*>(AlignUp(reinterpret_cast<uintptr_t>(workspace)));
        openacl::ops::AntiquantArgs args = antiquant_;
        args.weight = addresses[slots_[1]];  // int4 and int8: offset in elements, applied inside
        args.scale = address(2);
        args.offset = address(3);
        args.out = reinterpret_cast<float*>(ws);
        openacl::ops::Antiquantize(args);
        void* y = const_cast<char*>(address(5));
        return plan_->Run(address(0), ws, y, ws + dequant_bytes_, error, address(4))
                   ? 0
                   : ACL_ERROR_FAILURE;
    }

 private:
    std::shared_ptr<const openacl::ops::MatmulPlan> plan_;
    openacl::ops::AntiquantArgs antiquant_;
    uint64_t dequant_bytes_;
    int slots_[6] = {-1, -1, -1, -1, -1, -1};
    int64_t offsets_[6] = {};
};

// The [groups, n] strides of a scale (or offset) view: per-tensor (1,)/(1, 1) repeats one
// value, per-channel (n,)/(1, n) one row, per-group (groups, n) is itself.
void ScaleStrides(const TensorView& view, int64_t strides[2]) {
    if (view.shape.rank == 1) {
        strides[0] = 0;
        strides[1] = view.shape.dims[0] == 1 ? 0 : view.strides[0];
    } else {
        strides[0] = view.shape.dims[0] == 1 ? 0 : view.strides[0];
        strides[1] = view.shape.dims[1] == 1 ? 0 : view.strides[1];
    }
}

bool HasShape(const TensorView& view, std::initializer_list<int64_t> dims) {
    if (view.shape.rank != static_cast<int>(dims.size())) return false;
    int d = 0;
    for (int64_t dim : dims) {
        if (view.shape.dims[d++] != dim) return false;
    }
    return true;
}

}  // namespace

aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
    const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    namespace ops = openacl::ops;
    if (aclnnStatus rc = CheckTensorObject(x, "x"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(weight, "weight"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(antiquantScale, "antiquantScale"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckTensorObject(y, "y"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (quantOffsetOptional != nullptr && quantScaleOptional == nullptr) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "quantOffsetOptional is given without quantScaleOptional");
    }
    if (quantScaleOptional != nullptr) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "quantScaleOptional: openacl does not quantize the output (y int8); pass null "
                    "and a float16 or bfloat16 y");
    }
    TensorView vx, vw, vw_bytes, vs, vo, vb, vy;
    if (aclnnStatus rc = ViewOf(x, "x", &vx); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = QuantWeightView(weight, &vw, &vw_bytes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(antiquantScale, "antiquantScale", &vs); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (antiquantOffsetOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(antiquantOffsetOptional, "antiquantOffsetOptional", &vo);
            rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (biasOptional != nullptr) {
        if (aclnnStatus rc = ViewOf(biasOptional, "biasOptional", &vb); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (aclnnStatus rc = ViewOf(y, "y", &vy); rc != ACLNN_SUCCESS) return rc;

    // Types: x float16 or bfloat16; scale, offset and y the same; bias the same, or float
    // with a bfloat16 x.
    if (aclnnStatus rc = CheckDtype(vx, {ACL_FLOAT16, ACL_BF16}); rc != ACLNN_SUCCESS) return rc;
    const bool bf16 = vx.dtype == ACL_BF16;
    for (const TensorView* view : {&vs, &vy}) {
        if (aclnnStatus rc = CheckDtype(*view, {vx.dtype}); rc != ACLNN_SUCCESS) return rc;
    }
    if (antiquantOffsetOptional != nullptr) {
        if (aclnnStatus rc = CheckDtype(vo, {vx.dtype}); rc != ACLNN_SUCCESS) return rc;
    }
    if (biasOptional != nullptr) {
        const aclnnStatus rc =
            bf16 ? CheckDtype(vb, {ACL_BF16, ACL_FLOAT}) : CheckDtype(vb, {ACL_FLOAT16});
        if (rc != ACLNN_SUCCESS) return rc;
    }

    // Shapes: x [m, k], weight [k, n], y [m, n].
    for (const TensorView* view : {&vx, &vw, &vy}) {
        if (view->shape.rank != 2) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %d dimensions %s: the operator takes 2",
                        view->name, view->shape.rank, ShapeText(view->shape));
        }
    }
    const int64_t m = vx.shape.dims[0], k = vx.shape.dims[1], n = vw.shape.dims[1];
    if (vw.shape.dims[0] != k) {
        std::string x_text = ShapeText(vx.shape);
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "x %s and weight %s do not multiply: x's k (%" PRId64
                    ") is not weight's (%" PRId64 ")",
                    x_text.c_str(), ShapeText(vw.shape), k, vw.shape.dims[0]);
    }
    if (m == 0 || k == 0 || n == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "x %s and weight %s: the operator does not take empty tensors",
                    ShapeText(vx.shape), ShapeText(vw.shape));
    }
    for (int d = 0; vw.dtype == ACL_INT4 && d < 2; ++d) {
        if (vw.strides[d] == 1 && vw.shape.dims[d] % 2 != 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "weight is int4 with an odd inner dimension (%" PRId64 "): it must be even",
                        vw.shape.dims[d]);
        }
    }
    ops::LoopShape y_shape;
    y_shape.rank = 2;
    y_shape.dims[0] = m;
    y_shape.dims[1] = n;
    if (aclnnStatus rc = CheckShape(vy, y_shape); rc != ACLNN_SUCCESS) return rc;

    // The quantization mode: antiquantGroupSize 0 is per-tensor or per-channel, else per-group.
    const int64_t group = antiquantGroupSize;
    if (group != 0 && (group < 32 || group % 32 != 0 || group > k - 1)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "antiquantGroupSize is %d: it is 0 or a multiple of 32 from 32 to k - 1 (k is "
                    "%" PRId64 ")",
                    antiquantGroupSize, k);
    }
    const int64_t groups = group == 0 ? 1 : (k + group - 1) / group;
    const bool per_tensor = group == 0 && vs.numel == 1 && vs.shape.rank <= 2;
    const bool fits = group == 0 ? per_tensor || HasShape(vs, {n}) || HasShape(vs, {1, n})
                                 : HasShape(vs, {groups, n});
    if (!fits) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "antiquantScale has shape %s: with antiquantGroupSize %d it takes %s",
                    ShapeText(vs.shape), antiquantGroupSize,
                    group == 0 ? "(1,) or (1, 1) per tensor, (n,) or (1, n) per channel"
                               : "(ceil(k / antiquantGroupSize), n)");
    }
    if (antiquantOffsetOptional != nullptr) {
        if (aclnnStatus rc = CheckShape(vo, vs.shape); rc != ACLNN_SUCCESS) return rc;
    }
    if (biasOptional != nullptr && !HasShape(vb, {n}) && !HasShape(vb, {1, n})) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "biasOptional has shape %s: it takes (n,) or (1, n)",
                    ShapeText(vb.shape));
    }

    // The dequantized weight keeps the weight's memory order: column-major for the transposed
    // view clients pass.
    const bool columns = vw.strides[0] <= vw.strides[1];
    ops::MatmulShape shape;
    shape.rank = 2;
    shape.a.dtype = vx.dtype;
    shape.b.dtype = ACL_FLOAT;
    shape.c.dtype = vy.dtype;
    for (int d = 0; d < 2; ++d) {
        shape.a.dims[d] = vx.shape.dims[d];
        shape.a.strides[d] = vx.strides[d];
        shape.c.dims[d] = vy.shape.dims[d];
        shape.c.strides[d] = vy.strides[d];
    }
    shape.b.dims[0] = k;
    shape.b.dims[1] = n;
    shape.b.strides[0] = columns ? 1 : n;
    shape.b.strides[1] = columns ? k : 1;
    if (biasOptional != nullptr) {
        shape.has_bias = true;
        shape.bias.dtype = vb.dtype;
        shape.bias.dims[0] = 1;
        shape.bias.dims[1] = n;
        shape.bias.strides[1] = vb.strides[vb.shape.rank - 1];
    }
    std::string error;
    std::shared_ptr<const ops::MatmulPlan> plan = ops::PlanMatmul(shape, &error);
    if (!plan) {
        return Fail(ACLNN_ERR_INNER,
                    "aclnnWeightQuantBatchMatmulV2: planning the product failed: %s",
                    error.c_str());
    }

    ops::AntiquantArgs args;
    args.k = k;
    args.n = n;
    args.weight_type = vw.dtype;
    args.weight_offset = vw.offset;
    args.weight_strides[0] = vw.strides[0];
    args.weight_strides[1] = vw.strides[1];
    args.scale_type = vx.dtype;
    ScaleStrides(vs, args.scale_strides);
    if (antiquantOffsetOptional != nullptr) ScaleStrides(vo, args.offset_strides);
    args.group = group == 0 ? k : group;
    args.columns = columns;

    const uint64_t dequant_bytes = AlignUp(static_cast<uint64_t>(k * n) * sizeof(float));
    ExecutorBuilder builder("aclnnWeightQuantBatchMatmulV2");
    int slots[6] = {-1, -1, -1, -1, -1, -1};
    const int64_t offsets[6] = {OffsetBytes(vx),
                                0,
                                OffsetBytes(vs),
                                antiquantOffsetOptional != nullptr ? OffsetBytes(vo) : 0,
                                biasOptional != nullptr ? OffsetBytes(vb) : 0,
                                OffsetBytes(vy)};
    slots[0] = builder.Input(vx, x);
    slots[1] = builder.Input(vw_bytes, weight);
    slots[2] = builder.Input(vs, antiquantScale);
    if (antiquantOffsetOptional != nullptr) slots[3] = builder.Input(vo, antiquantOffsetOptional);
    if (biasOptional != nullptr) slots[4] = builder.Input(vb, biasOptional);
    slots[5] = builder.Output(vy, y);
    auto op = std::make_unique<WeightQuantOperator>(plan, args, dequant_bytes);
    op->SetSlots(slots, offsets);
    return builder.Finish(std::move(op), kAlign + dequant_bytes + plan->workspace_bytes(),
                          workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(WeightQuantBatchMatmulV2)
