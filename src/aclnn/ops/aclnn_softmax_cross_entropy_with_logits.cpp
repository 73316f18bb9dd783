// aclnnop/aclnn_softmax_cross_entropy_with_logits.h: for features and labels of shape [N, C],
//     loss[n]        = -sum_c labels[n, c] * log_softmax(features[n])[c]   (shape [N])
//     backprop[n, c] = softmax(features[n])[c] - labels[n, c]             (shape [N, C])
// all four of one type (float32, float16 or bfloat16), as CANN documents. Each row is read three
// times in runs of 256 (its maximum, the sum of exponentials, then the results), computed in
// double, so no workspace is needed; rows are split over the executor's idle workers.
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "aclnn/objects.h"
#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/axis_plan.h"
#include "ops/dtype.h"
#include "ops/element.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

constexpr int64_t kRun = 256;

class CrossEntropyOperator final : public Operator {
 public:
    CrossEntropyOperator(TensorView features, TensorView labels, TensorView loss,
                         TensorView backprop, const int slots[4])
        : features_(features),
          labels_(labels),
          loss_(loss),
          backprop_(backprop),
          features_slot_(slots[0]),
          labels_slot_(slots[1]),
          loss_slot_(slots[2]),
          backprop_slot_(slots[3]) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        const int64_t rows = features_.shape.dims[0];
        const int64_t cols = features_.shape.dims[1];
        if (rows == 0 || cols == 0) return 0;
        const int64_t size = static_cast<int64_t>(ops::DtypeSize(features_.dtype));
        auto base = [&](const TensorView& view, int slot) {
            return static_cast<char*>(addresses[slot]) + view.offset * size;
        };
        const char* x0 = base(features_, features_slot_);
        const char* y0 = base(labels_, labels_slot_);
        char* loss0 = base(loss_, loss_slot_);
        char* grad0 = base(backprop_, backprop_slot_);
        const aclDataType type = features_.dtype;
        ops::SplitUnits(rows, ops::GrainFor(3 * cols), [&](int64_t begin, int64_t end) {
            double x[kRun], y[kRun], out[kRun];
            for (int64_t n = begin; n < end; ++n) {
                const char* xr = x0 + n * features_.strides[0] * size;
                const char* yr = y0 + n * labels_.strides[0] * size;
                char* gr = grad0 + n * backprop_.strides[0] * size;
                const int64_t xs = features_.strides[1] * size, ys = labels_.strides[1] * size,
                              gs = backprop_.strides[1] * size;
                double max = -std::numeric_limits<double>::infinity();
                bool nan = false;
                for (int64_t c = 0; c < cols; c += kRun) {
                    const int64_t count = std::min(kRun, cols - c);
                    ops::Load<double>(xr + c * xs, xs, type, count, x);
                    for (int64_t i = 0; i < count; ++i) {
                        max = std::max(max, x[i]);
                        nan = nan || std::isnan(x[i]);
                    }
                }
                if (nan) max = std::numeric_limits<double>::quiet_NaN();
                double sum = 0.0;
                for (int64_t c = 0; c < cols; c += kRun) {
                    const int64_t count = std::min(kRun, cols - c);
                    ops::Load<double>(xr + c * xs, xs, type, count, x);
                    for (int64_t i = 0; i < count; ++i)
                        sum += std::exp(x[i] - max);
                }
                const double log_sum = std::log(sum);
                double loss = 0.0;
                for (int64_t c = 0; c < cols; c += kRun) {
                    const int64_t count = std::min(kRun, cols - c);
                    ops::Load<double>(xr + c * xs, xs, type, count, x);
                    ops::Load<double>(yr + c * ys, ys, type, count, y);
                    for (int64_t i = 0; i < count; ++i) {
                        const double log_p = x[i] - max - log_sum;
                        loss -= y[i] * log_p;
                        out[i] = std::exp(log_p) - y[i];
                    }
                    ops::Store<double>(out, count, gr + c * gs, gs, type);
                }
                ops::Store<double>(&loss, 1, loss0 + n * loss_.strides[0] * size, 0, type);
            }
        });
        return 0;
    }

 private:
    TensorView features_, labels_, loss_, backprop_;
    int features_slot_, labels_slot_, loss_slot_, backprop_slot_;
};

}  // namespace

aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features,
                                                               aclTensor* labels, aclTensor* loss,
                                                               aclTensor* backprop,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(features, "features"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(labels, "labels"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(loss, "loss"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(backprop, "backprop"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView f, l, o, g;
    if (aclnnStatus rc = ViewOf(features, "features", &f); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(labels, "labels", &l); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(loss, "loss", &o); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(backprop, "backprop", &g); rc != 0) return rc;
    for (const TensorView* v : {&f, &l, &o, &g}) {
        if (aclnnStatus rc = CheckDtype(*v, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}); rc != 0) {
            return rc;
        }
        if (v->dtype != f.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s but features is %s: they must match",
                        v->name, ops::DtypeName(v->dtype), ops::DtypeName(f.dtype));
        }
    }
    if (f.shape.rank != 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "features has shape %s: it must be 2-dimensional [batch, classes]",
                    ShapeText(f.shape));
    }
    if (aclnnStatus rc = CheckShape(l, f.shape); rc != 0) return rc;
    if (aclnnStatus rc = CheckShape(g, f.shape); rc != 0) return rc;
    ops::LoopShape rows;
    rows.rank = 1;
    rows.dims[0] = f.shape.dims[0];
    if (aclnnStatus rc = CheckShape(o, rows); rc != 0) return rc;
    ExecutorBuilder builder("aclnnSoftmaxCrossEntropyWithLogits");
    const int slots[4] = {builder.Input(f, features), builder.Input(l, labels),
                          builder.Output(o, loss), builder.Output(g, backprop)};
    return builder.Finish(std::make_unique<CrossEntropyOperator>(f, l, o, g, slots), 0,
                          workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(SoftmaxCrossEntropyWithLogits)
