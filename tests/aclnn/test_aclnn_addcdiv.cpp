// aclnnop/aclnn_addcdiv.h: out = self + value * tensor1 / tensor2 (Addcdiv, InplaceAddcdiv)
// against plain double arithmetic: types, broadcasting, views, promotion and bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_addcdiv.h"
#include "eltwise_test_support.h"

using aclnn_test::Execute;
using aclnn_test::ExpectValues;
using aclnn_test::Quantize;
using aclnn_test::Scalar;
using aclnn_test::Tensor;

namespace {

class AclnnAddcdiv : public aclnn_test::AclnnTest {
 protected:
    aclnnStatus Addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2,
                        const aclScalar* value, const Tensor& out) {
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return aclnnAddcdivGetWorkspaceSize(self.get(), t1.get(), t2.get(), value,
                                                    out.get(), w, e);
            },
            aclnnAddcdiv);
    }
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnAddcdiv, ComputesInEveryListedType) {
    const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64};
    const std::vector<double> a = {1, -2, 0.5, 10, 3, -4}, b = {3, 1, 2, -6, 5, 8};
    const std::vector<double> c = {2, 4, -8, 3, 2, 16};
    Scalar value(int64_t{2}, ACL_INT64);
    for (aclDataType type : types) {
        std::vector<double> x, y, z, expected;
        for (int i = 0; i < 6; ++i) {
            x.push_back(Quantize(a[i], type));
            y.push_back(Quantize(b[i], type));
            z.push_back(Quantize(c[i], type));
            expected.push_back(x[i] + 2 * (y[i] / z[i]));
        }
        Tensor self({2, 3}, x, type), t1({2, 3}, y, type), t2({2, 3}, z, type);
        Tensor out({2, 3}, std::vector<double>(6, 0), type);
        ASSERT_EQ(Addcdiv(self, t1, t2, value.get(), out), ACLNN_SUCCESS) << type;
        ExpectValues(out.Values(), expected, type, true, "Addcdiv");
    }
}

TEST_F(AclnnAddcdiv, BroadcastsThreeOperandsIntoAStridedOut) {
    Tensor self({2, 1}, {1, 2}, ACL_FLOAT), t1({3}, {1, 2, 3}, ACL_FLOAT);
    Tensor t2({1, 1}, {4}, ACL_FLOAT);
    Tensor out({2, 3}, {6, 2}, 0, std::vector<double>(12, 7), ACL_FLOAT);
    Scalar value(0.5f, ACL_FLOAT);
    ASSERT_EQ(Addcdiv(self, t1, t2, value.get(), out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1.125, 1.25, 1.375, 2.125, 2.25, 2.375}));
    const std::vector<double> storage = out.Storage();
    for (size_t i = 1; i < storage.size(); i += 2)
        EXPECT_EQ(storage[i], 7) << i;
}

TEST_F(AclnnAddcdiv, ReadsTransposedAndOffsetViews) {
    Tensor self({2, 3}, {1, 2}, 1, {-1, 0, 3, 1, 4, 2, 5}, ACL_FLOAT);  // [[0,1,2],[3,4,5]]
    Tensor t1({2, 3}, {3, 1}, 2, {-1, -1, 2, 2, 2, 2, 2, 2}, ACL_FLOAT);
    Tensor t2({2, 3}, {0, 1}, 0, {1, 2, 4}, ACL_FLOAT);
    Tensor out({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    Scalar value(1.0f, ACL_FLOAT);
    ASSERT_EQ(Addcdiv(self, t1, t2, value.get(), out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{2, 2, 2.5, 5, 5, 5.5}));
}

TEST_F(AclnnAddcdiv, InplaceAddcdivWritesSelfRef) {
    Tensor self({2, 2}, {1, 2, 3, 4}, ACL_FLOAT16), t1({2}, {1, -1}, ACL_FLOAT16);
    Tensor t2({2}, {4, 2}, ACL_FLOAT16);
    Scalar value(2.0, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnInplaceAddcdivGetWorkspaceSize(self.get(), t1.get(), t2.get(),
                                                                 value.get(), w, e);
                  },
                  aclnnInplaceAddcdiv),
              ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), (std::vector<double>{1.5, 1, 3.5, 3}));
}

TEST_F(AclnnAddcdiv, Int64DividesTrulyAndTruncatesTheSum) {
    Tensor self({2}, {1, -1}, ACL_INT64), t1({2}, {7, 7}, ACL_INT64), t2({2}, {2, 2}, ACL_INT64);
    Tensor out({2}, {0, 0}, ACL_INT64);
    Scalar value(int64_t{1}, ACL_INT64);
    ASSERT_EQ(Addcdiv(self, t1, t2, value.get(), out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{4, 2}));  // 1 + 3.5, -1 + 3.5
}

TEST_F(AclnnAddcdiv, MixedFloatTypesPromote) {
    Tensor self({2}, {1, 2}, ACL_FLOAT16), t1({2}, {1, 3}, ACL_BF16), t2({2}, {2, 2}, ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_FLOAT);
    Scalar value(1.0f, ACL_FLOAT);
    ASSERT_EQ(Addcdiv(self, t1, t2, value.get(), out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1.5, 3.5}));
}

TEST_F(AclnnAddcdiv, EmptyTensorSucceedsWithNoWorkspace) {
    Tensor self({0, 2}, {}, ACL_FLOAT), t({2}, {1, 1}, ACL_FLOAT), out({0, 2}, {}, ACL_FLOAT);
    Scalar value(1.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(self.get(), t.get(), t.get(), value.get(), out.get(),
                                           &ws_, &ex_),
              ACLNN_SUCCESS);
    EXPECT_EQ(ws_, 0u);
    EXPECT_EQ(aclnnAddcdiv(nullptr, 0, ex_, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnAddcdiv, BadInputs) {
    Tensor self({3}, {1, 2, 3}, ACL_FLOAT), out({3}, {0, 0, 0}, ACL_FLOAT);
    Scalar value(1.0f, ACL_FLOAT);
    const aclTensor* s = self.get();
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(nullptr, s, s, value.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, nullptr, s, value.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, s, nullptr, value.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, s, s, nullptr, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, s, s, value.get(), nullptr, &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceAddcdivGetWorkspaceSize(nullptr, s, s, value.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    // An int32 operand (not listed); a float result into an int64 out; a value of a type that
    // is not listed.
    Tensor ints({3}, {1, 2, 3}, ACL_INT32), longs({3}, {0, 0, 0}, ACL_INT64);
    Scalar flag(true, ACL_BOOL);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, ints.get(), s, value.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("ACL_INT32");
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, s, s, value.get(), longs.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, s, s, flag.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("value");
    // A float value with int64 tensors cannot be cast to their type.
    Tensor l({3}, {1, 2, 3}, ACL_INT64);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(l.get(), l.get(), l.get(), value.get(), longs.get(),
                                           &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    // Shapes that do not broadcast; an out of another shape; an in-place selfRef they widen.
    Tensor four({4}, {1, 1, 1, 1}, ACL_FLOAT), grid({2, 3}, std::vector<double>(6, 1), ACL_FLOAT);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, four.get(), s, value.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(s, grid.get(), s, value.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnInplaceAddcdivGetWorkspaceSize(s, grid.get(), s, value.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    const std::vector<int64_t> nine(9, 1);
    Tensor deep(nine, {1}, ACL_FLOAT);
    EXPECT_EQ(aclnnAddcdivGetWorkspaceSize(deep.get(), s, s, value.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

}  // namespace
