#include "core/model_ri.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <thread>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "acl/acl_mdl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/event.h"
#include "core/stream.h"

namespace openacl {
namespace {

// Live models by handle and by id; destroyed models whose replays still run wait in Zombies.
std::mutex g_models_mutex;
std::unordered_map<const void*, ModelRI*>& Models() {
    static auto* models = new std::unordered_map<const void*, ModelRI*>;
    return *models;
}
std::unordered_map<uint32_t, ModelRI*>& ModelsById() {
    static auto* models = new std::unordered_map<uint32_t, ModelRI*>;
    return *models;
}
std::vector<ModelRI*>& Zombies() {
    static auto* zombies = new std::vector<ModelRI*>;
    return *zombies;
}
uint32_t g_next_model_id = 1;  // g_models_mutex held

// Unsafe-call bookkeeping: captures running in GLOBAL mode (any thread), and the captures this
// thread began in GLOBAL or THREAD_LOCAL mode.
std::atomic<int32_t> g_global_captures{0};
std::atomic<int32_t> g_any_captures{0};
thread_local int32_t t_strict_captures = 0;
thread_local aclmdlRICaptureMode t_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

const char* ModeName(aclmdlRICaptureMode mode) {
    switch (mode) {
        case ACL_MODEL_RI_CAPTURE_MODE_GLOBAL:
            return "GLOBAL";
        case ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL:
            return "THREAD_LOCAL";
        case ACL_MODEL_RI_CAPTURE_MODE_RELAXED:
            return "RELAXED";
    }
    return "?";
}

const char* TypeName(const ModelTask& task) {
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

// Calls a task that owns its payload so that it releases it (as a discarded run does).
void Release(cpu::Task& task) {
    if ((task.flags & cpu::Task::kCallWhenCancelled) == 0) return;
    cpu::TaskContext ctx(nullptr, 0, cpu::RunReason::kDiscarded);
    task.fn(ctx, task.payload);
}

// The index of stream in model (mutex held); appended when new.
uint32_t StreamIndex(ModelRI* model, Stream* stream) {
    for (uint32_t i = 0; i < model->streams.size(); ++i) {
        if (model->streams[i] == stream) return i;
    }
    model->streams.push_back(stream);
    model->per_stream_count.push_back(0);
    return static_cast<uint32_t>(model->streams.size() - 1);
}

ModelTask& Append(ModelRI* model, Stream* stream, ModelTask::Op op, aclmdlRITaskType type) {
    ModelTask& task = model->tasks.emplace_back();
    task.op = op;
    task.type = type;
    task.model = model;
    task.stream = StreamIndex(model, stream);
    task.seq_id = model->per_stream_count[task.stream]++;
    return task;
}

void Invalidate(ModelRI* model, aclError code, const std::string& why) {
    if (model->invalid_code != ACL_SUCCESS) return;  // the first reason is the one reported
    model->invalid_code = code;
    model->invalid_reason = why;
    Warn("model runtime instance %u: %s; its capture will end with error %d", model->id(),
         why.c_str(), code);
}

// Takes every stream out of the capture or build and the capture out of the unsafe-call
// counts (mutex held).
void Detach(ModelRI* model) {
    for (Stream* stream : model->streams) {
        if (StreamAlive(stream) && stream->capture() == model) stream->set_capture(nullptr);
    }
    if (model->state_ == ModelRI::State::kCapturing) {
        g_any_captures.fetch_sub(1, std::memory_order_relaxed);
        if (model->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
            g_global_captures.fetch_sub(1, std::memory_order_relaxed);
        if (model->strict_on_thread) --t_strict_captures;
    }
}

ModelRI* Register(Context* context, ModelRI::State state) {
    std::lock_guard lock(g_models_mutex);
    auto* model = new ModelRI(context, g_next_model_id++, state);
    Models().emplace(model, model);
    ModelsById().emplace(model->id(), model);
    return model;
}

// Frees destroyed models whose replays have all finished.
void Reap() {
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

// Unregisters a model and frees it once no replay uses it.
void Retire(ModelRI* model) {
    {
        std::lock_guard lock(g_models_mutex);
        Models().erase(model);
        ModelsById().erase(model->id());
        Zombies().push_back(model);
    }
    Reap();
}

// The model with this id while it is still recording (capture or build), or nullptr.
ModelRI* RecordingModel(uint32_t id) {
    std::lock_guard lock(g_models_mutex);
    auto it = ModelsById().find(id);
    if (it == ModelsById().end()) return nullptr;
    std::lock_guard model_lock(it->second->mutex);
    return it->second->state_ == ModelRI::State::kReady ? nullptr : it->second;  // ended: stale
}

bool Joined(const ModelRI* model, uint32_t stream) {
    // A stream after the origin must end with a record that a later task of another stream
    // waits for: otherwise the origin's end does not follow its work.
    const ModelTask* last = nullptr;
    for (const ModelTask& task : model->tasks) {
        if (task.stream == stream) last = &task;
    }
    if (last == nullptr) return true;
    if (last->op != ModelTask::Op::kRecord) return false;
    bool after = false;
    for (const ModelTask& task : model->tasks) {
        if (&task == last) {
            after = true;
            continue;
        }
        if (after && task.op == ModelTask::Op::kWait && task.point == last->point &&
            task.stream != stream) {
            return true;
        }
    }
    return false;
}

}  // namespace

ModelRI::~ModelRI() {
    for (ModelTask& task : tasks) {
        if (task.op == ModelTask::Op::kTask) Release(task.task);
    }
    for (cpu::Queue* queue : queues)
        executor->DestroyQueue(queue);
}

void CaptureTask(ModelRI* model, Stream* stream, const cpu::Task& task, const trace::Label& label,
                 const CaptureInfo* info) {
    std::lock_guard lock(model->mutex);
    cpu::Task kept = task;
    if (model->invalid_code != ACL_SUCCESS) {
        Release(kept);
        return;
    }
    if ((task.flags & cpu::Task::kCallWhenCancelled) != 0 &&
        (task.flags & cpu::Task::kReplayable) == 0) {
        char why[256];
        std::snprintf(why, sizeof why,
                      "%s on stream %p cannot be captured yet (its task owns data that a replay "
                      "cannot share)",
                      CurrentApi(), static_cast<void*>(stream));
        Invalidate(model, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, why);
        Release(kept);
        return;
    }
    ModelTask& captured = Append(model, stream, ModelTask::Op::kTask,
                                 info != nullptr ? info->type : ACL_MODEL_RI_TASK_DEFAULT);
    captured.task = kept;
    captured.label = label;
    if (info != nullptr) captured.info = *info;
}

aclError CaptureRecord(ModelRI* model, Stream* stream, Event* event, bool external) {
    std::lock_guard lock(model->mutex);
    ModelTask& task = Append(model, stream, ModelTask::Op::kRecord, ACL_MODEL_RI_TASK_EVENT_RECORD);
    task.event = event;
    task.external = external;
    task.point = model->points++;
    event->set_captured_mark((uint64_t{model->id()} << 32) | task.point);
    return ACL_SUCCESS;
}

aclError CaptureWaitIfCaptured(Stream* stream, Event* event, bool* handled) {
    ModelRI* model = stream->capture();
    const uint64_t mark = event->captured_mark();
    ModelRI* recorder = mark != 0 ? RecordingModel(static_cast<uint32_t>(mark >> 32)) : nullptr;
    *handled = model != nullptr || recorder != nullptr;
    if (!*handled) return ACL_SUCCESS;
    if (model != nullptr && recorder != nullptr && model != recorder) {
        return Fail(ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                    "stream %p is captured into model runtime instance %u, but event %p was "
                    "recorded in the capture of model runtime instance %u: one capture cannot "
                    "wait on another",
                    static_cast<void*>(stream), model->id(), static_cast<void*>(event),
                    recorder->id());
    }
    if (model == nullptr) {
        // The stream joins the capture that recorded the event (cross-stream capture).
        std::lock_guard lock(recorder->mutex);
        if (recorder->state_ != ModelRI::State::kCapturing) {
            return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                        "event %p was recorded on a stream bound to model runtime instance %u, "
                        "which is being built: bind stream %p to it too (aclmdlRIBindStream)",
                        static_cast<void*>(event), recorder->id(), static_cast<void*>(stream));
        }
        if (stream->lane() != nullptr) {
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "graph capture is not supported on the accelerator backends yet");
        }
        StreamIndex(recorder, stream);
        stream->set_capture(recorder);
        model = recorder;
    }
    std::lock_guard lock(model->mutex);
    if (recorder == model) {
        ModelTask& task = Append(model, stream, ModelTask::Op::kWait, ACL_MODEL_RI_TASK_EVENT_WAIT);
        task.event = event;
        task.point = static_cast<uint32_t>(mark);
    } else {
        ModelTask& task =
            Append(model, stream, ModelTask::Op::kExternalWait, ACL_MODEL_RI_TASK_EVENT_WAIT);
        task.event = event;
    }
    return ACL_SUCCESS;
}

aclError BeginCapture(Stream* stream, aclmdlRICaptureMode mode, ModelRI* into) {
    Reap();
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "graph capture is not supported on the accelerator backends yet");
    }
    if (ModelRI* current = stream->capture()) {
        return Fail(
            ACL_ERROR_RT_STREAM_CAPTURED,
            "stream %p is already %s model runtime instance %u: end that first",
            static_cast<void*>(stream),
            current->state_ == ModelRI::State::kCapturing ? "being captured into" : "bound to",
            current->id());
    }
    ModelRI* model = into;
    if (model == nullptr) {
        model = Register(stream->context(), ModelRI::State::kCapturing);
    } else {
        std::lock_guard lock(model->mutex);
        if (model->state_ != ModelRI::State::kReady) {
            return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                        "model runtime instance %u is still being captured or built", model->id());
        }
        if (model->in_flight.load(std::memory_order_acquire) != 0) {
            return Fail(ACL_ERROR_RT_MODEL_RUNNING,
                        "model runtime instance %u is still running: synchronise the streams "
                        "that run it first",
                        model->id());
        }
        model->state_ = ModelRI::State::kCapturing;
    }
    std::lock_guard lock(model->mutex);
    model->mode = mode;
    StreamIndex(model, stream);
    model->strict_on_thread = mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    if (model->strict_on_thread) ++t_strict_captures;
    if (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
        g_global_captures.fetch_add(1, std::memory_order_relaxed);
    g_any_captures.fetch_add(1, std::memory_order_relaxed);
    model->capture_thread = std::this_thread::get_id();
    stream->set_capture(model);
    return ACL_SUCCESS;
}

