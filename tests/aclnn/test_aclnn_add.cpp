// aclnnop/aclnn_add.h: out = self + alpha * other, with broadcasting, type promotion, views
// and the in-place and scalar forms, against plain C++ arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_add.h"

using aclnn_test::DeviceTensor;
using aclnn_test::FromBf16;
using aclnn_test::FromHalf;
using aclnn_test::Half;
using aclnn_test::RunPhase2;
using aclnn_test::Scalar;

namespace {

class AclnnAdd : public aclnn_test::AclnnTest {};

TEST_F(AclnnAdd, AddsTwoFloatTensorsWithAlpha) {
    DeviceTensor<float> a({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
    DeviceTensor<float> b({2, 3}, {10, 20, 30, 40, 50, 60}, ACL_FLOAT);
    DeviceTensor<float> out({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    Scalar alpha(0.5f, ACL_FLOAT);
    uint64_t workspace = 99;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{6, 12, 18, 24, 30, 36}));
}

// alpha * other is rounded before the sum, whichever vector width the CPU runs: a fused
// multiply-add would keep the 2^-24 that rounding drops. 64 elements, so the loop is vectorised.
TEST_F(AclnnAdd, AlphaTimesOtherIsRoundedBeforeTheSum) {
    const float near_one = 1.0f + std::ldexp(1.0f, -12);  // squared: 1 + 2^-11 + 2^-24
    DeviceTensor<float> a({64}, std::vector<float>(64, -1.0f), ACL_FLOAT);
    DeviceTensor<float> b({64}, std::vector<float>(64, near_one), ACL_FLOAT);
    DeviceTensor<float> out({64}, std::vector<float>(64, 0), ACL_FLOAT);
    Scalar alpha(near_one, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), std::vector<float>(64, std::ldexp(1.0f, -11)));
}

TEST_F(AclnnAdd, BroadcastsARowAndAColumn) {
    DeviceTensor<float> row({1, 3}, {1, 2, 3}, ACL_FLOAT);
    DeviceTensor<float> column({2, 1}, {10, 20}, ACL_FLOAT);
    DeviceTensor<float> out({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    Scalar alpha(1.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(row.get(), column.get(), alpha.get(), out.get(), &workspace,
                                       &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{11, 12, 13, 21, 22, 23}));
}

TEST_F(AclnnAdd, ReadsTransposedAndOffsetViewsAndWritesAStridedOutput) {
    // self: the transpose of a 3x2 matrix stored after 1 padding element.
    DeviceTensor<float> a({2, 3}, {1, 2}, 1, {-1, 1, 2, 3, 4, 5, 6},
                          ACL_FLOAT);  // [[1,3,5],[2,4,6]]
    // other: one row repeated with stride 0.
    DeviceTensor<float> b({2, 3}, {0, 1}, 0, {100, 200, 300}, ACL_FLOAT);
    // out: every other element of a 12-element buffer.
    DeviceTensor<float> out({2, 3}, {6, 2}, 0, std::vector<float>(12, -7), ACL_FLOAT);
    Scalar alpha(1.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(),
              (std::vector<float>{101, -7, 203, -7, 305, -7, 102, -7, 204, -7, 306, -7}));
}

TEST_F(AclnnAdd, Float16AndBfloat16PromoteToFloat) {
    DeviceTensor<uint16_t> a({3}, {Half(1.5f), Half(-2.0f), Half(0.25f)}, ACL_FLOAT16);
    DeviceTensor<uint16_t> b(
        {3}, {aclnn_test::Bf16(1.0f), aclnn_test::Bf16(0.5f), aclnn_test::Bf16(4.0f)}, ACL_BF16);
    DeviceTensor<float> out({3}, {0, 0, 0}, ACL_FLOAT);
    Scalar alpha(2.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{3.5f, -1.0f, 8.25f}));
}

TEST_F(AclnnAdd, Float16ResultsRoundToNearestEven) {
    // 2048 + 1 is halfway between two float16 values (2048, 2050): ties go to 2048.
    DeviceTensor<uint16_t> a({2}, {Half(2048.0f), Half(2048.0f)}, ACL_FLOAT16);
    DeviceTensor<uint16_t> b({2}, {Half(1.0f), Half(3.0f)}, ACL_FLOAT16);
    DeviceTensor<uint16_t> out({2}, {0, 0}, ACL_FLOAT16);
    Scalar alpha(1.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    const std::vector<uint16_t> result = out.Read();
    EXPECT_EQ(FromHalf(result[0]), 2048.0f);
    EXPECT_EQ(FromHalf(result[1]), 2052.0f);  // 2051 ties to the even 2052
}

TEST_F(AclnnAdd, IntegersAddWithAnIntegerAlphaAndWrapAround) {
    DeviceTensor<int32_t> a({3}, {1, -5, 2147483647}, ACL_INT32);
    DeviceTensor<int32_t> b({3}, {2, 3, 1}, ACL_INT32);
    DeviceTensor<int32_t> out({3}, {0, 0, 0}, ACL_INT32);
    Scalar alpha(int64_t{3}, ACL_INT64);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<int32_t>{7, 4, -2147483646}));
}

TEST_F(AclnnAdd, Int8AndUint8PromoteToInt16) {
    DeviceTensor<int8_t> a({2}, {-100, 100}, ACL_INT8);
    DeviceTensor<uint8_t> b({2}, {200, 100}, ACL_UINT8);
    DeviceTensor<int16_t> out({2}, {0, 0}, ACL_INT16);
    Scalar alpha(int32_t{1}, ACL_INT32);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<int16_t>{100, 200}));
}

