// Graph capture and replay (aclmdlRICaptureBegin / End, aclmdlRIExecuteAsync): captured work
// runs only when the model runs, as often as it runs, with the same result as the eager run;
// events between captured streams are edges; unsafe calls follow the capture modes.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "model_ri_fixture.h"
#include "temp_dir.h"

namespace {

TEST_F(ModelRiCapture, CapturedWorkRunsOnlyWhenTheModelRuns) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    ASSERT_NE(model, nullptr);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[5], 0.0f) << "the capture ran nothing";
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[5], 6.0f);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, EachReplayRunsTheWorkAgain) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, y_, stream_), ACL_SUCCESS);  // y += x
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    for (int i = 0; i < 5; ++i)
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::vector<float> y = Read(y_);
    for (uint64_t i = 0; i < kCount; ++i)
        ASSERT_EQ(y[i], 1.0f + 5.0f * static_cast<float>(i)) << i;
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, AReplayGivesTheSameBytesAsTheEagerRun) {
    void* w = nullptr;
    ASSERT_EQ(aclrtMalloc(&w, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(w, kBytes, 0x7f, kBytes), ACL_SUCCESS);  // both runs start from it
    auto work = [&](aclrtStream s) {
        EXPECT_EQ(Add(x_, y_, z_, s), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemsetAsync(w, kBytes, 0, kBytes / 2, s), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpyAsync(w, kBytes / 2, z_, kBytes / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
                  ACL_SUCCESS);
        EXPECT_EQ(Add(z_, w, z_, s), ACL_SUCCESS);
    };
    work(stream_);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::vector<float> eager_z = Read(z_), eager_w = Read(w);
    ASSERT_EQ(aclrtMemset(z_, kBytes, 0, kBytes), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(w, kBytes, 0x7f, kBytes), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    work(stream_);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(z_), eager_z);
    EXPECT_EQ(Read(w), eager_w);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtFree(w);
}

TEST_F(ModelRiCapture, GetInfoSaysActiveAndNamesTheModelUntilTheEnd) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI during = nullptr;
    ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &during), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    EXPECT_NE(during, nullptr);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(model, during);
    ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &during), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, BeginningTwiceAndEndingWithoutBeginningAreRefused) {
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
              ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("already being captured"), std::string::npos);
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, SynchronisingAStrictlyCapturedStreamIsRefusedAndInvalidatesTheCapture) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, nullptr), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    EXPECT_EQ(model, nullptr);
}

TEST_F(ModelRiCapture, ARelaxedCaptureLetsItsStreamBeSynchronisedButNotDestroyed) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "waits for the work before it";
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_ERROR_RT_STREAM_CAPTURED);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, TheDefaultStreamCannotBeCaptured) {
    EXPECT_EQ(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("default stream"), std::string::npos);
}

