// Index-driven and index-dependent operators: GatherV2, IndexSelect, Embedding (indices read
// when the task runs), Tril/Triu and Arange.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"

using aclnn_test::DeviceTensor;
using aclnn_test::RunPhase2;
using aclnn_test::Scalar;

namespace {

std::vector<float> Iota(int n) {
    std::vector<float> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), 0.0f);
    return v;
}

class AclnnIndexing : public aclnn_test::AclnnTest {
 protected:
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnIndexing, GatherV2PicksSlicesByAnIndexTensor) {
    DeviceTensor<float> x({3, 4}, Iota(12), ACL_FLOAT);
    DeviceTensor<int64_t> index({2, 2}, {3, 0, 1, 1}, ACL_INT64);
    DeviceTensor<float> out({3, 2, 2}, std::vector<float>(12, 0), ACL_FLOAT);
    ASSERT_EQ(
        aclnnGatherV2GetWorkspaceSize(x.get(), 1, index.get(), out.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnGatherV2, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{3, 0, 1, 1, 7, 4, 5, 5, 11, 8, 9, 9}));
}

TEST_F(AclnnIndexing, AnIndexOutOfRangeFailsTheStreamWithItsValue) {
    DeviceTensor<float> x({3, 4}, Iota(12), ACL_FLOAT);
    DeviceTensor<int32_t> index({2}, {1, 7}, ACL_INT32);
    DeviceTensor<float> out({2, 4}, std::vector<float>(8, 0), ACL_FLOAT);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclnnIndexSelectGetWorkspaceSize(x.get(), 0, index.get(), out.get(), &workspace_,
                                               &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclnnIndexSelect(nullptr, 0, executor_, stream), ACLNN_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("index 7"), std::string::npos) << message;
    aclrtDestroyStream(stream);
}

