// DataCopy and DataCopyPad between global memory and the UB.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "block_runner.h"

namespace {

using namespace AscendC;

TEST(AscendcDataCopy, CountFormRoundsTheBytesDownToWholeBlocks) {
    std::vector<half> gm(64);
    for (uint32_t i = 0; i < 64; ++i)
        gm[i] = half(float(i));
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::VECIN> buf;
        pipe.InitBuffer(buf, 64 * sizeof(half));
        GlobalTensor<half> global;
        global.SetGlobalBuffer(gm.data(), 64);
        LocalTensor<half> local = buf.Get<half>();
        Duplicate(local, half(-1.0f), 64);
        DataCopy(local, global, 40);  // 80 bytes: 64 are copied (32 halves)
        for (uint32_t i = 0; i < 64; ++i) {
            ASSERT_EQ(float(local.GetValue(i)), i < 32 ? float(i) : -1.0f) << "element " << i;
        }
    });
}

TEST(AscendcDataCopy, ACountThatLeavesATailIsSaidOnceOnStderr) {
    std::vector<float> gm(64, 1.0f);
    testing::internal::CaptureStderr();
    openacl::test::RunOneBlock([&] {
        TPipe pipe;
        TBuf<TPosition::VECIN> buf;
        pipe.InitBuffer(buf, 64 * sizeof(float));
        GlobalTensor<float> global;
        global.SetGlobalBuffer(gm.data(), 64);
        LocalTensor<float> local = buf.Get<float>();
        DataCopy(local, global, 16);  // whole blocks: nothing to say
        DataCopy(local, global, 10);  // 40 bytes: 32 copied
        DataCopy(local, global, 10);
    });
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find("DataCopy: 10 elements of 4 bytes are 40 bytes, not a multiple of 32: "
                        "only 32 are copied and the last 8 are not"),
              std::string::npos)
        << said;
    const std::string warning = "warning: DataCopy:";
    const size_t first = said.find(warning);
    EXPECT_EQ(said.find(warning, first + 1), std::string::npos) << "said once: " << said;
}

TEST(AscendcDataCopy, StridedParamsCopyBlocksWithGaps) {
    std::vector<float> src(64), dst(64, -1.0f);
    std::iota(src.begin(), src.end(), 0.0f);
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::VECIN> buf;
        pipe.InitBuffer(buf, 64 * sizeof(float));
        GlobalTensor<float> in, out;
        in.SetGlobalBuffer(src.data());
        out.SetGlobalBuffer(dst.data());
        LocalTensor<float> local = buf.Get<float>();
        // 3 blocks of 1 DataBlock (8 floats), skipping 1 block between them in GM.
        DataCopy(local, in, DataCopyParams{3, 1, 1, 0});
        // Back out, leaving a 2-block gap between blocks in GM.
        DataCopy(out, local, DataCopyParams{3, 1, 0, 2});
    });
    for (uint32_t b = 0; b < 3; ++b) {
        for (uint32_t e = 0; e < 8; ++e) {
            ASSERT_EQ(dst[b * 24 + e], src[b * 16 + e]) << "block " << b << " element " << e;
        }
    }
    EXPECT_EQ(dst[8], -1.0f);
}

TEST(AscendcDataCopy, PadFillsToTheBlockBoundaryWithThePadValueOrFirstElement) {
    std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::VECIN> buf;
        pipe.InitBuffer(buf, 64 * sizeof(float));
        GlobalTensor<float> in;
        in.SetGlobalBuffer(src.data());
        LocalTensor<float> local = buf.Get<float>();
        Duplicate(local, -1.0f, 64);
        // Two blocks of 5 floats (20 bytes), 2 floats apart in GM; each padded to 8 in the UB.
        DataCopyPad(local, in, {2, 20, 8, 0, 0}, DataCopyPadExtParams<float>{true, 0, 0, 0.5f});
        std::vector<float> expected = {1, 2, 3,  4,  5,  0.5f, 0.5f, 0.5f,
                                       8, 9, 10, 11, 12, 0.5f, 0.5f, 0.5f};
        for (uint32_t i = 0; i < 16; ++i)
            ASSERT_EQ(local.GetValue(i), expected[i]) << i;
        EXPECT_EQ(local.GetValue(16), -1.0f);
        // Without padding the fill is the block's first element; left padding shifts the data.
        DataCopyPad(local, in, {1, 12, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
        EXPECT_EQ(local.GetValue(3), 1.0f);
        EXPECT_EQ(local.GetValue(7), 1.0f);
        DataCopyPad(local, in, {1, 12, 0, 0, 0}, DataCopyPadExtParams<float>{true, 2, 1, 9.0f});
        std::vector<float> shifted = {9, 9, 1, 2, 3, 9, 9, 9};
        for (uint32_t i = 0; i < 8; ++i)
            ASSERT_EQ(local.GetValue(i), shifted[i]) << i;
    });
}

TEST(AscendcDataCopy, PadOutWritesExactlyBlockLenBytesPerBlock) {
    std::vector<float> dst(20, -1.0f);
    openacl::test::RunOneBlock([&] {
        TPipe pipe;
        TBuf<TPosition::VECOUT> buf;
        pipe.InitBuffer(buf, 32 * sizeof(float));
        LocalTensor<float> local = buf.Get<float>();
        for (uint32_t i = 0; i < 32; ++i)
            local.SetValue(i, float(i));
        GlobalTensor<float> out;
        out.SetGlobalBuffer(dst.data());
        // 2 blocks of 3 floats; UB blocks start on 32-byte boundaries, 4 bytes apart in GM.
        DataCopyPad(out, local, DataCopyExtParams{2, 12, 0, 4, 0});
    });
    std::vector<float> expected = {0, 1, 2, -1, 8, 9, 10, -1};
    for (uint32_t i = 0; i < 8; ++i)
        ASSERT_EQ(dst[i], expected[i]) << i;
}

TEST(AscendcDataCopy, AtomicAddAccumulatesFromConcurrentBlocks) {
    std::vector<float> sum(16, 1.0f);
    auto failure = openacl::test::RunBlocks(8, [&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::VECOUT> buf;
        pipe.InitBuffer(buf, 16 * sizeof(float));
        LocalTensor<float> local = buf.Get<float>();
        Duplicate(local, float(GetBlockIdx() + 1), 16);
        GlobalTensor<float> out;
        out.SetGlobalBuffer(sum.data());
        SetAtomicAdd<float>();
        DataCopy(out, local, 16);
        SetAtomicNone();
    });
    ASSERT_EQ(failure, "");
    for (float v : sum)
        EXPECT_EQ(v, 1.0f + 36.0f);
}

}  // namespace
