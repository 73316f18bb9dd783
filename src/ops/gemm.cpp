#include "ops/gemm.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "backend/cpu/compute_gate.h"
#include "core/device.h"
#include "model/convert.h"

namespace openacl::ops {
namespace {

double ReadScalar(const Scalar& s, aclDataType type) {
    const void* p = s.at_run != nullptr ? s.at_run : s.value;
    switch (type) {
        case ACL_FLOAT16: {
            uint16_t h;
            std::memcpy(&h, p, sizeof h);
            return model::HalfToFloat(h);
        }
        case ACL_FLOAT: {
            float f;
            std::memcpy(&f, p, sizeof f);
            return f;
        }
        case ACL_INT32: {
            int32_t i;
            std::memcpy(&i, p, sizeof i);
            return i;
        }
        default:
            return 0;
    }
}

// The stored element of a matrix with leading dimension ld (row-major), transposed or not:
// element (r, c) of op(X).
template <class T>
const T& At(const void* base, int64_t ld, bool trans, int64_t r, int64_t c) {
    const T* data = static_cast<const T*>(base);
    return trans ? data[c * ld + r] : data[r * ld + c];
}

// Runs oneDNN's GEMM on OpenMP threads borrowed from the device's, which every stream's
// products and model runs share (backend/cpu/compute_gate.h): with a model on another stream,
// the two take turns instead of oversubscribing the cores. Only the product itself holds them;
// packing and scaling run on the calling worker alone.
template <class Gemm>
dnnl_status_t OnComputeThreads(Gemm&& gemm) {
    cpu::ComputeLease lease(ComputeThreadsPerRun());
    omp_set_num_threads(lease.threads());
    return gemm();
}

}  // namespace

bool SupportedTypes(aclDataType ab, aclDataType c) {
    return (ab == ACL_FLOAT16 && (c == ACL_FLOAT16 || c == ACL_FLOAT)) ||
           (ab == ACL_INT8 && (c == ACL_FLOAT || c == ACL_INT32));
}

size_t ElementSize(aclDataType type) {
    switch (type) {
        case ACL_INT8:
            return 1;
        case ACL_FLOAT16:
            return 2;
        case ACL_FLOAT:
        case ACL_INT32:
            return 4;
        default:
            return 0;
    }
}

bool RunGemm(const GemmArgs& g, std::string* error) {
    // op(C) is m x n. A transposed C is computed as C^T = op(B)^T op(A)^T.
    const int64_t m = g.m, n = g.n, k = g.k;
    try {
        // P = op(A) * op(B) exactly (int32 for int8, float for half), packed m x n; then
        // C = alpha * P + beta * C in C's type, which keeps int32 results exact.
        const bool ints = g.type_ab == ACL_INT8;
        std::vector<float> pf;
        std::vector<int32_t> pi;
        // op(A) is m x k, op(B) (or x) is k x n, packed row-major as floats with the transposes
        // applied (int8 and half are both exact in float).
        auto load = [ints](const void* base, int64_t ld, bool trans, int64_t r, int64_t c) {
            return ints ? static_cast<float>(At<int8_t>(base, ld, trans, r, c))
                        : model::HalfToFloat(At<uint16_t>(base, ld, trans, r, c));
        };
        std::vector<float> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
        for (int64_t r = 0; r < m; ++r)
            for (int64_t c = 0; c < k; ++c)
                a[r * k + c] = load(g.a, g.lda, g.trans_a, r, c);
        for (int64_t r = 0; r < k; ++r)
            for (int64_t c = 0; c < n; ++c)
                b[r * n + c] =
                    g.gemv ? load(g.b, g.incx, false, r, 0) : load(g.b, g.ldb, g.trans_b, r, c);
        // Not oneDNN's s8s8s32 GEMM for int8: without VNNI (AVX2 machines) it sums pairs of
        // products in 16 bits with saturation, a silent wrong answer. A product of two int8 is
        // at most 2^14 in size, so float sums of up to 1024 of them are exact integers: int8
        // runs an sgemm per 1024-wide slice of k, each slice added to the int32 result; half
        // runs one over all of k.
        constexpr int64_t kExactSlice = 1024;
        const int64_t slice_k = ints ? kExactSlice : std::max<int64_t>(k, 1);
        std::vector<float> slice(static_cast<size_t>(m * n), 0.0f);
        if (ints) pi.assign(slice.size(), 0);
        for (int64_t k0 = 0; k0 < k; k0 += slice_k) {
            const int64_t kc = std::min(slice_k, k - k0);
            if (OnComputeThreads([&] {
                    return dnnl_sgemm('N', 'N', m, n, kc, 1.0f, a.data() + k0, k, b.data() + k0 * n,
                                      n, 0.0f, slice.data(), n);
                }) != dnnl_success) {
                *error = "oneDNN's GEMM failed";
                return false;
            }
            for (size_t i = 0; ints && i < pi.size(); ++i) {  // wraps past int32, never undefined
                pi[i] = static_cast<int32_t>(static_cast<uint32_t>(pi[i]) +
                                             static_cast<uint32_t>(static_cast<int32_t>(slice[i])));
            }
        }
        if (!ints) pf = std::move(slice);
        const double alpha = ReadScalar(g.alpha, g.type_c);
        const double beta = ReadScalar(g.beta, g.type_c);
        const int64_t alpha_i = static_cast<int64_t>(alpha), beta_i = static_cast<int64_t>(beta);
        for (int64_t r = 0; r < m; ++r) {
            for (int64_t c = 0; c < n; ++c) {
                // Where element (r, c) of the result lives in C (or y).
                const int64_t at = g.gemv ? r * g.incy : g.trans_c ? c * g.ldc + r : r * g.ldc + c;
                const size_t p = static_cast<size_t>(r * n + c);
                switch (g.type_c) {
                    case ACL_INT32: {
                        auto* out = static_cast<int32_t*>(g.c) + at;
                        // beta == 0 never reads C (it may hold garbage, as in BLAS).
                        const int64_t old = beta_i != 0 ? beta_i * *out : 0;
                        *out = static_cast<int32_t>(alpha_i * pi[p] + old);
                        break;
                    }
                    case ACL_FLOAT: {
                        auto* out = static_cast<float*>(g.c) + at;
                        const double prod = ints ? pi[p] : pf[p];
                        *out = static_cast<float>(alpha * prod + (beta != 0 ? beta * *out : 0));
                        break;
                    }
                    case ACL_FLOAT16: {
                        auto* out = static_cast<uint16_t*>(g.c) + at;
                        const double old = beta != 0 ? beta * model::HalfToFloat(*out) : 0;
                        *out = model::FloatToHalf(static_cast<float>(alpha * pf[p] + old));
                        break;
                    }
                    default:
                        break;
                }
            }
        }
    } catch (const std::bad_alloc&) {
        *error = "out of host memory for the GEMM's scratch";
        return false;
    }
    return true;
}

}  // namespace openacl::ops
