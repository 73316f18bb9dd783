// aclnnop/aclnn_masked_fill_scalar.h: selfRef = value where mask (broadcast to selfRef) is
// true, against a plain loop; views, types, empty tensors and bad inputs.
#include <gtest/gtest.h>

#include <vector>

#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "eltwise_test_support.h"

using aclnn_test::Execute;
using aclnn_test::Quantize;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

class AclnnMaskedFill : public aclnn_test::AclnnTest {
 protected:
    aclnnStatus Fill(const Tensor& self, const Tensor& mask, const aclScalar* value) {
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), mask.get(), value,
                                                                    w, e);
            },
            aclnnInplaceMaskedFillScalar);
    }
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnMaskedFill, FillsWhereTheMaskIsTrueInEveryListedType) {
    const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32,
                                 ACL_INT64, ACL_INT8,    ACL_BOOL};
    Tensor mask({2, 3}, {1, 0, 0, 1, 1, 0}, ACL_BOOL);
    Scalar value(-2.5f, ACL_FLOAT);
    for (aclDataType type : types) {
        const std::vector<double> before = {1, 2, 3, 4, 5, 6};
        Tensor self({2, 3}, before, type);
        ASSERT_EQ(Fill(self, mask, value.get()), ACLNN_SUCCESS) << type;
        const double fill = type == ACL_BOOL ? 1.0 : Quantize(-2.5, type);
        std::vector<double> expected;
        for (int i = 0; i < 6; ++i) {
            expected.push_back((i == 0 || i == 3 || i == 4) ? fill : Quantize(before[i], type));
        }
        EXPECT_EQ(self.Values(), expected) << type;
    }
}

TEST_F(AclnnMaskedFill, BroadcastsTheMaskAndWritesAView) {
    // selfRef: the transpose of a 3x2 buffer; mask: one row for both rows.
    Tensor self({2, 3}, {1, 2}, 0, {0, 1, 2, 3, 4, 5}, ACL_FLOAT);
    Tensor mask({3}, {0, 1, 1}, ACL_BOOL);
    Scalar value(int64_t{9}, ACL_INT64);
    ASSERT_EQ(Fill(self, mask, value.get()), ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), (std::vector<double>{0, 9, 9, 1, 9, 9}));
}

TEST_F(AclnnMaskedFill, LargeTensorsAreFilledCompletely) {
    const int64_t n = (1 << 17) + 3;
    std::vector<double> flags(n);
    for (int64_t i = 0; i < n; ++i)
        flags[i] = (i % 3 == 0) ? 1.0 : 0.0;
    Tensor self({n}, std::vector<double>(n, 2.0), ACL_FLOAT), mask({n}, flags, ACL_BOOL);
    Scalar value(7.0f, ACL_FLOAT);
    ASSERT_EQ(Fill(self, mask, value.get()), ACLNN_SUCCESS);
    const std::vector<double> result = self.Values();
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], i % 3 == 0 ? 7.0 : 2.0) << i;
}

TEST_F(AclnnMaskedFill, EmptyTensorSucceedsWithNoWorkspace) {
    Tensor self({0, 2}, {}, ACL_FLOAT), mask({2}, {1, 0}, ACL_BOOL);
    Scalar value(1.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), mask.get(), value.get(),
                                                           &ws_, &ex_),
              ACLNN_SUCCESS);
    EXPECT_EQ(ws_, 0u);
    EXPECT_EQ(aclnnInplaceMaskedFillScalar(nullptr, 0, ex_, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnMaskedFill, BadInputs) {
    Tensor self({2, 3}, std::vector<double>(6, 1), ACL_FLOAT);
    Tensor mask({3}, {1, 0, 1}, ACL_BOOL);
    Scalar value(1.0f, ACL_FLOAT);
    EXPECT_EQ(
        aclnnInplaceMaskedFillScalarGetWorkspaceSize(nullptr, mask.get(), value.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), nullptr, value.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), mask.get(), nullptr, &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), mask.get(), value.get(),
                                                           nullptr, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    // A mask that is not bool; a selfRef type outside the list; a mask wider than selfRef.
    Tensor bytes({3}, {1, 0, 1}, ACL_UINT8), doubles({2, 3}, std::vector<double>(6, 1), ACL_DOUBLE);
    Tensor wide({4, 2, 3}, std::vector<double>(24, 1), ACL_BOOL);
    EXPECT_EQ(aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), bytes.get(), value.get(),
                                                           &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("mask");
    EXPECT_EQ(aclnnInplaceMaskedFillScalarGetWorkspaceSize(doubles.get(), mask.get(), value.get(),
                                                           &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), wide.get(), value.get(),
                                                           &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    const std::vector<int64_t> nine(9, 1);
    Tensor deep(nine, {1}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceMaskedFillScalarGetWorkspaceSize(deep.get(), mask.get(), value.get(),
                                                           &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

}  // namespace
