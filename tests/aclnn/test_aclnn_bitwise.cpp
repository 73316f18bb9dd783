// aclnnop/aclnn_bitwise_and_tensor.h (out = self & other; bool gives the logical and) and
// aclnn_bitwise_not.h (out = ~self; bool gives the logical not), against the C++ operators.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "binary_op_checks.h"
#include "unary_op_checks.h"

using aclnn_test::BinaryCase;
using aclnn_test::Execute;
using aclnn_test::Tensor;
using aclnn_test::UnaryCase;

namespace {

double And(double x, double y) {
    return static_cast<double>(static_cast<int64_t>(x) & static_cast<int64_t>(y));
}
double Not(double x) {
    return static_cast<double>(~static_cast<int64_t>(x));
}

const BinaryCase kAndCases[] = {
    {.name = "BitwiseAndTensor",
     .plan = aclnnBitwiseAndTensorGetWorkspaceSize,
     .phase2 = aclnnBitwiseAndTensor,
     .inplace = aclnnInplaceBitwiseAndTensorGetWorkspaceSize,
     .inplace_phase2 = aclnnInplaceBitwiseAndTensor,
     .reference = And,
     .dtypes = {ACL_INT32, ACL_INT8, ACL_INT16, ACL_INT64, ACL_UINT8, ACL_UINT16, ACL_UINT32,
                ACL_UINT64, ACL_BOOL},
     .refused = ACL_FLOAT,
     .a = {12, -1, 0, 7, -8, 5},
     .b = {10, 6, 3, -1, 12, 2},
     .exact = true},
};

class AclnnBitwiseAnd : public aclnn_test::BinaryOpTest {};
OPENACL_BINARY_OP_TESTS(AclnnBitwiseAnd)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnBitwiseAnd, ::testing::ValuesIn(kAndCases),
                         aclnn_test::BinaryCaseName);

const UnaryCase kNotCases[] = {
    {.name = "BitwiseNot",
     .plan = aclnnBitwiseNotGetWorkspaceSize,
     .phase2 = aclnnBitwiseNot,
     .reference = Not,
     .dtypes = {ACL_INT32, ACL_INT8, ACL_INT16, ACL_INT64},
     .refused = ACL_FLOAT,
     .values = {12, -1, 0, 7, -8, 5},
     .exact = true},
};

class AclnnBitwiseNot : public aclnn_test::UnaryOpTest {};
OPENACL_UNARY_OP_TESTS(AclnnBitwiseNot)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnBitwiseNot, ::testing::ValuesIn(kNotCases),
                         aclnn_test::UnaryCaseName);

class AclnnBitwiseDetails : public aclnn_test::AclnnTest {};

TEST_F(AclnnBitwiseDetails, NotOfUint8AndBoolStaysInRange) {
    Tensor bytes({3}, {0, 5, 255}, ACL_UINT8), bytes_out({3}, {0, 0, 0}, ACL_UINT8);
    Tensor flags({2}, {0, 1}, ACL_BOOL), flags_out({2}, {7, 7}, ACL_BOOL);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnBitwiseNotGetWorkspaceSize(bytes.get(), bytes_out.get(), w, e);
                  },
                  aclnnBitwiseNot),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnBitwiseNotGetWorkspaceSize(flags.get(), flags_out.get(), w, e);
                  },
                  aclnnBitwiseNot),
              ACLNN_SUCCESS);
    EXPECT_EQ(bytes_out.Values(), (std::vector<double>{255, 250, 0}));
    EXPECT_EQ(flags_out.Values(), (std::vector<double>{1, 0}));
}

TEST_F(AclnnBitwiseDetails, AndOfLargeUint64ValuesKeepsEveryBit) {
    Tensor self({1}, {18446744073709549568.0}, ACL_UINT64);  // 2^64 - 2048
    Tensor other({1}, {9223372036854775808.0}, ACL_UINT64);  // 2^63
    Tensor out({1}, {0}, ACL_UINT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnBitwiseAndTensorGetWorkspaceSize(self.get(), other.get(),
                                                                   out.get(), w, e);
                  },
                  aclnnBitwiseAndTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{9223372036854775808.0}));
}

TEST_F(AclnnBitwiseDetails, AndPromotesInt8WithUint8ToInt16) {
    Tensor self({2}, {-1, 6}, ACL_INT8), other({2}, {200, 3}, ACL_UINT8);
    Tensor out({2}, {0, 0}, ACL_INT16);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnBitwiseAndTensorGetWorkspaceSize(self.get(), other.get(),
                                                                   out.get(), w, e);
                  },
                  aclnnBitwiseAndTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{200, 2}));
}

TEST_F(AclnnBitwiseDetails, NotRefusesAnOutOfAnotherType) {
    Tensor self({2}, {1, 2}, ACL_INT32), out({2}, {0, 0}, ACL_INT64);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnBitwiseNotGetWorkspaceSize(self.get(), out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
