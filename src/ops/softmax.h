// Softmax and log-softmax along one dimension of a strided view, numerically stable (the
// line's maximum is subtracted before exponentiating; the sum of exponentials accumulates in
// double). Values compute in float, or in double when the input or output is float64.
#pragma once

#include "ops/elementwise.h"

namespace openacl::ops {

struct SoftmaxArgs {
    LoopShape shape;  // input's and output's
    int axis = 0;
    Operand in, out;
    bool log = false;   // log-softmax: x - max - log(sum(exp(x - max)))
    bool wide = false;  // compute in double
};

void RunSoftmax(const SoftmaxArgs& args);

}  // namespace openacl::ops
