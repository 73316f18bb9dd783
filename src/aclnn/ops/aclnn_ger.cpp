// aclnnop/aclnn_ger.h: the outer product out[i][j] = self[i] * vec2[j] of two 1-D tensors.
// Each product is one multiplication, so it runs on the element-wise engine (ops/elementwise.h)
// as a Mul of self, repeated along the columns, by vec2, repeated along the rows: every real
// type CANN lists, with Mul's promotion and the cast to out.
#include "aclnnop/aclnn_ger.h"

#include <memory>
#include <string>

#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/elementwise.h"

using openacl::Fail;

namespace {

// CANN's list (complex types aside: openacl computes on real types only).
constexpr auto kGerTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,  ACL_INT8,
                            ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_UINT8, ACL_BOOL};

// A 1-D view as an operand of the [n, m] loop, stepping along dimension `dim` only.
openacl::ops::Operand Vector(const openacl::aclnn::TensorView& view, void* address, int dim) {
    openacl::ops::Operand operand;
    operand.dtype = view.dtype;
    operand.data = static_cast<char*>(address) +
                   view.offset * static_cast<int64_t>(openacl::ops::DtypeSize(view.dtype));
    operand.strides[dim] = view.strides[0];
    return operand;
}

class GerOperator final : public openacl::aclnn::Operator {
 public:
    GerOperator(const openacl::ops::BinaryArgs& args, const openacl::aclnn::TensorView& a,
                const openacl::aclnn::TensorView& b, const openacl::aclnn::TensorView& out)
        : args_(args), a_(a), b_(b), out_(out) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        openacl::ops::BinaryArgs args = args_;
        // self down the rows (stride 0 across), vec2 across the columns (stride 0 down).
        args.a = Vector(a_, addresses[0], 0);
        args.b = Vector(b_, addresses[1], 1);
        args.out = openacl::aclnn::OperandOf(out_, args.shape, addresses[2]);
        openacl::ops::RunBinary(args);
        return 0;
    }

 private:
    openacl::ops::BinaryArgs args_;
    openacl::aclnn::TensorView a_, b_, out_;
};

}  // namespace

aclnnStatus aclnnGerGetWorkspaceSize(const aclTensor* self, const aclTensor* vec2, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    namespace ops = openacl::ops;
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(vec2, "vec2"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, b, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(vec2, "vec2", &b); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    for (const TensorView* view : {&a, &b, &o}) {
        if (aclnnStatus rc = CheckDtype(*view, kGerTypes); rc != ACLNN_SUCCESS) return rc;
    }
    aclDataType promoted = ACL_DT_UNDEFINED;
    if (!ops::PromoteTypes(a.dtype, b.dtype, &promoted)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "self (%s) and vec2 (%s) have no common type",
                    ops::DtypeName(a.dtype), ops::DtypeName(b.dtype));
    }
    if (!ops::CanCast(promoted, o.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "the product's type %s cannot be cast to out's type %s (floating to "
                    "integer, or anything but bool to bool, is refused)",
                    ops::DtypeName(promoted), ops::DtypeName(o.dtype));
    }
    for (const TensorView* view : {&a, &b}) {
        if (view->shape.rank != 1) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %d dimensions %s: the operator takes 1",
                        view->name, view->shape.rank, ShapeText(view->shape));
        }
    }
    ops::BinaryArgs args;
    args.op = ops::BinaryOp::kMul;
    args.compute = ComputeType(promoted);
    args.shape.rank = 2;
    args.shape.dims[0] = a.shape.dims[0];
    args.shape.dims[1] = b.shape.dims[0];
    if (aclnnStatus rc = CheckShape(o, args.shape); rc != ACLNN_SUCCESS) return rc;
    ExecutorBuilder builder("aclnnGer");
    builder.Input(a, self);
    builder.Input(b, vec2);
    builder.Output(o, out);
    return builder.Finish(std::make_unique<GerOperator>(args, a, b, o), 0, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Ger)
