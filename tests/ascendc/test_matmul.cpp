// The high-level Matmul API: kernels written as CANN's matmul samples write them, over several
// blocks that split M and N, with tails, bias and transposes, checked against a plain GEMM.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "block_runner.h"
#include "kernels/cube_kernels.h"
#include "lib/matmul_intf.h"

namespace {

// A multi-core tiling as the host's MultiCoreMatmulTiling lays it out: mDim x nDim cores, each
// with a singleCoreM x singleCoreN part, computed in baseM x baseN x baseK blocks.
TCubeTiling MakeTiling(int m, int n, int k, int mDim, int nDim, int baseM, int baseN, int baseK,
                       bool bias) {
    TCubeTiling t;
    t.M = m;
    t.N = n;
    t.Ka = t.Kb = k;
    t.singleCoreM = (m + mDim - 1) / mDim;
    t.singleCoreN = (n + nDim - 1) / nDim;
    t.singleCoreK = k;
    t.usedCoreNum =
        ((m + t.singleCoreM - 1) / t.singleCoreM) * ((n + t.singleCoreN - 1) / t.singleCoreN);
    t.baseM = baseM;
    t.baseN = baseN;
    t.baseK = baseK;
    t.depthA1 = t.depthB1 = 2;
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
    t.dbL0A = t.dbL0B = 2;
    t.dbL0C = 1;
    t.isBias = bias ? 1 : 0;
    return t;
}

template <typename T>
std::vector<T> Random(size_t n, unsigned seed, float scale = 0.25f) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> value(-8, 8);
    std::vector<T> data(n);
    for (auto& v : data)
        v = T(static_cast<float>(value(random)) * scale);
    return data;
}

// C = op(A) * op(B) + bias in double; A is m x k (k x m when transA), B is k x n (n x k).
template <typename A, typename B, typename Bias>
std::vector<double> Reference(const std::vector<A>& a, const std::vector<B>& b,
                              const std::vector<Bias>* bias, int m, int n, int k, bool transA,
                              bool transB) {
    std::vector<double> c(size_t(m) * n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double acc = bias ? double(float((*bias)[j])) : 0.0;
            for (int p = 0; p < k; ++p)
                acc += double(float(transA ? a[p * m + i] : a[i * k + p])) *
                       double(float(transB ? b[j * k + p] : b[p * n + j]));
            c[size_t(i) * n + j] = acc;
        }
    return c;
}

struct Launch {
    TCubeTiling tiling;
    std::vector<uint8_t> workspace = std::vector<uint8_t>(1024);
};

template <typename Kernel>
std::string RunOn(const TCubeTiling& tiling, Kernel kernel) {
    return openacl::test::RunBlocks(uint32_t(tiling.usedCoreNum), kernel);
}

#define GM(v) reinterpret_cast<GM_ADDR>((v).data())

TEST(AscendcMatmul, HalfWithBiasOverSixBlocksWithTailsMatchesTheReference) {
    const int m = 100, n = 90, k = 70;  // no dimension a multiple of 16
    TCubeTiling tiling = MakeTiling(m, n, k, 2, 3, 32, 16, 32, true);
    ASSERT_EQ(tiling.usedCoreNum, 6);
    auto a = Random<half>(m * k, 1);
    auto b = Random<half>(k * n, 2);
    auto bias = Random<float>(n, 3, 1.0f);
    std::vector<float> c(m * n, -99.0f);
    std::vector<uint8_t> workspace(1024);
    auto failure = RunOn(tiling, [&] {
        matmul_half_custom(GM(a), GM(b), GM(bias), GM(c), GM(workspace),
                           reinterpret_cast<GM_ADDR>(&tiling));
    });
    ASSERT_EQ(failure, "");
    auto expected = Reference(a, b, &bias, m, n, k, false, false);
    // Products of quarter-integers sum exactly in float here.
    for (size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(double(c[i]), expected[i]) << "element " << i;
}

TEST(AscendcMatmul, TransposedHalfInputsWithHalfOutputMatchWithinHalfRounding) {
    const int m = 33, n = 47, k = 129;
    TCubeTiling tiling = MakeTiling(m, n, k, 2, 2, 16, 32, 64, true);
    auto a = Random<half>(k * m, 4);  // stored k x m
    auto b = Random<half>(n * k, 5);  // stored n x k
    auto bias = Random<half>(n, 6, 1.0f);
    std::vector<half> c(m * n, half(-99.0f));
    std::vector<uint8_t> workspace(1024);
    auto failure = RunOn(tiling, [&] {
        matmul_half_trans_custom(GM(a), GM(b), GM(bias), GM(c), GM(workspace),
                                 reinterpret_cast<GM_ADDR>(&tiling));
    });
    ASSERT_EQ(failure, "");
    auto expected = Reference(a, b, &bias, m, n, k, true, true);
    // The float result is rounded once to half: within half an ulp of half (2^-11 relative).
    for (size_t i = 0; i < c.size(); ++i) {
        double tolerance = std::max(std::abs(expected[i]) * std::ldexp(1.0, -11), 1e-3);
        ASSERT_NEAR(double(float(c[i])), expected[i], tolerance) << "element " << i;
    }
}

TEST(AscendcMatmul, Int8ToInt32WithMdlConfigIsExact) {
    const int m = 64, n = 50, k = 100;
    TCubeTiling tiling = MakeTiling(m, n, k, 4, 1, 16, 64, 64, true);
    std::mt19937 random(7);
    std::uniform_int_distribution<int> value(-128, 127);
    std::vector<int8_t> a(m * k), b(k * n);
    for (auto& v : a)
        v = int8_t(value(random));
    for (auto& v : b)
        v = int8_t(value(random));
    std::vector<int32_t> bias(n);
    for (int j = 0; j < n; ++j)
        bias[j] = j * 1000 - 7;
    std::vector<int32_t> c(m * n, -1);
    std::vector<uint8_t> workspace(1024);
    auto failure = RunOn(tiling, [&] {
        matmul_int8_custom(GM(a), GM(b), GM(bias), GM(c), GM(workspace),
                           reinterpret_cast<GM_ADDR>(&tiling));
    });
    ASSERT_EQ(failure, "");
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            int32_t expected = bias[j];
            for (int p = 0; p < k; ++p)
                expected += int32_t(a[i * k + p]) * int32_t(b[p * n + j]);
            ASSERT_EQ(c[i * n + j], expected) << i << "," << j;
        }
}

