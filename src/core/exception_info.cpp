#include "core/exception_info.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backend/cpu/executor.h"
#include "backend/cpu/sync.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/kernel.h"
#include "core/model_ri.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::exception_info {

std::atomic<bool> g_armed{false};
std::atomic<uint32_t> g_callbacks{0};

// Which thread submitted which tasks of one queue: runs of consecutive sequence numbers, each
// run from `first` to the next run's first (the last one open), sorted by `first`. Only
// submissions made while armed are logged; earlier sequence numbers have no run.
struct SubmitLog {
    struct Run {
        uint64_t first;
        uint32_t thread;
    };
    cpu::SpinLock lock;
    const cpu::Queue* queue = nullptr;
    std::vector<Run> runs;  // guarded by lock

    // From seq on, tasks are `thread`'s (seq is at least every logged first but the ones a
    // replay scope rewrites, which it replaces).
    void StartRun(uint64_t seq, uint32_t thread) {
        while (!runs.empty() && runs.back().first >= seq)
            runs.pop_back();
        if (runs.empty() || runs.back().thread != thread) runs.push_back({seq, thread});
        // Runs that only finished tasks use can go: every task of runs[0] has completed
        // once runs[1] starts at or before the next task to run.
        const uint64_t next = cpu::Executor::Completed(queue) + 1;
        size_t drop = 0;
        while (drop + 1 < runs.size() && runs[drop + 1].first <= next)
            ++drop;
        if (drop != 0) runs.erase(runs.begin(), runs.begin() + static_cast<ptrdiff_t>(drop));
    }
    // The thread that submitted task seq, or 0 when it was submitted before arming.
    uint32_t ThreadOf(uint64_t seq) const {
        auto after = std::upper_bound(runs.begin(), runs.end(), seq,
                                      [](uint64_t s, const Run& run) { return s < run.first; });
        return after == runs.begin() ? 0 : std::prev(after)->thread;
    }
};

namespace {

// The Linux thread id of the calling thread, as CANN records it for each task (gettid).
uint32_t ThisThread() {
    thread_local uint32_t id = static_cast<uint32_t>(syscall(SYS_gettid));
    return id;
}

// Logs live as long as the process: queue slots are never freed (their sequence numbers keep
// counting when a slot is reused, so a reused slot's old runs are never looked up again).
std::mutex g_logs_mutex;
std::unordered_map<const cpu::Queue*, SubmitLog*>& Logs() {
    static auto* logs = new std::unordered_map<const cpu::Queue*, SubmitLog*>;
    return *logs;
}

SubmitLog* FindLog(const cpu::Queue* queue) {
    std::lock_guard lock(g_logs_mutex);
    auto it = Logs().find(queue);
    return it == Logs().end() ? nullptr : it->second;
}

SubmitLog* LogOf(Stream* stream) {
    if (SubmitLog* log = stream->submit_log.load(std::memory_order_acquire)) return log;
    std::lock_guard lock(g_logs_mutex);
    SubmitLog*& log = Logs()[stream->queue()];
    if (log == nullptr) {
        log = new SubmitLog;
        log->queue = stream->queue();
    }
    stream->submit_log.store(log, std::memory_order_release);
    return log;
}

// The log a ReplayScope of this thread holds (its submissions must not lock it again).
thread_local SubmitLog* t_held = nullptr;

// ---- Callbacks -----------------------------------------------------------------------------

struct BinaryCallback {
    aclrtOpExceptionCallback fn = nullptr;
    void* user_data = nullptr;
};

struct Callbacks {
    std::mutex mutex;
    aclrtExceptionInfoCallback set = nullptr;            // aclrtSetExceptionInfoCallback
    std::vector<aclrtExceptionInfoCallback> registered;  // aclrtExceptionInfoCallbackRegister
    std::unordered_map<const KernelBinary*, BinaryCallback> binaries;