TEST_F(ModelRiCapture, GlobalModeRefusesUnsafeCallsOnEveryThreadUntilTheyRelax) {
    std::vector<float> host(kCount);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(z_, kBytes, 0, kBytes), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::thread([&] {
        ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, x_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
        aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
        ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, x_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS)
            << "another thread in THREAD_LOCAL mode may";
    }).join();
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(z_, kBytes, 0, kBytes), ACL_SUCCESS) << "a RELAXED thread may";
    ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(z_, kBytes, 0, kBytes), ACL_SUCCESS) << "after the capture";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, ThreadLocalModeRefusesUnsafeCallsOnlyOnTheCapturingThread) {
    std::vector<float> host(kCount);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, x_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::thread([&] {
        ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, x_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
    }).join();
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, APageableCopyOnACapturedStreamIsRefusedInEveryMode) {
    std::vector<float> pageable(kCount);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(
        aclrtMemcpyAsync(pageable.data(), kBytes, x_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
        ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, AStrictCaptureMustEndOnTheThreadThatBeganIt) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::thread([&] {
        ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
        aclmdlRI model = nullptr;
        EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    }).join();
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, ARelaxedCaptureMayEndOnAnotherThread) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    std::thread([&] {
        ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
        EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    }).join();
    ASSERT_NE(model, nullptr);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[3], 4.0f);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, AStreamWaitingOnACapturedEventJoinsTheCapture) {
    aclrtStream side = nullptr;
    ASSERT_EQ(aclrtCreateStream(&side), ACL_SUCCESS);
    aclrtEvent fork = nullptr, join = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&fork, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&join, ACL_EVENT_SYNC), ACL_SUCCESS);
    void* w = nullptr;
    ASSERT_EQ(aclrtMalloc(&w, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(w, kBytes, 0x7f, kBytes), ACL_SUCCESS);  // both runs start from it

    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);  // z = x + 1
    ASSERT_EQ(aclrtRecordEvent(fork, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    ASSERT_EQ(aclmdlRICaptureGetInfo(side, &status, nullptr), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE) << "the side stream joined";
    ASSERT_EQ(Add(z_, x_, w, side), ACL_SUCCESS);      // w = z + x, after the fork
    ASSERT_EQ(Add(x_, x_, y_, stream_), ACL_SUCCESS);  // y = 2x, concurrently
    ASSERT_EQ(aclrtRecordEvent(join, side), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, join), ACL_SUCCESS);
    ASSERT_EQ(Add(w, y_, z_, stream_), ACL_SUCCESS);  // z = w + y, after the join
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureGetInfo(side, &status, nullptr), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);

    uint32_t streams = 0;
    ASSERT_EQ(aclmdlRIGetStreams(model, nullptr, &streams), ACL_SUCCESS);
    EXPECT_EQ(streams, 2u);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::vector<float> z = Read(z_);
    for (uint64_t i = 0; i < kCount; ++i) {
        const auto v = static_cast<float>(i);
        ASSERT_EQ(z[i], (v + 1.0f + v) + 2.0f * v) << i;
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtFree(w);
    aclrtDestroyEvent(fork);
    aclrtDestroyEvent(join);
    aclrtDestroyStream(side);
}

TEST_F(ModelRiCapture, AJoinedStreamThatIsNotJoinedBackFailsTheCapture) {
    aclrtStream side = nullptr;
    ASSERT_EQ(aclrtCreateStream(&side), ACL_SUCCESS);
    aclrtEvent fork = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&fork, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(fork, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, side), ACL_SUCCESS);
    aclmdlRI model = reinterpret_cast<aclmdlRI>(1);
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_UNJOINED);
    EXPECT_EQ(model, nullptr);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("is not waited for"), std::string::npos);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    ASSERT_EQ(aclmdlRICaptureGetInfo(side, &status, nullptr), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE) << "both streams left the capture";
    aclrtDestroyEvent(fork);
    EXPECT_EQ(aclrtDestroyStream(side), ACL_SUCCESS);
}

void CountCall(void* counter) {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

TEST_F(ModelRiCapture, HostFunctionsAndNotifyRecordsRunAtEveryReplay) {
    std::atomic<int> calls{0};
    aclrtNotify notify = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, CountCall, &calls), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordNotify(notify, stream_), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(calls.load(), 0);
    aclrtStream waiter = nullptr;
    ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtWaitAndResetNotify(notify, waiter, 0), ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(waiter), ACL_SUCCESS) << "each replay records it";
    }
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(calls.load(), 3);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS) << "the model released its reference";
    aclrtDestroyStream(waiter);
}

TEST_F(ModelRiCapture, AnExternalRecordRecordsTheRealEventAtEachReplay) {
    aclrtEvent done = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEventWithFlag(done, stream_, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(done), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[2], 3.0f) << "the event follows the replayed kernel";
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // the replay's end follows it
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyEvent(done);
}

