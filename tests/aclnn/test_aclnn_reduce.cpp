// The reductions (aclnn_reduce_sum.h, aclnn_sum.h, aclnn_mean.h, aclnn_amax.h, aclnn_amin.h,
// aclnn_argmax.h, aclnn_cumsum.h, aclnn_norm.h) against plain double-precision references:
// float types and integers, keepdim on and off, negative dimensions, strided views, empty
// tensors and the documented parameter errors.
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
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_sum.h"
#include "reduce_test_util.h"

using aclnn_test::RunPhase2;
using aclnn_test::Scalar;
using reduce_test::ExpectClose;
using reduce_test::Groups;
using reduce_test::IntArray;
using reduce_test::Quantize;
using reduce_test::Random;
using reduce_test::Tensor;

// First phase then second phase; both must succeed.
#define RUN_OP(Name, ...)                                                                \
    do {                                                                                 \
        uint64_t ws_ = 0;                                                                \
        aclOpExecutor* ex_ = nullptr;                                                    \
        ASSERT_EQ(aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_), ACLNN_SUCCESS) \
            << aclGetRecentErrMsg();                                                     \
        ASSERT_EQ(RunPhase2(aclnn##Name, ws_, ex_), ACLNN_SUCCESS);                      \
    } while (0)

// The first phase's status (the executor, if any, is consumed by a no-op second phase).
#define PLAN_OP(Name, ...)                                                              \
    [&]() {                                                                             \
        uint64_t ws_ = 0;                                                               \
        aclOpExecutor* ex_ = nullptr;                                                   \
        const aclnnStatus rc_ = aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_); \
        if (rc_ == ACLNN_SUCCESS) aclDestroyAclOpExecutor(ex_);                         \
        return rc_;                                                                     \
    }()

namespace {

class AclnnReduce : public aclnn_test::AclnnTest {};

constexpr aclDataType kFloatTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// dims as CANN reads them: negative ones from the end, empty = all.
std::vector<int> Resolve(const std::vector<int64_t>& dims, size_t rank) {
    std::vector<int> resolved;
    if (dims.empty()) {
        for (size_t d = 0; d < rank; ++d)
            resolved.push_back(static_cast<int>(d));
    }
    for (int64_t d : dims)
        resolved.push_back(static_cast<int>(d < 0 ? d + rank : d));
    return resolved;
}

std::vector<int64_t> OutShape(const std::vector<int64_t>& shape, const std::vector<int>& reduced,
                              bool keepdim) {
    std::vector<int64_t> out;
    for (size_t d = 0; d < shape.size(); ++d) {
        const bool r =
            std::find(reduced.begin(), reduced.end(), static_cast<int>(d)) != reduced.end();
        if (!r) out.push_back(shape[d]);
        if (r && keepdim) out.push_back(1);
    }
    return out;
}

double Sum(const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0);
}

// ---------------------------------------------------------------- ReduceSum

TEST_F(AclnnReduce, ReduceSumMatchesADoubleReferenceOverFloatTypesDimsAndKeepdim) {
    const std::vector<int64_t> shape = {3, 4, 5};
    const std::vector<std::vector<int64_t>> dim_sets = {{1}, {-1}, {0, 2}, {-3, 1}, {}};
    for (aclDataType type : kFloatTypes) {
        const std::vector<double> values = Quantize(Random(60, 1), type);
        for (bool keep : {false, true}) {
            for (const auto& dims : dim_sets) {
                const std::vector<int> reduced = Resolve(dims, shape.size());
                const std::vector<int64_t> out_shape = OutShape(shape, reduced, keep);
                Tensor self(shape, values, type);
                Tensor out(out_shape, std::vector<double>(reduce_test::Numel(out_shape), -7), type);
                IntArray d(dims);
                RUN_OP(ReduceSum, self.get(), d.get(), keep, type, out.get());
                std::vector<double> want;
                for (const auto& group : Groups(shape, values, reduced)) {
                    want.push_back(Quantize(Sum(group), type));
                }
                ExpectClose(out.Values(), want, type,
                            std::string(reduce_test::Name(type)) + " keep " + std::to_string(keep) +
                                " dims " + std::to_string(dims.size()));
            }
        }
    }
}

