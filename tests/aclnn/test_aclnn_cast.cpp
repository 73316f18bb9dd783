// aclnnop/aclnn_cast.h: out = self converted to dtype, for every pair of the real types, against
// C++ conversions (truncation toward zero, saturation, NaN to 0 for floating to integer; not
// zero for bool; round to nearest even for float16/bfloat16), plus views and bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "eltwise_test_support.h"

using aclnn_test::Execute;
using aclnn_test::Quantize;
using aclnn_test::Tensor;

namespace {

const aclDataType kTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                              ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                              ACL_INT64, ACL_UINT64,  ACL_BOOL};

class AclnnCast : public aclnn_test::AclnnTest {
 protected:
    aclnnStatus Cast(const Tensor& self, aclDataType dtype, const Tensor& out) {
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return aclnnCastGetWorkspaceSize(self.get(), dtype, out.get(), w, e);
            },
            aclnnCast);
    }
    uint64_t ws_ = 0;
    aclOpExecutor* ex_ = nullptr;
};

TEST_F(AclnnCast, ConvertsBetweenEveryPairOfTypes) {
    // Values every type holds (non-negative small integers and halves for the floating ones).
    const std::vector<double> values = {0, 1, 2, 3.5, 100, 7};
    for (aclDataType from : kTypes) {
        std::vector<double> held;
        for (double v : values)
            held.push_back(Quantize(v, from));
        Tensor self({2, 3}, held, from);
        for (aclDataType to : kTypes) {
            Tensor out({2, 3}, std::vector<double>(6, 0.0), to);
            ASSERT_EQ(Cast(self, to, out), ACLNN_SUCCESS)
                << from << " to " << to << ": " << aclnn_test::RecentMessage();
            std::vector<double> expected;
            for (double v : held)
                expected.push_back(Quantize(v, to));
            EXPECT_EQ(out.Values(), expected) << from << " to " << to;
        }
    }
}

TEST_F(AclnnCast, FloatToIntegerTruncatesSaturatesAndMapsNaNToZero) {
    Tensor self({6}, {2.9, -2.9, 1e10, -1e10, NAN, 300.5}, ACL_FLOAT);
    Tensor ints({6}, std::vector<double>(6, 5), ACL_INT32);
    Tensor bytes({6}, std::vector<double>(6, 5), ACL_UINT8);
    ASSERT_EQ(Cast(self, ACL_INT32, ints), ACLNN_SUCCESS);
    ASSERT_EQ(Cast(self, ACL_UINT8, bytes), ACLNN_SUCCESS);
    EXPECT_EQ(ints.Values(), (std::vector<double>{2, -2, 2147483647.0, -2147483648.0, 0, 300}));
    EXPECT_EQ(bytes.Values(), (std::vector<double>{2, 0, 255, 0, 0, 255}));
}

TEST_F(AclnnCast, AnythingToBoolIsNotZero) {
    Tensor self({4}, {0.0, -0.0, 0.25, NAN}, ACL_FLOAT), out({4}, {7, 7, 7, 7}, ACL_BOOL);
    ASSERT_EQ(Cast(self, ACL_BOOL, out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0, 0, 1, 1}));
}

TEST_F(AclnnCast, Float16RoundsToNearestEven) {
    // 2049 and 2051 lie halfway between float16 neighbours: ties go to the even one.
    Tensor self({3}, {2049, 2051, 65520}, ACL_FLOAT), out({3}, {0, 0, 0}, ACL_FLOAT16);
    ASSERT_EQ(Cast(self, ACL_FLOAT16, out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{2048, 2052, INFINITY}));
    Tensor bf({2}, {257, 259}, ACL_FLOAT), bf_out({2}, {0, 0}, ACL_BF16);
    ASSERT_EQ(Cast(bf, ACL_BF16, bf_out), ACLNN_SUCCESS);
    EXPECT_EQ(bf_out.Values(), (std::vector<double>{256, 260}));
}

// A float16 value from its bits, computed here independently of the library.
double HalfValue(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
    const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
    if (exponent == 0x1f) return fraction != 0 ? NAN : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(fraction, -24);
    return sign * std::ldexp(1024 + fraction, exponent - 25);
}

