// Model runtime instances: lifetime, replay and the queries on recorded tasks. Recording is in
// model_ri_capture.cpp, updates in model_ri_update.cpp, conditional tasks in model_ri_cond.cpp.
#include "core/model_ri.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "acl/acl_mdl.h"
#include "backend/cpu/task_sequence.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/event.h"
#include "core/poll_park.h"
#include "core/stream.h"

namespace openacl {
namespace {

// Live models by handle and by id; destroyed models whose replays still run wait in Zombies.
std::mutex g_models_mutex;
std::unordered_map<const void*, ModelRI*>& Models() {
    static auto* models = new std::unordered_map<const void*, ModelRI*>;
    return *models;
}
std::vector<ModelRI*>& Zombies() {
    static auto* zombies = new std::vector<ModelRI*>;
    return *zombies;
}
uint32_t g_next_model_id = 1;  // g_models_mutex held

const char* TypeName(const ModelTask& task) {
    switch (task.op) {
        case ModelTask::Op::kCond:
            return "CONDITION";
        case ModelTask::Op::kActivate:
            return "ACTIVE_STREAM";
        case ModelTask::Op::kSwitchStream:
            return "SWITCH_STREAM";
        case ModelTask::Op::kSwitchLabel:
            return "SWITCH_LABEL";
        default:
            break;
    }
    switch (task.type) {
        case ACL_MODEL_RI_TASK_KERNEL:
            return "KERNEL";
        case ACL_MODEL_RI_TASK_EVENT_RECORD:
            return "EVENT_RECORD";
        case ACL_MODEL_RI_TASK_EVENT_WAIT:
            return "EVENT_WAIT";
        case ACL_MODEL_RI_TASK_EVENT_RESET:
            return "EVENT_RESET";
        case ACL_MODEL_RI_TASK_VALUE_WRITE:
            return "VALUE_WRITE";
        case ACL_MODEL_RI_TASK_VALUE_WAIT:
            return "VALUE_WAIT";
        default:
            return "DEFAULT";
    }
}

// Unregisters a model (and its children) and frees it once no replay uses it.
void Retire(ModelRI* model) {
    {
        std::lock_guard lock(g_models_mutex);
        Models().erase(model);
        Zombies().push_back(model);
    }
    ReapModelRIs();
}

}  // namespace

// A wait for an ACL_EVENT_EXTERNAL event inside a replay: CANN's events are flags on the
// device, so the replay waits, when it gets here, until the event is recorded and that record
// is done (a reset clears it again).
cpu::Task ExternalFlagWait(Event* handle) {
    return cpu::MakeTask(
        [handle](cpu::TaskContext& ctx) {
            if (ctx.cancelled()) return cpu::TaskStatus::Done();
            aclError rc = ACL_SUCCESS;
            Event* event = ResolveEvent(handle, &rc);
            if (event == nullptr) return cpu::TaskStatus::Failed(ACL_ERROR_RT_PARAM_INVALID);
            if (event->recorded() && event->Query()) return cpu::TaskStatus::Done();
            ParkUntilPolled(ctx.token());
            return cpu::TaskStatus::Suspended();
        },
        0, cpu::Task::kNoFlags);
}

void RecordExternal(Event* handle, cpu::Queue* queue) {
    aclError rc = ACL_SUCCESS;
    if (Event* event = ResolveEvent(handle, &rc)) event->RecordOnQueue(queue);
}

bool EnqueueExternalWait(Event* handle, cpu::Queue* queue, cpu::Task* flag_wait) {
    aclError rc = ACL_SUCCESS;
    Event* event = ResolveEvent(handle, &rc);
    if (event == nullptr) return false;  // destroyed since the capture: nothing to wait for
    if ((event->flags() & ACL_EVENT_EXTERNAL) != 0) {
        *flag_wait = ExternalFlagWait(handle);
        return true;
    }
    event->WaitOnQueue(queue);
    return false;
}

// A replay's reset of a captured event, when the replay gets there.
cpu::Task EventResetWhenRun(Event* handle) {
    return cpu::MakeTask([handle](cpu::TaskContext& ctx) {
        if (ctx.cancelled()) return;
        aclError rc = ACL_SUCCESS;
        if (Event* event = ResolveEvent(handle, &rc)) event->Reset();
        WakeParked();
    });
}

namespace {

// Queues for a model's streams and its branches' (mutex held): queues[i] runs streams[i]'s
// tasks; a captured model's origin tasks run on the caller's stream instead, so queues[0]
// stays null there.
bool EnsureQueues(ModelRI* model, cpu::Executor* executor) {
    model->executor = executor;
    model->queues.resize(model->streams.size(), nullptr);
    // A branch of a conditional task runs on queues of its own, its origin included.
    const size_t first = model->captured && model->parent == nullptr ? 1 : 0;
    for (size_t i = first; i < model->queues.size(); ++i) {
        if (model->queues[i] != nullptr) continue;
        model->queues[i] = executor->CreateQueue();
        if (model->queues[i] == nullptr) return false;
    }
    for (ModelRI* child : model->children) {
        std::lock_guard lock(child->mutex);
        if (!EnsureQueues(child, executor)) return false;
    }
    return true;
}

void ReleaseSuperseded(ModelRI* model) {
    for (cpu::Task& task : model->superseded)
        ReleaseTask(task);
    model->superseded.clear();
}

}  // namespace

ModelRI::~ModelRI() {
    for (ModelRI* child : children)
        delete child;
    for (ModelTask& task : tasks) {
        if (task.op == ModelTask::Op::kTask) ReleaseTask(task.task);
    }
    ReleaseSuperseded(this);
    FreeCondHandles(this);
    // Forced: a replay whose caller's stream was destroyed may have left a wait parked here.
    for (cpu::Queue* queue : queues) {
        if (queue != nullptr) executor->DestroyQueueForce(queue);
    }
}

void ReleaseTask(cpu::Task& task) {
    if ((task.flags & cpu::Task::kCallWhenCancelled) == 0) return;
    cpu::TaskContext ctx(nullptr, 0, cpu::RunReason::kDiscarded);
    task.fn(ctx, task.payload);
}

ModelRI* RegisterModelRI(Context* context, ModelRI::State state) {
    std::lock_guard lock(g_models_mutex);
    auto* model = new ModelRI(context, g_next_model_id++, state);
    Models().emplace(model, model);
    return model;
}

void ReapModelRIs() {
    std::vector<ModelRI*> due;
    {
        std::lock_guard lock(g_models_mutex);
        auto& zombies = Zombies();
        for (auto it = zombies.begin(); it != zombies.end();) {
            if ((*it)->in_flight.load(std::memory_order_acquire) == 0) {
                due.push_back(*it);
                it = zombies.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (ModelRI* model : due)
        delete model;
}

uint32_t ModelStreamIndex(ModelRI* model, Stream* stream) {
    for (uint32_t i = 0; i < model->streams.size(); ++i) {
        if (model->streams[i] == stream) return i;
    }
    model->streams.push_back(stream);
    model->per_stream_count.push_back(0);
    return static_cast<uint32_t>(model->streams.size() - 1);
}

ModelTask& AppendModelTask(ModelRI* model, Stream* stream, ModelTask::Op op,
                           aclmdlRITaskType type) {
    ModelTask& task = model->tasks.emplace_back();
    task.op = op;
    task.type = type;
    task.model = model;
    task.stream = ModelStreamIndex(model, stream);
    task.seq_id = model->per_stream_count[task.stream]++;
    model->sequences_stale = true;
    return task;
}

namespace {

// A replay runs each stretch of two or more consecutive tasks of one stream that can share a
// task (cpu::Task::kFusable, untagged, not in a task group) as one task sequence. The copies
// the sequences run are the model's own, so they are rebuilt only while no replay runs; a
// replay of a model changed while others ran runs its tasks one by one. A sequence holds at
// most kMaxSequence tasks, so that a long replay still lets a worker move to other streams
// between them as often as before (the executor's turn at a queue is 64 tasks). Returns
// whether the sequences are current.
constexpr uint32_t kMaxSequence = 64;

bool PrepareSequences(ModelRI* model) {
    if (!model->sequences_stale) return true;
    if (model->in_flight.load(std::memory_order_acquire) != 0) return false;
    model->sequences.clear();
    model->sequence_tasks.clear();
    auto fusable = [](const ModelTask& task) {
        return task.op == ModelTask::Op::kTask && !task.disabled && !task.cleaned &&
               task.group == nullptr && (task.task.flags & cpu::Task::kFusable) != 0 &&
               task.task.tag == 0;
    };
    const auto count = static_cast<uint32_t>(model->tasks.size());
    for (uint32_t first = 0; first < count;) {
        uint32_t end = first;
        while (end < count && end - first < kMaxSequence && fusable(model->tasks[end]) &&
               model->tasks[end].stream == model->tasks[first].stream) {
            ++end;
        }
        if (end - first >= 2) {
            const auto offset = static_cast<uint32_t>(model->sequence_tasks.size());
            model->sequences.push_back({first, end - first, offset});
            for (uint32_t i = first; i < end; ++i)
                model->sequence_tasks.push_back(model->tasks[i].task);
        }
        first = std::max(end, first + 1);
    }
    model->sequences_stale = false;
    return true;
}

}  // namespace

void EnqueueRun(ModelRI* model, cpu::Executor* executor, cpu::Queue* origin, Stream* stream) {
    struct Point {
        cpu::Queue* queue = nullptr;
        uint64_t seq = 0;
    };
    // Kept per thread, so that a replay allocates nothing once they have grown (a replay never
    // starts another on the same thread: branches of conditional tasks start on workers).
    thread_local std::vector<Point> points;
    points.assign(model->points, Point{});
    // Consecutive tasks of one queue go in one batch: one lock and one wake-up for the run
    // (traced replays on the caller's stream go one by one, so that each task keeps its label).
    thread_local std::vector<cpu::Task> batch;
    batch.clear();
    cpu::Queue* batch_queue = nullptr;
    const bool traced = trace::On() && origin == stream->queue();
    auto flush = [&] {
        if (!batch.empty()) executor->SubmitBatch(batch_queue, batch.data(), batch.size());
        batch.clear();
    };
    auto submit = [&](cpu::Queue* queue, const cpu::Task& task) {
        if (queue != batch_queue) flush();
        batch_queue = queue;
        batch.push_back(task);
    };
    if (!model->cond_handles.empty()) {
        submit(origin, cpu::MakeTask([model](cpu::TaskContext& ctx) {
                   if (!ctx.cancelled()) AssignCondDefaults(model);
               }));
    }
    // Task sequences: not for traced replays, nor for conditional branches, which may run
    // while their parent's replay enqueues another run of them.
    const bool sequenced = !traced && model->parent == nullptr && PrepareSequences(model);
    const ModelRI::Sequence* sequence = sequenced ? model->sequences.data() : nullptr;
    const ModelRI::Sequence* const sequences_end =
        sequence + (sequenced ? model->sequences.size() : 0);
    const auto count = static_cast<uint32_t>(model->tasks.size());
    for (uint32_t index = 0; index < count; ++index) {
        ModelTask& task = model->tasks[index];
        cpu::Queue* queue = task.stream == 0 ? origin : model->queues[task.stream];
        if (sequence != sequences_end && sequence->first == index) {
            submit(queue, cpu::MakeTaskSequence(&model->sequence_tasks[sequence->offset],
                                                sequence->count));
            index += sequence->count - 1;
            ++sequence;
            continue;
        }
        switch (task.op) {
            case ModelTask::Op::kTask: {
                if (task.disabled || task.cleaned) break;
                if (task.group != nullptr) {
                    submit(queue, GroupedLaunch(&task));
                    break;
                }
                cpu::Task copy = task.task;
                copy.flags |= cpu::Task::kBorrowed;
                if (queue == stream->queue() && traced) {
                    flush();
                    stream->SubmitUndiverted(copy, task.label);
                    break;
                }
                if (queue != stream->queue()) copy.tag = 0;
                submit(queue, copy);
                break;
            }
            case ModelTask::Op::kRecord:
                flush();
                points[task.point] = {queue, cpu::Executor::Submitted(queue)};
                if (task.external) RecordExternal(task.event, queue);
                break;
            case ModelTask::Op::kWait: {
                flush();
                const Point& point = points[task.point];
                if (point.queue != nullptr && point.queue != queue && point.seq != 0)
                    executor->SubmitWait(queue, point.queue, point.seq);
                break;
            }
            case ModelTask::Op::kExternalWait: {
                flush();
                cpu::Task flag_wait;
                if (EnqueueExternalWait(task.event, queue, &flag_wait)) submit(queue, flag_wait);
                break;
            }
            case ModelTask::Op::kReset:
                submit(queue, EventResetWhenRun(task.event));
                break;
            case ModelTask::Op::kCond:
                if (!task.disabled && !task.cleaned) {
                    submit(queue, CondRun(&task, executor, stream));
                }
                break;
            case ModelTask::Op::kActivate:
            case ModelTask::Op::kSwitchStream:
            case ModelTask::Op::kSwitchLabel:
                break;  // models with control flow run through EnqueueFlowRun
        }
    }
    flush();
    for (size_t i = 0; i < model->queues.size(); ++i) {
        cpu::Queue* queue = model->queues[i];
        if (queue == nullptr || queue == origin) continue;
        if (const uint64_t last = cpu::Executor::Submitted(queue))
            executor->SubmitWait(origin, queue, last);
    }
}

aclError ExecuteAsync(ModelRI* model, Stream* stream) {
    if (stream->capture() != nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_CAPTURED,
                    "stream %p is being captured: a model runtime instance cannot be run inside "
                    "a capture (conditional tasks, aclmdlRIAddCondTask, nest models)",
                    static_cast<void*>(stream));
    }
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "model runtime instances are not supported on the accelerator backends yet");
    }
    std::lock_guard lock(model->mutex);
    if (model->parent != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "model runtime instance %u is a branch of a conditional task of model "
                    "runtime instance %u: it runs when that model runs, not on its own",
                    model->id(), model->parent->id());
    }
    if (model->state_ != ModelRI::State::kReady) {
        return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                    "model runtime instance %u is still being %s: end that first", model->id(),
                    model->state_ == ModelRI::State::kCapturing ? "captured" : "built");
    }
    if (model->needs_update) {
        return Fail(ACL_ERROR_RT_MODEL_EXECUTE,
                    "model runtime instance %u has tasks changed by aclmdlRITaskSetParams or "
                    "aclmdlRITaskDisable: apply them with aclmdlRIUpdate before running it",
                    model->id());
    }
    for (Stream* captured : model->streams) {
        if (!StreamAlive(captured)) {
            return Fail(ACL_ERROR_RT_STREAM_MODEL,
                        "stream %p, whose work model runtime instance %u holds, was destroyed: "
                        "keep the streams of a model until the model is destroyed",
                        static_cast<void*>(captured), model->id());
        }
    }
    cpu::Executor* executor = stream->executor();
    if (!model->streams.empty() && model->streams[0]->executor() != executor) {
        return Fail(ACL_ERROR_RT_STREAM_CONTEXT,
                    "model runtime instance %u was recorded on device %d, but stream %p runs on "
                    "device %d",
                    model->id(), model->streams[0]->context()->device()->id(),
                    static_cast<void*>(stream), stream->context()->device()->id());
    }
    if (!EnsureQueues(model, executor)) {
        return Fail(ACL_ERROR_RT_NO_STREAM_RESOURCE,
                    "no queue is left for the streams of model runtime instance %u", model->id());
    }
    if (model->in_flight.load(std::memory_order_acquire) == 0) ReleaseSuperseded(model);
    cpu::Queue* const caller = stream->queue();
    // One replay after another: this one starts when the newest one has ended.
    if (model->last_queue != nullptr && model->last_queue != caller &&
        !cpu::Executor::Reached(model->last_queue, model->last_seq)) {
        executor->SubmitWait(caller, model->last_queue, model->last_seq);
    }
    if (model->has_flow) {
        EnqueueFlowRun(model, executor, stream);  // which tasks run is decided as they run
    } else {
        cpu::Queue* origin = model->captured ? caller : model->queues[0];
        if (origin != caller) {
            // A built model: its origin queue starts when the caller's stream gets here.
            executor->SubmitWait(origin, caller, cpu::Executor::Submitted(caller));
        }
        EnqueueRun(model, executor, origin, stream);
        if (origin != caller)
            executor->SubmitWait(caller, origin, cpu::Executor::Submitted(origin));
    }
    model->in_flight.fetch_add(1, std::memory_order_relaxed);
    // The end of the replay: failures of the model's own queues become the caller's.
    struct End {
        ModelRI* model;
        Stream* stream;
    };
    model->last_seq = stream->SubmitUndiverted(cpu::MakeTask(
        [end = End{model, stream}](cpu::TaskContext& ctx) {
            int32_t code = 0;
            {
                std::lock_guard lock(end.model->mutex);
                for (cpu::Queue* queue : end.model->queues) {
                    if (queue == nullptr) continue;
                    if (int32_t failed = cpu::Executor::TakeFailure(queue); code == 0)
                        code = failed;
                }
            }
            const uint32_t id = end.model->id();
            // The model may be freed from here on.
            end.model->in_flight.fetch_sub(1, std::memory_order_release);
            if (code != 0 && !ctx.cancelled()) {
                end.stream->NoteFailure("a task of model runtime instance %u failed (%d)", id,
                                        code);
                return cpu::TaskStatus::Failed(code);
            }
            return cpu::TaskStatus::Done();
        },
        0, cpu::Task::kCallWhenCancelled));
    model->last_queue = caller;
    return ACL_SUCCESS;
}

