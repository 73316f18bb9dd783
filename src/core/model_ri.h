// Model runtime instances (aclmdlRI*, CANN's graphs): the work a stream capture or an explicit
// build recorded instead of running, kept to run again as often as asked.
//
// Recording (model_ri_capture.cpp): while a stream is captured (aclmdlRICaptureBegin) or bound
// to a model being built (aclmdlRIBindStream), Stream::Submit hands each task here instead of
// to the executor. A task is 64 bytes of function and payload (backend/cpu/task.h), so the
// model keeps the task itself; a replay submits copies marked borrowed, which run but release
// nothing: what a payload owns (a kernel's argument block, a staging buffer) is released once,
// when the model is destroyed. A task that owns a payload and cannot run borrowed invalidates
// the capture, which then ends with an error naming the call.
//
// Events inside a capture are edges, not events: a record is a point of the replay and a
// wait on it (from any captured stream) waits for that point, so replays running at once do
// not share state. A wait on a stream that is not captured, for an event last recorded in a
// capture, pulls that stream into the capture (cross-stream capture); a record with
// ACL_EVENT_RECORD_EXTERNAL, and a wait for an event recorded outside, touch the real event
// at each replay. A wait for an ACL_EVENT_EXTERNAL event waits, when the replay gets there,
// until the event is recorded (CANN's device events are flags: recorded, or reset).
//
// Replay (model_ri.cpp, aclmdlRIExecuteAsync): the origin stream's tasks of a captured model
// run on the stream given, every other captured stream's on a queue of the model's own, in
// capture order; the given stream then waits for all of them, so the replay is one unit of
// work of that stream. Replays of one model run one after another, as CANN documents,
// whichever streams run them. A built model's tasks all run on queues of its own, so that
// aclmdlRIAbort can discard what it has not run yet without touching the caller's stream.
//
// Updates (model_ri_update.cpp): aclmdlRITaskSetParams and aclmdlRITaskDisable change an idle
// model, which then runs only after aclmdlRIUpdate. Launches captured in a task group
// (aclmdlRICaptureTaskGrpBegin/End) can instead be patched by the launches another stream
// issues between aclmdlRICaptureTaskUpdateBegin and End: each patch is a task of that stream,
// and a replay reads a grouped launch when it runs it, so a patch ordered before that point
// (by the stream, or an event) is what runs.
//
// Conditional tasks (model_ri_cond.cpp, aclmdlRIAddCondTask): a task of the parent's stream
// that reads the condition value when it runs and runs the chosen child model (IF, SWITCH),
// or the child while the value is non-zero (WHILE), on a queue of its own, holding the parent's
// stream until the child is done.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "backend/cpu/executor.h"
#include "core/kernel.h"
#include "core/trace.h"

