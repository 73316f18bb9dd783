// aclnnop/aclnn_clamp.h: out = self limited to [min, max]. The scalar-bound forms (Clamp,
// ClampMin, ClampMax, InplaceClampMax) through the shared checks of unary_op_checks.h, the
// tensor-bound forms (ClampTensor, ClampMinTensor, ClampMaxTensor and their in-place forms)
// against std::min/std::max with broadcasting and promotion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_clamp.h"
#include "unary_op_checks.h"

using aclnn_test::Execute;
using aclnn_test::Scalar;
using aclnn_test::Tensor;
using aclnn_test::UnaryCase;

namespace {

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                         ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8};
const std::vector<double> kValues = {-3.5, -1.0, 0.25, 1.0, 2.5, 7.0};
const std::vector<double> kInts = {-4, -1, 0, 1, 3, 7};

const UnaryCase kCases[] = {
    {.name = "Clamp",
     .plan =
         [](const aclTensor* self, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             Scalar lo(-1.0f, ACL_FLOAT), hi(int64_t{2}, ACL_INT64);
             return aclnnClampGetWorkspaceSize(self, lo.get(), hi.get(), out, w, e);
         },
     .phase2 = aclnnClamp,
     .reference = [](double x) { return std::clamp(x, -1.0, 2.0); },
     .dtypes = kTypes,
     .refused = ACL_BOOL,
     .values = kValues,
     .int_values = kInts,
     .exact = true},
    {.name = "ClampMin",
     .plan =
         [](const aclTensor* self, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             Scalar lo(int64_t{1}, ACL_INT64);
             return aclnnClampMinGetWorkspaceSize(self, lo.get(), out, w, e);
         },
     .phase2 = aclnnClampMin,
     .reference = [](double x) { return std::max(x, 1.0); },
     .dtypes = kTypes,
     .refused = ACL_BOOL,
     .values = kValues,
     .int_values = kInts,
     .exact = true},
    {.name = "ClampMax",
     .plan =
         [](const aclTensor* self, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             Scalar hi(2.0, ACL_DOUBLE);
             return aclnnClampMaxGetWorkspaceSize(self, hi.get(), out, w, e);
         },
     .phase2 = aclnnClampMax,
     .inplace =
         [](aclTensor* self, uint64_t* w, aclOpExecutor** e) {
             Scalar hi(2.0, ACL_DOUBLE);
             return aclnnInplaceClampMaxGetWorkspaceSize(self, hi.get(), w, e);
         },
     .inplace_phase2 = aclnnInplaceClampMax,
     .reference = [](double x) { return std::min(x, 2.0); },
     .dtypes = kTypes,
     .refused = ACL_BOOL,
     .values = kValues,
     .int_values = kInts,
     .exact = true},
};

class AclnnClampScalar : public aclnn_test::UnaryOpTest {};
OPENACL_UNARY_OP_TESTS(AclnnClampScalar)
INSTANTIATE_TEST_SUITE_P(Ops, AclnnClampScalar, ::testing::ValuesIn(kCases),
                         aclnn_test::UnaryCaseName);

class AclnnClamp : public aclnn_test::AclnnTest {
 protected:
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnClamp, ClampWithBothScalarsNullIsParamNullptr) {
    Tensor self({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_FLOAT);
    EXPECT_EQ(aclnnClampGetWorkspaceSize(self.get(), nullptr, nullptr, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnClampMinGetWorkspaceSize(self.get(), nullptr, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnClampMaxGetWorkspaceSize(self.get(), nullptr, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceClampMaxGetWorkspaceSize(self.get(), nullptr, &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnClamp, ClampWithOneScalarLimitsOneSide) {
    Tensor self({3}, {-5, 0, 5}, ACL_FLOAT), out({3}, {0, 0, 0}, ACL_FLOAT);
    Scalar hi(1.0f, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampGetWorkspaceSize(self.get(), nullptr, hi.get(), out.get(), w,
                                                        e);
                  },
                  aclnnClamp),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{-5, 0, 1}));
}

TEST_F(AclnnClamp, AMinAboveTheMaxGivesTheMax) {
    Tensor self({3}, {-5, 0, 5}, ACL_INT32), out({3}, {0, 0, 0}, ACL_INT32);
    Scalar lo(int64_t{3}, ACL_INT64), hi(int64_t{1}, ACL_INT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampGetWorkspaceSize(self.get(), lo.get(), hi.get(), out.get(),
                                                        w, e);
                  },
                  aclnnClamp),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{1, 1, 1}));
}

