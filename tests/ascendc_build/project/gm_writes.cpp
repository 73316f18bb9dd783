// Blocks writing global memory: their own parts, overlapping parts (a race on the chip, which
// the runtime reports), overlapping parts accumulated atomically, and overwrites ordered by
// SyncAll.
#include "kernel_operator.h"

namespace {

constexpr uint32_t kTile = 8;  // floats: one 32-byte DataBlock

// Copies kTile floats of `value` out to `gm`, through a queue as CANN kernels do.
__aicore__ inline void WriteTile(AscendC::GlobalTensor<float> gm, float value) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> queue;
    pipe.InitBuffer(queue, 1, kTile * sizeof(float));
    AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
    AscendC::Duplicate(tile, value, kTile);
    queue.EnQue(tile);
    tile = queue.DeQue<float>();
    AscendC::DataCopy(gm, tile, kTile);
    queue.FreeTensor(tile);
}

}  // namespace

// Block b writes kTile floats of b + 1 at out + b * stride: blocks overlap when stride < kTile.
// With `atomic`, the copies add up (SetAtomicAdd).
extern "C" __global__ __aicore__ void strided_tiles(GM_ADDR out, uint32_t stride, uint32_t atomic) {
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    if (atomic != 0) AscendC::SetAtomicAdd<float>();
    WriteTile(gm[block * stride], static_cast<float>(block + 1));
    if (atomic != 0) AscendC::SetAtomicNone();
}

// Block 0 writes the tile, then after SyncAll block 1 overwrites it: ordered, not a race.
extern "C" __global__ __aicore__ void ordered_overwrite(GM_ADDR out) {
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    if (block == 0) WriteTile(gm, 1.0f);
    AscendC::SyncAll();
    if (block == 1) WriteTile(gm, 2.0f);
}

// Every block stores its index in the same element with a scalar write.
extern "C" __global__ __aicore__ void same_cell(GM_ADDR out) {
    AscendC::GlobalTensor<int32_t> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
    gm.SetValue(0, static_cast<int32_t>(AscendC::GetBlockIdx()));
}
