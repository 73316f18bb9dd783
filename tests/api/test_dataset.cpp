// acl_mdl.h datasets. None of these tests calls aclInit or sets a device: datasets only hold
// pointers and must work without either.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

aclError LastError() {
    return RecordedError();
}

// A dataset with `count` buffers over a host array, all destroyed at the end of the test.
class DatasetTest : public ::testing::Test {
 protected:
    void SetUp() override {
        dataset_ = aclmdlCreateDataset();
        ASSERT_NE(dataset_, nullptr);
    }
    void TearDown() override {
        if (dataset_ != nullptr) aclmdlDestroyDataset(dataset_);
        for (aclDataBuffer* buffer : buffers_)
            aclDestroyDataBuffer(buffer);
        aclGetRecentErrMsg();
    }

    aclDataBuffer* AddBuffer(size_t size = 16) {
        aclDataBuffer* buffer = aclCreateDataBuffer(memory_, size);
        buffers_.push_back(buffer);
        EXPECT_EQ(aclmdlAddDatasetBuffer(dataset_, buffer), ACL_SUCCESS);
        return buffer;
    }

    static aclTensorDesc* NewDesc(std::vector<int64_t> dims) {
        return aclCreateTensorDesc(ACL_FLOAT, static_cast<int>(dims.size()), dims.data(),
                                   ACL_FORMAT_ND);
    }

    aclmdlDataset* dataset_ = nullptr;
    std::vector<aclDataBuffer*> buffers_;
    char memory_[64] = {};
};

}  // namespace

// ---- buffers ----

TEST_F(DatasetTest, CreateDatasetIsEmpty) {
    EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset_), 0u);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST_F(DatasetTest, AddDatasetBufferAppendsInInsertionOrder) {
    aclDataBuffer* first = AddBuffer(8);
    aclDataBuffer* second = AddBuffer(16);
    aclDataBuffer* third = AddBuffer(32);
    ASSERT_EQ(aclmdlGetDatasetNumBuffers(dataset_), 3u);
    EXPECT_EQ(aclmdlGetDatasetBuffer(dataset_, 0), first);
    EXPECT_EQ(aclmdlGetDatasetBuffer(dataset_, 1), second);
    EXPECT_EQ(aclmdlGetDatasetBuffer(dataset_, 2), third);
}

TEST_F(DatasetTest, AddDatasetBufferAcceptsTheSameBufferTwice) {
    aclDataBuffer* buffer = AddBuffer();
    EXPECT_EQ(aclmdlAddDatasetBuffer(dataset_, buffer), ACL_SUCCESS);
    EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset_), 2u);
}

TEST_F(DatasetTest, AddDatasetBufferWithNullBufferIsRefused) {
    EXPECT_EQ(aclmdlAddDatasetBuffer(dataset_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "aclmdlAddDatasetBuffer failed (error 100000): dataBuffer is null");
    EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset_), 0u);
}

TEST_F(DatasetTest, AddDatasetBufferWithDestroyedBufferIsRefused) {
    aclDataBuffer* buffer = aclCreateDataBuffer(memory_, sizeof memory_);
    ASSERT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    EXPECT_EQ(aclmdlAddDatasetBuffer(dataset_, buffer), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live data buffer");
    EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset_), 0u);
}

TEST_F(DatasetTest, AddDatasetBufferWithForeignPointerIsRefused) {
    int64_t not_a_buffer[4] = {};
    EXPECT_EQ(aclmdlAddDatasetBuffer(dataset_, reinterpret_cast<aclDataBuffer*>(not_a_buffer)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live data buffer");
}

TEST(Dataset, AddDatasetBufferToNullDatasetIsRefused) {
    char memory[8];
    aclDataBuffer* buffer = aclCreateDataBuffer(memory, sizeof memory);
    EXPECT_EQ(aclmdlAddDatasetBuffer(nullptr, buffer), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dataset is null");
    aclDestroyDataBuffer(buffer);
}

TEST_F(DatasetTest, GetDatasetBufferOutOfRangeIsNullWithAMessage) {
    AddBuffer();
    EXPECT_EQ(aclmdlGetDatasetBuffer(dataset_, 1), nullptr);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 1 is out of range: the dataset holds 1 buffer(s)");
}

TEST(Dataset, GetDatasetNumBuffersOfNullDatasetIsZero) {
    EXPECT_EQ(aclmdlGetDatasetNumBuffers(nullptr), 0u);
    EXPECT_THAT_MESSAGE_CONTAINS(
        "aclmdlGetDatasetNumBuffers failed (error 100000): dataset is null");
}

TEST(Dataset, GetDatasetBufferOfNullDatasetIsNull) {
    EXPECT_EQ(aclmdlGetDatasetBuffer(nullptr, 0), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("dataset is null");
}

// ---- destruction ----

TEST_F(DatasetTest, DestroyDatasetLeavesTheBuffersToTheCaller) {
    aclDataBuffer* buffer = AddBuffer();
    ASSERT_EQ(aclmdlDestroyDataset(dataset_), ACL_SUCCESS);
    dataset_ = nullptr;
    EXPECT_EQ(aclGetDataBufferAddr(buffer), memory_);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(Dataset, DestroyDatasetTwiceIsRefused) {
    aclmdlDataset* dataset = aclmdlCreateDataset();
    ASSERT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyDataset(dataset), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live dataset (destroyed already?)");
}

TEST(Dataset, DestroyDatasetOfNullIsRefused) {
    EXPECT_EQ(aclmdlDestroyDataset(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclmdlDestroyDataset failed (error 100000): dataset is null");
}

TEST(Dataset, DestroyedDatasetIsRefusedByEveryFunction) {
    aclmdlDataset* dataset = aclmdlCreateDataset();
    ASSERT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS);
    char memory[8];
    aclDataBuffer* buffer = aclCreateDataBuffer(memory, sizeof memory);
    EXPECT_EQ(aclmdlAddDatasetBuffer(dataset, buffer), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset), 0u);
    EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset, 0), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live dataset");
    aclDestroyDataBuffer(buffer);
}

// ---- tensor descriptors ----

TEST_F(DatasetTest, GetDatasetTensorDescIsNullUntilOneIsSet) {
    AddBuffer();
    EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset_, 0), nullptr);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "no descriptor is a state, not an error";
}

TEST_F(DatasetTest, SetDatasetTensorDescKeepsItsOwnCopy) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({1, 3, 8, 8});
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(desc);
    aclTensorDesc* kept = aclmdlGetDatasetTensorDesc(dataset_, 0);
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ(aclGetTensorDescElementCount(kept), 3u * 8 * 8);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST_F(DatasetTest, SetDatasetTensorDescReplacesThePreviousOne) {
    AddBuffer();
    aclTensorDesc* first = NewDesc({2});
    aclTensorDesc* second = NewDesc({5});
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, first, 0), ACL_SUCCESS);
    aclTensorDesc* old = aclmdlGetDatasetTensorDesc(dataset_, 0);
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, second, 0), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescElementCount(aclmdlGetDatasetTensorDesc(dataset_, 0)), 5u);
    // The previous copy was freed with the replacement.
    EXPECT_EQ(aclGetTensorDescElementCount(old), 0u);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live tensor descriptor");
    aclDestroyTensorDesc(first);
    aclDestroyTensorDesc(second);
}