TEST_F(ModelRiCapture, TasksCanBeListedQueriedAndDisabled) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(y_, kBytes, 0, kBytes, stream_), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    uint32_t count = 0;
    ASSERT_EQ(aclmdlRIGetTasksByStream(stream_, nullptr, &count), ACL_SUCCESS);
    ASSERT_EQ(count, 2u);
    std::vector<aclmdlRITask> tasks(count);
    ASSERT_EQ(aclmdlRIGetTasksByStream(stream_, tasks.data(), &count), ACL_SUCCESS);
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    ASSERT_EQ(aclmdlRITaskGetType(tasks[0], &type), ACL_SUCCESS);
    EXPECT_EQ(type, ACL_MODEL_RI_TASK_KERNEL);
    uint32_t seq = 9;
    ASSERT_EQ(aclmdlRITaskGetSeqId(tasks[1], &seq), ACL_SUCCESS);
    EXPECT_EQ(seq, 1u);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
    EXPECT_EQ(params.type, ACL_MODEL_RI_TASK_KERNEL);
    EXPECT_EQ(params.kernelTaskParams.funcHandle, add_);
    EXPECT_EQ(params.kernelTaskParams.numBlocks, 4u);
    EXPECT_EQ(params.kernelTaskParams.argsSize, 4 * sizeof(uint64_t));
    EXPECT_EQ(params.kernelTaskParams.isHostArgs, 1u);
    ASSERT_EQ(aclmdlRITaskDisable(tasks[1]), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_MODEL_EXECUTE)
        << "a disabled task takes effect with aclmdlRIUpdate";
    ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(y_)[0], 1.0f) << "the disabled memset did not run";
    EXPECT_EQ(Read(z_)[7], 8.0f);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRITaskGetType(tasks[0], &type), ACL_ERROR_INVALID_PARAM)
        << "tasks die with their model";
}

TEST_F(ModelRiCapture, NamesIdsAndDestroyCallbacks) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    aclmdlRI first = nullptr, second = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &first), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &second), ACL_SUCCESS);
    uint32_t a = 0, b = 0;
    ASSERT_EQ(aclmdlRIGetId(first, &a), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIGetId(second, &b), ACL_SUCCESS);
    EXPECT_NE(a, b);
    char name[8] = "x";
    ASSERT_EQ(aclmdlRIGetName(first, sizeof name, name), ACL_SUCCESS);
    EXPECT_STREQ(name, "") << "unnamed";
    ASSERT_EQ(aclmdlRISetName(first, "decoder-step"), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIGetName(first, sizeof name, name), ACL_SUCCESS);
    EXPECT_STREQ(name, "decoder") << "cut to maxLen - 1";
    std::atomic<int> destroyed{0};
    ASSERT_EQ(aclmdlRIDestroyRegisterCallback(first, CountCall, &destroyed), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIDestroyRegisterCallback(second, CountCall, &destroyed), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIDestroyUnregisterCallback(second, CountCall), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(first), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(second), ACL_SUCCESS);
    EXPECT_EQ(destroyed.load(), 1);
    EXPECT_EQ(aclmdlRIDestroy(first), ACL_ERROR_INVALID_PARAM) << "already destroyed";
}

TEST_F(ModelRiCapture, ARunningModelCannotBeDestroyedUntilItsReplaysEnd) {
    aclrtEvent gate = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&gate, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtStream opener = nullptr;
    ASSERT_EQ(aclrtCreateStream(&opener), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(
                  opener, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); },
                  nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(gate, opener), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, gate), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_MODEL_RUNNING);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("still running"), std::string::npos);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[1], 2.0f);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyEvent(gate);
    aclrtDestroyStream(opener);
}

TEST_F(ModelRiCapture, ReplaysOfOneModelOnSeveralStreamsRunOneAfterAnother) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    for (int i = 0; i < 4; ++i)
        ASSERT_EQ(Add(x_, y_, y_, stream_), ACL_SUCCESS);  // y += x, four times
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    aclrtStream streams[3] = {};
    for (aclrtStream& s : streams)
        ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    for (int round = 0; round < 10; ++round) {
        for (aclrtStream s : streams)
            ASSERT_EQ(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
    }
    for (aclrtStream s : streams)
        ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    const std::vector<float> y = Read(y_);
    for (uint64_t i = 0; i < kCount; ++i)
        ASSERT_EQ(y[i], 1.0f + 120.0f * static_cast<float>(i)) << "no two replays overlapped";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    for (aclrtStream s : streams)
        aclrtDestroyStream(s);
}