aclError Execute(ModelRI* model, int32_t timeout_ms) {
    Stream* stream = nullptr;
    {
        std::lock_guard lock(model->mutex);
        if (model->captured) {
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "model runtime instance %u was captured from a stream: CANN runs "
                        "captured models with aclmdlRIExecuteAsync only (aclmdlRIExecute runs "
                        "models built with aclmdlRIBuildBegin)",
                        model->id());
        }
        if (!model->streams.empty()) stream = model->streams[0];
    }
    if (stream == nullptr) return ACL_SUCCESS;  // nothing was recorded
    if (!StreamAlive(stream)) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p, the first stream of model runtime instance %u, was destroyed",
                    static_cast<void*>(stream), model->id());
    }
    if (aclError rc = ExecuteAsync(model, stream)) return rc;
    const auto timeout = timeout_ms < 0
                             ? cpu::kWaitForever
                             : std::chrono::nanoseconds(std::chrono::milliseconds(timeout_ms));
    return StreamWaitResult(stream, WaitStream(stream, timeout), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

aclError AbortModelRI(ModelRI* model) {
    std::lock_guard lock(model->mutex);
    if (model->captured || model->parent != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "model runtime instance %u was captured from a stream: CANN aborts only "
                    "models built with aclmdlRIBuildBegin",
                    model->id());
    }
    if (model->state_ != ModelRI::State::kReady) {
        return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                    "model runtime instance %u is still being built: end that first", model->id());
    }
    // The tasks not yet run are discarded with the model's queues (a running one finishes);
    // the caller's stream, which waits for their points, goes on. The next run makes new ones.
    StopFlowRuns(model);
    for (cpu::Queue*& queue : model->queues) {
        if (queue == nullptr) continue;
        model->executor->DestroyQueueForce(queue);
        queue = nullptr;
    }
    WakeFlowRuns(model);
    return ACL_SUCCESS;
}