aclError EndCapture(Stream* stream, ModelRI** out) {
    ModelRI* model = stream->capture();
    if (model == nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    "stream %p is not being captured (aclmdlRICaptureBegin starts a capture)",
                    static_cast<void*>(stream));
    }
    std::unique_lock lock(model->mutex);
    if (model->state_ != ModelRI::State::kCapturing) {
        return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    "stream %p is bound to model runtime instance %u, which is being built, not "
                    "captured: finish it with aclmdlRIEndTask and aclmdlRIBuildEnd",
                    static_cast<void*>(stream), model->id());
    }
    if (model->streams[0] != stream) {
        return Fail(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                    "stream %p joined the capture that began on stream %p: end it there",
                    static_cast<void*>(stream), static_cast<void*>(model->streams[0]));
    }
    if (model->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED &&
        model->capture_thread != std::this_thread::get_id()) {
        return Fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                    "the capture on stream %p began in %s mode on another thread: end it on "
                    "that thread (only RELAXED captures may end elsewhere)",
                    static_cast<void*>(stream), ModeName(model->mode));
    }
    for (uint32_t i = 1; i < model->streams.size(); ++i) {
        if (!Joined(model, i)) {
            char why[256];
            std::snprintf(why, sizeof why,
                          "stream %p joined the capture but its last work is not waited for "
                          "by the origin stream (record an event on it and wait for that on "
                          "stream %p before aclmdlRICaptureEnd)",
                          static_cast<void*>(model->streams[i]),
                          static_cast<void*>(model->streams[0]));
            Invalidate(model, ACL_ERROR_RT_STREAM_UNJOINED, why);
            break;
        }
    }
    Detach(model);
    model->state_ = ModelRI::State::kReady;
    if (model->invalid_code != ACL_SUCCESS) {
        const aclError code = model->invalid_code;
        const std::string why = model->invalid_reason;
        lock.unlock();
        Retire(model);
        *out = nullptr;
        return Fail(code, "the capture on stream %p was invalidated: %s",
                    static_cast<void*>(stream), why.c_str());
    }
    *out = model;
    return ACL_SUCCESS;
}

