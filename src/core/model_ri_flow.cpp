// Control flow of built models: streams a model starts only when another activates them
// (aclrtActiveStream, streams bound with ACL_MODEL_STREAM_FLAG_DEFAULT), conditional switches
// to another stream (aclrtSwitchStream) and jumps to labels (aclrtSwitchLabelByIndex).
//
// Such a model cannot be enqueued whole when it runs: which tasks run next is decided on the
// device. A run starts the head streams with their first segment (their tasks up to the next
// control task, or the end); a control task, when it runs, reads its values and enqueues the
// segment it leads to on that stream's queue. A counter of running streams tells the waiting
// caller's stream when the run is over: a stream that reaches its end decrements it; one that
// activates another increments it; switches and jumps hand the stream's place to their target.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "core/error.h"
#include "core/label.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/poll_park.h"
#include "core/stream.h"

namespace openacl {

// One run of a flow model. Referenced by the run's own tasks, by the model's list while the
// run is in progress, and by the caller's waiting task; freed by the last.
struct FlowRun {
    ModelRI* model = nullptr;
    cpu::Executor* executor = nullptr;
    Stream* stream = nullptr;  // the caller's: failures are reported there
    std::atomic<int32_t> refs{1};
    std::atomic<int32_t> active{0};
    std::mutex mutex;  // guards what follows
    bool stopped = false;
    cpu::SuspendToken join{};
    std::vector<std::pair<cpu::Queue*, uint64_t>> points;

    void Retain() { refs.fetch_add(1, std::memory_order_relaxed); }
    void Release() {
        if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }
};

namespace {

// The built model `stream` is bound to, with the model's mutex held by `lock`; or nullptr with
// ACL_ERROR_RT_STREAM_MODEL recorded.
ModelRI* BuildingModel(Stream* stream, const char* what, std::unique_lock<std::mutex>* lock) {
    ModelRI* model = stream->capture();
    if (model != nullptr) {
        *lock = std::unique_lock(model->mutex);
        if (model->state_ == ModelRI::State::kBuilding) return model;
        lock->unlock();
    }
    Fail(ACL_ERROR_RT_STREAM_MODEL,
         "%s: stream %p is not bound to a model being built (aclmdlRIBuildBegin, "
         "aclmdlRIBindStream)",
         what, static_cast<void*>(stream));
    return nullptr;
}

// Index of `target` in `model` when bound to it and started by activation only.
aclError ActivatedStream(ModelRI* model, Stream* target, const char* what, uint32_t* index) {
    const auto it = std::find(model->streams.begin(), model->streams.end(), target);
    if (it == model->streams.end()) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "%s: stream %p is not bound to model runtime instance %u", what,
                    static_cast<void*>(target), model->id());
    }
    *index = static_cast<uint32_t>(it - model->streams.begin());
    if (model->head[*index]) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: stream %p starts with the model (ACL_MODEL_STREAM_FLAG_HEAD); streams "
                    "that others start are bound with ACL_MODEL_STREAM_FLAG_DEFAULT",
                    what, static_cast<void*>(target));
    }
    return ACL_SUCCESS;
}

ModelTask& AppendFlow(ModelRI* model, Stream* stream, ModelTask::Op op, FlowOp&& flow) {
    FlowOp& kept = model->flow_ops.emplace_back(std::move(flow));
    ModelTask& task = AppendModelTask(model, stream, op, ACL_MODEL_RI_TASK_DEFAULT);
    task.flow = &kept;
    model->has_flow = true;
    return task;
}

template <class T>
bool Compare(T left, T right, aclrtCondition condition) {
    switch (condition) {
        case ACL_RT_EQUAL:
            return left == right;
        case ACL_RT_NOT_EQUAL:
            return left != right;
        case ACL_RT_GREATER:
            return left > right;
        case ACL_RT_GREATER_OR_EQUAL:
            return left >= right;
        case ACL_RT_LESS:
            return left < right;
        case ACL_RT_LESS_OR_EQUAL:
            return left <= right;
    }
    return false;
}

template <class T>
T Load(const void* p) {
    return std::atomic_ref<T>(*static_cast<T*>(const_cast<void*>(p)))
        .load(std::memory_order_acquire);
}

void EnqueueSegment(FlowRun* run, uint32_t stream, uint32_t position);

