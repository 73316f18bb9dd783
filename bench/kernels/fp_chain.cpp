// The compute-bound kernel of the parallel-efficiency benchmark (bench_runtime; bench_pocl runs
// the same in OpenCL C): `slices` equal pieces of floating-point work, dealt round-robin over the
// blocks. A slice is one dependent chain of `iters` multiply-adds on a float (no memory traffic,
// nothing to vectorize, the same instructions from any compiler without FMA contraction) and
// writes its result to out[slice], so the work is deterministic and checkable.
#include "openacl/kernel.h"

extern "C" __global__ __aicore__ void fp_chain(GM_ADDR out, uint32_t slices, uint32_t iters) {
    auto* result = reinterpret_cast<float*>(out);
    for (int64_t s = GetBlockIdx(); s < slices; s += GetBlockNum()) {
        float x = 1.0f + static_cast<float>(s) * 0.001f;
        for (uint32_t i = 0; i < iters; ++i)
            x = x * 0.9999f + 0.0001f;
        result[s] = x;
    }
}