TEST(AscendcMatmul, IterateAndGetTensorCWithoutBiasCoverEveryBlock) {
    const int m = 40, n = 72, k = 24;
    TCubeTiling tiling = MakeTiling(m, n, k, 1, 2, 16, 16, 16, false);
    auto a = Random<bfloat16_t>(m * k, 8);
    auto b = Random<bfloat16_t>(k * n, 9);
    std::vector<float> c(m * n, -99.0f);
    std::vector<uint8_t> workspace(1024);
    auto failure = RunOn(tiling, [&] {
        matmul_iterate_custom(GM(a), GM(b), nullptr, GM(c), GM(workspace),
                              reinterpret_cast<GM_ADDR>(&tiling));
    });
    ASSERT_EQ(failure, "");
    auto expected = Reference<bfloat16_t, bfloat16_t, float>(a, b, nullptr, m, n, k, false, false);
    for (size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(double(c[i]), expected[i]) << "element " << i;
}

using openacl::test::TrapOf;

using HalfMatmul =
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>;

TEST(AscendcMatmulChecks, ATilingTooLargeForL0cNamesTheBufferAndTheBytes) {
    TCubeTiling tiling = MakeTiling(512, 512, 64, 1, 1, 256, 256, 64, false);  // 256 KiB of CO1
    auto message = TrapOf([&] {
        AscendC::TPipe pipe;
        HalfMatmul mm;
        REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    });
    EXPECT_NE(message.find("Matmul::Init: the tiling's CO1 (dbL0C x baseM x baseN) needs 262144 "
                           "bytes but the L0C buffer has 131072 left"),
              std::string::npos)
        << message;
}

TEST(AscendcMatmulChecks, IterateWithoutTensorBNamesTheMissingMatrix) {
    TCubeTiling tiling = MakeTiling(16, 16, 16, 1, 1, 16, 16, 16, false);
    std::vector<half> a(256);
    auto message = TrapOf([&] {
        AscendC::TPipe pipe;
        HalfMatmul mm;
        REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
        AscendC::GlobalTensor<half> gm;
        gm.SetGlobalBuffer(a.data());
        mm.SetTensorA(gm);
        mm.Iterate();
    });
    EXPECT_NE(message.find("Matmul::Iterate: no B matrix: call SetTensorA and SetTensorB first"),
              std::string::npos)
        << message;
}

TEST(AscendcMatmulChecks, AnEmptyTilingIsRefusedAtInit) {
    TCubeTiling tiling;  // never filled by GetTiling
    auto message = TrapOf([&] {
        AscendC::TPipe pipe;
        HalfMatmul mm;
        mm.Init(&tiling, &pipe);
    });
    EXPECT_NE(message.find("Matmul::Init: the tiling's M, N, Ka and Kb must be positive"),
              std::string::npos)
        << message;
}

TEST(AscendcMatmul, IterateAllToALocalTensorWritesSingleMRowsOfSingleN) {
    TCubeTiling tiling = MakeTiling(20, 24, 16, 1, 1, 16, 16, 16, false);
    auto a = Random<half>(20 * 16, 10);
    auto b = Random<half>(16 * 24, 11);
    auto expected = Reference<half, half, float>(a, b, nullptr, 20, 24, 16, false, false);
    openacl::test::RunOneBlock([&] {
        AscendC::TPipe pipe;
        HalfMatmul mm;
        REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
        AscendC::TBuf<AscendC::TPosition::VECIN> ub;
        pipe.InitBuffer(ub, 20 * 24 * sizeof(float));
        AscendC::GlobalTensor<half> aGm, bGm;
        aGm.SetGlobalBuffer(a.data());
        bGm.SetGlobalBuffer(b.data());
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        auto c = ub.Get<float>();
        mm.IterateAll(c);
        mm.End();
        for (int i = 0; i < 20 * 24; ++i)
            ASSERT_EQ(double(c.GetValue(i)), expected[i]) << i;
    });
}

}  // namespace
