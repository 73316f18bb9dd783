// Recording model runtime instances: stream capture (aclmdlRICapture*), explicit building
// (aclmdlRIBuild*, BindStream, EndTask), task groups, and the capture modes' policing of unsafe
// calls. core/model_ri.h has the design.
#include <algorithm>
#include <cstdio>

#include "acl/acl_mdl.h"
#include "core/context.h"
#include "core/error.h"
#include "core/event.h"
#include "core/model_ri.h"
#include "core/stream.h"

namespace openacl {
namespace {

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

bool Bound(ModelRI* model, Stream* stream) {
    return std::find(model->streams.begin(), model->streams.end(), stream) != model->streams.end();
}

}  // namespace

void InvalidateCapture(ModelRI* model, aclError code, const std::string& why) {
    if (model->invalid_code != ACL_SUCCESS) return;  // the first reason is the one reported
    model->invalid_code = code;
    model->invalid_reason = why;
    Warn("model runtime instance %u: %s; its capture will end with error %d", model->id(),
         why.c_str(), code);
}

void CaptureTask(ModelRI* model, Stream* stream, const cpu::Task& task, const trace::Label& label,
                 const CaptureInfo* info) {
    std::lock_guard lock(model->mutex);
    cpu::Task kept = task;
    if (model->invalid_code != ACL_SUCCESS) {
        ReleaseTask(kept);
        return;
    }
    char why[320];
    if ((task.flags & cpu::Task::kCallWhenCancelled) != 0 &&
        (task.flags & cpu::Task::kReplayable) == 0) {
        std::snprintf(why, sizeof why,
                      "%s on stream %p cannot be captured (its task owns data that a replay "
                      "cannot share)",
                      CurrentApi(), static_cast<void*>(stream));
        InvalidateCapture(model, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, why);
        ReleaseTask(kept);
        return;
    }
    const aclmdlRITaskType type = info != nullptr ? info->type : ACL_MODEL_RI_TASK_DEFAULT;
    TaskGroup* group = model->open_group;
    if (group != nullptr) {
        const bool on_group_stream = model->streams[group->stream] == stream;
        if (!on_group_stream || type != ACL_MODEL_RI_TASK_KERNEL) {
            if (!on_group_stream) {
                std::snprintf(why, sizeof why,
                              "%s on stream %p while a task group is open on stream %p of the "
                              "same capture",
                              CurrentApi(), static_cast<void*>(stream),
                              static_cast<void*>(model->streams[group->stream]));
            } else {
                std::snprintf(why, sizeof why,
                              "%s inside a task group: only kernel launches can be grouped",
                              CurrentApi());
            }
            InvalidateCapture(model,
                              on_group_stream ? ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
                                              : ACL_ERROR_STREAM_TASK_GROUP_INTR,
                              why);
            ReleaseTask(kept);
            return;
        }
    }
    ModelTask& captured = AppendModelTask(model, stream, ModelTask::Op::kTask, type);
    captured.task = kept;
    captured.label = label;
    if (info != nullptr) captured.info = *info;
    if (group != nullptr) {
        captured.group = group;
        group->tasks.push_back(&captured);
    }
}

aclError CaptureRecord(ModelRI* model, Stream* stream, Event* event, bool external) {
    std::lock_guard lock(model->mutex);
    ModelTask& task =
        AppendModelTask(model, stream, ModelTask::Op::kRecord, ACL_MODEL_RI_TASK_EVENT_RECORD);
    task.event = event;
    task.external = external;
    task.point = model->points++;
    event->set_captured_mark((uint64_t{model->id()} << 32) | task.point);
    return ACL_SUCCESS;
}

aclError CaptureReset(ModelRI* model, Stream* stream, Event* event) {
    std::lock_guard lock(model->mutex);
    ModelTask& task =
        AppendModelTask(model, stream, ModelTask::Op::kReset, ACL_MODEL_RI_TASK_EVENT_RESET);
    task.event = event;
    return ACL_SUCCESS;
}

aclError CaptureWaitIfCaptured(Stream* stream, Event* event, bool* handled) {
    ModelRI* model = stream->capture();
    const uint64_t mark = event->captured_mark();
    ModelRI* recorder = mark != 0 ? FindRecordingModel(static_cast<uint32_t>(mark >> 32)) : nullptr;
    *handled = model != nullptr || recorder != nullptr;
    if (!*handled) return ACL_SUCCESS;
    if (model != nullptr && recorder != nullptr && model != recorder) {
        return Fail(ACL_ERROR_STREAM_CAPTURE_CONFLICT,
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
        ModelStreamIndex(recorder, stream);
        stream->set_capture(recorder);
        model = recorder;
    }
    std::lock_guard lock(model->mutex);
    if (recorder == model) {
        ModelTask& task =
            AppendModelTask(model, stream, ModelTask::Op::kWait, ACL_MODEL_RI_TASK_EVENT_WAIT);
        task.event = event;
        task.point = static_cast<uint32_t>(mark);
    } else {
        ModelTask& task = AppendModelTask(model, stream, ModelTask::Op::kExternalWait,
                                          ACL_MODEL_RI_TASK_EVENT_WAIT);
        task.event = event;
    }
    return ACL_SUCCESS;
}

aclError BeginCapture(Stream* stream, aclmdlRICaptureMode mode, ModelRI* into) {
    ReapModelRIs();
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "graph capture is not supported on the accelerator backends yet");
    }
    if (stream->is_default()) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "the default stream cannot be captured: capture a stream made with "
                    "aclrtCreateStream");
    }
    if (ModelRI* current = stream->capture()) {
        const bool capturing = current->state_ == ModelRI::State::kCapturing;
        return Fail(capturing ? ACL_ERROR_RT_STREAM_CAPTURED : ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p is already %s model runtime instance %u: end that first",
                    static_cast<void*>(stream), capturing ? "being captured into" : "bound to",
                    current->id());
    }
    if (stream->task_update() != nullptr) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "stream %p is updating a task group: end that first "
                    "(aclmdlRICaptureTaskUpdateEnd)",
                    static_cast<void*>(stream));
    }
    ModelRI* model = into;
    if (model == nullptr) {
        model = RegisterModelRI(stream->context(), ModelRI::State::kCapturing);
    } else {
        std::lock_guard lock(model->mutex);
        if (model->parent == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "model runtime instance %u is not a branch of a conditional task: "
                        "aclmdlRICaptureToModelRIBegin captures into the models "
                        "aclmdlRIAddCondTask returns",
                        model->id());
        }
        if (model->state_ != ModelRI::State::kReady || !model->tasks.empty()) {
            return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                        "model runtime instance %u was already captured into", model->id());
        }
        model->state_ = ModelRI::State::kCapturing;
    }
    std::lock_guard lock(model->mutex);
    model->captured = true;
    model->mode = mode;
    ModelStreamIndex(model, stream);
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
    *out = nullptr;
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
    for (ModelRI* child : model->children) {
        std::lock_guard child_lock(child->mutex);
        if (child->state_ == ModelRI::State::kCapturing) {
            return Fail(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING,
                        "model runtime instance %u, a branch of this capture's conditional task, "
                        "is still being captured: end its capture (aclmdlRICaptureEnd on its "
                        "stream) first",
                        child->id());
        }
    }
    if (model->open_group != nullptr) {
        InvalidateCapture(model, ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                          "the capture ended with a task group still open "
                          "(aclmdlRICaptureTaskGrpEnd closes it)");
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
            InvalidateCapture(model, ACL_ERROR_RT_STREAM_UNJOINED, why);
            break;
        }
    }
    Detach(model);
    model->state_ = ModelRI::State::kReady;
    if (model->invalid_code != ACL_SUCCESS) {
        const aclError code = model->invalid_code;
        const std::string why = model->invalid_reason;
        const bool child = model->parent != nullptr;
        if (child) {
            // A branch stays its parent's: empty again, so that it can be captured anew.
            for (ModelTask& task : model->tasks) {
                if (task.op == ModelTask::Op::kTask) ReleaseTask(task.task);
            }
            model->tasks.clear();
            model->streams.clear();
            model->per_stream_count.clear();
            model->groups.clear();
            model->points = 0;
            model->invalid_code = ACL_SUCCESS;
            model->invalid_reason.clear();
        }
        lock.unlock();
        if (!child) DestroyModelRI(model);
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
    ReapModelRIs();
    aclError rc = ACL_SUCCESS;
    Context* context = RequireContext(&rc);
    if (context == nullptr) return rc;
    *out = RegisterModelRI(context, ModelRI::State::kBuilding);
    return ACL_SUCCESS;
}

