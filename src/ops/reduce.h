// Reductions and scans over strided views: sums, means, extremes, p-norms and arg-max of some
// dimensions (one result per position of the others), and cumulative sums along one
// dimension. Inputs are any strided views (broadcast, transposed, offset); results go to a
// strided output. Floating values accumulate in double and integers in int64 (wrapping like the
// device's integer arithmetic); results are converted to the output's type on the way out.
// Large problems are split over the executor's idle workers.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "ops/elementwise.h"

namespace openacl::ops {

enum class ReduceOp : uint8_t {
    kSum,
    kMean,    // the sum divided by the number of reduced elements
    kMax,     // NaN wins
    kMin,     // NaN wins
    kAny,     // 1 when some element is non-zero (a sum into bool)
    kNorm,    // (sum |x|^p)^(1/p); p = inf: max |x|, -inf: min |x|, 0: count of non-zeros
    kArgMax,  // int64 index of the first maximum along the one reduced dimension (NaN wins)
};

struct ReduceArgs {
    ReduceOp op = ReduceOp::kSum;
    LoopShape shape;           // the input's
    uint32_t reduce_mask = 0;  // bit d: dimension d is reduced
    Operand in;                // over shape
    Operand out;               // over shape, stride 0 along the reduced dimensions
    // When set, every input element is first converted to this type (an operator that casts
    // its input to the result's dtype before reducing).
    aclDataType via = ACL_DT_UNDEFINED;
    bool integer = false;  // accumulate in int64 instead of double
    double p = 2.0;        // kNorm's order
};

void RunReduce(const ReduceArgs& args);

struct CumsumArgs {
    LoopShape shape;  // input's and output's
    int axis = 0;     // the dimension summed along
    Operand in, out;
    aclDataType via = ACL_DT_UNDEFINED;  // as in ReduceArgs
    bool integer = false;
    bool exclusive = false;  // each result leaves its own element out
    bool reverse = false;    // sums run from the end of the axis
};

void RunCumsum(const CumsumArgs& args);

}  // namespace openacl::ops
