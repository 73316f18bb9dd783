// aclnnop/aclnn_s_where.h: out = condition ? self : other, the three broadcast together and
// self/other promoted, against a plain loop; views, types, empty tensors and bad inputs.
#include <gtest/gtest.h>

#include <vector>

#include "aclnnop/aclnn_s_where.h"
#include "eltwise_test_support.h"

using aclnn_test::Execute;
using aclnn_test::Quantize;
using aclnn_test::Tensor;

namespace {

class AclnnSWhere : public aclnn_test::AclnnTest {
 protected:
    aclnnStatus Where(const Tensor& condition, const Tensor& self, const Tensor& other,
                      const Tensor& out) {
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return aclnnSWhereGetWorkspaceSize(condition.get(), self.get(), other.get(),
                                                   out.get(), w, e);
            },
            aclnnSWhere);
    }
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnSWhere, SelectsInEveryListedType) {
    const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                                 ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                                 ACL_INT64, ACL_UINT64,  ACL_BOOL};
    Tensor condition({2, 3}, {1, 0, 1, 0, 0, 1}, ACL_UINT8);
    for (aclDataType type : types) {
        const std::vector<double> a = {1, 2, 3, 4, 5, 6}, b = {10, 20, 30, 40, 50, 60};
        Tensor self({2, 3}, a, type), other({2, 3}, b, type);
        Tensor result({2, 3}, std::vector<double>(6, 0), type);
        ASSERT_EQ(Where(condition, self, other, result), ACLNN_SUCCESS) << type;
        std::vector<double> expected;
        for (int i = 0; i < 6; ++i) {
            expected.push_back(Quantize(i == 0 || i == 2 || i == 5 ? a[i] : b[i], type));
        }
        EXPECT_EQ(result.Values(), expected) << type;
    }
}

TEST_F(AclnnSWhere, BroadcastsAllThreeAndPromotes) {
    // condition [2, 1], self [3] int32, other [2, 3] float16 -> out [2, 3] float16.
    Tensor condition({2, 1}, {1, 0}, ACL_BOOL), self({3}, {1, 2, 3}, ACL_INT32);
    Tensor other({2, 3}, {0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, ACL_FLOAT16);
    Tensor out({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    ASSERT_EQ(Where(condition, self, other, out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1, 2, 3, 3.5, 4.5, 5.5}));
}

TEST_F(AclnnSWhere, ReadsTransposedAndOffsetViewsAndWritesAStridedOutput) {
    Tensor condition({2, 3}, {0, 1}, 0, {1, 0, 1}, ACL_BOOL);           // a row, repeated
    Tensor self({2, 3}, {1, 2}, 1, {-1, 0, 3, 1, 4, 2, 5}, ACL_FLOAT);  // transposed
    Tensor other({2, 3}, {3, 1}, 2, {-1, -1, 10, 11, 12, 13, 14, 15}, ACL_FLOAT);  // offset
    Tensor out({2, 3}, {6, 2}, 0, std::vector<double>(12, 7), ACL_FLOAT);
    ASSERT_EQ(Where(condition, self, other, out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0, 11, 2, 3, 14, 5}));
    const std::vector<double> storage = out.Storage();
    for (size_t i = 1; i < storage.size(); i += 2)
        EXPECT_EQ(storage[i], 7) << i;
}

TEST_F(AclnnSWhere, LargeTensorsAreSelectedCompletely) {
    const int64_t n = (1 << 17) + 7;
    std::vector<double> flags(n), a(n);
    for (int64_t i = 0; i < n; ++i)
        flags[i] = i % 2, a[i] = static_cast<double>(i % 977);
    Tensor condition({n}, flags, ACL_BOOL), self({n}, a, ACL_INT32);
    Tensor other({1}, {-1}, ACL_INT32), out({n}, std::vector<double>(n, 0), ACL_INT64);
    ASSERT_EQ(Where(condition, self, other, out), ACLNN_SUCCESS);
    const std::vector<double> result = out.Values();
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], i % 2 ? a[i] : -1.0) << i;
}

TEST_F(AclnnSWhere, EmptyTensorSucceedsWithNoWorkspace) {
    Tensor condition({0, 2}, {}, ACL_BOOL), self({2}, {1, 2}, ACL_FLOAT);
    Tensor out({0, 2}, {}, ACL_FLOAT);
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(condition.get(), self.get(), self.get(), out.get(), &ws_, &ex_),
        ACLNN_SUCCESS);
    EXPECT_EQ(ws_, 0u);
    EXPECT_EQ(aclnnSWhere(nullptr, 0, ex_, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnSWhere, BadInputs) {
    Tensor condition({3}, {1, 0, 1}, ACL_BOOL), self({3}, {1, 2, 3}, ACL_FLOAT);
    Tensor out({3}, {0, 0, 0}, ACL_FLOAT);
    EXPECT_EQ(aclnnSWhereGetWorkspaceSize(nullptr, self.get(), self.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(condition.get(), nullptr, self.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(condition.get(), self.get(), nullptr, out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(condition.get(), self.get(), self.get(), nullptr, &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    // A float condition; types with no common type; a result out cannot take.
    Tensor floats({3}, {1, 0, 1}, ACL_FLOAT), wide({3}, {1, 2, 3}, ACL_UINT32);
    Tensor ints({3}, {0, 0, 0}, ACL_INT32);
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(floats.get(), self.get(), self.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("condition");
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(condition.get(), self.get(), wide.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnSWhereGetWorkspaceSize(condition.get(), self.get(), self.get(), ints.get(), &ws_,
                                          &ex_),
              ACLNN_ERR_PARAM_INVALID);
    // Shapes that do not broadcast; an out of another shape; nine dimensions.
    Tensor four({4}, {1, 0, 1, 0}, ACL_BOOL), longer({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(four.get(), self.get(), self.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("do not broadcast");
    EXPECT_EQ(aclnnSWhereGetWorkspaceSize(condition.get(), self.get(), self.get(), longer.get(),
                                          &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    const std::vector<int64_t> nine(9, 1);
    Tensor deep(nine, {1}, ACL_FLOAT);
    EXPECT_EQ(
        aclnnSWhereGetWorkspaceSize(condition.get(), deep.get(), self.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

}  // namespace
