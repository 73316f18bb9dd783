// The reductions' shared first phase (aclnn/ops/reduction.h).
#include "aclnn/ops/reduction.h"

#include <cinttypes>
#include <cmath>
#include <memory>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/softmax.h"

namespace openacl::aclnn {
namespace {

// CANN's lists for Amax and Amin, and for Softmax and LogSoftmax.
constexpr auto kExtremeTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8,  ACL_INT32, ACL_INT64,
                                ACL_INT16, ACL_INT8,    ACL_DOUBLE, ACL_BOOL,  ACL_BF16};
constexpr auto kSoftmaxTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

class ReduceOperator final : public Operator {
 public:
    ReduceOperator(const Reduction& reduction, const TensorView& self, const TensorView& out,
                   int slot_self, int slot_out)
        : reduction_(reduction),
          self_(self),
          out_(out),
          slot_self_(slot_self),
          slot_out_(slot_out) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        if (self_.numel == 0) {
            if (reduction_.fill_empty && out_.numel > 0) {
                ops::FillArgs fill;
                fill.shape = out_.shape;
                fill.out = OperandOf(out_, out_.shape, addresses[slot_out_]);
                fill.value = reduction_.fill;
                fill.value_int =
                    std::isnan(reduction_.fill) ? 0 : static_cast<int64_t>(reduction_.fill);
                ops::RunFill(fill);
            }
            return 0;
        }
        ops::ReduceArgs args;
        args.op = reduction_.op;
        args.shape = self_.shape;
        args.reduce_mask = reduction_.mask;
        args.in = OperandOf(self_, self_.shape, addresses[slot_self_]);
        args.out =
            ReducedOperand(out_, self_, reduction_.mask, reduction_.keepdim, addresses[slot_out_]);
        args.via = reduction_.via;
        args.integer = reduction_.integer;
        args.p = reduction_.p;
        ops::RunReduce(args);
        return 0;
    }

 private:
    Reduction reduction_;
    TensorView self_, out_;
    int slot_self_, slot_out_;
};

class SoftmaxOperator final : public Operator {
 public:
    SoftmaxOperator(const ops::SoftmaxArgs& args, const TensorView& self, const TensorView& out,
                    int slot_self, int slot_out)
        : args_(args), self_(self), out_(out), slot_self_(slot_self), slot_out_(slot_out) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::SoftmaxArgs args = args_;
        args.in = OperandOf(self_, self_.shape, addresses[slot_self_]);
        args.out = OperandOf(out_, out_.shape, addresses[slot_out_]);
        ops::RunSoftmax(args);
        return 0;
    }

 private:
    ops::SoftmaxArgs args_;
    TensorView self_, out_;
    int slot_self_, slot_out_;
};

class SortOperator final : public Operator {
 public:
    SortOperator(const ops::SortArgs& args, const TensorView& self, const TensorView* values,
                 const TensorView* indices, int slot_self, int slot_values, int slot_indices)
        : args_(args),
          self_(self),
          slot_self_(slot_self),
          slot_values_(slot_values),
          slot_indices_(slot_indices) {
        if (values != nullptr) values_ = *values;
        if (indices != nullptr) indices_ = *indices;
    }

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::SortArgs args = args_;
        args.in = OperandOf(self_, self_.shape, addresses[slot_self_]);
        if (slot_values_ >= 0) {
            args.values = AlongSelf(values_, addresses[slot_values_]);
        }
        if (slot_indices_ >= 0) {
            args.indices = AlongSelf(indices_, addresses[slot_indices_]);
        }
        ops::RunSort(args);
        return 0;
    }

 private:
    // An output (k positions along the axis, self's sizes elsewhere) over self's loop shape.
    ops::Operand AlongSelf(const TensorView& view, void* address) const {
        ops::Operand operand;
        operand.dtype = view.dtype;
        operand.data = static_cast<char*>(address) +
                       view.offset * static_cast<int64_t>(ops::DtypeSize(view.dtype));
        if (operand.data == nullptr) operand.data = Placeholder();
        for (int d = 0; d < view.shape.rank && d < self_.shape.rank; ++d) {
            operand.strides[d] = view.strides[d];
        }
        return operand;
    }
    static char* Placeholder() {
        static char byte;
        return &byte;
    }

    ops::SortArgs args_;
    TensorView self_, values_, indices_;
    int slot_self_, slot_values_, slot_indices_;
};

class NothingOperator final : public Operator {
 public:
    int32_t Run(void* const*, void*, std::string*) const override { return 0; }
};

}  // namespace

