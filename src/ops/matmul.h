// Batched matrix products on oneDNN: c = a @ b over strided views, the kernel behind the aclnn
// matrix operators (Mm, Matmul, BatchMatMul, Mv) and reusable by aclop. A product is planned
// once (the oneDNN primitive is created then, and cached process-wide by shape) and run any
// number of times, from any thread, each run with its own workspace.
//
// Operands reach oneDNN in place wherever its fast kernels take them: row-major or transposed
// matrices with any leading dimension, any batch strides, size-1 batch dimensions broadcast. A
// view they cannot take (a matrix strided in both dimensions, a stride-0 row) and a dtype they
// cannot take (float16: oneDNN 2.x has no float16 matmul on CPUs) are packed into the caller's
// workspace first, as float32; an output they cannot write is computed there and copied out.
// Every product accumulates in float32.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "acl/acl_base.h"

namespace openacl::ops {

constexpr int kMatmulMaxRank = 8;

// One operand: the view's dimensions and strides (in elements) and its element type (float,
// float16 or bfloat16).
struct MatmulOperand {
    aclDataType dtype = ACL_DT_UNDEFINED;
    int64_t dims[kMatmulMaxRank] = {};
    int64_t strides[kMatmulMaxRank] = {};
};

// c [batch..., m, n] = a [batch..., m, k] @ b [batch..., k, n] (+ bias), all of rank `rank`
// (2 to 8). A batch dimension of a or b is c's or 1 (broadcast). Any dimension may be 0. The
// optional bias is a row of n values added to every row of c before it is rounded to c's type:
// its dims are 1 but the last (n), and only its last stride counts.
struct MatmulShape {
    int rank = 2;
    MatmulOperand a, b, c;
    bool has_bias = false;
    MatmulOperand bias;
};

class MatmulPlan {
 public:
    virtual ~MatmulPlan() = default;
    // Workspace bytes a run needs (0 when it needs none).
    virtual uint64_t workspace_bytes() const = 0;
    // What computes the product, for tests and benchmarks: "brg:avx512_core", "gemm:jit", with
    // "+pack" when an operand goes through the workspace; "zeros" for k = 0, "empty".
    virtual const std::string& implementation() const = 0;
    // Computes the product; a, b, c (and the bias, when planned) point at element (0, ..., 0)
    // of each view. False with *error when oneDNN fails.
    virtual bool Run(const void* a, const void* b, void* c, void* workspace, std::string* error,
                     const void* bias = nullptr) const = 0;
};

// Plans c = a @ b. Null with *error when the shape is malformed or oneDNN cannot compute it.
std::shared_ptr<const MatmulPlan> PlanMatmul(const MatmulShape& shape, std::string* error);

}  // namespace openacl::ops
