// Kernels whose blocks wait for one another (SyncAll, IBSet/IBWait), written with
// kernel_operator.h: every block doubles its slice of `in` into `work`, waits for all the
// others, then adds up the whole of `work` into its own out[block]. Without all blocks running
// at once this cannot finish.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sync_sum(GM_ADDR in, GM_ADDR work, GM_ADDR out,
                                               uint32_t perBlock) {
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    AscendC::GlobalTensor<float> src, dst, sums;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in) + block * perBlock, perBlock);
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(work) + block * perBlock, perBlock);
    sums.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), blocks);
    for (uint32_t i = 0; i < perBlock; ++i)
        dst.SetValue(i, 2.0f * src.GetValue(i));
    AscendC::SyncAll();
    AscendC::GlobalTensor<float> all;
    all.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(work), blocks * perBlock);
    float total = 0;
    for (uint32_t i = 0; i < blocks * perBlock; ++i)
        total += all.GetValue(i);
    sums.SetValue(block, total);
}

// The same with the soft form, its workspaces as CANN's sample sets them up: 8 int32 (32 bytes)
// per core in GM (zeroed by the host) and in UB.
extern "C" __global__ __aicore__ void sync_sum_soft(GM_ADDR in, GM_ADDR work, GM_ADDR out,
                                                    GM_ADDR syncGm, uint32_t perBlock) {
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> syncBuf;
    pipe.InitBuffer(syncBuf, blocks * 32);
    AscendC::GlobalTensor<int32_t> syncGlobal;
    syncGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(syncGm), blocks * 8);
    AscendC::GlobalTensor<float> src, dst, sums, all;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in) + block * perBlock, perBlock);
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(work) + block * perBlock, perBlock);
    sums.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), blocks);
    all.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(work), blocks * perBlock);
    for (uint32_t i = 0; i < perBlock; ++i)
        dst.SetValue(i, 2.0f * src.GetValue(i));
    AscendC::SyncAll(syncGlobal, syncBuf.Get<int32_t>());
    float total = 0;
    for (uint32_t i = 0; i < blocks * perBlock; ++i)
        total += all.GetValue(i);
    sums.SetValue(block, total);
}

// Block 0 leaves before the barrier: the others could never pass it.
extern "C" __global__ __aicore__ void sync_skipped(GM_ADDR out) {
    if (AscendC::GetBlockIdx() == 0) return;
    AscendC::SyncAll();
    reinterpret_cast<__gm__ float*>(out)[AscendC::GetBlockIdx()] = 1.0f;
}

// A chain of blocks: block b waits for block b - 1's flag (event 0), then writes out[b * n + i] =
// out[(b - 1) * n + i] + in[b * n + i] and sets its own flag. Right only if every block saw the
// previous block's writes. syncGm: 8 int32 (32 bytes) per block, zeroed by the host.
extern "C" __global__ __aicore__ void ib_prefix(GM_ADDR in, GM_ADDR out, GM_ADDR syncGm,
                                                uint32_t n) {
    const int32_t block = static_cast<int32_t>(AscendC::GetBlockIdx());
    const int32_t blocks = static_cast<int32_t>(AscendC::GetBlockNum());
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> flagBuf;
    pipe.InitBuffer(flagBuf, 32);
    AscendC::GlobalTensor<int32_t> sync;
    sync.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(syncGm), blocks * 8);
    AscendC::GlobalTensor<float> src, dst;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), blocks * n);
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), blocks * n);
    if (block > 0) {
        AscendC::IBWait(sync, flagBuf.Get<int32_t>(), block - 1, 0);
        // Scalar reads of GM another core wrote go through the data cache on the chip.
        AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                          AscendC::DcciDst::CACHELINE_OUT>(dst);
    }
    for (uint32_t i = 0; i < n; ++i) {
        const float before = block > 0 ? dst.GetValue((block - 1) * n + i) : 0.0f;
        dst.SetValue(block * n + i, before + src.GetValue(block * n + i));
    }
    // ... and so do its scalar writes: out to GM before the flag says they are there.
    AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(dst);
    AscendC::IBSet(sync, flagBuf.Get<int32_t>(), block, 0);
}

// Block 1 waits for an event block 0 never sets.
extern "C" __global__ __aicore__ void ib_never_set(GM_ADDR syncGm) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> flagBuf;
    pipe.InitBuffer(flagBuf, 32);
    AscendC::GlobalTensor<int32_t> sync;
    sync.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(syncGm), 2 * 8 * 4);
    if (AscendC::GetBlockIdx() == 1) AscendC::IBWait(sync, flagBuf.Get<int32_t>(), 0, 3);
}

// CrossCoreSetFlag mode 0, every core of the launch, as CANN writes it for a vector-only kernel
// (KERNEL_TYPE_MIX_AIV_1_0): twice, each block doubles its slice of `work` (work starts as `in`),
// sets flag 5 and waits for the round, then reads every block's slice; out[round * blocks +
// block] is the sum it saw. Right only if each round waited for every block's writes.
extern "C" __global__ __aicore__ void all_cores_rounds(GM_ADDR work, GM_ADDR out,
                                                       uint32_t perBlock) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    AscendC::GlobalTensor<float> all, sums;
    all.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(work), blocks * perBlock);
    sums.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 2 * blocks);
    for (uint32_t round = 0; round < 2; ++round) {
        for (uint32_t i = 0; i < perBlock; ++i)
            all.SetValue(block * perBlock + i, 2.0f * all.GetValue(block * perBlock + i));
        AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(5);
        AscendC::CrossCoreWaitFlag(5);
        float total = 0;
        for (uint32_t i = 0; i < blocks * perBlock; ++i)
            total += all.GetValue(i);
        sums.SetValue(round * blocks + block, total);
        // Nobody doubles again before every block has read this round's values.
        AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(6);
        AscendC::CrossCoreWaitFlag(6);
    }
}

// Block 0 returns without setting: the others' mode 0 round never completes.
extern "C" __global__ __aicore__ void all_cores_skipped(GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    if (AscendC::GetBlockIdx() == 0) return;
    AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(1);
    AscendC::CrossCoreWaitFlag(1);
    reinterpret_cast<__gm__ float*>(out)[AscendC::GetBlockIdx()] = 1.0f;
}
