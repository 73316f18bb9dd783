// The matrix-product operators' first phase (aclnn/ops/product.h).
#include "aclnn/ops/product.h"

#include <cinttypes>
#include <memory>
#include <string>
#include <utility>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/matmul.h"

namespace openacl::aclnn {
namespace {

constexpr auto kProductTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// The view's first element: base plus the view's offset (null stays null: empty views may
// have no memory).
const void* At(const void* base, int64_t bytes) {
    return base == nullptr ? nullptr : static_cast<const char*>(base) + bytes;
}

class ProductOperator final : public Operator {
 public:
    ProductOperator(std::shared_ptr<const ops::MatmulPlan> plan, int64_t a_offset, int64_t b_offset,
                    int64_t c_offset)
        : plan_(std::move(plan)), a_offset_(a_offset), b_offset_(b_offset), c_offset_(c_offset) {}

    int32_t Run(void* const* addresses, void* workspace, std::string* error) const override {
        void* c = const_cast<void*>(At(addresses[2], c_offset_));
        return plan_->Run(At(addresses[0], a_offset_), At(addresses[1], b_offset_), c, workspace,
                          error)
                   ? 0
                   : ACL_ERROR_FAILURE;
    }

 private:
    std::shared_ptr<const ops::MatmulPlan> plan_;
    int64_t a_offset_, b_offset_, c_offset_;  // bytes from each slot's address to its view
};

int64_t OffsetBytes(const TensorView& view) {
    return view.offset * static_cast<int64_t>(ops::DtypeSize(view.dtype));
}

// The documented type rules (product.h).
aclnnStatus CheckTypes(const ProductSpec& spec, const TensorView& a, const TensorView& b,
                       const TensorView& out, int8_t cube_math_type) {
    for (const TensorView* view : {&a, &b, &out}) {
        if (aclnnStatus rc = CheckDtype(*view, kProductTypes); rc != ACLNN_SUCCESS) return rc;
    }
    if (cube_math_type < 0 || cube_math_type > 4) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "cubeMathType is %d: it takes 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), "
                    "2 (USE_FP16), 3 (USE_HF32) or 4 (USE_FP32_ADD)",
                    static_cast<int>(cube_math_type));
    }
    if (spec.kind == ProductKind::kMv) {
        if (a.dtype != b.dtype || a.dtype != out.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "self (%s), %s (%s) and out (%s) must share a type",
                        ops::DtypeName(a.dtype), b.name, ops::DtypeName(b.dtype),
                        ops::DtypeName(out.dtype));
        }
        return ACLNN_SUCCESS;
    }
    // Two different float types deduce float (float16 with bfloat16 too).
    const aclDataType deduced = a.dtype == b.dtype ? a.dtype : ACL_FLOAT;
    const bool wider = out.dtype == ACL_FLOAT;
    const bool reduced = deduced == ACL_FLOAT && out.dtype == ACL_FLOAT16 && cube_math_type != 0;
    if (out.dtype != deduced && !wider && !reduced) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "out is %s but the product of %s and %s is %s: out takes that type or float "
                    "(float16 for a float product only when cubeMathType is not 0, KEEP_DTYPE)",
                    ops::DtypeName(out.dtype), ops::DtypeName(a.dtype), ops::DtypeName(b.dtype),
                    ops::DtypeName(deduced));
    }
    return ACLNN_SUCCESS;
}

aclnnStatus CheckRank(const TensorView& view, int low, int high) {
    const int rank = view.shape.rank;
    if (rank >= low && rank <= high) return ACLNN_SUCCESS;
    if (low == high) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %d dimensions %s: the operator takes %d",
                    view.name, rank, ShapeText(view.shape), low);
    }
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %d dimensions %s: the operator takes %d to %d",
                view.name, rank, ShapeText(view.shape), low, high);
}

aclnnStatus CheckRanks(const ProductSpec& spec, const TensorView& a, const TensorView& b,
                       const TensorView& out) {
    switch (spec.kind) {
        case ProductKind::kMm:
            for (const TensorView* view : {&a, &b, &out}) {
                if (aclnnStatus rc = CheckRank(*view, 2, 2); rc != ACLNN_SUCCESS) return rc;
            }
            return ACLNN_SUCCESS;
        case ProductKind::kBatchMatMul:
            for (const TensorView* view : {&a, &b, &out}) {
                if (aclnnStatus rc = CheckRank(*view, 3, 3); rc != ACLNN_SUCCESS) return rc;
            }
            return ACLNN_SUCCESS;
        case ProductKind::kMv:
            if (aclnnStatus rc = CheckRank(a, 2, 2); rc != ACLNN_SUCCESS) return rc;
            if (aclnnStatus rc = CheckRank(b, 1, 1); rc != ACLNN_SUCCESS) return rc;
            return CheckRank(out, 1, 1);
        case ProductKind::kMatmul:
            break;
    }
    if (aclnnStatus rc = CheckRank(a, 1, ops::kMatmulMaxRank); rc != ACLNN_SUCCESS) return rc;
    return CheckRank(b, 1, ops::kMatmulMaxRank);
}

