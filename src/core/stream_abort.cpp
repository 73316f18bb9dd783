#include "core/stream_abort.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/cpu/executor.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/model_ri.h"
#include "core/named_callbacks.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {
namespace {

using Clock = std::chrono::steady_clock;

NamedCallbacks<aclrtDeviceTaskAbortCallback>& AbortCallbacks() {
    static auto* callbacks = new NamedCallbacks<aclrtDeviceTaskAbortCallback>;
    return *callbacks;
}

// Devices whose tasks aclrtDeviceTaskAbort is aborting now (a count per device: two aborts of
// one device may overlap).
std::mutex g_device_aborts_mutex;
std::unordered_map<int32_t, int>& DeviceAborts() {
    static auto* aborts = new std::unordered_map<int32_t, int>;
    return *aborts;
}

bool DeviceAborting(int32_t device_id) {
    std::lock_guard lock(g_device_aborts_mutex);
    auto it = DeviceAborts().find(device_id);
    return it != DeviceAborts().end() && it->second > 0;
}

class DeviceAbortScope {
 public:
    explicit DeviceAbortScope(int32_t device_id) : device_id_(device_id) {
        std::lock_guard lock(g_device_aborts_mutex);
        ++DeviceAborts()[device_id_];
    }
    ~DeviceAbortScope() {
        std::lock_guard lock(g_device_aborts_mutex);
        if (--DeviceAborts()[device_id_] == 0) DeviceAborts().erase(device_id_);
    }
    DeviceAbortScope(const DeviceAbortScope&) = delete;
    DeviceAbortScope& operator=(const DeviceAbortScope&) = delete;

 private:
    int32_t device_id_;
};

bool SocStartsWith(const char* prefix) {
    return Runtime::Get().config().soc_name.rfind(prefix, 0) == 0;
}

// CANN documents stopping and aborting for the Ascend 950 and Atlas A2/A3 only.
aclError RequireAbortChip(const char* api) {
    if (SocStartsWith("Ascend910B") || SocStartsWith("Ascend910_93") ||
        SocStartsWith("Ascend950")) {
        return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s is not available on %s (CANN documents it for the Ascend 950 and Atlas "
                "A2/A3)",
                api, Runtime::Get().config().soc_name.c_str());
}

// What a stop or an abort cannot act on, as CANN documents (api: the calling function).
aclError RefuseStream(Stream* stream, const char* api) {
    void* handle = static_cast<void*>(stream);
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s is not supported on the accelerator backends (%s) yet: the work a "
                    "device queue has taken cannot be withdrawn from it",
                    api, stream->context()->device()->accelerator()->name());
    }
    if (stream->flags() & ACL_STREAM_DEVICE_USE_ONLY) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream %p was created with ACL_STREAM_DEVICE_USE_ONLY, which %s does not "
                    "take (CANN documents it)",
                    handle, api);
    }
    if (stream->capture() != nullptr) {
        aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
        CaptureStatus(stream, &status, nullptr);
        if (status != ACL_MODEL_RI_CAPTURE_STATUS_NONE) {
            return Fail(ACL_ERROR_RT_STREAM_CAPTURED,
                        "stream %p is being captured: its tasks are recorded, not queued, so "
                        "there is nothing for %s to act on; end the capture first "
                        "(aclmdlRICaptureEnd)",
                        handle, api);
        }
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p is bound to a model runtime instance (aclmdlRIBindStream), and "
                    "%s does not take model streams (CANN documents it): unbind it first, or "
                    "abort the model with aclmdlRIAbort",
                    handle, api);
    }
    if (stream->task_update() != nullptr) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "stream %p is updating a task group (aclmdlRICaptureTaskUpdateBegin): end "
                    "the update first (aclmdlRICaptureTaskUpdateEnd)",
                    handle);
    }
    return ACL_SUCCESS;
}

// An abort waits for the task its device's workers are executing; called from that task (a host
// function, a kernel) it would wait for itself.
aclError RefuseOnOwnWorker(const char* api, const cpu::Executor* executor) {
    if (executor == nullptr || cpu::Executor::Current() != executor) [[likely]]
        return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s was called from a task of the same device (a host function or kernel "
                "running on its workers), and would wait for that very task; call it from a "
                "thread of the program's own (CANN documents that host functions must not "
                "abort tasks)",
                api);
}