    // Mutex held.
    void Published() {
        const size_t count = (set != nullptr ? 1 : 0) + registered.size() + binaries.size();
        if (count != 0) g_armed.store(true, std::memory_order_release);
        g_callbacks.store(static_cast<uint32_t>(count), std::memory_order_release);
    }
};

Callbacks& Registry() {
    static auto* callbacks = new Callbacks;
    return *callbacks;
}

// ---- Cached operator information -----------------------------------------------------------

// The calling thread's last captured task (valid while t_last_task has kCapturedTask).
struct CapturedTask {
    const ModelTask* task = nullptr;
    uint32_t model_id = 0;
};
thread_local CapturedTask t_captured;

struct Cached {
    uint32_t model_id = 0;  // a task at the same address in a later model is another task
    std::vector<unsigned char> op_info;
    std::string extend_info;
};

std::mutex g_cache_mutex;
std::unordered_map<const ModelTask*, Cached>& Cache() {
    static auto* cache = new std::unordered_map<const ModelTask*, Cached>;
    return *cache;
}

// The thread's last captured task, in a capture or build still recording; *stream gets the
// stream it was captured on. nullptr with the error recorded otherwise.
const ModelTask* LastCapturedTask(const char* what, ModelRI** model_out, Stream** stream,
                                  aclError* rc) {
    if ((t_last_task & kCapturedTask) == 0 || t_captured.task == nullptr) {
        if ((t_last_task & 0xFFFFFFFFu) == 0xFFFFFFFFu) {
            *rc = Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                       "this thread has not submitted a task yet: %s caches on the last task the "
                       "thread submitted to a stream being captured (aclmdlRICaptureBegin) or "
                       "bound to a model being built (aclmdlRIBindStream)",
                       what);
        } else {
            *rc = Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                       "the last task this thread submitted (task id %u) ran on its stream, it "
                       "was not captured: %s caches on a task of a capture (aclmdlRICaptureBegin) "
                       "or of a model being built (aclmdlRIBindStream)",
                       static_cast<uint32_t>(t_last_task), what);
        }
        return nullptr;
    }
    ModelRI* model = FindRecordingModel(t_captured.model_id);
    if (model == nullptr) {
        *rc = Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                   "the last task this thread submitted belongs to model runtime instance %u, "
                   "whose capture or build has ended: %s caches on tasks while they are recorded",
                   t_captured.model_id, what);
        return nullptr;
    }
    std::lock_guard lock(model->mutex);
    const ModelTask* task = t_captured.task;
    *model_out = model;
    *stream = model->streams[task->stream];
    return task;
}

bool SocIs(const char* prefix) {
    return Runtime::Get().config().soc_name.rfind(prefix, 0) == 0;
}

// aclrtGetErrorVerbose and aclrtRepairError: Atlas A2/A3 and the 950, as CANN documents; a
// current context (CANN reads the device's state through it); a device that exists.
aclError CheckErrorQuery(const char* api, int32_t device_id) {
    if (!SocIs("Ascend910B") && !SocIs("Ascend910_93") && !SocIs("Ascend950")) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s is not available on %s (CANN documents it for the Ascend 950 and Atlas "
                    "A2/A3)",
                    api, Runtime::Get().config().soc_name.c_str());
    }
    aclError rc = ACL_SUCCESS;
    if (RequireContext(&rc) == nullptr) return rc;
    if (Runtime::Get().DeviceById(device_id) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    return ACL_SUCCESS;
}

const char* ErrorTypeName(aclrtErrorType type) {
    switch (type) {
        case ACL_RT_NO_ERROR:
            return "ACL_RT_NO_ERROR";
        case ACL_RT_ERROR_MEMORY:
            return "ACL_RT_ERROR_MEMORY";
        case ACL_RT_ERROR_L2:
            return "ACL_RT_ERROR_L2";
        case ACL_RT_ERROR_AICORE:
            return "ACL_RT_ERROR_AICORE";
        case ACL_RT_ERROR_LINK:
            return "ACL_RT_ERROR_LINK";
        case ACL_RT_ERROR_L3_PORT:
            return "ACL_RT_ERROR_L3_PORT";
        case ACL_RT_ERROR_OTHERS:
            return "ACL_RT_ERROR_OTHERS";
    }
    return nullptr;
}

}  // namespace

// ---- The calling thread's last task --------------------------------------------------------