namespace openacl {

class Context;
class Event;
class Stream;
class ModelRI;
struct TaskGroup;
struct CondTask;
struct FlowOp;
struct FlowRun;
struct Label;

// What a submission site tells a capture about its task (kernels, value writes and waits; the
// rest are DEFAULT).
struct CaptureInfo {
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    void* func = nullptr;  // kernels: the aclrtFuncHandle
    const void* args = nullptr;
    size_t args_size = 0;
    uint32_t num_blocks = 0;
    bool host_args = false;
    LaunchOptions launch;  // kernels: the attributes of the launch
    // Value writes and waits: the address, value and compare flag.
    void* address = nullptr;
    uint64_t value = 0;
    uint32_t flag = 0;
    // Random-number tasks: their description (aclrtTaskUpdateAsync updates from it).
    std::shared_ptr<const aclrtRandomNumTaskInfo> random;
};

struct ModelTask {
    enum class Op : uint8_t {
        kTask,
        kRecord,
        kWait,
        kExternalWait,
        kReset,
        kCond,
        // Control flow of built models (model_ri_flow.cpp): aclrtActiveStream,
        // aclrtSwitchStream, aclrtSwitchLabelByIndex.
        kActivate,
        kSwitchStream,
        kSwitchLabel,
    };
    Op op = Op::kTask;
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    bool disabled = false;   // aclmdlRITaskDisable
    bool cleaned = false;    // aclrtPersistentTaskClean dropped it from a build: gone for good
    bool external = false;   // kRecord: also records the real event (ACL_EVENT_RECORD_EXTERNAL)
    uint32_t stream = 0;     // index into ModelRI::streams (0: the origin)
    uint32_t seq_id = 0;     // position on its stream (aclmdlRITaskGetSeqId)
    uint32_t point = 0;      // kRecord: its point; kWait: the point it waits for
    Event* event = nullptr;  // event ops: the handle (resolved again at each replay)
    ModelRI* model = nullptr;
    TaskGroup* group = nullptr;  // a launch of a task group: read when a replay runs it
    CondTask* cond = nullptr;    // kCond
    FlowOp* flow = nullptr;      // kActivate, kSwitchStream, kSwitchLabel
    CaptureInfo info;
    trace::Label label;
    cpu::Task task;
};

// Launches captured between aclmdlRICaptureTaskGrpBegin and End, patchable afterwards.
struct TaskGroup {
    ModelRI* model = nullptr;
    uint32_t stream = 0;  // the captured stream it was opened on (index)
    bool open = true;
    std::vector<ModelTask*> tasks;
    // A task update in progress (aclmdlRICaptureTaskUpdateBegin): its stream, how many of the
    // group's launches it has patched, and the first error, which UpdateEnd reports.
    Stream* updater = nullptr;
    uint32_t updated = 0;
    aclError update_error = ACL_SUCCESS;
    std::string update_reason;
};

// aclmdlRICondHandleCreate: an 8-byte value in device memory that a conditional task reads.
struct CondHandle {
    ModelRI* model = nullptr;  // the model being captured that owns it
    uint64_t* value = nullptr;
    uint64_t default_value = 0;
    bool assign_default = false;  // written at the start of every run of the model
    bool used = false;            // one conditional task per handle
};

struct CondTask {
    CondHandle* handle = nullptr;
    aclmdlRICondTaskType type = ACL_MODEL_RI_COND_TYPE_IF;
    std::vector<ModelRI*> branches;  // children, owned by the parent model
};

// A control-flow task of a built model: the stream it starts (kActivate, kSwitchStream when
// the comparison holds) or the labels it jumps to (kSwitchLabel, by the index in memory).
struct FlowOp {
    uint32_t target = 0;  // stream index
    const void* left = nullptr;
    const void* right = nullptr;
    aclrtCondition condition = ACL_RT_EQUAL;
    aclrtCompareDataType data_type = ACL_RT_SWITCH_INT32;
    const uint32_t* index = nullptr;
    std::vector<Label*> labels;  // until the build ends
    // (stream, position) of each label, resolved when the build ends.
    std::vector<std::pair<uint32_t, uint32_t>> jumps;
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
    bool captured = false;  // made by a capture (an ACL graph), not by aclmdlRIBuildBegin
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
    // Task groups and the group open on a captured stream (one at a time).
    std::deque<TaskGroup> groups;
    TaskGroup* open_group = nullptr;
    // aclmdlRITaskSetParams / aclmdlRITaskDisable changed the model: it runs again only after
    // aclmdlRIUpdate.
    bool needs_update = false;
    // Task versions replaced by patches, released when no replay can be running them.
    std::vector<cpu::Task> superseded;
    // Conditional tasks: handles, tasks, and the children they run. A child's parent owns it.
    std::deque<CondHandle> cond_handles;
    std::deque<CondTask> cond_tasks;
    ModelRI* parent = nullptr;
    std::vector<ModelRI*> children;
    // Built models: which bound streams start with the model (ACL_MODEL_STREAM_FLAG_HEAD) and
    // which only when activated; control-flow tasks; each stream's tasks in order (made when
    // the build ends) and the state of the run in progress, when the model has control flow.
    std::vector<bool> head;
    std::deque<FlowOp> flow_ops;
    bool has_flow = false;
    std::vector<std::vector<ModelTask*>> stream_tasks;
    std::vector<FlowRun*> flow_runs;  // runs in progress (each holds a reference)
    // Replay state: queues for the streams after the origin, the end of the newest replay
    // (the next one waits for it), and how many replays (and pending patches) still run.
    std::vector<cpu::Queue*> queues;
    cpu::Executor* executor = nullptr;
    cpu::Queue* last_queue = nullptr;
    uint64_t last_seq = 0;
    std::atomic<uint32_t> in_flight{0};
    // Stretches of consecutive tasks of one stream that a replay runs as one task (see
    // PrepareSequences): where each starts in `tasks`, how many, and where their copies start
    // in sequence_tasks. Rebuilt when the tasks changed (sequences_stale) and no replay runs.
    struct Sequence {
        uint32_t first = 0;
        uint32_t count = 0;
        uint32_t offset = 0;
    };
    std::vector<Sequence> sequences;
    std::vector<cpu::Task> sequence_tasks;
    bool sequences_stale = true;
    // Guards the task of every grouped launch (ModelTask::task where group is set), which
    // patches replace while replays may be reading it.
    std::mutex patch_mutex;

