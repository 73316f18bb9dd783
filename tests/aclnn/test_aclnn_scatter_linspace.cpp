// Scatter (tensor and value forms, replace/add/multiply, in place or into out) and Linspace,
// against hand-computed results.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_scatter.h"

using aclnn_test::DeviceTensor;
using aclnn_test::RunPhase2;
using aclnn_test::Scalar;

namespace {

class AclnnScatter : public aclnn_test::AclnnTest {
 protected:
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnScatter, ScatterAlongRowsIntoOut) {
    DeviceTensor<float> self({3, 2}, std::vector<float>(6, 0), ACL_FLOAT);
    DeviceTensor<int64_t> index({2, 2}, {2, 0, 1, 2}, ACL_INT64);
    DeviceTensor<float> src({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> out({3, 2}, std::vector<float>(6, -1), ACL_FLOAT);
    ASSERT_EQ(aclnnScatterGetWorkspaceSize(self.get(), 0, index.get(), src.get(), 0, out.get(),
                                           &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnScatter, workspace_, executor_), ACLNN_SUCCESS);
    // column 0: rows 2, 1 get 1, 3; column 1: rows 0, 2 get 2, 4.
    EXPECT_EQ(out.Read(), (std::vector<float>{0, 2, 3, 0, 1, 4}));
    EXPECT_EQ(self.Read(), std::vector<float>(6, 0));
}

TEST_F(AclnnScatter, InplaceScatterAddsWithReduceOne) {
    DeviceTensor<int32_t> self({4}, {1, 1, 1, 1}, ACL_INT32);
    DeviceTensor<int32_t> index({3}, {3, 3, 0}, ACL_INT32);
    DeviceTensor<int32_t> src({3}, {5, 6, 7}, ACL_INT32);
    ASSERT_EQ(aclnnInplaceScatterGetWorkspaceSize(self.get(), 0, index.get(), src.get(), 1,
                                                  &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnInplaceScatter, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(self.Read(), (std::vector<int32_t>{8, 1, 1, 12}));
}

TEST_F(AclnnScatter, InplaceScatterValueMultiplies) {
    DeviceTensor<float> self({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
    DeviceTensor<int64_t> index({2, 1}, {2, 0}, ACL_INT64);
    Scalar value(10.0f, ACL_FLOAT);
    ASSERT_EQ(aclnnInplaceScatterValueGetWorkspaceSize(self.get(), 1, index.get(), value.get(), 2,
                                                       &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnInplaceScatterValue, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(self.Read(), (std::vector<float>{1, 2, 30, 40, 5, 6}));
}

TEST_F(AclnnScatter, AnIndexOutOfRangeFailsTheStream) {
    DeviceTensor<float> self({2}, {0, 0}, ACL_FLOAT);
    DeviceTensor<int64_t> index({1}, {5}, ACL_INT64);
    Scalar value(1.0f, ACL_FLOAT);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclnnInplaceScatterValueGetWorkspaceSize(self.get(), 0, index.get(), value.get(), 0,
                                                       &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclnnInplaceScatterValue(nullptr, 0, executor_, stream), ACLNN_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("index 5"), std::string::npos) << message;
    aclrtDestroyStream(stream);
}

TEST_F(AclnnScatter, AnUnknownReduceIsInvalid) {
    DeviceTensor<float> self({2}, {0, 0}, ACL_FLOAT);
    DeviceTensor<int64_t> index({1}, {0}, ACL_INT64);
    DeviceTensor<float> src({1}, {1}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceScatterGetWorkspaceSize(self.get(), 0, index.get(), src.get(), 3,
                                                  &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnScatter, AnIndexWiderThanSrcIsInvalid) {
    DeviceTensor<float> self({4}, {0, 0, 0, 0}, ACL_FLOAT);
    DeviceTensor<int64_t> index({3}, {0, 1, 2}, ACL_INT64);
    DeviceTensor<float> src({2}, {1, 2}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceScatterGetWorkspaceSize(self.get(), 0, index.get(), src.get(), 0,
                                                  &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnScatter, LinspaceEndsExactlyAtEnd) {
    Scalar start(0.0f, ACL_FLOAT), end(1.0f, ACL_FLOAT);
    DeviceTensor<float> out({5}, std::vector<float>(5, -1), ACL_FLOAT);
    ASSERT_EQ(aclnnLinspaceGetWorkspaceSize(start.get(), end.get(), 5, out.get(), &workspace_,
                                            &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnLinspace, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1}));
}

TEST_F(AclnnScatter, LinspaceOfOneStepIsStart) {
    Scalar start(int64_t{7}, ACL_INT64), end(int64_t{9}, ACL_INT64);
    DeviceTensor<int32_t> out({1}, {0}, ACL_INT32);
    ASSERT_EQ(aclnnLinspaceGetWorkspaceSize(start.get(), end.get(), 1, out.get(), &workspace_,
                                            &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnLinspace, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<int32_t>{7}));
}

TEST_F(AclnnScatter, LinspaceWithAWrongLengthIsInvalid) {
    Scalar start(0.0f, ACL_FLOAT), end(1.0f, ACL_FLOAT);
    DeviceTensor<float> out({4}, std::vector<float>(4, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnLinspaceGetWorkspaceSize(start.get(), end.get(), 5, out.get(), &workspace_,
                                            &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
