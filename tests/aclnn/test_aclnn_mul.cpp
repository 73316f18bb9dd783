// aclnnop/aclnn_mul.h: out = self * other (Mul, Muls, InplaceMul, InplaceMuls) against plain
// C++ arithmetic: the shared checks of binary_op_checks.h, then promotion and wrap-around.
#include <gtest/gtest.h>

#include <vector>

#include "aclnnop/aclnn_mul.h"
#include "binary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

const BinaryCase kCases[] = {
    {.name = "Mul",
     .plan = aclnnMulGetWorkspaceSize,
     .phase2 = aclnnMul,
     .inplace = aclnnInplaceMulGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceMul,
     .scalar_plan = aclnnMulsGetWorkspaceSize,
     .scalar_phase2 = aclnnMuls,
     .inplace_scalar = aclnnInplaceMulsGetWorkspaceSize,
     .inplace_scalar_phase2 = aclnnInplaceMuls,
     .reference = [](double x, double y) { return x * y; },
     .dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16,
                ACL_INT8, ACL_UINT8, ACL_BOOL},
     .refused = ACL_UINT16,
     .a = {1.5, -2.0, 0.25, 100.0, -7.5, 3.0},
     .b = {0.5, 4.0, -1.25, 8.0, 2.0, -3.0},
     .int_a = {10, -2, 0, 5, -7, 3},
     .int_b = {1, 4, -1, 8, 2, -3},
     .exact = true},
};

class AclnnMul : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnMul)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnMul, ::testing::ValuesIn(kCases), aclnn_test::BinaryCaseName);

class AclnnMulDetails : public aclnn_test::AclnnTest {};

TEST_F(AclnnMulDetails, Int8TimesUint8PromotesToInt16) {
    Tensor self({2}, {-100, 100}, ACL_INT8), other({2}, {200, 2}, ACL_UINT8);
    Tensor out({2}, {0, 0}, ACL_INT16);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnMulGetWorkspaceSize(self.get(), other.get(), out.get(), w, e);
                  },
                  aclnnMul),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{-20000, 200}));
}

TEST_F(AclnnMulDetails, Int32ProductsWrapAround) {
    Tensor self({1}, {65536}, ACL_INT32), out({1}, {0}, ACL_INT32);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnMulGetWorkspaceSize(self.get(), self.get(), out.get(), w, e);
                  },
                  aclnnMul),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0}));
}

TEST_F(AclnnMulDetails, MulsKeepsAFloat16TensorsTypeWithADoubleScalar) {
    Tensor self({2}, {1.5, -2.0}, ACL_FLOAT16), out({2}, {0, 0}, ACL_FLOAT16);
    Scalar scale(0.5, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnMulsGetWorkspaceSize(self.get(), scale.get(), out.get(), w, e);
                  },
                  aclnnMuls),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0.75, -1.0}));
}

TEST_F(AclnnMulDetails, MulsOfAnIntegerTensorByAFloatScalarRefusesAnIntegerOut) {
    Tensor self({2}, {1, 2}, ACL_INT32), out({2}, {0, 0}, ACL_INT32);
    Scalar scale(0.5f, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnMulsGetWorkspaceSize(self.get(), scale.get(), out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("cannot be cast");
}

TEST_F(AclnnMulDetails, AScalarOfARefusedTypeIsInvalid) {
    Tensor self({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_FLOAT);
    Scalar scale(uint32_t{2}, ACL_UINT32);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnMulsGetWorkspaceSize(self.get(), scale.get(), out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMulDetails, InplaceMulRefusesAResultItsSelfRefCannotHold) {
    Tensor self({2}, {1, 2}, ACL_INT32), other({2}, {0.5, 0.5}, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnInplaceMulGetWorkspaceSize(self.get(), other.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMulDetails, LargeTensorsAreMultipliedCompletely) {
    const int64_t n = (1 << 18) + 3;  // several parallel blocks and a partial one
    std::vector<double> x(n), y(n);
    for (int64_t i = 0; i < n; ++i)
        x[i] = static_cast<double>(i % 1000), y[i] = 3.0;
    Tensor self({n}, x, ACL_FLOAT), other({n}, y, ACL_FLOAT16);
    Tensor out({n}, std::vector<double>(n, 0.0), ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnMulGetWorkspaceSize(self.get(), other.get(), out.get(), w, e);
                  },
                  aclnnMul),
              ACLNN_SUCCESS);
    const std::vector<double> result = out.Values();
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], 3.0 * (i % 1000)) << i;
}

}  // namespace