aclnnStatus WrapDim(const TensorView& view, int64_t dim, const char* name, int* axis) {
    const int64_t rank = view.shape.rank == 0 ? 1 : view.shape.rank;
    if (dim < -rank || dim >= rank) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s is %" PRId64 " but %s has %d dimensions: it must be in [%" PRId64
                    ", %" PRId64 "]",
                    name, dim, view.name, view.shape.rank, -rank, rank - 1);
    }
    *axis = static_cast<int>(dim < 0 ? dim + rank : dim);
    if (view.shape.rank == 0) *axis = 0;
    return ACLNN_SUCCESS;
}

aclnnStatus DimMask(const TensorView& view, const aclIntArray* dims, const char* name,
                    uint32_t* mask) {
    *mask = 0;
    if (dims->values.empty()) {
        *mask = view.shape.rank == 0 ? 0u : (1u << view.shape.rank) - 1u;
        return ACLNN_SUCCESS;
    }
    uint32_t seen = 0;  // a 0-d tensor's dims -1 and 0 both name its one "dimension"
    for (size_t i = 0; i < dims->values.size(); ++i) {
        int axis = 0;
        if (aclnnStatus rc = WrapDim(view, dims->values[i], name, &axis); rc != ACLNN_SUCCESS) {
            return rc;
        }
        if ((seen >> axis) & 1u) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s names dimension %d of %s more than once (element %zu is %" PRId64 ")",
                        name, axis, view.name, i, dims->values[i]);
        }
        seen |= 1u << axis;
    }
    if (view.shape.rank > 0) *mask = seen;
    return ACLNN_SUCCESS;
}

ops::LoopShape ReducedShape(const TensorView& self, uint32_t mask, bool keepdim) {
    ops::LoopShape shape;
    for (int d = 0; d < self.shape.rank; ++d) {
        if ((mask >> d) & 1u) {
            if (keepdim) shape.dims[shape.rank++] = 1;
        } else {
            shape.dims[shape.rank++] = self.shape.dims[d];
        }
    }
    return shape;
}

aclnnStatus CheckReducedShape(const TensorView& out, const TensorView& self, uint32_t mask,
                              bool keepdim) {
    if (self.shape.rank == 0) {
        if (out.numel == 1) return ACLNN_SUCCESS;
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has shape %s but reducing the 0-d %s gives one element", out.name,
                    ShapeText(out.shape), self.name);
    }
    const ops::LoopShape expected = ReducedShape(self, mask, keepdim);
    // A reduction to one value may be written to a [1] (ggml-cann's cross-entropy loss does).
    if (expected.rank == 0 && out.numel == 1) return ACLNN_SUCCESS;
    bool same = out.shape.rank == expected.rank;
    for (int d = 0; same && d < expected.rank; ++d)
        same = out.shape.dims[d] == expected.dims[d];
    if (same) return ACLNN_SUCCESS;
    std::string want = ShapeText(expected);
    std::string have = ShapeText(out.shape);
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has shape %s but reducing %s %s %s keepdim gives %s",
                out.name, have.c_str(), self.name, ShapeText(self.shape),
                keepdim ? "with" : "without", want.c_str());
}

ops::Operand ReducedOperand(const TensorView& out, const TensorView& self, uint32_t mask,
                            bool keepdim, void* address) {
    ops::Operand operand;
    operand.dtype = out.dtype;
    operand.data =
        static_cast<char*>(address) + out.offset * static_cast<int64_t>(ops::DtypeSize(out.dtype));
    if (self.shape.rank == 0) return operand;
    int j = 0;  // out's dimension matching self's dimension d
    for (int d = 0; d < self.shape.rank; ++d) {
        const bool reduced = ((mask >> d) & 1u) != 0;
        if (!reduced && j < out.shape.rank) operand.strides[d] = out.strides[j];
        if (!reduced || keepdim) ++j;
    }
    return operand;
}

aclnnStatus CheckDtypeArgument(aclDataType dtype, const char* name,
                               std::initializer_list<aclDataType> allowed) {
    std::string names;
    for (aclDataType type : allowed) {
        if (type == dtype) return ACLNN_SUCCESS;
        if (!names.empty()) names += ", ";
        names += ops::DtypeName(type);
    }
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s: the operator takes %s", name,
                ops::DtypeName(dtype), names.c_str());
}

