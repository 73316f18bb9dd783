// Changing captured models: new task parameters and disabled tasks take effect with
// aclmdlRIUpdate on an idle model; task groups are patched by the launches another stream issues
// between aclmdlRICaptureTaskUpdateBegin and End, also while the model runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "model_ri_fixture.h"

namespace {

class ModelRiUpdate : public ModelRiCapture {
 protected:
    // Captures `work` on stream_ into a new model.
    template <class Work>
    aclmdlRI Capture(Work work) {
        EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
        work();
        aclmdlRI model = nullptr;
        EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
        return model;
    }
    std::vector<aclmdlRITask> Tasks() {
        uint32_t count = 0;
        EXPECT_EQ(aclmdlRIGetTasksByStream(stream_, nullptr, &count), ACL_SUCCESS);
        std::vector<aclmdlRITask> tasks(count);
        EXPECT_EQ(aclmdlRIGetTasksByStream(stream_, tasks.data(), &count), ACL_SUCCESS);
        return tasks;
    }
    void Run(aclmdlRI model) {
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    }
};

TEST_F(ModelRiUpdate, NewKernelArgumentsRunAfterUpdate) {
    aclmdlRI model = Capture([&] { ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS); });
    const std::vector<aclmdlRITask> tasks = Tasks();
    ASSERT_EQ(tasks.size(), 1u);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
    uint64_t args[4] = {reinterpret_cast<uint64_t>(x_), reinterpret_cast<uint64_t>(x_),
                        reinterpret_cast<uint64_t>(z_), kCount};  // z = 2x
    params.kernelTaskParams.args = args;
    params.kernelTaskParams.argsSize = sizeof args;
    params.kernelTaskParams.isHostArgs = 1;
    ASSERT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_MODEL_EXECUTE);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclmdlRIUpdate"), std::string::npos);
    ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
    Run(model);
    EXPECT_EQ(Read(z_)[21], 42.0f);
    aclmdlRITaskParams now{};
    ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &now), ACL_SUCCESS);
    EXPECT_EQ(now.kernelTaskParams.argsSize, sizeof args);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiUpdate, ARunningModelCannotBeChanged) {
    aclmdlRI model = Capture([&] { ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS); });
    const std::vector<aclmdlRITask> tasks = Tasks();
    aclrtEvent gate = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&gate, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtStream opener = nullptr;
    ASSERT_EQ(aclrtCreateStream(&opener), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(
                  opener, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); },
                  nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(gate, opener), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, gate), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    EXPECT_EQ(aclmdlRITaskDisable(tasks[0]), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    EXPECT_EQ(aclmdlRIUpdate(model), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS) << "idle again";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyEvent(gate);
    aclrtDestroyStream(opener);
}

TEST_F(ModelRiUpdate, OnlyKernelAndValueTasksTakeNewParameters) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclmdlRI model = Capture([&] {
        ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtRecordEventWithFlag(event, stream_, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
    });
    const std::vector<aclmdlRITask> tasks = Tasks();
    ASSERT_EQ(tasks.size(), 2u);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(tasks[1], &params), ACL_SUCCESS);
    EXPECT_EQ(params.type, ACL_MODEL_RI_TASK_EVENT_RECORD);
    EXPECT_EQ(params.eventRecordTaskParams.event, event);
    EXPECT_EQ(params.eventRecordTaskParams.recordFlag, ACL_EVENT_RECORD_EXTERNAL);
    EXPECT_EQ(aclmdlRITaskSetParams(tasks[1], &params), ACL_ERROR_INVALID_PARAM);
    params.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_ERROR_INVALID_PARAM)
        << "a task keeps its type";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyEvent(event);
}

TEST_F(ModelRiUpdate, AValueWriteTakesANewValue) {
    void* flag = nullptr;
    ASSERT_EQ(aclrtMalloc(&flag, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclmdlRI model = Capture([&] { ASSERT_EQ(aclrtValueWrite(flag, 5, 0, stream_), ACL_SUCCESS); });
    const std::vector<aclmdlRITask> tasks = Tasks();
    aclmdlRITaskType type{};
    ASSERT_EQ(aclmdlRITaskGetType(tasks[0], &type), ACL_SUCCESS);
    EXPECT_EQ(type, ACL_MODEL_RI_TASK_VALUE_WRITE);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
    EXPECT_EQ(params.valueWriteTaskParams.devAddr, flag);
    EXPECT_EQ(params.valueWriteTaskParams.value, 5u);
    params.valueWriteTaskParams.value = 9;
    ASSERT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
    Run(model);
    uint64_t value = 0;
    ASSERT_EQ(aclrtMemcpy(&value, 8, flag, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(value, 9u);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtFree(flag);
}

TEST_F(ModelRiUpdate, AKernelTaskReportsTheAttributesOfItsLaunch) {
    aclrtLaunchKernelAttr attrs[2] = {};
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attrs[0].value.timeoutUs.timeoutLow = 2500000;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[1].value.schemMode = 1;
    aclrtLaunchKernelCfg cfg{attrs, 2};
    uint64_t args[4] = {reinterpret_cast<uint64_t>(x_), reinterpret_cast<uint64_t>(y_),
                        reinterpret_cast<uint64_t>(z_), kCount};
    aclmdlRI model = Capture([&] {
        ASSERT_EQ(
            aclrtLaunchKernelWithHostArgs(add_, 2, stream_, &cfg, args, sizeof args, nullptr, 0),
            ACL_SUCCESS);
    });
    const std::vector<aclmdlRITask> tasks = Tasks();
    aclrtLaunchKernelAttrValue value{};
    ASSERT_EQ(
        aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &value),
        ACL_SUCCESS);
    EXPECT_EQ(value.timeoutUs.timeoutLow, 2500000u);
    EXPECT_EQ(value.timeoutUs.timeoutHigh, 0u);
    ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &value),
              ACL_SUCCESS);
    EXPECT_EQ(value.timeout, 2u);
    ASSERT_EQ(
        aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &value),
        ACL_SUCCESS);
    EXPECT_EQ(value.schemMode, 1u);
    EXPECT_EQ(
        aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &value),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiUpdate, ATaskGroupIsPatchedByTheLaunchesOfAnUpdate) {
    aclrtTaskGrp group = nullptr;
    aclmdlRI model = Capture([&] {
        ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
        ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_SUCCESS);
    });
    ASSERT_NE(group, nullptr);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(Tasks()[0], &params), ACL_SUCCESS);
    EXPECT_EQ(params.taskGrp, group);
    aclrtStream updater = nullptr;
    ASSERT_EQ(aclrtCreateStream(&updater), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, x_, z_, updater), ACL_SUCCESS);  // becomes z = 2x
    ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(updater), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[5], 0.0f) << "the update launch ran nothing itself";
    Run(model);
    EXPECT_EQ(Read(z_)[5], 10.0f);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(updater);
}

