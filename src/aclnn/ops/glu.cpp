// Gated linear units (aclnn/ops/glu.h).
#include "aclnn/ops/glu.h"

#include <cinttypes>
#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

class GluOperator final : public Operator {
 public:
    GluOperator(ops::UnaryOp activation, TensorView act, TensorView gate, TensorView out,
                TensorView act_out, int x_slot, int out_slot, int act_out_slot)
        : activation_(activation),
          act_(act),
          gate_(gate),
          out_(out),
          act_out_(act_out),
          x_slot_(x_slot),
          out_slot_(out_slot),
          act_out_slot_(act_out_slot) {}

    int32_t Run(void* const* addresses, void* workspace, std::string*) const override {
        // The workspace holds the activated half as a contiguous float tensor of out's shape.
        ops::Operand tmp;
        tmp.dtype = ACL_FLOAT;
        tmp.data = static_cast<char*>(workspace);
        int64_t step = 1;
        for (int d = out_.shape.rank - 1; d >= 0; --d) {
            tmp.strides[d] = step;
            step *= out_.shape.dims[d];
        }
        ops::UnaryArgs activate;
        activate.op = activation_;
        activate.shape = out_.shape;
        activate.in = OperandOf(act_, out_.shape, addresses[x_slot_]);
        activate.out = tmp;
        activate.compute = act_.dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
        ops::RunUnary(activate);
        if (act_out_slot_ >= 0) {
            ops::UnaryArgs copy;
            copy.op = ops::UnaryOp::kIdentity;
            copy.shape = out_.shape;
            copy.in = tmp;
            copy.out = OperandOf(act_out_, out_.shape, addresses[act_out_slot_]);
            ops::RunUnary(copy);
        }
        ops::BinaryArgs product;
        product.op = ops::BinaryOp::kMul;
        product.shape = out_.shape;
        product.a = tmp;
        product.b = OperandOf(gate_, out_.shape, addresses[x_slot_]);
        product.out = OperandOf(out_, out_.shape, addresses[out_slot_]);
        product.compute = ACL_FLOAT;
        ops::RunBinary(product);
        return 0;
    }

 private:
    ops::UnaryOp activation_;
    TensorView act_, gate_, out_, act_out_;
    int x_slot_, out_slot_, act_out_slot_;
};

}  // namespace

aclnnStatus PlanGlu(const GluSpec& spec, const aclTensor* x, const char* x_name, int64_t dim,
                    const aclTensor* out, const aclTensor* activated_out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(x, x_name); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (activated_out != nullptr) {
        if (aclnnStatus rc = CheckTensorObject(activated_out, "outGelu"); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o, a;
    if (aclnnStatus rc = ViewOf(x, x_name, &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}); rc != 0) return rc;
    if (o.dtype != in.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out is %s but %s is %s: they must be the same type",
                    ops::DtypeName(o.dtype), x_name, ops::DtypeName(in.dtype));
    }
    if (in.shape.rank == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is 0-dimensional: nothing to split", x_name);
    }
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) return rc;
    if (in.shape.dims[d] % 2 != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "dimension %d of %s is %" PRId64 ": it must split into two equal halves", d,
                    x_name, in.shape.dims[d]);
    }
    const int64_t half = in.shape.dims[d] / 2;
    TensorView left = in, right = in;
    left.shape.dims[d] = right.shape.dims[d] = half;
    right.offset += half * in.strides[d];
    if (aclnnStatus rc = CheckShape(o, left.shape); rc != 0) return rc;
    if (activated_out != nullptr) {
        if (aclnnStatus rc = ViewOf(activated_out, "outGelu", &a); rc != 0) return rc;
        if (aclnnStatus rc = CheckShape(a, left.shape); rc != 0) return rc;
        if (a.dtype != in.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "outGelu is %s but %s is %s",
                        ops::DtypeName(a.dtype), x_name, ops::DtypeName(in.dtype));
        }
    }
    ExecutorBuilder builder(spec.api);
    const int x_slot = builder.Input(in, x);
    const int out_slot = builder.Output(o, out);
    const int act_slot = activated_out != nullptr ? builder.Output(a, activated_out) : -1;
    const uint64_t workspace = static_cast<uint64_t>(o.numel) * sizeof(float);
    return builder.Finish(std::make_unique<GluOperator>(
                              spec.activation, spec.activate_left ? left : right,
                              spec.activate_left ? right : left, o, a, x_slot, out_slot, act_slot),
                          workspace, workspaceSize, executor);
}

}  // namespace openacl::aclnn