aclError DestroyModelRI(ModelRI* model) {
    std::vector<std::pair<aclrtCallback, void*>> callbacks;
    {
        std::lock_guard lock(model->mutex);
        if (model->parent != nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "model runtime instance %u is a branch of a conditional task: it is "
                        "destroyed with model runtime instance %u",
                        model->id(), model->parent->id());
        }
        if (model->state_ == ModelRI::State::kCapturing) {
            return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                        "model runtime instance %u is still being captured: end the capture "
                        "(aclmdlRICaptureEnd) first",
                        model->id());
        }
        if (model->in_flight.load(std::memory_order_acquire) != 0) {
            return Fail(ACL_ERROR_RT_MODEL_RUNNING,
                        "model runtime instance %u is still running (or a task update of it is "
                        "pending): synchronise the streams that run it first",
                        model->id());
        }
        if (model->state_ == ModelRI::State::kBuilding) {
            for (Stream* stream : model->streams) {  // a build given up
                if (StreamAlive(stream) && stream->capture() == model) stream->set_capture(nullptr);
            }
        }
        callbacks.swap(model->destroy_callbacks);
    }
    for (const auto& [fn, data] : callbacks)
        fn(data);
    std::vector<ModelRI*> family{model};
    for (size_t i = 0; i < family.size(); ++i) {
        std::lock_guard lock(family[i]->mutex);
        family.insert(family.end(), family[i]->children.begin(), family[i]->children.end());
    }
    {
        std::lock_guard lock(g_models_mutex);
        for (ModelRI* member : family)
            Models().erase(member);
    }
    Retire(model);
    return ACL_SUCCESS;
}