TEST_F(DatasetTest, SetDatasetTensorDescWithItsOwnDescriptorKeepsIt) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({7});
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(desc);
    aclTensorDesc* own = aclmdlGetDatasetTensorDesc(dataset_, 0);
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, own, 0), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescElementCount(aclmdlGetDatasetTensorDesc(dataset_, 0)), 7u);
}

TEST_F(DatasetTest, SetDatasetTensorDescWithNullClearsIt) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({2});
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, nullptr, 0), ACL_SUCCESS);
    EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset_, 0), nullptr);
    aclDestroyTensorDesc(desc);
}

TEST_F(DatasetTest, SetDatasetTensorDescOutOfRangeIsRefused) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({2});
    EXPECT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 1 is out of range: the dataset holds 1 buffer(s)");
    aclDestroyTensorDesc(desc);
}

TEST_F(DatasetTest, SetDatasetTensorDescWithDestroyedDescIsRefused) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({2});
    aclDestroyTensorDesc(desc);
    EXPECT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("tensorDesc");
    EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset_, 0), nullptr);
}

TEST_F(DatasetTest, GetDatasetTensorDescOutOfRangeIsNullWithAMessage) {
    EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset_, 0), nullptr);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("index 0 is out of range: the dataset holds 0 buffer(s)");
}

TEST_F(DatasetTest, DestroyTensorDescOfADatasetsDescriptorIsRefused) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({2});
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(desc);
    aclTensorDesc* owned = aclmdlGetDatasetTensorDesc(dataset_, 0);
    aclDestroyTensorDesc(owned);
    EXPECT_EQ(LastError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("belongs to a dataset");
    EXPECT_EQ(aclGetTensorDescElementCount(owned), 2u) << "the dataset's copy is still there";
}

TEST_F(DatasetTest, DestroyDatasetFreesItsTensorDescs) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({2});
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(desc);
    aclTensorDesc* owned = aclmdlGetDatasetTensorDesc(dataset_, 0);
    ASSERT_EQ(aclmdlDestroyDataset(dataset_), ACL_SUCCESS);
    dataset_ = nullptr;
    EXPECT_EQ(aclGetTensorDescType(owned), ACL_DT_UNDEFINED);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live tensor descriptor");
}

TEST_F(DatasetTest, DatasetTensorDescCanBeReadAndChangedInPlace) {
    AddBuffer();
    aclTensorDesc* desc = NewDesc({-1, 4});
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(desc);
    int64_t dims[] = {3, 4};
    ASSERT_EQ(aclSetTensorShape(aclmdlGetDatasetTensorDesc(dataset_, 0), 2, dims), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescElementCount(aclmdlGetDatasetTensorDesc(dataset_, 0)), 12u);
}

// ---- no runtime needed ----

TEST_F(DatasetTest, DatasetFunctionsNeedNeitherAclInitNorADevice) {
    int32_t device = -1;
    ASSERT_NE(aclrtGetDevice(&device), ACL_SUCCESS) << "this test expects no device set";
    aclGetRecentErrMsg();
    AddBuffer();
    aclTensorDesc* desc = NewDesc({2});
    EXPECT_EQ(aclmdlSetDatasetTensorDesc(dataset_, desc, 0), ACL_SUCCESS);
    EXPECT_NE(aclmdlGetDatasetBuffer(dataset_, 0), nullptr);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    aclDestroyTensorDesc(desc);
}
