// Operator attribute sets (core/op_attr.h): typed reads, replacement, CANN's matching rule for
// single-operator models, and the hash and text later lookups key on.
#include "core/op_attr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace openacl {
namespace {

aclopAttr Sample() {
    aclopAttr attr;
    attr.Set("keep_dims", true);
    attr.Set("axis", int64_t{-1});
    attr.Set("alpha", 0.5f);
    attr.Set("mode", std::string("bilinear"));
    attr.Set("dst_type", ACL_FLOAT16);
    attr.Set("flags", std::vector<uint8_t>{1, 0});
    attr.Set("axes", std::vector<int64_t>{0, 2});
    attr.Set("scales", std::vector<float>{1.0f, 2.5f});
    attr.Set("names", std::vector<std::string>{"x", "y"});
    attr.Set("types", std::vector<aclDataType>{ACL_FLOAT, ACL_INT32});
    attr.Set("pads", std::vector<std::vector<int64_t>>{{1, 1}, {}, {2}});
    return attr;
}

TEST(OpAttrSet, EachValueReadsBackByNameAndType) {
    const aclopAttr attr = Sample();
    ASSERT_EQ(attr.size(), 11u);
    EXPECT_EQ(*attr.Get<bool>("keep_dims"), true);
    EXPECT_EQ(*attr.Get<int64_t>("axis"), -1);
    EXPECT_EQ(*attr.Get<float>("alpha"), 0.5f);
    EXPECT_EQ(*attr.Get<std::string>("mode"), "bilinear");
    EXPECT_EQ(*attr.Get<aclDataType>("dst_type"), ACL_FLOAT16);
    EXPECT_EQ(*attr.Get<std::vector<uint8_t>>("flags"), (std::vector<uint8_t>{1, 0}));
    EXPECT_EQ(*attr.Get<std::vector<int64_t>>("axes"), (std::vector<int64_t>{0, 2}));
    EXPECT_EQ(*attr.Get<std::vector<float>>("scales"), (std::vector<float>{1.0f, 2.5f}));
    EXPECT_EQ(*attr.Get<std::vector<std::string>>("names"), (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(*attr.Get<std::vector<aclDataType>>("types"),
              (std::vector<aclDataType>{ACL_FLOAT, ACL_INT32}));
    EXPECT_EQ(*attr.Get<std::vector<std::vector<int64_t>>>("pads"),
              (std::vector<std::vector<int64_t>>{{1, 1}, {}, {2}}));
    EXPECT_EQ(TypeOf(*attr.Find("pads")), OpAttrType::kListListInt);
}

TEST(OpAttrSet, AReadOfAnotherTypeOrAnAbsentNameIsNull) {
    const aclopAttr attr = Sample();
    EXPECT_EQ(attr.Get<float>("axis"), nullptr);
    EXPECT_EQ(attr.Get<std::vector<int64_t>>("pads"), nullptr);
    EXPECT_EQ(attr.Get<int64_t>("missing"), nullptr);
    EXPECT_FALSE(attr.Has("missing"));
}

TEST(OpAttrSet, SettingANameAgainReplacesItsValueAndType) {
    aclopAttr attr;
    attr.Set("axis", int64_t{1});
    attr.Set("axis", std::string("last"));
    EXPECT_EQ(attr.size(), 1u);
    EXPECT_EQ(attr.Get<int64_t>("axis"), nullptr);
    EXPECT_EQ(*attr.Get<std::string>("axis"), "last");
}

TEST(OpAttrSet, TypeNamesAreThoseOfSingleOpJson) {
    EXPECT_STREQ(OpAttrTypeName(OpAttrType::kBool), "bool");
    EXPECT_STREQ(OpAttrTypeName(OpAttrType::kDataType), "data_type");
    EXPECT_STREQ(OpAttrTypeName(OpAttrType::kListListInt), "list_list_int");
}

TEST(OpAttrMatch, SetsWithTheSameNamesTypesAndValuesMatch) {
    const aclopAttr a = Sample();
    const aclopAttr b = Sample();
    EXPECT_TRUE(a.Matches(b));
    EXPECT_TRUE(aclopAttr::Matches(&a, &b));
}

TEST(OpAttrMatch, InsertionOrderDoesNotMatter) {
    aclopAttr a, b;
    a.Set("x", int64_t{1});
    a.Set("y", int64_t{2});
    b.Set("y", int64_t{2});
    b.Set("x", int64_t{1});
    EXPECT_TRUE(a.Matches(b));
    EXPECT_EQ(a.Hash(), b.Hash());
    EXPECT_EQ(a.Text(), b.Text());
}

TEST(OpAttrMatch, AnExtraOrMissingAttributeDoesNotMatch) {
    aclopAttr a = Sample();
    const aclopAttr b = Sample();
    a.Set("extra", int64_t{0});
    EXPECT_FALSE(a.Matches(b));
    EXPECT_FALSE(b.Matches(a));
}

TEST(OpAttrMatch, TheSameValueUnderAnotherTypeDoesNotMatch) {
    aclopAttr a, b;
    a.Set("v", int64_t{1});
    b.Set("v", true);
    EXPECT_FALSE(a.Matches(b));
    aclopAttr c, d;
    c.Set("v", std::vector<int64_t>{});
    d.Set("v", std::vector<float>{});
    EXPECT_FALSE(c.Matches(d));
}

TEST(OpAttrMatch, ADifferentValueDoesNotMatch) {
    aclopAttr a = Sample();
    const aclopAttr b = Sample();
    a.Set("pads", std::vector<std::vector<int64_t>>{{1, 1}, {0}, {2}});
    EXPECT_FALSE(a.Matches(b));
    a = Sample();
    a.Set("mode", std::string("Bilinear"));
    EXPECT_FALSE(a.Matches(b));
}

TEST(OpAttrMatch, FloatsWithinOneMillionthMatch) {
    aclopAttr a, b;
    a.Set("eps", 1e-5f);
    b.Set("eps", 1e-5f + 5e-7f);
    EXPECT_TRUE(a.Matches(b));
    b.Set("eps", 1e-5f + 5e-6f);
    EXPECT_FALSE(a.Matches(b));
}

TEST(OpAttrMatch, NanMatchesNanAndInfinitiesMatchEachOther) {
    const float inf = std::numeric_limits<float>::infinity();
    aclopAttr a, b;
    a.Set("v", std::vector<float>{NAN, inf});
    b.Set("v", std::vector<float>{NAN, -inf});  // either sign, as in CANN
    EXPECT_TRUE(a.Matches(b));
    b.Set("v", std::vector<float>{0.0f, inf});
    EXPECT_FALSE(a.Matches(b));
    b.Set("v", std::vector<float>{NAN, 3.0e38f});
    EXPECT_FALSE(a.Matches(b));
}

TEST(OpAttrMatch, ANullSetIsTheEmptySet) {
    const aclopAttr empty;
    EXPECT_TRUE(aclopAttr::Matches(nullptr, &empty));
    EXPECT_TRUE(aclopAttr::Matches(nullptr, nullptr));
    const aclopAttr some = Sample();
    EXPECT_FALSE(aclopAttr::Matches(nullptr, &some));
    EXPECT_EQ(aclopAttr::Hash(nullptr), empty.Hash());
    EXPECT_EQ(aclopAttr::Text(nullptr), "{}");
}

TEST(OpAttrHash, MatchingSetsHashAlikeFloatsWithinTheToleranceToo) {
    aclopAttr a, b;
    a.Set("eps", 1e-5f);
    b.Set("eps", 1e-5f + 5e-7f);
    ASSERT_TRUE(a.Matches(b));
    EXPECT_EQ(a.Hash(), b.Hash());
}

TEST(OpAttrHash, DiffersForDifferentNamesTypesAndValues) {
    const aclopAttr base = Sample();
    aclopAttr renamed = Sample();
    renamed.Set("axis2", int64_t{-1});
    aclopAttr retyped = Sample();
    retyped.Set("axis", std::vector<int64_t>{-1});
    aclopAttr revalued = Sample();
    revalued.Set("axis", int64_t{1});
    aclopAttr relisted = Sample();
    relisted.Set("pads", std::vector<std::vector<int64_t>>{{1}, {1}, {2}});
    EXPECT_NE(base.Hash(), renamed.Hash());
    EXPECT_NE(base.Hash(), retyped.Hash());
    EXPECT_NE(base.Hash(), revalued.Hash());
    EXPECT_NE(base.Hash(), relisted.Hash());
}

TEST(OpAttrHash, IsStableAcrossProcessesAndBuilds) {
    // FNV-1a over a fixed encoding (the value was computed apart from the code, in Python):
    // the same set hashes to it everywhere.
    aclopAttr attr;
    attr.Set("axis", int64_t{1});
    attr.Set("keep_dims", false);
    EXPECT_EQ(attr.Hash(), aclopAttr(attr).Hash());
    EXPECT_EQ(attr.Hash(), 0xfb0454c5f64c0e0eull) << std::hex << attr.Hash();
}

TEST(OpAttrText, ListsEveryAttributeInNameOrderWithItsType) {
    aclopAttr attr;
    attr.Set("keep_dims", true);
    attr.Set("axes", std::vector<int64_t>{0, -1});
    attr.Set("alpha", 0.1f);
    attr.Set("pads", std::vector<std::vector<int64_t>>{{1, 2}, {}});
    attr.Set("T", ACL_FLOAT16);
    attr.Set("flags", std::vector<uint8_t>{1, 0});
    EXPECT_EQ(attr.Text(),
              "{T: data_type = 1, alpha: float = 0.100000001, axes: list_int = [0, -1], "
              "flags: list_bool = [true, false], keep_dims: bool = true, "
              "pads: list_list_int = [[1, 2], []]}");
}

TEST(OpAttrText, QuotesStringsAndOddNames) {
    aclopAttr attr;
    attr.Set("say", std::string("a \"b\"\\\n"));
    attr.Set("two words", std::vector<std::string>{"x", ""});
    attr.Set("nan", std::vector<float>{NAN, -std::numeric_limits<float>::infinity()});
    EXPECT_EQ(attr.Text(),
              "{nan: list_float = [nan, -inf], say: string = \"a \\\"b\\\"\\\\\\x0a\", "
              "\"two words\": list_string = [\"x\", \"\"]}");
}

TEST(OpAttrRegistry, OnlyRegisteredSetsAreLive) {
    aclopAttr* attr = NewOpAttr();
    ASSERT_NE(attr, nullptr);
    EXPECT_TRUE(IsLiveOpAttr(attr));
    aclopAttr local;
    EXPECT_FALSE(IsLiveOpAttr(&local));
    DeleteOpAttr(attr);
    EXPECT_FALSE(IsLiveOpAttr(attr));
    DeleteOpAttr(&local);  // not registered: ignored
}

}  // namespace
}  // namespace openacl
