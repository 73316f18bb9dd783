// aclnnop/aclnn_softmax.h and aclnn_logsoftmax.h against a double-precision reference: every
// dimension (negative ones too), float types in and out, strided views, values large enough to
// overflow a naive exp, empty tensors and the documented parameter errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_softmax.h"
#include "reduce_test_util.h"

using aclnn_test::RunPhase2;
using reduce_test::ExpectClose;
using reduce_test::Quantize;
using reduce_test::Random;
using reduce_test::Tensor;

#define RUN_OP(Name, ...)                                                                \
    do {                                                                                 \
        uint64_t ws_ = 0;                                                                \
        aclOpExecutor* ex_ = nullptr;                                                    \
        ASSERT_EQ(aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_), ACLNN_SUCCESS) \
            << aclGetRecentErrMsg();                                                     \
        ASSERT_EQ(RunPhase2(aclnn##Name, ws_, ex_), ACLNN_SUCCESS);                      \
    } while (0)

#define PLAN_OP(Name, ...)                                                              \
    [&]() {                                                                             \
        uint64_t ws_ = 0;                                                               \
        aclOpExecutor* ex_ = nullptr;                                                   \
        const aclnnStatus rc_ = aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_); \
        if (rc_ == ACLNN_SUCCESS) aclDestroyAclOpExecutor(ex_);                         \
        return rc_;                                                                     \
    }()

namespace {

class AclnnSoftmax : public aclnn_test::AclnnTest {};

// Softmax (or log-softmax) of row-major `values` over `shape` along axis, in double.
std::vector<double> Reference(const std::vector<int64_t>& shape, const std::vector<double>& values,
                              int axis, bool log) {
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d)
        inner *= shape[d];
    const int64_t length = shape[static_cast<size_t>(axis)];
    const int64_t outer = static_cast<int64_t>(values.size()) / (inner * length);
    std::vector<double> out(values.size());
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            auto at = [&](int64_t k) { return static_cast<size_t>((o * length + k) * inner + i); };
            double max = -std::numeric_limits<double>::infinity();
            for (int64_t k = 0; k < length; ++k)
                max = std::max(max, values[at(k)]);
            double sum = 0;
            for (int64_t k = 0; k < length; ++k)
                sum += std::exp(values[at(k)] - max);
            for (int64_t k = 0; k < length; ++k) {
                out[at(k)] =
                    log ? values[at(k)] - max - std::log(sum) : std::exp(values[at(k)] - max) / sum;
            }
        }
    }
    return out;
}

TEST_F(AclnnSoftmax, SoftmaxAndLogSoftmaxMatchAReferenceAlongEveryDimension) {
    const std::vector<int64_t> shape = {3, 4, 5};
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        const std::vector<double> values = Quantize(Random(60, 21, -4, 4), type);
        Tensor self(shape, values, type);
        for (int64_t dim : {0, 1, 2, -1, -3}) {
            const int axis = static_cast<int>(dim < 0 ? dim + 3 : dim);
            for (bool log : {false, true}) {
                Tensor out(shape, std::vector<double>(60, 0), type);
                if (log) {
                    RUN_OP(LogSoftmax, self.get(), dim, out.get());
                } else {
                    RUN_OP(Softmax, self.get(), dim, out.get());
                }
                ExpectClose(out.Values(), Reference(shape, values, axis, log), type,
                            std::string(reduce_test::Name(type)) + (log ? " log" : "") + " dim " +
                                std::to_string(dim),
                            type == ACL_FLOAT ? 1e-6 : 1e-3);
            }
        }
    }
}

