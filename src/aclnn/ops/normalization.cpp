// The normalisations' shared executor (aclnn/ops/normalization.h).
#include "aclnn/ops/normalization.h"

#include <cinttypes>
#include <memory>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/norm.h"

namespace openacl::aclnn {
namespace {

class NormOperator final : public Operator {
 public:
    NormOperator(const NormPlan& plan, const int (&slots)[6]) : plan_(plan) {
        for (int i = 0; i < 6; ++i) {
            slots_[i] = slots[i];
            if (plan.views[i] != nullptr) views_[i] = *plan.views[i];
            plan_.views[i] = nullptr;  // the caller's; copied above
            plan_.tensors[i] = nullptr;
        }
    }

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::FlatTensor t[6];
        for (int i = 0; i < 6; ++i) {
            if (slots_[i] < 0) continue;
            t[i].shape = views_[i].shape;
            t[i].view = OperandOf(views_[i], views_[i].shape, addresses[slots_[i]]);
            if (t[i].view.data == nullptr) t[i].view.data = Placeholder();  // present, empty
        }
        switch (plan_.kind) {
            case NormKind::kRms: {
                ops::RmsNormArgs args;
                args.x = t[0];
                args.x2 = t[1];
                args.gamma = t[2];
                args.y = t[3];
                args.rstd = t[4];
                args.x_out = t[5];
                args.rows = plan_.rows;
                args.cols = plan_.cols;
                args.eps = plan_.eps;
                ops::RunRmsNorm(args);
                break;
            }
            case NormKind::kLayer: {
                ops::LayerNormArgs args;
                args.x = t[0];
                args.weight = t[1];
                args.bias = t[2];
                args.out = t[3];
                args.mean = t[4];
                args.rstd = t[5];
                args.rows = plan_.rows;
                args.cols = plan_.cols;
                args.eps = plan_.eps;
                ops::RunLayerNorm(args);
                break;
            }
            case NormKind::kGroup: {
                ops::GroupNormArgs args;
                args.x = t[0];
                args.gamma = t[1];
                args.beta = t[2];
                args.out = t[3];
                args.mean = t[4];
                args.rstd = t[5];
                args.n = plan_.n;
                args.c = plan_.c;
                args.hxw = plan_.hxw;
                args.groups = plan_.groups;
                args.eps = plan_.eps;
                ops::RunGroupNorm(args);
                break;
            }
        }
        return 0;
    }

 private:
    // An address for a present tensor with no elements (never dereferenced).
    static char* Placeholder() {
        static char byte;
        return &byte;
    }

    NormPlan plan_;
    TensorView views_[6];
    int slots_[6] = {-1, -1, -1, -1, -1, -1};
};

}  // namespace

aclnnStatus FinishNorm(const NormPlan& plan, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ExecutorBuilder builder(plan.api);
    int slots[6] = {-1, -1, -1, -1, -1, -1};
    for (int i = 0; i < 6; ++i) {
        if (plan.views[i] == nullptr || plan.tensors[i] == nullptr) continue;
        slots[i] = i < 3 ? builder.Input(*plan.views[i], plan.tensors[i])
                         : builder.Output(*plan.views[i], plan.tensors[i]);
    }
    return builder.Finish(std::make_unique<NormOperator>(plan, slots), 0, workspaceSize, executor);
}

aclnnStatus CheckRowCount(const TensorView& view, int64_t rows, const char* expected) {
    if (view.numel == rows) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID,
                "%s has shape %s (%" PRId64 " elements) but there are %" PRId64
                " rows: it must be %s",
                view.name, ShapeText(view.shape), view.numel, rows, expected);
}

aclnnStatus SplitRows(const TensorView& x, const TensorView& gamma, int64_t* rows, int64_t* cols) {
    if (x.shape.rank == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is 0-d: it must have 1 to 8 dimensions", x.name);
    }
    int lead = 0;  // gamma's leading size-1 dimensions, kept when gamma is all ones
    while (lead < gamma.shape.rank - 1 && gamma.shape.dims[lead] == 1)
        ++lead;
    const int rank = gamma.shape.rank - lead;
    bool fits = rank >= 1 && rank <= x.shape.rank;
    for (int d = 0; fits && d < rank; ++d) {
        fits = gamma.shape.dims[lead + d] == x.shape.dims[x.shape.rank - rank + d];
    }
    if (!fits) {
        std::string x_text = ShapeText(x.shape);
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has shape %s, which is not the last dimensions of %s %s", gamma.name,
                    ShapeText(gamma.shape), x.name, x_text.c_str());
    }
    *rows = Product(x.shape, 0, x.shape.rank - rank);
    *cols = Product(x.shape, x.shape.rank - rank, x.shape.rank);
    return ACLNN_SUCCESS;
}

int64_t Product(const ops::LoopShape& shape, int begin, int end) {
    int64_t product = 1;
    for (int d = begin; d < end; ++d)
        product *= shape.dims[d];
    return product;
}

}  // namespace openacl::aclnn
