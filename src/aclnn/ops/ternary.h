// The element-wise operators with three operands (SWhere, Addcdiv, ClampTensor,
// InplaceMaskedFillScalar): an executor that runs ops::RunTernary on the stream over tensor
// operands and scalar ones (a scalar is one value repeated, kept in the operator), and the
// broadcasting of three shapes.
#pragma once

#include <cstdint>

#include "aclnn/op_executor.h"
#include "ops/elementwise.h"

namespace openacl::aclnn {

class TernaryOperator final : public Operator {
 public:
    // args: op, shape, compute type and parameters. operands[i] is read from slot slots[i], or
    // is a scalar where slots[i] is -1 (set it with SetScalar); out is written at slot_out.
    TernaryOperator(const ops::TernaryArgs& args, const TensorView (&operands)[3],
                    const int (&slots)[3], const TensorView& out, int slot_out);

    // Operand `index` is `value` (value_int in integer compute types), in the compute type.
    void SetScalar(int index, double value, int64_t value_int);

    int32_t Run(void* const* addresses, void* workspace, std::string* error) const override;

 private:
    ops::TernaryArgs args_;
    TensorView operands_[3], out_;
    int slots_[3], slot_out_;
    alignas(8) char scalars_[3][8] = {};
};

// The broadcast shape of the views that are not null (NumPy rules), or 161002 naming them.
aclnnStatus Broadcast3(const TensorView* a, const TensorView* b, const TensorView* c,
                       ops::LoopShape* shape);

}  // namespace openacl::aclnn