TEST_F(AclnnSoftmax, LargeValuesDoNotOverflowAndRowsSumToOne) {
    // exp(1000) overflows double: only a softmax that subtracts the maximum gets this right.
    Tensor self({2, 3}, {1000, 1001, 1002, -1000, -1000, -1000}, ACL_FLOAT);
    Tensor out({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    RUN_OP(Softmax, self.get(), -1, out.get());
    const std::vector<double> got = out.Values();
    const double e1 = std::exp(-1.0), e2 = std::exp(-2.0);
    ExpectClose(
        got, {e2 / (1 + e1 + e2), e1 / (1 + e1 + e2), 1 / (1 + e1 + e2), 1.0 / 3, 1.0 / 3, 1.0 / 3},
        ACL_FLOAT, "stable");
    Tensor logs({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    RUN_OP(LogSoftmax, self.get(), 1, logs.get());
    EXPECT_NEAR(logs.Values()[2], -std::log(1 + e1 + e2), 1e-6);
    EXPECT_NEAR(logs.Values()[3], -std::log(3.0), 1e-6);
}

TEST_F(AclnnSoftmax, ReadsTransposedViewsAndConvertsBetweenTypes) {
    const std::vector<double> values = Quantize(Random(12, 22, -3, 3), ACL_FLOAT16);
    // The [3, 4] matrix stored transposed, float16 in, float out; out a strided view.
    Tensor self({3, 4}, {1, 3}, 0, reduce_test::TransposedStorage(values, 3, 4), ACL_FLOAT16);
    for (int64_t dim : {0, 1}) {
        Tensor out({3, 4}, {8, 2}, 0, std::vector<double>(24, -7), ACL_FLOAT);
        RUN_OP(Softmax, self.get(), dim, out.get());
        ExpectClose(out.Values(), Reference({3, 4}, values, static_cast<int>(dim), false),
                    ACL_FLOAT, "dim " + std::to_string(dim));
    }
    // A large last dimension and many rows: the work is split over workers.
    const std::vector<int64_t> big = {64, 2048};
    const std::vector<double> wide = Quantize(Random(64 * 2048, 23, -5, 5), ACL_FLOAT);
    Tensor big_self(big, wide, ACL_FLOAT);
    for (int64_t dim : {0, 1}) {
        Tensor big_out(big, std::vector<double>(wide.size(), 0), ACL_FLOAT);
        RUN_OP(LogSoftmax, big_self.get(), dim, big_out.get());
        ExpectClose(big_out.Values(), Reference(big, wide, static_cast<int>(dim), true), ACL_FLOAT,
                    "big dim " + std::to_string(dim), 1e-5);
    }
}

TEST_F(AclnnSoftmax, SoftmaxOfInPlaceEmptyAndZeroDimensionalTensors) {
    // out may be self.
    Tensor self({2, 2}, {0, 0, 1, 1}, ACL_FLOAT);
    RUN_OP(Softmax, self.get(), 1, self.get());
    EXPECT_EQ(self.Values(), (std::vector<double>{0.5, 0.5, 0.5, 0.5}));
    Tensor empty({0, 4}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_out({0, 4}, std::vector<double>{}, ACL_FLOAT);
    RUN_OP(Softmax, empty.get(), 1, empty_out.get());
    RUN_OP(LogSoftmax, empty.get(), 0, empty_out.get());
    Tensor scalar({}, {3}, ACL_FLOAT);
    Tensor one({}, {0}, ACL_FLOAT);
    RUN_OP(Softmax, scalar.get(), -1, one.get());
    EXPECT_EQ(one.Values()[0], 1);
}

TEST_F(AclnnSoftmax, RefusesTheDocumentedBadParameters) {
    Tensor self({2, 3}, Random(6, 24), ACL_FLOAT);
    Tensor out({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    Tensor wrong({3, 2}, std::vector<double>(6, 0), ACL_FLOAT);
    Tensor ints({2, 3}, std::vector<double>(6, 1), ACL_INT32);
    for (bool log : {false, true}) {
        auto plan = [&](const aclTensor* a, int64_t dim, const aclTensor* o) {
            return log ? PLAN_OP(LogSoftmax, a, dim, const_cast<aclTensor*>(o))
                       : PLAN_OP(Softmax, a, dim, const_cast<aclTensor*>(o));
        };
        EXPECT_EQ(plan(self.get(), 2, out.get()), ACLNN_ERR_PARAM_INVALID) << log;
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dim"), std::string::npos);
        EXPECT_EQ(plan(self.get(), -3, out.get()), ACLNN_ERR_PARAM_INVALID) << log;
        EXPECT_EQ(plan(self.get(), 1, wrong.get()), ACLNN_ERR_PARAM_INVALID) << log;
        EXPECT_EQ(plan(ints.get(), 1, out.get()), ACLNN_ERR_PARAM_INVALID) << log;
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("self"), std::string::npos);
        EXPECT_EQ(plan(self.get(), 1, ints.get()), ACLNN_ERR_PARAM_INVALID) << log;
        EXPECT_EQ(plan(nullptr, 1, out.get()), ACLNN_ERR_PARAM_NULLPTR) << log;
        EXPECT_EQ(plan(self.get(), 1, nullptr), ACLNN_ERR_PARAM_NULLPTR) << log;
    }
}

}  // namespace