aclError CaptureStatus(Stream* stream, aclmdlRICaptureStatus* status, ModelRI** model) {
    ModelRI* current = stream->capture();
    *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    if (model != nullptr) *model = nullptr;
    if (current == nullptr) return ACL_SUCCESS;
    std::lock_guard lock(current->mutex);
    if (current->state_ != ModelRI::State::kCapturing) return ACL_SUCCESS;
    *status = current->invalid_code != ACL_SUCCESS ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                                   : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    if (model != nullptr) *model = current;
    return ACL_SUCCESS;
}

aclError BeginBuild(ModelRI** out) {
    Reap();
    aclError rc = ACL_SUCCESS;
    Context* context = RequireContext(&rc);
    if (context == nullptr) return rc;
    *out = Register(context, ModelRI::State::kBuilding);
    return ACL_SUCCESS;
}

aclError BindStream(ModelRI* model, Stream* stream, uint32_t flag) {
    if (flag == ACL_MODEL_STREAM_FLAG_DEFAULT) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "ACL_MODEL_STREAM_FLAG_DEFAULT streams run when aclrtActiveStream activates "
                    "them, which openacl does not support yet: bind with "
                    "ACL_MODEL_STREAM_FLAG_HEAD");
    }
    if (flag != ACL_MODEL_STREAM_FLAG_HEAD) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag 0x%x is neither ACL_MODEL_STREAM_FLAG_HEAD nor _DEFAULT", flag);
    }
    if ((stream->flags() & ACL_STREAM_PERSISTENT) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream %p was not created with ACL_STREAM_PERSISTENT "
                    "(aclrtCreateStreamWithConfig): only such streams keep their tasks for a model",
                    static_cast<void*>(stream));
    }
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "model building is not supported on the accelerator backends yet");
    }
    if (ModelRI* current = stream->capture()) {
        return Fail(ACL_ERROR_RT_STREAM_CAPTURED,
                    "stream %p is already bound to (or captured into) model runtime instance %u",
                    static_cast<void*>(stream), current->id());
    }
    std::lock_guard lock(model->mutex);
    if (model->state_ != ModelRI::State::kBuilding) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model runtime instance %u is not being built (aclmdlRIBuildBegin starts a "
                    "build)",
                    model->id());
    }
    for (Stream* bound : model->streams) {
        if (bound == stream) {
            return Fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream %p is already bound to model %u",
                        static_cast<void*>(stream), model->id());
        }
    }
    StreamIndex(model, stream);
    stream->set_capture(model);
    return ACL_SUCCESS;
}