// The end of a stream's part of the run.
cpu::Task Finish(FlowRun* run) {
    run->Retain();
    return cpu::MakeTask(
        [run](cpu::TaskContext& ctx) {
            if (!ctx.cancelled()) {
                cpu::SuspendToken join;
                {
                    std::lock_guard lock(run->mutex);
                    join = run->join;
                }
                if (run->active.fetch_sub(1, std::memory_order_acq_rel) == 1)
                    cpu::Executor::Resume(join);
            }
            run->Release();
        },
        0, cpu::Task::kCallWhenCancelled);
}

// A wait, inside a flow run, for a record another stream of the run makes: where that record
// lands is known only once its segment is enqueued, so the wait looks when it runs.
cpu::Task PointWait(FlowRun* run, uint32_t point) {
    run->Retain();
    return cpu::MakeTask(
        [run, point](cpu::TaskContext& ctx) {
            if (ctx.cancelled()) {
                run->Release();
                return cpu::TaskStatus::Done();
            }
            std::pair<cpu::Queue*, uint64_t> at;
            {
                std::lock_guard lock(run->mutex);
                at = run->points[point];
            }
            if (at.first != nullptr && cpu::Executor::Reached(at.first, at.second)) {
                run->Release();
                return cpu::TaskStatus::Done();
            }
            ParkUntilPolled(ctx.token());
            return cpu::TaskStatus::Suspended();
        },
        0, cpu::Task::kCallWhenCancelled);
}

// A control task: decides, when it runs, which segment comes next.
cpu::Task Control(FlowRun* run, const ModelTask* task) {
    run->Retain();
    return cpu::MakeTask(
        [run, task](cpu::TaskContext& ctx) {
            cpu::TaskStatus status = cpu::TaskStatus::Done();
            if (ctx.cancelled()) {
                run->Release();
                return status;
            }
            const FlowOp& flow = *task->flow;
            const uint32_t next = task->seq_id + 1;
            switch (task->op) {
                case ModelTask::Op::kActivate:
                    run->active.fetch_add(1, std::memory_order_relaxed);
                    EnqueueSegment(run, flow.target, 0);
                    EnqueueSegment(run, task->stream, next);
                    break;
                case ModelTask::Op::kSwitchStream: {
                    const size_t bytes = flow.data_type == ACL_RT_SWITCH_INT64 ? 8 : 4;
                    if (LiveDeviceRangeProblem(flow.left, bytes) != nullptr ||
                        LiveDeviceRangeProblem(flow.right, bytes) != nullptr) {
                        run->stream->NoteFailure(
                            "aclrtSwitchStream: the values it compares (%p, %p) were freed",
                            flow.left, flow.right);
                        status = cpu::TaskStatus::Failed(ACL_ERROR_RT_PARAM_INVALID);
                        EnqueueSegment(run, task->stream, UINT32_MAX);  // this stream ends
                        break;
                    }
                    const bool taken = flow.data_type == ACL_RT_SWITCH_INT64
                                           ? Compare(Load<int64_t>(flow.left),
                                                     Load<int64_t>(flow.right), flow.condition)
                                           : Compare(Load<int32_t>(flow.left),
                                                     Load<int32_t>(flow.right), flow.condition);
                    // Taken: the target goes on in this stream's place, which stops here.
                    if (taken) {
                        EnqueueSegment(run, flow.target, 0);
                    } else {
                        EnqueueSegment(run, task->stream, next);
                    }
                    break;
                }
                case ModelTask::Op::kSwitchLabel: {
                    if (LiveDeviceRangeProblem(flow.index, sizeof(uint32_t)) != nullptr) {
                        run->stream->NoteFailure(
                            "aclrtSwitchLabelByIndex: the index at %p was freed",
                            static_cast<const void*>(flow.index));
                        status = cpu::TaskStatus::Failed(ACL_ERROR_RT_PARAM_INVALID);
                        EnqueueSegment(run, task->stream, UINT32_MAX);
                        break;
                    }
                    // An index past the last label goes to the last one, as CANN documents.
                    const uint32_t index = std::min<uint32_t>(
                        Load<uint32_t>(flow.index), static_cast<uint32_t>(flow.jumps.size() - 1));
                    const auto [stream, position] = flow.jumps[index];
                    EnqueueSegment(run, stream, position);
                    break;
                }
                default:
                    break;
            }
            run->Release();
            return status;
        },
        0, cpu::Task::kCallWhenCancelled);
}

