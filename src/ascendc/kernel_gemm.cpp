// libascendcl's side of the kernel API's Matmul: the float products it hands over
// (openaclKernelSgemm, declared weak in lib/matmul/matmul.h), computed by oneDNN on the calling
// block's thread alone, since every block of the launch runs on a thread of its own.
#include <oneapi/dnnl/dnnl.h>

#include <cstdint>

#include "backend/cpu/omp_threads.h"

extern "C" __attribute__((visibility("default"))) int openaclKernelSgemm(
    char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
    int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
    // One OpenMP thread for the product, the calling thread's own setting restored after it
    // (the thread may be a stream worker whose other tasks choose their own).
    openacl::cpu::OmpThreads one(1);
    return dnnl_sgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) == dnnl_success
               ? 0
               : 1;
}
