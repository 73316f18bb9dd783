// acl_base_mdl.h: tensor descriptors. None of these tests calls aclInit or sets a device: the
// descriptor functions must work without either.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

// A descriptor destroyed at scope exit.
struct DescDeleter {
    void operator()(aclTensorDesc* desc) const { aclDestroyTensorDesc(desc); }
};
using Desc = std::unique_ptr<aclTensorDesc, DescDeleter>;

Desc MakeDesc(aclDataType type, std::vector<int64_t> dims, aclFormat format) {
    return Desc(aclCreateTensorDesc(type, static_cast<int>(dims.size()), dims.data(), format));
}

std::vector<int64_t> DimsOf(const aclTensorDesc* desc) {
    std::vector<int64_t> dims;
    size_t rank = aclGetTensorDescNumDims(desc);
    for (size_t i = 0; i < rank; ++i) {
        int64_t dim = 0;
        EXPECT_EQ(aclGetTensorDescDimV2(desc, i, &dim), ACL_SUCCESS);
        dims.push_back(dim);
    }
    return dims;
}

// The code the last failing call recorded (for functions that answer NULL, 0 or void).
aclError LastError() {
    return RecordedError();
}

// Transforms `dims` in format `from` to format `to`; the new descriptor's dims, or a failure.
Desc Transform(std::vector<int64_t> dims, aclFormat from, aclFormat to, aclError* result) {
    Desc src = MakeDesc(ACL_FLOAT, dims, from);
    aclTensorDesc* dst = nullptr;
    *result = aclTransTensorDescFormat(src.get(), to, &dst);
    return Desc(dst);
}

}  // namespace

// ---- creation ----

TEST(TensorDesc, CreateTensorDescRemembersTypeFormatAndShape) {
    Desc desc = MakeDesc(ACL_FLOAT16, {1, 3, 224, 224}, ACL_FORMAT_NCHW);
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescType(desc.get()), ACL_FLOAT16);
    EXPECT_EQ(aclGetTensorDescFormat(desc.get()), ACL_FORMAT_NCHW);
    EXPECT_EQ(aclGetTensorDescNumDims(desc.get()), 4u);
    EXPECT_EQ(DimsOf(desc.get()), (std::vector<int64_t>{1, 3, 224, 224}));
    EXPECT_EQ(aclGetTensorDescElementCount(desc.get()), 3u * 224 * 224);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(TensorDesc, CreateTensorDescCopiesTheDims) {
    int64_t dims[] = {2, 3};
    Desc desc(aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND));
    ASSERT_NE(desc, nullptr);
    dims[0] = 7;
    EXPECT_EQ(DimsOf(desc.get()), (std::vector<int64_t>{2, 3}));
}

TEST(TensorDesc, CreateTensorDescWithoutDimsIsAScalarOfOneElement) {
    Desc desc(aclCreateTensorDesc(ACL_INT32, 0, nullptr, ACL_FORMAT_ND));
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescNumDims(desc.get()), 0u);
    EXPECT_EQ(aclGetTensorDescElementCount(desc.get()), 1u);
    EXPECT_EQ(aclGetTensorDescSize(desc.get()), 4u);
}

TEST(TensorDesc, CreateTensorDescWithAZeroDimHasNoElements) {
    Desc desc = MakeDesc(ACL_FLOAT, {4, 0}, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescElementCount(desc.get()), 0u);
    EXPECT_EQ(aclGetTensorDescSize(desc.get()), 0u);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "an empty tensor is not an error";
}

TEST(TensorDesc, CreateTensorDescWithUnknownRankReportsUnknownRank) {
    Desc desc = MakeDesc(ACL_FLOAT, {-2}, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescNumDims(desc.get()), ACL_UNKNOWN_RANK);
    EXPECT_EQ(aclGetTensorDescElementCount(desc.get()), 0u);
    EXPECT_EQ(aclGetTensorDescSize(desc.get()), 0u);
}

