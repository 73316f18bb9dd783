// aclnnop/aclnn_cumsum.h: out = the cumulative sum of self along dim. Cumsum converts self to
// dtype (out's type) first; CumsumV2 keeps self's type and may leave each element out of its
// own sum (exclusive) or sum from the end (reverse).
#include "aclnnop/aclnn_cumsum.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

// CANN's list (complex types aside: openacl computes on real types only).
constexpr auto kCumsumTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE, ACL_UINT8,
                               ACL_INT8,  ACL_INT16,   ACL_INT64, ACL_BF16};

class CumsumOperator final : public Operator {
 public:
    CumsumOperator(const ops::CumsumArgs& args, const TensorView& self, const TensorView& out,
                   int slot_self, int slot_out)
        : args_(args), self_(self), out_(out), slot_self_(slot_self), slot_out_(slot_out) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::CumsumArgs args = args_;
        args.in = OperandOf(self_, self_.shape, addresses[slot_self_]);
        args.out = OperandOf(out_, out_.shape, addresses[slot_out_]);
        ops::RunCumsum(args);
        return 0;
    }

 private:
    ops::CumsumArgs args_;
    TensorView self_, out_;
    int slot_self_, slot_out_;
};

aclnnStatus PlanCumsum(const char* api, const aclTensor* self, int64_t dim, aclDataType dtype,
                       bool v2, bool exclusive, bool reverse, const aclTensor* out,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(a, kCumsumTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, kCumsumTypes); rc != ACLNN_SUCCESS) return rc;
    if (v2) {
        if (o.dtype != a.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "out is %s but self is %s: they must be alike",
                        ops::DtypeName(o.dtype), ops::DtypeName(a.dtype));
        }
    } else {
        if (aclnnStatus rc = CheckDtypeArgument(dtype, "dtype", kCumsumTypes);
            rc != ACLNN_SUCCESS) {
            return rc;
        }
        if (o.dtype != dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "dtype is %s but out is %s: out must have the type dtype names",
                        ops::DtypeName(dtype), ops::DtypeName(o.dtype));
        }
    }
    if (aclnnStatus rc = CheckShape(o, a.shape); rc != ACLNN_SUCCESS) return rc;
    ops::CumsumArgs args;
    if (aclnnStatus rc = WrapDim(a, dim, "dim", &args.axis); rc != ACLNN_SUCCESS) return rc;
    args.shape = a.shape;
    args.via = a.dtype == o.dtype ? ACL_DT_UNDEFINED : o.dtype;
    args.integer = !ops::IsFloating(o.dtype);
    args.exclusive = exclusive;
    args.reverse = reverse;
    ExecutorBuilder builder(api);
    const int slot_self = builder.Input(a, self);
    const int slot_out = builder.Output(o, out);
    return builder.Finish(std::make_unique<CumsumOperator>(args, a, o, slot_self, slot_out), 0,
                          workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanCumsum("aclnnCumsum", self, dim, dtype, false, false, false, out,
                                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Cumsum)

aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim, bool exclusive,
                                          bool reverse, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanCumsum("aclnnCumsumV2", self, dim, ACL_DT_UNDEFINED, true, exclusive,
                                      reverse, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(CumsumV2)
