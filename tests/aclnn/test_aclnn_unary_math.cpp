// The one-operand math operators (aclnn_abs.h, aclnn_neg.h, aclnn_exp.h, aclnn_log.h,
// aclnn_sqrt.h, aclnn_sin.h, aclnn_cos.h, aclnn_tanh.h, aclnn_atan.h, aclnn_floor.h,
// aclnn_reciprocal.h, aclnn_sign.h, aclnn_logical_not.h) against <cmath>: the shared checks of
// unary_op_checks.h for each, then what is particular to some (integer wrap-around, the
// floating result of integer inputs, NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"
#include "unary_op_checks.h"

using aclnn_test::Execute;
using aclnn_test::Tensor;
using aclnn_test::UnaryCase;

namespace {

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE;
constexpr aclDataType S8 = ACL_INT8, S16 = ACL_INT16, S32 = ACL_INT32, S64 = ACL_INT64;
constexpr aclDataType U8 = ACL_UINT8, U16 = ACL_UINT16, U32 = ACL_UINT32, U64 = ACL_UINT64;
constexpr aclDataType BOOL = ACL_BOOL;

const std::vector<double> kSigned = {-2.5, -1.0, 0.0, 0.5, 3.0, -7.25};
const std::vector<double> kSignedInts = {-3, -1, 0, 1, 2, -100};
const std::vector<double> kPositive = {0.5, 1.0, 2.0, 3.5, 10.0, 100.0};
const std::vector<double> kPositiveInts = {1, 2, 3, 4, 9, 100};
const std::vector<double> kAngles = {-3.0, -1.0, 0.0, 0.5, 1.5, 3.0};
const std::vector<double> kSmallInts = {-3, -1, 0, 1, 2, 3};
// Math ops that take integer and bool tensors and compute in float.
const std::vector<aclDataType> kMathTypes = {F32, F16, BF16, F64, S8, S16, S32, S64, U8, BOOL};

double Sign(double x) {
    return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}

const UnaryCase kCases[] = {
    {.name = "Abs",
     .plan = aclnnAbsGetWorkspaceSize,
     .phase2 = aclnnAbs,
     .reference = [](double x) { return std::fabs(x); },
     .dtypes = {F32, F16, BF16, F64, S8, S16, S32, S64, U8, BOOL},
     .refused = U16,
     .values = kSigned,
     .int_values = kSignedInts,
     .exact = true},
    {.name = "Neg",
     .plan = aclnnNegGetWorkspaceSize,
     .phase2 = aclnnNeg,
     .inplace = aclnnInplaceNegGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceNeg,
     .reference = [](double x) { return -x; },
     .dtypes = {F32, F16, BF16, F64, S8, S32, S64},
     .refused = S16,
     .values = kSigned,
     .int_values = kSignedInts,
     .exact = true},
    {.name = "Exp",
     .plan = aclnnExpGetWorkspaceSize,
     .phase2 = aclnnExp,
     .inplace = aclnnInplaceExpGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceExp,
     .reference = [](double x) { return std::exp(x); },
     .dtypes = {F32, F16, BF16, F64, S64, BOOL},
     .refused = S32,
     .out = UnaryCase::kFloatForIntegers,
     .values = {-2.0, -0.5, 0.0, 0.5, 1.0, 3.0},
     .int_values = kSmallInts},
    {.name = "Log",
     .plan = aclnnLogGetWorkspaceSize,
     .phase2 = aclnnLog,
     .inplace = aclnnInplaceLogGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceLog,
     .reference = [](double x) { return std::log(x); },
     .dtypes = kMathTypes,
     .refused = U16,
     .out = UnaryCase::kFloatForIntegers,
     .values = kPositive,
     .int_values = kPositiveInts},
    {.name = "Sqrt",
     .plan = aclnnSqrtGetWorkspaceSize,
     .phase2 = aclnnSqrt,
     .inplace = aclnnInplaceSqrtGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceSqrt,
     .reference = [](double x) { return std::sqrt(x); },
     .dtypes = kMathTypes,
     .refused = U16,
     .out = UnaryCase::kFloatForIntegers,
     .values = {0.0, 0.25, 1.0, 2.0, 9.0, 100.0},
     .int_values = {0, 1, 2, 4, 9, 100}},
    {.name = "Sin",
     .plan = aclnnSinGetWorkspaceSize,
     .phase2 = aclnnSin,
     .inplace = aclnnInplaceSinGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceSin,
     .reference = [](double x) { return std::sin(x); },
     .dtypes = kMathTypes,
     .refused = U16,
     .out = UnaryCase::kFloatForIntegers,
     .values = kAngles,
     .int_values = kSmallInts},
    {.name = "Cos",
     .plan = aclnnCosGetWorkspaceSize,
     .phase2 = aclnnCos,
     .inplace = aclnnInplaceCosGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceCos,
     .reference = [](double x) { return std::cos(x); },
     .dtypes = kMathTypes,
     .refused = U16,
     .out = UnaryCase::kFloatForIntegers,
     .values = kAngles,
     .int_values = kSmallInts},
    {.name = "Tanh",
     .plan = aclnnTanhGetWorkspaceSize,
     .phase2 = aclnnTanh,
     .inplace = aclnnInplaceTanhGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceTanh,
     .reference = [](double x) { return std::tanh(x); },
     .dtypes = {F32, F16, BF16, S8, S16, S32, S64, U8, BOOL},
     .refused = F64,
     .out = UnaryCase::kFloatForIntegers,
     .values = kAngles,
     .int_values = kSmallInts},
    {.name = "Atan",
     .plan = aclnnAtanGetWorkspaceSize,
     .phase2 = aclnnAtan,
     .inplace = aclnnInplaceAtanGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceAtan,
     .reference = [](double x) { return std::atan(x); },
     .dtypes = kMathTypes,
     .refused = U16,
     .out = UnaryCase::kFloatForIntegers,
     .values = kAngles,
     .int_values = kSmallInts},
    {.name = "Floor",
     .plan = aclnnFloorGetWorkspaceSize,
     .phase2 = aclnnFloor,
     .inplace = aclnnInplaceFloorGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceFloor,
     .reference = [](double x) { return std::floor(x); },
     .dtypes = {F32, F16, BF16, F64, S8, S16, S32, S64, U8, U16, U32, U64},
     .refused = BOOL,
     .values = {-2.5, -1.0, -0.5, 0.5, 1.75, 3.0},
     .int_values = kSignedInts,
     .exact = true},
    {.name = "Reciprocal",
     .plan = aclnnReciprocalGetWorkspaceSize,
     .phase2 = aclnnReciprocal,
     .inplace = aclnnInplaceReciprocalGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceReciprocal,
     .reference = [](double x) { return 1.0 / x; },
     .dtypes = kMathTypes,
     .refused = U16,
     .out = UnaryCase::kFloatForIntegers,
     .values = {-4.0, -0.5, 0.25, 1.0, 3.0, 8.0},
     .int_values = {-4, -2, 1, 2, 4, 8}},
    {.name = "Sign",
     .plan = aclnnSignGetWorkspaceSize,
     .phase2 = aclnnSign,
     .reference = Sign,
     .dtypes = {F32, F16, BF16, F64, S32, S64, BOOL},
     .refused = S8,
     .values = kSigned,
     .int_values = kSignedInts,
     .exact = true},
    {.name = "LogicalNot",
     .plan = aclnnLogicalNotGetWorkspaceSize,
     .phase2 = aclnnLogicalNot,
     .inplace = aclnnInplaceLogicalNotGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceLogicalNot,
     .reference = [](double x) { return x == 0.0 ? 1.0 : 0.0; },
     .dtypes = kMathTypes,
     .refused = U16,
     .out = UnaryCase::kBool,
     .values = {-2.0, 0.0, 0.5, 0.0, 3.0, 1.0},
     .int_values = {-2, 0, 1, 0, 3, 1},
     .exact = true},
};

class AclnnUnaryMath : public aclnn_test::UnaryOpTest {};
OPENACL_UNARY_OP_TESTS(AclnnUnaryMath)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnUnaryMath, ::testing::ValuesIn(kCases),
                         aclnn_test::UnaryCaseName);

