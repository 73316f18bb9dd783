// aclnnop/aclnn_sort.h, aclnn_argsort.h and aclnn_topk.h against std::stable_sort: every
// dimension, ascending and descending, NaN as the largest value, ties in their original order,
// strided views, empty and 0-d tensors and the documented parameter errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "reduce_test_util.h"

using aclnn_test::RunPhase2;
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

class AclnnSort : public aclnn_test::AclnnTest {};

struct Sorted {
    std::vector<double> values, indices;  // row-major over the output shape
};

// The first k of every line of `values` (row-major over shape) along axis, stably ordered,
// NaN the largest.
Sorted Reference(const std::vector<int64_t>& shape, const std::vector<double>& values, int axis,
                 bool descending, int64_t k) {
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d)
        inner *= shape[d];
    const int64_t length = shape[static_cast<size_t>(axis)];
    const int64_t outer = static_cast<int64_t>(values.size()) / (inner * length);
    Sorted s;
    s.values.resize(static_cast<size_t>(outer * k * inner));
    s.indices.resize(s.values.size());
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            auto value = [&](int64_t p) {
                return values[static_cast<size_t>((o * length + p) * inner + i)];
            };
            std::vector<int64_t> order(static_cast<size_t>(length));
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
                const double x = value(a), y = value(b);
                if (std::isnan(x) || std::isnan(y)) {
                    return descending ? (std::isnan(x) && !std::isnan(y))
                                      : (!std::isnan(x) && std::isnan(y));
                }
                return descending ? x > y : x < y;
            });
            for (int64_t j = 0; j < k; ++j) {
                const size_t at = static_cast<size_t>((o * k + j) * inner + i);
                s.values[at] = value(order[static_cast<size_t>(j)]);
                s.indices[at] = static_cast<double>(order[static_cast<size_t>(j)]);
            }
        }
    }
    return s;
}

void ExpectSame(const std::vector<double>& got, const std::vector<double>& want,
                const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << what << " [" << i << "]";
        } else {
            EXPECT_EQ(got[i], want[i]) << what << " [" << i << "]";
        }
    }
}

TEST_F(AclnnSort, SortAndArgsortMatchAStableReferenceAlongEveryDimension) {
    const std::vector<int64_t> shape = {3, 4, 5};
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64}) {
        // Few distinct values: ties are common and must keep their order.
        std::vector<double> values = Random(60, 61, -3, 3);
        for (double& v : values)
            v = std::floor(v);
        values = Quantize(values, type);
        Tensor self(shape, values, type);
        for (int64_t dim : {0, 1, 2, -1}) {
            const int axis = static_cast<int>(dim < 0 ? dim + 3 : dim);
            for (bool descending : {false, true}) {
                Tensor sorted(shape, std::vector<double>(60, 0), type);
                Tensor indices(shape, std::vector<double>(60, -1), ACL_INT64);
                Tensor order(shape, std::vector<double>(60, -1), ACL_INT64);
                RUN_OP(Sort, self.get(), true, dim, descending, sorted.get(), indices.get());
                RUN_OP(Argsort, self.get(), dim, descending, order.get());
                const Sorted want = Reference(shape, values, axis, descending, shape[axis]);
                const std::string what = std::string(reduce_test::Name(type)) + " dim " +
                                         std::to_string(dim) + (descending ? " desc" : "");
                ExpectSame(sorted.Values(), want.values, what);
                ExpectSame(indices.Values(), want.indices, what + " indices");
                ExpectSame(order.Values(), want.indices, what + " argsort");
            }
        }
    }
}

TEST_F(AclnnSort, SortPutsNaNLastAscendingAndFirstDescendingAndConvertsValues) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> values = {3, nan, -1, 2, nan, 0};
    Tensor self({6}, values, ACL_FLOAT);
    for (bool descending : {false, true}) {
        Tensor sorted({6}, std::vector<double>(6, 0), ACL_DOUBLE);  // a wider values type
        Tensor indices({6}, std::vector<double>(6, 0), ACL_INT64);
        RUN_OP(Sort, self.get(), false, 0, descending, sorted.get(), indices.get());
        const Sorted want = Reference({6}, values, 0, descending, 6);
        ExpectSame(sorted.Values(), want.values, descending ? "desc" : "asc");
        ExpectSame(indices.Values(), want.indices, descending ? "desc indices" : "asc indices");
    }
}

