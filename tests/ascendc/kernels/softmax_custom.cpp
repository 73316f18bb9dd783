// Row-wise softmax of a rows x cols float matrix; each block takes a contiguous run of rows.
// Scratch space comes from TBufs; the row maximum and sum go through the scalar unit, which
// reads them after waiting for the vector pipe (V_S): the compiler's auto-sync would insert that
// flag, written out it keeps the kernel right without it too.
#include "kernel_operator.h"

using namespace AscendC;

class KernelSoftmax {
 public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols) {
        this->cols = cols;
        uint32_t perBlock = (rows + GetBlockNum() - 1) / GetBlockNum();
        firstRow = perBlock * GetBlockIdx();
        rowCount = firstRow >= rows ? 0 : (rows - firstRow < perBlock ? rows - firstRow : perBlock);
        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(inQueue, 2, cols * sizeof(float));
        pipe.InitBuffer(outQueue, 2, cols * sizeof(float));
        pipe.InitBuffer(workBuf, cols * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process() {
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t offset = static_cast<uint64_t>(firstRow + r) * cols;
            LocalTensor<float> x = inQueue.AllocTensor<float>();
            DataCopy(x, xGm[offset], cols);
            inQueue.EnQue(x);

            x = inQueue.DeQue<float>();
            LocalTensor<float> y = outQueue.AllocTensor<float>();
            LocalTensor<float> work = workBuf.Get<float>();
            LocalTensor<float> result = reduceBuf.Get<float>();
            ReduceMax(result, x, work, cols);
            VectorToScalar();
            float rowMax = result.GetValue(0);
            Adds(y, x, -rowMax, cols);
            Exp(y, y, cols);
            ReduceSum(result, y, work, cols);
            VectorToScalar();
            float rowSum = result.GetValue(0);
            Muls(y, y, 1.0f / rowSum, cols);
            outQueue.EnQue(y);
            inQueue.FreeTensor(x);

            y = outQueue.DeQue<float>();
            DataCopy(yGm[offset], y, cols);
            outQueue.FreeTensor(y);
        }
    }

 private:
    __aicore__ inline void VectorToScalar() {
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> workBuf, reduceBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t cols = 0, firstRow = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, uint32_t rows,
                                                     uint32_t cols) {
    KernelSoftmax op;
    op.Init(x, y, rows, cols);
    op.Process();
}
