// acl_op.h: operator attributes (aclopCreateAttr, aclopDestroyAttr, aclopSetAttr*). What a set
// holds is read back by the unit tests of core/op_attr.h; these check the entry points' answers.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "recorded_error.h"

namespace {

class OpAttr : public ::testing::Test {
 protected:
    void SetUp() override {
        attr_ = aclopCreateAttr();
        ASSERT_NE(attr_, nullptr);
    }
    void TearDown() override { aclopDestroyAttr(attr_); }

    // The message of the newest failure, "" when there is none.
    static std::string Message() {
        const char* message = TakeErrMsg();
        return message != nullptr ? message : "";
    }

    aclopAttr* attr_ = nullptr;
};

TEST(OpAttrLifecycle, aclopCreateAttrNeedsNoAclInitAndGivesDistinctSets) {
    aclopAttr* a = aclopCreateAttr();
    aclopAttr* b = aclopCreateAttr();
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a, b);
    aclopDestroyAttr(a);
    aclopDestroyAttr(b);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(OpAttrLifecycle, aclopDestroyAttrOfNullDoesNothing) {
    aclopDestroyAttr(nullptr);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(OpAttrLifecycle, aclopDestroyAttrOfADestroyedSetIsRefusedWithAMessage) {
    aclopAttr* attr = aclopCreateAttr();
    ASSERT_NE(attr, nullptr);
    aclopDestroyAttr(attr);
    aclopDestroyAttr(attr);  // the second release must not free anything
    EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(TakeErrMsg()).find("not a live attribute set"), std::string::npos);
}

TEST_F(OpAttr, EverySetterStoresAValue) {
    const int64_t ints[] = {1, 2, 3};
    const float floats[] = {0.5f, -1.0f};
    const uint8_t bools[] = {1, 0, 7};
    const char* strings[] = {"a", "bc"};
    const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_DT_UNDEFINED};
    const int64_t row0[] = {1, 2}, row1[] = {3};
    const int64_t* const rows[] = {row0, row1};
    const int counts[] = {2, 1};
    EXPECT_EQ(aclopSetAttrBool(attr_, "keep_dims", 1), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrInt(attr_, "axis", -1), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrFloat(attr_, "alpha", 0.25f), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrString(attr_, "mode", "nearest"), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrDataType(attr_, "dst_type", ACL_INT8), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListBool(attr_, "flags", 3, bools), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListInt(attr_, "axes", 3, ints), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListFloat(attr_, "scales", 2, floats), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListString(attr_, "names", 2, strings), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListDataType(attr_, "types", 3, types), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListListInt(attr_, "pads", 2, counts, rows), ACL_SUCCESS);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST_F(OpAttr, SettingANameAgainWithAnotherTypeSucceeds) {
    const int64_t axes[] = {0};
    EXPECT_EQ(aclopSetAttrInt(attr_, "axis", 1), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListInt(attr_, "axis", 1, axes), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrString(attr_, "axis", "last"), ACL_SUCCESS);
}

TEST_F(OpAttr, EmptyListsMayComeWithoutStorage) {
    EXPECT_EQ(aclopSetAttrListInt(attr_, "axes", 0, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListBool(attr_, "flags", 0, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListFloat(attr_, "scales", 0, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListString(attr_, "names", 0, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListDataType(attr_, "types", 0, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclopSetAttrListListInt(attr_, "pads", 0, nullptr, nullptr), ACL_SUCCESS);
    const int counts[] = {0, 0};
    const int64_t* const rows[] = {nullptr, nullptr};  // an empty std::vector's data()
    EXPECT_EQ(aclopSetAttrListListInt(attr_, "pads", 2, counts, rows), ACL_SUCCESS);
}

TEST_F(OpAttr, AnEmptyStringIsAValue) {
    EXPECT_EQ(aclopSetAttrString(attr_, "mode", ""), ACL_SUCCESS);
    const char* strings[] = {""};
    EXPECT_EQ(aclopSetAttrListString(attr_, "names", 1, strings), ACL_SUCCESS);
}

TEST_F(OpAttr, ANullAttrIsRefusedNamingTheParameter) {
    EXPECT_EQ(aclopSetAttrInt(nullptr, "axis", 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("attr is null"), std::string::npos);
}

TEST_F(OpAttr, ANullNameIsRefusedNamingTheParameter) {
    EXPECT_EQ(aclopSetAttrBool(attr_, nullptr, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("attrName is null"), std::string::npos);
}

TEST_F(OpAttr, ANullListWithValuesIsRefusedNamingTheParameters) {
    EXPECT_EQ(aclopSetAttrListFloat(attr_, "scales", 2, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("values is null but numValues is 2"), std::string::npos);
}

TEST_F(OpAttr, ANegativeCountIsRefused) {
    const int64_t ints[] = {1};
    EXPECT_EQ(aclopSetAttrListInt(attr_, "axes", -1, ints), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("numValues is -1"), std::string::npos);
}

TEST_F(OpAttr, aclopSetAttrListStringRefusesANullString) {
    const char* strings[] = {"a", nullptr};
    EXPECT_EQ(aclopSetAttrListString(attr_, "names", 2, strings), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("values[1] is null"), std::string::npos);
}

TEST_F(OpAttr, aclopSetAttrListListIntChecksEveryList) {
    const int64_t row[] = {1};
    const int64_t* const rows[] = {row, nullptr};
    const int counts[] = {1, 2};
    EXPECT_EQ(aclopSetAttrListListInt(attr_, "pads", 2, counts, rows), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("values[1] is null but numValues[1] is 2"), std::string::npos);
    const int negative[] = {1, -1};
    EXPECT_EQ(aclopSetAttrListListInt(attr_, "pads", 2, negative, rows), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("numValues[1] is -1"), std::string::npos);
    EXPECT_EQ(aclopSetAttrListListInt(attr_, "pads", 2, nullptr, rows), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("numValues is null"), std::string::npos);
}

TEST_F(OpAttr, DataTypesMustBeAclDataTypes) {
    EXPECT_EQ(aclopSetAttrDataType(attr_, "dst_type", static_cast<aclDataType>(999)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("attrValue 999 is not an aclDataType"), std::string::npos);
    const aclDataType types[] = {ACL_FLOAT, static_cast<aclDataType>(-7)};
    EXPECT_EQ(aclopSetAttrListDataType(attr_, "types", 2, types), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("values[1] is -7"), std::string::npos);
}

TEST_F(OpAttr, aclopSetAttrStringRefusesANullValue) {
    EXPECT_EQ(aclopSetAttrString(attr_, "mode", nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(Message().find("attrValue is null"), std::string::npos);
}

TEST(OpAttrLifecycle, SettersRefuseADestroyedSet) {
    aclopAttr* attr = aclopCreateAttr();
    ASSERT_NE(attr, nullptr);
    aclopDestroyAttr(attr);
    EXPECT_EQ(aclopSetAttrInt(attr, "axis", 1), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
