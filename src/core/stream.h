// Streams: in-order task queues owned by a context, each backed by a queue of its device's
// executor. Each context has a default stream, addressed by a NULL aclrtStream.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "backend/accelerator.h"
#include "backend/cpu/executor.h"
#include "core/allocator.h"
#include "core/exception_info.h"
#include "core/trace.h"

namespace openacl {

class Context;
class ModelRI;
struct CaptureInfo;
struct TaskGroup;

class Stream {
 public:
    Stream(Context* context, cpu::Executor* executor, cpu::Queue* queue, int32_t id,
           uint32_t priority, uint32_t flags, bool is_default)
        : context_(context),
          executor_(executor),
          queue_(queue),
          id_(id),
          priority_(priority),
          flags_(flags),
          is_default_(is_default) {}

    Context* context() const { return context_; }
    cpu::Executor* executor() const { return executor_; }
    cpu::Queue* queue() const { return queue_; }
    int32_t id() const { return id_; }
    uint32_t priority() const { return priority_.load(std::memory_order_relaxed); }
    uint32_t flags() const { return flags_; }
    bool is_default() const { return is_default_; }
    // The stream's device lane on an accelerator backend (CUDA); nullptr on the CPU backend,
    // where the executor queue runs everything.
    backend::Lane* lane() const { return lane_.get(); }
    void set_lane(std::unique_ptr<backend::Lane> lane) { lane_ = std::move(lane); }

    // Submits a task; returns its sequence number on the stream. The label names the task
    // in traces; unlabelled tasks are named after the API that submits them.
    // While the stream is captured (core/model_ri.h) the task is recorded instead, and 0
    // returned; info tells the capture what the task is.
    uint64_t Submit(const cpu::Task& task, const trace::Label& label = {},
                    const CaptureInfo* info = nullptr) {
        if (diverted()) [[unlikely]]
            return SubmitToCapture(task, label, info);
        return SubmitUndiverted(task, label);
    }
    // Submits to the stream's own queue even while its tasks are diverted (a task update's
    // patches run on the stream itself).
    uint64_t SubmitUndiverted(const cpu::Task& task, const trace::Label& label = {}) {
        if (lane_ != nullptr) [[unlikely]]
            return SubmitToLane(task, label);
        if (exception_info::Armed()) [[unlikely]]  // exception callbacks: log the submitter
            return SubmitRecorded(task, label);
        if (!trace::On()) [[likely]]
            return exception_info::Noted(executor_->Submit(queue_, task));
        return exception_info::Noted(SubmitTraced(task, label));
    }

    // Submits an empty task that only marks its place in the stream; the label says what it
    // marks (a user's mark, a profiling step) and the trace shows when the stream got there.
    uint64_t SubmitMark(const trace::Label& label) {
        return Submit(cpu::MakeTask([] {}), label);
    }