TEST_F(AclnnIndexing, IndexSelectReadsAStridedIndex) {
    DeviceTensor<float> x({3, 2}, Iota(6), ACL_FLOAT);
    DeviceTensor<int64_t> index({2}, {2}, 0, {2, -1, 0, -1}, ACL_INT64);  // every other element
    DeviceTensor<float> out({2, 2}, std::vector<float>(4, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnIndexSelectGetWorkspaceSize(x.get(), 0, index.get(), out.get(), &workspace_,
                                               &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnIndexSelect, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{4, 5, 0, 1}));
}

TEST_F(AclnnIndexing, IndexSelectRefusesAMatrixOfIndices) {
    DeviceTensor<float> x({3, 2}, Iota(6), ACL_FLOAT);
    DeviceTensor<int64_t> index({1, 2}, {0, 1}, ACL_INT64);
    DeviceTensor<float> out({1, 2, 2}, std::vector<float>(4, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnIndexSelectGetWorkspaceSize(x.get(), 0, index.get(), out.get(), &workspace_,
                                               &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnIndexing, EmbeddingLooksUpRows) {
    DeviceTensor<uint16_t> table({3, 2},
                                 {aclnn_test::Half(0), aclnn_test::Half(1), aclnn_test::Half(2),
                                  aclnn_test::Half(3), aclnn_test::Half(4), aclnn_test::Half(5)},
                                 ACL_FLOAT16);
    DeviceTensor<int32_t> ids({3}, {2, 2, 0}, ACL_INT32);
    DeviceTensor<uint16_t> out({3, 2}, std::vector<uint16_t>(6, 0), ACL_FLOAT16);
    ASSERT_EQ(
        aclnnEmbeddingGetWorkspaceSize(table.get(), ids.get(), out.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnEmbedding, workspace_, executor_), ACLNN_SUCCESS);
    std::vector<float> values;
    for (uint16_t h : out.Read())
        values.push_back(aclnn_test::FromHalf(h));
    EXPECT_EQ(values, (std::vector<float>{4, 5, 4, 5, 0, 1}));
}

TEST_F(AclnnIndexing, GatherRefusesFloatIndices) {
    DeviceTensor<float> x({3}, Iota(3), ACL_FLOAT), index({1}, {0}, ACL_FLOAT);
    EXPECT_EQ(
        aclnnGatherV2GetWorkspaceSize(x.get(), 0, index.get(), x.get(), &workspace_, &executor_),
        ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnIndexing, TrilKeepsTheLowerTriangleOfEveryMatrix) {
    DeviceTensor<float> x({2, 3, 3}, std::vector<float>(18, 1), ACL_FLOAT);
    DeviceTensor<float> out({2, 3, 3}, std::vector<float>(18, 9), ACL_FLOAT);
    ASSERT_EQ(aclnnTrilGetWorkspaceSize(x.get(), 0, out.get(), &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnTril, workspace_, executor_), ACLNN_SUCCESS);
    const std::vector<float> one = {1, 0, 0, 1, 1, 0, 1, 1, 1};
    std::vector<float> both = one;
    both.insert(both.end(), one.begin(), one.end());
    EXPECT_EQ(out.Read(), both);
}

TEST_F(AclnnIndexing, InplaceTriuWithADiagonalAboveTheMain) {
    DeviceTensor<int32_t> x({3, 4}, std::vector<int32_t>(12, 5), ACL_INT32);
    ASSERT_EQ(aclnnInplaceTriuGetWorkspaceSize(x.get(), 1, &workspace_, &executor_), ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnInplaceTriu, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(x.Read(), (std::vector<int32_t>{0, 5, 5, 5, 0, 0, 5, 5, 0, 0, 0, 5}));
}

TEST_F(AclnnIndexing, TriangleOfAVectorIsInvalid) {
    DeviceTensor<float> x({3}, Iota(3), ACL_FLOAT);
    EXPECT_EQ(aclnnTrilGetWorkspaceSize(x.get(), 0, x.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnIndexing, ArangeCountsFromStartByStep) {
    Scalar start(int64_t{2}, ACL_INT64), end(int64_t{11}, ACL_INT64), step(int64_t{3}, ACL_INT64);
    DeviceTensor<int32_t> out({3}, {0, 0, 0}, ACL_INT32);
    ASSERT_EQ(aclnnArangeGetWorkspaceSize(start.get(), end.get(), step.get(), out.get(),
                                          &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnArange, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<int32_t>{2, 5, 8}));
}

TEST_F(AclnnIndexing, ArangeWithAFloatStepDownwards) {
    Scalar start(1.0f, ACL_FLOAT), end(0.0f, ACL_FLOAT), step(-0.25f, ACL_FLOAT);
    DeviceTensor<float> out({4}, {0, 0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(aclnnArangeGetWorkspaceSize(start.get(), end.get(), step.get(), out.get(),
                                          &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnArange, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1.0f, 0.75f, 0.5f, 0.25f}));
}

// ggml-cann's ARANGE writes its 1-D result through a [1, 1, 1, n] view.
TEST_F(AclnnIndexing, ArangeFillsAVectorShapedViewOfAnyRank) {
    Scalar start(0.0f, ACL_FLOAT), end(4.0f, ACL_FLOAT), step(1.0f, ACL_FLOAT);
    DeviceTensor<float> out({1, 1, 1, 4}, {9, 9, 9, 9}, ACL_FLOAT);
    ASSERT_EQ(aclnnArangeGetWorkspaceSize(start.get(), end.get(), step.get(), out.get(),
                                          &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnArange, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{0, 1, 2, 3}));
}

TEST_F(AclnnIndexing, ArangeRefusesAnOutThatIsNotAVector) {
    Scalar start(0.0f, ACL_FLOAT), end(4.0f, ACL_FLOAT), step(1.0f, ACL_FLOAT);
    DeviceTensor<float> out({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
    EXPECT_EQ(aclnnArangeGetWorkspaceSize(start.get(), end.get(), step.get(), out.get(),
                                          &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnIndexing, ArangeRefusesAWrongLengthOrAZeroStep) {
    Scalar start(0.0f, ACL_FLOAT), end(4.0f, ACL_FLOAT), step(1.0f, ACL_FLOAT),
        zero(0.0f, ACL_FLOAT);
    DeviceTensor<float> out({3}, {0, 0, 0}, ACL_FLOAT);
    EXPECT_EQ(aclnnArangeGetWorkspaceSize(start.get(), end.get(), step.get(), out.get(),
                                          &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnArangeGetWorkspaceSize(start.get(), end.get(), zero.get(), out.get(),
                                          &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
