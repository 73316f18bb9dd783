// aclnnop/aclnn_floor_divide.h: out = floor(self / other), Python's // (FloorDivide,
// FloorDivides and their in-place forms), against std::floor of the true quotient.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_floor_divide.h"
#include "binary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

const BinaryCase kCases[] = {
    {.name = "FloorDivide",
     .plan = aclnnFloorDivideGetWorkspaceSize,
     .phase2 = aclnnFloorDivide,
     .inplace = aclnnInplaceFloorDivideGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceFloorDivide,
     .scalar_plan = aclnnFloorDividesGetWorkspaceSize,
     .scalar_phase2 = aclnnFloorDivides,
     .inplace_scalar = aclnnInplaceFloorDividesGetWorkspaceSize,
     .inplace_scalar_phase2 = aclnnInplaceFloorDivides,
     .reference = [](double x, double y) { return std::floor(x / y); },
     .dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16,
                ACL_INT8, ACL_UINT8},
     .refused = ACL_UINT16,
     .a = {-7.5, 7.5, 0.0, 3.5, 7.0, -3.0},
     .b = {2.0, -0.5, 3.0, 1.5, -2.0, 4.0},
     .int_a = {-7, -1, 0, 7, 5, -3},
     .int_b = {2, -3, 3, 2, -2, 4},
     .exact = true},
};

class AclnnFloorDivide : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnFloorDivide)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnFloorDivide, ::testing::ValuesIn(kCases),
                         aclnn_test::BinaryCaseName);

class AclnnFloorDivideDetails : public aclnn_test::AclnnTest {};

TEST_F(AclnnFloorDivideDetails, TwoBoolOperandsComputeInFloat) {
    Tensor self({2}, {1, 0}, ACL_BOOL), other({2}, {1, 1}, ACL_BOOL);
    Tensor out({2}, {5, 5}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnFloorDivideGetWorkspaceSize(self.get(), other.get(), out.get(), w,
                                                              e);
                  },
                  aclnnFloorDivide),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1, 0}));
    Tensor ints({2}, {0, 0}, ACL_INT32);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnFloorDivideGetWorkspaceSize(self.get(), other.get(), ints.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnFloorDivideDetails, FloatQuotientsFollowPythonsRemainder) {
    // 1 // 0.1 is 9 in Python (0.1 is a little above one tenth), though 1 / 0.1 rounds to 10.
    Tensor self({2}, {1.0, -1.0}, ACL_DOUBLE), other({2}, {0.1, 0.0}, ACL_DOUBLE);
    Tensor out({2}, {0, 0}, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnFloorDivideGetWorkspaceSize(self.get(), other.get(), out.get(), w,
                                                              e);
                  },
                  aclnnFloorDivide),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{9.0, -INFINITY}));
}

TEST_F(AclnnFloorDivideDetails, FloorDividesByAFloatScalarMakesIntegersFloat) {
    Tensor self({2}, {7, -7}, ACL_INT32), out({2}, {0, 0}, ACL_FLOAT);
    Scalar other(2.0f, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnFloorDividesGetWorkspaceSize(self.get(), other.get(), out.get(),
                                                               w, e);
                  },
                  aclnnFloorDivides),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{3, -4}));
}

}  // namespace