TEST_F(AclnnReduce, ReduceSumReadsATransposedViewAndWritesAStridedOutput) {
    // self: the [4, 6] matrix `values` stored transposed; out: every other element.
    const std::vector<double> values = Random(24, 2);
    Tensor self({4, 6}, {1, 4}, 0, reduce_test::TransposedStorage(values, 4, 6), ACL_FLOAT);
    Tensor out({6}, {2}, 1, std::vector<double>(13, -7), ACL_FLOAT);
    IntArray dims({0});
    RUN_OP(ReduceSum, self.get(), dims.get(), false, ACL_FLOAT, out.get());
    std::vector<double> want;
    for (const auto& group : Groups({4, 6}, values, {0}))
        want.push_back(Sum(group));
    ExpectClose(out.Values(), want, ACL_FLOAT, "column sums");
    const std::vector<double> storage = out.Storage();
    for (size_t i = 0; i < storage.size(); i += 2)
        EXPECT_EQ(storage[i], -7) << i;  // untouched
}

// ggml-cann sums its per-sample losses into a [1] tensor.
TEST_F(AclnnReduce, ReduceSumToOneValueMayWriteAOneElementTensor) {
    Tensor self({4}, {1, 2, 3, 4}, ACL_FLOAT);
    Tensor out({1}, {0}, ACL_FLOAT);
    IntArray dims({0});
    RUN_OP(ReduceSum, self.get(), dims.get(), false, ACL_FLOAT, out.get());
    EXPECT_EQ(out.Values(), (std::vector<double>{10}));
}

TEST_F(AclnnReduce, ReduceSumOfALargeTensorSplitsOverWorkersAlongEitherDimension) {
    const std::vector<int64_t> shape = {256, 1024};
    const std::vector<double> values = Quantize(Random(256 * 1024, 3), ACL_FLOAT);
    Tensor self(shape, values, ACL_FLOAT);
    for (int dim : {0, 1}) {
        const std::vector<int64_t> out_shape = {shape[1 - dim]};
        Tensor out(out_shape, std::vector<double>(out_shape[0], 0), ACL_FLOAT);
        IntArray dims({dim});
        RUN_OP(ReduceSum, self.get(), dims.get(), false, ACL_FLOAT, out.get());
        std::vector<double> want;
        for (const auto& group : Groups(shape, values, {dim}))
            want.push_back(Sum(group));
        ExpectClose(out.Values(), want, ACL_FLOAT, "dim " + std::to_string(dim), 1e-5);
    }
}

TEST_F(AclnnReduce, ReduceSumConvertsEachElementToDtypeFirst) {
    // int32 values beyond int32's range once summed: dtype int64 holds the sum.
    Tensor big({2}, {2e9, 2e9}, ACL_INT32);
    Tensor wide({}, {0}, ACL_INT64);
    IntArray all({});
    RUN_OP(ReduceSum, big.get(), all.get(), false, ACL_INT64, wide.get());
    EXPECT_EQ(wide.Values()[0], 4e9);
    // Floats summed as int32: each element is truncated before the sum (1 + 1 + -1), not after.
    Tensor floats({3}, {1.7, 1.7, -1.5}, ACL_FLOAT);
    Tensor ints({}, {0}, ACL_INT32);
    RUN_OP(ReduceSum, floats.get(), all.get(), false, ACL_INT32, ints.get());
    EXPECT_EQ(ints.Values()[0], 1);
    // dtype bool: whether any element is non-zero.
    Tensor mixed({2, 3}, {0, 0, 0, 0, 2, 0}, ACL_INT32);
    Tensor any({2}, {7, 7}, ACL_BOOL);
    IntArray last({-1});
    RUN_OP(ReduceSum, mixed.get(), last.get(), false, ACL_BOOL, any.get());
    EXPECT_EQ(any.Values(), (std::vector<double>{0, 1}));
    // Integers wrap like the device's arithmetic.
    Tensor bytes({2}, {100, 100}, ACL_INT8);
    Tensor wrapped({}, {0}, ACL_INT8);
    RUN_OP(ReduceSum, bytes.get(), all.get(), false, ACL_INT8, wrapped.get());
    EXPECT_EQ(wrapped.Values()[0], -56);
}

