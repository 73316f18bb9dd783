// The basic cube API: layouts, Mmad, LoadData, the ND <-> NZ copies and Fixpipe, each checked
// against a plain C++ GEMM; a hand-tiled matmul kernel over several blocks; and the checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "block_runner.h"
#include "kernels/cube_kernels.h"

namespace {

using namespace AscendC;

template <typename T>
std::vector<T> Random(size_t n, unsigned seed, int low = -4, int high = 4) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> value(low, high);
    std::vector<T> data(n);
    for (auto& v : data)
        v = T(static_cast<float>(value(random)) * 0.5f);
    return data;
}

// C = A (m x k) * B (k x n), all row-major, accumulated in Acc in k order.
template <typename Acc, typename A, typename B>
std::vector<Acc> Gemm(const std::vector<A>& a, const std::vector<B>& b, uint32_t m, uint32_t n,
                      uint32_t k) {
    std::vector<Acc> c(size_t(m) * n);
    for (uint32_t i = 0; i < m; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
            Acc acc{};
            for (uint32_t p = 0; p < k; ++p)
                acc += static_cast<Acc>(static_cast<float>(a[i * k + p])) *
                       static_cast<Acc>(static_cast<float>(b[p * n + j]));
            c[i * n + j] = acc;
        }
    }
    return c;
}

using openacl::test::TrapOf;

// Host-side writers of the documented layouts.
template <typename T>
void WriteZz(const LocalTensor<T>& l0a, const std::vector<T>& a, uint32_t m, uint32_t k) {
    constexpr uint32_t c0 = 32 / sizeof(T);
    uint32_t kBlocks = (k + c0 - 1) / c0;
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t p = 0; p < k; ++p)
            l0a.SetValue(((i / 16) * kBlocks + p / c0) * 16 * c0 + (i % 16) * c0 + p % c0,
                         a[i * k + p]);
}
template <typename T>
void WriteZn(const LocalTensor<T>& l0b, const std::vector<T>& b, uint32_t k, uint32_t n) {
    constexpr uint32_t c0 = 32 / sizeof(T);
    uint32_t nBlocks = (n + 15) / 16;
    for (uint32_t p = 0; p < k; ++p)
        for (uint32_t j = 0; j < n; ++j)
            l0b.SetValue(((p / c0) * nBlocks + j / 16) * c0 * 16 + (j % 16) * c0 + p % c0,
                         b[p * n + j]);
}
template <typename T>
T ReadNz(const LocalTensor<T>& l0c, uint32_t m, uint32_t i, uint32_t j) {
    uint32_t mBlocks = (m + 15) / 16;
    return l0c.GetValue(((j / 16) * mBlocks + i / 16) * 256 + (i % 16) * 16 + j % 16);
}

TEST(AscendcCube, MmadOnOneHalfFractalMatchesTheReference) {
    auto a = Random<half>(16 * 16, 1);
    auto b = Random<half>(16 * 16, 2);
    auto expected = Gemm<float>(a, b, 16, 16, 16);
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::A2> l0a;
        TBuf<TPosition::B2> l0b;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l0a, 512);
        pipe.InitBuffer(l0b, 512);
        pipe.InitBuffer(l0c, 1024);
        auto fm = l0a.Get<half>();
        auto filter = l0b.Get<half>();
        auto c = l0c.Get<float>();
        WriteZz(fm, a, 16, 16);
        WriteZn(filter, b, 16, 16);
        Mmad(c, fm, filter, MmadParams(16, 16, 16, 0, false, true));
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t j = 0; j < 16; ++j)
                ASSERT_EQ(ReadNz(c, 16, i, j), expected[i * 16 + j]) << i << "," << j;
    });
}

