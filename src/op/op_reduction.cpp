// Reductions and the softmax family: ReduceSum, ReduceMean, ReduceMax, ReduceMin (with the
// axes as a constant input, or as an attribute in the "D" forms; no axes reduce every
// dimension), SoftmaxV2, LogSoftmaxV2, ArgMaxV2 and Cumsum.
#include <algorithm>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_softmax.h"
#include "op/op_registry.h"

namespace openacl::op {
namespace {

enum class Reduce { kSum, kMean, kMax, kMin };

// The reduced shape and the normalised, sorted, distinct axes.
Shape Reduced(const Shape& x, Shape* axes, bool keep_dims) {
    const auto rank = static_cast<int64_t>(x.size());
    for (int64_t& axis : *axes)
        axis = NormalizeAxis(axis, rank, "axes entry");
    std::sort(axes->begin(), axes->end());
    axes->erase(std::unique(axes->begin(), axes->end()), axes->end());
    Shape y;
    for (int64_t d = 0; d < rank; ++d) {
        const bool reduced = axes->empty() || std::binary_search(axes->begin(), axes->end(), d);
        if (!reduced) {
            y.push_back(x[static_cast<size_t>(d)]);
        } else if (keep_dims) {
            y.push_back(1);
        }
    }
    return y;
}

template <Reduce op>
void ReduceWith(Builder& b, Shape axes) {
    const bool keep = b.AttrBool("keep_dims", false);
    const Shape y = Reduced(b.in(0).dims, &axes, keep);
    if (b.Shapes({y})) return;
    const aclIntArray dims = MakeIntArray(axes);
    if constexpr (op == Reduce::kSum) {
        OPENACL_OP_STEP(b, ReduceSum, b.In(0), &dims, keep, b.out(0).dtype, b.Out(0));
    } else if constexpr (op == Reduce::kMean) {
        OPENACL_OP_STEP(b, Mean, b.In(0), &dims, keep, b.out(0).dtype, b.Out(0));
    } else if constexpr (op == Reduce::kMax) {
        OPENACL_OP_STEP(b, Amax, b.In(0), &dims, keep, b.Out(0));
    } else {
        OPENACL_OP_STEP(b, Amin, b.In(0), &dims, keep, b.Out(0));
    }
}

template <Reduce op>
void ReduceInput(Builder& b) {
    ReduceWith<op>(b, b.Values(1, "axes"));
}
template <Reduce op>
void ReduceAttr(Builder& b) {
    ReduceWith<op>(b, b.AttrInts("axes", {}));
}

// One axis of a softmax's "axes" attribute (default the last).
int64_t SoftmaxAxis(const Builder& b) {
    const Shape axes = b.AttrInts("axes", {-1});
    if (axes.size() != 1) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: axes %s: openacl normalises over one axis", b.type(),
              ShapeString(axes).c_str());
    }
    return NormalizeAxis(axes[0], static_cast<int64_t>(b.in(0).dims.size()), "axes");
}

void SoftmaxV2(Builder& b) {
    const int64_t axis = SoftmaxAxis(b);
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, Softmax, b.In(0), axis, b.Out(0));
}

void LogSoftmaxV2(Builder& b) {
    const int64_t axis = SoftmaxAxis(b);
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, LogSoftmax, b.In(0), axis, b.Out(0));
}

void ArgMaxWith(Builder& b, int64_t axis) {
    const Shape& x = b.in(0).dims;
    axis = NormalizeAxis(axis, static_cast<int64_t>(x.size()), "dimension");
    Shape y = x;
    if (!y.empty()) y.erase(y.begin() + axis);
    if (b.Shapes({y})) return;
    OPENACL_OP_STEP(b, ArgMax, b.In(0), axis, false, b.Out(0));
}

void ArgMaxV2(Builder& b) {
    const Shape axis = b.Values(1, "dimension");
    if (axis.size() != 1) Throw(ACL_ERROR_INVALID_PARAM, "ArgMaxV2: dimension holds one value");
    ArgMaxWith(b, axis[0]);
}
void ArgMaxD(Builder& b) {
    ArgMaxWith(b, b.RequireInt("dimension"));
}

void CumsumWith(Builder& b, int64_t axis) {
    if (b.AttrBool("exclusive", false) || b.AttrBool("reverse", false)) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: exclusive and reverse sums are not supported by openacl (give false)", b.type());
    }
    axis = NormalizeAxis(axis, static_cast<int64_t>(b.in(0).dims.size()), "axis");
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, Cumsum, b.In(0), axis, b.out(0).dtype, b.Out(0));
}

void Cumsum(Builder& b) {
    const Shape axis = b.Values(1, "axis");
    if (axis.size() != 1) Throw(ACL_ERROR_INVALID_PARAM, "Cumsum: axis holds one value");
    CumsumWith(b, axis[0]);
}
void CumsumD(Builder& b) {
    CumsumWith(b, b.RequireInt("axis"));
}

}  // namespace

void AddReductionOps(std::vector<OpTypeInfo>* table) {
    const std::vector<OpTypeInfo> ops = {
        {"ReduceSum", 2, 2, 1, ReduceInput<Reduce::kSum>},
        {"ReduceSumD", 1, 1, 1, ReduceAttr<Reduce::kSum>},
        {"ReduceMean", 2, 2, 1, ReduceInput<Reduce::kMean>},
        {"ReduceMeanD", 1, 1, 1, ReduceAttr<Reduce::kMean>},
        {"ReduceMax", 2, 2, 1, ReduceInput<Reduce::kMax>},
        {"ReduceMaxD", 1, 1, 1, ReduceAttr<Reduce::kMax>},
        {"ReduceMin", 2, 2, 1, ReduceInput<Reduce::kMin>},
        {"ReduceMinD", 1, 1, 1, ReduceAttr<Reduce::kMin>},
        {"SoftmaxV2", 1, 1, 1, SoftmaxV2},
        {"LogSoftmaxV2", 1, 1, 1, LogSoftmaxV2},
        {"ArgMaxV2", 2, 2, 1, ArgMaxV2},
        {"ArgMaxD", 1, 1, 1, ArgMaxD},
        {"Cumsum", 2, 2, 1, Cumsum},
        {"CumsumD", 1, 1, 1, CumsumD},
    };
    table->insert(table->end(), ops.begin(), ops.end());
}

}  // namespace openacl::op
