// Errors and exceptions: exception callbacks fire when a task fails (a kernel, a copy, a
// timeout) and their getters read the failed task's true identity; registration by pointer,
// aclrtSetExceptionInfoCallback's single slot, per-binary callbacks; aclrtGetThreadLastTaskId;
// aclrtGetErrorVerbose / aclrtRepairError; operator information cached on captured tasks.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "model_ri_fixture.h"
#include "onnx_builder.h"
#include "test_support.h"

namespace {

using async_test::Gate;

uint32_t ThisThread() {
    return static_cast<uint32_t>(syscall(SYS_gettid));
}

// What a callback read from its aclrtExceptionInfo (valid only during the call).
struct Seen {
    int by = 0;  // which callback
    uint32_t task = 0, stream = 0, thread = 0, device = 0, code = 0;
    aclError args_rc = ACL_SUCCESS;
    void* args = nullptr;
    uint32_t args_len = 0;
    std::vector<unsigned char> arg_bytes;
    aclError func_rc = ACL_SUCCESS;
    aclrtFuncHandle func = nullptr;
    void* user_data = nullptr;
    uint32_t called_on = 0;
};

std::mutex g_mutex;
std::vector<Seen> g_seen;

Seen Read(aclrtExceptionInfo* info, int by) {
    Seen seen;
    seen.by = by;
    seen.task = aclrtGetTaskIdFromExceptionInfo(info);
    seen.stream = aclrtGetStreamIdFromExceptionInfo(info);
    seen.thread = aclrtGetThreadIdFromExceptionInfo(info);
    seen.device = aclrtGetDeviceIdFromExceptionInfo(info);
    seen.code = aclrtGetErrorCodeFromExceptionInfo(info);
    seen.args_rc = aclrtGetArgsFromExceptionInfo(info, &seen.args, &seen.args_len);
    if (seen.args_rc == ACL_SUCCESS && seen.args != nullptr) {
        const auto* bytes = static_cast<const unsigned char*>(seen.args);
        seen.arg_bytes.assign(bytes, bytes + seen.args_len);
    }
    seen.func_rc = aclrtGetFuncHandleFromExceptionInfo(info, &seen.func);
    seen.called_on = ThisThread();
    return seen;
}

void Keep(Seen seen) {
    std::lock_guard lock(g_mutex);
    g_seen.push_back(std::move(seen));
}

void RecordA(aclrtExceptionInfo* info) {
    Keep(Read(info, 1));
}
void RecordB(aclrtExceptionInfo* info) {
    Keep(Read(info, 2));
}
void RecordForBinary(aclrtExceptionInfo* info, void* user_data) {
    Seen seen = Read(info, 3);
    seen.user_data = user_data;
    Keep(std::move(seen));
}
void RecordForBinaryAgain(aclrtExceptionInfo* info, void* user_data) {
    Seen seen = Read(info, 4);
    seen.user_data = user_data;
    Keep(std::move(seen));
}

std::vector<Seen> TakeSeen() {
    std::lock_guard lock(g_mutex);
    std::vector<Seen> seen;
    seen.swap(g_seen);
    return seen;
}

int32_t StreamId(aclrtStream stream) {
    int32_t id = -1;
    EXPECT_EQ(aclrtStreamGetId(stream, &id), ACL_SUCCESS);
    return id;
}

uint32_t LastTaskId() {
    uint32_t id = 0;
    EXPECT_EQ(aclrtGetThreadLastTaskId(&id), ACL_SUCCESS);
    return id;
}

constexpr uint64_t kCopyBytes = 64;

class ExceptionInfo : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        TakeSeen();
        ASSERT_EQ(aclrtGetCurrentContext(&context_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "checked_copy", &checked_), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&src_, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&dst_, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtSetExceptionInfoCallback(nullptr);
        aclrtExceptionInfoCallbackUnregister(RecordA);
        aclrtExceptionInfoCallbackUnregister(RecordB);
        aclrtFree(src_);
        aclrtFree(dst_);
        aclrtBinaryUnLoad(binary_);  // its callback goes with it
        aclrtDestroyStreamForce(stream_);
        TakeSeen();
        DeviceTest::TearDown();
    }
    // checked_copy over two blocks on `stream`, block 1 failing; returns the launch's task id.
    uint32_t LaunchFailing(aclrtStream stream) {
        uint64_t args[4] = {reinterpret_cast<uint64_t>(src_), reinterpret_cast<uint64_t>(dst_),
                            kCopyBytes, 1};
        EXPECT_EQ(aclrtLaunchKernelWithHostArgs(checked_, 2, stream, nullptr, args, sizeof args,
                                                nullptr, 0),
                  ACL_SUCCESS);
        return LastTaskId();
    }
    // Runs fn on a thread of its own with this test's context current.
    template <class Fn>
    void OnAnotherThread(Fn fn) {
        std::thread([&] {
            ASSERT_EQ(aclrtSetCurrentContext(context_), ACL_SUCCESS);
            fn();
        }).join();
    }

