// Top-k of 128 float scores per block, as CANN users write it on A2: Sort32 sorts four groups
// of 32, MrgSort merges the four sorted lists, Extract splits scores and indices.
#include "kernel_operator.h"

namespace {

constexpr uint32_t kCount = 128;

class KernelTopK {
 public:
    __aicore__ inline void Init(GM_ADDR scores, GM_ADDR values, GM_ADDR indices, uint32_t k) {
        this->k = k;
        uint64_t block = AscendC::GetBlockIdx();
        scoreGm.SetGlobalBuffer((__gm__ float*)scores + block * kCount, kCount);
        valueGm.SetGlobalBuffer((__gm__ float*)values + block * kCount, kCount);
        indexGm.SetGlobalBuffer((__gm__ uint32_t*)indices + block * kCount, kCount);
        pipe.InitBuffer(scoreBuf, kCount * sizeof(float));
        pipe.InitBuffer(indexBuf, kCount * sizeof(uint32_t));
        pipe.InitBuffer(sortedBuf, AscendC::GetSortLen<float>(kCount) * sizeof(float));
        pipe.InitBuffer(mergedBuf, AscendC::GetSortLen<float>(kCount) * sizeof(float));
        pipe.InitBuffer(outValueBuf, kCount * sizeof(float));
        pipe.InitBuffer(outIndexBuf, kCount * sizeof(uint32_t));
    }
    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> score = scoreBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> index = indexBuf.Get<uint32_t>();
        AscendC::DataCopy(score, scoreGm, kCount);
        AscendC::CreateVecIndex(index.ReinterpretCast<int32_t>(), 0, kCount);
        AscendC::PipeBarrier<PIPE_ALL>();

        AscendC::LocalTensor<float> sorted = sortedBuf.Get<float>();
        AscendC::Sort32(sorted, score, index, kCount / 32);
        AscendC::LocalTensor<float> merged = mergedBuf.Get<float>();
        uint32_t lane = AscendC::GetSortOffset<float>(32);
        AscendC::MrgSortSrcList<float> lists(sorted, sorted[lane], sorted[2 * lane],
                                             sorted[3 * lane]);
        uint16_t counts[4] = {32, 32, 32, 32};
        uint32_t taken[4];
        AscendC::MrgSort<float>(merged, lists, counts, taken, 0b1111, 1);

        AscendC::LocalTensor<float> outValue = outValueBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> outIndex = outIndexBuf.Get<uint32_t>();
        AscendC::Extract(outValue, outIndex, merged, kCount / 32);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopyExtParams params{1, k * uint32_t(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(valueGm, outValue, params);
        AscendC::DataCopyPad(indexGm, outIndex, params);
    }

 private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scoreBuf, indexBuf, sortedBuf, mergedBuf,
        outValueBuf, outIndexBuf;
    AscendC::GlobalTensor<float> scoreGm, valueGm;
    AscendC::GlobalTensor<uint32_t> indexGm;
    uint32_t k = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void topk_custom(GM_ADDR scores, GM_ADDR values, GM_ADDR indices,
                                                  uint32_t k) {
    KernelTopK op;
    op.Init(scores, values, indices, k);
    op.Process();
}