TEST(TensorDesc, CreateTensorDescWithDynamicDimHasNoSizeYet) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1, 3, 224, 224}, ACL_FORMAT_NCHW);
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescNumDims(desc.get()), 4u);
    EXPECT_EQ(DimsOf(desc.get())[0], -1);
    EXPECT_EQ(aclGetTensorDescElementCount(desc.get()), 0u);
    EXPECT_EQ(aclGetTensorDescSize(desc.get()), 0u);
}

TEST(TensorDesc, CreateTensorDescAcceptsUndefinedTypeAndFormatOfAnAbsentOptionalInput) {
    Desc desc(aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED));
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescType(desc.get()), ACL_DT_UNDEFINED);
    EXPECT_EQ(aclGetTensorDescFormat(desc.get()), ACL_FORMAT_UNDEFINED);
}

TEST(TensorDesc, CreateTensorDescWithNegativeNumDimsIsRefused) {
    int64_t dims[] = {1};
    EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND), nullptr);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclCreateTensorDesc failed (error 100000): numDims is -1");
}

TEST(TensorDesc, CreateTensorDescWithNullDimsIsRefused) {
    EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND), nullptr);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dims is null but numDims is 2");
}

TEST(TensorDesc, CreateTensorDescWithDimBelowMinusOneIsRefused) {
    EXPECT_EQ(MakeDesc(ACL_FLOAT, {2, -3}, ACL_FORMAT_ND), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("dims[1] is -3");
}

TEST(TensorDesc, CreateTensorDescWithMinusTwoInsideALongerShapeIsRefused) {
    EXPECT_EQ(MakeDesc(ACL_FLOAT, {-2, 3}, ACL_FORMAT_ND), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("only valid as the whole shape {-2}");
}

TEST(TensorDesc, CreateTensorDescWithUnknownDataTypeIsRefused) {
    EXPECT_EQ(MakeDesc(static_cast<aclDataType>(5), {1}, ACL_FORMAT_ND), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("dataType 5 is not an aclDataType");
}

TEST(TensorDesc, CreateTensorDescWithUnknownFormatIsRefused) {
    EXPECT_EQ(MakeDesc(ACL_FLOAT, {1}, static_cast<aclFormat>(99)), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("format 99 is not an aclFormat");
}

TEST(TensorDesc, CreateTensorDescWhoseSizeOverflowsIsRefused) {
    EXPECT_EQ(MakeDesc(ACL_FLOAT, {INT64_MAX / 2, 4}, ACL_FORMAT_ND), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("does not fit in size_t");
}

// ---- destruction and stale handles ----

TEST(TensorDesc, DestroyTensorDescOfNullDoesNothing) {
    aclDestroyTensorDesc(nullptr);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(TensorDesc, DestroyTensorDescTwiceIsReportedNotFreedAgain) {
    aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 0, nullptr, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    aclDestroyTensorDesc(desc);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    aclDestroyTensorDesc(desc);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live tensor descriptor");
}

TEST(TensorDesc, DestroyedTensorDescIsRefusedByEveryFunction) {
    aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 0, nullptr, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    aclDestroyTensorDesc(desc);
    int64_t dim = 0;
    EXPECT_EQ(aclGetTensorDescType(desc), ACL_DT_UNDEFINED);
    EXPECT_EQ(aclGetTensorDescNumDims(desc), 0u);
    EXPECT_EQ(aclGetTensorDescDimV2(desc, 0, &dim), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclSetTensorFormat(desc, ACL_FORMAT_NCHW), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclSetTensorFormat failed (error 100000): desc");
}

TEST(TensorDesc, ForeignPointerIsNotATensorDesc) {
    int64_t not_a_desc[8] = {};
    auto* desc = reinterpret_cast<aclTensorDesc*>(not_a_desc);
    EXPECT_EQ(aclGetTensorDescSize(desc), 0u);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live tensor descriptor");
}

TEST(TensorDesc, GettersOfNullDescReturnTheDocumentedDefaults) {
    EXPECT_EQ(aclGetTensorDescType(nullptr), ACL_DT_UNDEFINED);
    EXPECT_EQ(aclGetTensorDescFormat(nullptr), ACL_FORMAT_UNDEFINED);
    EXPECT_EQ(aclGetTensorDescSize(nullptr), 0u);
    EXPECT_EQ(aclGetTensorDescElementCount(nullptr), 0u);
    EXPECT_EQ(aclGetTensorDescNumDims(nullptr), 0u);
    EXPECT_EQ(aclGetTensorDescDim(nullptr, 0), -1);
    EXPECT_STREQ(aclGetTensorDescName(nullptr), "");
    EXPECT_EQ(aclGetTensorDescAddress(nullptr), nullptr);
    EXPECT_EQ(aclGetTensorDescByIndex(nullptr, 0), nullptr);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("desc is null");
}

// ---- size and dimensions ----

TEST(TensorDesc, GetTensorDescSizeIsElementCountTimesTypeSize) {
    Desc half = MakeDesc(ACL_FLOAT16, {2, 3}, ACL_FORMAT_ND);
    Desc wide = MakeDesc(ACL_COMPLEX128, {2, 3}, ACL_FORMAT_ND);
    EXPECT_EQ(aclGetTensorDescSize(half.get()), 12u);
    EXPECT_EQ(aclGetTensorDescSize(wide.get()), 96u);
}

TEST(TensorDesc, GetTensorDescSizeOfStringTensorIsZero) {
    Desc desc = MakeDesc(ACL_STRING, {4}, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescElementCount(desc.get()), 4u);
    EXPECT_EQ(aclGetTensorDescSize(desc.get()), 0u) << "strings have no fixed size";
}

TEST(TensorDesc, GetTensorDescDimV2OutOfRangeIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1, 2, 3}, ACL_FORMAT_ND);
    int64_t dim = 42;
    EXPECT_EQ(aclGetTensorDescDimV2(desc.get(), 3, &dim), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(dim, 42);
    EXPECT_THAT_MESSAGE_CONTAINS("index 3 is out of range: the tensor has 3 dimension(s)");
}

TEST(TensorDesc, GetTensorDescDimV2WithNullDimSizeIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclGetTensorDescDimV2(desc.get(), 0, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dimSize is null");
}

TEST(TensorDesc, GetTensorDescDimV2OfUnknownRankIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {-2}, ACL_FORMAT_ND);
    int64_t dim = 0;
    EXPECT_EQ(aclGetTensorDescDimV2(desc.get(), 0, &dim), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("unknown rank");
}

TEST(TensorDesc, GetTensorDescDimReturnsTheDimOrMinusOneWhenInvalid) {
    Desc desc = MakeDesc(ACL_FLOAT, {5, 6}, ACL_FORMAT_ND);
    EXPECT_EQ(aclGetTensorDescDim(desc.get(), 1), 6);
    EXPECT_EQ(aclGetTensorDescDim(desc.get(), 2), -1);
    EXPECT_THAT_MESSAGE_CONTAINS("aclGetTensorDescDim failed (error 100000): index 2");
}

// ---- shape and value ranges ----

TEST(TensorDesc, SetTensorShapeRangeIsWhatGetTensorDescDimRangeReturns) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1, 3}, ACL_FORMAT_ND);
    int64_t ranges[][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 8}, {3, 3}};
    ASSERT_EQ(aclSetTensorShapeRange(desc.get(), 2, ranges), ACL_SUCCESS);
    int64_t range[2] = {};
    ASSERT_EQ(aclGetTensorDescDimRange(desc.get(), 0, 2, range), ACL_SUCCESS);
    EXPECT_EQ(range[0], 1);
    EXPECT_EQ(range[1], 8);
}

TEST(TensorDesc, SetTensorShapeRangeAcceptsMinusOneAsNoUpperBound) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1}, ACL_FORMAT_ND);
    int64_t ranges[][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, -1}};
    ASSERT_EQ(aclSetTensorShapeRange(desc.get(), 1, ranges), ACL_SUCCESS);
    int64_t range[2] = {};
    ASSERT_EQ(aclGetTensorDescDimRange(desc.get(), 0, 2, range), ACL_SUCCESS);
    EXPECT_EQ(range[1], -1);
}