// ---- what is particular to some of them ----

class AclnnUnaryMathDetails : public aclnn_test::AclnnTest {};

TEST_F(AclnnUnaryMathDetails, NegAndAbsOfTheMostNegativeInt8WrapAround) {
    Tensor self({2}, {-128, 5}, ACL_INT8);
    Tensor neg({2}, {0, 0}, ACL_INT8), abs({2}, {0, 0}, ACL_INT8);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnNegGetWorkspaceSize(self.get(), neg.get(), w, e);
                  },
                  aclnnNeg),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnAbsGetWorkspaceSize(self.get(), abs.get(), w, e);
                  },
                  aclnnAbs),
              ACLNN_SUCCESS);
    EXPECT_EQ(neg.Values(), (std::vector<double>{-128, -5}));
    EXPECT_EQ(abs.Values(), (std::vector<double>{-128, 5}));
}

TEST_F(AclnnUnaryMathDetails, AbsRefusesAnOutOfAnotherType) {
    Tensor self({2}, {-1, 2}, ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_DOUBLE);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnAbsGetWorkspaceSize(self.get(), out.get(), &workspace, &executor),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnUnaryMathDetails, NegWritesAWiderOutput) {
    Tensor self({3}, {-3, 0, 7}, ACL_INT8);
    Tensor out({3}, {0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnNegGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  aclnnNeg),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{3, 0, -7}));
}

