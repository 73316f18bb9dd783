// aclnn/acl_meta.h's objects: what creation copies, what getters answer (arrays the caller
// frees with delete[]), lists owning their elements, and NULL accepted by every destroyer.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"

namespace {

std::vector<int64_t> Take(int64_t* values, uint64_t count) {
    std::vector<int64_t> copy(values, values + count);
    delete[] values;  // the documented way to free a getter's array
    return copy;
}

TEST(Nnopbase, ATensorWithoutStridesIsRowMajor) {
    const int64_t dims[3] = {2, 3, 4};
    aclTensor* tensor =
        aclCreateTensor(dims, 3, ACL_FLOAT16, nullptr, 5, ACL_FORMAT_NCL, dims, 3, nullptr);
    ASSERT_NE(tensor, nullptr);
    int64_t* values = nullptr;
    uint64_t count = 0;
    ASSERT_EQ(aclGetViewStrides(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(Take(values, count), (std::vector<int64_t>{12, 4, 1}));
    ASSERT_EQ(aclGetViewShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(Take(values, count), (std::vector<int64_t>{2, 3, 4}));
    int64_t offset = 0;
    ASSERT_EQ(aclGetViewOffset(tensor, &offset), ACLNN_SUCCESS);
    EXPECT_EQ(offset, 5);
    aclFormat format = ACL_FORMAT_ND;
    ASSERT_EQ(aclGetFormat(tensor, &format), ACLNN_SUCCESS);
    EXPECT_EQ(format, ACL_FORMAT_NCL);
    aclDataType dtype = ACL_FLOAT;
    ASSERT_EQ(aclGetDataType(tensor, &dtype), ACLNN_SUCCESS);
    EXPECT_EQ(dtype, ACL_FLOAT16);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

TEST(Nnopbase, ATensorKeepsItsOwnCopyOfShapesAndStrides) {
    std::vector<int64_t> dims = {4, 2}, strides = {1, 4}, storage = {8};
    aclTensor* tensor = aclCreateTensor(dims.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                        storage.data(), 1, nullptr);
    ASSERT_NE(tensor, nullptr);
    dims.assign({9, 9});
    strides.assign({9, 9});
    storage.assign({9});
    int64_t* values = nullptr;
    uint64_t count = 0;
    ASSERT_EQ(aclGetViewShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(Take(values, count), (std::vector<int64_t>{4, 2}));
    ASSERT_EQ(aclGetViewStrides(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(Take(values, count), (std::vector<int64_t>{1, 4}));
    ASSERT_EQ(aclGetStorageShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(Take(values, count), (std::vector<int64_t>{8}));
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

// ggml-cann computes an empty view's storage as 1 + (0 - 1) * stride.
TEST(Nnopbase, AnEmptyViewMayHaveANegativeStorageSize) {
    const int64_t dims[2] = {0, 256}, strides[2] = {128, 0}, storage[1] = {-127};
    aclTensor* tensor =
        aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, nullptr);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
    const int64_t full[2] = {1, 256};
    EXPECT_EQ(aclCreateTensor(full, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, nullptr),
              nullptr);
}

TEST(Nnopbase, AZeroDimensionalTensorHasAnEmptyShape) {
    aclTensor* tensor =
        aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
    ASSERT_NE(tensor, nullptr);
    int64_t* values = nullptr;
    uint64_t count = 7;
    ASSERT_EQ(aclGetViewShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(count, 0u);
    delete[] values;
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

TEST(Nnopbase, InitTensorDescribesAnExistingTensorAnew) {
    const int64_t dims[2] = {2, 2}, other[1] = {6};
    aclTensor* tensor =
        aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr);
    ASSERT_NE(tensor, nullptr);
    int dummy = 0;
    ASSERT_EQ(
        aclInitTensor(tensor, other, 1, ACL_INT32, nullptr, 1, ACL_FORMAT_ND, other, 1, &dummy),
        ACLNN_SUCCESS);
    int64_t* values = nullptr;
    uint64_t count = 0;
    ASSERT_EQ(aclGetViewShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(Take(values, count), (std::vector<int64_t>{6}));
    void* address = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(tensor, &address), ACLNN_SUCCESS);
    EXPECT_EQ(address, &dummy);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

TEST(Nnopbase, RawTensorAddressesAreSetAndRead) {
    const int64_t dims[1] = {4};
    aclTensor* tensor =
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
    ASSERT_NE(tensor, nullptr);
    int target = 0;
    ASSERT_EQ(aclSetRawTensorAddr(tensor, &target), ACLNN_SUCCESS);
    void* address = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(tensor, &address), ACLNN_SUCCESS);
    EXPECT_EQ(address, &target);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

TEST(Nnopbase, ArraysCopyTheirValuesAndCountThem) {
    std::vector<int64_t> ints = {1, 2, 3};
    const float floats[2] = {0.5f, 1.5f};
    const bool bools[4] = {true, false, true, true};
    aclIntArray* a = aclCreateIntArray(ints.data(), ints.size());
    aclFloatArray* f = aclCreateFloatArray(floats, 2);
    aclBoolArray* b = aclCreateBoolArray(bools, 4);
    ints.assign({9, 9, 9, 9, 9});
    uint64_t size = 0;
    ASSERT_EQ(aclGetIntArraySize(a, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 3u);
    ASSERT_EQ(aclGetFloatArraySize(f, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 2u);
    ASSERT_EQ(aclGetBoolArraySize(b, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 4u);
    EXPECT_EQ(aclDestroyIntArray(a), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyFloatArray(f), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyBoolArray(b), ACLNN_SUCCESS);
}

TEST(Nnopbase, AListOwnsItsTensorsAndScalars) {
    const int64_t dims[1] = {2};
    const aclTensor* tensors[2] = {
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr),
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr)};
    aclTensorList* list = aclCreateTensorList(tensors, 2);
    ASSERT_NE(list, nullptr);
    uint64_t size = 0;
    ASSERT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 2u);
    float value = 1.0f;
    const aclScalar* scalars[1] = {aclCreateScalar(&value, ACL_FLOAT)};
    aclScalarList* scalar_list = aclCreateScalarList(scalars, 1);
    ASSERT_NE(scalar_list, nullptr);
    ASSERT_EQ(aclGetScalarListSize(scalar_list, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 1u);
    // Destroying the lists destroys their elements (a leak checker would see the rest).
    EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyScalarList(scalar_list), ACLNN_SUCCESS);
}

TEST(Nnopbase, EveryDestroyerAcceptsNull) {
    EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyFloatArray(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyBoolArray(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyScalarList(nullptr), ACLNN_SUCCESS);
}

TEST(Nnopbase, AScalarCopiesItsValue) {
    int64_t value = 41;
    aclScalar* scalar = aclCreateScalar(&value, ACL_INT64);
    ASSERT_NE(scalar, nullptr);
    value = 0;  // the scalar keeps 41: checked through an operator in the Add tests
    EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
}

TEST(Nnopbase, InitAndFinalizeAreOptionalAndRepeatable) {
    EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

}  // namespace
