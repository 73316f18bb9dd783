// Matmul-API kernels written as CANN's matmul samples write them: the TCubeTiling is copied in
// from GM, REGIST_MATMUL_OBJ hands it to the Matmul, each block works out its part of C from
// the block index (splitting M and N as the multi-core tiling says) and sets its tail at the
// edges, then SetTensorA/B, SetBias, IterateAll (or Iterate/GetTensorC) and End.
#include "kernel_operator.h"
#include "kernels/cube_kernels.h"
#include "lib/matmul_intf.h"

namespace {

__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGM) {
    uint32_t* ptr = reinterpret_cast<uint32_t*>(tiling);
    auto tiling32 = reinterpret_cast<__gm__ uint32_t*>(tilingGM);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++, ptr++) {
        *ptr = *(tiling32 + i);
    }
}

template <typename AType, typename BType, typename CType, typename BiasType, bool transA,
          bool transB, const AscendC::MatmulConfig& config>
class MatmulKernel {
 public:
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, AType, transA>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, BType, transB>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, CType>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, BiasType>, config>
        matmulObj;

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                const TCubeTiling& tilingIn) {
        tiling = tilingIn;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ AType*>(a), tiling.M * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ BType*>(b), tiling.Kb * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ CType*>(c), tiling.M * tiling.N);
        biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ BiasType*>(bias), tiling.N);
        int32_t offsetA = 0, offsetB = 0, offsetC = 0, offsetBias = 0;
        CalcOffset(AscendC::GetBlockIdx(), offsetA, offsetB, offsetC, offsetBias);
        aGlobal = aGlobal[offsetA];
        bGlobal = bGlobal[offsetB];
        cGlobal = cGlobal[offsetC];
        biasGlobal = biasGlobal[offsetBias];
    }

    __aicore__ inline void Process(bool useIterate) {
        matmulObj.SetTensorA(aGlobal, transA);
        matmulObj.SetTensorB(bGlobal, transB);
        if (tiling.isBias) matmulObj.SetBias(biasGlobal);
        if (useIterate) {
            while (matmulObj.Iterate()) {
                matmulObj.GetTensorC(cGlobal);
            }
        } else {
            matmulObj.IterateAll(cGlobal);
        }
        matmulObj.End();
    }

 private:
    __aicore__ inline void CalcOffset(int32_t blockIdx, int32_t& offsetA, int32_t& offsetB,
                                      int32_t& offsetC, int32_t& offsetBias) {
        auto mSingleBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        auto mCoreIndx = blockIdx % mSingleBlocks;
        auto nCoreIndx = blockIdx / mSingleBlocks;
        offsetA =
            transA ? mCoreIndx * tiling.singleCoreM : mCoreIndx * tiling.Ka * tiling.singleCoreM;
        offsetB =
            transB ? nCoreIndx * tiling.Kb * tiling.singleCoreN : nCoreIndx * tiling.singleCoreN;
        offsetC = mCoreIndx * tiling.N * tiling.singleCoreM + nCoreIndx * tiling.singleCoreN;
        offsetBias = nCoreIndx * tiling.singleCoreN;
        int tailM = tiling.M - mCoreIndx * tiling.singleCoreM;
        tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
        int tailN = tiling.N - nCoreIndx * tiling.singleCoreN;
        tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;
        if (tailM < tiling.singleCoreM || tailN < tiling.singleCoreN) {
            matmulObj.SetTail(tailM, tailN);
        }
    }

    AscendC::GlobalTensor<AType> aGlobal;
    AscendC::GlobalTensor<BType> bGlobal;
    AscendC::GlobalTensor<CType> cGlobal;
    AscendC::GlobalTensor<BiasType> biasGlobal;
    TCubeTiling tiling;
};

template <typename AType, typename BType, typename CType, typename BiasType, bool transA = false,
          bool transB = false, const AscendC::MatmulConfig& config = CFG_NORM>
__aicore__ inline void RunMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                 GM_ADDR tilingGm, bool useIterate = false) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::SetSysWorkspace(workspace);
    TCubeTiling tiling;
    CopyTiling(&tiling, tilingGm);
    AscendC::TPipe pipe;
    MatmulKernel<AType, BType, CType, BiasType, transA, transB, config> kernel;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), kernel.matmulObj, &tiling);
    kernel.Init(a, b, bias, c, tiling);
    kernel.Process(useIterate);
}

}  // namespace

extern "C" __global__ __aicore__ void matmul_half_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                         GM_ADDR c, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
    RunMatmul<half, half, float, float>(a, b, bias, c, workspace, tiling);
}

extern "C" __global__ __aicore__ void matmul_half_trans_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                               GM_ADDR c, GM_ADDR workspace,
                                                               GM_ADDR tiling) {
    RunMatmul<half, half, half, half, true, true>(a, b, bias, c, workspace, tiling);
}

extern "C" __global__ __aicore__ void matmul_int8_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                         GM_ADDR c, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
    RunMatmul<int8_t, int8_t, int32_t, int32_t, false, false, CFG_MDL>(a, b, bias, c, workspace,
                                                                       tiling);
}

extern "C" __global__ __aicore__ void matmul_iterate_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                            GM_ADDR c, GM_ADDR workspace,
                                                            GM_ADDR tiling) {
    RunMatmul<bfloat16_t, bfloat16_t, float, float>(a, b, bias, c, workspace, tiling, true);
}