TEST(AscendcCube, MmadAccumulatesInt8AcrossCallsExactly) {
    constexpr uint32_t kM = 32, kN = 48, kK = 64;  // two calls of k = 32
    std::mt19937 random(7);
    std::uniform_int_distribution<int> value(-128, 127);
    std::vector<int8_t> a(kM * kK), b(kK * kN);
    for (auto& v : a)
        v = int8_t(value(random));
    for (auto& v : b)
        v = int8_t(value(random));
    std::vector<int32_t> expected(kM * kN, 0);
    for (uint32_t i = 0; i < kM; ++i)
        for (uint32_t j = 0; j < kN; ++j)
            for (uint32_t p = 0; p < kK; ++p)
                expected[i * kN + j] += int32_t(a[i * kK + p]) * int32_t(b[p * kN + j]);
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::A2> l0a;
        TBuf<TPosition::B2> l0b;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l0a, kM * 32);
        pipe.InitBuffer(l0b, 32 * kN);
        pipe.InitBuffer(l0c, kM * kN * 4);
        auto c = l0c.Get<int32_t>();
        for (uint32_t half_k = 0; half_k < 2; ++half_k) {
            std::vector<int8_t> aPart(kM * 32), bPart(32 * kN);
            for (uint32_t i = 0; i < kM; ++i)
                for (uint32_t p = 0; p < 32; ++p)
                    aPart[i * 32 + p] = a[i * kK + half_k * 32 + p];
            for (uint32_t p = 0; p < 32; ++p)
                for (uint32_t j = 0; j < kN; ++j)
                    bPart[p * kN + j] = b[(half_k * 32 + p) * kN + j];
            WriteZz(l0a.Get<int8_t>(), aPart, kM, 32);
            WriteZn(l0b.Get<int8_t>(), bPart, 32, kN);
            MmadParams params;
            params.m = kM;
            params.n = kN;
            params.k = 32;
            params.cmatrixInitVal = half_k == 0;
            Mmad(c, l0a.Get<int8_t>(), l0b.Get<int8_t>(), params);
        }
        for (uint32_t i = 0; i < kM; ++i)
            for (uint32_t j = 0; j < kN; ++j)
                ASSERT_EQ(ReadNz(c, kM, i, j), expected[i * kN + j]) << i << "," << j;
    });
}

TEST(AscendcCube, MmadWithBiasTableAddsTheBiasToEveryRow) {
    auto a = Random<float>(16 * 8, 3);
    auto b = Random<float>(8 * 16, 4);
    auto expected = Gemm<float>(a, b, 16, 16, 8);
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::A2> l0a;
        TBuf<TPosition::B2> l0b;
        TBuf<TPosition::CO1> l0c;
        TBuf<TPosition::C2> bt;
        pipe.InitBuffer(l0a, 512);
        pipe.InitBuffer(l0b, 512);
        pipe.InitBuffer(l0c, 1024);
        pipe.InitBuffer(bt, 64);
        WriteZz(l0a.Get<float>(), a, 16, 8);
        WriteZn(l0b.Get<float>(), b, 8, 16);
        auto bias = bt.Get<float>();
        for (uint32_t j = 0; j < 16; ++j)
            bias.SetValue(j, float(j) * 100.0f);
        auto c = l0c.Get<float>();
        Mmad(c, l0a.Get<float>(), l0b.Get<float>(), bias, MmadParams(16, 16, 8, 0, true, false));
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t j = 0; j < 16; ++j)
                ASSERT_EQ(ReadNz(c, 16, i, j), expected[i * 16 + j] + float(j) * 100.0f);
    });
}

TEST(AscendcCube, Nd2NzPlacesEachC0BlockOfARowInItsColumnBlockAndZeroPadsTheTail) {
    constexpr uint32_t kRows = 20, kCols = 20;  // half: C0 = 16, two column blocks
    std::vector<half> nd(kRows * kCols);
    for (uint32_t i = 0; i < nd.size(); ++i)
        nd[i] = half(float(i));
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TQue<TPosition::A1, 1> a1;
        pipe.InitBuffer(a1, 1, 32 * 32 * sizeof(half));
        GlobalTensor<half> gm;
        gm.SetGlobalBuffer(nd.data());
        auto local = a1.AllocTensor<half>();
        Duplicate(local.ReinterpretCast<uint16_t>(), uint16_t(0xffff), 32 * 32);  // garbage
        DataCopy(local, gm, Nd2NzParams(1, kRows, kCols, 0, kCols, 32, 1, 0));
        for (uint32_t r = 0; r < kRows; ++r) {
            for (uint32_t c = 0; c < 32; ++c) {
                float got = float(local.GetValue((c / 16) * 32 * 16 + r * 16 + c % 16));
                ASSERT_EQ(got, c < kCols ? float(r * kCols + c) : 0.0f) << r << "," << c;
            }
        }
        a1.FreeTensor(local);
    });
}

