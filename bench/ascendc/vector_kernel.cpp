// Vector instructions on data already in the UB, where the unit's speed shows rather than the
// memory's: each block runs `rounds` of z = x + y, x = z - y, y = Max(x, z), z = y * 0.5 over 8 Ki
// floats. bench_vector_api uses the instructions (libascendcl's AVX-512 loops, with the
// kernel API's checks); bench_vector_loop writes the same four loops by hand over the tensors'
// memory, compiled with the project's flags: what the instructions cost before libascendcl took
// them over.
#include "kernel_operator.h"

namespace {

constexpr uint32_t kElements = 8192;

template <bool kApi>
__aicore__ inline void Rounds(GM_ADDR out, uint32_t rounds) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, kElements * sizeof(float));
    pipe.InitBuffer(by, kElements * sizeof(float));
    pipe.InitBuffer(bz, kElements * sizeof(float));
    AscendC::LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), z = bz.Get<float>();
    AscendC::Duplicate(x, 1.0f, kElements);
    AscendC::Duplicate(y, 2.0f, kElements);
    for (uint32_t r = 0; r < rounds; ++r) {
        if constexpr (kApi) {
            AscendC::Add(z, x, y, kElements);
            AscendC::Sub(x, z, y, kElements);
            AscendC::Max(y, x, z, kElements);
            AscendC::Muls(z, y, 0.5f, kElements);
        } else {
            float* px = &x(0);
            float* py = &y(0);
            float* pz = &z(0);
            for (uint32_t i = 0; i < kElements; ++i)
                pz[i] = px[i] + py[i];
            for (uint32_t i = 0; i < kElements; ++i)
                px[i] = pz[i] - py[i];
            for (uint32_t i = 0; i < kElements; ++i)
                py[i] = px[i] > pz[i] ? px[i] : pz[i];
            for (uint32_t i = 0; i < kElements; ++i)
                pz[i] = py[i] * 0.5f;
        }
    }
    AscendC::GlobalTensor<float> result;
    result.SetGlobalBuffer(
        reinterpret_cast<__gm__ float*>(out) + uint64_t{kElements} * AscendC::GetBlockIdx(),
        kElements);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(result, z, kElements);
}

}  // namespace

extern "C" __global__ __aicore__ void bench_vector_api(GM_ADDR out, uint32_t rounds) {
    Rounds<true>(out, rounds);
}

extern "C" __global__ __aicore__ void bench_vector_loop(GM_ADDR out, uint32_t rounds) {
    Rounds<false>(out, rounds);
}