// Discards everything the streams have queued and waits until they have settled, then drops
// the errors of the discarded work. Tasks submitted meanwhile are discarded too (a second
// pass). False when the deadline passed first.
// `model_queues` (a device abort's): the queues of the device's models, on `executor`.
bool Settle(const std::vector<Stream*>& streams, Clock::time_point deadline, bool forever,
            const std::vector<cpu::Queue*>& model_queues = {}, cpu::Executor* executor = nullptr) {
    std::vector<std::pair<cpu::Executor*, cpu::Queue*>> queues;
    for (Stream* stream : streams)
        queues.emplace_back(stream->executor(), stream->queue());
    for (cpu::Queue* queue : model_queues)
        queues.emplace_back(executor, queue);
    std::vector<uint64_t> through(queues.size());
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < queues.size(); ++i)
            through[i] = queues[i].first->DiscardSubmitted(queues[i].second);
        for (size_t i = 0; i < queues.size(); ++i) {
            auto left = forever ? cpu::kWaitForever
                                : std::max(Clock::duration::zero(), deadline - Clock::now());
            const auto status = cpu::Executor::WaitPoint(
                queues[i].second, through[i],
                std::chrono::duration_cast<std::chrono::nanoseconds>(left));
            if (status.timed_out()) return false;
        }
    }
    for (const auto& [owner, queue] : queues)
        cpu::Executor::TakeFailure(queue);
    for (Stream* stream : streams)
        stream->TakeFailureNote();
    return true;
}

const char* StageName(aclrtDeviceTaskAbortStage stage) {
    return stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? "ACL_RT_DEVICE_TASK_ABORT_PRE"
                                                 : "ACL_RT_DEVICE_TASK_ABORT_POST";
}

// Runs the abort callbacks of one stage; `left_ms` is the time they may take (0: no limit).
aclError RunAbortCallbacks(int32_t device_id, aclrtDeviceTaskAbortStage stage, uint32_t left_ms) {
    if (AbortCallbacks().empty()) return ACL_SUCCESS;
    for (const auto& entry : AbortCallbacks().Snapshot()) {
        int32_t result = 0;
        std::string thrown;
        try {
            result = entry.fn(device_id, stage, left_ms, entry.args);
        } catch (const std::exception& e) {
            thrown = e.what();
        } catch (...) {
            thrown = "an exception that is no std::exception";
        }
        if (!thrown.empty()) {
            return Fail(ACL_ERROR_RT_DEVICE_TASK_ABORT,
                        "the device task abort callback \"%s\" threw (%s) at %s; device %d's "
                        "abort stopped there",
                        entry.name.c_str(), thrown.c_str(), StageName(stage), device_id);
        }
        if (result != 0) {
            return Fail(ACL_ERROR_RT_DEVICE_TASK_ABORT,
                        "the device task abort callback \"%s\" returned %d at %s; device %d's "
                        "abort stopped there",
                        entry.name.c_str(), result, StageName(stage), device_id);
        }
    }
    return ACL_SUCCESS;
}

}  // namespace

aclError AbortStream(Stream* stream) {
    if (aclError rc = RequireAbortChip("aclrtStreamAbort")) return rc;
    if (aclError rc = RefuseStream(stream, "aclrtStreamAbort")) return rc;
    if (SocStartsWith("Ascend950")) {
        if (stream->is_default()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "on %s aclrtStreamAbort does not take the default stream (CANN documents "
                        "it): abort a stream made with aclrtCreateStream",
                        Runtime::Get().config().soc_name.c_str());
        }
        if (stream->flags() & ACL_STREAM_PERSISTENT) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "on %s aclrtStreamAbort does not take ACL_STREAM_PERSISTENT streams "
                        "(CANN documents it)",
                        Runtime::Get().config().soc_name.c_str());
        }
    }
    if (aclError rc = RefuseOnOwnWorker("aclrtStreamAbort", stream->executor())) return rc;
    // As in CANN, a stream of a device whose tasks are being aborted is left to that abort.
    if (DeviceAborting(stream->context()->device()->id())) return ACL_SUCCESS;
    stream->BeginAbort(ACL_ERROR_RT_STREAM_ABORT);
    Settle({stream}, Clock::time_point{}, true);
    stream->EndAbort();
    return ACL_SUCCESS;
}

aclError StopStream(Stream* stream) {
    if (aclError rc = RequireAbortChip("aclrtStreamStop")) return rc;
    if (stream->is_default()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtStreamStop does not take the default stream (CANN documents it): stop "
                    "a stream made with aclrtCreateStream");
    }
    if (aclError rc = RefuseStream(stream, "aclrtStreamStop")) return rc;
    if (stream->aborting() || DeviceAborting(stream->context()->device()->id())) {
        return Fail(ACL_ERROR_RT_STREAM_ABORT,
                    "stream %p is being aborted (aclrtStreamAbort or aclrtDeviceTaskAbort): "
                    "its tasks are being discarded, there is nothing to stop",
                    static_cast<void*>(stream));
    }
    // The task at the head of the queue is the running one. A waiting task is ended now, one
    // a worker has not taken up yet is not run; one executing on a worker is ended if it goes on
    // to wait, and otherwise finishes (a CPU cannot interrupt it). The queued tasks stay.
    cpu::Queue* queue = stream->queue();
    const uint64_t head = cpu::Executor::Completed(queue) + 1;
    if (head > cpu::Executor::Submitted(queue)) return ACL_SUCCESS;  // nothing runs
    stream->executor()->Stop(queue, head, cpu::TaskStatus::Failed(ACL_ERROR_RT_TASK_ABORT_STOP));
    return ACL_SUCCESS;
}