    aclrtContext context_ = nullptr;
    aclrtStream stream_ = nullptr;
    aclrtBinHandle binary_ = nullptr;
    aclrtFuncHandle checked_ = nullptr;
    void* src_ = nullptr;
    void* dst_ = nullptr;
};

}  // namespace

// ---- A failed kernel ------------------------------------------------------------------------

TEST_F(ExceptionInfo, AFailedKernelCallsTheRegisteredCallbackOnce) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(TakeSeen().size(), 1u);
}

TEST_F(ExceptionInfo, TheTaskIdIsTheOneGetThreadLastTaskIdGaveForTheLaunch) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, async_test::Sleep20ms, nullptr), ACL_SUCCESS);
    const uint32_t task = LaunchFailing(stream_);
    EXPECT_EQ(LastTaskId(), task);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].task, task);
}

TEST_F(ExceptionInfo, TheStreamIdIsTheFailedStreamsId) {
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(other);
    EXPECT_EQ(aclrtSynchronizeStream(other), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].stream, static_cast<uint32_t>(StreamId(other)));
    EXPECT_NE(seen[0].stream, static_cast<uint32_t>(StreamId(stream_)));
    aclrtDestroyStream(other);
}

TEST_F(ExceptionInfo, TheThreadIdIsTheLinuxThreadIdOfTheSubmittingThread) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    uint32_t submitter = 0;
    OnAnotherThread([&] {
        submitter = ThisThread();
        LaunchFailing(stream_);
    });
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].thread, submitter);
    EXPECT_NE(seen[0].thread, ThisThread());
}

TEST_F(ExceptionInfo, TheDeviceIdAndErrorCodeAreTheFailedTasks) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].device, 0u);
    EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION));
}

TEST_F(ExceptionInfo, AKernelsExceptionHasTheDeviceArgumentsItWasLaunchedWith) {
    void* device_args = nullptr;
    uint64_t args[4] = {reinterpret_cast<uint64_t>(src_), reinterpret_cast<uint64_t>(dst_),
                        kCopyBytes, 0};  // block 0 of 1 fails
    ASSERT_EQ(aclrtMalloc(&device_args, sizeof args, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(device_args, sizeof args, args, sizeof args, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(checked_, 1, device_args, sizeof args, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].args_rc, ACL_SUCCESS);
    EXPECT_EQ(seen[0].args, device_args);
    EXPECT_EQ(seen[0].args_len, sizeof args);
    aclrtFree(device_args);
}

TEST_F(ExceptionInfo, AKernelsExceptionHasTheHostArgumentsItsLaunchCopied) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    uint64_t expected[4] = {reinterpret_cast<uint64_t>(src_), reinterpret_cast<uint64_t>(dst_),
                            kCopyBytes, 1};
    ASSERT_EQ(seen[0].arg_bytes.size(), sizeof expected);
    EXPECT_EQ(std::memcmp(seen[0].arg_bytes.data(), expected, sizeof expected), 0);
}

TEST_F(ExceptionInfo, AKernelsExceptionHasTheFunctionHandleOfTheLaunch) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].func_rc, ACL_SUCCESS);
    EXPECT_EQ(seen[0].func, checked_);
}

