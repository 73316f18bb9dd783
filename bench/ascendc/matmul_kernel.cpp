// C = A * B in float with the Matmul API (the tutorial's kernel, examples/ascendc, in float). The
// host's tiling (matmul.cpp) splits C into usedCoreNum parts of singleCoreM x singleCoreN; each
// block works out its part from its index, tells the Matmul the size of a part that runs over the
// edge (SetTail), and IterateAll moves the part's A and B through L1 and L0 in baseM x baseN x
// baseK steps on the cube unit, writing C to global memory.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

// The tiling lies in global memory as the host wrote it: copied word by word into the block.
__aicore__ inline void ReadTiling(TCubeTiling& tiling, GM_ADDR tilingGm) {
    auto* words = reinterpret_cast<uint32_t*>(&tiling);
    auto* source = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i)
        words[i] = source[i];
}

}  // namespace

extern "C" __global__ __aicore__ void bench_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                   GM_ADDR workspace, GM_ADDR tilingGm) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);  // the cube unit does all the work
    AscendC::SetSysWorkspace(workspace);
    TCubeTiling tiling;
    ReadTiling(tiling, tilingGm);

    // Which part of C is this block's: parts are numbered down M first, then across N.
    const int32_t mParts = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t mIndex = AscendC::GetBlockIdx() % mParts;
    const int32_t nIndex = AscendC::GetBlockIdx() / mParts;
    const int32_t rowsLeft = tiling.M - mIndex * tiling.singleCoreM;
    const int32_t colsLeft = tiling.N - nIndex * tiling.singleCoreN;
    const int32_t rows = rowsLeft < tiling.singleCoreM ? rowsLeft : tiling.singleCoreM;
    const int32_t cols = colsLeft < tiling.singleCoreN ? colsLeft : tiling.singleCoreN;

    AscendC::GlobalTensor<float> aGm, bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), tiling.Kb * tiling.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
    aGm = aGm[mIndex * tiling.singleCoreM * tiling.Ka];  // this part's rows of A
    bGm = bGm[nIndex * tiling.singleCoreN];              // this part's columns of B
    cGm = cGm[mIndex * tiling.singleCoreM * tiling.N + nIndex * tiling.singleCoreN];

    AscendC::TPipe pipe;
    AscendC::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    if (rows < tiling.singleCoreM || cols < tiling.singleCoreN) mm.SetTail(rows, cols);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}
