// The activation operators (aclnn_sigmoid.h, aclnn_relu.h, aclnn_silu.h, aclnn_gelu.h,
// aclnn_gelu_v2.h, aclnn_hardsigmoid.h, aclnn_hardswish.h, aclnn_leaky_relu.h, aclnn_elu.h,
// aclnn_softplus.h, aclnn_threshold.h) against their formulas (CANN's docs) in double: the shared
// checks of unary_op_checks.h for each (the scalar parameters are made, and destroyed, inside each
// first phase), then their scalar parameters' checks and what is particular to some.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_threshold.h"
#include "unary_op_checks.h"

using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;
using aclnn_test::UnaryCase;

namespace {

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE;
constexpr aclDataType S8 = ACL_INT8, S16 = ACL_INT16, S32 = ACL_INT32, S64 = ACL_INT64;
constexpr aclDataType U8 = ACL_UINT8, U16 = ACL_UINT16, BOOL = ACL_BOOL;

const std::vector<double> kInputs = {-3.5, -1.0, -0.25, 0.0, 0.75, 4.0};
const std::vector<double> kInts = {-4, -1, 0, 1, 3, 6};

double Sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}
double GeluErf(double x) {
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}
double GeluTanh(double x) {
    return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
double Hardsigmoid(double x) {
    return std::clamp(x / 6.0 + 0.5, 0.0, 1.0);
}
double Hardswish(double x) {
    return x * std::clamp(x + 3.0, 0.0, 6.0) / 6.0;
}

// The parameters the table's scalar operators run with.
constexpr float kSlope = 0.125f;
constexpr float kAlpha = 1.5f, kScale = 2.0f, kInputScale = 0.5f;
constexpr float kBeta = 2.0f, kSoftplusThreshold = 3.0f;
constexpr float kThreshold = 1.0f, kValue = 5.0f;

const UnaryCase kCases[] = {
    {.name = "Sigmoid",
     .plan = aclnnSigmoidGetWorkspaceSize,
     .phase2 = aclnnSigmoid,
     .inplace = aclnnInplaceSigmoidGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceSigmoid,
     .reference = Sigmoid,
     .dtypes = {F32, F16, BF16, F64, S8, S16, S32, S64, U8, BOOL},
     .refused = U16,
     .out = UnaryCase::kFloatForIntegers,
     .values = kInputs,
     .int_values = kInts},
    {.name = "Relu",
     .plan = aclnnReluGetWorkspaceSize,
     .phase2 = aclnnRelu,
     .inplace = aclnnInplaceReluGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceRelu,
     .reference = [](double x) { return std::max(x, 0.0); },
     .dtypes = {F32, F16, BF16, S8, S32, S64, U8},
     .refused = S16,
     .values = kInputs,
     .int_values = kInts,
     .exact = true},
    {.name = "Silu",
     .plan = aclnnSiluGetWorkspaceSize,
     .phase2 = aclnnSilu,
     .reference = [](double x) { return x * Sigmoid(x); },
     .dtypes = {F32, F16, BF16},
     .refused = F64,
     .values = kInputs},
    {.name = "Gelu",  // the tanh approximation (CANN's aclnnGelu formula)
     .plan = aclnnGeluGetWorkspaceSize,
     .phase2 = aclnnGelu,
     .reference = GeluTanh,
     .dtypes = {F32, F16, BF16},
     .refused = F64,
     .values = kInputs},
    {.name = "GeluV2Exact",
     .plan = [](const aclTensor* x, aclTensor* y, uint64_t* w,
                aclOpExecutor** e) { return aclnnGeluV2GetWorkspaceSize(x, 0, y, w, e); },
     .phase2 = aclnnGeluV2,
     .reference = GeluErf,
     .dtypes = {F32, F16, BF16},
     .refused = F64,
     .values = kInputs},
    {.name = "GeluV2Tanh",
     .plan = [](const aclTensor* x, aclTensor* y, uint64_t* w,
                aclOpExecutor** e) { return aclnnGeluV2GetWorkspaceSize(x, 1, y, w, e); },
     .phase2 = aclnnGeluV2,
     .reference = GeluTanh,
     .dtypes = {F32, F16, BF16},
     .refused = F64,
     .values = kInputs},
    {.name = "Hardsigmoid",
     .plan = aclnnHardsigmoidGetWorkspaceSize,
     .phase2 = aclnnHardsigmoid,
     .inplace = aclnnInplaceHardsigmoidGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceHardsigmoid,
     .reference = Hardsigmoid,
     .dtypes = {F32, F16, BF16, S32},
     .refused = F64,
     .values = kInputs,
     .int_values = kInts},
    {.name = "Hardswish",
     .plan = aclnnHardswishGetWorkspaceSize,
     .phase2 = aclnnHardswish,
     .inplace = aclnnInplaceHardswishGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceHardswish,
     .reference = Hardswish,
     .dtypes = {F32, F16, BF16},
     .refused = F64,
     .values = kInputs},
    {.name = "LeakyRelu",
     .plan =
         [](const aclTensor* self, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             Scalar slope(kSlope, ACL_FLOAT);
             return aclnnLeakyReluGetWorkspaceSize(self, slope.get(), out, w, e);
         },
     .phase2 = aclnnLeakyRelu,
     .inplace =
         [](aclTensor* self, uint64_t* w, aclOpExecutor** e) {
             Scalar slope(kSlope, ACL_FLOAT);
             return aclnnInplaceLeakyReluGetWorkspaceSize(self, slope.get(), w, e);
         },
     .inplace_phase2 = aclnnInplaceLeakyRelu,
     .reference = [](double x) { return x > 0 ? x : x * kSlope; },
     .dtypes = {F32, F16, BF16, F64},
     .refused = S32,
     .values = kInputs},
    {.name = "Elu",
     .plan =
         [](const aclTensor* self, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             Scalar alpha(kAlpha, ACL_FLOAT), scale(kScale, ACL_FLOAT);
             Scalar input_scale(static_cast<double>(kInputScale), ACL_DOUBLE);
             return aclnnEluGetWorkspaceSize(self, alpha.get(), scale.get(), input_scale.get(), out,
                                             w, e);
         },
     .phase2 = aclnnElu,
     .inplace =
         [](aclTensor* self, uint64_t* w, aclOpExecutor** e) {
             Scalar alpha(kAlpha, ACL_FLOAT), scale(kScale, ACL_FLOAT);
             Scalar input_scale(kInputScale, ACL_FLOAT);
             return aclnnInplaceEluGetWorkspaceSize(self, alpha.get(), scale.get(),
                                                    input_scale.get(), w, e);
         },
     .inplace_phase2 = aclnnInplaceElu,
     .reference =
         [](double x) {
             return x > 0 ? kScale * x : kScale * kAlpha * (std::exp(kInputScale * x) - 1.0);
         },
     .dtypes = {F32, F16, BF16, F64},
     .refused = S32,
     .values = kInputs},
    {.name = "Softplus",
     .plan =
         [](const aclTensor* self, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             Scalar beta(kBeta, ACL_FLOAT), threshold(int64_t{3}, ACL_INT64);
             return aclnnSoftplusGetWorkspaceSize(self, beta.get(), threshold.get(), out, w, e);
         },
     .phase2 = aclnnSoftplus,
     .reference =
         [](double x) {
             return x * kBeta > kSoftplusThreshold ? x : std::log1p(std::exp(kBeta * x)) / kBeta;
         },
     .dtypes = {F32, F16, BF16},
     .refused = F64,
     .values = kInputs},
    {.name = "Threshold",
     .plan =
         [](const aclTensor* self, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             Scalar threshold(kThreshold, ACL_FLOAT), value(kValue, ACL_FLOAT);
             return aclnnThresholdGetWorkspaceSize(self, threshold.get(), value.get(), out, w, e);
         },
     .phase2 = aclnnThreshold,
     .inplace =
         [](aclTensor* self, uint64_t* w, aclOpExecutor** e) {
             Scalar threshold(kThreshold, ACL_FLOAT), value(kValue, ACL_FLOAT);
             return aclnnInplaceThresholdGetWorkspaceSize(self, threshold.get(), value.get(), w, e);
         },
     .inplace_phase2 = aclnnInplaceThreshold,
     .reference = [](double x) { return x <= kThreshold ? kValue : x; },
     .dtypes = {F32, F16, BF16, S8, S16, S32, S64, U8},
     .refused = F64,
     .values = kInputs,
     .int_values = kInts,
     .exact = true},
};

class AclnnActivation : public aclnn_test::UnaryOpTest {};
OPENACL_UNARY_OP_TESTS(AclnnActivation)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnActivation, ::testing::ValuesIn(kCases),
                         aclnn_test::UnaryCaseName);

