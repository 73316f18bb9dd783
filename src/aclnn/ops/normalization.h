// The first phase shared by the normalisations (RmsNorm, AddRmsNorm, LayerNorm, GroupNorm):
// an executor running the kernels of ops/norm.h over up to six tensors, some optional.
#pragma once

#include <cstdint>

#include "aclnn/op_executor.h"

namespace openacl::aclnn {

enum class NormKind : uint8_t {
    kRms,    // x, x2, gamma | y, rstd, x_out
    kLayer,  // x, weight, bias | out, mean, rstd
    kGroup,  // x, gamma, beta | out, mean, rstd
};

struct NormPlan {
    const char* api = "";
    NormKind kind = NormKind::kRms;
    // Three inputs then three outputs in the order above; a null view is an absent tensor.
    const TensorView* views[6] = {};
    const aclTensor* tensors[6] = {};
    int64_t rows = 0, cols = 0;                 // kRms, kLayer
    int64_t n = 0, c = 0, hxw = 0, groups = 1;  // kGroup
    double eps = 0.0;
};

aclnnStatus FinishNorm(const NormPlan& plan, uint64_t* workspaceSize, aclOpExecutor** executor);

// 161002 unless `view` (a per-row statistic) holds exactly `rows` elements; `expected`
// describes the shapes it may have.
aclnnStatus CheckRowCount(const TensorView& view, int64_t rows, const char* expected);

// How x's shape splits into rows and the normalised dimensions: gamma's (its leading size-1
// dimensions do not count), which must be x's last ones; 161002 otherwise.
aclnnStatus SplitRows(const TensorView& x, const TensorView& gamma, int64_t* rows, int64_t* cols);

// The product of dims [begin, end) of a shape.
int64_t Product(const ops::LoopShape& shape, int begin, int end);

}  // namespace openacl::aclnn
