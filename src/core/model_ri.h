// Model runtime instances (aclmdlRI*, CANN's graphs): the work a stream capture or an explicit
// build recorded instead of running, kept to run again as often as asked.
//
// Recording: while a stream is captured (aclmdlRICaptureBegin) or bound to a model being built
// (aclmdlRIBindStream), Stream::Submit hands each task here instead of to the executor. A task
// is 64 bytes of function and payload (backend/cpu/task.h), so the model keeps the task itself;
// a replay submits copies marked borrowed, which run but release nothing: what a payload owns
// (a kernel's argument block, a staging buffer) is released once, when the model is destroyed.
// A task that owns a payload and cannot run borrowed invalidates the capture, which then ends
// with an error naming the call.
//
// Events inside a capture are edges, not events: a record is a point of the replay and a
// wait on it (from any captured stream) waits for that point, so replays running at once do
// not share state. A wait on a stream that is not captured, for an event last recorded in a
// capture, pulls that stream into the capture (cross-stream capture); a record with
// ACL_EVENT_RECORD_EXTERNAL, and a wait for an event recorded outside, touch the real event
// at each replay.
//
// Replay (aclmdlRIExecuteAsync): the origin stream's tasks run on the stream given, every other
// captured stream's on a queue of the model's own, in capture order; the given stream then
// waits for all of them, so the replay is one unit of work of that stream.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "backend/cpu/executor.h"
#include "core/trace.h"

namespace openacl {

class Context;
class Event;
class Stream;
class ModelRI;

// What a submission site tells a capture about its task (kernels; the rest are DEFAULT).
struct CaptureInfo {
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    void* func = nullptr;  // kernels: the aclrtFuncHandle
    const void* args = nullptr;
    size_t args_size = 0;
    uint32_t num_blocks = 0;
    bool host_args = false;
};

struct ModelTask {
    enum class Op : uint8_t { kTask, kRecord, kWait, kExternalWait };
    Op op = Op::kTask;
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    bool disabled = false;   // aclmdlRITaskDisable
    bool external = false;   // kRecord: also records the real event (ACL_EVENT_RECORD_EXTERNAL)
    uint32_t stream = 0;     // index into ModelRI::streams (0: the origin)
    uint32_t seq_id = 0;     // position on its stream (aclmdlRITaskGetSeqId)
    uint32_t point = 0;      // kRecord: its point; kWait: the point it waits for
    Event* event = nullptr;  // event ops: the handle (resolved again at each replay)
    ModelRI* model = nullptr;
    CaptureInfo info;
    trace::Label label;
    cpu::Task task;
};

class ModelRI {
 public:
    enum class State : uint8_t { kCapturing, kBuilding, kReady };
    ModelRI(Context* context, uint32_t id, State state)
        : state_(state), context_(context), id_(id) {}
    ~ModelRI();
    ModelRI(const ModelRI&) = delete;
    ModelRI& operator=(const ModelRI&) = delete;

    Context* context() const { return context_; }
    uint32_t id() const { return id_; }

    std::mutex mutex;  // guards everything below
    State state_;
    std::string name;
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    bool strict_on_thread = false;  // the capture counts against its thread's unsafe calls
    std::thread::id capture_thread;
    std::deque<ModelTask> tasks;   // every stream's, in capture order (stable addresses)
    std::vector<Stream*> streams;  // [0]: the origin (capture) or first bound stream
    std::vector<uint32_t> per_stream_count;
    uint32_t points = 0;
    // Set when a call could not be captured: the capture ends with this error.
    aclError invalid_code = ACL_SUCCESS;
    std::string invalid_reason;
    std::vector<std::pair<aclrtCallback, void*>> destroy_callbacks;
    // Replay state: queues for the streams after the origin, and replays still running.
    std::vector<cpu::Queue*> queues;
    cpu::Executor* executor = nullptr;
    std::atomic<uint32_t> in_flight{0};
    bool destroyed = false;

 private:
    Context* context_;
    uint32_t id_;
};

// Called by Stream::Submit for a stream being captured or built: records the task.
void CaptureTask(ModelRI* model, Stream* stream, const cpu::Task& task, const trace::Label& label,
                 const CaptureInfo* info);
// Event operations on a captured stream, and waits that pull a stream into a capture. Return
// ACL_SUCCESS, or the error (recorded with a message) for a wait that cannot be captured.
aclError CaptureRecord(ModelRI* model, Stream* stream, Event* event, bool external);
// A wait on `stream` for `event`: captured when the stream is captured or when the event's
// newest record is in a running capture (which the stream then joins). *handled is false when
// the wait is an ordinary one.
aclError CaptureWaitIfCaptured(Stream* stream, Event* event, bool* handled);

// The API's operations (validation of handles included; errors recorded with a message).
aclError BeginCapture(Stream* stream, aclmdlRICaptureMode mode, ModelRI* into);
aclError EndCapture(Stream* stream, ModelRI** out);
aclError CaptureStatus(Stream* stream, aclmdlRICaptureStatus* status, ModelRI** model);
aclError BeginBuild(ModelRI** out);
aclError BindStream(ModelRI* model, Stream* stream, uint32_t flag);
aclError EndTask(ModelRI* model, Stream* stream);
aclError EndBuild(ModelRI* model);
aclError UnbindStream(ModelRI* model, Stream* stream);
aclError ExecuteAsync(ModelRI* model, Stream* stream);
aclError Execute(ModelRI* model, int32_t timeout_ms);
aclError DestroyModelRI(ModelRI* model);
aclError AbortModelRI(ModelRI* model);
// The live model behind a handle, or nullptr with ACL_ERROR_INVALID_PARAM recorded.
ModelRI* ResolveModelRI(aclmdlRI handle, aclError* rc);
// The live captured task behind a handle, or nullptr with the error recorded.
ModelTask* ResolveModelTask(aclmdlRITask handle, aclError* rc);
// The tasks a stream's model holds for it (aclmdlRIGetTasksByStream).
aclError TasksOfStream(Stream* stream, aclmdlRITask* tasks, uint32_t* count);
aclError DebugPrint(ModelRI* model, FILE* out, bool json, bool verbose);

// Unsafe calls (aclrtMemcpy, aclrtMemset, aclrtMemcpy2d, asynchronous copies of pageable
// memory) while captures run: refused per the capture modes (ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
// recorded with a message naming the call) or ACL_SUCCESS.
aclError CheckUnsafeCall(const char* what);
// Synchronising or running in-call work on a captured stream cannot be captured.
aclError RefuseIfCaptured(Stream* stream, const char* what);
// The calling thread's capture mode (aclmdlRICaptureThreadExchangeMode).
aclmdlRICaptureMode ExchangeThreadCaptureMode(aclmdlRICaptureMode mode);

}  // namespace openacl