ModelRI* FindRecordingModel(uint32_t id) {
    std::lock_guard lock(g_models_mutex);
    for (const auto& [key, model] : Models()) {
        if (model->id() != id) continue;
        std::lock_guard model_lock(model->mutex);
        return model->state_ == ModelRI::State::kReady ? nullptr : model;  // ended: stale
    }
    return nullptr;
}

ModelRI* ResolveModelRI(aclmdlRI handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "modelRI is null");
        return nullptr;
    }
    std::lock_guard lock(g_models_mutex);
    auto it = Models().find(handle);
    if (it == Models().end()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "modelRI %p is not a live model runtime instance (never made, or destroyed)",
                   handle);
        return nullptr;
    }
    return it->second;
}

ModelTask* ResolveModelTask(aclmdlRITask handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "task is null");
        return nullptr;
    }
    std::lock_guard lock(g_models_mutex);
    for (const auto& [key, model] : Models()) {
        std::lock_guard model_lock(model->mutex);
        for (ModelTask& task : model->tasks) {
            if (&task == handle) return &task;
        }
    }
    *rc = Fail(ACL_ERROR_INVALID_PARAM,
               "task %p is not a task of a live model runtime instance (aclmdlRIGetTasksByStream "
               "lists them)",
               handle);
    return nullptr;
}