TEST(TensorDesc, SetTensorShapeRangeWithMinAboveMaxIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1}, ACL_FORMAT_ND);
    int64_t ranges[][ACL_TENSOR_SHAPE_RANGE_NUM] = {{8, 2}};
    EXPECT_EQ(aclSetTensorShapeRange(desc.get(), 1, ranges), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dimsRange[0] is [8, 2]");
}

TEST(TensorDesc, SetTensorShapeRangeWithNullRangesIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorShapeRange(desc.get(), 1, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dimsRange is null but dimsCount is 1");
}

TEST(TensorDesc, GetTensorDescDimRangeOfStaticDimWithoutRangeIsTheDim) {
    Desc desc = MakeDesc(ACL_FLOAT, {2, 7}, ACL_FORMAT_ND);
    int64_t range[2] = {};
    ASSERT_EQ(aclGetTensorDescDimRange(desc.get(), 1, 2, range), ACL_SUCCESS);
    EXPECT_EQ(range[0], 7);
    EXPECT_EQ(range[1], 7);
}

TEST(TensorDesc, GetTensorDescDimRangeOfDynamicDimWithoutRangeIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1}, ACL_FORMAT_ND);
    int64_t range[2] = {};
    EXPECT_EQ(aclGetTensorDescDimRange(desc.get(), 0, 2, range), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dimension 0 is dynamic and no shape range was set");
}

