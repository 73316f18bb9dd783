// aclnnop/aclnn_sum.h: out = the element-wise sum of the tensors of a list, broadcast
// together; every tensor and out have one type.
#include "aclnnop/aclnn_sum.h"

#include <memory>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

constexpr auto kSumTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_UINT8};

// Parameter names for messages (static storage, as TensorView keeps the pointer).
const char* ElementName(size_t i) {
    static const char* const kNames[] = {
        "tensors[0]",  "tensors[1]",  "tensors[2]",  "tensors[3]", "tensors[4]",  "tensors[5]",
        "tensors[6]",  "tensors[7]",  "tensors[8]",  "tensors[9]", "tensors[10]", "tensors[11]",
        "tensors[12]", "tensors[13]", "tensors[14]", "tensors[15]"};
    return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "an element of tensors";
}

// out = tensors[0] + tensors[1] + ... accumulated in out (in the compute type of out's).
class SumOperator final : public Operator {
 public:
    SumOperator(std::vector<TensorView> inputs, std::vector<int> slots, const TensorView& out,
                int slot_out)
        : inputs_(std::move(inputs)), slots_(std::move(slots)), out_(out), slot_out_(slot_out) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        const ops::LoopShape& shape = out_.shape;
        const ops::Operand out = OperandOf(out_, shape, addresses[slot_out_]);
        const aclDataType compute = ComputeType(out_.dtype);
        if (inputs_.size() == 1) {
            ops::UnaryArgs copy;
            copy.op = ops::UnaryOp::kIdentity;
            copy.shape = shape;
            copy.in = OperandOf(inputs_[0], shape, addresses[slots_[0]]);
            copy.out = out;
            copy.compute = compute;
            ops::RunUnary(copy);
            return 0;
        }
        ops::BinaryArgs add;
        add.op = ops::BinaryOp::kAdd;
        add.shape = shape;
        add.compute = compute;
        add.out = out;
        add.a = OperandOf(inputs_[0], shape, addresses[slots_[0]]);
        for (size_t i = 1; i < inputs_.size(); ++i) {
            add.b = OperandOf(inputs_[i], shape, addresses[slots_[i]]);
            ops::RunBinary(add);
            add.a = out;  // the running sum
        }
        return 0;
    }

 private:
    std::vector<TensorView> inputs_;
    std::vector<int> slots_;
    TensorView out_;
    int slot_out_;
};

aclnnStatus PlanSum(const aclTensorList* tensors, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorListObject(tensors, "tensors"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    for (size_t i = 0; i < tensors->tensors.size(); ++i) {
        if (tensors->tensors[i] == nullptr) {
            return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null", ElementName(i));
        }
    }
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (tensors->tensors.empty()) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "tensors is empty: there is nothing to sum");
    }
    TensorView o;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, kSumTypes); rc != ACLNN_SUCCESS) return rc;
    std::vector<TensorView> inputs(tensors->tensors.size());
    ops::LoopShape shape;
    for (size_t i = 0; i < inputs.size(); ++i) {
        TensorView& view = inputs[i];
        if (aclnnStatus rc = ViewOf(tensors->tensors[i], ElementName(i), &view);
            rc != ACLNN_SUCCESS) {
            return rc;
        }
        if (aclnnStatus rc = CheckDtype(view, kSumTypes); rc != ACLNN_SUCCESS) return rc;
        if (view.dtype != o.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s but out is %s: they must be alike",
                        view.name, ops::DtypeName(view.dtype), ops::DtypeName(o.dtype));
        }
        if (i == 0) {
            shape = view.shape;
        } else {
            TensorView so_far;
            so_far.name = "the tensors before it";
            so_far.shape = shape;
            if (aclnnStatus rc = Broadcast(so_far, view, &shape); rc != ACLNN_SUCCESS) return rc;
        }
    }
    if (aclnnStatus rc = CheckShape(o, shape); rc != ACLNN_SUCCESS) return rc;
    ExecutorBuilder builder("aclnnSum");
    std::vector<int> slots;
    for (size_t i = 0; i < inputs.size(); ++i) {
        slots.push_back(builder.ListInput(inputs[i], tensors->tensors[i], static_cast<int>(i)));
    }
    const int slot_out = builder.Output(o, out);
    return builder.Finish(
        std::make_unique<SumOperator>(std::move(inputs), std::move(slots), o, slot_out), 0,
        workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanSum(tensors, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Sum)
