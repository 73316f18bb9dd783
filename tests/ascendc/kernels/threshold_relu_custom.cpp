// ReLU with a threshold, as CANN users write it with Compare + Select: y = x > t ? x : 0.
// Each block handles `blockLength` floats in tiles of 256 (Compare wants whole 256-byte repeats).
#include "kernel_operator.h"

namespace {

constexpr uint32_t kTile = 256;

class KernelThresholdRelu {
 public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, float threshold) {
        this->blockLength = blockLength;
        this->threshold = threshold;
        uint64_t start = uint64_t(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float*)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, blockLength);
        pipe.InitBuffer(inQueue, 2, kTile * sizeof(float));
        pipe.InitBuffer(outQueue, 2, kTile * sizeof(float));
        pipe.InitBuffer(maskBuf, kTile / 8);
    }
    __aicore__ inline void Process() {
        for (uint32_t i = 0; i < blockLength / kTile; ++i) {
            AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[i * kTile], kTile);
            inQueue.EnQue(xLocal);

            xLocal = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
            AscendC::CompareScalar(mask, xLocal, threshold, AscendC::CMPMODE::GT, kTile);
            AscendC::Select(yLocal, mask, xLocal, 0.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE,
                            kTile);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);

            yLocal = outQueue.DeQue<float>();
            AscendC::DataCopy(yGm[i * kTile], yLocal, kTile);
            outQueue.FreeTensor(yLocal);
        }
    }

 private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t blockLength = 0;
    float threshold = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void threshold_relu_custom(GM_ADDR x, GM_ADDR y,
                                                            uint32_t blockLength, float threshold) {
    KernelThresholdRelu op;
    op.Init(x, y, blockLength, threshold);
    op.Process();
}
