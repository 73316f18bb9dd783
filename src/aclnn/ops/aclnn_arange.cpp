// aclnnop/aclnn_arange.h: out[i] = start + i * step for the ceil((end - start) / step) values
// in [start, end).
#include "aclnnop/aclnn_arange.h"

#include <cinttypes>
#include <cmath>
#include <memory>

#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/element.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

namespace {

class ArangeOperator final : public Operator {
 public:
    ArangeOperator(TensorView out, int slot, int64_t stride, double start, double step,
                   bool integral, int64_t start_int, int64_t step_int)
        : out_(out),
          slot_(slot),
          stride_(stride),
          start_(start),
          step_(step),
          integral_(integral),
          start_int_(start_int),
          step_int_(step_int) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        const auto size = static_cast<int64_t>(openacl::ops::DtypeSize(out_.dtype));
        char* base = static_cast<char*>(addresses[slot_]) + out_.offset * size;
        const int64_t stride = stride_ * size;
        constexpr int64_t kChunk = 256;
        for (int64_t i = 0; i < out_.numel; i += kChunk) {
            const int64_t n = std::min(kChunk, out_.numel - i);
            if (integral_) {
                int64_t values[kChunk];
                for (int64_t k = 0; k < n; ++k)
                    values[k] = start_int_ + (i + k) * step_int_;
                openacl::ops::Store<int64_t>(values, n, base + i * stride, stride, out_.dtype);
            } else {
                double values[kChunk];
                for (int64_t k = 0; k < n; ++k) {
                    values[k] = start_ + static_cast<double>(i + k) * step_;
                }
                openacl::ops::Store<double>(values, n, base + i * stride, stride, out_.dtype);
            }
        }
        return 0;
    }

 private:
    TensorView out_;
    int slot_;
    int64_t stride_;  // elements between consecutive values
    double start_, step_;
    bool integral_;
    int64_t start_int_, step_int_;
};

bool IsIntegerScalar(const aclScalar* s) {
    return s->dtype == ACL_BOOL || openacl::ops::IsIntegral(s->dtype);
}

}  // namespace

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                        const aclScalar* step, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckScalarObject(start, "start"); rc != 0) return rc;
    if (aclnnStatus rc = CheckScalarObject(end, "end"); rc != 0) return rc;
    if (aclnnStatus rc = CheckScalarObject(step, "step"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView o;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(o, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                                        ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64});
        rc != 0) {
        return rc;
    }
    const double first = start->ToDouble(), last = end->ToDouble(), delta = step->ToDouble();
    if (delta == 0 || std::isnan(delta) || !std::isfinite(first) || !std::isfinite(last)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "start %g, end %g, step %g: step must be non-zero and the bounds finite", first,
                    last, delta);
    }
    if ((last - first) / delta < 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "step %g goes away from end: from %g it never reaches %g", delta, first, last);
    }
    const bool integral = IsIntegerScalar(start) && IsIntegerScalar(end) && IsIntegerScalar(step);
    const int64_t count = integral ? (end->ToInt64() - start->ToInt64() + step->ToInt64() +
                                      (step->ToInt64() > 0 ? -1 : 1)) /
                                         step->ToInt64()
                                   : static_cast<int64_t>(std::ceil((last - first) / delta));
    // CANN documents a 1-D out; ggml-cann passes its 4-D [1, 1, 1, n] view, which CANN runs, so
    // any shape with at most one dimension longer than 1 is the vector.
    int longer = 0, axis = -1;
    for (int d = 0; d < o.shape.rank; ++d) {
        if (o.shape.dims[d] > 1) ++longer, axis = d;
    }
    if (o.numel != count || longer > 1) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "out has shape %s but the range holds %" PRId64
                    " values: out must be a vector of that length",
                    ShapeText(o.shape), count);
    }
    const int64_t stride = axis < 0 ? 0 : o.strides[axis];
    ExecutorBuilder builder("aclnnArange");
    const int slot = builder.Output(o, out);
    return builder.Finish(std::make_unique<ArangeOperator>(o, slot, stride, first, delta, integral,
                                                           start->ToInt64(), step->ToInt64()),
                          0, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Arange)
