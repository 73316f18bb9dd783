// The normalisations (aclnn_rms_norm.h, aclnn_add_rms_norm.h, aclnn_layer_norm.h,
// aclnn_group_norm.h) against double-precision references: float types, float32 weights with
// half inputs, statistics outputs in both documented shapes, strided views, empty tensors and
// the documented parameter errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "reduce_test_util.h"

using aclnn_test::RunPhase2;
using reduce_test::ExpectClose;
using reduce_test::IntArray;
using reduce_test::Quantize;
using reduce_test::Random;
using reduce_test::Tensor;

#define RUN_OP(Name, ...)                                                                \
    do {                                                                                 \
        uint64_t ws_ = 0;                                                                \
        aclOpExecutor* ex_ = nullptr;                                                    \
        ASSERT_EQ(aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_), ACLNN_SUCCESS) \
            << aclGetRecentErrMsg();                                                     \
        ASSERT_EQ(RunPhase2(aclnn##Name, ws_, ex_), ACLNN_SUCCESS);                      \
    } while (0)

#define PLAN_OP(Name, ...)                                                              \
    [&]() {                                                                             \
        uint64_t ws_ = 0;                                                               \
        aclOpExecutor* ex_ = nullptr;                                                   \
        const aclnnStatus rc_ = aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_); \
        if (rc_ == ACLNN_SUCCESS) aclDestroyAclOpExecutor(ex_);                         \
        return rc_;                                                                     \
    }()

namespace {

class AclnnNorm : public aclnn_test::AclnnTest {};

struct RowStats {
    std::vector<double> y, mean, rstd;
};

// Per row of `cols`: RmsNorm (no mean subtraction) or LayerNorm, times weight plus bias.
RowStats Reference(const std::vector<double>& x, int64_t cols, const std::vector<double>& weight,
                   const std::vector<double>& bias, double eps, bool rms) {
    RowStats s;
    s.y.resize(x.size());
    const int64_t rows = static_cast<int64_t>(x.size()) / cols;
    for (int64_t r = 0; r < rows; ++r) {
        const double* row = x.data() + r * cols;
        double mean = 0, var = 0;
        if (!rms) {
            for (int64_t i = 0; i < cols; ++i)
                mean += row[i];
            mean /= static_cast<double>(cols);
        }
        for (int64_t i = 0; i < cols; ++i)
            var += (row[i] - mean) * (row[i] - mean);
        const double rstd = 1.0 / std::sqrt(var / static_cast<double>(cols) + eps);
        for (int64_t i = 0; i < cols; ++i) {
            s.y[static_cast<size_t>(r * cols + i)] =
                (row[i] - mean) * rstd * (weight.empty() ? 1.0 : weight[i]) +
                (bias.empty() ? 0.0 : bias[i]);
        }
        s.mean.push_back(mean);
        s.rstd.push_back(rstd);
    }
    return s;
}

// ---------------------------------------------------------------- RmsNorm

TEST_F(AclnnNorm, RmsNormMatchesAReferenceOverTypesAndGammaTypes) {
    const std::vector<int64_t> shape = {2, 3, 8};
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (aclDataType gamma_type : {type, ACL_FLOAT}) {
            const std::vector<double> x = Quantize(Random(48, 31), type);
            const std::vector<double> gamma = Quantize(Random(8, 32, 0.5, 1.5), gamma_type);
            Tensor tx(shape, x, type), tg({8}, gamma, gamma_type);
            Tensor y(shape, std::vector<double>(48, 0), type);
            // rstd as x's leading dimensions (ggml-cann) and with a trailing 1 (the docs).
            Tensor rstd({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
            Tensor rstd_keep({2, 3, 1}, std::vector<double>(6, 0), ACL_FLOAT);
            RUN_OP(RmsNorm, tx.get(), tg.get(), 1e-6, y.get(), rstd.get());
            const RowStats want = Reference(x, 8, gamma, {}, 1e-6, true);
            const std::string what =
                std::string(reduce_test::Name(type)) + " gamma " + reduce_test::Name(gamma_type);
            ExpectClose(y.Values(), want.y, type, what, 1e-5);
            ExpectClose(rstd.Values(), want.rstd, ACL_FLOAT, what + " rstd");
            RUN_OP(RmsNorm, tx.get(), tg.get(), 1e-6, y.get(), rstd_keep.get());
            ExpectClose(rstd_keep.Values(), want.rstd, ACL_FLOAT, what + " rstd kept");
        }
    }
}

TEST_F(AclnnNorm, RmsNormOverTwoTrailingDimensionsOfATransposedView) {
    // x is [4, 2, 3] read through a permuted view; gamma [2, 3] covers the last two dims.
    const std::vector<double> x = Random(24, 33);
    const std::vector<double> gamma = Random(6, 34, 0.5, 2);
    // Storage laid out as [3, 4, 2] (d2, d0, d1): strides of the [4, 2, 3] view are [2, 1, 8].
    std::vector<double> storage(24);
    for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 2; ++b) {
            for (int c = 0; c < 3; ++c)
                storage[c * 8 + a * 2 + b] = x[a * 6 + b * 3 + c];
        }
    }
    Tensor tx({4, 2, 3}, {2, 1, 8}, 0, storage, ACL_FLOAT);
    Tensor tg({2, 3}, gamma, ACL_FLOAT);
    Tensor y({4, 2, 3}, std::vector<double>(24, 0), ACL_FLOAT);
    Tensor rstd({4, 1, 1}, std::vector<double>(4, 0), ACL_FLOAT);
    RUN_OP(RmsNorm, tx.get(), tg.get(), 1e-5, y.get(), rstd.get());
    const RowStats want = Reference(x, 6, gamma, {}, 1e-5, true);
    ExpectClose(y.Values(), want.y, ACL_FLOAT, "y");
    ExpectClose(rstd.Values(), want.rstd, ACL_FLOAT, "rstd");
}