    // A failing task explains itself here (on a worker thread); the next synchronisation
    // reports the explanation with the code.
    void NoteFailure(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
    std::string TakeFailureNote();

    // Tracing on an accelerator lane: the work between Begin and End is bracketed by device
    // time markers; the slices reach the trace when flushed (trace Stop, stream destruction).
    uint64_t BeginLaneTrace(const trace::Label& label, uint64_t* start_marker);
    void EndLaneTrace(uint64_t seq, const trace::Label& label, uint64_t start_marker);
    void FlushLaneTrace();

    // The model runtime instance this stream's tasks go to (a capture, or a model being built
    // with the stream bound), or nullptr.
    ModelRI* capture() const { return capture_.load(std::memory_order_acquire); }
    void set_capture(ModelRI* model) { capture_.store(model, std::memory_order_release); }
    // The task group this stream is updating (aclmdlRICaptureTaskUpdateBegin), or nullptr: its
    // launches become patches of the group's captured launches.
    TaskGroup* task_update() const { return task_update_.load(std::memory_order_acquire); }
    void set_task_update(TaskGroup* group) { task_update_.store(group, std::memory_order_release); }
    // True while tasks submitted here go to a capture or a task update instead of running.
    bool diverted() const {
        return capture_.load(std::memory_order_acquire) != nullptr ||
               task_update_.load(std::memory_order_acquire) != nullptr;
    }

    // Aborts (core/stream_abort.h): while one runs, the stream's tasks are discarded and its
    // synchronisations answer `abort_code` (ACL_ERROR_RT_STREAM_ABORT, or
    // ACL_ERROR_RT_DEVICE_TASK_ABORT for aclrtDeviceTaskAbort). The epoch counts the aborts begun,
    // so a synchronisation that waited across one learns of it.
    void BeginAbort(aclError code) {
        abort_code_.store(code, std::memory_order_relaxed);
        aborting_.fetch_add(1, std::memory_order_acq_rel);
        abort_epoch_.fetch_add(1, std::memory_order_acq_rel);
    }
    void EndAbort() { aborting_.fetch_sub(1, std::memory_order_acq_rel); }
    bool aborting() const { return aborting_.load(std::memory_order_acquire) != 0; }
    uint64_t abort_epoch() const { return abort_epoch_.load(std::memory_order_acquire); }
    aclError abort_code() const { return abort_code_.load(std::memory_order_relaxed); }

    bool failure_mode_set = false;  // aclrtSetStreamFailureMode may be called once
    // Attributes (aclrtSetStreamAttribute), under the lifecycle mutex. Priority changes what
    // the stream answers; the worker queue keeps the priority it was created with.
    uint64_t failure_mode = ACL_CONTINUE_ON_FAILURE;
    uint32_t overflow_switch = 0;
    uint32_t user_custom_tag = 0;
    uint32_t cache_op_info = 0;
    void set_priority(uint32_t priority) { priority_.store(priority, std::memory_order_relaxed); }
    // The external allocator registered on the stream (aclrtAllocatorRegister); desc is null
    // when there is none. Read and written under the lifecycle mutex.
    AllocatorSetup allocator;
    // Who submitted which of the stream's tasks, once exception callbacks are armed
    // (core/exception_info.h); made on first use.
    std::atomic<exception_info::SubmitLog*> submit_log{nullptr};

 private:
    uint64_t SubmitTraced(const cpu::Task& task, const trace::Label& label);
    uint64_t SubmitRecorded(const cpu::Task& task, const trace::Label& label);
    uint64_t SubmitToLane(const cpu::Task& task, const trace::Label& label);
    uint64_t SubmitToCapture(const cpu::Task& task, const trace::Label& label,
                             const CaptureInfo* info);

    Context* context_;
    cpu::Executor* executor_;
    cpu::Queue* queue_;
    int32_t id_;
    std::atomic<uint32_t> priority_;
    uint32_t flags_;
    bool is_default_;
    std::mutex note_mutex_;
    std::string note_;
    std::unique_ptr<backend::Lane> lane_;
    std::atomic<ModelRI*> capture_{nullptr};
    std::atomic<TaskGroup*> task_update_{nullptr};
    std::atomic<uint32_t> aborting_{0};
    std::atomic<uint64_t> abort_epoch_{0};
    std::atomic<aclError> abort_code_{ACL_ERROR_RT_STREAM_ABORT};
    struct LaneSlice {
        uint64_t seq;
        uint32_t tag;
        uint64_t start_marker, end_marker;
    };
    std::mutex lane_trace_mutex_;
    std::vector<LaneSlice> lane_slices_;
    uint64_t lane_seq_ = 0;
};

// Brackets one piece of device work on an accelerator stream for the timeline (no cost when
// tracing is off or the stream has no lane).
class LaneTraceScope {
 public:
    LaneTraceScope(Stream* stream, const trace::Label& label) {
        if (stream->lane() != nullptr && trace::On()) [[unlikely]] {
            stream_ = stream;
            label_ = label;
            seq_ = stream->BeginLaneTrace(label, &start_);
        }
    }
    ~LaneTraceScope() {
        if (stream_ != nullptr) stream_->EndLaneTrace(seq_, label_, start_);
    }
    LaneTraceScope(const LaneTraceScope&) = delete;
    LaneTraceScope& operator=(const LaneTraceScope&) = delete;
    // The traced work's sequence number on its stream's track (0 when not traced).
    uint64_t seq() const { return seq_; }

 private:
    Stream* stream_ = nullptr;
    trace::Label label_;
    uint64_t seq_ = 0;
    uint64_t start_ = 0;
};

// Waits for a stream's work on whichever engine runs it (the executor queue, and the device
// lane on an accelerator), up to timeout; reports the first failure like cpu::Executor::WaitFor.
cpu::WaitStatus WaitStream(Stream* stream, std::chrono::nanoseconds timeout);
// True when everything submitted to the stream has finished.
bool QueryStream(Stream* stream);
// The error for an accelerator that refused to enqueue `what` on the stream (its status).
aclError DeviceRefused(Stream* stream, int32_t status, const char* what);

// The most streams one device may hold, default streams included (as on Atlas A2 hardware).
constexpr uint32_t kMaxStreamsPerDevice = 1984;

// Creation (lifecycle mutex held).
aclError CreateStreamLocked(Context* ctx, uint32_t priority, uint32_t flags, bool is_default,
                            Stream** out);
// Unregisters a stream and hands back its ownership (lifecycle mutex held); the caller then
// drains or discards its queue outside the lock with FinishStream.
std::unique_ptr<Stream> DetachStreamLocked(Stream* stream);
// Waits for (force=false) or discards (force=true) a detached stream's work, then retires it
// (core/reclaim.h): it is freed once no API call that may have found it is still running.
void FinishStream(std::unique_ptr<Stream> stream, bool force);
// Number of streams (default ones included) alive on the device of ctx.
uint32_t StreamCountLocked(const Context* ctx);

// True while the stream has not been destroyed (it may belong to any context).
bool StreamAlive(const Stream* stream);
// The live stream whose queue `queue` is, or nullptr (a model's own queue).
Stream* StreamOfQueue(const cpu::Queue* queue);

// Resolves a stream argument for the calling thread: NULL means the current context's default
// stream; a handle must be a live stream of the current context. Records the documented error
// (ACL_ERROR_RT_CONTEXT_NULL, ACL_ERROR_INVALID_PARAM or ACL_ERROR_RT_STREAM_CONTEXT) with a
// message saying what to do, and returns nullptr, when it is not.
Stream* ResolveStream(aclrtStream handle, aclError* rc);

// Turns the outcome of a wait on a stream into an aclError with an explanation.
aclError StreamWaitResult(Stream* stream, cpu::WaitStatus status, aclError timeout_code);
// The same for a failed wait on a stream that may have been destroyed during the wait (a
// device synchronisation holds no lock while it waits): the stream's explanation is used only
// if the handle is still live.
aclError StreamFailureByHandle(const void* handle, cpu::WaitStatus status);

}  // namespace openacl
