#include "core/event.h"

#include <atomic>
#include <memory>
#include <vector>

#include "core/check.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/handle_table.h"
#include "core/ipc_event.h"
#include "core/poll_park.h"
#include "core/reclaim.h"
#include "core/runtime.h"
#include "core/shared_page.h"
#include "core/stream.h"
#include "core/trace.h"

namespace openacl {
namespace {

HandleTable<Event>& Events() {
    static auto* table = new HandleTable<Event>;
    return *table;
}

std::atomic<int32_t> g_next_event_id{0};
std::atomic<uint32_t> g_live_events{0};

bool ContextIsLive(const Event* event) {
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    return LookupContextLocked(event->context()) != nullptr;
}

// Freed once no call that may have found it is still running (core/reclaim.h).
void Retire(std::unique_ptr<Event> event) {
    Event* raw = event.release();
    reclaim::Retire([raw] { delete raw; });
}

bool HasRoomForAnotherEvent(bool reusable, aclError* rc) {
    if (!reusable && g_live_events.load(std::memory_order_relaxed) >= kMaxEventsPerDevice) {
        *rc = Fail(ACL_ERROR_RT_NO_EVENT_RESOURCE,
                   "%u events are alive, the most a device holds: destroy events you no "
                   "longer use (or create reusable ones with aclrtCreateEventExWithFlag)",
                   kMaxEventsPerDevice);
        return false;
    }
    return true;
}

aclrtEvent Publish(std::unique_ptr<Event> event) {
    aclrtEvent handle = Events().Insert(std::move(event));
    g_live_events.fetch_add(1, std::memory_order_relaxed);
    if (check::On()) check::NoteCreated(check::Resource::kEvent, handle);
    return handle;
}

}  // namespace

Event::~Event() {
    impl_->Drop();
    if (ipc_ != nullptr) {
        ipc_->Revoke();   // no process opens it any more; those that did keep their mapping
        ipc_->Release();  // queued records and waits hold their own references
    }
}

backend::DeviceEvent* Event::DeviceEvent() {
    std::lock_guard guard(lock_);
    return device_event_.get();
}

cpu::Event* Event::Acquire() {
    std::lock_guard guard(lock_);
    impl_->Retain();
    return impl_;
}

int32_t Event::Record(Stream* stream) {
    if (on_device_) [[unlikely]] {
        if (stream->lane() == nullptr) return -1;
        LaneTraceScope traced(stream, {trace::Kind::kEventRecord, static_cast<uint64_t>(id_)});
        if (traced.seq() != 0) {
            // Later waits point their flow arrow at this record.
            std::lock_guard guard(lock_);
            traced_record_ = {stream->queue(), traced.seq()};
        }
        {
            std::lock_guard guard(lock_);
            record_stream_ = stream;
        }
        return DeviceEvent()->Record(*stream->lane());
    }
    // Holding the lock keeps Reset from swapping impl_ out meanwhile, so no reference of our
    // own is needed: a Retain/Release pair here costs two atomic operations on a cache line the
    // worker running the previous record is writing (about a quarter of the enqueue cost).
    std::lock_guard guard(lock_);
    record_stream_ = stream;
    if (captured_.load(std::memory_order_relaxed) != 0) [[unlikely]]
        captured_.store(0, std::memory_order_relaxed);
    if (!trace::On()) [[likely]] {
        exception_info::Noted(impl_->Record(stream->queue()));  // the thread's last task
        return 0;
    }
    const uint64_t seq = exception_info::Noted(
        impl_->Record(stream->queue(), static_cast<uint32_t>(trace::Kind::kEventRecord)));
    trace::NoteEnqueue(*stream, seq, {trace::Kind::kEventRecord, static_cast<uint64_t>(id_)});
    return 0;
}

int32_t Event::EnqueueWait(Stream* stream) {
    if (on_device_) [[unlikely]] {
        if (stream->lane() == nullptr) return -1;
        trace::Label label;
        if (trace::On()) {
            std::lock_guard guard(lock_);
            label = {trace::Kind::kEventWait, static_cast<uint64_t>(id_), traced_record_.seq,
                     traced_record_.queue};
        }
        LaneTraceScope traced(stream, label);
        return DeviceEvent()->EnqueueWait(*stream->lane());
    }
    cpu::Event* impl = Acquire();
    if (!trace::On()) [[likely]] {
        uint64_t seq = 0;
        impl->EnqueueWait(stream->queue(), 0, &seq);
        if (seq != 0) exception_info::Noted(seq);  // the thread's last task
    } else {
        uint64_t seq = 0;
        const cpu::Event::Point point = impl->EnqueueWait(
            stream->queue(), static_cast<uint32_t>(trace::Kind::kEventWait), &seq);
        if (seq != 0) {
            exception_info::Noted(seq);
            trace::NoteEnqueue(
                *stream, seq,
                {trace::Kind::kEventWait, static_cast<uint64_t>(id_), point.seq, point.queue});
        }
    }
    impl->Release();
    return 0;
}

void Event::EnqueueWaitWithTimeout(Stream* stream, int32_t timeout_ms) {
    cpu::Event* impl = Acquire();
    const cpu::Event::Point point = impl->point();
    impl->Release();
    if (point.queue == nullptr) return;  // never recorded: nothing to wait for
    struct Wait {
        Stream* stream;
        cpu::Queue* queue;
        uint64_t seq;
        int64_t timeout_ns;
        int64_t deadline;  // set when the stream reaches the wait
        int32_t id;
    };
    // Owns nothing, so it needs no call when cancelled and a capture may keep it: a replay's
    // copy waits for the same record, its deadline set when it runs. (Only a capture begun on
    // another thread meanwhile gets it: the API turns a captured stream's waits into edges.)
    const Wait start{stream, point.queue, point.seq, int64_t{timeout_ms} * 1000000, 0, id_};
    stream->Submit(cpu::MakeTask([wait = start](cpu::TaskContext& ctx) mutable {
        if (cpu::Executor::Reached(wait.queue, wait.seq)) return cpu::TaskStatus::Done();
        const int64_t now = cpu::NowNs();
        if (wait.deadline == 0) wait.deadline = now + wait.timeout_ns;
        if (now >= wait.deadline) {
            wait.stream->NoteFailure(
                "aclrtStreamWaitEventWithTimeout: event %d was not reached within %lld ms", wait.id,
                static_cast<long long>(wait.timeout_ns / 1000000));
            exception_info::Report(ctx, wait.stream, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
        }
        ParkUntilPolled(ctx.token());
        return cpu::TaskStatus::Suspended();
    }));
}

void Event::RecordOnQueue(cpu::Queue* queue) {
    std::lock_guard guard(lock_);
    impl_->Record(queue);
}

void Event::WaitOnQueue(cpu::Queue* queue) {
    cpu::Event* impl = Acquire();
    impl->EnqueueWait(queue);
    impl->Release();
}

void Event::Reset() {
    captured_.store(0, std::memory_order_relaxed);
    {
        std::lock_guard guard(lock_);
        record_stream_ = nullptr;
    }
    if (on_device_) [[unlikely]] {
        // A fresh device event: "never recorded" again. Waits already enqueued keep theirs.
        int32_t status = 0;
        auto fresh = context_->device()->accelerator()->CreateEvent(device_event_timing_, &status);
        if (fresh != nullptr) {
            std::lock_guard guard(lock_);
            retired_device_events_.push_back(std::move(device_event_));
            device_event_ = std::move(fresh);
        }
        return;
    }
    cpu::Event* fresh = cpu::Event::Create();
    cpu::Event* old = nullptr;
    {
        std::lock_guard guard(lock_);
        old = impl_;
        impl_ = fresh;
    }
    old->Drop();  // pending records keep their own reference
}

bool Event::Query() {
    if (on_device_) [[unlikely]]
        return DeviceEvent()->Query();
    cpu::Event* impl = Acquire();
    bool done = impl->Query();
    impl->Release();
    return done;
}

cpu::WaitStatus Event::Synchronize(std::chrono::nanoseconds timeout) {
    if (on_device_) [[unlikely]]
        return DeviceEvent()->Synchronize(timeout);
    cpu::Event* impl = Acquire();
    cpu::WaitStatus status = impl->Synchronize(timeout);
    impl->Release();
    return status;
}

bool Event::recorded() {
    cpu::Event* impl = Acquire();
    bool result = impl->point().queue != nullptr;
    impl->Release();
    return result;
}

std::optional<int64_t> Event::TimestampNs() {
    if (on_device_) [[unlikely]]
        return DeviceEvent()->TimestampNs();
    cpu::Event* impl = Acquire();
    auto stamp = impl->TimestampNs();
    impl->Release();
    return stamp;
}

aclError CreateEvent(uint32_t flags, bool reusable, bool plain, aclrtEvent* out) {
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (!HasRoomForAnotherEvent(reusable, &rc)) return rc;
    int32_t id = g_next_event_id.fetch_add(1, std::memory_order_relaxed);
    auto event = std::make_unique<Event>(ctx, flags, reusable, plain, id);
    if (backend::Accelerator* accelerator = ctx->device()->accelerator()) {
        // Timing costs the device extra work: only events made for it get it (plain events
        // and ACL_EVENT_TIME_LINE ones), as CUDA's cudaEventDisableTiming advises.
        const bool timing = plain || (flags & ACL_EVENT_TIME_LINE) != 0;
        int32_t status = 0;
        auto device_event = accelerator->CreateEvent(timing, &status);
        if (device_event == nullptr) {
            return Fail(ACL_ERROR_RT_NO_EVENT_RESOURCE, "%s cannot create an event: %s",
                        accelerator->name(), accelerator->StatusText(status).c_str());
        }
        event->set_device_event(std::move(device_event), timing);
    } else if ((flags & ACL_EVENT_IPC) != 0) {
        SharedPage* page = nullptr;
        if (aclError failed = ipc_event::Create(&page)) return failed;
        event->set_ipc(page);
    }
    *out = Publish(std::move(event));
    return ACL_SUCCESS;
}

aclError OpenIpcEvent(const aclrtIpcEventHandle& handle, aclrtEvent* out) {
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (backend::Accelerator* accelerator = ctx->device()->accelerator()) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtIpcOpenEventHandle is not supported on the %s backend yet",
                    accelerator->name());
    }
    SharedPage* page = nullptr;
    if (aclError failed = ipc_event::Open(handle, &page)) return failed;
    auto event = std::make_unique<Event>(ctx, ACL_EVENT_IPC, true, false,
                                         g_next_event_id.fetch_add(1, std::memory_order_relaxed));
    event->set_ipc(page);
    *out = Publish(std::move(event));
    return ACL_SUCCESS;
}