TEST_F(AclnnNorm, RmsNormRefusesTheDocumentedBadParameters) {
    Tensor x({2, 8}, Random(16, 35), ACL_FLOAT16);
    Tensor gamma({8}, Random(8, 36), ACL_FLOAT16), gamma7({7}, Random(7, 36), ACL_FLOAT16);
    Tensor gamma_bf16({8}, Random(8, 36), ACL_BF16);
    Tensor y({2, 8}, std::vector<double>(16, 0), ACL_FLOAT16);
    Tensor y_f32({2, 8}, std::vector<double>(16, 0), ACL_FLOAT);
    Tensor rstd({2}, {0, 0}, ACL_FLOAT), rstd3({3}, {0, 0, 0}, ACL_FLOAT);
    Tensor rstd_f16({2}, {0, 0}, ACL_FLOAT16);
    Tensor ints({2, 8}, std::vector<double>(16, 1), ACL_INT32);
    EXPECT_EQ(PLAN_OP(RmsNorm, x.get(), gamma7.get(), 1e-6, y.get(), rstd.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gamma"), std::string::npos);
    EXPECT_EQ(PLAN_OP(RmsNorm, x.get(), gamma.get(), 1e-6, y.get(), rstd3.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("rstdOut"), std::string::npos);
    EXPECT_EQ(PLAN_OP(RmsNorm, x.get(), gamma.get(), 1e-6, y.get(), rstd_f16.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(RmsNorm, x.get(), gamma.get(), 1e-6, y_f32.get(), rstd.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(RmsNorm, x.get(), gamma_bf16.get(), 1e-6, y.get(), rstd.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(RmsNorm, ints.get(), gamma.get(), 1e-6, y.get(), rstd.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(RmsNorm, nullptr, gamma.get(), 1e-6, y.get(), rstd.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(PLAN_OP(RmsNorm, x.get(), gamma.get(), 1e-6, y.get(), nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    // Empty rows are fine.
    Tensor empty({0, 8}, std::vector<double>{}, ACL_FLOAT16);
    Tensor empty_y({0, 8}, std::vector<double>{}, ACL_FLOAT16);
    Tensor empty_rstd({0}, std::vector<double>{}, ACL_FLOAT);
    RUN_OP(RmsNorm, empty.get(), gamma.get(), 1e-6, empty_y.get(), empty_rstd.get());
}

// ---------------------------------------------------------------- AddRmsNorm

TEST_F(AclnnNorm, AddRmsNormWritesTheSumAndNormalisesIt) {
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        const std::vector<double> x1 = Quantize(Random(32, 37), type);
        const std::vector<double> x2 = Quantize(Random(32, 38), type);
        const std::vector<double> gamma = Quantize(Random(16, 39, 0.5, 1.5), type);
        std::vector<double> sum(32);
        for (size_t i = 0; i < 32; ++i)
            sum[i] = Quantize(x1[i] + x2[i], type);
        Tensor t1({2, 16}, x1, type), t2({2, 16}, x2, type), tg({16}, gamma, type);
        Tensor y({2, 16}, std::vector<double>(32, 0), type);
        Tensor x_out({2, 16}, std::vector<double>(32, 0), type);
        Tensor rstd({2, 1}, {0, 0}, ACL_FLOAT);
        RUN_OP(AddRmsNorm, t1.get(), t2.get(), tg.get(), 1e-6, y.get(), rstd.get(), x_out.get());
        const RowStats want = Reference(sum, 16, gamma, {}, 1e-6, true);
        const std::string what = reduce_test::Name(type);
        EXPECT_EQ(x_out.Values(), sum) << what;
        ExpectClose(y.Values(), want.y, type, what, 1e-5);
        ExpectClose(rstd.Values(), want.rstd, ACL_FLOAT, what + " rstd");
        // Without rstdOut and xOut: only yOut.
        Tensor y2({2, 16}, std::vector<double>(32, 0), type);
        RUN_OP(AddRmsNorm, t1.get(), t2.get(), tg.get(), 1e-6, y2.get(), nullptr, nullptr);
        EXPECT_EQ(y2.Values(), y.Values()) << what;
    }
}

TEST_F(AclnnNorm, AddRmsNormRefusesTheDocumentedBadParameters) {
    Tensor x1({2, 4}, Random(8, 40), ACL_FLOAT16), x2({2, 4}, Random(8, 41), ACL_FLOAT16);
    Tensor x2_f32({2, 4}, Random(8, 41), ACL_FLOAT), x2_wide({2, 5}, Random(10, 41), ACL_FLOAT16);
    Tensor gamma({4}, Random(4, 42), ACL_FLOAT16), gamma_f32({4}, Random(4, 42), ACL_FLOAT);
    Tensor y({2, 4}, std::vector<double>(8, 0), ACL_FLOAT16);
    Tensor x_out({2, 4}, std::vector<double>(8, 0), ACL_FLOAT16);
    Tensor rstd({2}, {0, 0}, ACL_FLOAT);
    EXPECT_EQ(
        PLAN_OP(AddRmsNorm, x1.get(), x2.get(), gamma.get(), 1e-6, y.get(), rstd.get(), nullptr),
        ACLNN_ERR_PARAM_NULLPTR);  // rstdOut without xOut
    EXPECT_EQ(PLAN_OP(AddRmsNorm, x1.get(), x2_f32.get(), gamma.get(), 1e-6, y.get(), rstd.get(),
                      x_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("x2"), std::string::npos);
    EXPECT_EQ(PLAN_OP(AddRmsNorm, x1.get(), x2_wide.get(), gamma.get(), 1e-6, y.get(), rstd.get(),
                      x_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(AddRmsNorm, x1.get(), x2.get(), gamma_f32.get(), 1e-6, y.get(), rstd.get(),
                      x_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(
        PLAN_OP(AddRmsNorm, x1.get(), nullptr, gamma.get(), 1e-6, y.get(), rstd.get(), x_out.get()),
        ACLNN_ERR_PARAM_NULLPTR);
}

// ---------------------------------------------------------------- LayerNorm

TEST_F(AclnnNorm, LayerNormMatchesAReferenceWithAndWithoutAffineAndStatistics) {
    const std::vector<int64_t> shape = {3, 2, 5};
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        const std::vector<double> x = Quantize(Random(30, 43, -3, 5), type);
        for (int norm_dims : {1, 2}) {
            const int64_t cols = norm_dims == 1 ? 5 : 10;
            const std::vector<int64_t> norm_shape =
                norm_dims == 1 ? std::vector<int64_t>{5} : std::vector<int64_t>{2, 5};
            const std::vector<double> weight = Quantize(Random(cols, 44, 0.5, 1.5), ACL_FLOAT);
            const std::vector<double> bias = Quantize(Random(cols, 45), ACL_FLOAT);
            const int64_t rows = 30 / cols;
            Tensor tx(shape, x, type), tw(norm_shape, weight, ACL_FLOAT),
                tb(norm_shape, bias, ACL_FLOAT);
            IntArray normalized(norm_shape);
            for (bool affine : {true, false}) {
                Tensor out(shape, std::vector<double>(30, 0), type);
                std::vector<int64_t> stat_shape = {3, 2, 1};
                if (norm_dims == 2) stat_shape = {3, 1, 1};
                Tensor mean(stat_shape, std::vector<double>(rows, 0), ACL_FLOAT);
                Tensor rstd(stat_shape, std::vector<double>(rows, 0), ACL_FLOAT);
                RUN_OP(LayerNorm, tx.get(), normalized.get(), affine ? tw.get() : nullptr,
                       affine ? tb.get() : nullptr, 1e-5, out.get(), mean.get(), rstd.get());
                const RowStats want = Reference(x, cols, affine ? weight : std::vector<double>{},
                                                affine ? bias : std::vector<double>{}, 1e-5, false);
                const std::string what = std::string(reduce_test::Name(type)) + " dims " +
                                         std::to_string(norm_dims) + " affine " +
                                         std::to_string(affine);
                ExpectClose(out.Values(), want.y, type, what, 1e-5);
                ExpectClose(mean.Values(), want.mean, ACL_FLOAT, what + " mean");
                ExpectClose(rstd.Values(), want.rstd, ACL_FLOAT, what + " rstd");
            }
        }
    }
}

TEST_F(AclnnNorm, LayerNormWithImplModeTakesTheSameMathAndAStridedInput) {
    const std::vector<double> x = Random(12, 46);
    // [3, 4] read transposed from storage, no statistics outputs.
    Tensor tx({3, 4}, {1, 3}, 0, reduce_test::TransposedStorage(x, 3, 4), ACL_FLOAT);
    Tensor out({3, 4}, std::vector<double>(12, 0), ACL_FLOAT);
    IntArray normalized({4});
    for (int32_t mode : {0, 1}) {
        RUN_OP(LayerNormWithImplMode, tx.get(), normalized.get(), nullptr, nullptr, 1e-5, out.get(),
               nullptr, nullptr, mode);
        ExpectClose(out.Values(), Reference(x, 4, {}, {}, 1e-5, false).y, ACL_FLOAT,
                    "mode " + std::to_string(mode));
    }
}

TEST_F(AclnnNorm, LayerNormRefusesTheDocumentedBadParameters) {
    Tensor x({2, 4}, Random(8, 47), ACL_FLOAT);
    Tensor out({2, 4}, std::vector<double>(8, 0), ACL_FLOAT);
    Tensor weight3({3}, Random(3, 48), ACL_FLOAT), weight({4}, Random(4, 48), ACL_FLOAT);
    Tensor bias_f16({4}, Random(4, 49), ACL_FLOAT16);
    Tensor mean3({3}, {0, 0, 0}, ACL_FLOAT);
    IntArray four({4}), three({3}), too_many({2, 2, 4}), none({});
    EXPECT_EQ(PLAN_OP(LayerNorm, x.get(), three.get(), nullptr, nullptr, 1e-5, out.get(), nullptr,
                      nullptr),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("normalizedShape"), std::string::npos);
    EXPECT_EQ(PLAN_OP(LayerNorm, x.get(), too_many.get(), nullptr, nullptr, 1e-5, out.get(),
                      nullptr, nullptr),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(LayerNorm, x.get(), none.get(), nullptr, nullptr, 1e-5, out.get(), nullptr,
                      nullptr),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(LayerNorm, x.get(), four.get(), weight3.get(), nullptr, 1e-5, out.get(),
                      nullptr, nullptr),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("weightOptional"), std::string::npos);
    EXPECT_EQ(PLAN_OP(LayerNorm, x.get(), four.get(), weight.get(), bias_f16.get(), 1e-5, out.get(),
                      nullptr, nullptr),
              ACLNN_ERR_PARAM_INVALID);  // float16 bias with float32 input
    EXPECT_EQ(PLAN_OP(LayerNorm, x.get(), four.get(), nullptr, nullptr, 1e-5, out.get(),
                      mean3.get(), nullptr),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(LayerNormWithImplMode, x.get(), four.get(), nullptr, nullptr, 1e-5, out.get(),
                      nullptr, nullptr, 3),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(LayerNormWithImplMode, x.get(), four.get(), nullptr, nullptr, 1e-5, out.get(),
                      nullptr, nullptr, 2),
              ACLNN_ERR_PARAM_INVALID);  // keep-float16 with float32
    EXPECT_EQ(
        PLAN_OP(LayerNorm, x.get(), nullptr, nullptr, nullptr, 1e-5, out.get(), nullptr, nullptr),
        ACLNN_ERR_PARAM_NULLPTR);
    // An empty normalised part: the mean of nothing is 0 and its rstd NaN.
    Tensor empty({2, 0}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_out({2, 0}, std::vector<double>{}, ACL_FLOAT);
    Tensor mean({2}, {7, 7}, ACL_FLOAT), rstd({2}, {7, 7}, ACL_FLOAT);
    IntArray zero({0});
    RUN_OP(LayerNorm, empty.get(), zero.get(), nullptr, nullptr, 1e-5, empty_out.get(), mean.get(),
           rstd.get());
    EXPECT_EQ(mean.Values(), (std::vector<double>{0, 0}));
    EXPECT_TRUE(std::isnan(rstd.Values()[0]));
}

// ---------------------------------------------------------------- GroupNorm

TEST_F(AclnnNorm, GroupNormMatchesAReferencePerSampleAndGroup) {
    const int64_t n = 2, c = 6, hxw = 4, groups = 3;
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        const std::vector<double> x = Quantize(Random(n * c * hxw, 50, -2, 3), type);
        const std::vector<double> gamma = Quantize(Random(c, 51, 0.5, 1.5), type);
        const std::vector<double> beta = Quantize(Random(c, 52), type);
        Tensor tx({n, c, 2, 2}, x, type, ACL_FORMAT_NCHW);
        Tensor tg({c}, gamma, type), tb({c}, beta, type);
        Tensor out({n, c, 2, 2}, std::vector<double>(48, 0), type, ACL_FORMAT_NCHW);
        Tensor mean({n, groups}, std::vector<double>(6, 0), type);
        Tensor rstd({n, groups}, std::vector<double>(6, 0), type);
        RUN_OP(GroupNorm, tx.get(), tg.get(), tb.get(), n, c, hxw, groups, 1e-5, out.get(),
               mean.get(), rstd.get());
        // Rows of (c / groups) * hxw elements; gamma and beta per channel.
        const int64_t cols = c / groups * hxw;
        RowStats want = Reference(x, cols, {}, {}, 1e-5, false);
        for (size_t i = 0; i < want.y.size(); ++i) {
            const size_t channel = (i / hxw) % c;
            want.y[i] = want.y[i] * gamma[channel] + beta[channel];
        }
        const std::string what = reduce_test::Name(type);
        ExpectClose(out.Values(), want.y, type, what, 1e-5);
        ExpectClose(mean.Values(), want.mean, type, what + " mean", 1e-5);
        ExpectClose(rstd.Values(), want.rstd, type, what + " rstd", 1e-5);
    }
}

TEST_F(AclnnNorm, GroupNormWithoutAffineOverAStridedInputAndEmptyBatches) {
    // [2, 4, 3] viewed from a [2, 3, 4] storage (the last two dimensions swapped).
    const std::vector<double> x = Random(24, 53);
    std::vector<double> storage(24);
    for (int s = 0; s < 2; ++s) {
        for (int ch = 0; ch < 4; ++ch) {
            for (int k = 0; k < 3; ++k)
                storage[s * 12 + k * 4 + ch] = x[s * 12 + ch * 3 + k];
        }
    }
    Tensor tx({2, 4, 3}, {12, 1, 4}, 0, storage, ACL_FLOAT);
    Tensor out({2, 4, 3}, std::vector<double>(24, 0), ACL_FLOAT);
    Tensor mean({2, 2}, std::vector<double>(4, 0), ACL_FLOAT);
    Tensor rstd({2, 2}, std::vector<double>(4, 0), ACL_FLOAT);
    RUN_OP(GroupNorm, tx.get(), nullptr, nullptr, 2, 4, 3, 2, 1e-6, out.get(), mean.get(),
           rstd.get());
    const RowStats want = Reference(x, 6, {}, {}, 1e-6, false);
    ExpectClose(out.Values(), want.y, ACL_FLOAT, "y");
    ExpectClose(mean.Values(), want.mean, ACL_FLOAT, "mean");
    ExpectClose(rstd.Values(), want.rstd, ACL_FLOAT, "rstd");

    Tensor empty({0, 4, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_out({0, 4, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_stats({0, 2}, std::vector<double>{}, ACL_FLOAT);
    RUN_OP(GroupNorm, empty.get(), nullptr, nullptr, 0, 4, 3, 2, 1e-6, empty_out.get(),
           empty_stats.get(), empty_stats.get());
}

TEST_F(AclnnNorm, GroupNormRefusesTheDocumentedBadParameters) {
    Tensor x({2, 6, 4}, Random(48, 54), ACL_FLOAT);
    Tensor out({2, 6, 4}, std::vector<double>(48, 0), ACL_FLOAT);
    Tensor stats({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    Tensor stats_bad({2, 2}, std::vector<double>(4, 0), ACL_FLOAT);
    Tensor stats_f16({2, 3}, std::vector<double>(6, 0), ACL_FLOAT16);
    Tensor gamma5({5}, Random(5, 55), ACL_FLOAT);
    Tensor nhwc({2, 6, 4}, Random(48, 54), ACL_FLOAT, ACL_FORMAT_NHWC);
    auto plan = [&](const aclTensor* self, const aclTensor* gamma, int64_t n, int64_t c,
                    int64_t hxw, int64_t group, double eps, const aclTensor* o, const aclTensor* m,
                    const aclTensor* r) {
        return PLAN_OP(GroupNorm, self, gamma, nullptr, n, c, hxw, group, eps,
                       const_cast<aclTensor*>(o), const_cast<aclTensor*>(m),
                       const_cast<aclTensor*>(r));
    };
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 4, 3, 1e-5, out.get(), stats.get(), stats.get()),
              ACLNN_SUCCESS);
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 4, 4, 1e-5, out.get(), stats.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);  // 4 does not divide 6
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 4, 0, 1e-5, out.get(), stats.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 4, 3, 0.0, out.get(), stats.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("eps"), std::string::npos);
    EXPECT_EQ(plan(x.get(), nullptr, 3, 6, 4, 3, 1e-5, out.get(), stats.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);  // N is not self's first dimension
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 5, 3, 1e-5, out.get(), stats.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);  // HxW
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 4, 3, 1e-5, out.get(), stats_bad.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("meanOut"), std::string::npos);
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 4, 3, 1e-5, out.get(), stats.get(), stats_f16.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(x.get(), gamma5.get(), 2, 6, 4, 3, 1e-5, out.get(), stats.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(nhwc.get(), nullptr, 2, 6, 4, 3, 1e-5, out.get(), stats.get(), stats.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(x.get(), nullptr, 2, 6, 4, 3, 1e-5, out.get(), nullptr, stats.get()),
              ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
