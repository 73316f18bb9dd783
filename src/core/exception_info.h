// Errors and exceptions of tasks: the exception callbacks (aclrtSetExceptionInfoCallback,
// aclrtExceptionInfoCallbackRegister/Unregister, aclrtBinarySetExceptionCallback) and what
// they are told about a failed task (aclrtGet*FromExceptionInfo), the id of the calling
// thread's last task (aclrtGetThreadLastTaskId), and the operator information a thread caches
// on its last captured task (aclrtCacheLastTaskOpInfo / ExtendInfo).
//
// A task's identity, as CANN reports it:
//  - task id: the task's sequence number on the queue that runs it (its stream's, 1, 2, ...),
//    the number Stream::Submit returns; aclrtGetThreadLastTaskId reports the same number for
//    the task the calling thread submitted last (the low 32 bits, as CANN's ids are 32-bit);
//  - stream id: Stream::id() (aclrtStreamGetId) of the stream whose queue runs the task;
//  - thread id: the Linux thread id (gettid) of the thread that submitted the task, which is
//    what CANN records when a task is created (cached per thread);
//  - device id and error code: the stream's device and the code the task failed with;
//  - for kernels, the argument block and the aclrtFuncHandle of the launch.
//
// How the identity reaches the failure point (exception_info.cpp): a failing task knows its
// queue and sequence number (cpu::TaskContext) and its stream (every payload that can fail
// holds it). The submitting thread is the one thing a task does not carry: its 64 bytes are
// full. So once an exception callback has ever been registered ("armed"), each stream keeps a
// short log of which thread submitted which run of its tasks: a submission takes the stream's
// log lock around the enqueue and appends (sequence number, thread) only when the submitting
// thread changes; entries of tasks that have finished are dropped. A failing task looks itself
// up under the same lock, so it never reads the log before its own submission is in it.
// Before arming, a submission pays one relaxed load and one thread-local store (the thread's
// last task id). Tasks submitted before arming report thread id 0 (unknown), as do tasks a
// graph replay runs on a model's own queues (joined or built streams).
//
// Callbacks run on the worker thread that ran the failed task, before the task completes: a
// synchronisation that reports the failure returns after its callbacks have returned. They
// must not synchronise the failing stream or its device (CANN warns of the same deadlock).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl_rt.h"
#include "backend/cpu/task.h"

// CANN's opaque exception record (acl_rt.h names it; only the getters read it).
struct rtExceptionInfo {
    uint32_t task_id;
    uint32_t stream_id;
    uint32_t thread_id;
    uint32_t device_id;
    uint32_t error_code;
    bool kernel;  // a kernel launch failed: the fields below are set
    void* args;
    uint32_t args_size;
    aclrtFuncHandle func;
};

namespace openacl {

class Stream;
class KernelBinary;
class ModelRI;
struct ModelTask;

namespace exception_info {

// ---- The calling thread's last task --------------------------------------------------------
// Low 32 bits: its task id; kCapturedTask set: it went to a capture or a model being built
// (the id is then its position on its stream in the model, aclmdlRITaskGetSeqId). CANN starts
// every thread at 0xFFFFFFFF.
inline constexpr uint64_t kCapturedTask = uint64_t{1} << 63;
inline constinit thread_local uint64_t t_last_task = 0xFFFFFFFFu;
// Stream::Submit: the task just submitted is the thread's last (returns seq).
inline uint64_t Noted(uint64_t seq) noexcept {
    t_last_task = seq;
    return seq;
}
uint32_t LastTaskId();
// Stream::Submit diverted a task into `model`'s recording: it is the thread's last task.
void NoteCaptured(ModelRI* model, Stream* stream);

// ---- Submitters ----------------------------------------------------------------------------
struct SubmitLog;  // one queue's submitters (exception_info.cpp)
// True once an exception callback has been registered (and for the rest of the process).
extern std::atomic<bool> g_armed;
inline bool Armed() noexcept {
    return g_armed.load(std::memory_order_relaxed);
}
// Armed submissions (Stream::SubmitRecorded): holds the stream's log lock from construction
// until the enqueue is logged.
class SubmitScope {
 public:
    explicit SubmitScope(Stream* stream);
    ~SubmitScope();
    void Submitted(uint64_t seq);  // the enqueue's sequence number (0: nothing was enqueued)
    SubmitScope(const SubmitScope&) = delete;
    SubmitScope& operator=(const SubmitScope&) = delete;

