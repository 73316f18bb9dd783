// Misuse table, base types: tensor descriptors, data buffers, type helpers, versions, errors and
// the init/finalize callbacks.
#include <cstdint>

#include "misuse_table.h"

TEST(MisuseTable, TensorDescriptorsAndBaseTypes) {
    const int64_t dims[2] = {2, 3};
    aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    ASSERT_NE(desc, nullptr);
    aclTensorDesc* out = nullptr;
    int64_t i64 = 0;
    int64_t ranges[2][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 4}, {1, 4}};
    int64_t value_ranges[1][ACL_TENSOR_VALUE_RANGE_NUM] = {{0, 1}};
    float data[6] = {};
    size_t count = 0;
    const aclCannAttr* attrs = nullptr;
    aclCANNPackageVersion version{};
    char text[128] = {};
    int32_t i32 = 0;
    const auto kBadFormat = static_cast<aclFormat>(99);

    const std::vector<MisuseRow> rows = {
        {"aclCreateTensorDesc(ACL_FLOAT, -1, dims, ND)",
         [&] {
             return aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND) ? ACL_SUCCESS
                                                                            : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclCreateTensorDesc(ACL_FLOAT, 2, NULL, ND)",
         [&] {
             return aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND) ? ACL_SUCCESS
                                                                              : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclCreateTensorDesc(type 5 (reserved), ...)",
         [&] {
             return aclCreateTensorDesc(static_cast<aclDataType>(5), 2, dims, ACL_FORMAT_ND)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclCreateTensorDesc(..., format 99)",
         [&] {
             return aclCreateTensorDesc(ACL_FLOAT, 2, dims, kBadFormat) ? ACL_SUCCESS
                                                                        : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorShapeRange(NULL, ...)",
         [&] { return aclSetTensorShapeRange(nullptr, 2, ranges); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorShapeRange(desc, 2, NULL)",
         [&] { return aclSetTensorShapeRange(desc, 2, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorValueRange(NULL, ...)",
         [&] { return aclSetTensorValueRange(nullptr, 1, value_ranges); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescType(NULL)",
         [] {
             return aclGetTensorDescType(nullptr) == ACL_DT_UNDEFINED ? RecordedError()
                                                                      : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescFormat(NULL)",
         [] {
             return aclGetTensorDescFormat(nullptr) == ACL_FORMAT_UNDEFINED ? RecordedError()
                                                                            : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescSize(NULL)",
         [] { return aclGetTensorDescSize(nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescElementCount(NULL)",
         [] { return aclGetTensorDescElementCount(nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescNumDims(NULL)",
         [] { return aclGetTensorDescNumDims(nullptr) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescDim(desc, 2)",
         [&] { return aclGetTensorDescDim(desc, 2) == -1 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescDimV2(desc, 2, &dim)",
         [&] { return aclGetTensorDescDimV2(desc, 2, &i64); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescDimV2(desc, 0, NULL)",
         [&] { return aclGetTensorDescDimV2(desc, 0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescDimRange(desc, 0, 2, NULL)",
         [&] { return aclGetTensorDescDimRange(desc, 0, 2, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescDimRange(desc, 7, 2, range)",
         [&] { return aclGetTensorDescDimRange(desc, 7, 2, ranges[0]); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorDescName(NULL, name)",
         [] {
             aclSetTensorDescName(nullptr, "x");
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescName(NULL)",
         [] { return *aclGetTensorDescName(nullptr) == '\0' ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclTransTensorDescFormat(NULL, ...)",
         [&] { return aclTransTensorDescFormat(nullptr, ACL_FORMAT_NCHW, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"aclTransTensorDescFormat(desc, ..., NULL)",
         [&] { return aclTransTensorDescFormat(desc, ACL_FORMAT_NCHW, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorStorageFormat(NULL, ND)",
         [] { return aclSetTensorStorageFormat(nullptr, ACL_FORMAT_ND); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorStorageShape(desc, 2, NULL)",
         [&] { return aclSetTensorStorageShape(desc, 2, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorFormat(desc, format 99)",
         [&] { return aclSetTensorFormat(desc, kBadFormat); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorShape(desc, -1, dims)", [&] { return aclSetTensorShape(desc, -1, dims); },
         ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorOriginFormat(NULL, ND)",
         [] { return aclSetTensorOriginFormat(nullptr, ACL_FORMAT_ND); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorOriginShape(desc, 2, NULL)",
         [&] { return aclSetTensorOriginShape(desc, 2, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescByIndex(NULL, 0)",
         [] { return aclGetTensorDescByIndex(nullptr, 0) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetTensorDescAddress(NULL)",
         [] { return aclGetTensorDescAddress(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorDynamicInput(desc, NULL)",
         [&] { return aclSetTensorDynamicInput(desc, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorConst(desc, NULL, 24)", [&] { return aclSetTensorConst(desc, nullptr, 24); },
         ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorConst(desc, data, 0)", [&] { return aclSetTensorConst(desc, data, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorPlaceMent(NULL, ACL_MEMTYPE_HOST)",
         [] { return aclSetTensorPlaceMent(nullptr, ACL_MEMTYPE_HOST); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetTensorPlaceMent(desc, type 99)",
         [&] { return aclSetTensorPlaceMent(desc, static_cast<aclMemType>(99)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclCreateDataBuffer(NULL, 64)",
         [] { return aclCreateDataBuffer(nullptr, 64) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetCannAttributeList(NULL, &num)",
         [&] { return aclGetCannAttributeList(nullptr, &count); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetCannAttributeList(&list, NULL)",
         [&] { return aclGetCannAttributeList(&attrs, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclsysGetCANNVersion(name 99, &version)",
         [&] { return aclsysGetCANNVersion(static_cast<aclCANNPackageName>(99), &version); },
         ACL_ERROR_INVALID_PARAM},
        {"aclsysGetCANNVersion(ACL_PKG_NAME_CANN, NULL)",
         [] { return aclsysGetCANNVersion(ACL_PKG_NAME_CANN, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclsysGetVersionStr(NULL, text)", [&] { return aclsysGetVersionStr(nullptr, text); },
         ACL_ERROR_INVALID_PARAM},
        {"aclsysGetVersionNum(\"no-such-package\", &num)",
         [&] {
             char name[] = "no-such-package";
             return aclsysGetVersionNum(name, &i32);
         },
         ACL_ERROR_INVALID_FILE},
        {"aclrtGetLastError(level 7)",
         [] { return aclrtGetLastError(static_cast<aclrtLastErrLevel>(7)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclInitCallbackUnRegister(type, never registered)",
         [] {
             return aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER,
                                              [](const char*, size_t, void*) { return 0; });
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclFinalizeCallbackRegister(type, NULL, NULL)",
         [] { return aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclFinalizeCallbackUnRegister(type, never registered)",
         [] { return aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, [](void*) { return 0; }); },
         ACL_ERROR_INVALID_PARAM},
        {"aclFinalizeReference(&count) without aclInit",
         [] {
             uint64_t remaining = 0;
             return aclFinalizeReference(&remaining);
         },
         ACL_ERROR_REPEAT_FINALIZE},
    };
    ExpectEveryRowFails(rows);
    aclDestroyTensorDesc(desc);
}