namespace {
bool Bound(ModelRI* model, Stream* stream) {
    return std::find(model->streams.begin(), model->streams.end(), stream) != model->streams.end();
}
}  // namespace

aclError EndTask(ModelRI* model, Stream* stream) {
    std::lock_guard lock(model->mutex);
    if (!Bound(model, stream)) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p is not bound to model runtime instance %u (aclmdlRIBindStream)",
                    static_cast<void*>(stream), model->id());
    }
    if (model->state_ != ModelRI::State::kBuilding) {
        return Fail(ACL_ERROR_INVALID_PARAM, "model runtime instance %u is not being built",
                    model->id());
    }
    if (stream->capture() == model) stream->set_capture(nullptr);
    return ACL_SUCCESS;
}

aclError EndBuild(ModelRI* model) {
    std::lock_guard lock(model->mutex);
    if (model->state_ != ModelRI::State::kBuilding) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model runtime instance %u is not being built (aclmdlRIBuildBegin starts a "
                    "build)",
                    model->id());
    }
    if (model->invalid_code != ACL_SUCCESS) {
        return Fail(model->invalid_code, "model runtime instance %u cannot be built: %s",
                    model->id(), model->invalid_reason.c_str());
    }
    Detach(model);
    model->state_ = ModelRI::State::kReady;
    return ACL_SUCCESS;
}