TEST_F(ModelRiCapture, ACapturedModelRunsWithExecuteAsyncOnly) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIExecute(model, -1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclmdlRIAbort(model), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, AFailedTaskOnAJoinedStreamFailsTheReplaysStream) {
    aclrtStream side = nullptr;
    ASSERT_EQ(aclrtCreateStream(&side), ACL_SUCCESS);
    aclrtEvent fork = nullptr, join = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&fork, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&join, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtFuncHandle checked = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "checked_copy", &checked), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(fork, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    uint64_t args[4] = {reinterpret_cast<uint64_t>(x_), reinterpret_cast<uint64_t>(z_), kBytes,
                        1};  // block 1 of 2 fails
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(checked, 2, side, nullptr, args, sizeof args, nullptr, 0),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(join, side), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, join), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "reported once";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyEvent(fork);
    aclrtDestroyEvent(join);
    aclrtDestroyStream(side);
}

TEST_F(ModelRiCapture, DebugJsonPrintWritesTheStreamsAndTasks) {
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    TempDir dir;
    const std::string path = dir.path() + "/model.json";
    ASSERT_EQ(aclmdlRIDebugJsonPrint(model, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE),
              ACL_SUCCESS);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("\"taskType\": \"KERNEL\""), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("\"numBlocks\": 4"), std::string::npos) << text.str();
    EXPECT_EQ(aclmdlRIDebugJsonPrint(model, "/nonexistent-dir/model.json", 0),
              ACL_ERROR_RT_FILE_OPEN);
    EXPECT_EQ(aclmdlRIDebugPrint(model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCapture, ABuiltModelRunsItsBoundStreamsWork) {
    aclrtStream persistent = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIBindStream(model, stream_, ACL_MODEL_STREAM_FLAG_HEAD),
              ACL_ERROR_INVALID_PARAM)
        << "only persistent streams";
    ASSERT_EQ(aclmdlRIBindStream(model, persistent, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, y_, persistent), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIEndTask(model, persistent), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
    EXPECT_EQ(Read(y_)[4], 1.0f) << "building ran nothing";
    ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecute(model, 5000), ACL_SUCCESS);
    EXPECT_EQ(Read(y_)[4], 9.0f) << "two runs of y += x";
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Read(y_)[4], 13.0f);
    ASSERT_EQ(aclmdlRIUnbindStream(model, persistent), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(persistent);
}