uint32_t LastTaskId() {
    return static_cast<uint32_t>(t_last_task);
}

void NoteCaptured(ModelRI* model, Stream* stream) {
    std::lock_guard lock(model->mutex);
    if (model->invalid_code != ACL_SUCCESS) return;  // nothing was recorded
    uint32_t index = 0;
    while (index < model->streams.size() && model->streams[index] != stream)
        ++index;
    if (index == model->streams.size()) return;
    for (auto it = model->tasks.rbegin(); it != model->tasks.rend(); ++it) {
        if (it->op != ModelTask::Op::kTask || it->stream != index) continue;
        t_last_task = kCapturedTask | it->seq_id;
        t_captured = {&*it, model->id()};
        return;
    }
}

// ---- Submitters ----------------------------------------------------------------------------

SubmitScope::SubmitScope(Stream* stream) : log_(LogOf(stream)) {
    if (t_held != log_) {
        log_->lock.lock();
        locked_ = true;
    }
}

SubmitScope::~SubmitScope() {
    if (locked_) log_->lock.unlock();
}

void SubmitScope::Submitted(uint64_t seq) {
    if (seq == 0) return;
    const uint32_t thread = ThisThread();
    if (log_->runs.empty() || log_->runs.back().thread != thread) log_->StartRun(seq, thread);
}

ReplayScope::ReplayScope(Stream* stream) {
    if (!Armed() || stream->lane() != nullptr || t_held != nullptr) return;
    stream_ = stream;
    log_ = LogOf(stream);
    log_->lock.lock();
    t_held = log_;
    before_ = cpu::Executor::Submitted(stream->queue());
}

ReplayScope::~ReplayScope() {
    if (log_ == nullptr) return;
    // Everything enqueued on the stream meanwhile is the replay's (other threads' submissions
    // waited for the lock); batches bypassed the log, so the range is logged whole.
    if (cpu::Executor::Submitted(stream_->queue()) > before_)
        log_->StartRun(before_ + 1, ThisThread());
    t_held = nullptr;
    log_->lock.unlock();
}

// ---- Failures ------------------------------------------------------------------------------

void ReportSlow(const cpu::TaskContext& ctx, Stream* stream, int32_t code,
                const KernelFault* kernel) {
    // The stream whose queue runs the task: the submitting one, or the stream a graph replays
    // on (a captured task names the stream it was captured on).
    Stream* runs_on = stream;
    if (ctx.queue() != stream->queue()) {
        if (Stream* owner = StreamOfQueue(ctx.queue())) runs_on = owner;
    }
    uint32_t thread = 0;
    if (SubmitLog* log = FindLog(ctx.queue())) {
        std::lock_guard lock(log->lock);  // waits for a submission still logging
        thread = log->ThreadOf(ctx.seq());
    }
    rtExceptionInfo info{};
    info.task_id = static_cast<uint32_t>(ctx.seq());
    info.stream_id = static_cast<uint32_t>(runs_on->id());
    info.thread_id = thread;
    info.device_id = static_cast<uint32_t>(runs_on->context()->device()->id());
    info.error_code = static_cast<uint32_t>(code);
    if (kernel != nullptr) {
        info.kernel = true;
        info.args = kernel->args;
        info.args_size = kernel->args_size;
        info.func = kernel->func;
    }
    // Called without the lock, so a callback may register or unregister callbacks; one
    // unregistered meanwhile may still be called once, as CANN documents.
    std::vector<aclrtExceptionInfoCallback> process;
    BinaryCallback binary;
    {
        Callbacks& registry = Registry();
        std::lock_guard lock(registry.mutex);
        if (registry.set != nullptr) process.push_back(registry.set);
        process.insert(process.end(), registry.registered.begin(), registry.registered.end());
        if (kernel != nullptr) {
            auto it = registry.binaries.find(kernel->binary);
            if (it != registry.binaries.end()) binary = it->second;
        }
    }
    for (aclrtExceptionInfoCallback fn : process)
        fn(&info);
    if (binary.fn != nullptr) binary.fn(&info, binary.user_data);
}

// ---- Registration --------------------------------------------------------------------------