TEST(TensorDesc, GetTensorDescDimRangeIntoTooShortArrayIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {2}, ACL_FORMAT_ND);
    int64_t range[2] = {};
    EXPECT_EQ(aclGetTensorDescDimRange(desc.get(), 0, 1, range), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dimRangeNum is 1");
}

TEST(TensorDesc, GetTensorDescDimRangePastTheRangesIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1, -1}, ACL_FORMAT_ND);
    int64_t ranges[][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 4}, {1, 4}};
    ASSERT_EQ(aclSetTensorShapeRange(desc.get(), 2, ranges), ACL_SUCCESS);
    int64_t range[2] = {};
    EXPECT_EQ(aclGetTensorDescDimRange(desc.get(), 2, 2, range), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 2 is out of range: the shape range has 2 dimension(s)");
}

TEST(TensorDesc, SetTensorValueRangeAcceptsOrderedRanges) {
    Desc desc = MakeDesc(ACL_INT32, {2}, ACL_FORMAT_ND);
    int64_t ranges[][ACL_TENSOR_VALUE_RANGE_NUM] = {{-5, 5}, {0, 0}};
    EXPECT_EQ(aclSetTensorValueRange(desc.get(), 2, ranges), ACL_SUCCESS);
}

TEST(TensorDesc, SetTensorValueRangeWithMinAboveMaxIsRefused) {
    Desc desc = MakeDesc(ACL_INT32, {1}, ACL_FORMAT_ND);
    int64_t ranges[][ACL_TENSOR_VALUE_RANGE_NUM] = {{3, -3}};
    EXPECT_EQ(aclSetTensorValueRange(desc.get(), 1, ranges), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("valueRange[0] is [3, -3]: min is above max");
}

// ---- name ----

TEST(TensorDesc, SetTensorDescNameIsWhatGetTensorDescNameReturns) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    aclSetTensorDescName(desc.get(), "images");
    EXPECT_STREQ(aclGetTensorDescName(desc.get()), "images");
}