 private:
    SubmitLog* log_ = nullptr;
    bool locked_ = false;
};
// aclmdlRIExecuteAsync: the replay's tasks go to `stream`'s queue in batches that bypass
// Stream::Submit; for as long as this lives, the stream's log is held for the calling thread,
// and every task enqueued on the stream meanwhile is logged as this thread's.
class ReplayScope {
 public:
    explicit ReplayScope(Stream* stream);
    ~ReplayScope();
    ReplayScope(const ReplayScope&) = delete;
    ReplayScope& operator=(const ReplayScope&) = delete;

 private:
    Stream* stream_ = nullptr;
    SubmitLog* log_ = nullptr;
    uint64_t before_ = 0;
};

// ---- Failures ------------------------------------------------------------------------------
// What a failed kernel launch adds to its exception.
struct KernelFault {
    aclrtFuncHandle func;
    void* args;
    uint32_t args_size;
    const KernelBinary* binary;
};
// True while some exception callback is registered: the one load a failure path pays first.
extern std::atomic<uint32_t> g_callbacks;
void ReportSlow(const cpu::TaskContext& ctx, Stream* stream, int32_t code,
                const KernelFault* kernel);
// A task failed with `code` (on the worker running it): calls the exception callbacks.
inline void Report(const cpu::TaskContext& ctx, Stream* stream, int32_t code,
                   const KernelFault* kernel = nullptr) {
    if (g_callbacks.load(std::memory_order_acquire) != 0) [[unlikely]]
        ReportSlow(ctx, stream, code, kernel);
}

// ---- Registration (the API checked the arguments) -----------------------------------------
aclError SetProcessCallback(aclrtExceptionInfoCallback callback);  // NULL clears
aclError RegisterCallback(aclrtExceptionInfoCallback callback);
aclError UnregisterCallback(aclrtExceptionInfoCallback callback);
aclError SetBinaryCallback(const KernelBinary* binary, aclrtOpExceptionCallback callback,
                           void* user_data);
// aclrtBinaryUnLoad: the binary's callback goes with it.
void ForgetBinary(const KernelBinary* binary);

// ---- Device errors (aclrtGetErrorVerbose / aclrtRepairError) --------------------------------
aclError GetErrorVerbose(int32_t device_id, aclrtErrorInfo* info);
aclError RepairError(int32_t device_id, const aclrtErrorInfo& info);

// ---- Operator information of captured tasks ------------------------------------------------
// infoSize's limits, as CANN documents them: (0, 64 KiB] and (0, 4 KiB] (longer extended
// information is cut to 4 KiB).
inline constexpr size_t kMaxOpInfo = 64 * 1024;
inline constexpr size_t kMaxExtendInfo = 4 * 1024;
aclError CacheLastTaskOpInfo(const void* info, size_t size);
aclError CacheLastTaskExtendInfo(const char* info, size_t size);
// aclmdlRITaskGetParams (the task's model mutex held): the operator information cached on it.
void CachedOpInfo(const ModelTask* task, void** info, size_t* size);
// aclmdlRIDebugJsonPrint: the model's JSON, each task with its cached extended information.
aclError DebugJsonPrint(ModelRI* model, FILE* out, bool verbose);
// aclmdlRIDestroy: what was cached on the tasks of the model and its branches (their ids,
// taken before the destroy) goes once it is destroyed.
std::vector<uint32_t> ModelFamily(ModelRI* model);
void ForgetModels(const std::vector<uint32_t>& ids);

}  // namespace exception_info
}  // namespace openacl