TEST_F(AclnnReduce, ReduceSumOfEmptyAndZeroDimensionalTensors) {
    Tensor empty({0, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor zeros({3}, {-7, -7, -7}, ACL_FLOAT);
    IntArray first({0});
    RUN_OP(ReduceSum, empty.get(), first.get(), false, ACL_FLOAT, zeros.get());
    EXPECT_EQ(zeros.Values(), (std::vector<double>{0, 0, 0}));  // the sum of nothing

    Tensor scalar({}, {2.5}, ACL_FLOAT);
    Tensor out({}, {0}, ACL_FLOAT);
    IntArray minus_one({-1});
    RUN_OP(ReduceSum, scalar.get(), minus_one.get(), true, ACL_FLOAT, out.get());
    EXPECT_EQ(out.Values()[0], 2.5);
    IntArray both({0, -1}), one({1});  // a 0-d tensor's dims are -1 and 0, one dimension
    EXPECT_EQ(PLAN_OP(ReduceSum, scalar.get(), both.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ReduceSum, scalar.get(), one.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnReduce, ReduceSumRefusesTheDocumentedBadParameters) {
    Tensor self({2, 3}, Random(6, 4), ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_FLOAT);
    Tensor out_f16({2}, {0, 0}, ACL_FLOAT16);
    Tensor wrong({3}, {0, 0, 0}, ACL_FLOAT);
    Tensor unsigned32({2, 3}, Random(6, 4, 0, 9), ACL_UINT32);
    IntArray last({1}), out_of_range({2}), below({-3}), repeated({1, -1});
    EXPECT_EQ(PLAN_OP(ReduceSum, nullptr, last.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), nullptr, false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), last.get(), false, ACL_FLOAT, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), out_of_range.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), below.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), repeated.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dims"), std::string::npos);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), last.get(), false, ACL_FLOAT, wrong.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("out"), std::string::npos);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), last.get(), true, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);  // keepDims wants [2, 1]
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), last.get(), false, ACL_FLOAT16, out.get()),
              ACLNN_ERR_PARAM_INVALID);  // dtype is not out's type
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), last.get(), false, ACL_FLOAT, out_f16.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ReduceSum, unsigned32.get(), last.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("self"), std::string::npos);
    EXPECT_EQ(PLAN_OP(ReduceSum, self.get(), last.get(), false, ACL_UINT32, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(self.get(), last.get(), false, ACL_FLOAT, out.get(),
                                             nullptr, &executor),
              ACLNN_ERR_PARAM_NULLPTR);
}

// ---------------------------------------------------------------- Sum (a tensor list)

TEST_F(AclnnReduce, SumAddsTheTensorsOfAListWithBroadcasting) {
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16}) {
        const std::vector<double> a = Quantize(Random(6, 5), type);
        const std::vector<double> b = Quantize(Random(3, 6), type);
        const std::vector<double> c = Quantize(Random(2, 7), type);
        Tensor ta({2, 3}, a, type), tb({3}, b, type), tc({2, 1}, c, type);
        Tensor out({2, 3}, std::vector<double>(6, -7), type);
        // The list owns its elements: give it descriptors of its own over the same memory.
        aclTensor* own[3];
        const Tensor* sources[3] = {&ta, &tb, &tc};
        for (int i = 0; i < 3; ++i) {
            int64_t* dims = nullptr;
            uint64_t rank = 0;
            ASSERT_EQ(aclGetViewShape(sources[i]->get(), &dims, &rank), 0);
            void* address = nullptr;
            ASSERT_EQ(aclGetRawTensorAddr(sources[i]->get(), &address), 0);
            own[i] =
                aclCreateTensor(dims, rank, type, nullptr, 0, ACL_FORMAT_ND, dims, rank, address);
            delete[] dims;
        }
        aclTensorList* list = aclCreateTensorList(own, 3);
        RUN_OP(Sum, list, out.get());
        aclDestroyTensorList(list);
        std::vector<double> want(6);
        for (int r = 0; r < 2; ++r) {
            for (int k = 0; k < 3; ++k) {
                // Accumulated in out's type one tensor at a time.
                want[r * 3 + k] = Quantize(Quantize(a[r * 3 + k] + b[k], type) + c[r], type);
            }
        }
        ExpectClose(out.Values(), want, type, reduce_test::Name(type));
    }
}