// torch.matmul's shapes: a 1-D self is a row [1, k] and a 1-D mat2 a column [k, 1], each
// dimension added dropped from the result; the dimensions before the last two broadcast.
// Fills the kernel's operands (all of one rank, batch dimensions padded with 1s) and the
// result's shape; 161002 when the reduce dimensions differ or the batches do not broadcast.
aclnnStatus Shapes(const TensorView& a, const TensorView& b, const TensorView& out,
                   ops::MatmulShape* shape, ops::LoopShape* result) {
    const int ra = a.shape.rank, rb = b.shape.rank;
    const int64_t k = a.shape.dims[ra - 1];
    const int64_t kb = b.shape.dims[rb == 1 ? 0 : rb - 2];
    if (k != kb) {
        std::string a_text = ShapeText(a.shape);
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self %s and %s %s do not multiply: self's last dimension (%" PRId64
                    ") differs from %s's %s dimension (%" PRId64 ")",
                    a_text.c_str(), b.name, ShapeText(b.shape), k, b.name,
                    rb == 1 ? "only" : "second-to-last", kb);
    }
    // The batch dimensions, aligned at the last one.
    const int ba = ra > 2 ? ra - 2 : 0, bb = rb > 2 ? rb - 2 : 0;
    const int batch = ba > bb ? ba : bb;
    result->rank = 0;
    for (int d = 0; d < batch; ++d) {
        const int da = d - (batch - ba), db = d - (batch - bb);
        const int64_t x = da >= 0 ? a.shape.dims[da] : 1, y = db >= 0 ? b.shape.dims[db] : 1;
        if (x != y && x != 1 && y != 1) {
            std::string a_text = ShapeText(a.shape);
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "self %s and %s %s do not broadcast: batch dimension %d is %" PRId64
                        " against %" PRId64,
                        a_text.c_str(), b.name, ShapeText(b.shape), d, x, y);
        }
        result->dims[result->rank++] = x == 1 ? y : x;
    }
    const int64_t m = ra > 1 ? a.shape.dims[ra - 2] : 1;
    const int64_t n = rb > 1 ? b.shape.dims[rb - 1] : 1;
    if (ra > 1) result->dims[result->rank++] = m;
    if (rb > 1) result->dims[result->rank++] = n;
    if (aclnnStatus rc = CheckShape(out, *result); rc != ACLNN_SUCCESS) return rc;

    const int rank = batch + 2;
    shape->rank = rank;
    ops::MatmulOperand& oa = shape->a;
    ops::MatmulOperand& ob = shape->b;
    ops::MatmulOperand& oc = shape->c;
    oa.dtype = a.dtype;
    ob.dtype = b.dtype;
    oc.dtype = out.dtype;
    for (int d = 0; d < batch; ++d) {  // missing batch dimensions: size 1
        const int da = d - (batch - ba), db = d - (batch - bb);
        oa.dims[d] = da >= 0 ? a.shape.dims[da] : 1;
        oa.strides[d] = da >= 0 ? a.strides[da] : 0;
        ob.dims[d] = db >= 0 ? b.shape.dims[db] : 1;
        ob.strides[d] = db >= 0 ? b.strides[db] : 0;
        oc.dims[d] = result->dims[d];
        oc.strides[d] = out.strides[d];
    }
    // The matrices; an added dimension has size 1, its stride unused.
    oa.dims[rank - 2] = m;
    oa.strides[rank - 2] = ra > 1 ? a.strides[ra - 2] : 0;
    oa.dims[rank - 1] = k;
    oa.strides[rank - 1] = a.strides[ra - 1];
    ob.dims[rank - 2] = k;
    ob.strides[rank - 2] = rb > 1 ? b.strides[rb - 2] : b.strides[0];
    ob.dims[rank - 1] = n;
    ob.strides[rank - 1] = rb > 1 ? b.strides[rb - 1] : 0;
    oc.dims[rank - 2] = m;
    oc.strides[rank - 2] = ra > 1 ? out.strides[batch] : 0;
    oc.dims[rank - 1] = n;
    oc.strides[rank - 1] = rb > 1 ? out.strides[out.shape.rank - 1] : 0;
    return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus PlanProduct(const ProductSpec& spec, const aclTensor* self, const aclTensor* mat2,
                        const aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(mat2, spec.mat2_name); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, b, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    // A weight may carry llama.cpp's FRACTAL_NZ tag (op_checks.h); Mv's vector may not.
    if (aclnnStatus rc = spec.kind == ProductKind::kMv ? ViewOf(mat2, spec.mat2_name, &b)
                                                       : WeightViewOf(mat2, spec.mat2_name, &b);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTypes(spec, a, b, o, cubeMathType); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckRanks(spec, a, b, o); rc != ACLNN_SUCCESS) return rc;
    ops::MatmulShape shape;
    ops::LoopShape result;
    if (aclnnStatus rc = Shapes(a, b, o, &shape, &result); rc != ACLNN_SUCCESS) return rc;
    std::string error;
    std::shared_ptr<const ops::MatmulPlan> plan = ops::PlanMatmul(shape, &error);
    if (!plan) {
        return Fail(ACLNN_ERR_INNER, "%s: planning the product failed: %s", spec.api,
                    error.c_str());
    }
    ExecutorBuilder builder(spec.api);
    builder.Input(a, self);
    builder.Input(b, mat2);
    builder.Output(o, out);
    auto op =
        std::make_unique<ProductOperator>(plan, OffsetBytes(a), OffsetBytes(b), OffsetBytes(o));
    return builder.Finish(std::move(op), plan->workspace_bytes(), workspaceSize, executor);
}

}  // namespace openacl::aclnn