TEST_F(ModelRiCapture, PersistentTaskCleanDropsWhatTheStreamBuiltSoFar) {
    aclrtStream persistent = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model, persistent, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, y_, persistent), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, y_, persistent), ACL_SUCCESS);
    ASSERT_EQ(aclrtPersistentTaskClean(persistent), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(Add(x_, y_, y_, persistent), ACL_SUCCESS);  // issued again: once
    uint32_t count = 0;
    ASSERT_EQ(aclmdlRIGetTasksByStream(persistent, nullptr, &count), ACL_SUCCESS);
    EXPECT_EQ(count, 1u);
    ASSERT_EQ(aclmdlRIEndTask(model, persistent), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
    EXPECT_EQ(Read(y_)[4], 5.0f) << "one y += x, not three";
    // Built: the model keeps its tasks, the stream holds none; cleaning it changes nothing.
    ASSERT_EQ(aclrtPersistentTaskClean(persistent), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
    EXPECT_EQ(Read(y_)[4], 9.0f);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(persistent);
}

TEST_F(ModelRiCapture, PersistentTaskCleanTakesOnlyPersistentStreams) {
    EXPECT_EQ(aclrtPersistentTaskClean(stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_STREAM_PERSISTENT");
    EXPECT_EQ(aclrtPersistentTaskClean(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelRiCapture, ReplaysFromSeveralThreadsWhileOtherStreamsRun) {
    // Two models with outputs of their own (replays of one model on two streams at once would
    // race on its output, as on the device), each replayed from its own thread while two other
    // threads keep their own streams busy.
    void* w = nullptr;
    ASSERT_EQ(aclrtMalloc(&w, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclmdlRI models[2] = {nullptr, nullptr};
    void* outputs[2] = {z_, w};
    for (int m = 0; m < 2; ++m) {
        ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
        for (int i = 0; i < 8; ++i)
            ASSERT_EQ(Add(x_, y_, outputs[m], stream_), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureEnd(stream_, &models[m]), ACL_SUCCESS);
    }
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::atomic<int> host_calls{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
            aclrtStream own = nullptr;
            ASSERT_EQ(aclrtCreateStream(&own), ACL_SUCCESS);
            for (int i = 0; i < 20; ++i) {
                if (t % 2 == 0) {
                    EXPECT_EQ(aclmdlRIExecuteAsync(models[t / 2], own), ACL_SUCCESS);
                } else {
                    EXPECT_EQ(
                        aclrtLaunchHostFunc(
                            own, [](void* calls) { ++*static_cast<std::atomic<int>*>(calls); },
                            &host_calls),
                        ACL_SUCCESS);
                }
            }
            EXPECT_EQ(aclrtSynchronizeStream(own), ACL_SUCCESS);
            EXPECT_EQ(aclrtDestroyStream(own), ACL_SUCCESS);
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    EXPECT_EQ(Read(z_)[9], 10.0f);
    EXPECT_EQ(Read(w)[9], 10.0f);
    EXPECT_EQ(host_calls.load(), 40);
    for (aclmdlRI model : models)
        EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtFree(w);
}

TEST_F(ModelRiCapture, ThreadsCaptureAndReplayTheirOwnGraphsAtOnceWhileOtherStreamsRun) {
    // Each capturing thread records y_t += x (8 launches) in THREAD_LOCAL mode on its own stream
    // and replays it 10 times; two more threads keep streams of host functions and copies busy.
    constexpr int kCapturers = 3;
    void* ys[kCapturers] = {};
    std::vector<float> ones(kCount, 1.0f);
    for (void*& y : ys) {
        ASSERT_EQ(aclrtMalloc(&y, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(y, kBytes, ones.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::atomic<int> host_calls{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kCapturers + 2; ++t) {
        threads.emplace_back([&, t] {
            ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
            aclrtStream own = nullptr;
            ASSERT_EQ(aclrtCreateStream(&own), ACL_SUCCESS);
            if (t < kCapturers) {
                ASSERT_EQ(aclmdlRICaptureBegin(own, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                          ACL_SUCCESS);
                for (int i = 0; i < 8; ++i)
                    ASSERT_EQ(Add(x_, ys[t], ys[t], own), ACL_SUCCESS);
                aclmdlRI model = nullptr;
                ASSERT_EQ(aclmdlRICaptureEnd(own, &model), ACL_SUCCESS);
                for (int i = 0; i < 10; ++i)
                    EXPECT_EQ(aclmdlRIExecuteAsync(model, own), ACL_SUCCESS);
                EXPECT_EQ(aclrtSynchronizeStream(own), ACL_SUCCESS);
                EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
            } else {
                std::vector<float> host(kCount);
                for (int i = 0; i < 20; ++i) {
                    EXPECT_EQ(
                        aclrtLaunchHostFunc(
                            own, [](void* calls) { ++*static_cast<std::atomic<int>*>(calls); },
                            &host_calls),
                        ACL_SUCCESS);
                    // An unsafe call, allowed: no capture on this thread is strict.
                    EXPECT_EQ(
                        aclrtMemcpy(host.data(), kBytes, x_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
                        ACL_SUCCESS);
                }
                EXPECT_EQ(aclrtSynchronizeStream(own), ACL_SUCCESS);
            }
            EXPECT_EQ(aclrtDestroyStream(own), ACL_SUCCESS);
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    for (void* y : ys) {
        EXPECT_EQ(Read(y)[9], 1.0f + 80.0f * 9.0f) << "80 launches of y += x each";
        aclrtFree(y);
    }
    EXPECT_EQ(host_calls.load(), 40);
}

}  // namespace
