// Operators that move data: Permute, Slice, Cat, Repeat, ConstantPadNd, Roll, SplitWithSize,
// against the same rearrangements done by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_split_with_size.h"

using aclnn_test::DeviceTensor;
using aclnn_test::RunPhase2;
using aclnn_test::Scalar;

namespace {

std::vector<float> Iota(int n, float start = 0) {
    std::vector<float> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), start);
    return v;
}

class IntArray {
 public:
    explicit IntArray(std::vector<int64_t> values)
        : array_(aclCreateIntArray(values.data(), values.size())) {}
    ~IntArray() { aclDestroyIntArray(array_); }
    IntArray(const IntArray&) = delete;
    IntArray& operator=(const IntArray&) = delete;
    const aclIntArray* get() const { return array_; }

 private:
    aclIntArray* array_;
};

class AclnnMovement : public aclnn_test::AclnnTest {
 protected:
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnMovement, PermuteReordersDimensions) {
    DeviceTensor<float> x({2, 3, 4}, Iota(24), ACL_FLOAT);
    DeviceTensor<float> out({4, 2, 3}, std::vector<float>(24, 0), ACL_FLOAT);
    IntArray dims({2, 0, -2});
    ASSERT_EQ(aclnnPermuteGetWorkspaceSize(x.get(), dims.get(), out.get(), &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnPermute, workspace_, executor_), ACLNN_SUCCESS);
    const std::vector<float> result = out.Read();
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j) {
                EXPECT_EQ(result[(k * 2 + i) * 3 + j], static_cast<float>(i * 12 + j * 4 + k));
            }
}

