// The first phase shared by the reductions (ReduceSum, Mean, Amax, Amin, Norm, ArgMax) and the
// operators along one dimension (Cumsum, Softmax, ...): dimension arguments (negative ones
// counted from the end, a 0-d tensor taking -1 and 0 like a 1-d one), the reduced shape with
// and without keepdim, and an executor that runs ops::RunReduce (or fills the output of an
// empty reduction) on the stream.
#pragma once

#include <cstdint>

#include "aclnn/op_executor.h"
#include "ops/reduce.h"
#include "ops/sort.h"

namespace openacl::aclnn {

// `dim` of `view` as an index in [0, rank) (0 for a 0-d tensor), or 161002 naming `name`.
aclnnStatus WrapDim(const TensorView& view, int64_t dim, const char* name, int* axis);

// The dimensions `dims` names as a bit mask (bit d: dimension d); an empty list names every
// dimension. 161002 when one is out of range or repeated.
aclnnStatus DimMask(const TensorView& view, const aclIntArray* dims, const char* name,
                    uint32_t* mask);

// self's shape with the dimensions in mask removed (set to 1 with keepdim).
ops::LoopShape ReducedShape(const TensorView& self, uint32_t mask, bool keepdim);

// 161002 unless out has the reduced shape (a 0-d self reduces to any one-element out).
aclnnStatus CheckReducedShape(const TensorView& out, const TensorView& self, uint32_t mask,
                              bool keepdim);

struct Reduction {
    const char* api = "";  // the second phase
    ops::ReduceOp op = ops::ReduceOp::kSum;
    uint32_t mask = 0;
    bool keepdim = false;
    aclDataType via = ACL_DT_UNDEFINED;  // ops::ReduceArgs::via
    bool integer = false;
    double p = 2.0;
    // An empty self leaves out as it is, or fills it with `fill`.
    bool fill_empty = false;
    double fill = 0.0;
};

// The executor of a checked reduction of self into out.
aclnnStatus FinishReduction(const Reduction& reduction, const TensorView& self,
                            const aclTensor* self_tensor, const TensorView& out,
                            const aclTensor* out_tensor, uint64_t* workspaceSize,
                            aclOpExecutor** executor);

// The executor of an operator with nothing to compute (empty tensors): its tensors are still
// recorded, so repeatable executors take address updates as usual.
aclnnStatus FinishNothing(const char* api, std::initializer_list<const TensorView*> inputs,
                          std::initializer_list<const aclTensor*> input_tensors,
                          std::initializer_list<const TensorView*> outputs,
                          std::initializer_list<const aclTensor*> output_tensors,
                          uint64_t* workspaceSize, aclOpExecutor** executor);

// out's strides over self's loop shape: those of the kept dimensions, 0 along reduced ones.
ops::Operand ReducedOperand(const TensorView& out, const TensorView& self, uint32_t mask,
                            bool keepdim, void* address);

// "a dtype names none of the operator's types" check for a dtype argument (not a tensor).
aclnnStatus CheckDtypeArgument(aclDataType dtype, const char* name,
                               std::initializer_list<aclDataType> allowed);

// Amax and Amin (op kMax or kMin): out (self's type) = the extreme of self over dim (every
// dimension when empty), NaN propagating; a reduced dimension may not be empty.
aclnnStatus PlanExtreme(const char* api, ops::ReduceOp op, const aclTensor* self,
                        const aclIntArray* dim, bool keepDim, const aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor);

// Softmax and LogSoftmax (log): out = softmax of self along dim, numerically stable. Softmax
// takes an empty self without further checks, as CANN does.
aclnnStatus PlanSoftmax(const char* api, bool log, const aclTensor* self, int64_t dim,
                        const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

// The executor of a checked sort of self (Sort, Argsort, Topk): `values` and `indices` may be
// null (not written); args' operands are filled in at run time.
aclnnStatus FinishSort(const char* api, const ops::SortArgs& args, const TensorView& self,
                       const aclTensor* self_tensor, const TensorView* values,
                       const aclTensor* values_tensor, const TensorView* indices,
                       const aclTensor* indices_tensor, uint64_t* workspaceSize,
                       aclOpExecutor** executor);

}  // namespace openacl::aclnn