aclError DestroyEvent(aclrtEvent handle) {
    // Strict checks: an event is destroyed in the context it was created in, like every other
    // use of it (the lookup names both contexts otherwise). One whose context is gone may be
    // destroyed from any context: it could never be destroyed otherwise.
    if (check::On()) [[unlikely]] {
        if (Event* event = Events().Find(handle); event != nullptr && ContextIsLive(event)) {
            aclError rc = ACL_SUCCESS;
            if (ResolveEvent(handle, &rc) == nullptr) return rc;
        }
    }
    // Does not wait: pending records hold their own reference to the backend event.
    std::unique_ptr<Event> event = Events().Remove(handle);
    if (event == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p is not a live event (never created, or already destroyed)", handle);
    }
    g_live_events.fetch_sub(1, std::memory_order_relaxed);
    if (check::On()) check::NoteDestroyed(check::Resource::kEvent, handle, 0, -1, "");
    Retire(std::move(event));
    return ACL_SUCCESS;
}

Event* ResolveEvent(aclrtEvent handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "event is null");
        return nullptr;
    }
    Event* event = Events().Find(handle);
    if (event == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "event %p is not a live event (never created, or already destroyed)", handle);
        return nullptr;
    }
    // Strict checks: an event belongs to the context it was created in, as on hardware.
    if (check::On()) [[unlikely]] {
        Context* current = CurrentContext();
        if (current != event->context()) {
            *rc =
                Fail(current == nullptr ? ACL_ERROR_RT_CONTEXT_NULL : ACL_ERROR_INVALID_PARAM,
                     "event %p belongs to %s, but this thread's current context is %s: call "
                     "aclrtSetCurrentContext(%p) first",
                     handle, check::DescribeContextIfLive(event->context()).c_str(),
                     check::DescribeContext(current).c_str(), static_cast<void*>(event->context()));
            return nullptr;
        }
    }
    return event;
}

uint32_t LiveEventCount() {
    return g_live_events.load(std::memory_order_relaxed);
}

}  // namespace openacl

namespace openacl {

std::vector<const void*> LiveDeviceEvents(const Device* device) {
    std::vector<const void*> handles;
    Events().ForEach([&](Event* event) {
        if (event->context()->device() == device) handles.push_back(event);
    });
    return handles;
}

void ForgetDeviceEvents(const Device* device) {
    for (const void* handle : LiveDeviceEvents(device)) {
        if (std::unique_ptr<Event> event = Events().Remove(handle)) {
            g_live_events.fetch_sub(1, std::memory_order_relaxed);
            if (check::On()) check::NoteDestroyed(check::Resource::kEvent, handle, 0, -1, "");
            Retire(std::move(event));
        }
    }
}

}  // namespace openacl
