// The comparison operators (aclnn_eq_tensor.h, aclnn_ne_tensor.h, aclnn_gt_tensor.h,
// aclnn_lt_tensor.h, aclnn_le_tensor.h, aclnn_gt_scalar.h, aclnn_ge_scalar.h): out = 1 where
// self op other holds, else 0, as bool or as out's type; the in-place forms write it into
// selfRef. Against the C++ operators.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "binary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE;
constexpr aclDataType S8 = ACL_INT8, S16 = ACL_INT16, S32 = ACL_INT32, S64 = ACL_INT64;
constexpr aclDataType U8 = ACL_UINT8, U16 = ACL_UINT16, U32 = ACL_UINT32, U64 = ACL_UINT64;
constexpr aclDataType BOOL = ACL_BOOL;

const std::vector<double> kA = {1.5, -2.0, 0.25, 3.0, -7.5, 3.0};
const std::vector<double> kB = {0.5, 4.0, 0.25, 8.0, -7.5, -3.0};
const std::vector<double> kIntA = {10, -2, 0, 5, -7, 3};
const std::vector<double> kIntB = {1, 4, 0, 8, -7, -3};

double B(bool v) {
    return v ? 1.0 : 0.0;
}

// refused: a type outside the operator's list (complex where every real type is listed).
BinaryCase Compare(const char* name, double (*reference)(double, double),
                   std::vector<aclDataType> dtypes, aclDataType refused = ACL_COMPLEX64) {
    BinaryCase c;
    c.name = name;
    c.reference = reference;
    c.dtypes = std::move(dtypes);
    c.refused = refused;
    c.out = BinaryCase::kBool;
    c.a = kA;
    c.b = kB;
    c.int_a = kIntA;
    c.int_b = kIntB;
    c.exact = true;
    return c;
}

std::vector<BinaryCase> Cases() {
    std::vector<BinaryCase> cases;
    BinaryCase eq = Compare(
        "EqTensor", [](double x, double y) { return B(x == y); },
        {F32, F16, BF16, F64, S8, S16, S32, S64, U8, BOOL}, U32);
    eq.plan = aclnnEqTensorGetWorkspaceSize;
    eq.phase2 = aclnnEqTensor;
    eq.inplace = aclnnInplaceEqTensorGetWorkspaceSize;
    eq.inplace_phase2 = aclnnInplaceEqTensor;
    cases.push_back(eq);

    BinaryCase ne = Compare(
        "NeTensor", [](double x, double y) { return B(x != y); },
        {F32, F16, BF16, F64, S8, S16, S32, S64, U8, BOOL}, U32);
    ne.plan = aclnnNeTensorGetWorkspaceSize;
    ne.phase2 = aclnnNeTensor;
    ne.inplace = aclnnInplaceNeTensorGetWorkspaceSize;
    ne.inplace_phase2 = aclnnInplaceNeTensor;
    cases.push_back(ne);

    BinaryCase gt = Compare("GtTensor", [](double x, double y) { return B(x > y); },
                            {F32, F16, BF16, F64, S8, S16, S32, S64, U8, U16, U32, U64, BOOL});
    gt.plan = aclnnGtTensorGetWorkspaceSize;
    gt.phase2 = aclnnGtTensor;
    gt.inplace = aclnnInplaceGtTensorGetWorkspaceSize;
    gt.inplace_phase2 = aclnnInplaceGtTensor;
    gt.scalar_plan = aclnnGtScalarGetWorkspaceSize;
    gt.scalar_phase2 = aclnnGtScalar;
    gt.inplace_scalar = aclnnInplaceGtScalarGetWorkspaceSize;
    gt.inplace_scalar_phase2 = aclnnInplaceGtScalar;
    cases.push_back(gt);

    BinaryCase lt = Compare("LtTensor", [](double x, double y) { return B(x < y); },
                            {F32, F16, BF16, F64, S8, S16, S32, S64, U8, U16, U32, U64, BOOL});
    lt.plan = aclnnLtTensorGetWorkspaceSize;
    lt.phase2 = aclnnLtTensor;
    lt.inplace = aclnnInplaceLtTensorGetWorkspaceSize;
    lt.inplace_phase2 = aclnnInplaceLtTensor;
    cases.push_back(lt);

    BinaryCase le = Compare(
        "LeTensor", [](double x, double y) { return B(x <= y); },
        {F32, F16, BF16, F64, S8, S16, S32, S64, U8, U16, U64, BOOL}, U32);
    le.plan = aclnnLeTensorGetWorkspaceSize;
    le.phase2 = aclnnLeTensor;
    le.inplace = aclnnInplaceLeTensorGetWorkspaceSize;
    le.inplace_phase2 = aclnnInplaceLeTensor;
    cases.push_back(le);

    // GeScalar's tensor form stands in with LeTensor's operands swapped (x >= y is y <= x), so
    // the table's tensor checks run; the scalar forms are GeScalar's own.
    BinaryCase ge = Compare("GeScalar", [](double x, double y) { return B(x >= y); },
                            {F32, F16, BF16, F64, S8, S16, S32, S64, U8, U16, U64, BOOL});
    ge.plan = [](const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* w,
                 aclOpExecutor** e) {
        return aclnnLeTensorGetWorkspaceSize(other, self, out, w, e);
    };
    ge.phase2 = aclnnLeTensor;
    ge.scalar_plan = aclnnGeScalarGetWorkspaceSize;
    ge.scalar_phase2 = aclnnGeScalar;
    ge.inplace_scalar = aclnnInplaceGeScalarGetWorkspaceSize;
    ge.inplace_scalar_phase2 = aclnnInplaceGeScalar;
    cases.push_back(ge);
    return cases;
}