TEST_F(AclnnSort, TopkTakesTheFirstKOfATransposedView) {
    const std::vector<double> values = Quantize(Random(24, 62, -5, 5), ACL_FLOAT16);
    // [4, 6] stored transposed.
    Tensor self({4, 6}, {1, 4}, 0, reduce_test::TransposedStorage(values, 4, 6), ACL_FLOAT16);
    for (int64_t dim : {0, 1}) {
        for (bool largest : {true, false}) {
            for (int64_t k : {0, 1, 3}) {
                std::vector<int64_t> out_shape = {4, 6};
                out_shape[static_cast<size_t>(dim)] = k;
                const size_t n = static_cast<size_t>(reduce_test::Numel(out_shape));
                Tensor top(out_shape, std::vector<double>(n, 0), ACL_FLOAT16);
                Tensor where(out_shape, std::vector<double>(n, -1), ACL_INT64);
                RUN_OP(Topk, self.get(), k, dim, largest, true, top.get(), where.get());
                const Sorted want = Reference({4, 6}, values, static_cast<int>(dim), largest, k);
                const std::string what = "dim " + std::to_string(dim) + " k " + std::to_string(k) +
                                         (largest ? " largest" : "");
                ExpectSame(top.Values(), want.values, what);
                ExpectSame(where.Values(), want.indices, what + " indices");
            }
        }
    }
    // A long line split over workers, largest first.
    const std::vector<double> many = Quantize(Random(64 * 1000, 63), ACL_FLOAT);
    Tensor big({64, 1000}, many, ACL_FLOAT);
    Tensor top({64, 10}, std::vector<double>(640, 0), ACL_FLOAT);
    Tensor where({64, 10}, std::vector<double>(640, 0), ACL_INT64);
    RUN_OP(Topk, big.get(), 10, -1, true, false, top.get(), where.get());
    const Sorted want = Reference({64, 1000}, many, 1, true, 10);
    ExpectSame(top.Values(), want.values, "big");
    ExpectSame(where.Values(), want.indices, "big indices");
}

TEST_F(AclnnSort, EmptyAndZeroDimensionalInputs) {
    Tensor empty({0, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_values({0, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_indices({0, 3}, std::vector<double>{}, ACL_INT64);
    RUN_OP(Sort, empty.get(), false, 1, false, empty_values.get(), empty_indices.get());
    RUN_OP(Argsort, empty.get(), 0, false, empty_indices.get());
    Tensor scalar({}, {5}, ACL_INT32);
    Tensor value({}, {0}, ACL_INT32), index({}, {9}, ACL_INT64);
    RUN_OP(Topk, scalar.get(), 1, -1, true, true, value.get(), index.get());
    EXPECT_EQ(value.Values()[0], 5);
    EXPECT_EQ(index.Values()[0], 0);
}

TEST_F(AclnnSort, RefusesTheDocumentedBadParameters) {
    Tensor self({2, 3}, Random(6, 64), ACL_FLOAT);
    Tensor values({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    Tensor indices({2, 3}, std::vector<double>(6, 0), ACL_INT64);
    Tensor int32_indices({2, 3}, std::vector<double>(6, 0), ACL_INT32);
    Tensor wrong({3, 2}, std::vector<double>(6, 0), ACL_INT64);
    Tensor top_values({2, 2}, std::vector<double>(4, 0), ACL_FLOAT);
    Tensor top_f16({2, 2}, std::vector<double>(4, 0), ACL_FLOAT16);
    Tensor top_indices({2, 2}, std::vector<double>(4, 0), ACL_INT64);
    Tensor flags({2, 3}, std::vector<double>(6, 1), ACL_BOOL);
    EXPECT_EQ(PLAN_OP(Sort, self.get(), false, 2, false, values.get(), indices.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Sort, self.get(), false, 1, false, values.get(), int32_indices.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("indicesOut"), std::string::npos);
    EXPECT_EQ(PLAN_OP(Sort, self.get(), false, 1, false, values.get(), wrong.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Sort, self.get(), false, 1, false, nullptr, indices.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(PLAN_OP(Argsort, self.get(), -3, false, indices.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Argsort, self.get(), 1, false, int32_indices.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Argsort, flags.get(), 1, false, indices.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Topk, self.get(), 4, 1, true, true, top_values.get(), top_indices.get()),
              ACLNN_ERR_PARAM_INVALID);  // k beyond the dimension
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("k"), std::string::npos);
    EXPECT_EQ(PLAN_OP(Topk, self.get(), -1, 1, true, true, top_values.get(), top_indices.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Topk, self.get(), 2, 1, true, true, top_f16.get(), top_indices.get()),
              ACLNN_ERR_PARAM_INVALID);  // values must have self's type
    EXPECT_EQ(PLAN_OP(Topk, self.get(), 3, 1, true, true, top_values.get(), top_indices.get()),
              ACLNN_ERR_PARAM_INVALID);  // [2, 3] expected
    EXPECT_EQ(PLAN_OP(Topk, self.get(), 2, 1, true, true, top_values.get(), nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