aclError BindStream(ModelRI* model, Stream* stream, uint32_t flag) {
    if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT) {
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
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
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
    if (Bound(model, stream)) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL, "stream %p is already bound to model %u",
                    static_cast<void*>(stream), model->id());
    }
    const uint32_t index = ModelStreamIndex(model, stream);
    // A DEFAULT stream runs only when a task of the model activates it (aclrtActiveStream).
    model->head.resize(model->streams.size(), true);
    model->head[index] = flag == ACL_MODEL_STREAM_FLAG_HEAD;
    if (flag == ACL_MODEL_STREAM_FLAG_DEFAULT) model->has_flow = true;
    stream->set_capture(model);
    return ACL_SUCCESS;
}

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
    if (aclError rc = FinishFlow(model)) return rc;
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

aclError CleanPersistentTasks(Stream* stream) {
    if ((stream->flags() & ACL_STREAM_PERSISTENT) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream %p was not created with ACL_STREAM_PERSISTENT: only such streams keep "
                    "tasks to clean",
                    static_cast<void*>(stream));
    }
    ModelRI* model = stream->capture();
    if (model == nullptr) return ACL_SUCCESS;
    std::lock_guard lock(model->mutex);
    if (model->state_ != ModelRI::State::kBuilding) return ACL_SUCCESS;
    for (uint32_t index = 0; index < model->streams.size(); ++index) {
        if (model->streams[index] != stream) continue;
        for (ModelTask& task : model->tasks) {
            // Work goes; event records and waits stay, as points other streams may wait on.
            const bool work = task.op == ModelTask::Op::kTask || task.op == ModelTask::Op::kCond;
            if (task.stream == index && work) task.cleaned = true;
        }
        model->sequences_stale = true;
    }
    return ACL_SUCCESS;
}