TEST_F(AclnnClamp, ScalarBoundsConvertToOutsTypeAndNaNStays) {
    // An int8 tensor clamped into a float output: bounds apply in float.
    Tensor self({3}, {-100, 0, 100}, ACL_INT8), out({3}, {0, 0, 0}, ACL_FLOAT);
    Scalar lo(-1.5f, ACL_FLOAT), hi(1e30, ACL_DOUBLE);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampGetWorkspaceSize(self.get(), lo.get(), hi.get(), out.get(),
                                                        w, e);
                  },
                  aclnnClamp),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{-1.5, 0, 100}));
    Tensor nan({2}, {NAN, 3.0}, ACL_FLOAT), nan_out({2}, {0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampGetWorkspaceSize(nan.get(), lo.get(), lo.get(),
                                                        nan_out.get(), w, e);
                  },
                  aclnnClamp),
              ACLNN_SUCCESS);
    const std::vector<double> result = nan_out.Values();
    EXPECT_TRUE(std::isnan(result[0]));
    EXPECT_EQ(result[1], -1.5);
}

TEST_F(AclnnClamp, AFloatTensorIntoAnIntegerOutputIsInvalid) {
    Tensor self({2}, {1.5, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_INT32);
    Scalar lo(0.0f, ACL_FLOAT);
    EXPECT_EQ(aclnnClampMinGetWorkspaceSize(self.get(), lo.get(), out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnClamp, ClampTensorBroadcastsTheBoundsWithSelf) {
    Tensor self({2, 3}, {-5, 0, 5, -5, 0, 5}, ACL_FLOAT);
    Tensor lo({2, 1}, {-1, 1}, ACL_FLOAT), hi({3}, {0, 2, 3}, ACL_FLOAT);
    Tensor out({2, 3}, std::vector<double>(6, 9), ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampTensorGetWorkspaceSize(self.get(), lo.get(), hi.get(),
                                                              out.get(), w, e);
                  },
                  aclnnClampTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{-1, 0, 3, 0, 1, 3}));
}

TEST_F(AclnnClamp, ClampTensorPromotesSelfAndBounds) {
    // int32 self with float16 bounds computes in float16 (kept exactly here) into a float out.
    Tensor self({3}, {-5, 0, 5}, ACL_INT32);
    Tensor lo({1}, {-0.5}, ACL_FLOAT16), hi({1}, {2.5}, ACL_FLOAT16);
    Tensor out({3}, {0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampTensorGetWorkspaceSize(self.get(), lo.get(), hi.get(),
                                                              out.get(), w, e);
                  },
                  aclnnClampTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{-0.5, 0, 2.5}));
    // ... which an integer out cannot take.
    Tensor ints({3}, {0, 0, 0}, ACL_INT32);
    EXPECT_EQ(
        aclnnClampTensorGetWorkspaceSize(self.get(), lo.get(), hi.get(), ints.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnClamp, ClampTensorWithOneBoundAndTheMinMaxTensorForms) {
    Tensor self({4}, {-3, -1, 1, 3}, ACL_INT64), bound({4}, {0, 0, 2, 2}, ACL_INT64);
    Tensor only_max({4}, {0, 0, 0, 0}, ACL_INT64), min_out({4}, {0, 0, 0, 0}, ACL_INT64);
    Tensor max_out({4}, {0, 0, 0, 0}, ACL_INT64);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampTensorGetWorkspaceSize(self.get(), nullptr, bound.get(),
                                                              only_max.get(), w, e);
                  },
                  aclnnClampTensor),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampMinTensorGetWorkspaceSize(self.get(), bound.get(),
                                                                 min_out.get(), w, e);
                  },
                  aclnnClampMinTensor),
              ACLNN_SUCCESS);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampMaxTensorGetWorkspaceSize(self.get(), bound.get(),
                                                                 max_out.get(), w, e);
                  },
                  aclnnClampMaxTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(only_max.Values(), (std::vector<double>{-3, -1, 1, 2}));
    EXPECT_EQ(min_out.Values(), (std::vector<double>{0, 0, 2, 3}));
    EXPECT_EQ(max_out.Values(), (std::vector<double>{-3, -1, 1, 2}));
}

