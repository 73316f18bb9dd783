#include "core/stream.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <memory>

#include "core/callback.h"
#include "core/check.h"
#include "core/context.h"
#include "core/device.h"
#include "core/device_limits.h"
#include "core/error.h"
#include "core/handle_table.h"
#include "core/model_ri.h"
#include "core/reclaim.h"
#include "core/runtime.h"
#include "core/trace.h"

namespace openacl {
namespace {

HandleTable<Stream>& Streams() {
    static auto* table = new HandleTable<Stream>;
    return *table;
}

int32_t g_next_stream_id = 0;  // lifecycle mutex held

// Before a trace is written: the device slices of every accelerator stream. Flushing waits for
// the device, so it happens outside the table's lock; the streams stay allocated meanwhile
// because trace Stop runs inside an API call (core/reclaim.h).
void FlushAllLaneTraces() {
    std::vector<Stream*> streams;
    Streams().ForEach([&](Stream* stream) {
        if (stream->lane() != nullptr) streams.push_back(stream);
    });
    for (Stream* stream : streams)
        stream->FlushLaneTrace();
}

}  // namespace

void Stream::NoteFailure(const char* fmt, ...) {
    char text[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    std::lock_guard lock(note_mutex_);
    if (note_.empty()) note_ = text;  // the first failure is the one reported
}

uint64_t Stream::SubmitToCapture(const cpu::Task& task, const trace::Label& label,
                                 const CaptureInfo* info) {
    if (ModelRI* model = capture()) {
        CaptureTask(model, this, task, label, info);
        exception_info::NoteCaptured(model, this);  // the thread's last task
        return 0;
    }
    if (TaskGroup* group = task_update()) return UpdateGroupTask(group, this, task, label, info);
    return SubmitUndiverted(task, label);  // the capture or update ended meanwhile
}

uint64_t Stream::SubmitTraced(const cpu::Task& task, const trace::Label& label) {
    cpu::Task tagged = task;
    tagged.tag = static_cast<uint32_t>(label.kind);  // non-zero: the executor reports its runs
    const uint64_t seq = executor_->Submit(queue_, tagged);
    trace::NoteEnqueue(*this, seq, label);
    return seq;
}

// Armed (core/exception_info.h): the enqueue happens under the stream's submit log lock, so
// a failing task never looks itself up before its submitter is logged.
uint64_t Stream::SubmitRecorded(const cpu::Task& task, const trace::Label& label) {
    exception_info::SubmitScope scope(this);
    const uint64_t seq = trace::On() ? SubmitTraced(task, label) : executor_->Submit(queue_, task);
    scope.Submitted(seq);
    return exception_info::Noted(seq);
}

uint64_t Stream::BeginLaneTrace(const trace::Label& label, uint64_t* start_marker) {
    uint64_t seq = 0;
    {
        std::lock_guard lock(lane_trace_mutex_);
        seq = ++lane_seq_;
    }
    trace::NoteEnqueue(*this, seq, label);
    *start_marker = lane_->MarkTime();
    return seq;
}

void Stream::EndLaneTrace(uint64_t seq, const trace::Label& label, uint64_t start_marker) {
    const uint64_t end_marker = lane_->MarkTime();
    if (start_marker == 0 || end_marker == 0) return;
    std::lock_guard lock(lane_trace_mutex_);
    lane_slices_.push_back({seq, static_cast<uint32_t>(label.kind), start_marker, end_marker});
}

void Stream::FlushLaneTrace() {
    if (lane_ == nullptr) return;
    std::vector<LaneSlice> slices;
    {
        std::lock_guard lock(lane_trace_mutex_);
        slices.swap(lane_slices_);
    }
    for (const LaneSlice& slice : slices) {
        auto start = lane_->MarkedTimeNs(slice.start_marker, true);
        auto end = lane_->MarkedTimeNs(slice.end_marker, true);
        if (!start || !end) continue;
        trace::ExecutorTracer()->OnTask({queue_, slice.seq, slice.tag, trace::TicksFromNs(*start),
                                         trace::TicksFromNs(*end), cpu::TaskStatus::Done()});
    }
}

uint64_t Stream::SubmitToLane(const cpu::Task& task, const trace::Label& label) {
    LaneTraceScope traced(this, label);
    int32_t status = lane_->SubmitHost(task);
    if (status != 0) {
        // Only a broken device refuses a host function; the stream reports it at its next
        // synchronisation like any failed task.
        NoteFailure("the device refused a host task: %s",
                    context_->device()->accelerator()->StatusText(status).c_str());
        lane_->SubmitHost(
            cpu::MakeTask([] { return cpu::TaskStatus::Failed(ACL_ERROR_RT_FAILURE); }));
    }
    return 0;
}

cpu::WaitStatus WaitStream(Stream* stream, std::chrono::nanoseconds timeout) {
    if (backend::Lane* lane = stream->lane()) [[unlikely]] {
        cpu::WaitStatus status = lane->Wait(timeout);
        if (status.failed()) {
            std::string device_error = lane->TakeDeviceError();
            if (!device_error.empty())
                stream->NoteFailure("the device reported %s", device_error.c_str());
        }
        // The executor queue of an accelerator stream stays empty; still drained for safety.
        if (!status.ok()) return status;
    }
    return stream->executor()->WaitFor(stream->queue(), timeout);
}

aclError DeviceRefused(Stream* stream, int32_t status, const char* what) {
    backend::Accelerator* accelerator = stream->context()->device()->accelerator();
    if (accelerator == nullptr || stream->lane() == nullptr) {
        return Fail(ACL_ERROR_RT_FAILURE, "%s on stream %p failed", what,
                    static_cast<void*>(stream));
    }
    return Fail(ACL_ERROR_RT_FAILURE, "%s on stream %p failed on %s: %s", what,
                static_cast<void*>(stream), accelerator->name(),
                accelerator->StatusText(status).c_str());
}

bool QueryStream(Stream* stream) {
    if (backend::Lane* lane = stream->lane()) [[unlikely]] {
        if (!lane->Query()) return false;
    }
    return stream->executor()->Query(stream->queue());
}

std::string Stream::TakeFailureNote() {
    std::lock_guard lock(note_mutex_);
    std::string note;
    note.swap(note_);
    return note;
}

uint32_t StreamCountLocked(const Context* ctx) {
    uint32_t count = 0;
    for (const Context* c : ctx->device()->contexts) {
        count += static_cast<uint32_t>(c->streams.size()) + (c->default_stream ? 1 : 0);
    }
    return count;
}

aclError CreateStreamLocked(Context* ctx, uint32_t priority, uint32_t flags, bool is_default,
                            Stream** out) {
    Device* device = ctx->device();
    if (StreamCountLocked(ctx) >= kMaxStreamsPerDevice) {
        return Fail(ACL_ERROR_RT_NO_STREAM_RESOURCE,
                    "device %d already holds %u streams, the most it can: destroy streams you "
                    "no longer use",
                    device->id(), kMaxStreamsPerDevice);
    }
    cpu::Queue* queue = device->executor()->CreateQueue();
    if (queue == nullptr) {
        return Fail(ACL_ERROR_RT_NO_STREAM_RESOURCE, "device %d has no stream resources left",
                    device->id());
    }
    auto owned = std::make_unique<Stream>(ctx, device->executor(), queue, g_next_stream_id++,
                                          priority, flags, is_default);
    if (backend::Accelerator* accelerator = device->accelerator()) {
        int32_t status = 0;
        auto lane = accelerator->CreateLane(priority, ACL_ERROR_RT_AICORE_EXCEPTION, &status);
        if (lane == nullptr) {
            device->executor()->DestroyQueueForce(queue);
            return Fail(ACL_ERROR_RT_NO_STREAM_RESOURCE,
                        "device %d (%s) cannot create a stream: %s", device->id(),
                        accelerator->name(), accelerator->StatusText(status).c_str());
        }
        owned->set_lane(std::move(lane));
        static bool hooked = (trace::AddFlushHook(FlushAllLaneTraces), true);
        (void)hooked;
    }
    Stream* stream = Streams().Insert(std::move(owned));
    if (!is_default) ctx->streams.push_back(stream);
    if (check::On() && !is_default) check::NoteCreated(check::Resource::kStream, stream);
    *out = stream;
    return ACL_SUCCESS;
}

std::unique_ptr<Stream> DetachStreamLocked(Stream* stream) {
    // Another thread may have detached it since the caller resolved it.
    std::unique_ptr<Stream> owned = Streams().Remove(stream);
    if (owned == nullptr) return nullptr;
    Context* ctx = stream->context();
    // A default stream leaves with its context, which is unlinked too: its pointer stays, so
    // a call that found the context just before may still submit (the queue discards).
    if (ctx->default_stream != stream) {
        auto& list = ctx->streams;
        list.erase(std::remove(list.begin(), list.end(), stream), list.end());
    }
    ForgetStreamSubscriptions(stream);
    if (check::On()) check::NoteDestroyed(check::Resource::kStream, stream, 0, -1, "");
    return owned;
}

void FinishStream(std::unique_ptr<Stream> stream, bool force) {
    if (stream == nullptr) return;
    ResetStreamResLimit(stream->id());  // ids are never reused; the entry would only leak
    cpu::Executor* executor = stream->executor();
    cpu::Queue* queue = stream->queue();
    // The work settles now, as documented: it has run (or been discarded) when the call
    // returns. Only the queue's slot and the object wait until no call can still be using
    // them; by then anything a racing call submitted late is discarded.
    if (force) executor->DiscardQueue(queue);
    cpu::Executor::WaitPoint(queue, cpu::Executor::Submitted(queue), cpu::kWaitForever);
    // A device lane cannot discard what it has queued: its work runs to the end either way.
    if (stream->lane() != nullptr) {
        stream->lane()->Wait(cpu::kWaitForever);
        if (trace::On()) stream->FlushLaneTrace();
    }
    Stream* raw = stream.release();
    reclaim::Retire([raw] {
        raw->executor()->DestroyQueueForce(raw->queue());
        delete raw;
    });
}

bool StreamAlive(const Stream* stream) {
    return stream != nullptr && Streams().Find(stream) != nullptr;
}

Stream* StreamOfQueue(const cpu::Queue* queue) {
    Stream* found = nullptr;
    Streams().ForEach([&](Stream* stream) {
        if (stream->queue() == queue) found = stream;
    });
    return found;
}

Stream* ResolveStream(aclrtStream handle, aclError* rc) {
    // Strict checks: a stream used from a thread without a context is named with its own
    // context, which is the one to make current.
    if (check::On() && handle != nullptr && CurrentContext() == nullptr) [[unlikely]] {
        if (Stream* stream = Streams().Find(handle)) {
            *rc = Fail(ACL_ERROR_RT_CONTEXT_NULL,
                       "stream %p belongs to %s, but this thread has no current context: call "
                       "aclrtSetCurrentContext(%p) first",
                       handle, check::DescribeContext(stream->context()).c_str(),
                       static_cast<void*>(stream->context()));
            return nullptr;
        }
    }
    Context* current = RequireContext(rc);
    if (current == nullptr) return nullptr;
    if (handle == nullptr) {
        Stream* stream = current->default_stream;
        if (stream == nullptr) {
            *rc = Fail(ACL_ERROR_RT_CONTEXT_NULL, "the current context has no default stream");
        }
        return stream;
    }
    Stream* stream = Streams().Find(handle);
    if (stream == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "stream %p is not a live stream (never created, or already destroyed)", handle);
        return nullptr;
    }
    if (stream->context() != current) {
        *rc = Fail(ACL_ERROR_RT_STREAM_CONTEXT,
                   "stream %p belongs to %s, but this thread's current context is %s: call "
                   "aclrtSetCurrentContext(%p) first",
                   handle, check::DescribeContext(stream->context()).c_str(),
                   check::DescribeContext(current).c_str(), static_cast<void*>(stream->context()));
        return nullptr;
    }
    return stream;
}

aclError StreamWaitResult(Stream* stream, cpu::WaitStatus status, aclError timeout_code) {
    if (status.ok()) return ACL_SUCCESS;
    if (status.timed_out()) {
        return Fail(timeout_code, "stream %p still has unfinished tasks when the timeout expired",
                    static_cast<void*>(stream));
    }
    std::string note = stream->TakeFailureNote();
    if (note.empty() && status.code == ACL_ERROR_RT_TASK_ABORT_STOP) {
        note = "it was stopped by aclrtStreamStop";
    }
    return Fail(status.code, "a task on stream %p failed: %s", static_cast<void*>(stream),
                note.empty() ? "(no details)" : note.c_str());
}

aclError StreamFailureByHandle(const void* handle, cpu::WaitStatus status) {
    std::string note;
    {
        // Streams are detached under this lock, so one found here stays alive while it is held.
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        if (Stream* stream = Streams().Find(handle)) note = stream->TakeFailureNote();
    }
    return Fail(status.code, "a task on stream %p failed: %s", handle,
                note.empty() ? "(no details)" : note.c_str());
}

}  // namespace openacl