TaskGroup* ResolveTaskGroup(aclrtTaskGrp handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
        return nullptr;
    }
    std::lock_guard lock(g_models_mutex);
    for (const auto& [key, model] : Models()) {
        std::lock_guard model_lock(model->mutex);
        for (TaskGroup& group : model->groups) {
            if (&group == handle) return &group;
        }
    }
    *rc = Fail(ACL_ERROR_INVALID_PARAM,
               "handle %p is not a task group of a live model runtime instance "
               "(aclmdlRICaptureTaskGrpEnd returns them)",
               handle);
    return nullptr;
}

CondHandle* ResolveCondHandle(aclmdlRICondHandle handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
        return nullptr;
    }
    std::lock_guard lock(g_models_mutex);
    for (const auto& [key, model] : Models()) {
        std::lock_guard model_lock(model->mutex);
        for (CondHandle& cond : model->cond_handles) {
            if (&cond == handle) return &cond;
        }
    }
    *rc = Fail(ACL_ERROR_INVALID_PARAM,
               "handle %p is not a condition handle of a live model runtime instance "
               "(aclmdlRICondHandleCreate makes them)",
               handle);
    return nullptr;
}

namespace {

void CollectQueues(ModelRI* model, std::vector<cpu::Queue*>* out) {
    std::lock_guard lock(model->mutex);
    for (cpu::Queue* queue : model->queues) {
        if (queue != nullptr) out->push_back(queue);
    }
    for (ModelRI* child : model->children)
        CollectQueues(child, out);
}

}  // namespace

