// aclnnop/aclnn_pow.h and aclnn_pow_tensor_tensor.h: out = self ^ exponent with tensors
// (PowTensorTensor, InplacePowTensorTensor), a scalar exponent (PowTensorScalar,
// InplacePowTensorScalar) or a scalar base (PowScalarTensor), against std::pow.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "binary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

const BinaryCase kCases[] = {
    {.name = "Pow",
     .plan = aclnnPowTensorTensorGetWorkspaceSize,
     .phase2 = aclnnPowTensorTensor,
     .inplace = aclnnInplacePowTensorTensorGetWorkspaceSize,
     .inplace_phase2 = aclnnInplacePowTensorTensor,
     .scalar_plan = aclnnPowTensorScalarGetWorkspaceSize,
     .scalar_phase2 = aclnnPowTensorScalar,
     .inplace_scalar = aclnnInplacePowTensorScalarGetWorkspaceSize,
     .inplace_scalar_phase2 = aclnnInplacePowTensorScalar,
     .reference = [](double x, double y) { return std::pow(x, y); },
     .dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16,
                ACL_INT8, ACL_UINT8},
     .refused = ACL_UINT16,
     .a = {0.5, 1.5, 2.0, 3.0, 1.25, 4.0},
     .b = {2.0, 3.0, -1.0, 0.5, 0.0, 1.5},
     .int_a = {-2, 1, 2, 3, 0, 4},
     .int_b = {2, 3, 0, 1, 2, 3}},
};

class AclnnPow : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnPow)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnPow, ::testing::ValuesIn(kCases), aclnn_test::BinaryCaseName);

class AclnnPowDetails : public aclnn_test::AclnnTest {
 protected:
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnPowDetails, PowScalarTensorRaisesTheScalarToEachExponent) {
    Tensor exponent({2, 2}, {0, 1, -1, 0.5}, ACL_FLOAT), out({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
    Scalar base(4.0, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnPowScalarTensorGetWorkspaceSize(base.get(), exponent.get(),
                                                                  out.get(), w, e);
                  },
                  aclnnPowScalarTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1, 4, 0.25, 2}));
}

TEST_F(AclnnPowDetails, PowScalarTensorOfAFloatBaseAndIntegerExponentsIsFloat) {
    Tensor exponent({3}, {0, 1, 2}, ACL_INT32), out({3}, {0, 0, 0}, ACL_FLOAT16);
    Scalar base(1.5f, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnPowScalarTensorGetWorkspaceSize(base.get(), exponent.get(),
                                                                  out.get(), w, e);
                  },
                  aclnnPowScalarTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1, 1.5, 2.25}));
    // ... which an integer output cannot hold.
    Tensor ints({3}, {0, 0, 0}, ACL_INT32);
    EXPECT_EQ(
        aclnnPowScalarTensorGetWorkspaceSize(base.get(), exponent.get(), ints.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnPowDetails, PowScalarTensorChecksItsParametersInOrder) {
    Tensor exponent({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_FLOAT);
    Scalar base(2.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnPowScalarTensorGetWorkspaceSize(nullptr, exponent.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnPowScalarTensorGetWorkspaceSize(base.get(), nullptr, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnPowScalarTensorGetWorkspaceSize(base.get(), exponent.get(), nullptr, &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    Tensor wrong({3}, {0, 0, 0}, ACL_FLOAT);
    EXPECT_EQ(
        aclnnPowScalarTensorGetWorkspaceSize(base.get(), exponent.get(), wrong.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

TEST_F(AclnnPowDetails, IntegerPowersWrapAround) {
    Tensor self({2}, {3, -2}, ACL_INT8), exponent({2}, {5, 7}, ACL_INT8);
    Tensor out({2}, {0, 0}, ACL_INT8);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnPowTensorTensorGetWorkspaceSize(self.get(), exponent.get(),
                                                                  out.get(), w, e);
                  },
                  aclnnPowTensorTensor),
              ACLNN_SUCCESS);
    // 3^5 = 243 wraps to -13 in int8; (-2)^7 = -128.
    EXPECT_EQ(out.Values(), (std::vector<double>{-13, -128}));
}

TEST_F(AclnnPowDetails, IntegersToANegativeIntegerScalarPowerAreInvalid) {
    Tensor self({2}, {2, 3}, ACL_INT32), out({2}, {0, 0}, ACL_INT32);
    Scalar exponent(int64_t{-1}, ACL_INT64);
    EXPECT_EQ(
        aclnnPowTensorScalarGetWorkspaceSize(self.get(), exponent.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("negative");
    // A floating exponent makes the computation floating: allowed, into a float output.
    Scalar half(-0.5f, ACL_FLOAT);
    Tensor floats({2}, {0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnPowTensorScalarGetWorkspaceSize(self.get(), half.get(),
                                                                  floats.get(), w, e);
                  },
                  aclnnPowTensorScalar),
              ACLNN_SUCCESS);
    const std::vector<double> result = floats.Values();
    EXPECT_FLOAT_EQ(result[0], static_cast<float>(1.0 / std::sqrt(2.0)));
    EXPECT_FLOAT_EQ(result[1], static_cast<float>(1.0 / std::sqrt(3.0)));
}

TEST_F(AclnnPowDetails, TwoBoolOperandsAreInvalid) {
    Tensor self({2}, {1, 0}, ACL_BOOL), out({2}, {0, 0}, ACL_BOOL);
    Scalar exponent(true, ACL_BOOL);
    EXPECT_EQ(aclnnPowTensorTensorGetWorkspaceSize(self.get(), self.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(
        aclnnPowTensorScalarGetWorkspaceSize(self.get(), exponent.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
    // A bool base with an integer exponent computes in the exponent's type.
    Tensor exponents({2}, {3, 0}, ACL_INT32), ints({2}, {0, 0}, ACL_INT32);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnPowTensorTensorGetWorkspaceSize(self.get(), exponents.get(),
                                                                  ints.get(), w, e);
                  },
                  aclnnPowTensorTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(ints.Values(), (std::vector<double>{1, 1}));
}

}  // namespace