aclError SetProcessCallback(aclrtExceptionInfoCallback callback) {
    Callbacks& registry = Registry();
    std::lock_guard lock(registry.mutex);
    registry.set = callback;
    registry.Published();
    return ACL_SUCCESS;
}

aclError RegisterCallback(aclrtExceptionInfoCallback callback) {
    Callbacks& registry = Registry();
    std::lock_guard lock(registry.mutex);
    auto& list = registry.registered;
    if (std::find(list.begin(), list.end(), callback) == list.end()) list.push_back(callback);
    registry.Published();
    return ACL_SUCCESS;
}

aclError UnregisterCallback(aclrtExceptionInfoCallback callback) {
    Callbacks& registry = Registry();
    std::lock_guard lock(registry.mutex);
    auto& list = registry.registered;
    list.erase(std::remove(list.begin(), list.end(), callback), list.end());
    registry.Published();
    return ACL_SUCCESS;
}

aclError SetBinaryCallback(const KernelBinary* binary, aclrtOpExceptionCallback callback,
                           void* user_data) {
    Callbacks& registry = Registry();
    std::lock_guard lock(registry.mutex);
    registry.binaries[binary] = {callback, user_data};
    registry.Published();
    return ACL_SUCCESS;
}

void ForgetBinary(const KernelBinary* binary) {
    if (g_callbacks.load(std::memory_order_acquire) == 0) return;
    Callbacks& registry = Registry();
    std::lock_guard lock(registry.mutex);
    if (registry.binaries.erase(binary) != 0) registry.Published();
}

// ---- Device errors -------------------------------------------------------------------------

aclError GetErrorVerbose(int32_t device_id, aclrtErrorInfo* info) {
    if (aclError rc = CheckErrorQuery("aclrtGetErrorVerbose", device_id)) return rc;
    // The faults this call details (memory UCE, L2 buffer, AI Core hardware, link and L3 port
    // errors) are hardware faults of an NPU; a CPU device has none to report.
    std::memset(info, 0, sizeof *info);
    info->errorType = ACL_RT_NO_ERROR;
    return ACL_SUCCESS;
}

aclError RepairError(int32_t device_id, const aclrtErrorInfo& info) {
    if (aclError rc = CheckErrorQuery("aclrtRepairError", device_id)) return rc;
    const char* type = ErrorTypeName(info.errorType);
    if (type == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "errorInfo->errorType %d is not an aclrtErrorType",
                    static_cast<int>(info.errorType));
    }
    if (info.errorType == ACL_RT_NO_ERROR || info.errorType == ACL_RT_ERROR_OTHERS) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "errorInfo->errorType is %s: there is no fault of a kind aclrtRepairError "
                    "repairs (memory, L2, AI Core, link, L3 port), as CANN answers",
                    type);
    }
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "device %d has no %s fault to repair: aclrtGetErrorVerbose reports none (a CPU "
                "device has no such hardware fault)",
                device_id, type);
}

// ---- Operator information of captured tasks ------------------------------------------------

aclError CacheLastTaskOpInfo(const void* info, size_t size) {
    aclError rc = ACL_SUCCESS;
    ModelRI* model = nullptr;
    Stream* stream = nullptr;
    const ModelTask* task = LastCapturedTask("aclrtCacheLastTaskOpInfo", &model, &stream, &rc);
    if (task == nullptr) return rc;
    std::vector<Stream*> streams;
    {
        std::lock_guard lock(model->mutex);
        streams = model->streams;
    }
    // CANN keeps one switch per capture, turned on by aclrtSetStreamAttribute on its streams.
    bool on = false;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        for (Stream* captured : streams)
            on = on || (StreamAlive(captured) && captured->cache_op_info != 0);
    }
    if (!on) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                    "the operator information cache of model runtime instance %u is off: turn it "
                    "on with aclrtSetStreamAttribute(stream %p, ACL_STREAM_ATTR_CACHE_OP_INFO, 1) "
                    "while the stream is captured",
                    model->id(), static_cast<void*>(stream));
    }
    std::lock_guard lock(g_cache_mutex);
    Cached& cached = Cache()[task];
    if (cached.model_id != model->id()) cached = Cached{model->id(), {}, {}};
    const auto* bytes = static_cast<const unsigned char*>(info);
    cached.op_info.assign(bytes, bytes + size);
    return ACL_SUCCESS;
}