// GM -> A1 (ND->NZ) -> A2 (LoadData) times an identity in B2, then Fixpipe NZ->ND: the
// matrix comes back unchanged.
TEST(AscendcCube, NdToNzAndBackThroughTheCubeIsTheIdentity) {
    constexpr uint32_t kM = 21, kK = 16;
    auto a = Random<half>(kM * kK, 5);
    std::vector<float> out(kM * kK, -1.0f);
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TQue<TPosition::A1, 1> a1;
        TQue<TPosition::A2, 1> a2;
        TQue<TPosition::B2, 1> b2;
        TQue<TPosition::CO1, 1> co1;
        pipe.InitBuffer(a1, 1, 32 * 16 * 2);
        pipe.InitBuffer(a2, 1, 32 * 16 * 2);
        pipe.InitBuffer(b2, 1, 16 * 16 * 2);
        pipe.InitBuffer(co1, 1, 32 * 16 * 4);
        GlobalTensor<half> aGm;
        aGm.SetGlobalBuffer(a.data());
        GlobalTensor<float> cGm;
        cGm.SetGlobalBuffer(out.data());
        auto l1 = a1.AllocTensor<half>();
        DataCopy(l1, aGm, Nd2NzParams(1, kM, kK, 0, kK, 32, 1, 0));
        auto l0a = a2.AllocTensor<half>();
        LoadData(l0a, l1, LoadData2DParams(0, 2, 1, 0, 0, false, 0));  // 2 row blocks, 1 k block
        auto l0b = b2.AllocTensor<half>();
        InitConstValue(l0b, InitConstValueParams<half>(1, 1, 0, half(0.0f)));
        for (uint32_t d = 0; d < 16; ++d)
            l0b.SetValue(d * 16 + d, half(1.0f));
        auto l0c = co1.AllocTensor<float>();
        Mmad(l0c, l0a, l0b, MmadParams(kM, kK, kK, 0, false, true));
        FixpipeParamsV220 params(kK, kM, 32, kK, false);
        Fixpipe(cGm, l0c, params);
    });
    for (uint32_t i = 0; i < kM * kK; ++i)
        ASSERT_EQ(out[i], float(a[i])) << i;
}

TEST(AscendcCube, LoadDataTransposeTurnsAnNzBIntoZn) {
    constexpr uint32_t kK = 16, kN = 32;
    auto b = Random<half>(kK * kN, 6);
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::B1> b1;
        TBuf<TPosition::B2> b2;
        pipe.InitBuffer(b1, kK * kN * 2);
        pipe.InitBuffer(b2, kK * kN * 2);
        GlobalTensor<half> gm;
        gm.SetGlobalBuffer(b.data());
        auto l1 = b1.Get<half>();
        DataCopy(l1, gm, Nd2NzParams(1, kK, kN, 0, kN, kK, 1, 0));
        auto l0b = b2.Get<half>();
        LoadData(l0b, l1, LoadData2DParams(0, kN / 16, 1, 0, 0, true, 0));
        for (uint32_t p = 0; p < kK; ++p)
            for (uint32_t j = 0; j < kN; ++j)  // ZN: element (k, n) at n * C0 + k in its fractal
                ASSERT_EQ(l0b.GetValue((j / 16) * 256 + (j % 16) * 16 + p).bits,
                          b[p * kN + j].bits);
    });
}

TEST(AscendcCube, BLoadedWithoutTheTransposeGivesAWrongProduct) {
    constexpr uint32_t kDim = 16;
    auto a = Random<half>(kDim * kDim, 8);
    auto b = Random<half>(kDim * kDim, 9);
    auto expected = Gemm<float>(a, b, kDim, kDim, kDim);
    uint32_t mismatches = 0;
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::B1> b1;
        TBuf<TPosition::A2> a2;
        TBuf<TPosition::B2> b2;
        TBuf<TPosition::CO1> co1;
        pipe.InitBuffer(b1, 512);
        pipe.InitBuffer(a2, 512);
        pipe.InitBuffer(b2, 512);
        pipe.InitBuffer(co1, 1024);
        GlobalTensor<half> gm;
        gm.SetGlobalBuffer(b.data());
        DataCopy(b1.Get<half>(), gm, Nd2NzParams(1, kDim, kDim, 0, kDim, kDim, 1, 0));
        WriteZz(a2.Get<half>(), a, kDim, kDim);
        LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
        auto c = co1.Get<float>();
        Mmad(c, a2.Get<half>(), b2.Get<half>(), MmadParams(kDim, kDim, kDim, 0, false, true));
        for (uint32_t i = 0; i < kDim; ++i)
            for (uint32_t j = 0; j < kDim; ++j)
                mismatches += ReadNz(c, kDim, i, j) != expected[i * kDim + j];
    });
    EXPECT_GT(mismatches, 200U);  // it computes A * B^T instead
}

TEST(AscendcCube, HandTiledMatmulKernelOverSixBlocksMatchesTheReference) {
    CubeMatmulTiling tiling{45, 70, 100, 32, 32, 32};  // tails in M, N and K
    auto a = Random<half>(tiling.M * tiling.K, 10);
    auto b = Random<half>(tiling.K * tiling.N, 11);
    std::vector<float> c(tiling.M * tiling.N, -1.0f);
    auto expected = Gemm<float>(a, b, tiling.M, tiling.N, tiling.K);
    uint32_t blocks = 2 * 3;
    auto failure = openacl::test::RunBlocks(blocks, [&] {
        openacl::test::SingleInstructionTest();
        cube_matmul_custom(reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                           reinterpret_cast<GM_ADDR>(c.data()), tiling);
    });
    ASSERT_EQ(failure, "");
    // Inputs are multiples of 0.5 below 2 in magnitude: every partial sum is exact in float.
    for (uint32_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(c[i], expected[i]) << "element " << i;
}

TEST(AscendcCubeChecks, MmadNamesAnOperandInTheWrongMemory) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> ub;
        TBuf<TPosition::B2> l0b;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(ub, 512);
        pipe.InitBuffer(l0b, 512);
        pipe.InitBuffer(l0c, 1024);
        Mmad(l0c.Get<float>(), ub.Get<half>(), l0b.Get<half>(),
             MmadParams(16, 16, 16, 0, false, true));
    });
    EXPECT_NE(message.find("Mmad: fm (A) is a VECCALC tensor in the unified buffer (UB), but this "
                           "operand must be in the L0A buffer"),
              std::string::npos)
        << message;
}

