// Statistics dumps (core/dump_stats.h): each element type read as numbers, NaN and infinities
// counted apart, and rows that say what they could not compute.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/dump_stats.h"
#include "core/float16.h"

namespace {

using openacl::dump::Compute;
using openacl::dump::TensorStats;

}  // namespace

TEST(DumpStats, HalvesAreReadWithTheirNanAndInfinities) {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<uint16_t> halves;
    for (float v : {1.5f, -3.0f, inf, -inf, std::nanf(""), 0.25f})
        halves.push_back(openacl::f16::HalfFromDouble(v));
    const TensorStats s = Compute(ACL_FLOAT16, halves.data(), halves.size() * 2);
    EXPECT_EQ(s.count, 6u);
    EXPECT_EQ(s.nan, 1u);
    EXPECT_EQ(s.positive_inf, 1u);
    EXPECT_EQ(s.negative_inf, 1u);
    EXPECT_TRUE(std::isinf(s.max) && s.max > 0);
    EXPECT_TRUE(std::isinf(s.min) && s.min < 0);
}

TEST(DumpStats, Bfloat16IsReadAsTheUpperHalfOfAFloat) {
    const std::vector<uint16_t> values = {openacl::f16::Bf16FromDouble(2.0),
                                          openacl::f16::Bf16FromDouble(-6.0)};
    const TensorStats s = Compute(ACL_BF16, values.data(), values.size() * 2);
    EXPECT_DOUBLE_EQ(s.max, 2.0);
    EXPECT_DOUBLE_EQ(s.min, -6.0);
    EXPECT_DOUBLE_EQ(s.avg, -2.0);
    EXPECT_DOUBLE_EQ(s.l2norm, std::sqrt(40.0));
}

TEST(DumpStats, IntegersHaveNoNanOrInfinities) {
    const std::vector<int32_t> values = {-7, 3, 10, 0};
    const TensorStats s = Compute(ACL_INT32, values.data(), values.size() * 4);
    EXPECT_EQ(s.count, 4u);
    EXPECT_EQ(s.nan + s.positive_inf + s.negative_inf, 0u);
    EXPECT_DOUBLE_EQ(s.max, 10.0);
    EXPECT_DOUBLE_EQ(s.min, -7.0);
    EXPECT_DOUBLE_EQ(s.avg, 1.5);
}

TEST(DumpStats, AllNanHasNoMaximumAndTheRowSaysNan) {
    const std::vector<float> values(3, std::nanf(""));
    const TensorStats s = Compute(ACL_FLOAT, values.data(), values.size() * 4);
    EXPECT_EQ(s.nan, 3u);
    EXPECT_FALSE(s.has_values);
    const std::string row = openacl::dump::CsvRow(openacl::dump::kMax | openacl::dump::kNan, "T",
                                                  "n", 0, 0, 0, false, 0, ACL_FLOAT, {3}, 12, s);
    EXPECT_NE(row.find(",3,nan,3\n"), std::string::npos) << row;
}

TEST(DumpStats, ATypeWithoutNumbersIsNotApplicable) {
    const std::vector<uint8_t> bytes(8);
    const TensorStats s = Compute(ACL_STRING, bytes.data(), bytes.size());
    EXPECT_FALSE(s.supported);
    const std::string row = openacl::dump::CsvRow(openacl::dump::kMax, "T", "n", 0, 0, 0, true, 0,
                                                  ACL_STRING, {8}, 8, s);
    EXPECT_NE(row.find(",N/A\n"), std::string::npos) << row;
}

TEST(DumpStats, NamesWithCommasAreQuoted) {
    const std::vector<float> values = {1};
    const std::string row =
        openacl::dump::CsvRow(openacl::dump::kMax, "My,Op", "a\"b", 1, 2, 3, true, 0, ACL_FLOAT,
                              {1}, 4, Compute(ACL_FLOAT, values.data(), 4));
    EXPECT_EQ(row.rfind("\"My,Op\",\"a\"\"b\",", 0), 0u) << row;
}
