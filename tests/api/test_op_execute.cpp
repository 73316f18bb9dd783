// acl_op_compiler.h: aclopCompileAndExecute runs each operator type openacl plans on its
// operator library; results are checked against plain C++ references of the same inputs.
// One behaviour per test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "op_test_support.h"
#include "recorded_error.h"
#include "test_support.h"

namespace {

class OpExecute : public DeviceTest {
 protected:
    std::vector<float> Random(size_t n, float lo = -2.0f, float hi = 2.0f) {
        std::uniform_real_distribution<float> dist(lo, hi);
        std::vector<float> v(n);
        for (float& x : v)
            x = dist(rng_);
        return v;
    }
    std::mt19937 rng_{7};
};

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], tol * std::max(1.0f, std::fabs(want[i]))) << "at " << i;
}

TEST_F(OpExecute, AddBroadcastsARowOverAMatrix) {
    const auto a = Random(6), b = Random(3);
    OpTensor x1(ACL_FLOAT, {2, 3}, a), x2(ACL_FLOAT, {3}, b), y(ACL_FLOAT, {2, 3}, 6, 4);
    ASSERT_EQ(CompileAndRun("Add", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> want(6);
    for (int i = 0; i < 6; ++i)
        want[i] = a[i] + b[i % 3];
    ExpectNear(y.Read<float>(), want);
}

TEST_F(OpExecute, ArithmeticTypesMatchTheirReferences) {
    const auto a = Random(8), b = Random(8, 0.5f, 2.0f);
    struct Case {
        const char* type;
        float (*ref)(float, float);
    };
    const Case cases[] = {
        {"Sub", [](float x, float y) { return x - y; }},
        {"Mul", [](float x, float y) { return x * y; }},
        {"RealDiv", [](float x, float y) { return x / y; }},
        {"Div", [](float x, float y) { return x / y; }},
        {"Maximum", [](float x, float y) { return std::max(x, y); }},
        {"Minimum", [](float x, float y) { return std::min(x, y); }},
        {"SquaredDifference", [](float x, float y) { return (x - y) * (x - y); }},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.type);
        OpTensor x1(ACL_FLOAT, {8}, a), x2(ACL_FLOAT, {8}, b), y(ACL_FLOAT, {8}, 8, 4);
        ASSERT_EQ(CompileAndRun(c.type, {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<float> want(8);
        for (int i = 0; i < 8; ++i)
            want[i] = c.ref(a[i], b[i]);
        ExpectNear(y.Read<float>(), want);
    }
}

TEST_F(OpExecute, IntegerDivTruncatesTowardZero) {
    OpTensor x1(ACL_INT32, {4}, std::vector<int32_t>{7, -7, 9, -9});
    OpTensor x2(ACL_INT32, {4}, std::vector<int32_t>{2, 2, -4, -4});
    OpTensor y(ACL_INT32, {4}, 4, 4);
    ASSERT_EQ(CompileAndRun("Div", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{3, -3, -2, 2}));
}

TEST_F(OpExecute, ComparisonsWriteBools) {
    OpTensor x1(ACL_FLOAT, {4}, std::vector<float>{1, 2, 3, 4});
    OpTensor x2(ACL_FLOAT, {4}, std::vector<float>{2, 2, 2, 2});
    const std::pair<const char*, std::vector<uint8_t>> cases[] = {
        {"Less", {1, 0, 0, 0}},         {"LessEqual", {1, 1, 0, 0}}, {"Greater", {0, 0, 1, 1}},
        {"GreaterEqual", {0, 1, 1, 1}}, {"Equal", {0, 1, 0, 0}},     {"NotEqual", {1, 0, 1, 1}},
    };
    for (const auto& [type, want] : cases) {
        SCOPED_TRACE(type);
        OpTensor y(ACL_BOOL, {4}, 4, 1);
        ASSERT_EQ(CompileAndRun(type, {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(y.Read<uint8_t>(), want);
    }
}

TEST_F(OpExecute, UnaryTypesMatchTheirReferences) {
    const auto a = Random(10, 0.1f, 3.0f);
    struct Case {
        const char* type;
        float (*ref)(float);
    };
    const Case cases[] = {
        {"Relu", [](float x) { return std::max(x, 0.0f); }},
        {"Exp", [](float x) { return std::exp(x); }},
        {"Log", [](float x) { return std::log(x); }},
        {"Sqrt", [](float x) { return std::sqrt(x); }},
        {"Rsqrt", [](float x) { return 1.0f / std::sqrt(x); }},
        {"Abs", [](float x) { return std::fabs(x); }},
        {"Neg", [](float x) { return -x; }},
        {"Square", [](float x) { return x * x; }},
        {"Reciprocal", [](float x) { return 1.0f / x; }},
        {"Sigmoid", [](float x) { return 1.0f / (1.0f + std::exp(-x)); }},
        {"Tanh", [](float x) { return std::tanh(x); }},
        {"Sin", [](float x) { return std::sin(x); }},
        {"Identity", [](float x) { return x; }},
        {"ZerosLike", [](float) { return 0.0f; }},
        {"OnesLike", [](float) { return 1.0f; }},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.type);
        // Relu of x - 1, so that both signs occur.
        std::vector<float> in = a;
        if (std::string(c.type) == "Relu") {
            for (float& v : in)
                v -= 1.0f;
        }
        OpTensor x(ACL_FLOAT, {2, 5}, in), y(ACL_FLOAT, {2, 5}, 10, 4);
        ASSERT_EQ(CompileAndRun(c.type, {&x}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<float> want(10);
        for (int i = 0; i < 10; ++i)
            want[i] = c.ref(in[i]);
        ExpectNear(y.Read<float>(), want, 1e-5f);
    }
}

TEST_F(OpExecute, LeakyReluTakesItsSlopeAttribute) {
    OpTensor x(ACL_FLOAT, {4}, std::vector<float>{-2, -1, 1, 2}), y(ACL_FLOAT, {4}, 4, 4);
    OpAttr attr;
    attr.Float("negative_slope", 0.25f);
    ASSERT_EQ(CompileAndRun("LeakyRelu", {&x}, {&y}, attr.get()), ACL_SUCCESS);
    ExpectNear(y.Read<float>(), {-0.5f, -0.25f, 1, 2});
}

TEST_F(OpExecute, CastConvertsToTheOutputType) {
    OpTensor x(ACL_FLOAT, {3}, std::vector<float>{1.5f, -2.75f, 1000.0f});
    OpTensor y(ACL_FLOAT16, {3}, 3, 2);
    OpAttr attr;
    attr.Int("dst_type", ACL_FLOAT16);
    ASSERT_EQ(CompileAndRun("Cast", {&x}, {&y}, attr.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto halves = y.Read<aclFloat16>();
    EXPECT_EQ(aclFloat16ToFloat(halves[0]), 1.5f);
    EXPECT_EQ(aclFloat16ToFloat(halves[1]), -2.75f);
    EXPECT_EQ(aclFloat16ToFloat(halves[2]), 1000.0f);
}

TEST_F(OpExecute, CastRefusesADstTypeOtherThanTheOutputs) {
    OpTensor x(ACL_FLOAT, {3}, 3, 4), y(ACL_FLOAT16, {3}, 3, 2);
    OpAttr attr;
    attr.Int("dst_type", ACL_INT32);
    EXPECT_EQ(CompileAndRun("Cast", {&x}, {&y}, attr.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dst_type"), std::string::npos);
}

TEST_F(OpExecute, MatMulTransposesThroughItsAttributesAndAddsTheBias) {
    const int m = 3, k = 4, n = 2;
    const auto a = Random(m * k), b = Random(k * n), bias = Random(n);
    // x1 stored k x m (transpose_x1), x2 stored n x k (transpose_x2).
    OpTensor x1(ACL_FLOAT, {k, m}, a), x2(ACL_FLOAT, {n, k}, b), bb(ACL_FLOAT, {n}, bias);
    OpTensor y(ACL_FLOAT, {m, n}, m * n, 4);
    OpAttr attr;
    attr.Bool("transpose_x1", true).Bool("transpose_x2", true);
    ASSERT_EQ(CompileAndRun("MatMulV2", {&x1, &x2, &bb}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> want(m * n);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            float s = bias[j];
            for (int p = 0; p < k; ++p)
                s += a[p * m + i] * b[j * k + p];
            want[i * n + j] = s;
        }
    }
    ExpectNear(y.Read<float>(), want, 1e-4f);
}

TEST_F(OpExecute, BatchMatMulBroadcastsItsBatchDimensions) {
    const int m = 2, k = 3, n = 2;
    const auto a = Random(2 * m * k), b = Random(k * n);
    OpTensor x1(ACL_FLOAT, {2, m, k}, a), x2(ACL_FLOAT, {1, n, k}, b);
    OpTensor y(ACL_FLOAT, {2, m, n}, 2 * m * n, 4);
    OpAttr attr;
    attr.Bool("adj_x2", true);
    ASSERT_EQ(CompileAndRun("BatchMatMul", {&x1, &x2}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> want(2 * m * n);
    for (int batch = 0; batch < 2; ++batch) {
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) {
                float s = 0;
                for (int p = 0; p < k; ++p)
                    s += a[batch * m * k + i * k + p] * b[j * k + p];
                want[batch * m * n + i * n + j] = s;
            }
        }
    }
    ExpectNear(y.Read<float>(), want, 1e-4f);
}

TEST_F(OpExecute, TransposeReadsItsPermFromHostMemory) {
    std::vector<float> a(24);
    std::iota(a.begin(), a.end(), 0.0f);
    OpTensor x(ACL_FLOAT, {2, 3, 4}, a);
    OpTensor perm(ACL_INT64, {3}, std::vector<int64_t>{2, 0, 1}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_FLOAT, {4, 2, 3}, 24, 4);
    ASSERT_EQ(CompileAndRun("Transpose", {&x, &perm}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto got = y.Read<float>();
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            for (int l = 0; l < 3; ++l)
                EXPECT_EQ(got[i * 6 + j * 3 + l], a[j * 12 + l * 4 + i]);
}

TEST_F(OpExecute, TransposeTakesAConstantPerm) {
    OpTensor x(ACL_INT32, {2, 3}, std::vector<int32_t>{1, 2, 3, 4, 5, 6});
    const std::vector<int32_t> values = {1, 0};
    OpTensor perm(ACL_INT32, {2}, values);
    ASSERT_EQ(aclSetTensorConst(perm.desc(), const_cast<int32_t*>(values.data()), 8), ACL_SUCCESS);
    OpTensor y(ACL_INT32, {3, 2}, 6, 4);
    ASSERT_EQ(CompileAndRun("Transpose", {&x, &perm}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
}

TEST_F(OpExecute, TransposeRefusesAPermInDeviceMemory) {
    OpTensor x(ACL_FLOAT, {2, 3}, 6, 4), y(ACL_FLOAT, {3, 2}, 6, 4);
    OpTensor perm(ACL_INT32, {2}, std::vector<int32_t>{1, 0});
    EXPECT_EQ(CompileAndRun("Transpose", {&x, &perm}, {&y}), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclSetTensorConst"), std::string::npos);
}

TEST_F(OpExecute, FillRepeatsItsValueOverTheGivenDims) {
    OpTensor dims(ACL_INT32, {2}, std::vector<int32_t>{2, 3}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor value(ACL_FLOAT, {}, std::vector<float>{2.5f});
    OpTensor y(ACL_FLOAT, {2, 3}, 6, 4);
    ASSERT_EQ(CompileAndRun("Fill", {&dims, &value}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), std::vector<float>(6, 2.5f));
}

TEST_F(OpExecute, BroadcastToCopiesAlongTheNewDimensions) {
    OpTensor x(ACL_FLOAT, {3, 1}, std::vector<float>{1, 2, 3});
    OpTensor shape(ACL_INT64, {2}, std::vector<int64_t>{3, 2}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_FLOAT, {3, 2}, 6, 4);
    ASSERT_EQ(CompileAndRun("BroadcastTo", {&x, &shape}, {&y}), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{1, 1, 2, 2, 3, 3}));
}

TEST_F(OpExecute, SliceCopiesAWindow) {
    std::vector<int32_t> a(12);
    std::iota(a.begin(), a.end(), 0);
    OpTensor x(ACL_INT32, {3, 4}, a);
    OpTensor offsets(ACL_INT64, {2}, std::vector<int64_t>{1, 1}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor size(ACL_INT64, {2}, std::vector<int64_t>{2, -1}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_INT32, {2, 3}, 6, 4);
    ASSERT_EQ(CompileAndRun("Slice", {&x, &offsets, &size}, {&y}), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{5, 6, 7, 9, 10, 11}));
}

TEST_F(OpExecute, StridedSliceStepsAndShrinks) {
    std::vector<int32_t> a(12);
    std::iota(a.begin(), a.end(), 0);
    OpTensor x(ACL_INT32, {3, 4}, a);
    auto host = [](std::vector<int64_t> v) {
        return std::make_unique<OpTensor>(ACL_INT64, std::vector<int64_t>{2}, v, ACL_FORMAT_ND,
                                          ACL_MEMTYPE_HOST);
    };
    auto begin = host({1, 0}), end = host({2, 4}), strides = host({1, 2});
    OpTensor y(ACL_INT32, {2}, 2, 4);
    OpAttr attr;
    attr.Int("shrink_axis_mask", 1);  // row 1 only, as a vector
    ASSERT_EQ(CompileAndRun("StridedSlice", {&x, begin.get(), end.get(), strides.get()}, {&y},
                            attr.get()),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{4, 6}));
}

TEST_F(OpExecute, ReduceSumKeepsOrDropsTheReducedAxes) {
    std::vector<float> a(24);
    std::iota(a.begin(), a.end(), 0.0f);
    OpTensor x(ACL_FLOAT, {2, 3, 4}, a);
    OpTensor axes(ACL_INT32, {2}, std::vector<int32_t>{0, -1}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_FLOAT, {1, 3, 1}, 3, 4);
    OpAttr attr;
    attr.Bool("keep_dims", true);
    ASSERT_EQ(CompileAndRun("ReduceSum", {&x, &axes}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> want(3, 0.0f);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int l = 0; l < 4; ++l)
                want[j] += a[i * 12 + j * 4 + l];
    ExpectNear(y.Read<float>(), want);
}

TEST_F(OpExecute, ReduceMeanDTakesItsAxesAsAnAttribute) {
    OpTensor x(ACL_FLOAT, {2, 2}, std::vector<float>{1, 2, 3, 5});
    OpTensor y(ACL_FLOAT, {2}, 2, 4);
    OpAttr attr;
    attr.Ints("axes", {1});
    ASSERT_EQ(CompileAndRun("ReduceMeanD", {&x}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectNear(y.Read<float>(), {1.5f, 4.0f});
}

TEST_F(OpExecute, ConcatDJoinsItsDynamicInputs) {
    OpTensor a(ACL_FLOAT, {2, 1}, std::vector<float>{1, 2});
    OpTensor b(ACL_FLOAT, {2, 2}, std::vector<float>{3, 4, 5, 6});
    OpTensor c(ACL_FLOAT, {2, 1}, std::vector<float>{7, 8});
    OpTensor y(ACL_FLOAT, {2, 4}, 8, 4);
    OpAttr attr;
    attr.Int("concat_dim", 1).Int("N", 3);
    ASSERT_EQ(CompileAndRun("ConcatD", {&a, &b, &c}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{1, 3, 4, 7, 2, 5, 6, 8}));
}

TEST_F(OpExecute, ConcatV2TakesItsAxisAsTheLastInput) {
    OpTensor a(ACL_INT32, {1, 2}, std::vector<int32_t>{1, 2});
    OpTensor b(ACL_INT32, {1, 2}, std::vector<int32_t>{3, 4});
    OpTensor axis(ACL_INT32, {}, std::vector<int32_t>{0}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_INT32, {2, 2}, 4, 4);
    ASSERT_EQ(CompileAndRun("ConcatV2", {&a, &b, &axis}, {&y}), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST_F(OpExecute, GatherV2PicksRowsAlongTheAxis) {
    OpTensor x(ACL_FLOAT, {3, 2}, std::vector<float>{1, 2, 3, 4, 5, 6});
    OpTensor indices(ACL_INT32, {2}, std::vector<int32_t>{2, 0});
    OpTensor axis(ACL_INT32, {1}, std::vector<int32_t>{0}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_FLOAT, {2, 2}, 4, 4);
    ASSERT_EQ(CompileAndRun("GatherV2", {&x, &indices, &axis}, {&y}), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{5, 6, 1, 2}));
}

TEST_F(OpExecute, SoftmaxV2NormalisesTheLastAxis) {
    const auto a = Random(6);
    OpTensor x(ACL_FLOAT, {2, 3}, a), y(ACL_FLOAT, {2, 3}, 6, 4);
    ASSERT_EQ(CompileAndRun("SoftmaxV2", {&x}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> want(6);
    for (int r = 0; r < 2; ++r) {
        float sum = 0;
        for (int c = 0; c < 3; ++c)
            sum += std::exp(a[r * 3 + c]);
        for (int c = 0; c < 3; ++c)
            want[r * 3 + c] = std::exp(a[r * 3 + c]) / sum;
    }
    ExpectNear(y.Read<float>(), want);
}

// A plain NCHW convolution reference (one group).
std::vector<float> ConvNchw(const std::vector<float>& x, const std::vector<float>& w, int n, int c,
                            int h, int wd, int co, int kh, int kw, int stride, int pt, int pl,
                            int ho, int wo) {
    std::vector<float> y(static_cast<size_t>(n * co * ho * wo), 0.0f);
    for (int b = 0; b < n; ++b)
        for (int o = 0; o < co; ++o)
            for (int i = 0; i < ho; ++i)
                for (int j = 0; j < wo; ++j) {
                    float s = 0;
                    for (int ci = 0; ci < c; ++ci)
                        for (int u = 0; u < kh; ++u)
                            for (int v = 0; v < kw; ++v) {
                                const int r = i * stride - pt + u, q = j * stride - pl + v;
                                if (r < 0 || r >= h || q < 0 || q >= wd) continue;
                                s += x[((b * c + ci) * h + r) * wd + q] *
                                     w[((o * c + ci) * kh + u) * kw + v];
                            }
                    y[((b * co + o) * ho + i) * wo + j] = s;
                }
    return y;
}

TEST_F(OpExecute, Conv2DTakesNchwDataWithAsymmetricPads) {
    const int n = 1, c = 2, h = 5, w = 5, co = 3, k = 3;
    const auto x = Random(n * c * h * w), wt = Random(co * c * k * k);
    // pads top 1, bottom 0, left 1, right 1; stride 2: ho = (5 + 1 - 3) / 2 + 1 = 2, wo = 3.
    OpTensor xt(ACL_FLOAT, {n, c, h, w}, x, ACL_FORMAT_NCHW);
    OpTensor ft(ACL_FLOAT, {co, c, k, k}, wt, ACL_FORMAT_NCHW);
    OpTensor y(ACL_FLOAT, {n, co, 2, 3}, n * co * 6, 4, ACL_FORMAT_NCHW);
    OpAttr attr;
    attr.Ints("strides", {1, 1, 2, 2}).Ints("pads", {1, 0, 1, 1}).String("data_format", "NCHW");
    ASSERT_EQ(CompileAndRun("Conv2D", {&xt, &ft}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectNear(y.Read<float>(), ConvNchw(x, wt, n, c, h, w, co, k, k, 2, 1, 1, 2, 3), 1e-4f);
}

TEST_F(OpExecute, Conv2DTakesNhwcDataAndAnHwcnFilter) {
    const int c = 2, h = 4, w = 4, co = 2, k = 3;
    const auto x = Random(c * h * w), wt = Random(co * c * k * k);
    // The same data in NHWC and the same filter in HWCN.
    std::vector<float> x_nhwc(x.size()), w_hwcn(wt.size());
    for (int ci = 0; ci < c; ++ci)
        for (int i = 0; i < h; ++i)
            for (int j = 0; j < w; ++j)
                x_nhwc[(i * w + j) * c + ci] = x[(ci * h + i) * w + j];
    for (int o = 0; o < co; ++o)
        for (int ci = 0; ci < c; ++ci)
            for (int u = 0; u < k; ++u)
                for (int v = 0; v < k; ++v)
                    w_hwcn[((u * k + v) * c + ci) * co + o] = wt[((o * c + ci) * k + u) * k + v];
    OpTensor xt(ACL_FLOAT, {1, h, w, c}, x_nhwc, ACL_FORMAT_NHWC);
    OpTensor ft(ACL_FLOAT, {k, k, c, co}, w_hwcn, ACL_FORMAT_HWCN);
    OpTensor y(ACL_FLOAT, {1, h, w, co}, h * w * co, 4, ACL_FORMAT_NHWC);
    OpAttr attr;
    attr.Ints("strides", {1, 1, 1, 1}).Ints("pads", {1, 1, 1, 1}).String("data_format", "NHWC");
    ASSERT_EQ(CompileAndRun("Conv2D", {&xt, &ft}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    const auto nchw = ConvNchw(x, wt, 1, c, h, w, co, k, k, 1, 1, 1, h, w);
    std::vector<float> want(nchw.size());
    for (int o = 0; o < co; ++o)
        for (int i = 0; i < h; ++i)
            for (int j = 0; j < w; ++j)
                want[(i * w + j) * co + o] = nchw[(o * h + i) * w + j];
    ExpectNear(y.Read<float>(), want, 1e-4f);
}

TEST_F(OpExecute, SplitDWritesEachPieceToItsOutput) {
    OpTensor x(ACL_INT32, {2, 4}, std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8});
    OpTensor y0(ACL_INT32, {2, 2}, 4, 4), y1(ACL_INT32, {2, 2}, 4, 4);
    OpAttr attr;
    attr.Int("split_dim", 1).Int("num_split", 2);
    ASSERT_EQ(CompileAndRun("SplitD", {&x}, {&y0, &y1}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y0.Read<int32_t>(), (std::vector<int32_t>{1, 2, 5, 6}));
    EXPECT_EQ(y1.Read<int32_t>(), (std::vector<int32_t>{3, 4, 7, 8}));
}

TEST_F(OpExecute, PackStacksAlongANewAxis) {
    OpTensor a(ACL_INT32, {2}, std::vector<int32_t>{1, 2}),
        b(ACL_INT32, {2}, std::vector<int32_t>{3, 4});
    OpTensor y(ACL_INT32, {2, 2}, 4, 4);
    OpAttr attr;
    attr.Int("axis", 1).Int("N", 2);
    ASSERT_EQ(CompileAndRun("Pack", {&a, &b}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{1, 3, 2, 4}));
}

TEST_F(OpExecute, TileRepeatsByItsMultiples) {
    OpTensor x(ACL_INT32, {2}, std::vector<int32_t>{1, 2});
    OpTensor multiples(ACL_INT32, {2}, std::vector<int32_t>{2, 2}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_INT32, {2, 4}, 8, 4);
    ASSERT_EQ(CompileAndRun("Tile", {&x, &multiples}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{1, 2, 1, 2, 1, 2, 1, 2}));
}

TEST_F(OpExecute, TransDataTurnsNchwIntoNhwc) {
    OpTensor x(ACL_FLOAT, {1, 2, 1, 3}, std::vector<float>{1, 2, 3, 4, 5, 6}, ACL_FORMAT_NCHW);
    OpTensor y(ACL_FLOAT, {1, 1, 3, 2}, 6, 4, ACL_FORMAT_NHWC);
    OpAttr attr;
    attr.String("src_format", "NCHW").String("dst_format", "NHWC");
    ASSERT_EQ(CompileAndRun("TransData", {&x}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST_F(OpExecute, TransDataToAStorageFormatIsFormatNotMatch) {
    OpTensor x(ACL_FLOAT16, {1, 16, 2, 2}, 64, 2, ACL_FORMAT_NCHW);
    OpTensor y(ACL_FLOAT16, {1, 1, 2, 2, 16}, 64, 2, ACL_FORMAT_NC1HWC0);
    EXPECT_EQ(CompileAndRun("TransData", {&x}, {&y}), ACL_ERROR_FORMAT_NOT_MATCH);
}

TEST_F(OpExecute, ReshapeInfersItsMinusOneEntry) {
    OpTensor x(ACL_FLOAT, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
    OpTensor shape(ACL_INT64, {2}, std::vector<int64_t>{3, -1}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_FLOAT, {3, 2}, 6, 4);
    ASSERT_EQ(CompileAndRun("Reshape", {&x, &shape}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST_F(OpExecute, SelectPicksFromTheFirstWhereTheConditionHolds) {
    OpTensor cond(ACL_BOOL, {4}, std::vector<uint8_t>{1, 0, 0, 1});
    OpTensor x1(ACL_FLOAT, {4}, std::vector<float>{1, 2, 3, 4});
    OpTensor x2(ACL_FLOAT, {4}, std::vector<float>{-1, -2, -3, -4});
    OpTensor y(ACL_FLOAT, {4}, 4, 4);
    ASSERT_EQ(CompileAndRun("Select", {&cond, &x1, &x2}, {&y}), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{1, -2, -3, 4}));
}

TEST_F(OpExecute, AddNSumsEveryInput) {
    OpTensor a(ACL_FLOAT, {2}, std::vector<float>{1, 2}),
        b(ACL_FLOAT, {2}, std::vector<float>{3, 4});
    OpTensor c(ACL_FLOAT, {2}, std::vector<float>{5, 6}), y(ACL_FLOAT, {2}, 2, 4);
    OpAttr attr;
    attr.Int("N", 3);
    ASSERT_EQ(CompileAndRun("AddN", {&a, &b, &c}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{9, 12}));
}

TEST_F(OpExecute, GemmScalesWithAlphaAndBetaFromDeviceMemory) {
    const int m = 2, n = 3, k = 4;
    std::vector<aclFloat16> a(m * k), b(k * n), c(m * n);
    const auto fa = Random(m * k), fb = Random(k * n), fc = Random(m * n);
    for (int i = 0; i < m * k; ++i)
        a[i] = aclFloatToFloat16(fa[i]);
    for (int i = 0; i < k * n; ++i)
        b[i] = aclFloatToFloat16(fb[i]);
    for (int i = 0; i < m * n; ++i)
        c[i] = aclFloatToFloat16(fc[i]);
    OpTensor ta(ACL_FLOAT16, {m, k}, a), tb(ACL_FLOAT16, {k, n}, b), tc(ACL_FLOAT16, {m, n}, c);
    OpTensor alpha(ACL_FLOAT16, {}, std::vector<aclFloat16>{aclFloatToFloat16(2.0f)});
    OpTensor beta(ACL_FLOAT16, {}, std::vector<aclFloat16>{aclFloatToFloat16(0.5f)});
    OpAttr attr;
    attr.Bool("transpose_a", false).Bool("transpose_b", false);
    ASSERT_EQ(CompileAndRun("GEMM", {&ta, &tb, &tc, &alpha, &beta}, {&tc}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    const auto got = tc.Read<aclFloat16>();
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int p = 0; p < k; ++p)
                s += aclFloat16ToFloat(a[i * k + p]) * aclFloat16ToFloat(b[p * n + j]);
            const float want = 2.0f * s + 0.5f * aclFloat16ToFloat(c[i * n + j]);
            EXPECT_NEAR(aclFloat16ToFloat(got[i * n + j]), want, 1e-2f);
        }
    }
}

TEST_F(OpExecute, AHostPlacedOperandIsCopiedToTheDevice) {
    OpTensor x1(ACL_FLOAT, {3}, std::vector<float>{1, 2, 3});
    OpTensor x2(ACL_FLOAT, {3}, std::vector<float>{10, 20, 30}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_FLOAT, {3}, 3, 4);
    ASSERT_EQ(CompileAndRun("Mul", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{10, 40, 90}));
}

TEST_F(OpExecute, AHostOperandMayChangeBetweenCalls) {
    for (float v : {2.0f, 3.0f}) {
        OpTensor x1(ACL_FLOAT, {2}, std::vector<float>{1, 2});
        OpTensor x2(ACL_FLOAT, {}, std::vector<float>{v}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
        OpTensor y(ACL_FLOAT, {2}, 2, 4);
        ASSERT_EQ(CompileAndRun("Mul", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(y.Read<float>(), (std::vector<float>{v, 2 * v}));
    }
}

TEST_F(OpExecute, AnotherPermIsAnotherPlan) {
    OpTensor x(ACL_INT32, {1, 2, 3}, std::vector<int32_t>{1, 2, 3, 4, 5, 6});
    const std::pair<std::vector<int32_t>, std::vector<int64_t>> cases[] = {{{2, 1, 0}, {3, 2, 1}},
                                                                           {{0, 2, 1}, {1, 3, 2}}};
    const std::vector<int32_t> want[] = {{1, 4, 2, 5, 3, 6}, {1, 4, 2, 5, 3, 6}};
    for (size_t c = 0; c < 2; ++c) {
        OpTensor perm(ACL_INT32, {3}, cases[c].first, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
        OpTensor y(ACL_INT32, cases[c].second, 6, 4);
        ASSERT_EQ(CompileAndRun("Transpose", {&x, &perm}, {&y}), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(y.Read<int32_t>(), want[c]);
    }
}

TEST_F(OpExecute, RepeatedCallsReuseOnePlanWithNewBuffers) {
    for (int round = 0; round < 3; ++round) {
        const float v = static_cast<float>(round);
        OpTensor x1(ACL_FLOAT, {2}, std::vector<float>{v, v}),
            x2(ACL_FLOAT, {2}, std::vector<float>{1, 2});
        OpTensor y(ACL_FLOAT, {2}, 2, 4);
        ASSERT_EQ(CompileAndRun("Add", {&x1, &x2}, {&y}), ACL_SUCCESS);
        EXPECT_EQ(y.Read<float>(), (std::vector<float>{v + 1, v + 2}));
    }
}

TEST_F(OpExecute, TheWorkspaceGoesBackOnceTheOperatorRan) {
    // A float16 convolution packs its operands in the workspace.
    std::vector<aclFloat16> x(1 * 2 * 6 * 6, aclFloatToFloat16(1.0f));
    std::vector<aclFloat16> w(2 * 2 * 3 * 3, aclFloatToFloat16(0.5f));
    OpTensor xt(ACL_FLOAT16, {1, 2, 6, 6}, x, ACL_FORMAT_NCHW);
    OpTensor ft(ACL_FLOAT16, {2, 2, 3, 3}, w, ACL_FORMAT_NCHW);
    OpTensor y(ACL_FLOAT16, {1, 2, 4, 4}, 32, 2, ACL_FORMAT_NCHW);
    OpAttr attr;
    attr.Ints("strides", {1, 1, 1, 1}).Ints("pads", {0, 0, 0, 0}).String("data_format", "NCHW");
    size_t free_before = 0, free_after = 0, total = 0;
    ASSERT_EQ(CompileAndRun("Conv2D", {&xt, &ft}, {&y}, attr.get()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(CompileAndRun("Conv2D", {&xt, &ft}, {&y}, attr.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
    EXPECT_EQ(free_after, free_before);
    EXPECT_EQ(aclFloat16ToFloat(y.Read<aclFloat16>()[0]), 9.0f);  // 18 products of 0.5
}

// ---- Errors: CANN's codes, with what was wrong ----

TEST_F(OpExecute, AnUnknownTypeIsOpNotFound) {
    OpTensor x(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    EXPECT_EQ(CompileAndRun("Frobnicate", {&x}, {&y}), ACL_ERROR_OP_NOT_FOUND);
    EXPECT_NE(std::string(TakeErrMsg()).find("no operator of type \"Frobnicate\""),
              std::string::npos);
}

TEST_F(OpExecute, AWrongNumberOfInputsIsOpInputNotMatch) {
    OpTensor x(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    EXPECT_EQ(CompileAndRun("Add", {&x}, {&y}), ACL_ERROR_OP_INPUT_NOT_MATCH);
    EXPECT_NE(std::string(TakeErrMsg()).find("Add takes 2 inputs, not 1"), std::string::npos);
}

TEST_F(OpExecute, AWrongNumberOfOutputsIsOpOutputNotMatch) {
    OpTensor x(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    EXPECT_EQ(CompileAndRun("Relu", {&x}, {&y, &y}), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
}

TEST_F(OpExecute, AnAttributeOfAnotherTypeIsOpAttrNotMatch) {
    OpTensor x(ACL_FLOAT, {2, 2}, 4, 4), y(ACL_FLOAT, {2, 2}, 4, 4);
    OpAttr attr;
    attr.String("transpose_x1", "yes");
    EXPECT_EQ(CompileAndRun("MatMul", {&x, &x}, {&y}, attr.get()), ACL_ERROR_OP_ATTR_NOT_MATCH);
    EXPECT_NE(std::string(TakeErrMsg()).find("\"transpose_x1\" is string"), std::string::npos);
}

TEST_F(OpExecute, AMissingRequiredAttributeIsOpAttrNotMatch) {
    OpTensor x(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {4}, 4, 4);
    EXPECT_EQ(CompileAndRun("ConcatD", {&x, &x}, {&y}), ACL_ERROR_OP_ATTR_NOT_MATCH);
}

TEST_F(OpExecute, ShapesThatDoNotBroadcastAreInvalid) {
    OpTensor x1(ACL_FLOAT, {2, 3}, 6, 4), x2(ACL_FLOAT, {4}, 4, 4), y(ACL_FLOAT, {2, 3}, 6, 4);
    EXPECT_EQ(CompileAndRun("Add", {&x1, &x2}, {&y}), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(TakeErrMsg()).find("do not broadcast"), std::string::npos);
}

TEST_F(OpExecute, TheOperatorLibrarysRefusalKeepsItsMessageUnderAclopsCode) {
    // Sqrt of int8 into int8: the library takes floating results only.
    OpTensor x(ACL_FLOAT, {2}, 2, 4), y(ACL_INT8, {2}, 2, 1);
    EXPECT_EQ(CompileAndRun("Sqrt", {&x}, {&y}), ACL_ERROR_INVALID_PARAM);
    const std::string message = TakeErrMsg();
    EXPECT_NE(message.find("aclopCompileAndExecute failed (error 100000): Sqrt: "),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find("161002"), std::string::npos) << message;
}

TEST_F(OpExecute, AnAscendStorageFormatIsFormatNotMatch) {
    OpTensor x(ACL_FLOAT16, {1, 1, 2, 2, 16}, 64, 2, ACL_FORMAT_NC1HWC0);
    OpTensor y(ACL_FLOAT16, {1, 1, 2, 2, 16}, 64, 2, ACL_FORMAT_NC1HWC0);
    EXPECT_EQ(CompileAndRun("Relu", {&x}, {&y}), ACL_ERROR_FORMAT_NOT_MATCH);
    EXPECT_NE(std::string(TakeErrMsg()).find("NC1HWC0"), std::string::npos);
}

TEST_F(OpExecute, ABufferSmallerThanItsDescriptionIsInvalid) {
    OpTensor x1(ACL_FLOAT, {4}, 4, 4), x2(ACL_FLOAT, {4}, 4, 4), y(ACL_FLOAT, {4}, 4, 4);
    ASSERT_EQ(aclUpdateDataBuffer(y.buffer(), y.dev(), 8), ACL_SUCCESS);
    EXPECT_EQ(CompileAndRun("Add", {&x1, &x2}, {&y}), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(TakeErrMsg()).find("outputs[0] holds 8 bytes"), std::string::npos);
}

TEST_F(OpExecute, HostMemoryForADeviceOperandIsInvalid) {
    std::vector<float> host(4, 1.0f);
    OpTensor x1(ACL_FLOAT, {4}, 4, 4), y(ACL_FLOAT, {4}, 4, 4);
    aclTensorDesc* desc =
        aclCreateTensorDesc(ACL_FLOAT, 1, std::vector<int64_t>{4}.data(), ACL_FORMAT_ND);
    aclDataBuffer* buffer = aclCreateDataBuffer(host.data(), 16);
    aclTensorDesc* in[] = {x1.desc(), desc};
    aclDataBuffer* bufs[] = {x1.buffer(), buffer};
    aclTensorDesc* out[] = {y.desc()};
    aclDataBuffer* outs[] = {y.buffer()};
    EXPECT_EQ(aclopCompileAndExecute("Add", 2, in, bufs, 1, out, outs, nullptr, ACL_ENGINE_SYS,
                                     ACL_COMPILE_SYS, nullptr, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(TakeErrMsg()).find("device memory"), std::string::npos);
    aclDestroyTensorDesc(desc);
    aclDestroyDataBuffer(buffer);
}

TEST_F(OpExecute, AnUnregisteredCompileIsNotSupported) {
    OpTensor x(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    OpArrays in({&x}), out({&y});
    EXPECT_EQ(aclopCompileAndExecute("Relu", 1, in.d(), in.b(), 1, out.d(), out.b(), nullptr,
                                     ACL_ENGINE_SYS, ACL_COMPILE_UNREGISTERED, "/tmp", nullptr),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(OpExecute, AllEmptyOutputsReturnAtOnce) {
    OpTensor x(ACL_FLOAT, {0, 3}, 0, 4), y(ACL_FLOAT, {0, 3}, 0, 4);
    EXPECT_EQ(CompileAndRun("Frobnicate", {&x}, {&y}), ACL_SUCCESS);
}

TEST_F(OpExecute, GraphCaptureRecordsTheOperatorAndItsWorkspace) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::vector<aclFloat16> x(2 * 4 * 4, aclFloatToFloat16(1.0f));
    std::vector<aclFloat16> w(2 * 2 * 3 * 3, aclFloatToFloat16(0.25f));
    OpTensor xt(ACL_FLOAT16, {1, 2, 4, 4}, x, ACL_FORMAT_NCHW);
    OpTensor ft(ACL_FLOAT16, {2, 2, 3, 3}, w, ACL_FORMAT_NCHW);
    OpTensor y(ACL_FLOAT16, {1, 2, 2, 2}, 8, 2, ACL_FORMAT_NCHW);
    OpAttr attr;
    attr.Ints("strides", {1, 1, 1, 1}).Ints("pads", {0, 0, 0, 0}).String("data_format", "NCHW");
    OpArrays in({&xt, &ft}), out({&y});
    ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclopCompileAndExecute("Conv2D", 2, in.d(), in.b(), 1, out.d(), out.b(), attr.get(),
                                     ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, stream),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
    for (int i = 0; i < 2; ++i) {
        ASSERT_EQ(aclrtMemset(y.dev(), y.bytes(), 0, y.bytes()), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(aclFloat16ToFloat(y.Read<aclFloat16>()[3]), 4.5f);  // 18 products of 0.25
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

}  // namespace
