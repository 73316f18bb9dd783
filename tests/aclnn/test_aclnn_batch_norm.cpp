// aclnnBatchNorm: training (batch statistics, saved mean/invstd, running statistics moved by
// momentum with the unbiased variance) and inference (running statistics), against a double
// reference.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_batch_norm.h"

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

}  // namespace