 private:
    Context* context_;
    uint32_t id_;
};

// ---- Recording (model_ri_capture.cpp) ------------------------------------------------------
// Called by Stream::Submit for a stream being captured or built: records the task.
void CaptureTask(ModelRI* model, Stream* stream, const cpu::Task& task, const trace::Label& label,
                 const CaptureInfo* info);
// Event operations on a captured stream, and waits that pull a stream into a capture. Return
// ACL_SUCCESS, or the error (recorded with a message) for a wait that cannot be captured.
aclError CaptureRecord(ModelRI* model, Stream* stream, Event* event, bool external);
aclError CaptureReset(ModelRI* model, Stream* stream, Event* event);
// A wait on `stream` for `event`: captured when the stream is captured or when the event's
// newest record is in a running capture (which the stream then joins). *handled is false when
// the wait is an ordinary one.
aclError CaptureWaitIfCaptured(Stream* stream, Event* event, bool* handled);

aclError BeginCapture(Stream* stream, aclmdlRICaptureMode mode, ModelRI* into);
aclError EndCapture(Stream* stream, ModelRI** out);
aclError CaptureStatus(Stream* stream, aclmdlRICaptureStatus* status, ModelRI** model);
aclError BeginBuild(ModelRI** out);
aclError BindStream(ModelRI* model, Stream* stream, uint32_t flag);
aclError EndTask(ModelRI* model, Stream* stream);
aclError EndBuild(ModelRI* model);
aclError UnbindStream(ModelRI* model, Stream* stream);
// aclrtPersistentTaskClean: drops the tasks a persistent stream has put into the model being
// built so far, so that it can issue them again; the stream stays bound. A persistent stream
// bound to no build holds no tasks (a built model keeps its own), so there is nothing to drop.
aclError CleanPersistentTasks(Stream* stream);
// aclrtDeviceTaskAbort: the queues the live models of `executor` run their replays' work on
// beyond the caller's stream (joined and built streams, conditional branches), so the abort
// can discard what they hold. The models are pinned (counted as running, so not destroyed)
// until UnpinModels.
std::vector<cpu::Queue*> PinModelQueues(cpu::Executor* executor, std::vector<ModelRI*>* pinned);
void UnpinModels(const std::vector<ModelRI*>& pinned);
// The newest live model that holds tasks of `stream`, and the stream's index in it; null if none.
ModelRI* NewestModelWithStream(Stream* stream, uint32_t* index);
// aclrtTaskUpdateAsync: a task on `exec` that, when it runs, reads the new values from device
// memory and replaces the model's task `task_id` of `task_stream` (a kernel's function and block
// count, or a random-number task's addresses, seed and count); later replays run the new one.
aclError UpdateTaskAsync(Stream* task_stream, uint32_t task_id, const aclrtTaskUpdateInfo& info,
                         Stream* exec);
aclError BeginTaskGroup(Stream* stream);
aclError EndTaskGroup(Stream* stream, TaskGroup** out);

// Unsafe calls (aclrtMemcpy, aclrtMemset, aclrtMemcpy2d, asynchronous copies of pageable
// memory) while captures run: refused per the capture modes (ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC
// recorded with a message naming the call) or ACL_SUCCESS.
aclError CheckUnsafeCall(const char* what);
// Synchronising a stream being captured (unless the capture is RELAXED): refused, and the
// capture is invalidated, as CANN does.
aclError RefuseIfCaptured(Stream* stream, const char* what);
// Work done in the call (asynchronous copies of pageable memory) cannot be recorded: refused
// on a captured or bound stream, whatever the mode.
aclError RefuseInCallWork(Stream* stream, const char* what);
// The calling thread's capture mode (aclmdlRICaptureThreadExchangeMode).
aclmdlRICaptureMode ExchangeThreadCaptureMode(aclmdlRICaptureMode mode);

// ---- Lifetime, replay and queries (model_ri.cpp) -----------------------------------------
ModelRI* RegisterModelRI(Context* context, ModelRI::State state);
aclError ExecuteAsync(ModelRI* model, Stream* stream);
aclError Execute(ModelRI* model, int32_t timeout_ms);
aclError DestroyModelRI(ModelRI* model);
aclError AbortModelRI(ModelRI* model);
// Frees destroyed models once their last replay is done.
void ReapModelRIs();
// The model with this id while it is still recording (capture or build), or nullptr.
ModelRI* FindRecordingModel(uint32_t id);
// The live model behind a handle, or nullptr with ACL_ERROR_INVALID_PARAM recorded.
ModelRI* ResolveModelRI(aclmdlRI handle, aclError* rc);
// The live captured task behind a handle, or nullptr with the error recorded.
ModelTask* ResolveModelTask(aclmdlRITask handle, aclError* rc);
TaskGroup* ResolveTaskGroup(aclrtTaskGrp handle, aclError* rc);
CondHandle* ResolveCondHandle(aclmdlRICondHandle handle, aclError* rc);
// The tasks a stream's model holds for it (aclmdlRIGetTasksByStream).
aclError TasksOfStream(Stream* stream, aclmdlRITask* tasks, uint32_t* count);
aclError DebugPrint(ModelRI* model, FILE* out, bool json, bool verbose);

// Helpers shared by the files above (model mutex held where a model is passed).
uint32_t ModelStreamIndex(ModelRI* model, Stream* stream);
ModelTask& AppendModelTask(ModelRI* model, Stream* stream, ModelTask::Op op, aclmdlRITaskType type);
void InvalidateCapture(ModelRI* model, aclError code, const std::string& why);
// Calls a task that owns its payload so that it releases it (as a discarded run does).
void ReleaseTask(cpu::Task& task);
// Enqueues one run of `model` with its origin tasks on `origin` (replays and children of
// conditional tasks); the caller has checked that it may run.
void EnqueueRun(ModelRI* model, cpu::Executor* executor, cpu::Queue* origin, Stream* stream);

// ---- Control flow of built models (model_ri_flow.cpp) -----------------------------------
aclError ActivateStream(Stream* target, Stream* stream);
aclError SwitchStream(const void* left, aclrtCondition condition, const void* right,
                      aclrtCompareDataType data_type, Stream* target, Stream* stream);
aclError SwitchLabel(const uint32_t* index, uint32_t max_value, const std::vector<Label*>& labels,
                     Stream* stream);
// When a build ends (model mutex held): resolves the labels and indexes each stream's tasks.
aclError FinishFlow(ModelRI* model);
// Enqueues one run of a built model with control flow on `stream` (model mutex held).
void EnqueueFlowRun(ModelRI* model, cpu::Executor* executor, Stream* stream);
// aclmdlRIAbort (model mutex held): StopFlowRuns before the model's queues go (its runs then
// enqueue nothing more), WakeFlowRuns after, so that the streams waiting for them go on.
void StopFlowRuns(ModelRI* model);
void WakeFlowRuns(ModelRI* model);

// Event operations of a replay (model_ri.cpp): an ACL_EVENT_RECORD_EXTERNAL record of the real
// event on `queue`; a wait for an event recorded outside the capture, enqueued on `queue` now
// (false), or, for an ACL_EVENT_EXTERNAL event, a task that waits for its flag when it runs,
// for the caller to submit in order (true); a reset when the replay gets there.
void RecordExternal(Event* handle, cpu::Queue* queue);
bool EnqueueExternalWait(Event* handle, cpu::Queue* queue, cpu::Task* flag_wait);
cpu::Task ExternalFlagWait(Event* handle);
cpu::Task EventResetWhenRun(Event* handle);

// ---- Updates (model_ri_update.cpp) -------------------------------------------------------
aclError SetTaskParams(ModelTask* task, const aclmdlRITaskParams& params);
aclError DisableTask(ModelTask* task);
aclError UpdateModelRI(ModelRI* model);
aclError KernelTaskAttribute(ModelTask* task, aclrtLaunchKernelAttrId id,
                             aclrtLaunchKernelAttrValue* value);
aclError BeginTaskUpdate(Stream* stream, TaskGroup* group);
aclError EndTaskUpdate(Stream* stream);
// Called by Stream::Submit for a stream updating a task group: turns a launch into a patch.
uint64_t UpdateGroupTask(TaskGroup* group, Stream* stream, const cpu::Task& task,
                         const trace::Label& label, const CaptureInfo* info);
// Runs a grouped launch as it stands now (replays submit this instead of a copy).
cpu::Task GroupedLaunch(ModelTask* task);

// ---- Conditional tasks (model_ri_cond.cpp) ------------------------------------------------
aclError CreateCondHandle(ModelRI* model, uint32_t default_value, uint32_t flag, CondHandle** out);
aclError AddCondTask(const aclmdlRICondTaskParams& params, Stream* stream, uint32_t flags);
// The task a replay submits for a conditional task.
cpu::Task CondRun(ModelTask* task, cpu::Executor* executor, Stream* stream);
// Writes the default values of a model's ASSIGN_DEFAULT handles (first task of each run).
void AssignCondDefaults(ModelRI* model);
void FreeCondHandles(ModelRI* model);

}  // namespace openacl
