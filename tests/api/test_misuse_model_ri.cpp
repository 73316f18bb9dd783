// Misuse table, the aclmdlRI* functions: the capture queries, capture and build, replay,
// names and ids, task getters and the debug printers.
#include "misuse_table.h"

TEST(MisuseTable, ModelRiQueries) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclmdlRICaptureStatus status{};
    auto bad_mode = static_cast<aclmdlRICaptureMode>(7);
    int not_a_stream = 0;
    const std::vector<MisuseRow> rows = {
        {"aclmdlRICaptureGetInfo(NULL status)",
         [&] { return aclmdlRICaptureGetInfo(nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureGetInfo(not a stream)",
         [&] { return aclmdlRICaptureGetInfo(&not_a_stream, &status, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureThreadExchangeMode(NULL)",
         [&] { return aclmdlRICaptureThreadExchangeMode(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureThreadExchangeMode(mode 7)",
         [&] { return aclmdlRICaptureThreadExchangeMode(&bad_mode); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtResetDeviceForce(0);
}

TEST(MisuseTable, ModelRiCaptureAndReplay) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int not_a_model = 0;
    int not_a_stream = 0;
    int not_a_task = 0;
    aclmdlRI model = nullptr;
    aclmdlRI* no_model = nullptr;
    aclrtStream plain = nullptr;
    ASSERT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
    auto bad_mode = static_cast<aclmdlRICaptureMode>(7);
    uint32_t u32 = 0;
    char name[8];
    aclrtStream streams[1];
    aclmdlRITaskType type{};
    aclmdlRITaskParams params{};
    aclrtCallback callback = [](void*) {};
    aclrtLaunchKernelAttrValue attr{};
    aclrtTaskGrp group = nullptr;
    aclmdlRICondHandle cond = nullptr;
    uint64_t* cond_ptr = nullptr;
    aclmdlRI branches[2] = {};
    const aclmdlRICondTaskParams cond_params{&not_a_task, ACL_MODEL_RI_COND_TYPE_IF, 1, branches};
    const std::vector<MisuseRow> rows = {
        {"aclmdlRICaptureBegin(mode 7)", [&] { return aclmdlRICaptureBegin(plain, bad_mode); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureBegin(not a stream)",
         [&] { return aclmdlRICaptureBegin(&not_a_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureToModelRIBegin(NULL model)",
         [&] {
             return aclmdlRICaptureToModelRIBegin(plain, nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureToModelRIBegin(not a branch of a conditional task)",
         [&] {
             return aclmdlRICaptureToModelRIBegin(plain, model, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureBegin(the default stream)",
         [&] { return aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclmdlRICaptureEnd(NULL out)", [&] { return aclmdlRICaptureEnd(plain, no_model); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureEnd(not captured)",
         [&] {
             aclmdlRI out = nullptr;
             return aclmdlRICaptureEnd(plain, &out);
         },
         ACL_ERROR_RT_STREAM_NOT_CAPTURED},
        {"aclmdlRIBuildBegin(NULL)", [&] { return aclmdlRIBuildBegin(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIBuildBegin(flag 1)",
         [&] {
             aclmdlRI out = nullptr;
             return aclmdlRIBuildBegin(&out, 1);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIBindStream(not a model)",
         [&] { return aclmdlRIBindStream(&not_a_model, plain, ACL_MODEL_STREAM_FLAG_HEAD); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIBindStream(NULL stream)",
         [&] { return aclmdlRIBindStream(model, nullptr, ACL_MODEL_STREAM_FLAG_HEAD); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIBindStream(a stream without ACL_STREAM_PERSISTENT)",
         [&] { return aclmdlRIBindStream(model, plain, ACL_MODEL_STREAM_FLAG_HEAD); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIBindStream(flag 9)", [&] { return aclmdlRIBindStream(model, plain, 9); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIEndTask(a stream not bound)", [&] { return aclmdlRIEndTask(model, plain); },
         ACL_ERROR_RT_STREAM_MODEL},
        {"aclmdlRIUnbindStream(a stream not bound)",
         [&] { return aclmdlRIUnbindStream(model, plain); }, ACL_ERROR_RT_STREAM_MODEL},
        {"aclmdlRIBuildEnd(reserve not NULL)",
         [&] { return aclmdlRIBuildEnd(model, &not_a_model); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIBuildEnd(not a model)", [&] { return aclmdlRIBuildEnd(&not_a_model, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIExecuteAsync(NULL model)", [&] { return aclmdlRIExecuteAsync(nullptr, plain); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIExecuteAsync(a model being built)",
         [&] { return aclmdlRIExecuteAsync(model, plain); }, ACL_ERROR_RT_MODEL_CAPTURED},
        {"aclmdlRIExecute(timeout 0)", [&] { return aclmdlRIExecute(model, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIExecute(not a model)", [&] { return aclmdlRIExecute(&not_a_model, -1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIDestroy(not a model)", [&] { return aclmdlRIDestroy(&not_a_model); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIUpdate(a built model)", [&] { return aclmdlRIUpdate(model); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclmdlRIUpdate(not a model)", [&] { return aclmdlRIUpdate(&not_a_model); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIAbort(not a model)", [&] { return aclmdlRIAbort(&not_a_model); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIAbort(a model being built)", [&] { return aclmdlRIAbort(model); },
         ACL_ERROR_RT_MODEL_CAPTURED},
        {"aclmdlRISetName(NULL name)", [&] { return aclmdlRISetName(model, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIGetName(maxLen 0)", [&] { return aclmdlRIGetName(model, 0, name); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIGetName(NULL name)", [&] { return aclmdlRIGetName(model, 8, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIGetId(NULL)", [&] { return aclmdlRIGetId(model, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIGetId(not a model)", [&] { return aclmdlRIGetId(&not_a_model, &u32); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIDestroyRegisterCallback(NULL func)",
         [&] { return aclmdlRIDestroyRegisterCallback(model, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIDestroyUnregisterCallback(NULL func)",
         [&] { return aclmdlRIDestroyUnregisterCallback(model, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIDestroyUnregisterCallback(not a model)",
         [&] { return aclmdlRIDestroyUnregisterCallback(&not_a_model, callback); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIGetStreams(NULL count)",
         [&] { return aclmdlRIGetStreams(model, streams, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIGetTasksByStream(NULL count)",
         [&] { return aclmdlRIGetTasksByStream(plain, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIGetTasksByStream(a stream of no model)",
         [&] { return aclmdlRIGetTasksByStream(plain, nullptr, &u32); }, ACL_ERROR_RT_STREAM_MODEL},
        {"aclmdlRITaskGetSeqId(not a task)",
         [&] { return aclmdlRITaskGetSeqId(&not_a_task, &u32); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRITaskGetType(not a task)", [&] { return aclmdlRITaskGetType(&not_a_task, &type); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRITaskGetParams(NULL params)",
         [&] { return aclmdlRITaskGetParams(&not_a_task, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRITaskGetParams(not a task)",
         [&] { return aclmdlRITaskGetParams(&not_a_task, &params); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRITaskDisable(not a task)", [&] { return aclmdlRITaskDisable(&not_a_task); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRITaskSetParams(NULL params)",
         [&] { return aclmdlRITaskSetParams(&not_a_task, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRITaskSetParams(not a task)",
         [&] { return aclmdlRITaskSetParams(&not_a_task, &params); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIKernelTaskGetAttribute(NULL value)",
         [&] {
             return aclmdlRIKernelTaskGetAttribute(&not_a_task, ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT,
                                                   nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIKernelTaskGetAttribute(not a task)",
         [&] {
             return aclmdlRIKernelTaskGetAttribute(&not_a_task, ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT,
                                                   &attr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureTaskGrpBegin(a stream not captured)",
         [&] { return aclmdlRICaptureTaskGrpBegin(plain); }, ACL_ERROR_RT_STREAM_NOT_CAPTURED},
        {"aclmdlRICaptureTaskGrpEnd(NULL handle)",
         [&] { return aclmdlRICaptureTaskGrpEnd(plain, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureTaskGrpEnd(a stream not captured)",
         [&] { return aclmdlRICaptureTaskGrpEnd(plain, &group); },
         ACL_ERROR_RT_STREAM_NOT_CAPTURED},
        {"aclmdlRICaptureTaskUpdateBegin(NULL handle)",
         [&] { return aclmdlRICaptureTaskUpdateBegin(plain, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureTaskUpdateBegin(not a task group)",
         [&] { return aclmdlRICaptureTaskUpdateBegin(plain, &not_a_task); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureTaskUpdateEnd(a stream not updating)",
         [&] { return aclmdlRICaptureTaskUpdateEnd(plain); }, ACL_ERROR_STREAM_TASK_GROUP_STATUS},
        {"aclmdlRICondHandleCreate(NULL handle)",
         [&] {
             return aclmdlRICondHandleCreate(model, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT,
                                             nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICondHandleCreate(a built model)",
         [&] {
             return aclmdlRICondHandleCreate(model, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT,
                                             &cond);
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclmdlRICondHandleCreate(flag 5)",
         [&] {
             return aclmdlRICondHandleCreate(model, 0, static_cast<aclmdlRICondHandleFlag>(5),
                                             &cond);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICondHandleGetCondPtr(NULL ptr)",
         [&] { return aclmdlRICondHandleGetCondPtr(&not_a_task, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICondHandleGetCondPtr(not a handle)",
         [&] { return aclmdlRICondHandleGetCondPtr(&not_a_task, &cond_ptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIAddCondTask(flags 1)", [&] { return aclmdlRIAddCondTask(cond_params, plain, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIAddCondTask(not a handle)",
         [&] { return aclmdlRIAddCondTask(cond_params, plain, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIAddCondTask(an IF of 3 branches)",
         [&] {
             aclmdlRICondTaskParams three = cond_params;
             three.size = 3;
             return aclmdlRIAddCondTask(three, plain, 0);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIAddCondTask(type 9)",
         [&] {
             aclmdlRICondTaskParams bad = cond_params;
             bad.type = static_cast<aclmdlRICondTaskType>(9);
             return aclmdlRIAddCondTask(bad, plain, 0);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIAddCondTask(NULL modelRIArray)",
         [&] {
             aclmdlRICondTaskParams bad = cond_params;
             bad.modelRIArray = nullptr;
             return aclmdlRIAddCondTask(bad, plain, 0);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIDebugPrint(not a model)", [&] { return aclmdlRIDebugPrint(&not_a_model); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRIDebugJsonPrint(NULL path)",
         [&] { return aclmdlRIDebugJsonPrint(model, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(plain);
    aclrtResetDeviceForce(0);
}

TEST(MisuseTable, LabelsAndStreamSwitching) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream plain = nullptr;
    ASSERT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
    int not_a_label = 0;
    uint32_t index = 0;
    aclrtLabel label = nullptr;
    ASSERT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
    aclrtLabel labels[1] = {&not_a_label};
    aclrtLabelList list = nullptr;
    const std::vector<MisuseRow> rows = {
        {"aclrtCreateLabel(NULL)", [&] { return aclrtCreateLabel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetLabel(not a label)", [&] { return aclrtSetLabel(&not_a_label, plain); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetLabel(a stream not bound to a model)",
         [&] { return aclrtSetLabel(label, plain); }, ACL_ERROR_RT_STREAM_MODEL},
        {"aclrtDestroyLabel(not a label)", [&] { return aclrtDestroyLabel(&not_a_label); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateLabelList(num 0)", [&] { return aclrtCreateLabelList(&label, 0, &list); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateLabelList(NULL labels)",
         [&] { return aclrtCreateLabelList(nullptr, 1, &list); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateLabelList(NULL out)", [&] { return aclrtCreateLabelList(&label, 1, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateLabelList(not a label)",
         [&] { return aclrtCreateLabelList(labels, 1, &list); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyLabelList(not a list)", [&] { return aclrtDestroyLabelList(&not_a_label); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSwitchLabelByIndex(NULL ptr)",
         [&] { return aclrtSwitchLabelByIndex(nullptr, 1, &not_a_label, plain); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSwitchLabelByIndex(not a list)",
         [&] { return aclrtSwitchLabelByIndex(&index, 1, &not_a_label, plain); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtActiveStream(NULL activeStream)", [&] { return aclrtActiveStream(nullptr, plain); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtActiveStream(a stream not bound to a model)",
         [&] { return aclrtActiveStream(plain, plain); }, ACL_ERROR_RT_STREAM_MODEL},
        {"aclrtSwitchStream(cond 9)",
         [&] {
             return aclrtSwitchStream(&index, static_cast<aclrtCondition>(9), &index,
                                      ACL_RT_SWITCH_INT32, plain, nullptr, plain);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSwitchStream(dataType 5)",
         [&] {
             return aclrtSwitchStream(&index, ACL_RT_EQUAL, &index,
                                      static_cast<aclrtCompareDataType>(5), plain, nullptr, plain);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSwitchStream(NULL leftValue)",
         [&] {
             return aclrtSwitchStream(nullptr, ACL_RT_EQUAL, &index, ACL_RT_SWITCH_INT32, plain,
                                      nullptr, plain);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSwitchStream(host memory values)",
         [&] {
             return aclrtSwitchStream(&index, ACL_RT_EQUAL, &index, ACL_RT_SWITCH_INT32, plain,
                                      nullptr, plain);
         },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtDestroyLabel(label), ACL_SUCCESS);
    aclrtDestroyStream(plain);
    aclrtResetDeviceForce(0);
}
