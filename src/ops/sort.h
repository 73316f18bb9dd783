// Sorting along one dimension of a strided view: every line is ordered (ascending or
// descending, NaN counting as the largest value, equal values keeping their order) and its
// first k values and/or int64 indices written out. Sort, Argsort and Topk. Lines are split
// over the executor's idle workers.
#pragma once

#include <cstdint>

#include "ops/elementwise.h"

namespace openacl::ops {

struct SortArgs {
    LoopShape shape;  // the input's
    int axis = 0;
    Operand in;
    // Over `shape` too, with their own strides (only the first k positions along the axis are
    // written); data null: not wanted.
    Operand values, indices;
    int64_t k = 0;  // results per line
    bool descending = false;
    bool integer = false;  // compare as int64 (exact for 64-bit integers) instead of double
};

void RunSort(const SortArgs& args);

}  // namespace openacl::ops