aclError UnbindStream(ModelRI* model, Stream* stream) {
    std::lock_guard lock(model->mutex);
    if (!Bound(model, stream)) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p is not bound to model runtime instance %u",
                    static_cast<void*>(stream), model->id());
    }
    if (stream->capture() == model) stream->set_capture(nullptr);
    return ACL_SUCCESS;
}

aclError ExecuteAsync(ModelRI* model, Stream* stream) {
    if (stream->capture() != nullptr) {
        return Fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                    "stream %p is being captured: running a model runtime instance inside a "
                    "capture is not supported yet",
                    static_cast<void*>(stream));
    }
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "model runtime instances are not supported on the accelerator backends yet");
    }
    std::lock_guard lock(model->mutex);
    if (model->state_ != ModelRI::State::kReady) {
        return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                    "model runtime instance %u is still being %s: end that first", model->id(),
                    model->state_ == ModelRI::State::kCapturing ? "captured" : "built");
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
    model->executor = executor;
    while (model->queues.size() + 1 < model->streams.size()) {
        cpu::Queue* queue = executor->CreateQueue();
        if (queue == nullptr) {
            return Fail(ACL_ERROR_RT_NO_STREAM_RESOURCE,
                        "no queue is left for the streams of model runtime instance %u",
                        model->id());
        }
        model->queues.push_back(queue);
    }
    struct Point {
        cpu::Queue* queue = nullptr;
        uint64_t seq = 0;
    };
    std::vector<Point> points(model->points);
    cpu::Queue* const origin = stream->queue();
    // Consecutive tasks of one queue go in one batch: one lock and one wake-up for the run
    // (traced replays go one by one, so that each task keeps its label).
    thread_local std::vector<cpu::Task> batch;
    cpu::Queue* batch_queue = nullptr;
    const bool traced = trace::On();
    auto flush = [&] {
        if (!batch.empty()) executor->SubmitBatch(batch_queue, batch.data(), batch.size());
        batch.clear();
    };
    for (const ModelTask& task : model->tasks) {
        cpu::Queue* queue = task.stream == 0 ? origin : model->queues[task.stream - 1];
        if (task.op == ModelTask::Op::kTask) {
            if (task.disabled) continue;
            cpu::Task copy = task.task;
            copy.flags |= cpu::Task::kBorrowed;
            if (task.stream == 0 && traced) {
                stream->Submit(copy, task.label);
                continue;
            }
            if (task.stream != 0) copy.tag = 0;
            if (queue != batch_queue) flush();
            batch_queue = queue;
            batch.push_back(copy);
            continue;
        }
        flush();
        switch (task.op) {
            case ModelTask::Op::kTask:
                break;
            case ModelTask::Op::kRecord:
                points[task.point] = {queue, cpu::Executor::Submitted(queue)};
                if (task.external) {
                    aclError rc = ACL_SUCCESS;
                    if (Event* event = ResolveEvent(task.event, &rc)) event->RecordOnQueue(queue);
                }
                break;
            case ModelTask::Op::kWait: {
                const Point& point = points[task.point];
                if (point.queue != nullptr && point.queue != queue && point.seq != 0)
                    executor->SubmitWait(queue, point.queue, point.seq);
                break;
            }
            case ModelTask::Op::kExternalWait: {
                aclError rc = ACL_SUCCESS;
                if (Event* event = ResolveEvent(task.event, &rc)) event->WaitOnQueue(queue);
                break;
            }
        }
    }
    flush();
    for (cpu::Queue* queue : model->queues) {
        if (const uint64_t last = cpu::Executor::Submitted(queue)) {
            executor->SubmitWait(origin, queue, last);
        }
    }
    model->in_flight.fetch_add(1, std::memory_order_relaxed);
    stream->Submit(
        cpu::MakeTask([model] { model->in_flight.fetch_sub(1, std::memory_order_release); }, 0,
                      cpu::Task::kCallWhenCancelled));
    return ACL_SUCCESS;
}