TEST(TensorDesc, GetTensorDescNameIsEmptyUntilANameIsSet) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_STREQ(aclGetTensorDescName(desc.get()), "");
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(TensorDesc, SetTensorDescNameWithNullNameIsRefusedAndKeepsTheName) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    aclSetTensorDescName(desc.get(), "x");
    aclSetTensorDescName(desc.get(), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("aclSetTensorDescName failed (error 100000): name is null");
    EXPECT_STREQ(aclGetTensorDescName(desc.get()), "x");
}

// ---- format and shape setters ----

TEST(TensorDesc, SetTensorShapeReplacesTheShape) {
    Desc desc = MakeDesc(ACL_FLOAT, {-1, 3}, ACL_FORMAT_ND);
    int64_t dims[] = {4, 3, 2};
    ASSERT_EQ(aclSetTensorShape(desc.get(), 3, dims), ACL_SUCCESS);
    EXPECT_EQ(DimsOf(desc.get()), (std::vector<int64_t>{4, 3, 2}));
    EXPECT_EQ(aclGetTensorDescSize(desc.get()), 4u * 3 * 2 * 4);
}

TEST(TensorDesc, SetTensorShapeWithBadDimsIsRefusedAndKeepsTheShape) {
    Desc desc = MakeDesc(ACL_FLOAT, {2, 3}, ACL_FORMAT_ND);
    int64_t dims[] = {4, -7};
    EXPECT_EQ(aclSetTensorShape(desc.get(), 2, dims), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dims[1] is -7");
    EXPECT_EQ(DimsOf(desc.get()), (std::vector<int64_t>{2, 3}));
}

TEST(TensorDesc, SetTensorShapeWithNegativeNumDimsIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {2}, ACL_FORMAT_ND);
    int64_t dims[] = {1};
    EXPECT_EQ(aclSetTensorShape(desc.get(), -3, dims), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("numDims is -3");
}

TEST(TensorDesc, SetTensorShapeToUnknownRankReportsUnknownRank) {
    Desc desc = MakeDesc(ACL_FLOAT, {2}, ACL_FORMAT_ND);
    int64_t dims[] = {-2};
    ASSERT_EQ(aclSetTensorShape(desc.get(), 1, dims), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescNumDims(desc.get()), ACL_UNKNOWN_RANK);
}

TEST(TensorDesc, SetTensorFormatReplacesTheFormat) {
    Desc desc = MakeDesc(ACL_FLOAT, {1, 2, 3, 4}, ACL_FORMAT_ND);
    ASSERT_EQ(aclSetTensorFormat(desc.get(), ACL_FORMAT_NHWC), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescFormat(desc.get()), ACL_FORMAT_NHWC);
}

TEST(TensorDesc, SetTensorFormatWithUnknownFormatIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorFormat(desc.get(), static_cast<aclFormat>(7)), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("format 7 is not an aclFormat");
    EXPECT_EQ(aclGetTensorDescFormat(desc.get()), ACL_FORMAT_ND);
}

TEST(TensorDesc, SetTensorStorageFormatAndShapeAreTheFormatAndShape) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    int64_t dims[] = {2, 2};
    ASSERT_EQ(aclSetTensorStorageFormat(desc.get(), ACL_FORMAT_NC), ACL_SUCCESS);
    ASSERT_EQ(aclSetTensorStorageShape(desc.get(), 2, dims), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescFormat(desc.get()), ACL_FORMAT_NC);
    EXPECT_EQ(DimsOf(desc.get()), (std::vector<int64_t>{2, 2}));
}

