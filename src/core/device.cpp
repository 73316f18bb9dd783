#include "core/device.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "backend/cpu/compute_gate.h"
#include "core/check.h"
#include "core/context.h"
#include "core/error.h"
#include "core/event.h"
#include "core/ipc_memory.h"
#include "core/log.h"
#include "core/mem_pool.h"
#include "core/memory.h"
#include "core/reclaim.h"
#include "core/runtime.h"
#include "core/state_callbacks.h"
#include "core/stream.h"
#include "core/stream_abort.h"
#include "core/trace.h"

namespace openacl {

aclError OpenDeviceLocked(Device* device) {
    if (device->open) return ACL_SUCCESS;
    if (!device->memory().valid()) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "cannot reserve %" PRIu64
                    " MiB of address space for device %d: lower "
                    "OPENACL_DEVICE_MEMORY_MB",
                    device->memory().capacity() >> 20, device->id());
    }
    const Config& config = Runtime::Get().config();
    cpu::ExecutorOptions options;
    options.workers = config.worker_threads;
    options.cpus = config.worker_cpus;
    options.spin = std::chrono::microseconds(config.spin_us);
    // A destroyed stream's queue slot is recycled only once no API call that began before the
    // destroy is still running (core/reclaim.h), and one thread in a long call (a slow
    // callback run by aclrtProcessReport, a long synchronize) holds that back for every stream
    // destroyed meanwhile; waits that hold no object step out of that (UnpinnedWait). A
    // program that creates and destroys streams quickly (a VDEC channel per clip) would run out
    // of slots while far below the stream limit, which CreateStreamLocked enforces on live
    // streams; the headroom absorbs slots waiting to be recycled (16 bytes each until used).
    options.max_queues = 4 * kMaxStreamsPerDevice;
    // Always installed: only tasks submitted while tracing is on carry a tag, and untagged
    // tasks never reach it.
    options.tracer = trace::ExecutorTracer();
    device->executor_ = std::make_unique<cpu::Executor>(options);
    // OpenMP's threads compute for every stream of every device at once: the workers, at most
    // the CPUs they are pinned to, bound them all.
    int64_t compute = device->executor_->worker_count();
    if (!config.worker_cpus.empty()) {
        compute = std::min<int64_t>(compute, static_cast<int64_t>(config.worker_cpus.size()));
    }
    cpu::ComputeGate::Get().SetCapacity(static_cast<int>(compute));
    device->open = true;
    device->force_reset = false;
    if (CreateContextLocked(device, true) == nullptr) {
        device->open = false;
        device->executor_.reset();
        return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    OPENACL_LOG_INFO("device %d opened", device->id());
    return ACL_SUCCESS;
}

Graveyard::~Graveyard() {
    for (auto& stream : streams)
        FinishStream(std::move(stream), force);
    // Retired after their streams, so freed after them (core/reclaim.h): a thread that was
    // inside a call on one of them (a synchronize) returns before its executor stops.
    for (auto& executor : executors) {
        if (executor == nullptr) continue;
        cpu::Executor* raw = executor.release();
        reclaim::Retire([raw] { delete raw; });
    }
}

void ReleaseDeviceLocked(Device* device, const char* reason, Graveyard& graveyard) {
    // With strict checks, everything still alive is listed with where it was created before
    // it goes; without, a summary says how much and how to get the list.
    const bool report = check::On();
    if (report) {
        char when[64];
        std::snprintf(when, sizeof when, "%s(%d)", reason, device->id());
        check::ReportLeaks(when, check::DeviceLeakLines(device));
    }
    size_t explicit_contexts = device->contexts.size() - (device->default_context ? 1 : 0);
    if (explicit_contexts > 0 && !report) {
        Warn(
            "%s(%d) releases %zu context(s) created with aclrtCreateContext that were never "
            "destroyed; their handles are now invalid (call aclrtDestroyContext before "
            "resetting the device)",
            reason, device->id(), explicit_contexts);
    }
    ForgetDeviceEvents(device);
    while (!device->contexts.empty())
        DestroyContextLocked(device->contexts.back(), graveyard);
    // Executors die after their streams: the graveyard finishes streams first.
    graveyard.executors.push_back(std::move(device->executor_));
    mem_pool::ForgetDevice(device);  // pool memory is the pools', not the program's, to report
    auto leaked = device->memory().LiveBlocks();
    if (!leaked.empty() && !report) {
        uint64_t bytes = 0;
        for (const auto& block : leaked)
            bytes += block.tag.requested;
        Warn("%s(%d): %zu device allocation(s) totalling %" PRIu64
             " bytes were never freed "
             "with aclrtFree; they are released now (first at %p; set OPENACL_CHECK=1 for a "
             "report of each allocation and where it was made)",
             reason, device->id(), leaked.size(), bytes,
             reinterpret_cast<void*>(leaked.front().base));
    }
    if (report) {
        // Later uses of these pointers are then named as memory this reset released.
        for (const auto& block : leaked) {
            check::NoteDestroyed(check::Resource::kDeviceMemory,
                                 reinterpret_cast<const void*>(block.base), block.tag.requested,
                                 device->id(),
                                 AllocName(static_cast<DeviceAllocKind>(block.tag.kind)));
        }
    }
    ipc::ReleaseDevice(device);  // before its memory goes: its keys must not outlive it
    device->memory().ReleaseAll();
    for (Device::MemUsage& usage : device->usage)
        usage.current.store(0, std::memory_order_relaxed);
    device->open = false;
    device->set_count = 0;
    device->default_context = nullptr;
    device->peers.clear();
    OPENACL_LOG_INFO("device %d released", device->id());
}