TEST(AscendcCubeChecks, L0aBuffersPastItsCapacityAreRefused) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::A2, 2> a2;
        pipe.InitBuffer(a2, 2, 40 * 1024);
    });
    EXPECT_NE(message.find("but the L0A buffer has 65536 bytes"), std::string::npos) << message;
}

TEST(AscendcCubeChecks, MmadReachingPastTheL0cBufferIsRefused) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::A2> l0a;
        TBuf<TPosition::B2> l0b;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l0a, 2 * 512);
        pipe.InitBuffer(l0b, 2 * 512);
        pipe.InitBuffer(l0c, 1024);  // one fractal, but m = 32 needs two
        Mmad(l0c.Get<float>(), l0a.Get<half>(), l0b.Get<half>(),
             MmadParams(32, 16, 16, 0, false, true));
    });
    EXPECT_NE(message.find("Mmad: dst (C) needs 2048 bytes from its start but its buffer has 1024"),
              std::string::npos)
        << message;
}

TEST(AscendcCubeChecks, LoadDataIntoAnL0aAddressOffTheFractalGridIsRefused) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        TBuf<TPosition::A2> l0a;
        pipe.InitBuffer(l1, 1024);
        pipe.InitBuffer(l0a, 2048);
        LoadData(l0a.Get<half>()[16], l1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    });
    EXPECT_NE(message.find("LoadData: dst starts at byte 32 of the L0A buffer, not on a 512-byte "
                           "boundary"),
              std::string::npos)
        << message;
}

TEST(AscendcCubeChecks, Nd2NzWithOverlappingColumnBlocksIsRefused) {
    std::vector<half> nd(16 * 32);
    auto message = TrapOf([&] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        pipe.InitBuffer(l1, 4096);
        GlobalTensor<half> gm;
        gm.SetGlobalBuffer(nd.data());
        DataCopy(l1.Get<half>(), gm, Nd2NzParams(1, 16, 32, 0, 32, 8, 1, 0));
    });
    EXPECT_NE(
        message.find("dstNzC0Stride 8 puts the next C0 column block inside this one's 16 rows"),
        std::string::npos)
        << message;
}

TEST(AscendcCubeChecks, TransposingAFloatFractalIsRefused) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::B1> l1;
        TBuf<TPosition::B2> l0b;
        pipe.InitBuffer(l1, 512);
        pipe.InitBuffer(l0b, 512);
        LoadData(l0b.Get<float>(), l1.Get<float>(), LoadData2DParams(0, 1, 1, 0, 0, true, 0));
    });
    EXPECT_NE(message.find("ifTranspose transposes 16 x 16 fractals of 16-bit types only"),
              std::string::npos)
        << message;
}

TEST(AscendcCubeChecks, FixpipeWithAConversionItCannotMakeIsRefused) {
    std::vector<half> out(256);
    auto message = TrapOf([&] {
        TPipe pipe;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l0c, 1024);
        GlobalTensor<half> gm;
        gm.SetGlobalBuffer(out.data());
        Fixpipe(gm, l0c.Get<float>(), FixpipeParamsV220(16, 16, 16, 16, false));  // NoQuant
    });
    EXPECT_NE(message.find("Fixpipe: quantPre 0 does not convert a 4-byte CO1 element to a 2-byte"),
              std::string::npos)
        << message;
}

TEST(AscendcCube, FixpipeF322F16RoundsTheResultsToHalf) {
    std::vector<half> out(16 * 16);
    openacl::test::RunOneBlock([&] {
        openacl::test::SingleInstructionTest();
        TPipe pipe;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l0c, 1024);
        auto c = l0c.Get<float>();
        for (uint32_t i = 0; i < 256; ++i)
            c.SetValue(i, 1.0f + float(i) / 3.0f);
        GlobalTensor<half> gm;
        gm.SetGlobalBuffer(out.data());
        FixpipeParamsV220 params(16, 16, 16, 16, false);
        params.quantPre = QuantMode_t::F322F16;
        Fixpipe(gm, c, params);
    });
    for (uint32_t i = 0; i < 256; ++i)
        ASSERT_EQ(out[i].bits, half(1.0f + float(i) / 3.0f).bits);
}

}  // namespace
