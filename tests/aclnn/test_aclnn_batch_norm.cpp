// aclnnBatchNorm: training (batch statistics, saved mean/invstd, running statistics moved by
// momentum with the unbiased variance) and inference (running statistics), against a double
// reference; aclnnBatchNormBackward against finite differences of that forward pass.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"

using aclnn_test::DeviceTensor;
using aclnn_test::RunPhase2;

namespace {

class AclnnBatchNorm : public aclnn_test::AclnnTest {
 protected:
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
    // [N=2, C=2, L=3]
    std::vector<float> x_ = {1, 2, 3, 10, 20, 30, 4, 5, 6, 40, 50, 60};
};

TEST_F(AclnnBatchNorm, TrainingNormalisesWithTheBatchStatistics) {
    DeviceTensor<float> input({2, 2, 3}, x_, ACL_FLOAT);
    DeviceTensor<float> weight({2}, {1, 2}, ACL_FLOAT), bias({2}, {0, 1}, ACL_FLOAT);
    DeviceTensor<float> running_mean({2}, {0, 0}, ACL_FLOAT), running_var({2}, {1, 1}, ACL_FLOAT);
    DeviceTensor<float> output({2, 2, 3}, std::vector<float>(12, 0), ACL_FLOAT);
    DeviceTensor<float> save_mean({2}, {0, 0}, ACL_FLOAT), save_invstd({2}, {0, 0}, ACL_FLOAT);
    const double eps = 1e-5, momentum = 0.1;
    ASSERT_EQ(
        aclnnBatchNormGetWorkspaceSize(input.get(), weight.get(), bias.get(), running_mean.get(),
                                       running_var.get(), true, momentum, eps, output.get(),
                                       save_mean.get(), save_invstd.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnBatchNorm, workspace_, executor_), ACLNN_SUCCESS);
    const std::vector<float> out = output.Read(), mean = save_mean.Read();
    const std::vector<float> invstd = save_invstd.Read(), rm = running_mean.Read();
    const std::vector<float> rv = running_var.Read();
    const double w[2] = {1, 2}, b[2] = {0, 1};
    for (int c = 0; c < 2; ++c) {
        double sum = 0, sq = 0;
        for (int n = 0; n < 2; ++n)
            for (int l = 0; l < 3; ++l)
                sum += x_[(n * 2 + c) * 3 + l];
        const double m = sum / 6;
        for (int n = 0; n < 2; ++n)
            for (int l = 0; l < 3; ++l)
                sq += std::pow(x_[(n * 2 + c) * 3 + l] - m, 2);
        const double var = sq / 6, is = 1 / std::sqrt(var + eps);
        EXPECT_NEAR(mean[c], m, 1e-5);
        EXPECT_NEAR(invstd[c], is, 1e-5 * is);
        EXPECT_NEAR(rm[c], momentum * m, 1e-5);
        EXPECT_NEAR(rv[c], (1 - momentum) * 1 + momentum * sq / 5, 1e-4);
        for (int n = 0; n < 2; ++n)
            for (int l = 0; l < 3; ++l) {
                const int i = (n * 2 + c) * 3 + l;
                EXPECT_NEAR(out[i], (x_[i] - m) * is * w[c] + b[c], 1e-5) << i;
            }
    }
}

TEST_F(AclnnBatchNorm, InferenceUsesTheRunningStatistics) {
    DeviceTensor<uint16_t> input(
        {1, 2, 2},
        {aclnn_test::Half(1), aclnn_test::Half(3), aclnn_test::Half(5), aclnn_test::Half(9)},
        ACL_FLOAT16);
    DeviceTensor<float> running_mean({2}, {1, 5}, ACL_FLOAT), running_var({2}, {4, 16}, ACL_FLOAT);
    DeviceTensor<uint16_t> output({1, 2, 2}, std::vector<uint16_t>(4, 0), ACL_FLOAT16);
    ASSERT_EQ(aclnnBatchNormGetWorkspaceSize(input.get(), nullptr, nullptr, running_mean.get(),
                                             running_var.get(), false, 0.1, 0, output.get(),
                                             nullptr, nullptr, &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnBatchNorm, workspace_, executor_), ACLNN_SUCCESS);
    std::vector<float> values;
    for (uint16_t h : output.Read())
        values.push_back(aclnn_test::FromHalf(h));
    EXPECT_EQ(values, (std::vector<float>{0, 1, 0, 1}));
    EXPECT_EQ(running_mean.Read(), (std::vector<float>{1, 5})) << "inference leaves them";
}

TEST_F(AclnnBatchNorm, InferenceWithoutRunningStatisticsIsNullptr) {
    DeviceTensor<float> input({2, 2, 3}, x_, ACL_FLOAT);
    DeviceTensor<float> output({2, 2, 3}, std::vector<float>(12, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnBatchNormGetWorkspaceSize(input.get(), nullptr, nullptr, nullptr, nullptr, false,
                                             0.1, 1e-5, output.get(), nullptr, nullptr, &workspace_,
                                             &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnBatchNorm, AWeightOfTheWrongLengthIsInvalid) {
    DeviceTensor<float> input({2, 2, 3}, x_, ACL_FLOAT);
    DeviceTensor<float> weight({3}, {1, 1, 1}, ACL_FLOAT);
    DeviceTensor<float> output({2, 2, 3}, std::vector<float>(12, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnBatchNormGetWorkspaceSize(input.get(), weight.get(), nullptr, nullptr, nullptr,
                                             true, 0.1, 1e-5, output.get(), nullptr, nullptr,
                                             &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

// ---- aclnnBatchNormBackward

// The batch-statistics forward pass in double for [N, C, L] x, weight w, bias b.
std::vector<double> BatchNormForward(const std::vector<double>& x, int n, int c, int l,
                                     const std::vector<double>& w, double eps) {
    std::vector<double> y(x.size());
    for (int ch = 0; ch < c; ++ch) {
        double sum = 0, sq = 0;
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < l; ++k)
                sum += x[(i * c + ch) * l + k];
        const double mean = sum / (n * l);
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < l; ++k)
                sq += std::pow(x[(i * c + ch) * l + k] - mean, 2);
        const double invstd = 1 / std::sqrt(sq / (n * l) + eps);
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < l; ++k) {
                const int at = (i * c + ch) * l + k;
                y[at] = (x[at] - mean) * invstd * w[ch] + 0.5;
            }
    }
    return y;
}

class AclnnBatchNormBackward : public AclnnBatchNorm {
 protected:
    // Runs the backward with every output asked for; training takes the saved statistics.
    void Run(bool training, const DeviceTensor<float>& grad_out, const DeviceTensor<float>& input,
             const DeviceTensor<float>* weight, const DeviceTensor<float>& mean,
             const DeviceTensor<float>& var, double eps, const DeviceTensor<float>& grad_input,
             const DeviceTensor<float>& grad_weight, const DeviceTensor<float>& grad_bias) {
        const bool all[3] = {true, true, true};
        aclBoolArray* mask = aclCreateBoolArray(all, 3);
        const aclTensor* w = weight != nullptr ? weight->get() : nullptr;
        ASSERT_EQ(aclnnBatchNormBackwardGetWorkspaceSize(
                      grad_out.get(), input.get(), w, training ? nullptr : mean.get(),
                      training ? nullptr : var.get(), training ? mean.get() : nullptr,
                      training ? var.get() : nullptr, training, eps, mask, grad_input.get(),
                      grad_weight.get(), grad_bias.get(), &workspace_, &executor_),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        aclDestroyBoolArray(mask);
        ASSERT_EQ(RunPhase2(aclnnBatchNormBackward, workspace_, executor_), ACLNN_SUCCESS);
    }
};

// The training gradient of the input against central differences of the forward pass: the
// loss is sum(gradOut * output), so its derivative along each input is gradInput's value.
TEST_F(AclnnBatchNormBackward, TrainingGradientsMatchFiniteDifferencesOfTheForwardPass) {
    const int n = 2, c = 2, l = 3;
    const double eps = 1e-5;
    const std::vector<double> x(x_.begin(), x_.end()), w = {1.5, -0.5};
    const std::vector<float> g = {0.1f, -0.2f, 0.3f, 0.5f, 0.25f, -1, 2, 0.75f, -0.5f, 1, 0, 0.5f};
    std::vector<float> mean(c), invstd(c);
    for (int ch = 0; ch < c; ++ch) {
        double sum = 0, sq = 0;
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < l; ++k)
                sum += x[(i * c + ch) * l + k];
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < l; ++k)
                sq += std::pow(x[(i * c + ch) * l + k] - sum / 6, 2);
        mean[ch] = static_cast<float>(sum / 6);
        invstd[ch] = static_cast<float>(1 / std::sqrt(sq / 6 + eps));
    }
    DeviceTensor<float> grad_out({n, c, l}, g, ACL_FLOAT), input({n, c, l}, x_, ACL_FLOAT);
    DeviceTensor<float> weight({c}, {1.5f, -0.5f}, ACL_FLOAT);
    DeviceTensor<float> save_mean({c}, mean, ACL_FLOAT), save_invstd({c}, invstd, ACL_FLOAT);
    DeviceTensor<float> grad_input({n, c, l}, std::vector<float>(12, 9), ACL_FLOAT);
    DeviceTensor<float> grad_weight({c}, {9, 9}, ACL_FLOAT), grad_bias({c}, {9, 9}, ACL_FLOAT);
    Run(true, grad_out, input, &weight, save_mean, save_invstd, eps, grad_input, grad_weight,
        grad_bias);
    const std::vector<float> dx = grad_input.Read(), dw = grad_weight.Read(), db = grad_bias.Read();
    auto loss = [&](const std::vector<double>& at) {
        const std::vector<double> y = BatchNormForward(at, n, c, l, w, eps);
        double sum = 0;
        for (size_t i = 0; i < y.size(); ++i)
            sum += g[i] * y[i];
        return sum;
    };
    const double h = 1e-4;
    for (size_t i = 0; i < x.size(); ++i) {
        std::vector<double> up = x, down = x;
        up[i] += h;
        down[i] -= h;
        EXPECT_NEAR(dx[i], (loss(up) - loss(down)) / (2 * h), 1e-4) << i;
    }
    for (int ch = 0; ch < c; ++ch) {
        double sum_g = 0, sum_g_xhat = 0;
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < l; ++k) {
                const int at = (i * c + ch) * l + k;
                sum_g += g[at];
                sum_g_xhat += g[at] * (x[at] - mean[ch]) * invstd[ch];
            }
        EXPECT_NEAR(db[ch], sum_g, 1e-5);
        EXPECT_NEAR(dw[ch], sum_g_xhat, 1e-4);
    }
}

// gradInput may be gradOut itself: both passes read gradOut before the second writes over it.
TEST_F(AclnnBatchNormBackward, TrainingGradientInPlaceOfGradOutMatchesASeparateOne) {
    const std::vector<float> g = {0.1f, -0.2f, 0.3f, 0.5f, 0.25f, -1, 2, 0.75f, -0.5f, 1, 0, 0.5f};
    DeviceTensor<float> input({2, 2, 3}, x_, ACL_FLOAT), weight({2}, {1.5f, -0.5f}, ACL_FLOAT);
    DeviceTensor<float> save_mean({2}, {3, 35}, ACL_FLOAT),
        save_invstd({2}, {0.5f, 0.05f}, ACL_FLOAT);
    DeviceTensor<float> separate_out({2, 2, 3}, g, ACL_FLOAT), in_place({2, 2, 3}, g, ACL_FLOAT);
    DeviceTensor<float> separate({2, 2, 3}, std::vector<float>(12, 0), ACL_FLOAT);
    DeviceTensor<float> dw({2}, {0, 0}, ACL_FLOAT), db({2}, {0, 0}, ACL_FLOAT);
    Run(true, separate_out, input, &weight, save_mean, save_invstd, 1e-5, separate, dw, db);
    Run(true, in_place, input, &weight, save_mean, save_invstd, 1e-5, in_place, dw, db);
    EXPECT_EQ(in_place.Read(), separate.Read());
}

TEST_F(AclnnBatchNormBackward, InferenceScalesByTheRunningStatisticsAndAMissingWeightIsOne) {
    // [N=3, C=2]: the channel is the last dimension.
    const std::vector<float> x = {1, 2, 3, 4, 5, 6}, g = {1, -1, 2, 0.5f, -3, 4};
    DeviceTensor<float> grad_out({3, 2}, g, ACL_FLOAT), input({3, 2}, x, ACL_FLOAT);
    DeviceTensor<float> running_mean({2}, {2, 3}, ACL_FLOAT), running_var({2}, {3, 15}, ACL_FLOAT);
    DeviceTensor<float> grad_input({3, 2}, std::vector<float>(6, 9), ACL_FLOAT);
    DeviceTensor<float> grad_weight({2}, {9, 9}, ACL_FLOAT), grad_bias({2}, {9, 9}, ACL_FLOAT);
    const double eps = 1.0;  // invstd = 1/2 and 1/4
    Run(false, grad_out, input, nullptr, running_mean, running_var, eps, grad_input, grad_weight,
        grad_bias);
    EXPECT_EQ(grad_input.Read(), (std::vector<float>{0.5f, -0.25f, 1, 0.125f, -1.5f, 1}));
    EXPECT_EQ(grad_bias.Read(), (std::vector<float>{0, 3.5f}));
    // sum(g * (x - mean) * invstd): channel 0: (1*-1 + 2*1 + -3*3)/2, channel 1: (-1*-1 +
    // 0.5*1 + 4*3)/4.
    EXPECT_EQ(grad_weight.Read(), (std::vector<float>{-4, 3.375f}));
}

TEST_F(AclnnBatchNormBackward, OnlyTheMaskedOutputsAreNeededAndWritten) {
    DeviceTensor<float> grad_out({2, 2, 3}, std::vector<float>(12, 1), ACL_FLOAT);
    DeviceTensor<float> input({2, 2, 3}, x_, ACL_FLOAT);
    DeviceTensor<float> mean({2}, {0, 0}, ACL_FLOAT), var({2}, {1, 1}, ACL_FLOAT);
    DeviceTensor<float> grad_bias({2}, {9, 9}, ACL_FLOAT);
    const bool bias_only[3] = {false, false, true};
    aclBoolArray* mask = aclCreateBoolArray(bias_only, 3);
    ASSERT_EQ(aclnnBatchNormBackwardGetWorkspaceSize(
                  grad_out.get(), input.get(), nullptr, mean.get(), var.get(), nullptr, nullptr,
                  false, 0.0, mask, nullptr, nullptr, grad_bias.get(), &workspace_, &executor_),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnBatchNormBackward, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(grad_bias.Read(), (std::vector<float>{6, 6}));
    // Asking for gradInput without giving it is a null pointer.
    const bool input_too[3] = {true, false, true};
    aclBoolArray* both = aclCreateBoolArray(input_too, 3);
    EXPECT_EQ(aclnnBatchNormBackwardGetWorkspaceSize(
                  grad_out.get(), input.get(), nullptr, mean.get(), var.get(), nullptr, nullptr,
                  false, 0.0, both, nullptr, nullptr, grad_bias.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradInput"), std::string::npos);
    aclDestroyBoolArray(mask);
    aclDestroyBoolArray(both);
}

TEST_F(AclnnBatchNormBackward, BadInputsAreRefusedWithTheParameterNamed) {
    DeviceTensor<float> grad_out({2, 2, 3}, std::vector<float>(12, 1), ACL_FLOAT);
    DeviceTensor<float> wrong_grad({2, 3, 2}, std::vector<float>(12, 1), ACL_FLOAT);
    DeviceTensor<float> input({2, 2, 3}, x_, ACL_FLOAT);
    DeviceTensor<float> mean({2}, {0, 0}, ACL_FLOAT), var({2}, {1, 1}, ACL_FLOAT);
    DeviceTensor<float> three({3}, {1, 1, 1}, ACL_FLOAT);
    DeviceTensor<float> grad_input({2, 2, 3}, std::vector<float>(12, 0), ACL_FLOAT);
    const bool input_only[3] = {true, false, false}, two[2] = {true, true};
    aclBoolArray* mask = aclCreateBoolArray(input_only, 3);
    aclBoolArray* short_mask = aclCreateBoolArray(two, 2);
    auto plan = [&](const aclTensor* g, const aclTensor* w, const aclTensor* m, bool training,
                    const aclBoolArray* bools) {
        return aclnnBatchNormBackwardGetWorkspaceSize(
            g, input.get(), w, training ? nullptr : m, training ? nullptr : var.get(),
            training ? m : nullptr, training ? var.get() : nullptr, training, 1e-5, bools,
            grad_input.get(), nullptr, nullptr, &workspace_, &executor_);
    };
    EXPECT_EQ(plan(wrong_grad.get(), nullptr, mean.get(), false, mask), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradOut"), std::string::npos);
    EXPECT_EQ(plan(grad_out.get(), three.get(), mean.get(), false, mask), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("weight"), std::string::npos);
    EXPECT_EQ(plan(grad_out.get(), nullptr, nullptr, true, mask), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("saveMean"), std::string::npos);
    EXPECT_EQ(plan(grad_out.get(), nullptr, mean.get(), false, short_mask),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("outputMask"), std::string::npos);
    aclDestroyBoolArray(mask);
    aclDestroyBoolArray(short_mask);
}

}  // namespace
