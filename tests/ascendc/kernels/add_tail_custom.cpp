// Add over lengths that are not a multiple of 32 bytes: DataCopyPad moves the exact bytes, the
// last block takes the remainder. Written with `using namespace AscendC`, as many kernels are.
#include "kernel_operator.h"

using namespace AscendC;

struct AddTailTiling {
    uint32_t totalLength;  // floats
    uint32_t blockLength;  // floats per block; the last block takes what is left
};

class KernelAddTail {
 public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTailTiling& tiling) {
        uint32_t start = tiling.blockLength * GetBlockIdx();
        length =
            GetBlockIdx() + 1 == GetBlockNum() ? tiling.totalLength - start : tiling.blockLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
        zGm.SetGlobalBuffer((__gm__ float*)z + start, length);
        pipe.InitBuffer(inQueue, 1, 2 * tiling.blockLength * sizeof(float) + 64);
        pipe.InitBuffer(outQueue, 1, tiling.blockLength * sizeof(float));
    }
    __aicore__ inline void Process() {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        uint32_t alignedLength = (length + 7) / 8 * 8;
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{true, 0, 0, 0.0f};
        DataCopyPad(in, xGm, copyParams, padParams);
        DataCopyPad(in[alignedLength], yGm, copyParams, padParams);
        inQueue.EnQue(in);
        in = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Add(out, in, in[alignedLength], length);
        outQueue.EnQue(out);
        inQueue.FreeTensor(in);
        out = outQueue.DeQue<float>();
        DataCopyPad(zGm, out, copyParams);
        outQueue.FreeTensor(out);
    }

 private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm, zGm;
    uint32_t length = 0;
};

extern "C" __global__ __aicore__ void add_tail_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                      AddTailTiling tiling) {
    KernelAddTail op;
    op.Init(x, y, z, tiling);
    op.Process();
}
