// aclnnop/aclnn_maximum.h and aclnn_minimum.h: out = the larger (smaller) of self and other,
// with broadcasting and promotion, NaN winning, against std::max/std::min.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "binary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Tensor;

namespace {

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                         ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

const BinaryCase kCases[] = {
    {.name = "Maximum",
     .plan = aclnnMaximumGetWorkspaceSize,
     .phase2 = aclnnMaximum,
     .reference = [](double x, double y) { return std::max(x, y); },
     .dtypes = kTypes,
     .refused = ACL_UINT32,
     .a = {1.5, -2.0, 0.25, 100.0, -7.5, 3.0},
     .b = {0.5, 4.0, -1.25, 100.0, 2.0, -3.0},
     .int_a = {10, -2, 0, 5, -7, 3},
     .int_b = {1, 4, -1, 8, 2, -3},
     .exact = true},
    {.name = "Minimum",
     .plan = aclnnMinimumGetWorkspaceSize,
     .phase2 = aclnnMinimum,
     .reference = [](double x, double y) { return std::min(x, y); },
     .dtypes = kTypes,
     .refused = ACL_UINT32,
     .a = {1.5, -2.0, 0.25, 100.0, -7.5, 3.0},
     .b = {0.5, 4.0, -1.25, 100.0, 2.0, -3.0},
     .int_a = {10, -2, 0, 5, -7, 3},
     .int_b = {1, 4, -1, 8, 2, -3},
     .exact = true},
};

class AclnnMaximumMinimum : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnMaximumMinimum)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnMaximumMinimum, ::testing::ValuesIn(kCases),
                         aclnn_test::BinaryCaseName);

class AclnnMaximumDetails : public aclnn_test::AclnnTest {};

TEST_F(AclnnMaximumDetails, NaNWinsOnEitherSide) {
    Tensor self({2}, {NAN, 1.0}, ACL_FLOAT), other({2}, {1.0, NAN}, ACL_FLOAT);
    Tensor high({2}, {0, 0}, ACL_FLOAT), low({2}, {0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnMaximumGetWorkspaceSize(self.get(), other.get(), high.get(), w,
                                                          e);
                  },
                  aclnnMaximum),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnMinimumGetWorkspaceSize(self.get(), other.get(), low.get(), w, e);
                  },
                  aclnnMinimum),
              ACLNN_SUCCESS);
    for (double v : high.Values())
        EXPECT_TRUE(std::isnan(v));
    for (double v : low.Values())
        EXPECT_TRUE(std::isnan(v));
}

TEST_F(AclnnMaximumDetails, AnIntegerAndAFloatCompareInTheFloat) {
    Tensor self({2}, {2, -3}, ACL_INT32), other({2}, {2.5, -3.5}, ACL_FLOAT16);
    Tensor out({2}, {0, 0}, ACL_FLOAT16);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnMaximumGetWorkspaceSize(self.get(), other.get(), out.get(), w, e);
                  },
                  aclnnMaximum),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{2.5, -3}));
}

}  // namespace