TEST_F(ModelRiUpdate, AnUpdateWhileTheModelRunsLandsBeforeTheGroupThroughAnExternalEvent) {
    // CANN's pattern: the model waits for an external event and resets it; the update stream
    // records it once its patches are queued.
    aclrtEvent ready = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&ready, ACL_EVENT_SYNC | ACL_EVENT_EXTERNAL), ACL_SUCCESS);
    aclrtTaskGrp group = nullptr;
    aclmdlRI model = Capture([&] {
        ASSERT_EQ(aclrtStreamWaitEvent(stream_, ready), ACL_SUCCESS);
        ASSERT_EQ(aclrtResetEvent(ready, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
        ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_SUCCESS);
    });
    aclrtStream updater = nullptr;
    ASSERT_EQ(aclrtCreateStream(&updater), ACL_SUCCESS);
    void* inputs[3] = {y_, x_, z_};  // z = x + y, then x + x, then x + the previous z
    for (int round = 0; round < 3; ++round) {
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);  // waits for `ready`
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
        ASSERT_EQ(Add(x_, inputs[round], z_, updater), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_SUCCESS);
        ASSERT_EQ(aclrtRecordEvent(ready, updater), ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        const float expected[3] = {8.0f, 14.0f, 21.0f};  // at i = 7: 7+1, 7+7, 7+14
        EXPECT_EQ(Read(z_)[7], expected[round]) << "round " << round;
    }
    ASSERT_EQ(aclrtSynchronizeStream(updater), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(updater);
    aclrtDestroyEvent(ready);
}

TEST_F(ModelRiUpdate, GroupsOpenOnceAndHoldKernelLaunchesOnly) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    ASSERT_EQ(aclrtMemsetAsync(z_, kBytes, 0, kBytes, stream_), ACL_SUCCESS);
    aclrtTaskGrp group = nullptr;
    EXPECT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(group, nullptr);
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("only kernel launches"), std::string::npos);
}

TEST_F(ModelRiUpdate, AnUpdateMustMatchTheGroupAndRunOnAnUncapturedStream) {
    aclrtTaskGrp group = nullptr;
    aclmdlRI model = Capture([&] {
        ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
        ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
        ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_SUCCESS);
    });
    aclrtStream updater = nullptr, other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&updater), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(other, group), ACL_ERROR_STREAM_TASK_GROUP_STATUS)
        << "one updater per group";
    ASSERT_EQ(Add(x_, x_, z_, updater), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_ERROR_STREAM_TASK_GROUP_STATUS)
        << "1 launch for a group of 2";
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(z_, kBytes, 0, kBytes, updater), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_SUCCESS) << "no launch changes nothing";
    ASSERT_EQ(aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(other, group), ACL_ERROR_RT_STREAM_CAPTURED);
    aclmdlRI empty = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(other, &empty), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(updater), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(empty), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(updater);
    aclrtDestroyStream(other);
}

TEST_F(ModelRiUpdate, ABuiltModelIsNotChangedButCanBeAborted) {
    aclrtStream persistent = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model, persistent, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(
        aclrtLaunchHostFunc(
            persistent, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); },
            nullptr),
        ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, persistent), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIEndTask(model, persistent), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
    uint32_t count = 0;
    ASSERT_EQ(aclmdlRIGetTasksByStream(persistent, nullptr, &count), ACL_SUCCESS);
    std::vector<aclmdlRITask> tasks(count);
    ASSERT_EQ(aclmdlRIGetTasksByStream(persistent, tasks.data(), &count), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRITaskDisable(tasks[0]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAbort(model), ACL_SUCCESS);  // the kernel after the host function goes
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[3], 0.0f) << "the aborted kernel never ran";
    ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS) << "it runs again after an abort";
    EXPECT_EQ(Read(z_)[3], 4.0f);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(persistent);
}

}  // namespace
