// z = x + y in float, the shape of CANN's vector-add sample: each block streams its share
// through UB in double-buffered tiles (the last tile of a block may be shorter).
#include "kernel_operator.h"

namespace {

constexpr uint32_t kTile = 4096;  // floats: 16 KiB per buffer, 6 buffers
constexpr int32_t kBuffers = 2;

class Add {
 public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t perBlock) {
        const uint64_t offset = uint64_t{perBlock} * AscendC::GetBlockIdx();
        length_ = perBlock;
        x_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, perBlock);
        y_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset, perBlock);
        z_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, perBlock);
        pipe_.InitBuffer(inX_, kBuffers, kTile * sizeof(float));
        pipe_.InitBuffer(inY_, kBuffers, kTile * sizeof(float));
        pipe_.InitBuffer(outZ_, kBuffers, kTile * sizeof(float));
    }
    __aicore__ inline void Process() {
        for (uint32_t done = 0; done < length_; done += kTile) {
            const uint32_t n = length_ - done < kTile ? length_ - done : kTile;
            AscendC::LocalTensor<float> x = inX_.AllocTensor<float>();
            AscendC::LocalTensor<float> y = inY_.AllocTensor<float>();
            AscendC::DataCopy(x, x_[done], n);
            AscendC::DataCopy(y, y_[done], n);
            inX_.EnQue(x);
            inY_.EnQue(y);
            x = inX_.DeQue<float>();
            y = inY_.DeQue<float>();
            AscendC::LocalTensor<float> z = outZ_.AllocTensor<float>();
            AscendC::Add(z, x, y, n);
            outZ_.EnQue(z);
            inX_.FreeTensor(x);
            inY_.FreeTensor(y);
            z = outZ_.DeQue<float>();
            AscendC::DataCopy(z_[done], z, n);
            outZ_.FreeTensor(z);
        }
    }

 private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> inX_, inY_;
    AscendC::TQue<AscendC::TPosition::VECOUT, kBuffers> outZ_;
    AscendC::GlobalTensor<float> x_, y_, z_;
    uint32_t length_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                uint32_t perBlock) {
    Add op;
    op.Init(x, y, z, perBlock);
    op.Process();
}