aclError Execute(ModelRI* model, int32_t timeout_ms) {
    Stream* stream = nullptr;
    {
        std::lock_guard lock(model->mutex);
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

aclError DestroyModelRI(ModelRI* model) {
    std::vector<std::pair<aclrtCallback, void*>> callbacks;
    {
        std::lock_guard lock(model->mutex);
        if (model->state_ != ModelRI::State::kReady) {
            const bool capturing = model->state_ == ModelRI::State::kCapturing;
            if (capturing) {
                return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                            "model runtime instance %u is still being captured: end the capture "
                            "(aclmdlRICaptureEnd) first",
                            model->id());
            }
            Detach(model);  // a build given up
        }
        callbacks.swap(model->destroy_callbacks);
        model->destroyed = true;
    }
    for (const auto& [fn, data] : callbacks)
        fn(data);
    Retire(model);
    return ACL_SUCCESS;
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

aclError TasksOfStream(Stream* stream, aclmdlRITask* tasks, uint32_t* count) {
    // The newest live model that holds tasks of the stream.
    ModelRI* owner = nullptr;
    uint32_t index = 0;
    {
        std::lock_guard lock(g_models_mutex);
        for (const auto& [key, model] : Models()) {
            std::lock_guard model_lock(model->mutex);
            for (uint32_t i = 0; i < model->streams.size(); ++i) {
                if (model->streams[i] == stream &&
                    (owner == nullptr || model->id() > owner->id())) {
                    owner = model;
                    index = i;
                }
            }
        }
    }
    if (owner == nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p holds no tasks of a live model runtime instance",
                    static_cast<void*>(stream));
    }
    std::lock_guard lock(owner->mutex);
    const uint32_t total = owner->per_stream_count[index];
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
        if (task.stream == index) tasks[n++] = &task;
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
            const Stream* stream = model->streams[task.stream];
            std::fprintf(out, "  stream %d task %u: %s%s\n", stream->id(), task.seq_id,
                         TypeName(task), task.disabled ? " (disabled)" : "");
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
            if (task.stream != i) continue;
            nlohmann::json entry;
            entry["taskId"] = task.seq_id;
            entry["taskType"] = TypeName(task);
            entry["disabled"] = task.disabled;
            if (verbose && task.type == ACL_MODEL_RI_TASK_KERNEL) {
                entry["numBlocks"] = task.info.num_blocks;
                entry["argsSize"] = task.info.args_size;
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

aclError CheckUnsafeCall(const char* what) {
    if (g_any_captures.load(std::memory_order_relaxed) == 0) [[likely]]
        return ACL_SUCCESS;
    const bool global = g_global_captures.load(std::memory_order_relaxed) > 0 &&
                        t_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    const bool own = t_strict_captures > 0 && t_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    if (!global && !own) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                "%s is not allowed while %s: switch this thread to RELAXED with "
                "aclmdlRICaptureThreadExchangeMode first, or do it before the capture begins",
                what,
                own ? "this thread is capturing a stream (GLOBAL or THREAD_LOCAL mode)"
                    : "a stream is being captured in GLOBAL mode");
}

aclError RefuseIfCaptured(Stream* stream, const char* what) {
    ModelRI* model = stream->capture();
    if (model == nullptr) [[likely]]
        return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                "%s: stream %p is being recorded into model runtime instance %u, whose tasks "
                "run only when the model runs",
                what, static_cast<void*>(stream), model->id());
}

aclmdlRICaptureMode ExchangeThreadCaptureMode(aclmdlRICaptureMode mode) {
    const aclmdlRICaptureMode previous = t_mode;
    t_mode = mode;
    return previous;
}

}  // namespace openacl