// Long contiguous runs take the CPU's F16C instructions where it has them; every one of the
// 65,536 float16 values must convert as the scalar path does, both ways, ties included.
TEST_F(AclnnCast, EveryFloat16ValueConvertsExactlyBothWays) {
    std::vector<uint16_t> halves(65536);
    for (size_t i = 0; i < halves.size(); ++i)
        halves[i] = static_cast<uint16_t>(i);
    aclnn_test::DeviceTensor<uint16_t> half_in({65536}, halves, ACL_FLOAT16);
    aclnn_test::DeviceTensor<float> floats({65536}, std::vector<float>(65536, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnCastGetWorkspaceSize(half_in.get(), ACL_FLOAT, floats.get(), &ws_, &ex_),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclnn_test::RunPhase2(aclnnCast, ws_, ex_), ACLNN_SUCCESS);
    const std::vector<float> widened = floats.Read();
    for (size_t i = 0; i < halves.size(); ++i) {
        const double want = HalfValue(halves[i]);
        if (std::isnan(want)) {
            EXPECT_TRUE(std::isnan(widened[i])) << i;
        } else {
            EXPECT_EQ(widened[i], want) << i;
        }
    }
    // Back: each value again, and the point halfway to its upper neighbour, which must round
    // to whichever of the two has an even last bit.
    std::vector<float> back;
    std::vector<uint16_t> want;
    for (uint16_t bits = 0; bits < 0x7c00; ++bits) {  // the positive finite values
        back.push_back(static_cast<float>(HalfValue(bits)));
        want.push_back(bits);
        const double mid = (HalfValue(bits) + HalfValue(static_cast<uint16_t>(bits + 1))) / 2;
        back.push_back(static_cast<float>(mid));
        want.push_back((bits & 1) == 0 ? bits : static_cast<uint16_t>(bits + 1));
    }
    const auto n = static_cast<int64_t>(back.size());
    aclnn_test::DeviceTensor<float> float_in({n}, back, ACL_FLOAT);
    aclnn_test::DeviceTensor<uint16_t> half_out({n}, std::vector<uint16_t>(back.size(), 0),
                                                ACL_FLOAT16);
    ASSERT_EQ(aclnnCastGetWorkspaceSize(float_in.get(), ACL_FLOAT16, half_out.get(), &ws_, &ex_),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclnn_test::RunPhase2(aclnnCast, ws_, ex_), ACLNN_SUCCESS);
    EXPECT_EQ(half_out.Read(), want);
}

TEST_F(AclnnCast, IntegerConversionsWrapAndLargeUnsignedValuesStayExact) {
    Tensor self({3}, {300, -1, 65536 + 7}, ACL_INT32), out({3}, {0, 0, 0}, ACL_INT8);
    ASSERT_EQ(Cast(self, ACL_INT8, out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{44, -1, 7}));
    Tensor big({1}, {18446744073709549568.0}, ACL_UINT64), as_double({1}, {0}, ACL_DOUBLE);
    ASSERT_EQ(Cast(big, ACL_DOUBLE, as_double), ACLNN_SUCCESS);
    EXPECT_EQ(as_double.Values(), (std::vector<double>{18446744073709549568.0}));
}

TEST_F(AclnnCast, ReadsATransposedViewAndWritesAStridedOutput) {
    Tensor self({2, 3}, {1, 2}, 1, {-1, 0, 3, 1, 4, 2, 5}, ACL_INT16);
    Tensor out({2, 3}, {6, 2}, 0, std::vector<double>(12, 9), ACL_FLOAT16);
    ASSERT_EQ(Cast(self, ACL_FLOAT16, out), ACLNN_SUCCESS);
    EXPECT_EQ(out.Values(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
    const std::vector<double> storage = out.Storage();
    for (size_t i = 1; i < storage.size(); i += 2)
        EXPECT_EQ(storage[i], 9) << i;
}

TEST_F(AclnnCast, ASameTypeCastCopiesTheBits) {
    // A broadcast view ([2, 2] over elements 0 and 2, rows repeated); -0.0 keeps its sign.
    Tensor self({2, 2}, {0, 2}, 0, {1.5, 3, -0.0, 4}, ACL_FLOAT16);
    Tensor out({2, 2}, {0, 0, 0, 0}, ACL_FLOAT16);
    ASSERT_EQ(Cast(self, ACL_FLOAT16, out), ACLNN_SUCCESS);
    const std::vector<double> result = out.Values();
    EXPECT_EQ(result, (std::vector<double>{1.5, -0.0, 1.5, -0.0}));
    EXPECT_TRUE(std::signbit(result[1]));
    EXPECT_TRUE(std::signbit(result[3]));
}

TEST_F(AclnnCast, EmptyTensorSucceedsWithNoWorkspace) {
    Tensor self({0, 2}, {}, ACL_FLOAT), out({0, 2}, {}, ACL_INT32);
    EXPECT_EQ(aclnnCastGetWorkspaceSize(self.get(), ACL_INT32, out.get(), &ws_, &ex_),
              ACLNN_SUCCESS);
    EXPECT_EQ(ws_, 0u);
    EXPECT_EQ(aclnnCast(nullptr, 0, ex_, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnCast, BadInputs) {
    Tensor self({2}, {1, 2}, ACL_FLOAT), out({2}, {0, 0}, ACL_INT32);
    EXPECT_EQ(aclnnCastGetWorkspaceSize(nullptr, ACL_INT32, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnCastGetWorkspaceSize(self.get(), ACL_INT32, nullptr, &ws_, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnCastGetWorkspaceSize(self.get(), ACL_INT32, out.get(), nullptr, &ex_),
              ACLNN_ERR_PARAM_NULLPTR);
    // A dtype outside the list, an out that is not of dtype, an out of another shape.
    EXPECT_EQ(aclnnCastGetWorkspaceSize(self.get(), ACL_INT4, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    aclnn_test::ExpectMessageHas("dtype");
    EXPECT_EQ(aclnnCastGetWorkspaceSize(self.get(), ACL_INT64, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    Tensor longer({3}, {0, 0, 0}, ACL_INT32);
    EXPECT_EQ(aclnnCastGetWorkspaceSize(self.get(), ACL_INT32, longer.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    // A complex self; more than eight dimensions.
    Tensor complex({2}, {1, 2}, ACL_COMPLEX64);
    EXPECT_EQ(aclnnCastGetWorkspaceSize(complex.get(), ACL_INT32, out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    const std::vector<int64_t> nine(9, 1);
    Tensor deep(nine, {1}, ACL_FLOAT), deep_out(nine, {0}, ACL_INT32);
    EXPECT_EQ(aclnnCastGetWorkspaceSize(deep.get(), ACL_INT32, deep_out.get(), &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ex_, nullptr);
}

}  // namespace
