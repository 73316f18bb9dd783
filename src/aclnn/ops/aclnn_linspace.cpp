// aclnnop/aclnn_linspace.h: out = `steps` evenly spaced values from start to end inclusive
// (one step: start alone).
#include "aclnnop/aclnn_linspace.h"

#include <algorithm>
#include <cinttypes>
#include <memory>

#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/element.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

namespace {

class LinspaceOperator final : public Operator {
 public:
    LinspaceOperator(TensorView out, int slot, double start, double end)
        : out_(out), slot_(slot), start_(start), end_(end) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        const auto size = static_cast<int64_t>(openacl::ops::DtypeSize(out_.dtype));
        char* base = static_cast<char*>(addresses[slot_]) + out_.offset * size;
        const int64_t stride = out_.strides[0] * size, n = out_.numel;
        const double step = n > 1 ? (end_ - start_) / static_cast<double>(n - 1) : 0.0;
        constexpr int64_t kChunk = 256;
        double values[kChunk];
        for (int64_t i = 0; i < n; i += kChunk) {
            const int64_t m = std::min(kChunk, n - i);
            // The second half counts back from end, so the last value is end exactly.
            for (int64_t k = 0; k < m; ++k) {
                const int64_t at = i + k;
                values[k] = at < (n + 1) / 2 ? start_ + step * static_cast<double>(at)
                                             : end_ - step * static_cast<double>(n - 1 - at);
            }
            openacl::ops::Store<double>(values, m, base + i * stride, stride, out_.dtype);
        }
        return 0;
    }

 private:
    TensorView out_;
    int slot_;
    double start_, end_;
};

}  // namespace

aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                          int64_t steps, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckScalarObject(start, "start"); rc != 0) return rc;
    if (aclnnStatus rc = CheckScalarObject(end, "end"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView o;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(o, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                                        ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64});
        rc != 0) {
        return rc;
    }
    if (steps < 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "steps is %" PRId64 ": it must be 0 or more", steps);
    }
    if (o.shape.rank != 1 || o.numel != steps) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "out has shape %s: it must be 1-D with steps (%" PRId64 ") values",
                    ShapeText(o.shape), steps);
    }
    ExecutorBuilder builder("aclnnLinspace");
    const int slot = builder.Output(o, out);
    return builder.Finish(
        std::make_unique<LinspaceOperator>(o, slot, start->ToDouble(), end->ToDouble()), 0,
        workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Linspace)
