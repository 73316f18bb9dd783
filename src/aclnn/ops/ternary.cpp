// The three-operand element-wise executor (aclnn/ops/ternary.h).
#include "aclnn/ops/ternary.h"

#include <cstring>

#include "aclnn/opdev/op_errno.h"

namespace openacl::aclnn {

TernaryOperator::TernaryOperator(const ops::TernaryArgs& args, const TensorView (&operands)[3],
                                 const int (&slots)[3], const TensorView& out, int slot_out)
    : args_(args), out_(out), slot_out_(slot_out) {
    for (int i = 0; i < 3; ++i) {
        operands_[i] = operands[i];
        slots_[i] = slots[i];
    }
}

void TernaryOperator::SetScalar(int index, double value, int64_t value_int) {
    char* data = scalars_[index];
    switch (args_.compute) {
        case ACL_DOUBLE:
            std::memcpy(data, &value, sizeof value);
            break;
        case ACL_INT32: {
            const auto narrow = static_cast<int32_t>(value_int);
            std::memcpy(data, &narrow, sizeof narrow);
            break;
        }
        case ACL_INT64:
            std::memcpy(data, &value_int, sizeof value_int);
            break;
        default: {
            const auto narrow = static_cast<float>(value);
            std::memcpy(data, &narrow, sizeof narrow);
            break;
        }
    }
}

int32_t TernaryOperator::Run(void* const* addresses, void*, std::string*) const {
    ops::TernaryArgs args = args_;
    ops::Operand* operands[3] = {&args.a, &args.b, &args.c};
    for (int i = 0; i < 3; ++i) {
        if (slots_[i] >= 0) {
            *operands[i] = OperandOf(operands_[i], args.shape, addresses[slots_[i]]);
        } else {  // every stride 0: the one value repeated
            *operands[i] = ops::Operand{};
            operands[i]->dtype = args.compute;
            operands[i]->data = const_cast<char*>(scalars_[i]);
        }
    }
    args.out = OperandOf(out_, args.shape, addresses[slot_out_]);
    ops::RunTernary(args);
    return 0;
}

aclnnStatus Broadcast3(const TensorView* a, const TensorView* b, const TensorView* c,
                       ops::LoopShape* shape) {
    const TensorView* views[3] = {a, b, c};
    TensorView so_far;  // the broadcast of the views before, named after them for messages
    bool first = true;
    for (const TensorView* view : views) {
        if (view == nullptr) continue;
        if (first) {
            so_far = *view;
            first = false;
            continue;
        }
        ops::LoopShape merged;
        if (aclnnStatus rc = Broadcast(so_far, *view, &merged); rc != ACLNN_SUCCESS) return rc;
        so_far.shape = merged;
        so_far.name = "the broadcast of the operands before it";
    }
    *shape = so_far.shape;
    return ACLNN_SUCCESS;
}

}  // namespace openacl::aclnn