// Enqueues `stream`'s tasks from `position` up to its next control task, or to its end and its
// Finish (a position past the end enqueues the Finish alone). Nothing once the run is stopped.
void EnqueueSegment(FlowRun* run, uint32_t stream, uint32_t position) {
    std::lock_guard lock(run->mutex);
    if (run->stopped) return;
    ModelRI* model = run->model;
    cpu::Queue* queue = model->queues[stream];
    cpu::Executor* executor = run->executor;
    const std::vector<ModelTask*>& tasks = model->stream_tasks[stream];
    for (size_t i = position; i < tasks.size(); ++i) {
        ModelTask& task = *tasks[i];
        switch (task.op) {
            case ModelTask::Op::kTask: {
                if (task.cleaned) break;
                cpu::Task copy;
                {
                    // aclrtTaskUpdateAsync may be replacing it.
                    std::lock_guard patch_lock(model->patch_mutex);
                    copy = task.task;
                }
                copy.flags |= cpu::Task::kBorrowed;
                copy.tag = 0;
                executor->Submit(queue, copy);
                break;
            }
            case ModelTask::Op::kRecord:
                run->points[task.point] = {queue, cpu::Executor::Submitted(queue)};
                if (task.external) RecordExternal(task.event, queue);
                break;
            case ModelTask::Op::kWait:
                executor->Submit(queue, PointWait(run, task.point));
                break;
            case ModelTask::Op::kExternalWait: {
                cpu::Task flag_wait;
                if (EnqueueExternalWait(task.event, queue, &flag_wait))
                    executor->Submit(queue, flag_wait);
                break;
            }
            case ModelTask::Op::kReset:
                executor->Submit(queue, EventResetWhenRun(task.event));
                break;
            case ModelTask::Op::kActivate:
            case ModelTask::Op::kSwitchStream:
            case ModelTask::Op::kSwitchLabel:
                executor->Submit(queue, Control(run, &task));
                return;
            case ModelTask::Op::kCond:
                break;  // conditional tasks belong to captured models
        }
    }
    executor->Submit(queue, Finish(run));
}

}  // namespace

aclError ActivateStream(Stream* target, Stream* stream) {
    constexpr const char* kWhat = "aclrtActiveStream";
    std::unique_lock<std::mutex> lock;
    ModelRI* model = BuildingModel(stream, kWhat, &lock);
    if (model == nullptr) return ACL_ERROR_RT_STREAM_MODEL;
    if (target == stream) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s: stream %p cannot activate itself", kWhat,
                    static_cast<void*>(stream));
    }
    FlowOp flow;
    if (aclError rc = ActivatedStream(model, target, kWhat, &flow.target)) return rc;
    AppendFlow(model, stream, ModelTask::Op::kActivate, std::move(flow));
    return ACL_SUCCESS;
}

aclError SwitchStream(const void* left, aclrtCondition condition, const void* right,
                      aclrtCompareDataType data_type, Stream* target, Stream* stream) {
    constexpr const char* kWhat = "aclrtSwitchStream";
    const size_t bytes = data_type == ACL_RT_SWITCH_INT64 ? 8 : 4;
    for (const void* value : {left, right}) {
        if (const char* problem = LiveDeviceRangeProblem(value, bytes)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s: the value at %p %s", kWhat, value, problem);
        }
        if (reinterpret_cast<uintptr_t>(value) % bytes != 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s: the value at %p is not %zu-byte aligned",
                        kWhat, value, bytes);
        }
    }
    std::unique_lock<std::mutex> lock;
    ModelRI* model = BuildingModel(stream, kWhat, &lock);
    if (model == nullptr) return ACL_ERROR_RT_STREAM_MODEL;
    FlowOp flow;
    if (aclError rc = ActivatedStream(model, target, kWhat, &flow.target)) return rc;
    flow.left = left;
    flow.right = right;
    flow.condition = condition;
    flow.data_type = data_type;
    AppendFlow(model, stream, ModelTask::Op::kSwitchStream, std::move(flow));
    return ACL_SUCCESS;
}