TEST(TensorDesc, SetTensorOriginFormatAndShapeLeaveTheFormatAndShape) {
    Desc desc = MakeDesc(ACL_FLOAT, {1, 2, 3, 4}, ACL_FORMAT_NHWC);
    int64_t dims[] = {1, 4, 2, 3};
    ASSERT_EQ(aclSetTensorOriginFormat(desc.get(), ACL_FORMAT_NCHW), ACL_SUCCESS);
    ASSERT_EQ(aclSetTensorOriginShape(desc.get(), 4, dims), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescFormat(desc.get()), ACL_FORMAT_NHWC);
    EXPECT_EQ(DimsOf(desc.get()), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(TensorDesc, SetTensorOriginShapeWithNullDimsIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorOriginShape(desc.get(), 1, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclSetTensorOriginShape failed (error 100000): dims is null");
}

TEST(TensorDesc, SetTensorOriginFormatWithUnknownFormatIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorOriginFormat(desc.get(), static_cast<aclFormat>(-5)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("format -5 is not an aclFormat");
}

// ---- descriptor arrays ----

TEST(TensorDesc, GetTensorDescByIndexZeroIsTheDescItself) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclGetTensorDescByIndex(desc.get(), 0), desc.get());
}

TEST(TensorDesc, GetTensorDescByIndexPastZeroIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclGetTensorDescByIndex(desc.get(), 1), nullptr);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 1 is out of range: desc is a single descriptor");
}

// ---- constant data, dynamic input, placement ----

TEST(TensorDesc, SetTensorConstKeepsACopyThatGetTensorDescAddressReturns) {
    Desc desc = MakeDesc(ACL_FLOAT, {3}, ACL_FORMAT_ND);
    float values[] = {1.0f, 2.0f, 3.0f};
    ASSERT_EQ(aclSetTensorConst(desc.get(), values, sizeof values), ACL_SUCCESS);
    values[0] = 99.0f;
    void* address = aclGetTensorDescAddress(desc.get());
    ASSERT_NE(address, nullptr);
    EXPECT_NE(address, static_cast<void*>(values));
    float copy[3];
    std::memcpy(copy, address, sizeof copy);
    EXPECT_EQ(copy[0], 1.0f);
    EXPECT_EQ(copy[2], 3.0f);
}

TEST(TensorDesc, GetTensorDescAddressIsNullWithoutConstData) {
    Desc desc = MakeDesc(ACL_FLOAT, {3}, ACL_FORMAT_ND);
    EXPECT_EQ(aclGetTensorDescAddress(desc.get()), nullptr);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "no constant data is not an error";
}

TEST(TensorDesc, SetTensorConstWithNullDataIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorConst(desc.get(), nullptr, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dataBuffer is null");
}

TEST(TensorDesc, SetTensorConstWithZeroLengthIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    float value = 0.0f;
    EXPECT_EQ(aclSetTensorConst(desc.get(), &value, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("length is 0");
    EXPECT_EQ(aclGetTensorDescAddress(desc.get()), nullptr);
}

TEST(TensorDesc, SetTensorDynamicInputAcceptsAName) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorDynamicInput(desc.get(), "x"), ACL_SUCCESS);
}

TEST(TensorDesc, SetTensorDynamicInputWithNullNameIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorDynamicInput(desc.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dynamicInputName is null");
}

TEST(TensorDesc, SetTensorPlaceMentAcceptsEveryMemType) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorPlaceMent(desc.get(), ACL_MEMTYPE_HOST), ACL_SUCCESS);
    EXPECT_EQ(aclSetTensorPlaceMent(desc.get(), ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT), ACL_SUCCESS);
    EXPECT_EQ(aclSetTensorPlaceMent(desc.get(), ACL_MEMTYPE_DEVICE), ACL_SUCCESS);
}

TEST(TensorDesc, SetTensorPlaceMentWithUnknownMemTypeIsRefused) {
    Desc desc = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    EXPECT_EQ(aclSetTensorPlaceMent(desc.get(), static_cast<aclMemType>(3)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("memType 3 is not an aclMemType");
}

// ---- format transformation ----

TEST(TensorDesc, TransTensorDescFormatNchwToNhwcPermutesTheDims) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1, 3, 224, 200}, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescFormat(dst.get()), ACL_FORMAT_NHWC);
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{1, 224, 200, 3}));
    EXPECT_EQ(aclGetTensorDescType(dst.get()), ACL_FLOAT);
}

