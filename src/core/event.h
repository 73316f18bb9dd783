// Events: markers recorded into streams. A record captures "everything submitted to the
// stream so far"; queries, host synchronisation and other streams' waits refer to that.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "acl/acl_rt.h"
#include "backend/accelerator.h"
#include "backend/cpu/event.h"

namespace openacl {

class Context;
class SharedPage;
class Stream;

class Event {
 public:
    Event(Context* context, uint32_t flags, bool reusable, bool plain, int32_t id)
        : context_(context),
          flags_(flags),
          reusable_(reusable),
          plain_(plain),
          id_(id),
          impl_(cpu::Event::Create()) {}
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    Context* context() const { return context_; }
    uint32_t flags() const { return flags_; }
    bool reusable() const { return reusable_; }  // aclrtCreateEventExWithFlag
    bool plain() const { return plain_; }        // aclrtCreateEvent
    int32_t id() const { return id_; }
    // On an accelerator, the device event behind this one (nullptr on the CPU backend); set
    // once, before the event is published. Reset replaces it.
    bool on_device() const { return on_device_; }
    backend::DeviceEvent* DeviceEvent();
    void set_device_event(std::unique_ptr<backend::DeviceEvent> event, bool timing) {
        device_event_ = std::move(event);
        device_event_timing_ = timing;
        on_device_ = true;
    }

    // An event shared between processes (ACL_EVENT_IPC, or opened from another process's
    // handle): its state is this page (core/ipc_event.h), which the API's calls use instead
    // of the backend event. nullptr for every other event. Set before the event is published.
    SharedPage* ipc() const { return ipc_; }
    void set_ipc(SharedPage* page) { ipc_ = page; }

    // Non-zero: the accelerator refused (its status code).
    int32_t Record(Stream* stream);
    int32_t EnqueueWait(Stream* stream);
    // A wait that fails its stream (ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, with a message) when the
    // newest record has not completed timeout_ms after the wait was reached (CPU streams).
    void EnqueueWaitWithTimeout(Stream* stream, int32_t timeout_ms);
    // Back to the never-recorded state (aclrtResetEvent).
    void Reset();
    bool Query();
    cpu::WaitStatus Synchronize(std::chrono::nanoseconds timeout);
    bool recorded();
    std::optional<int64_t> TimestampNs();
    // The stream of the newest record (null before any, and after Reset): a synchronisation
    // that overlaps an abort of it answers the abort (core/stream_abort.h). May name a stream
    // destroyed since; check StreamAlive before use.
    Stream* record_stream() {
        std::lock_guard guard(lock_);
        return record_stream_;
    }

    // Captures (core/model_ri.h): when the newest record was made in a capture, the capture's
    // model id and point, packed as (id << 32 | point); 0 when it is a real record.
    uint64_t captured_mark() const { return captured_.load(std::memory_order_acquire); }
    void set_captured_mark(uint64_t mark) { captured_.store(mark, std::memory_order_release); }
    // A replay's record of the real event on an executor queue, and a wait for it.
    void RecordOnQueue(cpu::Queue* queue);
    void WaitOnQueue(cpu::Queue* queue);

 private:
    // The backend event, replaced by Reset; referenced while in use so a concurrent reset
    // cannot free it under a query.
    cpu::Event* Acquire();

    Context* context_;
    uint32_t flags_;
    bool reusable_;
    bool plain_;
    int32_t id_;
    cpu::SpinLock lock_;
    cpu::Event* impl_;
    std::unique_ptr<backend::DeviceEvent> device_event_;
    bool on_device_ = false;
    // The last traced record on an accelerator lane: its stream's queue and track sequence.
    struct {
        const void* queue = nullptr;
        uint64_t seq = 0;
    } traced_record_;
    bool device_event_timing_ = false;
    SharedPage* ipc_ = nullptr;  // a reference
    std::atomic<uint64_t> captured_{0};
    Stream* record_stream_ = nullptr;  // under lock_
    // Replaced by Reset while records or waits may still refer to them on the device: kept
    // until the event is destroyed (resets of one event are rare).
    std::vector<std::unique_ptr<backend::DeviceEvent>> retired_device_events_;
};

// Most events a device holds at once (as on Atlas A2 hardware).
constexpr uint32_t kMaxEventsPerDevice = 65536;

aclError CreateEvent(uint32_t flags, bool reusable, bool plain, aclrtEvent* out);
// aclrtIpcOpenEventHandle: an event of the current context whose state is another process's
// IPC event.
aclError OpenIpcEvent(const aclrtIpcEventHandle& handle, aclrtEvent* out);
aclError DestroyEvent(aclrtEvent handle);
// The live event behind a handle, or nullptr after recording ACL_ERROR_INVALID_PARAM.
Event* ResolveEvent(aclrtEvent handle, aclError* rc);
uint32_t LiveEventCount();

}  // namespace openacl

namespace openacl {
class Device;
// Destroys the events created on a device that is being released (lifecycle mutex held).
void ForgetDeviceEvents(const Device* device);
// The handles of the events created on a device (leak reports).
std::vector<const void*> LiveDeviceEvents(const Device* device);
}  // namespace openacl
