// aclnnop/aclnn_div.h: Div, Divs and their in-place forms (true division: integer operands give
// a floating result) and the DivMod forms with their rounding mode (0 true, 1 toward zero,
// 2 toward negative infinity), against plain C++ arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_div.h"
#include "binary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

const std::vector<aclDataType> kDivTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                            ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};
const std::vector<double> kA = {7.5, -7.5, 1.0, -0.25, 9.0, 100.0};
const std::vector<double> kB = {2.0, 2.0, -3.0, 0.5, -4.0, 8.0};
const std::vector<double> kIntA = {7, -7, 1, -9, 9, 100};
const std::vector<double> kIntB = {2, 2, -3, 4, -4, 8};

// The DivMod forms as table entries, one per mode.
template <int kMode>
aclnnStatus DivMod(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* w,
                   aclOpExecutor** e) {
    return aclnnDivModGetWorkspaceSize(self, other, kMode, out, w, e);
}
template <int kMode>
aclnnStatus InplaceDivMod(aclTensor* self, const aclTensor* other, uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceDivModGetWorkspaceSize(self, other, kMode, w, e);
}
template <int kMode>
aclnnStatus DivMods(const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* w,
                    aclOpExecutor** e) {
    return aclnnDivModsGetWorkspaceSize(self, other, kMode, out, w, e);
}
template <int kMode>
aclnnStatus InplaceDivMods(aclTensor* self, const aclScalar* other, uint64_t* w,
                           aclOpExecutor** e) {
    return aclnnInplaceDivModsGetWorkspaceSize(self, other, kMode, w, e);
}

const BinaryCase kCases[] = {
    {.name = "Div",
     .plan = aclnnDivGetWorkspaceSize,
     .phase2 = aclnnDiv,
     .inplace = aclnnInplaceDivGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceDiv,
     .scalar_plan = aclnnDivsGetWorkspaceSize,
     .scalar_phase2 = aclnnDivs,
     .inplace_scalar = aclnnInplaceDivsGetWorkspaceSize,
     .inplace_scalar_phase2 = aclnnInplaceDivs,
     .reference = [](double x, double y) { return x / y; },
     .dtypes = kDivTypes,
     .refused = ACL_UINT16,
     .out = BinaryCase::kFloatForIntegers,
     .a = kA,
     .b = kB,
     .int_a = kIntA,
     .int_b = kIntB},
    {.name = "DivModTrue",
     .plan = DivMod<0>,
     .phase2 = aclnnDivMod,
     .inplace = InplaceDivMod<0>,
     .inplace_phase2 = aclnnInplaceDivMod,
     .scalar_plan = DivMods<0>,
     .scalar_phase2 = aclnnDivMods,
     .inplace_scalar = InplaceDivMods<0>,
     .inplace_scalar_phase2 = aclnnInplaceDivMods,
     .reference = [](double x, double y) { return x / y; },
     .dtypes = kDivTypes,
     .refused = ACL_UINT16,
     .out = BinaryCase::kFloatForIntegers,
     .a = kA,
     .b = kB,
     .int_a = kIntA,
     .int_b = kIntB},
    {.name = "DivModTrunc",
     .plan = DivMod<1>,
     .phase2 = aclnnDivMod,
     .inplace = InplaceDivMod<1>,
     .inplace_phase2 = aclnnInplaceDivMod,
     .scalar_plan = DivMods<1>,
     .scalar_phase2 = aclnnDivMods,
     .inplace_scalar = InplaceDivMods<1>,
     .inplace_scalar_phase2 = aclnnInplaceDivMods,
     .reference = [](double x, double y) { return std::trunc(x / y); },
     .dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16,
                ACL_INT8, ACL_UINT8},
     .refused = ACL_UINT16,
     .a = kA,
     .b = kB,
     .int_a = kIntA,
     .int_b = kIntB,
     .exact = true},
    {.name = "DivModFloor",
     .plan = DivMod<2>,
     .phase2 = aclnnDivMod,
     .inplace = InplaceDivMod<2>,
     .inplace_phase2 = aclnnInplaceDivMod,
     .scalar_plan = DivMods<2>,
     .scalar_phase2 = aclnnDivMods,
     .inplace_scalar = InplaceDivMods<2>,
     .inplace_scalar_phase2 = aclnnInplaceDivMods,
     .reference = [](double x, double y) { return std::floor(x / y); },
     .dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16,
                ACL_INT8, ACL_UINT8},
     .refused = ACL_UINT16,
     .a = kA,
     .b = kB,
     .int_a = kIntA,
     .int_b = kIntB,
     .exact = true},
};