TEST_F(ExceptionInfo, CallbacksRunOnAWorkerBeforeTheSynchronizationReturns) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();  // no waiting: it has run already
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_NE(seen[0].called_on, ThisThread());
}

TEST_F(ExceptionInfo, AKernelPastItsTimeoutReportsAnAiCoreTimeout) {
    aclrtBinHandle test_kernels = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &test_kernels), ACL_SUCCESS);
    aclrtFuncHandle sleep = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(test_kernels, "sleep_ms", &sleep), ACL_SUCCESS);
    aclrtLaunchKernelAttr attr{};
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attr.value.timeoutUs.timeoutLow = 5000;  // 5 ms
    aclrtLaunchKernelCfg cfg{&attr, 1};
    uint64_t args[2] = {reinterpret_cast<uint64_t>(dst_), 30};  // sleeps 30 ms
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(sleep, 1, stream_, &cfg, args, sizeof args, nullptr, 0),
              ACL_SUCCESS);
    const uint32_t task = LastTaskId();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TIMEOUT);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_AICORE_TIMEOUT));
    EXPECT_EQ(seen[0].task, task);
    EXPECT_EQ(seen[0].func_rc, ACL_SUCCESS);
    EXPECT_EQ(seen[0].func, sleep);
    aclrtBinaryUnLoad(test_kernels);
}

// ---- Other failed tasks ---------------------------------------------------------------------

TEST_F(ExceptionInfo, ACopyIntoFreedMemoryReportsACopyError) {
    async_test::PinnedBuffer host(kCopyBytes);
    async_test::DeviceBuffer target(kCopyBytes);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(target.get(), kCopyBytes, host.get(), kCopyBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    const uint32_t task = LastTaskId();
    ASSERT_EQ(target.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_COPY_DATA);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_COPY_DATA));
    EXPECT_EQ(seen[0].task, task);
    EXPECT_EQ(seen[0].thread, ThisThread());
    EXPECT_EQ(seen[0].stream, static_cast<uint32_t>(StreamId(stream_)));
}

TEST_F(ExceptionInfo, AnExceptionOfATaskThatIsNoKernelHasNoArgumentsOrFunction) {
    async_test::DeviceBuffer target(kCopyBytes);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(target.get(), kCopyBytes, 0, kCopyBytes, stream_), ACL_SUCCESS);
    ASSERT_EQ(target.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_COPY_DATA);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].args_rc, static_cast<aclError>(0xFFFFFFFFu));
    EXPECT_EQ(seen[0].func_rc, ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(seen[0].func, nullptr);
}

TEST_F(ExceptionInfo, AValueWriteIntoFreedMemoryReportsACopyError) {
    async_test::DeviceBuffer target(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWrite(target.get(), 7, 0, stream_), ACL_SUCCESS);
    const uint32_t task = LastTaskId();
    ASSERT_EQ(target.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_COPY_DATA);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_COPY_DATA));
    EXPECT_EQ(seen[0].task, task);
}

TEST_F(ExceptionInfo, ANotifyWaitPastItsTimeoutReportsATaskTimeout) {
    aclrtNotify notify = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtWaitAndResetNotify(notify, stream_, 1), ACL_SUCCESS);  // 1 s, never recorded
    const uint32_t task = LastTaskId();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_TASK_TIMEOUT);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_TASK_TIMEOUT));
    EXPECT_EQ(seen[0].task, task);
    aclrtDestroyNotify(notify);
}