aclError SwitchLabel(const uint32_t* index, uint32_t max_value, const std::vector<Label*>& labels,
                     Stream* stream) {
    constexpr const char* kWhat = "aclrtSwitchLabelByIndex";
    if (max_value == 0 || max_value > labels.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: maxValue %u must be the number of labels to choose from, 1 to the "
                    "list's %zu",
                    kWhat, max_value, labels.size());
    }
    if (const char* problem = LiveDeviceRangeProblem(index, sizeof(uint32_t))) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s: ptr %p %s", kWhat,
                    static_cast<const void*>(index), problem);
    }
    std::unique_lock<std::mutex> lock;
    ModelRI* model = BuildingModel(stream, kWhat, &lock);
    if (model == nullptr) return ACL_ERROR_RT_STREAM_MODEL;
    FlowOp flow;
    flow.index = index;
    flow.labels.assign(labels.begin(), labels.begin() + max_value);
    AppendFlow(model, stream, ModelTask::Op::kSwitchLabel, std::move(flow));
    return ACL_SUCCESS;
}

aclError FinishFlow(ModelRI* model) {
    model->head.resize(model->streams.size(), true);
    model->stream_tasks.assign(model->streams.size(), {});
    for (ModelTask& task : model->tasks)
        model->stream_tasks[task.stream].push_back(&task);
    for (FlowOp& flow : model->flow_ops) {
        for (const Label* label : flow.labels) {
            uint32_t stream = 0, position = 0;
            if (!LabelTarget(label, model, &stream, &position)) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "label %p, a target of aclrtSwitchLabelByIndex in model runtime "
                            "instance %u, was destroyed or not set on one of its streams "
                            "(aclrtSetLabel)",
                            static_cast<const void*>(label), model->id());
            }
            flow.jumps.emplace_back(stream, position);
        }
        flow.labels.clear();
    }
    return ACL_SUCCESS;
}

void EnqueueFlowRun(ModelRI* model, cpu::Executor* executor, Stream* stream) {
    auto* run = new FlowRun;
    run->model = model;
    run->executor = executor;
    run->stream = stream;
    run->points.assign(model->points, {nullptr, 0});
    run->Retain();  // the model's list's reference
    model->flow_runs.push_back(run);
    // The caller's stream starts the head streams when it gets here, and waits for the run.
    struct Join {
        FlowRun* run;
        bool started;
    };
    stream->SubmitUndiverted(cpu::MakeTask(
        [join = Join{run, false}](cpu::TaskContext& ctx) mutable -> cpu::TaskStatus {
            FlowRun* run = join.run;
            bool over = ctx.cancelled();
            if (!over && !join.started) {
                join.started = true;
                ModelRI* model = run->model;
                std::vector<uint32_t> heads;
                {
                    std::lock_guard lock(run->mutex);
                    run->join = ctx.token();
                    over = run->stopped;
                }
                for (uint32_t i = 0; !over && i < model->stream_tasks.size(); ++i) {
                    if (model->head[i]) heads.push_back(i);
                }
                run->active.store(static_cast<int32_t>(heads.size()) + 1);
                for (uint32_t head : heads)
                    EnqueueSegment(run, head, 0);
                // The join's own count keeps the run open until every head stream is enqueued.
                run->active.fetch_sub(1, std::memory_order_acq_rel);
            }
            if (!over) {
                std::lock_guard lock(run->mutex);
                over = run->stopped || run->active.load(std::memory_order_acquire) == 0;
            }
            if (!over) return cpu::TaskStatus::Suspended();
            {
                std::lock_guard lock(run->model->mutex);
                auto& runs = run->model->flow_runs;
                if (auto it = std::find(runs.begin(), runs.end(), run); it != runs.end()) {
                    runs.erase(it);
                    run->Release();
                }
            }
            run->Release();
            return cpu::TaskStatus::Done();
        },
        0, cpu::Task::kCallWhenCancelled));
}

void StopFlowRuns(ModelRI* model) {
    for (FlowRun* run : model->flow_runs) {
        std::lock_guard lock(run->mutex);
        run->stopped = true;
    }
}

void WakeFlowRuns(ModelRI* model) {
    for (FlowRun* run : model->flow_runs) {
        cpu::SuspendToken join;
        {
            std::lock_guard lock(run->mutex);
            join = run->join;
        }
        if (join.queue != nullptr) cpu::Executor::Resume(join);
    }
}

}  // namespace openacl
