// Misuse table, the lifecycle: profiling out of order, handles used after aclrtResetDevice and
// after aclFinalize, and the functions no argument can make fail.
#include <cmath>  // NAN
#include <cstdint>
#include <string>

#include "acl/acl_prof.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "misuse_table.h"

TEST(MisuseTable, ProfilingOutOfOrder) {
    uint32_t devices[1] = {0};
    aclprofConfig* config =
        aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
    ASSERT_NE(config, nullptr);
    const std::vector<MisuseRow> rows = {
        {"aclprofInit(NULL, 0)", [] { return aclprofInit(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofInit(path, 5000) longer than 4096", [] { return aclprofInit("/tmp", 5000); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofStart(config) before aclprofInit", [&] { return aclprofStart(config); },
         ACL_ERROR_PROF_NOT_RUN},
        {"aclprofStop(config) before aclprofInit", [&] { return aclprofStop(config); },
         ACL_ERROR_PROF_NOT_RUN},
        {"aclprofFinalize() before aclprofInit", [] { return aclprofFinalize(); },
         ACL_ERROR_PROF_NOT_RUN},
        {"aclprofCreateConfig(NULL, 1, ...)",
         [] {
             return aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofCreateConfig(device 64, ...)",
         [] {
             uint32_t missing[1] = {64};
             return aclprofCreateConfig(missing, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME)
                        ? ACL_SUCCESS
                        : RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofDestroyConfig(NULL)", [] { return aclprofDestroyConfig(nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
}

TEST(MisuseTable, HandlesAfterResetDeviceAndFinalize) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // releases what the device held
    ExpectEveryRowFails(
        {{"aclrtSynchronizeDevice() with no device set", [] { return aclrtSynchronizeDevice(); },
          ACL_ERROR_RT_CONTEXT_NULL},
         {"aclrtSynchronizeStream(stream) with no device set",
          [&] { return aclrtSynchronizeStream(stream); }, ACL_ERROR_RT_CONTEXT_NULL}});

    // The device again, with nothing created on it yet that could take the old handles' places.
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ExpectEveryRowFails({
        {"aclrtSynchronizeStream(stream of a reset device)",
         [&] { return aclrtSynchronizeStream(stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordEvent(event of a reset device, NULL)",
         [&] { return aclrtRecordEvent(event, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFree(memory of a reset device)", [&] { return aclrtFree(dev); },
         ACL_ERROR_INVALID_PARAM},
    });

    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    const std::string path = std::string(OPENACL_ONNX_TESTDATA) + "/node/test_relu/model.onnx";
    uint32_t model = 0;
    ASSERT_EQ(aclmdlLoadFromFile(path.c_str(), &model), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);  // resets the device and unloads the model
    ExpectEveryRowFails({
        {"aclrtDestroyStream(stream) after aclFinalize: no context",
         [&] { return aclrtDestroyStream(stream); }, ACL_ERROR_RT_CONTEXT_NULL},
        {"aclmdlUnload(model) after aclFinalize", [&] { return aclmdlUnload(model); },
         ACL_ERROR_INVALID_MODEL_ID},
        {"aclFinalize() again", [] { return aclFinalize(); }, ACL_ERROR_REPEAT_FINALIZE},
    });
}

// Functions whose every argument is valid, or that take none: calls at the edges answer as
// documented and record nothing. (The coverage check below lists them.)
TEST(MisuseTable, FunctionsWithoutBadInputAnswerAtTheirEdges) {
    aclGetRecentErrMsg();
    aclDestroyTensorDesc(nullptr);                                 // documented no-op
    EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(99)), 0u);  // no fixed size
    EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
    EXPECT_EQ(aclFloat16ToFloat(aclFloatToFloat16(NAN)), 65504.0f);  // saturates, as CANN does
    EXPECT_EQ(aclFloat16ToFloat(aclFloatToFloat16(-1e10f)), -65504.0f);
    aclAppLog(static_cast<aclLogLevel>(99), "f", "file", 1, "%s", "level out of range");
    aclAppLog(ACL_ERROR, nullptr, nullptr, 0, "%s", "no function or file");
    EXPECT_NE(aclrtGetSocName(), nullptr);
    aclmdlDesc* desc = aclmdlCreateDesc();
    aclmdlDataset* dataset = aclmdlCreateDataset();
    aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
    EXPECT_NE(desc, nullptr);
    EXPECT_NE(dataset, nullptr);
    EXPECT_NE(config, nullptr);
    EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
    aclIntArray* ints = aclCreateIntArray(nullptr, 5);  // null values: an empty array
    aclFloatArray* floats = aclCreateFloatArray(nullptr, 0);
    aclBoolArray* bools = aclCreateBoolArray(nullptr, 3);
    uint64_t size = 99;
    EXPECT_EQ(aclGetIntArraySize(ints, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 0u);
    EXPECT_EQ(aclDestroyIntArray(ints), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyFloatArray(floats), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyBoolArray(bools), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);  // without aclnnInit too
    aclopAttr* attr = aclopCreateAttr();
    EXPECT_NE(attr, nullptr);
    aclopDestroyAttr(attr);
    aclopDestroyAttr(nullptr);  // documented no-op
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "none of these is an error";
}
