// aclnnop/aclnn_sub.h: out = self - alpha * other (Sub, Subs, InplaceSub, InplaceSubs) against
// plain C++ arithmetic: the shared checks of binary_op_checks.h (with alpha 2), then alpha's own.
#include <gtest/gtest.h>

#include <vector>

#include "aclnnop/aclnn_sub.h"
#include "binary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

// The table's operators run with alpha = 2 (an int64 scalar, castable to every type).
aclnnStatus Sub(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* w,
                aclOpExecutor** e) {
    Scalar alpha(int64_t{2}, ACL_INT64);
    return aclnnSubGetWorkspaceSize(self, other, alpha.get(), out, w, e);
}
aclnnStatus InplaceSub(aclTensor* self, const aclTensor* other, uint64_t* w, aclOpExecutor** e) {
    Scalar alpha(int64_t{2}, ACL_INT64);
    return aclnnInplaceSubGetWorkspaceSize(self, other, alpha.get(), w, e);
}
aclnnStatus Subs(const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* w,
                 aclOpExecutor** e) {
    Scalar alpha(int64_t{2}, ACL_INT64);
    return aclnnSubsGetWorkspaceSize(self, other, alpha.get(), out, w, e);
}
aclnnStatus InplaceSubs(aclTensor* self, const aclScalar* other, uint64_t* w, aclOpExecutor** e) {
    Scalar alpha(int64_t{2}, ACL_INT64);
    return aclnnInplaceSubsGetWorkspaceSize(self, other, alpha.get(), w, e);
}

const BinaryCase kCases[] = {
    {.name = "Sub",
     .plan = Sub,
     .phase2 = aclnnSub,
     .inplace = InplaceSub,
     .inplace_phase2 = aclnnInplaceSub,
     .scalar_plan = Subs,
     .scalar_phase2 = aclnnSubs,
     .inplace_scalar = InplaceSubs,
     .inplace_scalar_phase2 = aclnnInplaceSubs,
     .reference = [](double x, double y) { return x - 2 * y; },
     .dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16,
                ACL_INT8},
     .refused = ACL_UINT32,
     .a = {1.5, -2.0, 0.25, 100.0, -7.5, 3.0},
     .b = {0.5, 4.0, -1.25, 8.0, 2.0, -3.0},
     .int_a = {10, -2, 0, 50, -7, 3},
     .int_b = {1, 4, -1, 8, 2, -3},
     .exact = true},
};

class AclnnSub : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnSub)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnSub, ::testing::ValuesIn(kCases), aclnn_test::BinaryCaseName);

class AclnnSubDetails : public aclnn_test::AclnnTest {};

TEST_F(AclnnSubDetails, AFractionalAlphaScalesOther) {
    Tensor self({2}, {1.0, 2.0}, ACL_FLOAT), other({2}, {4.0, 8.0}, ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_FLOAT);
    Scalar alpha(0.25, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSubGetWorkspaceSize(self.get(), other.get(), alpha.get(),
                                                      out.get(), w, e);
                  },
                  aclnnSub),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0.0, 0.0}));
}

TEST_F(AclnnSubDetails, IntegersWrapAround) {
    Tensor self({2}, {-2147483648.0, 5}, ACL_INT32), other({2}, {1, 2}, ACL_INT32);
    Tensor out({2}, {0, 0}, ACL_INT32);
    Scalar alpha(int32_t{1}, ACL_INT32);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSubGetWorkspaceSize(self.get(), other.get(), alpha.get(),
                                                      out.get(), w, e);
                  },
                  aclnnSub),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{2147483647.0, 3}));
}

TEST_F(AclnnSubDetails, NullAlphaIsParamNullptr) {
    Tensor self({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_FLOAT);
    Scalar other(1.0f, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnSubGetWorkspaceSize(self.get(), self.get(), nullptr, out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnSubsGetWorkspaceSize(self.get(), other.get(), nullptr, out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceSubGetWorkspaceSize(self.get(), self.get(), nullptr, &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceSubsGetWorkspaceSize(self.get(), other.get(), nullptr, &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnSubDetails, AFloatAlphaWithIntegerOperandsIsInvalid) {
    Tensor self({2}, {1, 2}, ACL_INT32), out({2}, {0, 0}, ACL_INT32);
    Scalar alpha(0.5f, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnSubGetWorkspaceSize(self.get(), self.get(), alpha.get(), out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("alpha");
}

TEST_F(AclnnSubDetails, SubsOfAFloatScalarFromIntegersComputesInFloat) {
    Tensor self({2}, {1, 2}, ACL_INT32), out({2}, {0, 0}, ACL_FLOAT);
    Scalar other(0.5f, ACL_FLOAT), alpha(int64_t{1}, ACL_INT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSubsGetWorkspaceSize(self.get(), other.get(), alpha.get(),
                                                       out.get(), w, e);
                  },
                  aclnnSubs),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0.5, 1.5}));
}

TEST_F(AclnnSubDetails, Float16AndBfloat16PromoteToFloat) {
    Tensor self({2}, {1.5, 3.0}, ACL_FLOAT16), other({2}, {0.5, 1.0}, ACL_BF16);
    Tensor out({2}, {0, 0}, ACL_FLOAT);
    Tensor narrow({2}, {0, 0}, ACL_FLOAT16);
    Scalar alpha(int64_t{1}, ACL_INT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSubGetWorkspaceSize(self.get(), other.get(), alpha.get(),
                                                      out.get(), w, e);
                  },
                  aclnnSub),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1.0, 2.0}));
    // The promoted float result may also go to a float16 output (a floating narrowing).
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnSubGetWorkspaceSize(self.get(), other.get(), alpha.get(),
                                                      narrow.get(), w, e);
                  },
                  aclnnSub),
              ACLNN_SUCCESS);
    EXPECT_EQ(narrow.Values(), (std::vector<double>{1.0, 2.0}));
}

}  // namespace
