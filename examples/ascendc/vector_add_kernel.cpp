// Step 1, the kernel: z = x + y in half precision. The vector is split evenly over the blocks
// (GetBlockIdx() says which part is this block's); each block streams its part through the
// unified buffer (UB) in tiles, in three stages that the queues connect:
//   CopyIn  (GM -> UB, DataCopy)  ->  Compute (Add on the vector unit)  ->  CopyOut (UB -> GM)
// Two buffers per queue let one tile's copy overlap the previous tile's compute on the chip.
#include "kernel_operator.h"

namespace {

constexpr int32_t kTileLength = 512;  // elements per tile: 1 KiB of half, a multiple of 32 B
constexpr int32_t kBufferNum = 2;     // double buffering

class VectorAdd {
 public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength) {
        blockLength_ = totalLength / AscendC::GetBlockNum();
        const uint32_t offset = blockLength_ * AscendC::GetBlockIdx();
        x_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, blockLength_);
        y_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, blockLength_);
        z_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + offset, blockLength_);
        pipe_.InitBuffer(inX_, kBufferNum, kTileLength * sizeof(half));
        pipe_.InitBuffer(inY_, kBufferNum, kTileLength * sizeof(half));
        pipe_.InitBuffer(outZ_, kBufferNum, kTileLength * sizeof(half));
    }
    __aicore__ inline void Process() {
        for (uint32_t tile = 0; tile < blockLength_ / kTileLength; ++tile) {
            CopyIn(tile);
            Compute();
            CopyOut(tile);
        }
    }

 private:
    __aicore__ inline void CopyIn(uint32_t tile) {
        AscendC::LocalTensor<half> x = inX_.AllocTensor<half>();
        AscendC::LocalTensor<half> y = inY_.AllocTensor<half>();
        AscendC::DataCopy(x, x_[tile * kTileLength], kTileLength);
        AscendC::DataCopy(y, y_[tile * kTileLength], kTileLength);
        inX_.EnQue(x);  // hands the tile to the next stage
        inY_.EnQue(y);
    }
    __aicore__ inline void Compute() {
        AscendC::LocalTensor<half> x = inX_.DeQue<half>();  // waits for CopyIn's tile
        AscendC::LocalTensor<half> y = inY_.DeQue<half>();
        AscendC::LocalTensor<half> z = outZ_.AllocTensor<half>();
        AscendC::Add(z, x, y, kTileLength);
        outZ_.EnQue(z);
        inX_.FreeTensor(x);  // the buffers go back to their queues for the next tile
        inY_.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t tile) {
        AscendC::LocalTensor<half> z = outZ_.DeQue<half>();
        AscendC::DataCopy(z_[tile * kTileLength], z, kTileLength);
        outZ_.FreeTensor(z);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> inX_, inY_;
    AscendC::TQue<AscendC::TPosition::VECOUT, kBufferNum> outZ_;
    AscendC::GlobalTensor<half> x_, y_, z_;
    uint32_t blockLength_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void vector_add(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                 uint32_t totalLength) {
    VectorAdd op;
    op.Init(x, y, z, totalLength);
    op.Process();
}