aclnnStatus FinishReduction(const Reduction& reduction, const TensorView& self,
                            const aclTensor* self_tensor, const TensorView& out,
                            const aclTensor* out_tensor, uint64_t* workspaceSize,
                            aclOpExecutor** executor) {
    ExecutorBuilder builder(reduction.api);
    const int slot_self = builder.Input(self, self_tensor);
    const int slot_out = builder.Output(out, out_tensor);
    return builder.Finish(
        std::make_unique<ReduceOperator>(reduction, self, out, slot_self, slot_out), 0,
        workspaceSize, executor);
}

aclnnStatus FinishNothing(const char* api, std::initializer_list<const TensorView*> inputs,
                          std::initializer_list<const aclTensor*> input_tensors,
                          std::initializer_list<const TensorView*> outputs,
                          std::initializer_list<const aclTensor*> output_tensors,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    ExecutorBuilder builder(api);
    auto tensor = input_tensors.begin();
    for (const TensorView* view : inputs) {
        if (view != nullptr && *tensor != nullptr) builder.Input(*view, *tensor);
        ++tensor;
    }
    tensor = output_tensors.begin();
    for (const TensorView* view : outputs) {
        if (view != nullptr && *tensor != nullptr) builder.Output(*view, *tensor);
        ++tensor;
    }
    return builder.Finish(std::make_unique<NothingOperator>(), 0, workspaceSize, executor);
}

aclnnStatus PlanExtreme(const char* api, ops::ReduceOp op, const aclTensor* self,
                        const aclIntArray* dim, bool keepDim, const aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dim, "dim"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (o.dtype != a.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out is %s but self is %s: they must be alike",
                    ops::DtypeName(o.dtype), ops::DtypeName(a.dtype));
    }
    if (aclnnStatus rc = CheckDtype(a, kExtremeTypes); rc != ACLNN_SUCCESS) return rc;
    Reduction reduction;
    reduction.api = api;
    reduction.op = op;
    if (aclnnStatus rc = DimMask(a, dim, "dim", &reduction.mask); rc != ACLNN_SUCCESS) return rc;
    if (!dim->values.empty()) {
        for (int d = 0; d < a.shape.rank; ++d) {
            if (((reduction.mask >> d) & 1u) && a.shape.dims[d] == 0) {
                return Fail(ACLNN_ERR_PARAM_INVALID,
                            "dim names dimension %d of self %s, which is empty: the extreme of "
                            "nothing is undefined",
                            d, ShapeText(a.shape));
            }
        }
    }
    reduction.keepdim = keepDim;
    if (aclnnStatus rc = CheckReducedShape(o, a, reduction.mask, keepDim); rc != ACLNN_SUCCESS) {
        return rc;
    }
    reduction.integer = !ops::IsFloating(a.dtype);
    return FinishReduction(reduction, a, self, o, out, workspaceSize, executor);
}

aclnnStatus PlanSoftmax(const char* api, bool log, const aclTensor* self, int64_t dim,
                        const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (!log && a.numel == 0) {
        return FinishNothing(api, {&a}, {self}, {&o}, {out}, workspaceSize, executor);
    }
    ops::SoftmaxArgs args;
    if (aclnnStatus rc = WrapDim(a, dim, "dim", &args.axis); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(a, kSoftmaxTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, kSoftmaxTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckShape(o, a.shape); rc != ACLNN_SUCCESS) return rc;
    args.shape = a.shape;
    args.log = log;
    args.wide = a.dtype == ACL_DOUBLE || o.dtype == ACL_DOUBLE;
    ExecutorBuilder builder(api);
    const int slot_self = builder.Input(a, self);
    const int slot_out = builder.Output(o, out);
    return builder.Finish(std::make_unique<SoftmaxOperator>(args, a, o, slot_self, slot_out), 0,
                          workspaceSize, executor);
}

aclnnStatus FinishSort(const char* api, const ops::SortArgs& args, const TensorView& self,
                       const aclTensor* self_tensor, const TensorView* values,
                       const aclTensor* values_tensor, const TensorView* indices,
                       const aclTensor* indices_tensor, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
    ExecutorBuilder builder(api);
    const int slot_self = builder.Input(self, self_tensor);
    const int slot_values = values != nullptr ? builder.Output(*values, values_tensor) : -1;
    const int slot_indices = indices != nullptr ? builder.Output(*indices, indices_tensor) : -1;
    return builder.Finish(std::make_unique<SortOperator>(args, self, values, indices, slot_self,
                                                         slot_values, slot_indices),
                          0, workspaceSize, executor);
}

}  // namespace openacl::aclnn