TEST_F(AclnnUnaryMathDetails, ExpOfAnIntegerRefusesAnIntegerOutput) {
    Tensor self({2}, {1, 2}, ACL_INT64);
    Tensor out({2}, {0, 0}, ACL_INT64);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnExpGetWorkspaceSize(self.get(), out.get(), &workspace, &executor),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("cannot be cast");
}

TEST_F(AclnnUnaryMathDetails, InplaceExpRefusesAnIntegerSelfRef) {
    Tensor self({2}, {1, 2}, ACL_INT64);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnInplaceExpGetWorkspaceSize(self.get(), &workspace, &executor),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnUnaryMathDetails, SqrtOfAnInt64ComputesInDoublePrecision) {
    // sqrt(2^53) = 94906265.62...; computed in float it would come out as 94906264.
    Tensor self({1}, {9007199254740992.0}, ACL_INT64);
    Tensor out({1}, {0}, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSqrtGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  aclnnSqrt),
              ACLNN_SUCCESS);
    EXPECT_DOUBLE_EQ(out.Values()[0], std::sqrt(9007199254740992.0));
}

TEST_F(AclnnUnaryMathDetails, LogOfZeroAndNegativesGivesInfinityAndNaN) {
    Tensor self({3}, {0.0, -1.0, 1.0}, ACL_FLOAT);
    Tensor out({3}, {5, 5, 5}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnLogGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  aclnnLog),
              ACLNN_SUCCESS);
    const std::vector<double> result = out.Values();
    EXPECT_EQ(result[0], -INFINITY);
    EXPECT_TRUE(std::isnan(result[1]));
    EXPECT_EQ(result[2], 0.0);
}

TEST_F(AclnnUnaryMathDetails, SignOfNaNIsNaNAndOfZerosIsZero) {
    Tensor self({3}, {NAN, -0.0, 0.0}, ACL_FLOAT);
    Tensor out({3}, {5, 5, 5}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSignGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  aclnnSign),
              ACLNN_SUCCESS);
    const std::vector<double> result = out.Values();
    EXPECT_TRUE(std::isnan(result[0]));
    EXPECT_EQ(result[1], 0.0);
    EXPECT_EQ(result[2], 0.0);
}

TEST_F(AclnnUnaryMathDetails, FloorKeepsLargeUint64ValuesExactly) {
    // Above 2^63: an integer copy, no float round trip.
    Tensor self({1}, {18446744073709549568.0}, ACL_UINT64);  // 2^64 - 2048
    Tensor out({1}, {0}, ACL_UINT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnFloorGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  aclnnFloor),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values()[0], 18446744073709549568.0);
}

TEST_F(AclnnUnaryMathDetails, LogicalNotWritesOneAndZeroIntoAFloatOutput) {
    Tensor self({4}, {0, 1, 0, 1}, ACL_BOOL);
    Tensor out({4}, {7, 7, 7, 7}, ACL_FLOAT16);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnLogicalNotGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  aclnnLogicalNot),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1, 0, 1, 0}));
}

TEST_F(AclnnUnaryMathDetails, ReciprocalOfZeroIsInfinity) {
    Tensor self({2}, {0.0, -0.0}, ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnReciprocalGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  aclnnReciprocal),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{INFINITY, -INFINITY}));
}

}  // namespace