TEST_F(AclnnClamp, InplaceTensorFormsWriteSelfRef) {
    Tensor self({2, 2}, {-3, -1, 1, 3}, ACL_INT8), lo({2}, {-2, 0}, ACL_INT8);
    Tensor hi({1}, {2}, ACL_INT8);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnInplaceClampMinTensorGetWorkspaceSize(self.get(), lo.get(), w, e);
                  },
                  aclnnInplaceClampMinTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), (std::vector<double>{-2, 0, 1, 3}));
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnInplaceClampMaxTensorGetWorkspaceSize(self.get(), hi.get(), w, e);
                  },
                  aclnnInplaceClampMaxTensor),
              ACLNN_SUCCESS);
    EXPECT_EQ(self.Values(), (std::vector<double>{-2, 0, 1, 2}));
}

TEST_F(AclnnClamp, ClampTensorNaNBoundGivesNaN) {
    Tensor self({2}, {1, 2}, ACL_FLOAT), lo({2}, {NAN, 0}, ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_FLOAT);
    ASSERT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampMinTensorGetWorkspaceSize(self.get(), lo.get(), out.get(), w,
                                                                 e);
                  },
                  aclnnClampMinTensor),
              ACLNN_SUCCESS);
    const std::vector<double> result = out.Values();
    EXPECT_TRUE(std::isnan(result[0]));
    EXPECT_EQ(result[1], 2);
}

TEST_F(AclnnClamp, ClampTensorBadInputs) {
    Tensor self({2, 3}, std::vector<double>(6, 1), ACL_FLOAT);
    Tensor out({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    Tensor bound({3}, {0, 0, 0}, ACL_FLOAT), wide({4}, {0, 0, 0, 0}, ACL_FLOAT);
    Tensor flags({3}, {1, 0, 1}, ACL_BOOL), unsigned_bound({3}, {1, 1, 1}, ACL_UINT32);
    Tensor small_out({3}, {0, 0, 0}, ACL_FLOAT);
    // Nulls: self, both bounds, the required bound of the Min/Max forms, out.
    EXPECT_EQ(
        aclnnClampTensorGetWorkspaceSize(nullptr, bound.get(), bound.get(), out.get(), &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnClampTensorGetWorkspaceSize(self.get(), nullptr, nullptr, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnClampMinTensorGetWorkspaceSize(self.get(), nullptr, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnInplaceClampMaxTensorGetWorkspaceSize(self.get(), nullptr, &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(
        aclnnClampTensorGetWorkspaceSize(self.get(), bound.get(), bound.get(), nullptr, &ws_, &ex_),
        ACLNN_ERR_PARAM_NULLPTR);
    // Bounds that do not broadcast; an out of another shape; an in-place selfRef it widens.
    EXPECT_EQ(aclnnClampTensorGetWorkspaceSize(self.get(), wide.get(), bound.get(), out.get(), &ws_,
                                               &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("do not broadcast");
    EXPECT_EQ(aclnnClampTensorGetWorkspaceSize(self.get(), bound.get(), bound.get(),
                                               small_out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    Tensor row({3}, {1, 1, 1}, ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceClampMinTensorGetWorkspaceSize(row.get(), self.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    // A bool self; a wide unsigned bound that promotes with nothing.
    EXPECT_EQ(aclnnClampTensorGetWorkspaceSize(flags.get(), bound.get(), bound.get(),
                                               small_out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnClampMinTensorGetWorkspaceSize(self.get(), unsigned_bound.get(), out.get(), &ws_,
                                                  &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

TEST_F(AclnnClamp, ClampTensorOfEmptyTensorsSucceeds) {
    Tensor self({0, 3}, {}, ACL_FLOAT), lo({3}, {0, 0, 0}, ACL_FLOAT), out({0, 3}, {}, ACL_FLOAT);
    EXPECT_EQ(Execute(
                  [&](uint64_t* w, aclOpExecutor** e) {
                      return aclnnClampTensorGetWorkspaceSize(self.get(), lo.get(), lo.get(),
                                                              out.get(), w, e);
                  },
                  aclnnClampTensor),
              ACLNN_SUCCESS);
}

}  // namespace
