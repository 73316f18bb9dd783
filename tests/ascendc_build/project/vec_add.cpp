// z = x + y in half precision, in the form of CANN's vector-add sample: each of 8 blocks moves
// its 2048 elements through UB in 8 tiles, double-buffered (CopyIn, Compute, CopyOut).
#include "kernel_operator.h"

namespace {
constexpr int32_t kTotalLength = 8 * 2048;
constexpr int32_t kUseCoreNum = 8;
constexpr int32_t kBlockLength = kTotalLength / kUseCoreNum;
constexpr int32_t kTileNum = 8;
constexpr int32_t kBufferNum = 2;
constexpr int32_t kTileLength = kBlockLength / kTileNum / kBufferNum;

class KernelVecAdd {
 public:
    __aicore__ inline KernelVecAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
        const int32_t offset = kBlockLength * static_cast<int32_t>(AscendC::GetBlockIdx());
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, kBlockLength);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, kBlockLength);
        zGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + offset, kBlockLength);
        pipe.InitBuffer(inQueueX, kBufferNum, kTileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, kBufferNum, kTileLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, kBufferNum, kTileLength * sizeof(half));
    }
    __aicore__ inline void Process() {
        for (int32_t i = 0; i < kTileNum * kBufferNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

 private:
    __aicore__ inline void CopyIn(int32_t progress) {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm[progress * kTileLength], kTileLength);
        AscendC::DataCopy(yLocal, yGm[progress * kTileLength], kTileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute() {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Add(zLocal, xLocal, yLocal, kTileLength);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress) {
        AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        AscendC::DataCopy(zGm[progress * kTileLength], zLocal, kTileLength);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> outQueueZ;
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
};
}  // namespace

extern "C" __global__ __aicore__ void vec_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    KernelVecAdd op;
    op.Init(x, y, z);
    op.Process();
}