TEST_F(ExceptionInfo, AModelExecutionThatFailsIsReported) {
    // The model's output buffer is freed before the queued execution runs.
    const std::string bytes = test_onnx::Builder()
                                  .Input("x", {1, 4})
                                  .Output("y", {1, 4})
                                  .Node("Relu", {"x"}, {"y"})
                                  .Bytes();
    uint32_t model = 0;
    ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &model), ACL_SUCCESS);
    async_test::DeviceBuffer x(16), y(16);
    aclmdlDataset* in = aclmdlCreateDataset();
    aclmdlDataset* out = aclmdlCreateDataset();
    aclDataBuffer* xb = aclCreateDataBuffer(x.get(), 16);
    aclDataBuffer* yb = aclCreateDataBuffer(y.get(), 16);
    aclmdlAddDatasetBuffer(in, xb);
    aclmdlAddDatasetBuffer(out, yb);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(model, in, out, stream_), ACL_SUCCESS);
    const uint32_t task = LastTaskId();
    ASSERT_EQ(y.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_COPY_DATA));
    EXPECT_EQ(seen[0].task, task);
    aclDestroyDataBuffer(xb);
    aclDestroyDataBuffer(yb);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    aclmdlUnload(model);
}

TEST_F(ExceptionInfo, AnEventWaitPastItsTimeoutReportsAnEventSyncTimeout) {
    aclrtStream waiter = nullptr;
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(waiter, event, 1), ACL_SUCCESS);  // 1 s
    const uint32_t task = LastTaskId();
    EXPECT_EQ(aclrtSynchronizeStream(waiter), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    gate.Open();
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].code, static_cast<uint32_t>(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT));
    EXPECT_EQ(seen[0].task, task);
    EXPECT_EQ(seen[0].stream, static_cast<uint32_t>(StreamId(waiter)));
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    aclrtDestroyStream(waiter);
    aclrtDestroyEvent(event);
}

// ---- Several streams and threads ------------------------------------------------------------

TEST_F(ExceptionInfo, FailuresOnStreamsOfSeveralThreadsEachReportTheirOwnIdentity) {
    constexpr int kThreads = 3;
    aclrtStream streams[kThreads] = {};
    for (aclrtStream& stream : streams)
        ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    uint32_t threads[kThreads] = {}, tasks[kThreads] = {};
    std::vector<std::thread> workers;
    for (int i = 0; i < kThreads; ++i) {
        workers.emplace_back([&, i] {
            ASSERT_EQ(aclrtSetCurrentContext(context_), ACL_SUCCESS);
            threads[i] = ThisThread();
            tasks[i] = LaunchFailing(streams[i]);
            EXPECT_EQ(aclrtSynchronizeStream(streams[i]), ACL_ERROR_RT_AICORE_EXCEPTION);
        });
    }
    for (std::thread& worker : workers)
        worker.join();
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), static_cast<size_t>(kThreads));
    for (int i = 0; i < kThreads; ++i) {
        const uint32_t id = static_cast<uint32_t>(StreamId(streams[i]));
        auto it =
            std::find_if(seen.begin(), seen.end(), [&](const Seen& s) { return s.stream == id; });
        ASSERT_NE(it, seen.end()) << "stream " << id;
        EXPECT_EQ(it->thread, threads[i]);
        EXPECT_EQ(it->task, tasks[i]);
        aclrtDestroyStream(streams[i]);
    }
}

TEST_F(ExceptionInfo, TasksOfTwoThreadsOnOneStreamAreToldApart) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    Gate gate;  // both launches are queued before either runs
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    uint32_t threads[2] = {}, tasks[2] = {};
    for (int i = 0; i < 2; ++i) {
        OnAnotherThread([&] {
            threads[i] = ThisThread();
            tasks[i] = LaunchFailing(stream_);
        });
    }
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 2u);
    std::sort(seen.begin(), seen.end(),
              [](const Seen& a, const Seen& b) { return a.task < b.task; });
    EXPECT_EQ(tasks[1], tasks[0] + 1);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(seen[i].task, tasks[i]);
        EXPECT_EQ(seen[i].thread, threads[i]);
    }
}

TEST_F(ExceptionInfo, AFailedKernelOfAReplayIsReportedOnTheReplayingStream) {
    aclrtStream replay = nullptr;
    ASSERT_EQ(aclrtCreateStream(&replay), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    LaunchFailing(stream_);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(replay), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, replay), ACL_SUCCESS);
    const uint32_t end_of_replay = LastTaskId();  // the task that ends the replay
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(replay), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].stream, static_cast<uint32_t>(StreamId(replay)));
    EXPECT_EQ(seen[0].thread, ThisThread());
    EXPECT_EQ(seen[0].task, end_of_replay - 1);
    EXPECT_EQ(seen[0].func, checked_);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(replay);
}

