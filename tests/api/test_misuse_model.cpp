// Misuse table, models: descriptions, datasets, loading, execution and configuration handles.
#include <cstdint>
#include <string>

#include "misuse_table.h"

TEST(MisuseTable, ModelsDescriptionsAndDatasets) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    const std::string path = std::string(OPENACL_ONNX_TESTDATA) + "/node/test_relu/model.onnx";
    uint32_t model = 0;
    ASSERT_EQ(aclmdlLoadFromFile(path.c_str(), &model), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclmdlDesc* desc = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(desc, model), ACL_SUCCESS);
    aclmdlDataset* dataset = aclmdlCreateDataset();
    ASSERT_NE(dataset, nullptr);
    aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
    ASSERT_NE(config, nullptr);
    aclrtStream destroyed_stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&destroyed_stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(destroyed_stream), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t dims[1] = {4};
    aclTensorDesc* tensor = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    const char garbage[] = "not a model at all, neither ONNX nor .om";
    const uint32_t kNoSuchModel = 9999;

    uint32_t id = 0;
    size_t work = 0, weight = 0, index = 0;
    aclmdlIODims io{};
    aclmdlBatch batch{};
    aclmdlHW hw{};
    int32_t priority = 0;

    const std::vector<MisuseRow> rows = {
        // Descriptions.
        {"aclmdlDestroyDesc(NULL)", [] { return aclmdlDestroyDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDesc(NULL, model)", [&] { return aclmdlGetDesc(nullptr, model); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDesc(desc, 9999)", [&] { return aclmdlGetDesc(desc, kNoSuchModel); },
         ACL_ERROR_INVALID_MODEL_ID},
        {"aclmdlGetDescFromFile(desc, NULL)", [&] { return aclmdlGetDescFromFile(desc, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDescFromFile(desc, /nonexistent.om)",
         [&] { return aclmdlGetDescFromFile(desc, "/nonexistent.om"); },
         ACL_ERROR_READ_MODEL_FAILURE},
        {"aclmdlGetDescFromMem(desc, NULL, 64)",
         [&] { return aclmdlGetDescFromMem(desc, nullptr, 64); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetNumInputs(NULL)",
         [] { return aclmdlGetNumInputs(nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetNumOutputs(NULL)",
         [] { return aclmdlGetNumOutputs(nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputSizeByIndex(desc, 9)",
         [&] { return aclmdlGetInputSizeByIndex(desc, 9) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetOutputSizeByIndex(NULL, 0)",
         [] { return aclmdlGetOutputSizeByIndex(nullptr, 0) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDims(desc, 9, &dims)", [&] { return aclmdlGetInputDims(desc, 9, &io); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDims(desc, 0, NULL)", [&] { return aclmdlGetInputDims(desc, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDimsV2(NULL, 0, &dims)",
         [&] { return aclmdlGetInputDimsV2(nullptr, 0, &io); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetOutputDims(desc, 9, &dims)", [&] { return aclmdlGetOutputDims(desc, 9, &io); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetCurOutputDims(desc, 9, &dims)",
         [&] { return aclmdlGetCurOutputDims(desc, 9, &io); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputNameByIndex(desc, 9)",
         [&] {
             const char* name = aclmdlGetInputNameByIndex(desc, 9);
             return name == nullptr || *name == '\0' ? RecordedError() : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetOutputNameByIndex(NULL, 0)",
         [] {
             const char* name = aclmdlGetOutputNameByIndex(nullptr, 0);
             return name == nullptr || *name == '\0' ? RecordedError() : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputFormat(desc, 9)",
         [&] {
             return aclmdlGetInputFormat(desc, 9) == ACL_FORMAT_UNDEFINED ? RecordedError()
                                                                          : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetOutputFormat(NULL, 0)",
         [] {
             return aclmdlGetOutputFormat(nullptr, 0) == ACL_FORMAT_UNDEFINED ? RecordedError()
                                                                              : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDataType(desc, 9)",
         [&] {
             return aclmdlGetInputDataType(desc, 9) == ACL_DT_UNDEFINED ? RecordedError()
                                                                        : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetOutputDataType(NULL, 0)",
         [] {
             return aclmdlGetOutputDataType(nullptr, 0) == ACL_DT_UNDEFINED ? RecordedError()
                                                                            : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputIndexByName(desc, \"no_such_input\", &index)",
         [&] { return aclmdlGetInputIndexByName(desc, "no_such_input", &index); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetOutputIndexByName(desc, NULL, &index)",
         [&] { return aclmdlGetOutputIndexByName(desc, nullptr, &index); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDynamicBatch(NULL, &batch)",
         [&] { return aclmdlGetDynamicBatch(nullptr, &batch); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDynamicHW(desc, 0, NULL)", [&] { return aclmdlGetDynamicHW(desc, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDynamicHW(NULL, 0, &hw)", [&] { return aclmdlGetDynamicHW(nullptr, 0, &hw); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDynamicGearCount(desc, -1, NULL)",
         [&] { return aclmdlGetInputDynamicGearCount(desc, static_cast<size_t>(-1), nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDynamicGearCount(NULL, -1, &count)",
         [&] { return aclmdlGetInputDynamicGearCount(nullptr, static_cast<size_t>(-1), &index); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDynamicDims(desc, -1, &dims, 1) without dims gears",
         [&] { return aclmdlGetInputDynamicDims(desc, static_cast<size_t>(-1), &io, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDynamicDims(desc, -1, NULL, 1)",
         [&] { return aclmdlGetInputDynamicDims(desc, static_cast<size_t>(-1), nullptr, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDimsRange(desc, 9, &range)",
         [&] {
             aclmdlIODimsRange range;
             return aclmdlGetInputDimsRange(desc, 9, &range);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetInputDimsRange(desc, 0, NULL)",
         [&] { return aclmdlGetInputDimsRange(desc, 0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetTensorRealName(desc, \"no_such_tensor\")",
         [&] {
             return aclmdlGetTensorRealName(desc, "no_such_tensor") ? ACL_SUCCESS : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetTensorRealName(NULL, name)",
         [] { return aclmdlGetTensorRealName(nullptr, "x") ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},

        // Datasets.
        {"aclmdlDestroyDataset(NULL)", [] { return aclmdlDestroyDataset(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlAddDatasetBuffer(NULL, buffer)",
         [] {
             char memory[8];
             aclDataBuffer* buffer = aclCreateDataBuffer(memory, sizeof memory);
             const aclError rc = aclmdlAddDatasetBuffer(nullptr, buffer);
             aclDestroyDataBuffer(buffer);
             return rc;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlAddDatasetBuffer(dataset, NULL)",
         [&] { return aclmdlAddDatasetBuffer(dataset, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlSetDatasetTensorDesc(dataset, tensor, 5)",
         [&] { return aclmdlSetDatasetTensorDesc(dataset, tensor, 5); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDatasetTensorDesc(NULL, 0)",
         [] { return aclmdlGetDatasetTensorDesc(nullptr, 0) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDatasetNumBuffers(NULL)",
         [] { return aclmdlGetDatasetNumBuffers(nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlGetDatasetBuffer(dataset, 3)",
         [&] { return aclmdlGetDatasetBuffer(dataset, 3) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},

        // Loading, querying and unloading.
        {"aclmdlLoadFromFile(NULL, &id)", [&] { return aclmdlLoadFromFile(nullptr, &id); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlLoadFromFile(/nonexistent.om, &id)",
         [&] { return aclmdlLoadFromFile("/nonexistent.om", &id); }, ACL_ERROR_READ_MODEL_FAILURE},
        {"aclmdlLoadFromFile(path, NULL)",
         [&] { return aclmdlLoadFromFile(path.c_str(), nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlLoadFromMem(NULL, 64, &id)", [&] { return aclmdlLoadFromMem(nullptr, 64, &id); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlLoadFromMem(garbage, size, &id)",
         [&] { return aclmdlLoadFromMem(garbage, sizeof garbage, &id); }, ACL_ERROR_PARSE_MODEL},
        {"aclmdlLoadFromFileWithMem(path, &id, dev, 1, dev, 1) too small",
         [&] { return aclmdlLoadFromFileWithMem(path.c_str(), &id, dev, 1, dev, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlLoadFromMemWithMem(NULL, 64, &id, ...)",
         [&] { return aclmdlLoadFromMemWithMem(nullptr, 64, &id, nullptr, 0, nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlQuerySize(NULL, &work, &weight)",
         [&] { return aclmdlQuerySize(nullptr, &work, &weight); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlQuerySize(path, NULL, NULL)",
         [&] { return aclmdlQuerySize(path.c_str(), nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlQuerySizeFromMem(NULL, 64, &work, &weight)",
         [&] { return aclmdlQuerySizeFromMem(nullptr, 64, &work, &weight); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlUnload(9999)", [&] { return aclmdlUnload(kNoSuchModel); },
         ACL_ERROR_INVALID_MODEL_ID},

        // Execution.
        {"aclmdlExecute(9999, dataset, dataset)",
         [&] { return aclmdlExecute(kNoSuchModel, dataset, dataset); }, ACL_ERROR_INVALID_MODEL_ID},
        {"aclmdlExecute(model, NULL, dataset)",
         [&] { return aclmdlExecute(model, nullptr, dataset); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlExecuteAsync(model, dataset, dataset, destroyed stream)",
         [&] { return aclmdlExecuteAsync(model, dataset, dataset, destroyed_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlSetDynamicBatchSize(model, dataset, 0, 2) on a static model",
         [&] { return aclmdlSetDynamicBatchSize(model, dataset, 0, 2); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlSetDynamicHWSize(9999, dataset, 0, 8, 8)",
         [&] { return aclmdlSetDynamicHWSize(kNoSuchModel, dataset, 0, 8, 8); },
         ACL_ERROR_INVALID_MODEL_ID},
        {"aclmdlSetInputDynamicDims(9999, dataset, 0, &dims)",
         [&] { return aclmdlSetInputDynamicDims(kNoSuchModel, dataset, 0, &io); },
         ACL_ERROR_INVALID_MODEL_ID},
        {"aclmdlSetInputDynamicDims(model, NULL, 0, &dims)",
         [&] { return aclmdlSetInputDynamicDims(model, nullptr, 0, &io); },
         ACL_ERROR_INVALID_PARAM},

        // Configuration handles.
        {"aclmdlDestroyConfigHandle(NULL)", [] { return aclmdlDestroyConfigHandle(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlSetConfigOpt(config, attr 99, &value, 4)",
         [&] {
             return aclmdlSetConfigOpt(config, static_cast<aclmdlConfigAttr>(99), &priority, 4);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlSetConfigOpt(config, ACL_MDL_PRIORITY_INT32, &value, 1)",
         [&] { return aclmdlSetConfigOpt(config, ACL_MDL_PRIORITY_INT32, &priority, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlSetConfigOpt(NULL, ACL_MDL_PRIORITY_INT32, &value, 4)",
         [&] { return aclmdlSetConfigOpt(nullptr, ACL_MDL_PRIORITY_INT32, &priority, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlLoadWithConfig(NULL, &id)", [&] { return aclmdlLoadWithConfig(nullptr, &id); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlLoadWithConfig(config without a load type, &id)",
         [&] { return aclmdlLoadWithConfig(config, &id); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclDestroyTensorDesc(tensor);
    EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