std::vector<cpu::Queue*> PinModelQueues(cpu::Executor* executor, std::vector<ModelRI*>* pinned) {
    std::vector<cpu::Queue*> queues;
    std::lock_guard lock(g_models_mutex);
    for (const auto& [key, model] : Models()) {
        if (model->parent != nullptr) continue;  // a branch goes with its parent
        std::lock_guard model_lock(model->mutex);
        if (model->executor != executor) continue;
        model->in_flight.fetch_add(1, std::memory_order_acq_rel);
        pinned->push_back(model);
        for (cpu::Queue* queue : model->queues) {
            if (queue != nullptr) queues.push_back(queue);
        }
        for (ModelRI* child : model->children)
            CollectQueues(child, &queues);
    }
    return queues;
}

void UnpinModels(const std::vector<ModelRI*>& pinned) {
    for (ModelRI* model : pinned)
        model->in_flight.fetch_sub(1, std::memory_order_acq_rel);
}

ModelRI* NewestModelWithStream(Stream* stream, uint32_t* index) {
    ModelRI* owner = nullptr;
    std::lock_guard lock(g_models_mutex);
    for (const auto& [key, model] : Models()) {
        std::lock_guard model_lock(model->mutex);
        for (uint32_t i = 0; i < model->streams.size(); ++i) {
            if (model->streams[i] == stream && (owner == nullptr || model->id() > owner->id())) {
                owner = model;
                *index = i;
            }
        }
    }
    return owner;
}