// ---- Registration ---------------------------------------------------------------------------

TEST_F(ExceptionInfo, RegisteringTheSameCallbackTwiceCallsItOnce) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(TakeSeen().size(), 1u);
}

TEST_F(ExceptionInfo, EveryRegisteredCallbackIsCalled) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordB), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_NE(seen[0].by, seen[1].by);
    EXPECT_EQ(seen[0].task, seen[1].task);
}

TEST_F(ExceptionInfo, AnUnregisteredCallbackIsNoLongerCalled) {
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordB), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackUnregister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].by, 2);
}

TEST_F(ExceptionInfo, UnregisteringACallbackNeverRegisteredSucceeds) {
    EXPECT_EQ(aclrtExceptionInfoCallbackUnregister(RecordB), ACL_SUCCESS);
}

TEST_F(ExceptionInfo, SetExceptionInfoCallbackKeepsTheLastCallbackSet) {
    ASSERT_EQ(aclrtSetExceptionInfoCallback(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetExceptionInfoCallback(RecordB), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].by, 2);
}

TEST_F(ExceptionInfo, SetExceptionInfoCallbackWithNullClearsTheCallback) {
    ASSERT_EQ(aclrtSetExceptionInfoCallback(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetExceptionInfoCallback(nullptr), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_TRUE(TakeSeen().empty());
}

TEST_F(ExceptionInfo, ACallbackBothSetAndRegisteredIsCalledTwice) {
    ASSERT_EQ(aclrtSetExceptionInfoCallback(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(TakeSeen().size(), 2u);
}

TEST_F(ExceptionInfo, UnregisterLeavesTheCallbackSetWithSetExceptionInfoCallback) {
    ASSERT_EQ(aclrtSetExceptionInfoCallback(RecordA), ACL_SUCCESS);
    ASSERT_EQ(aclrtExceptionInfoCallbackUnregister(RecordA), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(TakeSeen().size(), 1u);
}

TEST_F(ExceptionInfo, TheBinarysCallbackGetsItsUserDataForItsKernelsFailure) {
    int marker = 0;
    ASSERT_EQ(aclrtBinarySetExceptionCallback(binary_, RecordForBinary, &marker), ACL_SUCCESS);
    const uint32_t task = LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].by, 3);
    EXPECT_EQ(seen[0].user_data, &marker);
    EXPECT_EQ(seen[0].task, task);
    EXPECT_EQ(seen[0].func, checked_);
}

TEST_F(ExceptionInfo, TheBinarysCallbackIsTheLastOneSet) {
    int first = 0, second = 0;
    ASSERT_EQ(aclrtBinarySetExceptionCallback(binary_, RecordForBinary, &first), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinarySetExceptionCallback(binary_, RecordForBinaryAgain, &second), ACL_SUCCESS);
    LaunchFailing(stream_);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::vector<Seen> seen = TakeSeen();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].by, 4);
    EXPECT_EQ(seen[0].user_data, &second);
}

TEST_F(ExceptionInfo, TheBinarysCallbackIsNotCalledForOtherTasks) {
    int marker = 0;
    ASSERT_EQ(aclrtBinarySetExceptionCallback(binary_, RecordForBinary, &marker), ACL_SUCCESS);
    async_test::DeviceBuffer target(kCopyBytes);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(target.get(), kCopyBytes, 0, kCopyBytes, stream_), ACL_SUCCESS);
    ASSERT_EQ(target.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_COPY_DATA);
    EXPECT_TRUE(TakeSeen().empty());
}

// ---- The thread's last task -----------------------------------------------------------------

TEST_F(ExceptionInfo, AThreadThatSubmittedNothingHasLastTaskIdAllOnes) {
    uint32_t id = 0;
    OnAnotherThread([&] { id = LastTaskId(); });
    EXPECT_EQ(id, 0xFFFFFFFFu);
}