class AclnnCompare : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnCompare)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnCompare, ::testing::ValuesIn(Cases()),
                         aclnn_test::BinaryCaseName);

class AclnnCompareDetails : public aclnn_test::AclnnTest {
 protected:
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnCompareDetails, ResultsGoIntoIntegerAndFloatOutputsAsOneAndZero) {
    Tensor self({3}, {1, 2, 3}, ACL_INT32), other({3}, {2, 2, 2}, ACL_INT32);
    Tensor ints({3}, {7, 7, 7}, ACL_INT64), halves({3}, {7, 7, 7}, ACL_FLOAT16);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnGtTensorGetWorkspaceSize(self.get(), other.get(), ints.get(), w,
                                                           e);
                  },
                  aclnnGtTensor),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnEqTensorGetWorkspaceSize(self.get(), other.get(), halves.get(), w,
                                                           e);
                  },
                  aclnnEqTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(ints.Values(), (std::vector<double>{0, 0, 1}));
    EXPECT_EQ(halves.Values(), (std::vector<double>{0, 1, 0}));
}

TEST_F(AclnnCompareDetails, AnOutputOfAnUnlistedTypeIsInvalid) {
    Tensor self({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_UINT32);
    EXPECT_EQ(aclnnEqTensorGetWorkspaceSize(self.get(), self.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnCompareDetails, NaNComparesUnequalToEverything) {
    Tensor self({2}, {NAN, 1.0}, ACL_FLOAT), other({2}, {NAN, NAN}, ACL_FLOAT);
    Tensor eq({2}, {7, 7}, ACL_BOOL), ne({2}, {7, 7}, ACL_BOOL), le({2}, {7, 7}, ACL_BOOL);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnEqTensorGetWorkspaceSize(self.get(), other.get(), eq.get(), w, e);
                  },
                  aclnnEqTensor),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnNeTensorGetWorkspaceSize(self.get(), other.get(), ne.get(), w, e);
                  },
                  aclnnNeTensor),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnLeTensorGetWorkspaceSize(self.get(), other.get(), le.get(), w, e);
                  },
                  aclnnLeTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(eq.Values(), (std::vector<double>{0, 0}));
    EXPECT_EQ(ne.Values(), (std::vector<double>{1, 1}));
    EXPECT_EQ(le.Values(), (std::vector<double>{0, 0}));
}

TEST_F(AclnnCompareDetails, AnIntegerTensorComparesWithAFractionalScalarExactly) {
    Tensor self({3}, {0, 1, 2}, ACL_INT32), out({3}, {7, 7, 7}, ACL_BOOL);
    Scalar half(0.5, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnGtScalarGetWorkspaceSize(self.get(), half.get(), out.get(), w, e);
                  },
                  aclnnGtScalar),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0, 1, 1}));
}

TEST_F(AclnnCompareDetails, UnsignedTensorsCompareWithIntegerScalars) {
    Tensor self({3}, {1, 5, 4000000000.0}, ACL_UINT32), out({3}, {7, 7, 7}, ACL_BOOL);
    Scalar four(int64_t{4}, ACL_INT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnGeScalarGetWorkspaceSize(self.get(), four.get(), out.get(), w, e);
                  },
                  aclnnGeScalar),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0, 1, 1}));
}

TEST_F(AclnnCompareDetails, MixingAWideUnsignedTypeWithAnotherIsInvalid) {
    Tensor self({2}, {1, 2}, ACL_UINT32), other({2}, {1, 2}, ACL_INT32);
    Tensor out({2}, {0, 0}, ACL_BOOL);
    EXPECT_EQ(aclnnGtTensorGetWorkspaceSize(self.get(), other.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("no common type");
}

TEST_F(AclnnCompareDetails, InplaceComparisonWritesOneAndZeroInSelfRefsType) {
    Tensor self({3}, {1.5, 2.0, 2.5}, ACL_FLOAT);
    Scalar two(2.0f, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnInplaceGeScalarGetWorkspaceSize(self.get(), two.get(), w, e);
                  },
                  aclnnInplaceGeScalar),
              ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), (std::vector<double>{0, 1, 1}));
}

}  // namespace