TEST_F(AclnnAdd, InplaceAddWritesIntoSelfRef) {
    DeviceTensor<float> a({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> b({2}, {10, 20}, ACL_FLOAT);
    Scalar alpha(-1.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnInplaceAdd, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(a.Read(), (std::vector<float>{-9, -18, -7, -16}));
}

TEST_F(AclnnAdd, InplaceAddRefusesAnOtherThatWidensSelfRef) {
    DeviceTensor<float> a({2}, {1, 2}, ACL_FLOAT);
    DeviceTensor<float> b({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    Scalar alpha(1.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnInplaceAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), &workspace, &executor),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(executor, nullptr);
}

TEST_F(AclnnAdd, AddsKeepsAFloat16TensorsType) {
    DeviceTensor<uint16_t> a({2}, {Half(1.0f), Half(2.0f)}, ACL_FLOAT16);
    DeviceTensor<uint16_t> out({2}, {0, 0}, ACL_FLOAT16);
    Scalar other(0.5, ACL_DOUBLE);
    Scalar alpha(2.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAddsGetWorkspaceSize(a.get(), other.get(), alpha.get(), out.get(), &workspace,
                                        &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdds, workspace, executor), ACLNN_SUCCESS);
    const std::vector<uint16_t> result = out.Read();
    EXPECT_EQ(FromHalf(result[0]), 2.0f);
    EXPECT_EQ(FromHalf(result[1]), 3.0f);
}

TEST_F(AclnnAdd, AddsOfAFloatScalarToIntegersComputesInFloat) {
    DeviceTensor<int32_t> a({2}, {1, 2}, ACL_INT32);
    DeviceTensor<float> out({2}, {0, 0}, ACL_FLOAT);
    Scalar other(0.25f, ACL_FLOAT);
    Scalar alpha(1.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAddsGetWorkspaceSize(a.get(), other.get(), alpha.get(), out.get(), &workspace,
                                        &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdds, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1.25f, 2.25f}));
}

TEST_F(AclnnAdd, InplaceAddsAddsToEveryElement) {
    DeviceTensor<int64_t> a({3}, {1, 2, 3}, ACL_INT64);
    Scalar other(int64_t{5}, ACL_INT64);
    Scalar alpha(int64_t{2}, ACL_INT64);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnInplaceAddsGetWorkspaceSize(a.get(), other.get(), alpha.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnInplaceAdds, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(a.Read(), (std::vector<int64_t>{11, 12, 13}));
}

TEST_F(AclnnAdd, EmptyTensorsSucceedWithNoWorkspace) {
    DeviceTensor<float> a({0, 3}, {}, ACL_FLOAT);
    DeviceTensor<float> b({3}, {1, 2, 3}, ACL_FLOAT);
    DeviceTensor<float> out({0, 3}, {}, ACL_FLOAT);
    Scalar alpha(1.0f, ACL_FLOAT);
    uint64_t workspace = 7;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnAdd, LargeTensorsAreAddedCompletely) {
    const int64_t n = 1 << 20;  // several parallel blocks
    std::vector<float> x(n), y(n);
    for (int64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i), y[i] = static_cast<float>(2 * i);
    DeviceTensor<float> a({n}, x, ACL_FLOAT), b({n}, y, ACL_FLOAT);
    DeviceTensor<float> out({n}, std::vector<float>(n, 0), ACL_FLOAT);
    Scalar alpha(1.0f, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha.get(), out.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace, executor), ACLNN_SUCCESS);
    const std::vector<float> result = out.Read();
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], static_cast<float>(3 * i)) << i;
}

// ---- bad input: the documented codes, nothing queued ----

class AclnnAddBadInput : public AclnnAdd {
 protected:
    DeviceTensor<float> a_{{2, 3}, std::vector<float>(6, 1), ACL_FLOAT};
    DeviceTensor<float> b_{{2, 3}, std::vector<float>(6, 1), ACL_FLOAT};
    DeviceTensor<float> out_{{2, 3}, std::vector<float>(6, 0), ACL_FLOAT};
    Scalar alpha_{1.0f, ACL_FLOAT};
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnAddBadInput, NullSelfOtherAlphaOrOutIsParamNullptr) {
    EXPECT_EQ(aclnnAddGetWorkspaceSize(nullptr, b_.get(), alpha_.get(), out_.get(), &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(a_.get(), nullptr, alpha_.get(), out_.get(), &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnAddGetWorkspaceSize(a_.get(), b_.get(), nullptr, out_.get(), &workspace_, &executor_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(a_.get(), b_.get(), alpha_.get(), nullptr, &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnAddGetWorkspaceSize(a_.get(), b_.get(), alpha_.get(), out_.get(), nullptr, &executor_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(a_.get(), b_.get(), alpha_.get(), out_.get(), &workspace_,
                                       nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(executor_, nullptr);
}

TEST_F(AclnnAddBadInput, ShapesThatDoNotBroadcastAreInvalidAndNamed) {
    DeviceTensor<float> wrong({4}, std::vector<float>(4, 1), ACL_FLOAT);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(a_.get(), wrong.get(), alpha_.get(), out_.get(), &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_INVALID);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("do not broadcast"), std::string::npos) << message;
}

TEST_F(AclnnAddBadInput, AnOutputOfAnotherShapeIsInvalid) {
    DeviceTensor<float> wide({3, 3}, std::vector<float>(9, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(a_.get(), b_.get(), alpha_.get(), wide.get(), &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnAddBadInput, AnUnsupportedDtypeIsInvalid) {
    DeviceTensor<uint32_t> u({2, 3}, std::vector<uint32_t>(6, 1), ACL_UINT32);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(u.get(), b_.get(), alpha_.get(), out_.get(), &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnAddBadInput, AFloatResultIntoAnIntegerOutputIsInvalid) {
    DeviceTensor<int32_t> ints({2, 3}, std::vector<int32_t>(6, 0), ACL_INT32);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(a_.get(), b_.get(), alpha_.get(), ints.get(), &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnAddBadInput, AFloatAlphaWithIntegerTensorsIsInvalid) {
    DeviceTensor<int32_t> x({2}, {1, 2}, ACL_INT32), y({2}, {1, 2}, ACL_INT32);
    DeviceTensor<int32_t> z({2}, {0, 0}, ACL_INT32);
    EXPECT_EQ(
        aclnnAddGetWorkspaceSize(x.get(), y.get(), alpha_.get(), z.get(), &workspace_, &executor_),
        ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnAddBadInput, APrivateFormatIsRefusedByName) {
    DeviceTensor<float> nz({2, 3}, std::vector<float>(6, 1), ACL_FLOAT, ACL_FORMAT_NC1HWC0);
    EXPECT_EQ(aclnnAddGetWorkspaceSize(nz.get(), b_.get(), alpha_.get(), out_.get(), &workspace_,
                                       &executor_),
              ACLNN_ERR_PARAM_INVALID);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("NC1HWC0"), std::string::npos) << message;
}

TEST_F(AclnnAddBadInput, NchwLabelsOnPlainDataAreAccepted) {
    DeviceTensor<float> x({1, 1, 2, 3}, std::vector<float>(6, 2), ACL_FLOAT, ACL_FORMAT_NCHW);
    DeviceTensor<float> z({1, 1, 2, 3}, std::vector<float>(6, 0), ACL_FLOAT, ACL_FORMAT_NCHW);
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(x.get(), b_.get(), alpha_.get(), z.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(z.Read(), std::vector<float>(6, 3));
}

TEST_F(AclnnAddBadInput, MoreThanEightDimensionsAreInvalid) {
    const std::vector<int64_t> nine(9, 1);
    DeviceTensor<float> x(nine, {1}, ACL_FLOAT);
    EXPECT_EQ(
        aclnnAddGetWorkspaceSize(x.get(), x.get(), alpha_.get(), x.get(), &workspace_, &executor_),
        ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