aclError AbortDeviceTasks(int32_t device_id, uint32_t timeout_ms) {
    if (aclError rc = RequireAbortChip("aclrtDeviceTaskAbort")) return rc;
    Device* device = Runtime::Get().DeviceById(device_id);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;  // recorded with its message
    std::vector<Stream*> streams;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        if (!device->open) {
            return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                        "device %d is not in use: it has no tasks to abort (aclrtSetDevice "
                        "opens it)",
                        device_id);
        }
        if (backend::Accelerator* accelerator = device->accelerator()) {
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "aclrtDeviceTaskAbort is not supported on the accelerator backends (%s) "
                        "yet: the work a device queue has taken cannot be withdrawn from it",
                        accelerator->name());
        }
        if (aclError rc = RefuseOnOwnWorker("aclrtDeviceTaskAbort", device->executor())) return rc;
        // Streams found here stay allocated until this call returns (core/reclaim.h), even
        // if another thread destroys them meanwhile.
        for (const Context* ctx : device->contexts) {
            if (ctx->default_stream != nullptr) streams.push_back(ctx->default_stream);
            for (Stream* stream : ctx->streams)
                streams.push_back(stream);
        }
    }
    const bool forever = timeout_ms == 0;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::milliseconds(timeout_ms);
    // What is left of the timeout for the callbacks (0 stands for "no limit", as it does for
    // the caller); at least 1 while time is left.
    auto left_ms = [&]() -> uint32_t {
        if (forever) return 0;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        return left > 0 ? static_cast<uint32_t>(left) : 1;
    };
    auto timed_out = [&](const char* step) {
        return Fail(ACL_ERROR_RT_WAIT_TIMEOUT,
                    "aclrtDeviceTaskAbort(%d) did not finish within %u ms (%s); a task already "
                    "executing on a worker (a kernel, a copy, a host function) cannot be "
                    "interrupted on a CPU, and what it holds back is discarded when it ends",
                    device_id, timeout_ms, step);
    };
    DeviceAbortScope scope(device_id);
    if (aclError rc = RunAbortCallbacks(device_id, ACL_RT_DEVICE_TASK_ABORT_PRE, left_ms())) {
        return rc;
    }
    if (!forever && Clock::now() >= deadline) return timed_out("the PRE callbacks took it all");
    for (Stream* stream : streams)
        stream->BeginAbort(ACL_ERROR_RT_DEVICE_TASK_ABORT);
    // Graph replays also run on the models' own queues (joined and built streams): their work
    // is the device's too.
    std::vector<ModelRI*> pinned;
    const std::vector<cpu::Queue*> model_queues = PinModelQueues(device->executor(), &pinned);
    struct EndAborts {
        const std::vector<Stream*>& streams;
        const std::vector<ModelRI*>& pinned;
        ~EndAborts() {
            for (Stream* stream : streams)
                stream->EndAbort();
            UnpinModels(pinned);
        }
    } end_aborts{streams, pinned};
    if (!Settle(streams, deadline, forever, model_queues, device->executor())) {
        return timed_out("waiting for the streams to settle");
    }
    if (aclError rc = RunAbortCallbacks(device_id, ACL_RT_DEVICE_TASK_ABORT_POST, left_ms())) {
        return rc;
    }
    if (!forever && Clock::now() > deadline) return timed_out("the POST callbacks took it all");
    return ACL_SUCCESS;
}

aclError SetDeviceTaskAbortCallback(const char* name, aclrtDeviceTaskAbortCallback fn, void* args) {
    return AbortCallbacks().Set(name, fn, args);
}

aclError AbortedDuringWait(Stream* stream, uint64_t epoch) {
    const bool now = stream->aborting();
    if (!now && stream->abort_epoch() == epoch) [[likely]]
        return ACL_SUCCESS;
    const aclError code = stream->abort_code();
    return Fail(
        code,
        "stream %p %s aborted (%s): the tasks it had not finished were discarded, and "
        "it runs what is submitted after the abort returns",
        static_cast<void*>(stream), now ? "is being" : "was",
        code == ACL_ERROR_RT_DEVICE_TASK_ABORT ? "aclrtDeviceTaskAbort" : "aclrtStreamAbort");
}

}  // namespace openacl
