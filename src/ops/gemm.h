// Matrix products for acl/ops/acl_cblas.h: C = alpha * op(A) * op(B) + beta * C on row-major
// matrices, computed on the stream's worker with oneDNN's GEMM. Gemv is the N = 1 case with
// strided vectors.
#pragma once

#include <cstdint>
#include <string>

#include "acl/acl_base.h"

namespace openacl::ops {

// A scalar alpha or beta in C's element type. Host scalars are copied when the call is made;
// one in device memory is read when the task runs, after the work queued before it.
struct Scalar {
    const void* at_run = nullptr;  // device memory to read when the task runs, or null
    unsigned char value[8] = {};   // otherwise: the bytes copied at the call
};

struct GemmArgs {
    int64_t m = 0, n = 0, k = 0;
    bool trans_a = false, trans_b = false, trans_c = false;
    const void* a = nullptr;
    const void* b = nullptr;
    void* c = nullptr;
    int64_t lda = 0, ldb = 0, ldc = 0;
    // Gemv: x and y are vectors with strides (b is x, c is y); k is op(A)'s column count.
    bool gemv = false;
    int64_t incx = 1, incy = 1;
    aclDataType type_ab = ACL_DT_UNDEFINED;  // A and B (x) share a type
    aclDataType type_c = ACL_DT_UNDEFINED;   // C (y)
    Scalar alpha, beta;
};

// Which (A/B, C) type pairs the GEMM takes: (f16, f16), (f16, f32), (int8, f32), (int8, int32).
bool SupportedTypes(aclDataType ab, aclDataType c);
// Element size in bytes of the types above.
size_t ElementSize(aclDataType type);

// Computes the product. False with *error when oneDNN fails (out of memory for scratch).
bool RunGemm(const GemmArgs& args, std::string* error);

}  // namespace openacl::ops
