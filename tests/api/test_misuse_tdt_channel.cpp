// Misuse table, TDT data channels (acl/acl_tdt.h): data items, datasets and channels.
#include <cstdint>
#include <string>

#include "acl/acl_tdt.h"
#include "misuse_table.h"

TEST(MisuseTable, TdtDataChannels) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int32_t value = 1;
    int64_t dims[2] = {1, 1};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, &value, sizeof value);
    acltdtDataItem* destroyed_item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, &value, sizeof value);
    acltdtDataset* dataset = acltdtCreateDataset();
    acltdtDataset* destroyed_dataset = acltdtCreateDataset();
    acltdtDataset* empty = acltdtCreateDataset();
    acltdtChannelHandle* channel = acltdtCreateChannelWithCapacity(0, "misuse", 2);
    acltdtChannelHandle* plain = acltdtCreateChannel(0, "misuse_plain");
    acltdtChannelHandle* destroyed_channel = acltdtCreateChannelWithCapacity(0, "gone", 2);
    ASSERT_NE(item, nullptr);
    ASSERT_NE(channel, nullptr);
    ASSERT_NE(plain, nullptr);
    ASSERT_EQ(acltdtAddDataItem(dataset, item), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyDataItem(destroyed_item), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyDataset(destroyed_dataset), ACL_SUCCESS);
    ASSERT_EQ(acltdtDestroyChannel(destroyed_channel), ACL_SUCCESS);
    const std::string too_long(128, 'n');
    size_t size = 0, slice = 0;

    const std::vector<MisuseRow> rows = {
        {"acltdtGetTensorTypeFromItem(NULL)",
         [] {
             return acltdtGetTensorTypeFromItem(nullptr) == ACL_TENSOR_DATA_UNDEFINED
                        ? RecordedError()
                        : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDataTypeFromItem(destroyed)",
         [&] {
             return acltdtGetDataTypeFromItem(destroyed_item) == ACL_DT_UNDEFINED ? RecordedError()
                                                                                  : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDataAddrFromItem(NULL)",
         [] { return acltdtGetDataAddrFromItem(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDataSizeFromItem(destroyed)",
         [&] { return acltdtGetDataSizeFromItem(destroyed_item) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDimNumFromItem(NULL)",
         [] { return acltdtGetDimNumFromItem(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetSliceInfoFromItem(NULL sliceId)",
         [&] { return acltdtGetSliceInfoFromItem(item, &slice, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDimsFromItem(dimNum 0 for a 1-d item)",
         [&] { return acltdtGetDimsFromItem(item, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDimsFromItem(dims NULL, dimNum 2)",
         [&] { return acltdtGetDimsFromItem(item, nullptr, 2); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtCreateDataItem(dims NULL, dimNum 2)",
         [&] {
             return acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 2, ACL_INT32, &value,
                                         sizeof value)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtCreateDataItem(dims for an end-of-sequence marker)",
         [&] {
             return acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 1, ACL_INT32,
                                         nullptr, 0)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDestroyDataItem(destroyed)", [&] { return acltdtDestroyDataItem(destroyed_item); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDestroyDataset(NULL)", [] { return acltdtDestroyDataset(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDataItem(index 1 of 1)",
         [&] { return acltdtGetDataItem(dataset, 1) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtAddDataItem(destroyed dataset)",
         [&] { return acltdtAddDataItem(destroyed_dataset, item); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtAddDataItem(NULL item)", [&] { return acltdtAddDataItem(dataset, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDatasetSize(NULL)",
         [] { return acltdtGetDatasetSize(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtGetDatasetName(destroyed)",
         [&] { return acltdtGetDatasetName(destroyed_dataset) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtStopChannel(NULL)", [] { return acltdtStopChannel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtCreateChannel(NULL name)",
         [] { return acltdtCreateChannel(0, nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtCreateChannelWithCapacity(capacity 1)",
         [] { return acltdtCreateChannelWithCapacity(0, "c", 1) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtCreateChannelWithCapacity(128-character name)",
         [&] {
             return acltdtCreateChannelWithCapacity(0, too_long.c_str(), 2) ? ACL_SUCCESS
                                                                            : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtDestroyChannel(destroyed)", [&] { return acltdtDestroyChannel(destroyed_channel); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtCleanChannel(a channel without capacity)",
         [&] { return acltdtCleanChannel(plain); }, ACL_ERROR_FEATURE_UNSUPPORTED},
        {"acltdtSendTensor(empty dataset)", [&] { return acltdtSendTensor(channel, empty, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtSendTensor(timeout -2)", [&] { return acltdtSendTensor(channel, dataset, -2); },
         ACL_ERROR_INVALID_PARAM},
        {"acltdtReceiveTensor(a dataset the program filled)",
         [&] { return acltdtReceiveTensor(channel, dataset, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtReceiveTensor(destroyed channel)",
         [&] { return acltdtReceiveTensor(destroyed_channel, empty, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtQueryChannelSize(NULL size)",
         [&] { return acltdtQueryChannelSize(channel, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"acltdtQueryChannelSize(a channel without capacity)",
         [&] { return acltdtQueryChannelSize(plain, &size); }, ACL_ERROR_FEATURE_UNSUPPORTED},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyChannel(plain), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyDataset(empty), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