TEST_F(AclnnReduce, SumRefusesMixedTypesBadShapesAndEmptyOrNullLists) {
    Tensor a({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_FLOAT), out3({3}, {0, 0, 0}, ACL_FLOAT);
    auto make = [&](aclDataType type, std::vector<int64_t> shape) {
        void* address = nullptr;
        aclGetRawTensorAddr(a.get(), &address);
        return aclCreateTensor(shape.data(), shape.size(), type, nullptr, 0, ACL_FORMAT_ND,
                               shape.data(), shape.size(), address);
    };
    aclTensor* mixed[2] = {make(ACL_FLOAT, {2}), make(ACL_INT32, {2})};
    aclTensorList* mixed_list = aclCreateTensorList(mixed, 2);
    EXPECT_EQ(PLAN_OP(Sum, mixed_list, out.get()), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensorList(mixed_list);
    aclTensor* one[1] = {make(ACL_FLOAT, {2})};
    aclTensorList* one_list = aclCreateTensorList(one, 1);
    EXPECT_EQ(PLAN_OP(Sum, one_list, out3.get()), ACLNN_ERR_PARAM_INVALID);  // out's shape
    EXPECT_EQ(PLAN_OP(Sum, one_list, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    aclDestroyTensorList(one_list);
    aclTensorList* empty = aclCreateTensorList(nullptr, 0);
    EXPECT_EQ(PLAN_OP(Sum, empty, out.get()), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensorList(empty);
    aclTensor* with_null[2] = {make(ACL_FLOAT, {2}), nullptr};
    aclTensorList* null_list = aclCreateTensorList(with_null, 2);
    EXPECT_EQ(PLAN_OP(Sum, null_list, out.get()), ACLNN_ERR_PARAM_NULLPTR);
    aclDestroyTensorList(null_list);
    EXPECT_EQ(PLAN_OP(Sum, nullptr, out.get()), ACLNN_ERR_PARAM_NULLPTR);
}

// ---------------------------------------------------------------- Mean, MeanV2

TEST_F(AclnnReduce, MeanMatchesADoubleReferenceOverFloatTypes) {
    const std::vector<int64_t> shape = {2, 3, 4};
    for (aclDataType type : kFloatTypes) {
        const std::vector<double> values = Quantize(Random(24, 8), type);
        for (bool keep : {false, true}) {
            const std::vector<int64_t> dims = {-1, 0};
            const std::vector<int> reduced = Resolve(dims, 3);
            const std::vector<int64_t> out_shape = OutShape(shape, reduced, keep);
            Tensor self(shape, values, type);
            Tensor out(out_shape, std::vector<double>(3, 0), type);
            IntArray d(dims);
            RUN_OP(Mean, self.get(), d.get(), keep, type, out.get());
            std::vector<double> want;
            for (const auto& group : Groups(shape, values, reduced)) {
                want.push_back(Sum(group) / static_cast<double>(group.size()));
            }
            ExpectClose(out.Values(), want, type, reduce_test::Name(type));
        }
    }
}

TEST_F(AclnnReduce, MeanComputesInDtypeAndFillsEmptyReductionsWithNaN) {
    // float16 self computed as float: the mean of values float16 cannot sum exactly.
    Tensor halves({3}, {2048, 1, 1}, ACL_FLOAT16);
    Tensor mean({}, {0}, ACL_FLOAT);
    IntArray all({});
    RUN_OP(Mean, halves.get(), all.get(), false, ACL_FLOAT, mean.get());
    EXPECT_NEAR(mean.Values()[0], 2050.0 / 3.0, 1e-3);
    // Integers: the mean truncated toward zero.
    Tensor ints({2, 2}, {1, 2, -3, -4}, ACL_INT32);
    Tensor int_mean({2}, {0, 0}, ACL_INT32);
    IntArray last({1});
    RUN_OP(Mean, ints.get(), last.get(), false, ACL_INT32, int_mean.get());
    EXPECT_EQ(int_mean.Values(), (std::vector<double>{1, -3}));
    // The mean of nothing.
    Tensor empty({0, 2}, std::vector<double>{}, ACL_FLOAT);
    Tensor nan({2}, {0, 0}, ACL_FLOAT);
    IntArray first({0});
    RUN_OP(Mean, empty.get(), first.get(), false, ACL_FLOAT, nan.get());
    EXPECT_TRUE(std::isnan(nan.Values()[0]) && std::isnan(nan.Values()[1]));
}

TEST_F(AclnnReduce, MeanRefusesCastsTheDocsForbidAndBadDims) {
    Tensor self({2, 3}, Random(6, 9), ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_FLOAT), int_out({2}, {0, 0}, ACL_INT32);
    IntArray last({1}), repeated({0, -2}), far({5});
    EXPECT_EQ(PLAN_OP(Mean, self.get(), last.get(), false, ACL_INT32, int_out.get()),
              ACLNN_ERR_PARAM_INVALID);  // float self cannot become int32
    EXPECT_EQ(PLAN_OP(Mean, self.get(), last.get(), false, ACL_FLOAT, int_out.get()),
              ACLNN_ERR_PARAM_INVALID);  // float dtype cannot become int32 out
    EXPECT_EQ(PLAN_OP(Mean, self.get(), repeated.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Mean, self.get(), far.get(), false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Mean, self.get(), last.get(), false, ACL_BOOL, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Mean, self.get(), nullptr, false, ACL_FLOAT, out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(PLAN_OP(MeanV2, self.get(), last.get(), false, false, int_out.get()),
              ACLNN_ERR_PARAM_INVALID);  // V2: out has self's type
}

TEST_F(AclnnReduce, MeanV2CopiesOnEmptyAxesWhenAskedAndReducesEverythingOtherwise) {
    const std::vector<double> values = {1, 2, 3, 4, 5, 6};
    Tensor self({2, 3}, values, ACL_FLOAT);
    IntArray none({});
    Tensor copy({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    RUN_OP(MeanV2, self.get(), none.get(), false, true, copy.get());
    EXPECT_EQ(copy.Values(), values);
    Tensor all({}, {0}, ACL_FLOAT);
    RUN_OP(MeanV2, self.get(), none.get(), false, false, all.get());
    EXPECT_EQ(all.Values()[0], 3.5);
    Tensor rows({2, 1}, {0, 0}, ACL_FLOAT);
    IntArray last({-1});
    RUN_OP(MeanV2, self.get(), last.get(), true, false, rows.get());
    EXPECT_EQ(rows.Values(), (std::vector<double>{2, 5}));
}

// ---------------------------------------------------------------- Amax, Amin

TEST_F(AclnnReduce, AmaxAndAminMatchAReferenceOverTypesAndViews) {
    const std::vector<int64_t> shape = {4, 5};
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8}) {
        const std::vector<double> values =
            Quantize(Random(20, 10, -100, 100), type == ACL_INT8 ? ACL_INT32 : type);
        const std::vector<double> stored = Quantize(values, type);
        // A transposed view of the same values.
        Tensor self(shape, {1, 4}, 0, reduce_test::TransposedStorage(stored, 4, 5), type);
        for (int64_t dim : {0, -1}) {
            for (bool keep : {false, true}) {
                const std::vector<int> reduced = Resolve({dim}, 2);
                const std::vector<int64_t> out_shape = OutShape(shape, reduced, keep);
                const size_t n = static_cast<size_t>(reduce_test::Numel(out_shape));
                Tensor max_out(out_shape, std::vector<double>(n, 0), type);
                Tensor min_out(out_shape, std::vector<double>(n, 0), type);
                IntArray d({dim});
                RUN_OP(Amax, self.get(), d.get(), keep, max_out.get());
                RUN_OP(Amin, self.get(), d.get(), keep, min_out.get());
                std::vector<double> want_max, want_min;
                for (const auto& group : Groups(shape, stored, reduced)) {
                    want_max.push_back(*std::max_element(group.begin(), group.end()));
                    want_min.push_back(*std::min_element(group.begin(), group.end()));
                }
                EXPECT_EQ(max_out.Values(), want_max) << reduce_test::Name(type) << dim;
                EXPECT_EQ(min_out.Values(), want_min) << reduce_test::Name(type) << dim;
            }
        }
    }
}

TEST_F(AclnnReduce, AmaxPropagatesNaNAndTakesBoolsAndEmptyDims) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Tensor self({2, 3}, {1, nan, 3, -1, -5, -2}, ACL_FLOAT);
    Tensor max_out({2}, {0, 0}, ACL_FLOAT), min_out({2}, {0, 0}, ACL_FLOAT);
    IntArray last({1});
    RUN_OP(Amax, self.get(), last.get(), false, max_out.get());
    RUN_OP(Amin, self.get(), last.get(), false, min_out.get());
    EXPECT_TRUE(std::isnan(max_out.Values()[0]));
    EXPECT_EQ(max_out.Values()[1], -1);
    EXPECT_TRUE(std::isnan(min_out.Values()[0]));
    EXPECT_EQ(min_out.Values()[1], -5);

    Tensor flags({2, 2}, {0, 1, 0, 0}, ACL_BOOL);
    Tensor any({}, {0}, ACL_BOOL);
    IntArray all({});
    RUN_OP(Amax, flags.get(), all.get(), false, any.get());
    EXPECT_EQ(any.Values()[0], 1);
}

TEST_F(AclnnReduce, AmaxRefusesEmptyReducedDimsOtherTypesAndBadShapes) {
    Tensor empty({0, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor out3({3}, {0, 0, 0}, ACL_FLOAT);
    IntArray first({0}), last({1});
    EXPECT_EQ(PLAN_OP(Amax, empty.get(), first.get(), false, out3.get()),
              ACLNN_ERR_PARAM_INVALID);  // the maximum of nothing
    Tensor out0({0}, std::vector<double>{}, ACL_FLOAT);
    EXPECT_EQ(PLAN_OP(Amax, empty.get(), last.get(), false, out0.get()), ACLNN_SUCCESS);
    Tensor self({2, 3}, Random(6, 11), ACL_FLOAT);
    Tensor f16_out({2}, {0, 0}, ACL_FLOAT16), out2({2}, {0, 0}, ACL_FLOAT);
    EXPECT_EQ(PLAN_OP(Amax, self.get(), last.get(), false, f16_out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Amin, self.get(), first.get(), false, out2.get()),
              ACLNN_ERR_PARAM_INVALID);  // dim 0 leaves [3]
    IntArray repeated({1, 1});
    EXPECT_EQ(PLAN_OP(Amin, self.get(), repeated.get(), false, out2.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Amin, self.get(), nullptr, false, out2.get()), ACLNN_ERR_PARAM_NULLPTR);
}

// ---------------------------------------------------------------- ArgMax

TEST_F(AclnnReduce, ArgMaxFindsTheFirstMaximumAlongEitherDimension) {
    const std::vector<int64_t> shape = {5, 6};
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_UINT8}) {
        // Few distinct values: ties are common, and the first one must win.
        std::vector<double> values = Random(30, 12, 0, 4);
        for (double& v : values)
            v = std::floor(v);
        Tensor self(shape, values, type);
        for (int64_t dim : {0, 1, -1}) {
            for (bool keep : {false, true}) {
                const std::vector<int> reduced = Resolve({dim}, 2);
                const std::vector<int64_t> out_shape = OutShape(shape, reduced, keep);
                const size_t n = static_cast<size_t>(reduce_test::Numel(out_shape));
                for (aclDataType index_type : {ACL_INT64, ACL_INT32}) {
                    Tensor out(out_shape, std::vector<double>(n, -1), index_type);
                    RUN_OP(ArgMax, self.get(), dim, keep, out.get());
                    std::vector<double> want;
                    for (const auto& group : Groups(shape, values, reduced)) {
                        want.push_back(static_cast<double>(
                            std::max_element(group.begin(), group.end()) - group.begin()));
                    }
                    EXPECT_EQ(out.Values(), want) << reduce_test::Name(type) << " dim " << dim;
                }
            }
        }
    }
}

TEST_F(AclnnReduce, ArgMaxCountsNaNAsTheMaximumAndReadsStridedViews) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Tensor self({2, 4}, {1, nan, 5, nan, -1, 7, 7, 2}, ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_INT64);
    RUN_OP(ArgMax, self.get(), 1, false, out.get());
    EXPECT_EQ(out.Values(), (std::vector<double>{1, 1}));
    // Every other element of a 12-element buffer, as a [2, 3] view.
    Tensor strided({2, 3}, {6, 2}, 0, {0, 9, 8, 9, 3, 9, 4, 9, 9, 9, 1, 9}, ACL_FLOAT);
    Tensor columns({3}, {0, 0, 0}, ACL_INT32);
    RUN_OP(ArgMax, strided.get(), 0, false, columns.get());
    EXPECT_EQ(columns.Values(), (std::vector<double>{1, 1, 0}));
    Tensor scalar({}, {4}, ACL_FLOAT);
    Tensor zero({}, {9}, ACL_INT64);
    RUN_OP(ArgMax, scalar.get(), -1, false, zero.get());
    EXPECT_EQ(zero.Values()[0], 0);
}

TEST_F(AclnnReduce, ArgMaxRefusesBadDimsOutputTypesAndShapes) {
    Tensor self({2, 3}, Random(6, 13), ACL_FLOAT);
    Tensor out({2}, {0, 0}, ACL_INT64), float_out({2}, {0, 0}, ACL_FLOAT);
    Tensor wrong({3}, {0, 0, 0}, ACL_INT64);
    Tensor flags({2, 3}, std::vector<double>(6, 1), ACL_BOOL);
    EXPECT_EQ(PLAN_OP(ArgMax, self.get(), 2, false, out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dim"), std::string::npos);
    EXPECT_EQ(PLAN_OP(ArgMax, self.get(), -3, false, out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ArgMax, self.get(), 1, false, float_out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ArgMax, self.get(), 1, false, wrong.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ArgMax, flags.get(), 1, false, out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(ArgMax, nullptr, 1, false, out.get()), ACLNN_ERR_PARAM_NULLPTR);
    Tensor empty({0, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_out({0}, std::vector<double>{}, ACL_INT64);
    RUN_OP(ArgMax, empty.get(), 1, false, empty_out.get());
}

// ---------------------------------------------------------------- Cumsum, CumsumV2

std::vector<double> ReferenceCumsum(const std::vector<int64_t>& shape,
                                    const std::vector<double>& values, int axis, bool exclusive,
                                    bool reverse) {
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d)
        inner *= shape[d];
    const int64_t length = shape[static_cast<size_t>(axis)];
    const int64_t outer = static_cast<int64_t>(values.size()) / (inner * length);
    std::vector<double> out(values.size());
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            double acc = 0;
            for (int64_t s = 0; s < length; ++s) {
                const int64_t k = reverse ? length - 1 - s : s;
                const size_t at = static_cast<size_t>((o * length + k) * inner + i);
                out[at] = exclusive ? acc : acc + values[at];
                acc += values[at];
            }
        }
    }
    return out;
}

TEST_F(AclnnReduce, CumsumMatchesAReferenceAlongEveryDimension) {
    const std::vector<int64_t> shape = {3, 4, 5};
    for (aclDataType type : kFloatTypes) {
        const std::vector<double> values = Quantize(Random(60, 14), type);
        Tensor self(shape, values, type);
        for (int64_t dim : {0, 1, 2, -1}) {
            Tensor out(shape, std::vector<double>(60, 0), type);
            RUN_OP(Cumsum, self.get(), dim, type, out.get());
            std::vector<double> want = ReferenceCumsum(
                shape, values, static_cast<int>(dim < 0 ? dim + 3 : dim), false, false);
            ExpectClose(out.Values(), Quantize(want, type), type,
                        std::string(reduce_test::Name(type)) + " dim " + std::to_string(dim));
        }
    }
}

TEST_F(AclnnReduce, CumsumConvertsToDtypeAndCumsumV2RunsExclusiveAndReversed) {
    // float16 self summed as float: no float16 rounding of the running sums.
    Tensor halves({4}, {2048, 1, 1, 1}, ACL_FLOAT16);
    Tensor sums({4}, {0, 0, 0, 0}, ACL_FLOAT);
    RUN_OP(Cumsum, halves.get(), 0, ACL_FLOAT, sums.get());
    EXPECT_EQ(sums.Values(), (std::vector<double>{2048, 2049, 2050, 2051}));
    // int32 through a transposed view, along dim 0 (one column per row of storage).
    const std::vector<double> values = {1, 2, 3, 4, 5, 6};
    Tensor ints({2, 3}, {1, 2}, 0, reduce_test::TransposedStorage(values, 2, 3), ACL_INT32);
    for (bool exclusive : {false, true}) {
        for (bool reverse : {false, true}) {
            for (int64_t dim : {0, 1}) {
                Tensor out({2, 3}, std::vector<double>(6, -9), ACL_INT32);
                RUN_OP(CumsumV2, ints.get(), dim, exclusive, reverse, out.get());
                EXPECT_EQ(out.Values(), ReferenceCumsum({2, 3}, values, static_cast<int>(dim),
                                                        exclusive, reverse))
                    << exclusive << reverse << dim;
            }
        }
    }
}

TEST_F(AclnnReduce, CumsumRefusesMismatchedTypesShapesAndDims) {
    Tensor self({2, 3}, Random(6, 15), ACL_FLOAT);
    Tensor out({2, 3}, std::vector<double>(6, 0), ACL_FLOAT);
    Tensor half_out({2, 3}, std::vector<double>(6, 0), ACL_FLOAT16);
    Tensor wrong({3, 2}, std::vector<double>(6, 0), ACL_FLOAT);
    EXPECT_EQ(PLAN_OP(Cumsum, self.get(), 0, ACL_FLOAT16, out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Cumsum, self.get(), 0, ACL_FLOAT, wrong.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Cumsum, self.get(), 2, ACL_FLOAT, out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Cumsum, self.get(), 0, ACL_BOOL, out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(CumsumV2, self.get(), 0, false, false, half_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(CumsumV2, self.get(), -3, false, false, out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(CumsumV2, nullptr, 0, false, false, out.get()), ACLNN_ERR_PARAM_NULLPTR);
    Tensor empty({0, 3}, std::vector<double>{}, ACL_FLOAT);
    Tensor empty_out({0, 3}, std::vector<double>{}, ACL_FLOAT);
    RUN_OP(Cumsum, empty.get(), 1, ACL_FLOAT, empty_out.get());
}

// ---------------------------------------------------------------- Norm

TEST_F(AclnnReduce, NormMatchesAReferenceForEveryOrder) {
    const std::vector<int64_t> shape = {3, 4};
    const double inf = std::numeric_limits<double>::infinity();
    for (aclDataType type : kFloatTypes) {
        std::vector<double> values = Quantize(Random(12, 16), type);
        values[5] = 0;  // for the 0-norm
        Tensor self(shape, values, type);
        for (double p : {2.0, 1.0, inf, -inf, 0.0, 3.0, 0.5}) {
            for (int64_t dim : {1, -2}) {
                const std::vector<int> reduced = Resolve({dim}, 2);
                const std::vector<int64_t> out_shape = OutShape(shape, reduced, true);
                Tensor out(out_shape, std::vector<double>(4, 0), ACL_FLOAT);  // a wider out
                Scalar p_scalar(static_cast<float>(p), ACL_FLOAT);
                IntArray d({dim});
                RUN_OP(Norm, self.get(), p_scalar.get(), d.get(), true, out.get());
                std::vector<double> want;
                for (const auto& group : Groups(shape, values, reduced)) {
                    double r = 0;
                    if (p == inf || p == -inf) {
                        r = std::fabs(group[0]);
                        for (double v : group) {
                            r = p > 0 ? std::max(r, std::fabs(v)) : std::min(r, std::fabs(v));
                        }
                    } else if (p == 0) {
                        for (double v : group)
                            r += v != 0 ? 1 : 0;
                    } else {
                        for (double v : group)
                            r += std::pow(std::fabs(v), p);
                        r = std::pow(r, 1.0 / p);
                    }
                    want.push_back(r);
                }
                ExpectClose(out.Values(), want, ACL_FLOAT,
                            std::string(reduce_test::Name(type)) + " p " + std::to_string(p), 1e-5);
            }
        }
    }
}

TEST_F(AclnnReduce, NormRefusesNullsIntegersAndBadShapes) {
    Tensor self({2, 3}, Random(6, 17), ACL_FLOAT);
    Tensor ints({2, 3}, std::vector<double>(6, 1), ACL_INT32);
    Tensor out({2}, {0, 0}, ACL_FLOAT), wrong({2, 1}, {0, 0}, ACL_FLOAT);
    Scalar two(2.0f, ACL_FLOAT);
    IntArray last({1}), repeated({-1, 1});
    EXPECT_EQ(PLAN_OP(Norm, self.get(), nullptr, last.get(), false, out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("pScalar"), std::string::npos);
    EXPECT_EQ(PLAN_OP(Norm, ints.get(), two.get(), last.get(), false, out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Norm, self.get(), two.get(), last.get(), false, wrong.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(PLAN_OP(Norm, self.get(), two.get(), repeated.get(), false, out.get()),
              ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
