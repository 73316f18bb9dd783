// Kernels the CPU-debug tests run with ICPU_RUN_KF, each showing one behaviour.
#include "kernel_operator.h"

struct ProbeTiling {
    int32_t add;
    int32_t multiply;
};

// Every block counts itself in, waits for the others (SyncAll), then writes the count it sees:
// numBlocks in every element only if all blocks ran at once.
extern "C" __global__ __aicore__ void count_blocks(GM_ADDR counter, GM_ADDR out) {
    __atomic_fetch_add(reinterpret_cast<int32_t*>(counter), 1, __ATOMIC_SEQ_CST);
    AscendC::SyncAll();
    reinterpret_cast<int32_t*>(out)[AscendC::GetBlockIdx()] =
        __atomic_load_n(reinterpret_cast<int32_t*>(counter), __ATOMIC_SEQ_CST);
}

// Block `failing` fails an assertion; the others write their index.
extern "C" __global__ __aicore__ void fail_in_block(GM_ADDR out, uint32_t failing) {
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    ascendc_assert(block != failing, "block %u was told to fail", block);
    reinterpret_cast<int32_t*>(out)[block] = static_cast<int32_t>(block);
}

// Writes 1 from a cube core (AIC), 2 from a vector core (AIV).
extern "C" __global__ __aicore__ void core_kind(GM_ADDR out) {
    reinterpret_cast<int32_t*>(out)[AscendC::GetBlockIdx()] = ASCEND_IS_AIC ? 1 : 2;
}

// The branch of the tiling key the launch runs with.
extern "C" __global__ __aicore__ void tiling_branch(GM_ADDR out) {
    auto* dst = reinterpret_cast<int32_t*>(out) + AscendC::GetBlockIdx();
    if (TILING_KEY_IS(1)) {
        *dst = 10;
    } else if (TILING_KEY_IS(2)) {
        *dst = 20;
    } else {
        *dst = -1;
    }
}

// out[i] = (i + tiling.add) * tiling.multiply * scale for i < n: a struct by value and scalars.
extern "C" __global__ __aicore__ void affine(GM_ADDR out, uint32_t n, ProbeTiling tiling,
                                             float scale) {
    auto* dst = reinterpret_cast<float*>(out);
    for (uint32_t i = static_cast<uint32_t>(AscendC::GetBlockIdx()); i < n;
         i += static_cast<uint32_t>(AscendC::GetBlockNum()))
        dst[i] =
            static_cast<float>((static_cast<int32_t>(i) + tiling.add) * tiling.multiply) * scale;
}

// Every block copies a tile of 16 floats holding its index to the same 64 bytes of out.
extern "C" __global__ __aicore__ void same_tile_everywhere(GM_ADDR out) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 16 * sizeof(float));
    AscendC::LocalTensor<float> tile = buffer.Get<float>();
    AscendC::Duplicate(tile, static_cast<float>(AscendC::GetBlockIdx()), 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 16);
    AscendC::DataCopy(gm, tile, 16);
}