aclError BeginTaskGroup(Stream* stream) {
    ModelRI* model = stream->capture();
    if (model == nullptr || model->state_ != ModelRI::State::kCapturing) {
        return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    "stream %p is not being captured: task groups are marked inside a capture",
                    static_cast<void*>(stream));
    }
    std::lock_guard lock(model->mutex);
    if (model->open_group != nullptr) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "a task group is already open on stream %p of this capture: close it with "
                    "aclmdlRICaptureTaskGrpEnd first",
                    static_cast<void*>(model->streams[model->open_group->stream]));
    }
    TaskGroup& group = model->groups.emplace_back();
    group.model = model;
    group.stream = ModelStreamIndex(model, stream);
    model->open_group = &group;
    return ACL_SUCCESS;
}

aclError EndTaskGroup(Stream* stream, TaskGroup** out) {
    *out = nullptr;
    ModelRI* model = stream->capture();
    if (model == nullptr || model->state_ != ModelRI::State::kCapturing) {
        return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    "stream %p is not being captured: task groups are marked inside a capture",
                    static_cast<void*>(stream));
    }
    std::lock_guard lock(model->mutex);
    TaskGroup* group = model->open_group;
    if (group == nullptr || model->streams[group->stream] != stream) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "no task group is open on stream %p (aclmdlRICaptureTaskGrpBegin opens one "
                    "on the stream that ends it)",
                    static_cast<void*>(stream));
    }
    group->open = false;
    model->open_group = nullptr;
    if (model->invalid_code != ACL_SUCCESS) {
        return Fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                    "the capture on stream %p was invalidated: %s", static_cast<void*>(stream),
                    model->invalid_reason.c_str());
    }
    *out = group;
    return ACL_SUCCESS;
}

aclError CheckUnsafeCall(const char* what) {
    if (g_any_captures.load(std::memory_order_relaxed) == 0) [[likely]]
        return ACL_SUCCESS;
    const bool global = g_global_captures.load(std::memory_order_relaxed) > 0 &&
                        t_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    const bool own = t_strict_captures > 0 && t_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    if (!global && !own) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
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
    std::lock_guard lock(model->mutex);
    // A bound stream of a model being built holds no work to wait for; a RELAXED capture lets
    // the call wait for the work queued before it.
    if (model->state_ != ModelRI::State::kCapturing ||
        model->mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        return ACL_SUCCESS;
    }
    char why[256];
    std::snprintf(why, sizeof why, "%s on stream %p, which is being captured in %s mode", what,
                  static_cast<void*>(stream), ModeName(model->mode));
    InvalidateCapture(model, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, why);
    return Fail(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
                "%s: stream %p is being captured into model runtime instance %u in %s mode, so "
                "its tasks run only when the model runs (the capture is now invalidated)",
                what, static_cast<void*>(stream), model->id(), ModeName(model->mode));
}

aclError RefuseInCallWork(Stream* stream, const char* what) {
    ModelRI* model = stream->capture();
    if (model == nullptr) [[likely]]
        return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                "%s cannot be recorded: it is done in the call, but stream %p is being recorded "
                "into model runtime instance %u, whose tasks run only when the model runs (use "
                "device or pinned memory, aclrtMalloc / aclrtMallocHost, for work to capture)",
                what, static_cast<void*>(stream), model->id());
}

aclmdlRICaptureMode ExchangeThreadCaptureMode(aclmdlRICaptureMode mode) {
    const aclmdlRICaptureMode previous = t_mode;
    t_mode = mode;
    return previous;
}

}  // namespace openacl