TEST_F(ExceptionInfo, EachTaskOfAStreamHasTheNextTaskId) {
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, async_test::Sleep20ms, nullptr), ACL_SUCCESS);
    const uint32_t first = LastTaskId();
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);  // a record is a task too
    EXPECT_EQ(LastTaskId(), first + 1);
    ASSERT_EQ(aclrtMemsetAsync(dst_, kCopyBytes, 0, kCopyBytes, stream_), ACL_SUCCESS);
    EXPECT_EQ(LastTaskId(), first + 2);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    aclrtDestroyEvent(event);
}

TEST_F(ExceptionInfo, TheLastTaskIdIsTheCallingThreadsOwn) {
    ASSERT_EQ(aclrtMemsetAsync(dst_, kCopyBytes, 0, kCopyBytes, stream_), ACL_SUCCESS);
    const uint32_t mine = LastTaskId();
    OnAnotherThread([&] {
        ASSERT_EQ(aclrtMemsetAsync(src_, kCopyBytes, 0, kCopyBytes, stream_), ACL_SUCCESS);
        EXPECT_EQ(LastTaskId(), mine + 1);
    });
    EXPECT_EQ(LastTaskId(), mine);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// ---- Device errors --------------------------------------------------------------------------

TEST_F(ExceptionInfo, GetErrorVerboseReportsNoErrorOnACpuDevice) {
    aclrtErrorInfo info;
    std::memset(&info, 0xA5, sizeof info);
    ASSERT_EQ(aclrtGetErrorVerbose(0, &info), ACL_SUCCESS);
    EXPECT_EQ(info.errorType, ACL_RT_NO_ERROR);
    EXPECT_EQ(info.tryRepair, 0);
    EXPECT_EQ(info.hasDetail, 0);
}

TEST_F(ExceptionInfo, RepairErrorAnswersThatThereIsNothingToRepair) {
    aclrtErrorInfo info{};
    ASSERT_EQ(aclrtGetErrorVerbose(0, &info), ACL_SUCCESS);
    EXPECT_EQ(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_RT_NO_ERROR");
}

TEST_F(ExceptionInfo, GetErrorVerboseNeedsACurrentContext) {
    aclError rc = ACL_SUCCESS;
    std::thread([&] {
        aclrtErrorInfo info{};
        rc = aclrtGetErrorVerbose(0, &info);
    }).join();
    EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
}

namespace {

class ExceptionInfoOn310P : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};

}  // namespace

TEST_F(ExceptionInfoOn310P, GetErrorVerboseAndRepairErrorAreNotAvailable) {
    aclrtErrorInfo info{};
    EXPECT_EQ(aclrtGetErrorVerbose(0, &info), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclrtRepairError(0, &info), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// ---- Operator information cached on captured tasks ------------------------------------------

namespace {

class CachedTaskInfo : public ModelRiCapture {
 protected:
    // Captures one vector_add on stream_ (the cache switch on when asked) and runs `cache`
    // right after the launch; returns the model, and the launch's task in *task.
    template <class Cache>
    aclmdlRI CaptureAdd(bool cache_switch, Cache cache, aclmdlRITask* task) {
        aclmdlRI model = nullptr;
        EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
        if (cache_switch) {
            aclrtStreamAttrValue on{};
            on.cacheOpInfoSwitch = 1;
            EXPECT_EQ(aclrtSetStreamAttribute(stream_, ACL_STREAM_ATTR_CACHE_OP_INFO, &on),
                      ACL_SUCCESS);
        }
        EXPECT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
        cache();
        EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
        uint32_t count = 1;
        EXPECT_EQ(aclmdlRIGetTasksByStream(stream_, task, &count), ACL_SUCCESS);
        return model;
    }
    std::string JsonOf(aclmdlRI model) {
        TempFile file("");
        EXPECT_EQ(aclmdlRIDebugJsonPrint(model, file.path(), ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY),
                  ACL_SUCCESS);
        std::ifstream in(file.path());
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
};

}  // namespace

TEST_F(CachedTaskInfo, TheLastTaskIdOfACapturedLaunchIsItsPositionInTheModel) {
    aclmdlRITask task = nullptr;
    uint32_t last = 0;
    aclmdlRI model = CaptureAdd(
        false, [&] { last = LastTaskId(); }, &task);
    uint32_t seq = 99;
    ASSERT_EQ(aclmdlRITaskGetSeqId(task, &seq), ACL_SUCCESS);
    EXPECT_EQ(last, seq);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CachedTaskInfo, OpInfoCachedOnACapturedLaunchIsInItsTaskParams) {
    const char info[] = "vector_add x y z";
    aclmdlRITask task = nullptr;
    aclmdlRI model = CaptureAdd(
        true, [&] { EXPECT_EQ(aclrtCacheLastTaskOpInfo(info, sizeof info), ACL_SUCCESS); }, &task);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(task, &params), ACL_SUCCESS);
    ASSERT_EQ(params.opInfoSize, sizeof info);
    EXPECT_EQ(std::memcmp(params.opInfoPtr, info, sizeof info), 0);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CachedTaskInfo, CachingOpInfoAgainReplacesIt) {
    aclmdlRITask task = nullptr;
    aclmdlRI model = CaptureAdd(
        true,
        [&] {
            EXPECT_EQ(aclrtCacheLastTaskOpInfo("first", 6), ACL_SUCCESS);
            EXPECT_EQ(aclrtCacheLastTaskOpInfo("2nd", 4), ACL_SUCCESS);
        },
        &task);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(task, &params), ACL_SUCCESS);
    ASSERT_EQ(params.opInfoSize, 4u);
    EXPECT_STREQ(static_cast<const char*>(params.opInfoPtr), "2nd");
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CachedTaskInfo, ATaskWithoutCachedOpInfoHasNone) {
    aclmdlRITask task = nullptr;
    aclmdlRI model = CaptureAdd(
        true, [] {}, &task);
    aclmdlRITaskParams params{};
    ASSERT_EQ(aclmdlRITaskGetParams(task, &params), ACL_SUCCESS);
    EXPECT_EQ(params.opInfoPtr, nullptr);
    EXPECT_EQ(params.opInfoSize, 0u);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CachedTaskInfo, CachingOpInfoNeedsTheCacheSwitchOn) {
    aclmdlRITask task = nullptr;
    aclError rc = ACL_SUCCESS;
    aclmdlRI model = CaptureAdd(
        false, [&] { rc = aclrtCacheLastTaskOpInfo("info", 5); }, &task);
    EXPECT_EQ(rc, ACL_ERROR_RT_INTERNAL_ERROR);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_STREAM_ATTR_CACHE_OP_INFO");
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CachedTaskInfo, ExtendInfoCachedOnACapturedLaunchIsInTheModelsJson) {
    const char info[] = R"({"op": "vector_add", "shape": [1024]})";
    aclmdlRITask task = nullptr;
    aclmdlRI model = CaptureAdd(
        false, [&] { EXPECT_EQ(aclrtCacheLastTaskExtendInfo(info, sizeof info - 1), ACL_SUCCESS); },
        &task);
    const std::string json = JsonOf(model);
    EXPECT_NE(json.find("\"extendInfo\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"op\": \"vector_add\""), std::string::npos) << json;
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CachedTaskInfo, ExtendInfoBeyond4KiBIsCut) {
    const std::string info(5000, 'a');  // not JSON: kept as a string
    aclmdlRITask task = nullptr;
    aclmdlRI model = CaptureAdd(
        false,
        [&] { EXPECT_EQ(aclrtCacheLastTaskExtendInfo(info.c_str(), info.size()), ACL_SUCCESS); },
        &task);
    const std::string json = JsonOf(model);
    EXPECT_NE(json.find('"' + std::string(4096, 'a') + '"'), std::string::npos);
    EXPECT_EQ(json.find(std::string(4097, 'a')), std::string::npos);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CachedTaskInfo, CachingOnATaskThatRanOnItsStreamIsRefused) {
    ASSERT_EQ(Add(x_, y_, z_, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtCacheLastTaskOpInfo("info", 5), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    EXPECT_EQ(aclrtCacheLastTaskExtendInfo("info", 5), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}
