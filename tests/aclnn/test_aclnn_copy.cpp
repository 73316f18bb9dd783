// aclnnop/aclnn_copy.h: selfRef = src broadcast to selfRef's shape and converted to its type,
// for views of every kind, with memory shared between the two, and the bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_copy.h"
#include "eltwise_test_support.h"

using aclnn_test::Execute;
using aclnn_test::Quantize;
using aclnn_test::Tensor;

namespace {

const aclDataType kTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                              ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                              ACL_INT64, ACL_UINT64,  ACL_BOOL};

class AclnnCopy : public aclnn_test::AclnnTest {
 protected:
    aclnnStatus Copy(aclTensor* self, const aclTensor* src) {
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return aclnnInplaceCopyGetWorkspaceSize(self, src, w, e);
            },
            aclnnInplaceCopy);
    }
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnCopy, CopiesBetweenEveryPairOfTypes) {
    const std::vector<double> values = {0, 1, 2, 3.5, 100, 7};
    for (aclDataType from : kTypes) {
        std::vector<double> held;
        for (double v : values)
            held.push_back(Quantize(v, from));
        Tensor src({2, 3}, held, from);
        for (aclDataType to : kTypes) {
            Tensor self({2, 3}, std::vector<double>(6, 0.0), to);
            ASSERT_EQ(Copy(self.get(), src.get()), ACLNN_SUCCESS)
                << from << " to " << to << ": " << aclnn_test::RecentMessage();
            std::vector<double> expected;
            for (double v : held)
                expected.push_back(Quantize(v, to));
            EXPECT_EQ(self.Values(), expected) << from << " to " << to;
        }
    }
}

TEST_F(AclnnCopy, BroadcastsSrcToSelfRefsShape) {
    Tensor src({3}, {1, 2, 3}, ACL_INT32), self({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    ASSERT_EQ(Copy(self.get(), src.get()), ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), (std::vector<double>{1, 2, 3, 1, 2, 3}));
    Tensor scalar({}, {9}, ACL_INT8);
    ASSERT_EQ(Copy(self.get(), scalar.get()), ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), std::vector<double>(6, 9));
}

TEST_F(AclnnCopy, WritesATransposedSelfRefFromAnOffsetSrc) {
    // selfRef: the transpose of a 3x2 buffer; src: a 2x3 view after two padding elements.
    Tensor self({2, 3}, {1, 2}, 0, std::vector<double>(6, 0), ACL_BF16);
    Tensor src({2, 3}, {3, 1}, 2, {-1, -1, 0, 1, 2, 3, 4, 5}, ACL_FLOAT);
    ASSERT_EQ(Copy(self.get(), src.get()), ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(self.Storage(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST_F(AclnnCopy, ASrcOverlappingSelfRefIsReadBeforeSelfRefIsWritten) {
    // One buffer [0..7]: selfRef = elements 1..6, src = elements 0..5 (shifted by one). A plain
    // forward copy would smear element 0 over everything.
    aclnn_test::Tensor storage({8}, {0, 1, 2, 3, 4, 5, 6, 7}, ACL_FLOAT);
    void* base = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(storage.get(), &base), ACLNN_SUCCESS);
    const int64_t dims[1] = {6}, strides[1] = {1}, storage_dims[1] = {8};
    aclTensor* self =
        aclCreateTensor(dims, 1, ACL_FLOAT, strides, 1, ACL_FORMAT_ND, storage_dims, 1, base);
    aclTensor* src =
        aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage_dims, 1, base);
    ASSERT_EQ(Copy(self, src), ACLNN_SUCCESS);
    EXPECT_EQ(storage.Values(), (std::vector<double>{0, 0, 1, 2, 3, 4, 5, 7}));
    // The same elements onto themselves (converting nothing) change nothing.
    ASSERT_EQ(Copy(self, self), ACLNN_SUCCESS);
    EXPECT_EQ(storage.Values(), (std::vector<double>{0, 0, 1, 2, 3, 4, 5, 7}));
    aclDestroyTensor(self);
    aclDestroyTensor(src);
}

TEST_F(AclnnCopy, FloatToIntegerTruncatesAndSaturates) {
    Tensor src({4}, {2.7, -2.7, 1e20, NAN}, ACL_DOUBLE), self({4}, {9, 9, 9, 9}, ACL_INT64);
    ASSERT_EQ(Copy(self.get(), src.get()), ACLNN_SUCCESS);
    const std::vector<double> result = self.Values();
    EXPECT_EQ(result[0], 2);
    EXPECT_EQ(result[1], -2);
    EXPECT_EQ(result[2], 9223372036854775807.0);
    EXPECT_EQ(result[3], 0);
}

TEST_F(AclnnCopy, LargeStridedCopiesAreComplete) {
    const int64_t rows = 300, cols = 1000;  // several parallel blocks, transposed read
    std::vector<double> values(rows * cols);
    for (int64_t i = 0; i < rows * cols; ++i)
        values[i] = static_cast<double>(i % 2039);
    Tensor src({cols, rows}, {1, cols}, 0, values, ACL_FLOAT);  // the transpose
    Tensor self({cols, rows}, std::vector<double>(rows * cols, 0), ACL_FLOAT16);
    ASSERT_EQ(Copy(self.get(), src.get()), ACLNN_SUCCESS);
    const std::vector<double> result = self.Values();
    for (int64_t c = 0; c < cols; ++c) {
        for (int64_t r = 0; r < rows; ++r) {
            ASSERT_EQ(result[c * rows + r], values[r * cols + c]) << c << ", " << r;
        }
    }
}

TEST_F(AclnnCopy, EmptyTensorSucceedsWithNoWorkspace) {
    Tensor self({0, 4}, {}, ACL_FLOAT), src({4}, {1, 2, 3, 4}, ACL_INT32);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), src.get(), &ws_, &ex_), ACLNN_SUCCESS);
    EXPECT_EQ(ws_, 0u);
    EXPECT_EQ(aclnnInplaceCopy(nullptr, 0, ex_, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnCopy, BadInputs) {
    Tensor self({2, 3}, std::vector<double>(6, 0), ACL_FLOAT), src({3}, {1, 2, 3}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(nullptr, src.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), nullptr, &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), src.get(), nullptr, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), src.get(), &ws_, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    // A src that does not broadcast to selfRef's shape (nor the other way round).
    Tensor wider({4, 3}, std::vector<double>(12, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), wider.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("does not broadcast");
    Tensor column({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), column.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    // A complex operand; more than eight dimensions.
    Tensor complex({3}, {1, 2, 3}, ACL_COMPLEX64);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), complex.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    const std::vector<int64_t> nine(9, 1);
    Tensor deep(nine, {0}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(deep.get(), src.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

}  // namespace