TEST(TensorDesc, TransTensorDescFormatNhwcToNchwPermutesTheDims) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1, 224, 200, 3}, ACL_FORMAT_NHWC, ACL_FORMAT_NCHW, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{1, 3, 224, 200}));
}

TEST(TensorDesc, TransTensorDescFormatNchwToHwcnPermutesTheDims) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({8, 3, 5, 7}, ACL_FORMAT_NCHW, ACL_FORMAT_HWCN, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{5, 7, 3, 8}));
}

TEST(TensorDesc, TransTensorDescFormatNcdhwToNdhwcPermutesTheDims) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1, 2, 3, 4, 5}, ACL_FORMAT_NCDHW, ACL_FORMAT_NDHWC, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{1, 3, 4, 5, 2}));
}

TEST(TensorDesc, TransTensorDescFormatMovesDynamicDimsWithTheirAxis) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({-1, 3, -1, -1}, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{-1, -1, -1, 3}));
}

TEST(TensorDesc, TransTensorDescFormatToNdKeepsTheDims) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1, 3, 4, 5}, ACL_FORMAT_NCHW, ACL_FORMAT_ND, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescFormat(dst.get()), ACL_FORMAT_ND);
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{1, 3, 4, 5}));
}

TEST(TensorDesc, TransTensorDescFormatFromNdNamesTheAxesWithoutMovingThem) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1, 3, 4, 5}, ACL_FORMAT_ND, ACL_FORMAT_NHWC, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescFormat(dst.get()), ACL_FORMAT_NHWC);
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{1, 3, 4, 5}));
}

TEST(TensorDesc, TransTensorDescFormatToTheSameFormatCopies) {
    Desc src = MakeDesc(ACL_INT8, {2, 2}, ACL_FORMAT_NC);
    aclSetTensorDescName(src.get(), "weights");
    aclTensorDesc* raw = nullptr;
    ASSERT_EQ(aclTransTensorDescFormat(src.get(), ACL_FORMAT_NC, &raw), ACL_SUCCESS);
    Desc dst(raw);
    EXPECT_NE(dst.get(), src.get());
    EXPECT_EQ(DimsOf(dst.get()), (std::vector<int64_t>{2, 2}));
    EXPECT_STREQ(aclGetTensorDescName(dst.get()), "weights");
}

TEST(TensorDesc, TransTensorDescFormatLeavesTheSourceUnchanged) {
    Desc src = MakeDesc(ACL_FLOAT, {1, 3, 4, 5}, ACL_FORMAT_NCHW);
    aclTensorDesc* raw = nullptr;
    ASSERT_EQ(aclTransTensorDescFormat(src.get(), ACL_FORMAT_NHWC, &raw), ACL_SUCCESS);
    Desc dst(raw);
    EXPECT_EQ(aclGetTensorDescFormat(src.get()), ACL_FORMAT_NCHW);
    EXPECT_EQ(DimsOf(src.get()), (std::vector<int64_t>{1, 3, 4, 5}));
}

TEST(TensorDesc, TransTensorDescFormatPermutesTheShapeRanges) {
    Desc src = MakeDesc(ACL_FLOAT, {-1, 3, -1, -1}, ACL_FORMAT_NCHW);
    int64_t ranges[][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 8}, {3, 3}, {16, 32}, {16, 64}};
    ASSERT_EQ(aclSetTensorShapeRange(src.get(), 4, ranges), ACL_SUCCESS);
    aclTensorDesc* raw = nullptr;
    ASSERT_EQ(aclTransTensorDescFormat(src.get(), ACL_FORMAT_NHWC, &raw), ACL_SUCCESS);
    Desc dst(raw);
    int64_t range[2] = {};
    ASSERT_EQ(aclGetTensorDescDimRange(dst.get(), 3, 2, range), ACL_SUCCESS);
    EXPECT_EQ(range[0], 3);
    ASSERT_EQ(aclGetTensorDescDimRange(dst.get(), 2, 2, range), ACL_SUCCESS);
    EXPECT_EQ(range[1], 64);
}