TEST_F(AclnnMovement, PermuteRefusesARepeatedDimension) {
    DeviceTensor<float> x({2, 3}, Iota(6), ACL_FLOAT);
    DeviceTensor<float> out({3, 2}, Iota(6), ACL_FLOAT);
    IntArray dims({1, 1});
    EXPECT_EQ(aclnnPermuteGetWorkspaceSize(x.get(), dims.get(), out.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMovement, SliceTakesEveryStepthElementWithPythonBounds) {
    DeviceTensor<float> x({2, 10}, Iota(20), ACL_FLOAT);
    DeviceTensor<float> out({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    // [-8:100:3] of 10 elements: 2, 5, 8.
    ASSERT_EQ(
        aclnnSliceGetWorkspaceSize(x.get(), -1, -8, 100, 3, out.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnSlice, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{2, 5, 8, 12, 15, 18}));
}

TEST_F(AclnnMovement, SliceRefusesAZeroStep) {
    DeviceTensor<float> x({4}, Iota(4), ACL_FLOAT);
    EXPECT_EQ(aclnnSliceGetWorkspaceSize(x.get(), 0, 0, 4, 0, x.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMovement, CatJoinsTensorsOfPromotableTypes) {
    const int64_t a_dims[2] = {2, 1}, b_dims[2] = {2, 2};
    DeviceTensor<float> a({2, 1}, {1, 2}, ACL_FLOAT);
    DeviceTensor<int32_t> b({2, 2}, {3, 4, 5, 6}, ACL_INT32);
    // The list owns what it holds: give it its own tensors over the same memory.
    const aclTensor* parts[2] = {
        aclCreateTensor(a_dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, a_dims, 2, a.dev()),
        aclCreateTensor(b_dims, 2, ACL_INT32, nullptr, 0, ACL_FORMAT_ND, b_dims, 2, b.dev())};
    aclTensorList* list = aclCreateTensorList(parts, 2);
    DeviceTensor<float> out({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnCatGetWorkspaceSize(list, 1, out.get(), &workspace_, &executor_), ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnCat, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
    aclDestroyTensorList(list);
}

TEST_F(AclnnMovement, CatRefusesTensorsThatDifferOutsideTheDimension) {
    const int64_t a_dims[2] = {2, 1}, b_dims[2] = {3, 1};
    DeviceTensor<float> a({2, 1}, {1, 2}, ACL_FLOAT), b({3, 1}, {1, 2, 3}, ACL_FLOAT);
    const aclTensor* parts[2] = {
        aclCreateTensor(a_dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, a_dims, 2, a.dev()),
        aclCreateTensor(b_dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, b_dims, 2, b.dev())};
    aclTensorList* list = aclCreateTensorList(parts, 2);
    DeviceTensor<float> out({2, 2}, std::vector<float>(4, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnCatGetWorkspaceSize(list, 1, out.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensorList(list);
}

TEST_F(AclnnMovement, RepeatTilesEveryDimension) {
    DeviceTensor<int32_t> x({2}, {1, 2}, ACL_INT32);
    DeviceTensor<int32_t> out({2, 6}, std::vector<int32_t>(12, 0), ACL_INT32);
    IntArray repeats({2, 3});
    ASSERT_EQ(
        aclnnRepeatGetWorkspaceSize(x.get(), repeats.get(), out.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRepeat, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<int32_t>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}));
}

TEST_F(AclnnMovement, RepeatOfATwoByTwoBlock) {
    DeviceTensor<float> x({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> out({4, 2}, std::vector<float>(8, 0), ACL_FLOAT);
    IntArray repeats({2, 1});
    ASSERT_EQ(
        aclnnRepeatGetWorkspaceSize(x.get(), repeats.get(), out.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRepeat, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4}));
}

TEST_F(AclnnMovement, RepeatRefusesFewerRepeatsThanDimensions) {
    DeviceTensor<float> x({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    IntArray repeats({2});
    EXPECT_EQ(aclnnRepeatGetWorkspaceSize(x.get(), repeats.get(), x.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMovement, ConstantPadNdPadsAndCrops) {
    DeviceTensor<float> x({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
    // Last dimension: 1 before, crop 1 after; first dimension: 1 after.
    IntArray pad({1, -1, 0, 1});
    Scalar value(-1.0f, ACL_FLOAT);
    DeviceTensor<float> out({3, 3}, std::vector<float>(9, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnConstantPadNdGetWorkspaceSize(x.get(), pad.get(), value.get(), out.get(),
                                                 &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnConstantPadNd, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{-1, 1, 2, -1, 4, 5, -1, -1, -1}));
}

TEST_F(AclnnMovement, ConstantPadNdRefusesAnOddPadList) {
    DeviceTensor<float> x({2, 3}, Iota(6), ACL_FLOAT);
    IntArray pad({1, 1, 1});
    Scalar value(0.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnConstantPadNdGetWorkspaceSize(x.get(), pad.get(), value.get(), x.get(),
                                                 &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMovement, RollRotatesAlongEachDimension) {
    DeviceTensor<float> x({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
    DeviceTensor<float> out({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    IntArray shifts({1, -1}), dims({1, 0});
    ASSERT_EQ(aclnnRollGetWorkspaceSize(x.get(), shifts.get(), dims.get(), out.get(), &workspace_,
                                        &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRoll, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{6, 4, 5, 3, 1, 2}));
}

TEST_F(AclnnMovement, RollWithoutDimsRotatesTheFlatSequence) {
    DeviceTensor<float> x({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
    DeviceTensor<float> out({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    IntArray shifts({2}), dims({});
    ASSERT_EQ(aclnnRollGetWorkspaceSize(x.get(), shifts.get(), dims.get(), out.get(), &workspace_,
                                        &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRoll, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{5, 6, 1, 2, 3, 4}));
}

TEST_F(AclnnMovement, SplitWithSizeFillsEachPart) {
    DeviceTensor<float> x({5, 2}, Iota(10), ACL_FLOAT);
    const int64_t first_dims[2] = {2, 2}, second_dims[2] = {3, 2};
    DeviceTensor<float> first({2, 2}, std::vector<float>(4, 0), ACL_FLOAT);
    DeviceTensor<float> second({3, 2}, std::vector<float>(6, 0), ACL_FLOAT);
    const aclTensor* parts[2] = {aclCreateTensor(first_dims, 2, ACL_FLOAT, nullptr, 0,
                                                 ACL_FORMAT_ND, first_dims, 2, first.dev()),
                                 aclCreateTensor(second_dims, 2, ACL_FLOAT, nullptr, 0,
                                                 ACL_FORMAT_ND, second_dims, 2, second.dev())};
    aclTensorList* list = aclCreateTensorList(parts, 2);
    IntArray sizes({2, 3});
    ASSERT_EQ(
        aclnnSplitWithSizeGetWorkspaceSize(x.get(), sizes.get(), 0, list, &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnSplitWithSize, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(first.Read(), (std::vector<float>{0, 1, 2, 3}));
    EXPECT_EQ(second.Read(), (std::vector<float>{4, 5, 6, 7, 8, 9}));
    aclDestroyTensorList(list);
}

TEST_F(AclnnMovement, SplitWithSizeRefusesSizesThatDoNotAddUp) {
    DeviceTensor<float> x({5}, Iota(5), ACL_FLOAT);
    const int64_t dims[1] = {2};
    DeviceTensor<float> part({2}, {0, 0}, ACL_FLOAT);
    const aclTensor* parts[1] = {
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, part.dev())};
    aclTensorList* list = aclCreateTensorList(parts, 1);
    IntArray sizes({2});
    EXPECT_EQ(
        aclnnSplitWithSizeGetWorkspaceSize(x.get(), sizes.get(), 0, list, &workspace_, &executor_),
        ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensorList(list);
}

TEST_F(AclnnMovement, ADifferentOutputTypeIsRefused) {
    DeviceTensor<float> x({2, 3}, Iota(6), ACL_FLOAT);
    DeviceTensor<int32_t> out({3, 2}, std::vector<int32_t>(6, 0), ACL_INT32);
    IntArray dims({1, 0});
    EXPECT_EQ(aclnnPermuteGetWorkspaceSize(x.get(), dims.get(), out.get(), &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
