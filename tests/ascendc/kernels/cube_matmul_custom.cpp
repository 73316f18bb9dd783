// A matmul written on the basic cube API, as CANN's low-level matmul samples write it: each
// block computes one tileM x tileN tile of C = A * B (half in, float out), walking K in steps
// of baseK: GM -(ND->NZ)-> A1/B1 -(LoadData)-> A2/B2 -(Mmad, accumulating)-> CO1 -(Fixpipe,
// NZ->ND)-> GM. Shapes need not be multiples of 16.
#include "kernel_operator.h"
#include "kernels/cube_kernels.h"

namespace {

constexpr uint32_t kBlock = 16;

__aicore__ inline uint32_t CeilAlign(uint32_t value, uint32_t unit) {
    return (value + unit - 1) / unit * unit;
}

class KernelCubeMatmul {
 public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const CubeMatmulTiling& t) {
        tiling = t;
        uint32_t tilesN = (t.N + t.tileN - 1) / t.tileN;
        uint32_t mIndex = AscendC::GetBlockIdx() / tilesN;
        uint32_t nIndex = AscendC::GetBlockIdx() % tilesN;
        m0 = mIndex * t.tileM;
        n0 = nIndex * t.tileN;
        m = t.M - m0 < t.tileM ? t.M - m0 : t.tileM;
        n = t.N - n0 < t.tileN ? t.N - n0 : t.tileN;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
        mAlign = CeilAlign(m, kBlock);
        nAlign = CeilAlign(n, kBlock);
        pipe.InitBuffer(inQueueA1, 1, mAlign * t.baseK * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, t.baseK * nAlign * sizeof(half));
        pipe.InitBuffer(inQueueA2, 1, mAlign * t.baseK * sizeof(half));
        pipe.InitBuffer(inQueueB2, 1, t.baseK * nAlign * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, mAlign * nAlign * sizeof(float));
    }

    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
        for (uint32_t k0 = 0; k0 < tiling.K; k0 += tiling.baseK) {
            uint32_t k = tiling.K - k0 < tiling.baseK ? tiling.K - k0 : tiling.baseK;
            CopyIn(k0, k);
            SplitA(k);
            SplitB(k);
            Compute(c1, k, k0 == 0);
        }
        outQueueCO1.EnQue(c1);
        CopyOut();
    }

 private:
    __aicore__ inline void CopyIn(uint32_t k0, uint32_t k) {
        AscendC::LocalTensor<half> a1 = inQueueA1.AllocTensor<half>();
        AscendC::LocalTensor<half> b1 = inQueueB1.AllocTensor<half>();
        AscendC::Nd2NzParams aParams;
        aParams.ndNum = 1;
        aParams.nValue = m;
        aParams.dValue = k;
        aParams.srcNdMatrixStride = 0;
        aParams.srcDValue = tiling.K;
        aParams.dstNzC0Stride = mAlign;
        aParams.dstNzNStride = 1;
        aParams.dstNzMatrixStride = 0;
        AscendC::DataCopy(a1, aGm[uint64_t(m0) * tiling.K + k0], aParams);
        AscendC::Nd2NzParams bParams(1, k, n, 0, tiling.N, CeilAlign(k, kBlock), 1, 0);
        AscendC::DataCopy(b1, bGm[uint64_t(k0) * tiling.N + n0], bParams);
        inQueueA1.EnQue(a1);
        inQueueB1.EnQue(b1);
    }

    // A: NZ in L1 -> ZZ in L0A, one row of fractals per LoadData.
    __aicore__ inline void SplitA(uint32_t k) {
        AscendC::LocalTensor<half> a1 = inQueueA1.DeQue<half>();
        AscendC::LocalTensor<half> a2 = inQueueA2.AllocTensor<half>();
        uint32_t kBlocks = CeilAlign(k, kBlock) / kBlock;
        AscendC::LoadData2DParams params;
        params.repeatTimes = kBlocks;
        params.srcStride = mAlign / kBlock;
        params.ifTranspose = false;
        for (uint32_t i = 0; i < mAlign / kBlock; ++i) {
            AscendC::LoadData(a2[i * kBlocks * kBlock * kBlock], a1[i * kBlock * kBlock], params);
        }
        inQueueA2.EnQue(a2);
        inQueueA1.FreeTensor(a1);
    }

    // B: NZ in L1 -> ZN in L0B, transposing each fractal.
    __aicore__ inline void SplitB(uint32_t k) {
        AscendC::LocalTensor<half> b1 = inQueueB1.DeQue<half>();
        AscendC::LocalTensor<half> b2 = inQueueB2.AllocTensor<half>();
        uint32_t kBlocks = CeilAlign(k, kBlock) / kBlock;
        AscendC::LoadData2DParams params;
        params.repeatTimes = nAlign / kBlock;
        params.srcStride = kBlocks;
        params.ifTranspose = true;
        for (uint32_t i = 0; i < kBlocks; ++i) {
            params.startIndex = i;
            AscendC::LoadData(b2[i * nAlign * kBlock], b1, params);
        }
        inQueueB2.EnQue(b2);
        inQueueB1.FreeTensor(b1);
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& c1, uint32_t k, bool first) {
        AscendC::LocalTensor<half> a2 = inQueueA2.DeQue<half>();
        AscendC::LocalTensor<half> b2 = inQueueB2.DeQue<half>();
        AscendC::MmadParams params;
        params.m = m;
        params.n = n;
        params.k = k;
        params.cmatrixInitVal = first;
        AscendC::Mmad(c1, a2, b2, params);
        inQueueA2.FreeTensor(a2);
        inQueueB2.FreeTensor(b2);
    }

    __aicore__ inline void CopyOut() {
        AscendC::LocalTensor<float> c1 = outQueueCO1.DeQue<float>();
        AscendC::FixpipeParamsV220 params;
        params.nSize = n;
        params.mSize = m;
        params.srcStride = mAlign;
        params.dstStride = tiling.N;
        params.ndNum = 1;
        AscendC::Fixpipe(cGm[uint64_t(m0) * tiling.N + n0], c1, params);
        outQueueCO1.FreeTensor(c1);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
    AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
    AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
    AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> cGm;
    CubeMatmulTiling tiling{};
    uint32_t m0 = 0, n0 = 0, m = 0, n = 0, mAlign = 0, nAlign = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void cube_matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                         CubeMatmulTiling tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    KernelCubeMatmul op;
    op.Init(a, b, c, tiling);
    op.Process();
}