aclError TasksOfStream(Stream* stream, aclmdlRITask* tasks, uint32_t* count) {
    uint32_t index = 0;
    ModelRI* owner = NewestModelWithStream(stream, &index);
    if (owner == nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p holds no tasks of a live model runtime instance",
                    static_cast<void*>(stream));
    }
    std::lock_guard lock(owner->mutex);
    uint32_t total = 0;
    for (const ModelTask& task : owner->tasks)
        total += task.stream == index && !task.cleaned ? 1 : 0;
    if (tasks == nullptr) {
        *count = total;
        return ACL_SUCCESS;
    }
    if (*count < total) {
        return Fail(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                    "stream %p holds %u tasks but the array has room for %u",
                    static_cast<void*>(stream), total, *count);
    }
    uint32_t n = 0;
    for (ModelTask& task : owner->tasks) {
        if (task.stream == index && !task.cleaned) tasks[n++] = &task;
    }
    *count = n;
    return ACL_SUCCESS;
}

aclError DebugPrint(ModelRI* model, FILE* out, bool json, bool verbose) {
    std::lock_guard lock(model->mutex);
    if (!json) {
        std::fprintf(out, "model runtime instance %u \"%s\": %zu streams, %zu tasks\n", model->id(),
                     model->name.c_str(), model->streams.size(), model->tasks.size());
        for (const ModelTask& task : model->tasks) {
            if (task.cleaned) continue;
            const Stream* stream = model->streams[task.stream];
            std::fprintf(out, "  stream %d task %u: %s%s%s\n", stream->id(), task.seq_id,
                         TypeName(task), task.group != nullptr ? " (task group)" : "",
                         task.disabled ? " (disabled)" : "");
        }
        return ACL_SUCCESS;
    }
    nlohmann::json doc;
    doc["modelRIId"] = model->id();
    doc["name"] = model->name;
    doc["deviceId"] = model->context()->device()->id();
    nlohmann::json streams = nlohmann::json::array();
    for (uint32_t i = 0; i < model->streams.size(); ++i) {
        nlohmann::json stream;
        stream["streamId"] = model->streams[i]->id();
        nlohmann::json list = nlohmann::json::array();
        for (const ModelTask& task : model->tasks) {
            if (task.stream != i || task.cleaned) continue;
            nlohmann::json entry;
            entry["taskId"] = task.seq_id;
            entry["taskType"] = TypeName(task);
            entry["disabled"] = task.disabled;
            if (verbose && task.type == ACL_MODEL_RI_TASK_KERNEL) {
                entry["numBlocks"] = task.info.num_blocks;
                entry["argsSize"] = task.info.args_size;
                entry["taskGroup"] = task.group != nullptr;
            }
            if (verbose && task.op == ModelTask::Op::kCond) {
                nlohmann::json branches = nlohmann::json::array();
                for (const ModelRI* branch : task.cond->branches)
                    branches.push_back(branch->id());
                entry["branches"] = std::move(branches);
            }
            list.push_back(std::move(entry));
        }
        stream["tasks"] = std::move(list);
        streams.push_back(std::move(stream));
    }
    doc["streams"] = std::move(streams);
    const std::string text = doc.dump(2);
    std::fwrite(text.data(), 1, text.size(), out);
    std::fputc('\n', out);
    return ACL_SUCCESS;
}

}  // namespace openacl
