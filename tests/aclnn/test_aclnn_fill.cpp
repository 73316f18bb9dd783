// aclnnop/aclnn_fill_scalar.h (every element of selfRef = value, converted to its type) and
// aclnn_zero.h (every element = 0), for every type, views, empty tensors and bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "eltwise_test_support.h"

using aclnn_test::Execute;
using aclnn_test::Quantize;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

class AclnnFill : public aclnn_test::AclnnTest {
 protected:
    aclnnStatus Fill(const Tensor& self, const aclScalar* value) {
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return aclnnInplaceFillScalarGetWorkspaceSize(self.get(), value, w, e);
            },
            aclnnInplaceFillScalar);
    }
    aclnnStatus Zero(const Tensor& self) {
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return aclnnInplaceZeroGetWorkspaceSize(self.get(), w, e);
            },
            aclnnInplaceZero);
    }
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnFill, FillScalarWritesTheValueInEveryType) {
    const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                                 ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                                 ACL_INT64, ACL_UINT64,  ACL_BOOL};
    Scalar value(6.75f, ACL_FLOAT);
    for (aclDataType type : types) {
        Tensor self({2, 3}, std::vector<double>(6, 1.0), type);
        ASSERT_EQ(Fill(self, value.get()), ACLNN_SUCCESS) << type;
        EXPECT_EQ(self.Values(), std::vector<double>(6, Quantize(6.75, type))) << type;
    }
}

TEST_F(AclnnFill, FillScalarConvertsTheValue) {
    Tensor ints({3}, {0, 0, 0}, ACL_INT32), flags({2}, {0, 0}, ACL_BOOL);
    Tensor halves({2}, {0, 0}, ACL_FLOAT16), bytes({2}, {0, 0}, ACL_UINT64);
    Scalar negative(-2.9, ACL_DOUBLE), fraction(0.25f, ACL_FLOAT);
    Scalar huge(int64_t{-1}, ACL_INT64);
    ASSERT_EQ(Fill(ints, negative.get()), ACLNN_SUCCESS);
    ASSERT_EQ(Fill(flags, fraction.get()), ACLNN_SUCCESS);
    ASSERT_EQ(Fill(halves, negative.get()), ACLNN_SUCCESS);
    ASSERT_EQ(Fill(bytes, huge.get()), ACLNN_SUCCESS);
    EXPECT_EQ(ints.Values(), (std::vector<double>{-2, -2, -2}));
    EXPECT_EQ(flags.Values(), (std::vector<double>{1, 1}));  // 0.25 is not zero
    EXPECT_EQ(halves.Values(), std::vector<double>(2, Quantize(-2.9, ACL_FLOAT16)));
    EXPECT_EQ(bytes.Values(), std::vector<double>(2, 18446744073709551615.0));  // -1 wraps
}

TEST_F(AclnnFill, FillScalarWritesOnlyTheViewsElements) {
    Tensor self({2, 2}, {1, 4}, 1, std::vector<double>(9, 0), ACL_FLOAT);  // transposed, offset
    Scalar value(int64_t{3}, ACL_INT64);
    ASSERT_EQ(Fill(self, value.get()), ACLNN_SUCCESS);
    EXPECT_EQ(self.Storage(), (std::vector<double>{0, 3, 3, 0, 0, 3, 3, 0, 0}));
}

TEST_F(AclnnFill, ZeroClearsEveryListedType) {
    const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                 ACL_INT16, ACL_UINT16,  ACL_INT32, ACL_INT64,  ACL_BOOL};
    for (aclDataType type : types) {
        Tensor self({2, 3}, {1, 2, 3, 4, 5, 6}, type);
        ASSERT_EQ(Zero(self), ACLNN_SUCCESS) << type;
        EXPECT_EQ(self.Values(), std::vector<double>(6, 0.0)) << type;
    }
}

TEST_F(AclnnFill, ZeroWritesOnlyTheViewsElements) {
    Tensor self({3}, {2}, 1, std::vector<double>(7, 5), ACL_INT8);
    ASSERT_EQ(Zero(self), ACLNN_SUCCESS);
    EXPECT_EQ(self.Storage(), (std::vector<double>{5, 0, 5, 0, 5, 0, 5}));
}

TEST_F(AclnnFill, LargeTensorsAreFilledCompletely) {
    const int64_t n = (1 << 17) + 5;
    Tensor self({n}, std::vector<double>(n, 1.0), ACL_BF16);
    Scalar value(-0.5f, ACL_FLOAT);
    ASSERT_EQ(Fill(self, value.get()), ACLNN_SUCCESS);
    const std::vector<double> result = self.Values();
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], -0.5) << i;
}

TEST_F(AclnnFill, EmptyTensorsSucceedWithNoWorkspace) {
    Tensor self({0, 5}, {}, ACL_FLOAT);
    Scalar value(1.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(self.get(), value.get(), &ws_, &ex_),
              ACLNN_SUCCESS);
    EXPECT_EQ(ws_, 0u);
    EXPECT_EQ(aclnnInplaceFillScalar(nullptr, 0, ex_, nullptr), ACLNN_SUCCESS);
    ex_ = nullptr;
    EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(self.get(), &ws_, &ex_), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnInplaceZero(nullptr, 0, ex_, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnFill, BadInputs) {
    Tensor self({2}, {1, 2}, ACL_FLOAT);
    Scalar value(1.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(nullptr, value.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(self.get(), nullptr, &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(self.get(), value.get(), nullptr, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(nullptr, &ws_, &ex_), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(self.get(), &ws_, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    // Zero does not take uint32 or uint64; neither takes complex or nine dimensions.
    Tensor wide({2}, {1, 2}, ACL_UINT32), complex({2}, {1, 2}, ACL_COMPLEX64);
    EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(wide.get(), &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("ACL_UINT32");
    EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(complex.get(), value.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    const std::vector<int64_t> nine(9, 1);
    Tensor deep(nine, {1}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(deep.get(), &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(deep.get(), value.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

}  // namespace