class AclnnDiv : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnDiv)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnDiv, ::testing::ValuesIn(kCases), aclnn_test::BinaryCaseName);

class AclnnDivDetails : public aclnn_test::AclnnTest {
 protected:
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnDivDetails, IntegerDivisionIsTrueDivisionIntoAFloatOutput) {
    Tensor self({3}, {7, -7, 1}, ACL_INT32), other({3}, {2, 2, 0}, ACL_INT32);
    Tensor out({3}, {0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnDivGetWorkspaceSize(self.get(), other.get(), out.get(), w, e);
                  },
                  aclnnDiv),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{3.5, -3.5, INFINITY}));
}

TEST_F(AclnnDivDetails, IntegerDivisionRefusesAnIntegerOutput) {
    Tensor self({2}, {7, 8}, ACL_INT32), out({2}, {0, 0}, ACL_INT32);
    EXPECT_EQ(aclnnDivGetWorkspaceSize(self.get(), self.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("cannot be cast");
    EXPECT_EQ(aclnnInplaceDivGetWorkspaceSize(self.get(), self.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnDivDetails, DivsOfIntegersByAnIntegerScalarIsTrueDivision) {
    Tensor self({2}, {7, -3}, ACL_INT64), out({2}, {0, 0}, ACL_DOUBLE);
    Scalar other(int64_t{2}, ACL_INT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnDivsGetWorkspaceSize(self.get(), other.get(), out.get(), w, e);
                  },
                  aclnnDivs),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{3.5, -1.5}));
}

TEST_F(AclnnDivDetails, DivModRoundsTowardZeroOrDownAndKeepsIntegers) {
    Tensor self({4}, {7, -7, 7, -7}, ACL_INT32), other({4}, {2, 2, -2, -2}, ACL_INT32);
    Tensor trunc({4}, {0, 0, 0, 0}, ACL_INT32), floor({4}, {0, 0, 0, 0}, ACL_INT32);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnDivModGetWorkspaceSize(self.get(), other.get(), 1, trunc.get(), w,
                                                         e);
                  },
                  aclnnDivMod),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnDivModGetWorkspaceSize(self.get(), other.get(), 2, floor.get(), w,
                                                         e);
                  },
                  aclnnDivMod),
              ACLNN_SUCCESS);
    EXPECT_EQ(trunc.Values(), (std::vector<double>{3, -3, -3, 3}));
    EXPECT_EQ(floor.Values(), (std::vector<double>{3, -4, -4, 3}));
}

TEST_F(AclnnDivDetails, IntegerDivModByZeroGivesZeroAndTheMinimumByMinusOneWraps) {
    Tensor self({2}, {7, -2147483648.0}, ACL_INT32), other({2}, {0, -1}, ACL_INT32);
    Tensor out({2}, {5, 5}, ACL_INT32);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnDivModGetWorkspaceSize(self.get(), other.get(), 2, out.get(), w,
                                                         e);
                  },
                  aclnnDivMod),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0, -2147483648.0}));
}

TEST_F(AclnnDivDetails, AModeOtherThanZeroOneOrTwoIsInvalid) {
    Tensor self({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_FLOAT);
    Scalar other(2.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnDivModGetWorkspaceSize(self.get(), self.get(), 3, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("mode");
    EXPECT_EQ(aclnnDivModsGetWorkspaceSize(self.get(), other.get(), -1, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnInplaceDivModGetWorkspaceSize(self.get(), self.get(), 7, &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnInplaceDivModsGetWorkspaceSize(self.get(), other.get(), 9, &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    // A null parameter is reported before the mode.
    EXPECT_EQ(aclnnDivModGetWorkspaceSize(nullptr, self.get(), 3, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(ex_, nullptr);
}

TEST_F(AclnnDivDetails, FloatDivModFloorMatchesPythonForNegativeOperands) {
    Tensor self({3}, {-7.5, 7.5, -0.5}, ACL_FLOAT), other({3}, {2.0, -2.0, 4.0}, ACL_FLOAT);
    Tensor out({3}, {0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnDivModGetWorkspaceSize(self.get(), other.get(), 2, out.get(), w,
                                                         e);
                  },
                  aclnnDivMod),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{-4.0, -4.0, -1.0}));
}

}  // namespace