aclError SetDevice(int32_t device_id) {
    Runtime& runtime = Runtime::Get();
    Device* device = runtime.DeviceById(device_id);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    // State callbacks (core/state_callbacks.h) run outside the lock.
    NotifyDeviceState(device_id, ACL_RT_DEVICE_STATE_SET_PRE);
    Stream* created_default = nullptr;
    {
        std::lock_guard lock(runtime.lifecycle_mutex());
        const bool was_open = device->open;
        if (aclError rc = OpenDeviceLocked(device); rc != ACL_SUCCESS) return rc;
        ++device->set_count;
        SetCurrentContext(device->default_context);
        if (!was_open) created_default = device->default_context->default_stream;
    }
    NotifyStreamState(created_default, ACL_RT_STREAM_STATE_CREATE_POST);
    NotifyDeviceState(device_id, ACL_RT_DEVICE_STATE_SET_POST);
    return ACL_SUCCESS;
}

aclError ResetDevice(int32_t device_id, bool force) {
    Runtime& runtime = Runtime::Get();
    Device* device = runtime.DeviceById(device_id);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    // A reset waits for the device's outstanding tasks, outside the lock (tasks may call back
    // into the runtime); whatever is queued after this point is discarded.
    cpu::Executor* executor = nullptr;
    bool releases = false;
    {
        std::lock_guard lock(runtime.lifecycle_mutex());
        releases = device->open && (force || device->set_count <= 1);
        if (releases) executor = device->executor();
    }
    if (releases) {
        // State callbacks (core/state_callbacks.h): the streams, then the device, outside the lock.
        NotifyDeviceStreamsLeaving(device_id);
        NotifyDeviceState(device_id, ACL_RT_DEVICE_STATE_RESET_PRE);
    }
    if (executor != nullptr) executor->WaitAll();
    {
        Graveyard graveyard(true);
        std::lock_guard lock(runtime.lifecycle_mutex());
        if (!device->open) {
            return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                        device->force_reset
                            ? "device %d was already released by aclrtResetDeviceForce"
                            : "device %d is not in use: aclrtSetDevice was never called for it, "
                              "or every call was already matched by a reset",
                        device_id);
        }
        if (!force && device->set_count > 1) {
            --device->set_count;
            return ACL_SUCCESS;
        }
        ReleaseDeviceLocked(device, force ? "aclrtResetDeviceForce" : "aclrtResetDevice",
                            graveyard);
        device->force_reset = force;
    }
    NotifyDeviceState(device_id, ACL_RT_DEVICE_STATE_RESET_POST);
    return ACL_SUCCESS;
}

}  // namespace openacl

namespace openacl {

int64_t HostCoreCount() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int64_t>(n);
}

int ComputeThreadsPerRun() {
    const int capacity = cpu::ComputeGate::Get().capacity();
    if (const char* value = std::getenv("OPENACL_MODEL_THREADS"); value && *value) {
        char* end = nullptr;
        const long n = std::strtol(value, &end, 10);
        if (*end == '\0' && n >= 1) return static_cast<int>(std::min<long>(capacity, n));
    }
    return capacity;
}

int64_t HostL2CacheBytes() {
    long size = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return size > 0 ? size : int64_t{1} << 20;
}

aclError SynchronizeDevice(int32_t timeout_ms) {
    if (timeout_ms < -1) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: use -1 (wait forever) or a value >= 0", timeout_ms);
    }
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    // The queues, not the Stream objects: another thread may destroy a stream while this one
    // waits without the lock (queues outlive their streams; see cpu::Executor).
    struct Target {
        const void* handle;
        cpu::Executor* executor;
        cpu::Queue* queue;
        // A stream retired during the wait is freed only after this call returns (reclaim.h),
        // so its lane may be waited for through it.
        Stream* stream;
        uint64_t abort_epoch;  // a wait that overlaps an abort of the stream answers the abort
    };
    std::vector<Target> targets;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        auto add = [&](Stream* s) {
            targets.push_back({s, s->executor(), s->queue(), s, s->abort_epoch()});
        };
        for (Context* c : ctx->device()->contexts) {
            if (c->default_stream != nullptr) add(c->default_stream);
            for (Stream* s : c->streams)
                add(s);
        }
    }
    // Every stream in turn, within what is left of the timeout; the first failure is reported
    // with its stream's explanation.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    aclError first = ACL_SUCCESS;
    for (const Target& target : targets) {
        auto left =
            timeout_ms < 0
                ? cpu::kWaitForever
                : std::max(std::chrono::nanoseconds(0),
                           std::chrono::nanoseconds(deadline - std::chrono::steady_clock::now()));
        cpu::WaitStatus status = target.stream->lane() != nullptr
                                     ? WaitStream(target.stream, left)
                                     : target.executor->WaitFor(target.queue, left);
        if (status.timed_out()) {
            return Fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                        "device %d still has unfinished tasks after %d ms", ctx->device()->id(),
                        timeout_ms);
        }
        if (status.failed() && first == ACL_SUCCESS) {
            first = StreamFailureByHandle(target.handle, status);
        }
    }
    // As for one stream: an abort during the wait is what the wait answers (the failures of
    // the aborted work were dropped).
    for (const Target& target : targets) {
        if (aclError aborted = AbortedDuringWait(target.stream, target.abort_epoch)) return aborted;
    }
    return first;
}

}  // namespace openacl