TEST(TensorDesc, TransTensorDescFormatOfUnknownRankStaysUnknownRank) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({-2}, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, &result);
    ASSERT_EQ(result, ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescNumDims(dst.get()), ACL_UNKNOWN_RANK);
}

TEST(TensorDesc, TransTensorDescFormatToFractalIsNotSupported) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({16, 16}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ, &result);
    EXPECT_EQ(result, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(dst, nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_FORMAT_ND -> ACL_FORMAT_FRACTAL_NZ is not supported");
}

TEST(TensorDesc, TransTensorDescFormatFromC0BlockedLayoutIsNotSupported) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1, 1, 4, 4, 16}, ACL_FORMAT_NC1HWC0, ACL_FORMAT_NCHW, &result);
    EXPECT_EQ(result, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_FORMAT_NC1HWC0 -> ACL_FORMAT_NCHW is not supported");
}

TEST(TensorDesc, TransTensorDescFormatToALayoutOfAnotherRankIsRefused) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1, 3, 4, 5}, ACL_FORMAT_NCHW, ACL_FORMAT_NCDHW, &result);
    EXPECT_EQ(result, ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("srcDesc has 4 dimension(s) but ACL_FORMAT_NCDHW describes 5");
}

TEST(TensorDesc, TransTensorDescFormatOfConstDataThatWouldMoveIsNotSupported) {
    Desc src = MakeDesc(ACL_FLOAT, {1, 2, 1, 2}, ACL_FORMAT_NCHW);
    float values[4] = {};
    ASSERT_EQ(aclSetTensorConst(src.get(), values, sizeof values), ACL_SUCCESS);
    aclTensorDesc* dst = nullptr;
    EXPECT_EQ(aclTransTensorDescFormat(src.get(), ACL_FORMAT_NHWC, &dst),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(dst, nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("does not re-lay out");
}

TEST(TensorDesc, TransTensorDescFormatToUndefinedIsRefused) {
    aclError result = ACL_SUCCESS;
    Desc dst = Transform({1}, ACL_FORMAT_ND, ACL_FORMAT_UNDEFINED, &result);
    EXPECT_EQ(result, ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dstFormat is ACL_FORMAT_UNDEFINED");
}

TEST(TensorDesc, TransTensorDescFormatWithNullArgumentsIsRefused) {
    Desc src = MakeDesc(ACL_FLOAT, {1}, ACL_FORMAT_ND);
    aclTensorDesc* dst = nullptr;
    EXPECT_EQ(aclTransTensorDescFormat(nullptr, ACL_FORMAT_ND, &dst), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("srcDesc is null");
    EXPECT_EQ(aclTransTensorDescFormat(src.get(), ACL_FORMAT_ND, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dstDesc is null");
}

// ---- no runtime needed, and thread safety ----

TEST(TensorDesc, TensorDescFunctionsNeedNeitherAclInitNorADevice) {
    int32_t device = -1;
    ASSERT_NE(aclrtGetDevice(&device), ACL_SUCCESS) << "this test expects no device set";
    aclGetRecentErrMsg();
    Desc desc = MakeDesc(ACL_FLOAT, {2, 3}, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclGetTensorDescSize(desc.get()), 24u);
    EXPECT_EQ(aclSetTensorFormat(desc.get(), ACL_FORMAT_NC), ACL_SUCCESS);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(TensorDesc, TensorDescsCanBeCreatedAndDestroyedFromManyThreads) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([] {
            for (int i = 0; i < 1000; ++i) {
                int64_t dims[] = {i, 2};
                aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
                if (aclGetTensorDescElementCount(desc) != static_cast<size_t>(2 * i)) {
                    ADD_FAILURE() << "wrong element count";
                }
                aclDestroyTensorDesc(desc);
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}