// ---- scalar parameters and particular cases ----

class AclnnActivationDetails : public aclnn_test::AclnnTest {
 protected:
    Tensor self_{{2}, {-1.0, 2.0}, ACL_FLOAT};
    Tensor out_{{2}, {0, 0}, ACL_FLOAT};
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnActivationDetails, NullScalarParametersAreParamNullptr) {
    Scalar one(1.0f, ACL_FLOAT);
    EXPECT_EQ(
        aclnnLeakyReluGetWorkspaceSize(self_.get(), nullptr, out_.get(), &workspace_, &executor_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnEluGetWorkspaceSize(self_.get(), nullptr, one.get(), one.get(), out_.get(),
                                       &workspace_, &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnEluGetWorkspaceSize(self_.get(), one.get(), one.get(), nullptr, out_.get(),
                                       &workspace_, &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnSoftplusGetWorkspaceSize(self_.get(), one.get(), nullptr, out_.get(),
                                            &workspace_, &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnThresholdGetWorkspaceSize(self_.get(), one.get(), nullptr, out_.get(),
                                             &workspace_, &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(executor_, nullptr);
}

TEST_F(AclnnActivationDetails, ComplexScalarsThatMustBecomeFloatAreInvalid) {
    const float complex_value[2] = {1.0f, 0.0f};
    aclScalar* complex = aclCreateScalar(const_cast<float*>(complex_value), ACL_COMPLEX64);
    ASSERT_NE(complex, nullptr);
    Scalar one(1.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnEluGetWorkspaceSize(self_.get(), complex, one.get(), one.get(), out_.get(),
                                       &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("alpha");
    EXPECT_EQ(aclnnSoftplusGetWorkspaceSize(self_.get(), complex, one.get(), out_.get(),
                                            &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
    aclDestroyScalar(complex);
}

TEST_F(AclnnActivationDetails, SameTypeActivationsRefuseAnOutOfAnotherType) {
    Tensor half({2}, {0, 0}, ACL_FLOAT16);
    EXPECT_EQ(aclnnGeluGetWorkspaceSize(self_.get(), half.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnSiluGetWorkspaceSize(self_.get(), half.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnReluGetWorkspaceSize(self_.get(), half.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(self_.get(), 0, half.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnActivationDetails, LeakyReluWritesANarrowerFloatOutput) {
    Tensor half({2}, {0, 0}, ACL_FLOAT16);
    Scalar slope(0.5, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnLeakyReluGetWorkspaceSize(self_.get(), slope.get(), half.get(), w,
                                                            e);
                  },
                  aclnnLeakyRelu),
              ACLNN_SUCCESS);
    EXPECT_EQ(half.Values(), (std::vector<double>{-0.5, 2.0}));
}

TEST_F(AclnnActivationDetails, ReluKeepsNaN) {
    Tensor self({2}, {NAN, -INFINITY}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnReluGetWorkspaceSize(self.get(), out_.get(), w, e);
                  },
                  aclnnRelu),
              ACLNN_SUCCESS);
    const std::vector<double> result = out_.Values();
    EXPECT_TRUE(std::isnan(result[0]));
    EXPECT_EQ(result[1], 0.0);
}

TEST_F(AclnnActivationDetails, ThresholdOnIntegersConvertsTheScalarsToTheTensorsType) {
    // threshold 1.9 becomes 1 for an int32 tensor: 2 stays, 1 becomes value (7.8 -> 7).
    Tensor self({3}, {1, 2, 0}, ACL_INT32);
    Tensor out({3}, {0, 0, 0}, ACL_INT32);
    Scalar threshold(1.9f, ACL_FLOAT), value(7.8f, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnThresholdGetWorkspaceSize(self.get(), threshold.get(),
                                                            value.get(), out.get(), w, e);
                  },
                  aclnnThreshold),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{7, 2, 7}));
}

TEST_F(AclnnActivationDetails, SigmoidSaturatesWithoutNaN) {
    Tensor self({2}, {-200.0, 200.0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSigmoidGetWorkspaceSize(self.get(), out_.get(), w, e);
                  },
                  aclnnSigmoid),
              ACLNN_SUCCESS);
    EXPECT_EQ(out_.Values(), (std::vector<double>{0.0, 1.0}));
}

TEST_F(AclnnActivationDetails, SoftplusAboveTheThresholdIsTheInputItself) {
    Tensor self({2}, {40.0, 100.0}, ACL_FLOAT);
    Scalar beta(1.0f, ACL_FLOAT), threshold(20.0f, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSoftplusGetWorkspaceSize(self.get(), beta.get(), threshold.get(),
                                                           out_.get(), w, e);
                  },
                  aclnnSoftplus),
              ACLNN_SUCCESS);
    EXPECT_EQ(out_.Values(), (std::vector<double>{40.0, 100.0}));
}

}  // namespace