aclError CacheLastTaskExtendInfo(const char* info, size_t size) {
    aclError rc = ACL_SUCCESS;
    ModelRI* model = nullptr;
    Stream* stream = nullptr;
    const ModelTask* task = LastCapturedTask("aclrtCacheLastTaskExtendInfo", &model, &stream, &rc);
    if (task == nullptr) return rc;
    std::lock_guard lock(g_cache_mutex);
    Cached& cached = Cache()[task];
    if (cached.model_id != model->id()) cached = Cached{model->id(), {}, {}};
    cached.extend_info.assign(info, std::min(size, kMaxExtendInfo));
    return ACL_SUCCESS;
}

void CachedOpInfo(const ModelTask* task, void** info, size_t* size) {
    std::lock_guard lock(g_cache_mutex);
    auto it = Cache().find(task);
    if (it == Cache().end() || it->second.model_id != task->model->id() ||
        it->second.op_info.empty()) {
        return;
    }
    *info = it->second.op_info.data();
    *size = it->second.op_info.size();
}

aclError DebugJsonPrint(ModelRI* model, FILE* out, bool verbose) {
    char* text = nullptr;
    size_t length = 0;
    FILE* memory = open_memstream(&text, &length);
    if (memory == nullptr) return DebugPrint(model, out, true, verbose);
    const aclError rc = DebugPrint(model, memory, true, verbose);
    std::fclose(memory);
    std::unique_ptr<char, decltype(&std::free)> owned(text, &std::free);
    // Each task's extended information, by (stream index, task id).
    std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::string>> extended;
    {
        std::lock_guard model_lock(model->mutex);
        std::lock_guard lock(g_cache_mutex);
        for (const ModelTask& task : model->tasks) {
            auto it = Cache().find(&task);
            if (it == Cache().end() || it->second.model_id != model->id() ||
                it->second.extend_info.empty()) {
                continue;
            }
            extended.push_back({{task.stream, task.seq_id}, it->second.extend_info});
        }
    }
    if (rc != ACL_SUCCESS || extended.empty()) {
        std::fwrite(text, 1, length, out);
        return rc;
    }
    nlohmann::json doc = nlohmann::json::parse(text, text + length, nullptr, false);
    if (doc.is_discarded() || !doc.contains("streams")) {
        std::fwrite(text, 1, length, out);
        return rc;
    }
    nlohmann::json& streams = doc["streams"];
    for (const auto& [where, info] : extended) {
        if (where.first >= streams.size()) continue;
        for (nlohmann::json& entry : streams[where.first]["tasks"]) {
            if (entry.value("taskId", UINT32_MAX) != where.second) continue;
            // CANN asks for a UTF-8 JSON string; anything else is kept as text.
            nlohmann::json value = nlohmann::json::parse(info, nullptr, false);
            entry["extendInfo"] = value.is_discarded() ? nlohmann::json(info) : std::move(value);
        }
    }
    const std::string merged = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::fwrite(merged.data(), 1, merged.size(), out);
    std::fputc('\n', out);
    return rc;
}

std::vector<uint32_t> ModelFamily(ModelRI* model) {
    std::vector<uint32_t> ids;
    std::vector<ModelRI*> pending{model};
    while (!pending.empty()) {
        ModelRI* next = pending.back();
        pending.pop_back();
        std::lock_guard lock(next->mutex);
        ids.push_back(next->id());
        pending.insert(pending.end(), next->children.begin(), next->children.end());
    }
    return ids;
}

void ForgetModels(const std::vector<uint32_t>& ids) {
    std::lock_guard lock(g_cache_mutex);
    auto& cache = Cache();
    for (auto it = cache.begin(); it != cache.end();) {
        if (std::find(ids.begin(), ids.end(), it->second.model_id) != ids.end()) {
            it = cache.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace openacl::exception_info
