// The first phase of the matrix-product operators (Mm, BatchMatMul, Matmul, Mv): the
// documented checks (nulls, dtypes and their deduction, cubeMathType, ranks, the reduce
// dimension, batch broadcasting, the output's shape) and an executor that runs an
// ops::MatmulPlan, planned here once, on the stream.
//
// Types (ops-nn's aclnnMatmul/Mm/BatchMatMul docs): self and mat2 are float, float16 or
// bfloat16; two different types deduce float (the general table; older documents refused
// bfloat16 with another type, the current ones do not, and ggml-cann relies on it). out is the
// deduced type, or float (a float16 or bfloat16 product written wider, as CANN allows), or
// float16 for a float product when cubeMathType permits reduced precision (not KEEP_DTYPE).
// Mv takes one type for all three. cubeMathType is 0 (KEEP_DTYPE) to 4 (USE_FP32_ADD); every
// value computes at full precision here: products accumulate in float32 and round once.
#pragma once

#include <cstdint>

#include "aclnn/op_executor.h"

namespace openacl::aclnn {

enum class ProductKind {
    kMm,           // [m, k] @ [k, n]
    kBatchMatMul,  // [b, m, k] @ [b, k, n], either batch may be 1
    kMatmul,       // torch.matmul: 1 to 8 dimensions each, batch dimensions broadcast
    kMv,           // [n, m] @ [m]
};

struct ProductSpec {
    const char* api;  // the second phase: "aclnnMm"
    ProductKind kind;
    const char* mat2_name;  // "mat2", or "vec" for Mv
};

aclnnStatus PlanProduct(const ProductSpec& spec, const aclTensor* self, const aclTensor* mat2,
                        const aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize,
                        aclOpExecutor** executor);

}  // namespace openacl::aclnn
