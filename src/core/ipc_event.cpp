#include "core/ipc_event.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <new>
#include <string>

#include "backend/cpu/executor.h"
#include "backend/cpu/sync.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/poll_park.h"
#include "core/shared_page.h"
#include "core/stream.h"
#include "core/trace.h"

namespace openacl::ipc_event {

namespace {

constexpr uint64_t kMagic = 0x4556454350494c4fULL;  // "OLIPCEVE"
// How often a waiter asks whether the process of the newest record still exists.
constexpr int64_t kLivenessCheckNs = 100'000'000;

// The event's state in the shared page. 64-bit atomics are lock-free on every platform openacl
// runs on, so they work between processes.
struct EventPage {
    uint64_t magic;
    std::atomic<uint64_t> recorded;        // records enqueued so far, by any process
    std::atomic<uint64_t> completed;       // the number of the newest record that has run
    std::atomic<uint32_t> changes;         // bumped whenever `completed` grows: the futex word
    std::atomic<int32_t> recorder;         // the process of the newest record
    std::atomic<uint64_t> recorder_start;  // and its start time (a reused pid is not it)
};
static_assert(std::atomic<uint64_t>::is_always_lock_free, "shared counters must be lock-free");
static_assert(sizeof(EventPage) <= SharedPage::kSize, "the state fits the page");

EventPage* PageOf(SharedPage* page) {
    return static_cast<EventPage*>(page->data());
}

uint64_t OwnStartTime() {
    // Cached per pid: a child forked after the first call looks its own up.
    static std::atomic<int32_t> cached_pid{0};
    static std::atomic<uint64_t> start{0};
    const int32_t self = getpid();
    if (cached_pid.load(std::memory_order_acquire) != self) {
        start.store(export_record::ProcessStartTime(self), std::memory_order_relaxed);
        cached_pid.store(self, std::memory_order_release);
    }
    return start.load(std::memory_order_relaxed);
}

// The process that made the newest record, when it has ended with record `target` not run (a
// record that ran just before its process ended is not missed: `completed` is read after the
// process was found gone); 0 otherwise.
int32_t RecorderGoneBefore(EventPage* p, uint64_t target) {
    const int32_t pid = p->recorder.load(std::memory_order_acquire);
    if (pid <= 0) return 0;
    const uint64_t start = p->recorder_start.load(std::memory_order_acquire);
    if (export_record::ProcessStartTime(pid) == start) return 0;
    return p->completed.load(std::memory_order_acquire) < target ? pid : 0;
}

void Complete(SharedPage* page, uint64_t number) {
    EventPage* p = PageOf(page);
    uint64_t seen = p->completed.load(std::memory_order_relaxed);
    while (seen < number &&
           !p->completed.compare_exchange_weak(seen, number, std::memory_order_acq_rel)) {
    }
    p->changes.fetch_add(1, std::memory_order_release);
    cpu::UnparkShared(p->changes, INT32_MAX);  // host waits, in every process
    WakeParked();  // this process's waiting streams, now rather than polled
}

}  // namespace

aclError Create(SharedPage** page) {
    if (aclError rc = SharedPage::Create("IPC event", page)) return rc;
    new ((*page)->data()) EventPage{kMagic, {0}, {0}, {0}, {0}, {0}};
    return ACL_SUCCESS;
}

aclError GetHandle(SharedPage* page, int32_t device_id, aclrtIpcEventHandle* handle) {
    std::string name;
    if (aclError rc = page->Export(export_record::Kind::kIpcEvent, "openacl.event.", false,
                                   device_id, &name)) {
        return rc;
    }
    static_assert(sizeof handle->reserved == 64, "the handle holds a name of up to 63 bytes");
    if (name.size() >= sizeof handle->reserved) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "the event's name %s is too long for a handle",
                    name.c_str());
    }
    std::memset(handle->reserved, 0, sizeof handle->reserved);
    std::memcpy(handle->reserved, name.data(), name.size());
    return ACL_SUCCESS;
}

aclError Open(const aclrtIpcEventHandle& handle, SharedPage** page) {
    const size_t length = strnlen(handle.reserved, sizeof handle.reserved);
    if (length == 0 || length == sizeof handle.reserved) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the handle is not one aclrtIpcGetEventHandle made (it holds no event name)");
    }
    int32_t exporter = 0;
    SharedPage* opened = nullptr;
    if (aclError rc =
            SharedPage::Import(std::string(handle.reserved, length), export_record::Kind::kIpcEvent,
                               "IPC event handle", &exporter, &opened)) {
        return rc;
    }
    if (PageOf(opened)->magic != kMagic) {
        opened->Release();
        return Fail(ACL_ERROR_INVALID_PARAM, "the handle's event in process %d is not an IPC event",
                    exporter);
    }
    *page = opened;
    return ACL_SUCCESS;
}

void Record(SharedPage* page, Stream* stream, int32_t event_id) {
    EventPage* p = PageOf(page);
    p->recorder_start.store(OwnStartTime(), std::memory_order_relaxed);
    p->recorder.store(getpid(), std::memory_order_release);
    const uint64_t number = p->recorded.fetch_add(1, std::memory_order_acq_rel) + 1;
    page->Retain();  // the task's
    // Also when the stream is destroyed before it gets there: its waits must not hang on a
    // record that will never run (a local event's discarded record counts as reached too).
    stream->Submit(cpu::MakeTask(
                       [page, number](cpu::TaskContext&) {
                           Complete(page, number);
                           page->Release();
                       },
                       0, cpu::Task::kCallWhenCancelled),
                   {trace::Kind::kEventRecord, static_cast<uint64_t>(event_id)});
}

void EnqueueWait(SharedPage* page, Stream* stream, int32_t event_id, int32_t timeout_ms) {
    const uint64_t target = PageOf(page)->recorded.load(std::memory_order_acquire);
    if (target == 0) return;  // never recorded: nothing to wait for
    struct Wait {
        SharedPage* page;  // the task's reference
        Stream* stream;
        uint64_t target;
        int64_t deadline;    // set when the stream reaches the wait; 0: none yet
        int64_t next_check;  // of the recorder's liveness
        int32_t timeout_ms;  // 0: no limit
        int32_t event_id;
    };
    page->Retain();
    stream->Submit(
        cpu::MakeTask(
            [w = Wait{page, stream, target, 0, 0, timeout_ms, event_id}](
                cpu::TaskContext& ctx) mutable -> cpu::TaskStatus {
                EventPage* p = PageOf(w.page);
                if (ctx.cancelled() || p->completed.load(std::memory_order_acquire) >= w.target) {
                    w.page->Release();
                    return cpu::TaskStatus::Done();
                }
                const int64_t now = cpu::NowNs();
                if (w.timeout_ms > 0) {
                    if (w.deadline == 0) w.deadline = now + int64_t{w.timeout_ms} * 1'000'000;
                    if (now >= w.deadline) {
                        w.stream->NoteFailure(
                            "a wait for IPC event %d: its record #%llu did not run within %d ms",
                            w.event_id, static_cast<unsigned long long>(w.target), w.timeout_ms);
                        exception_info::Report(ctx, w.stream, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
                        w.page->Release();
                        return cpu::TaskStatus::Failed(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
                    }
                }
                if (now >= w.next_check) {
                    w.next_check = now + kLivenessCheckNs;
                    if (const int32_t ended = RecorderGoneBefore(p, w.target)) {
                        w.stream->NoteFailure(
                            "a wait for IPC event %d cannot end: process %d, which recorded it, "
                            "has ended before its record ran",
                            w.event_id, ended);
                        exception_info::Report(ctx, w.stream, ACL_ERROR_RT_DRV_INTERNAL_ERROR);
                        w.page->Release();
                        return cpu::TaskStatus::Failed(ACL_ERROR_RT_DRV_INTERNAL_ERROR);
                    }
                }
                ParkUntilPolled(ctx.token());
                return cpu::TaskStatus::Suspended();
            },
            0, cpu::Task::kCallWhenCancelled),
        {trace::Kind::kEventWait, static_cast<uint64_t>(event_id)});
}

bool Query(SharedPage* page) {
    EventPage* p = PageOf(page);
    return p->completed.load(std::memory_order_acquire) >=
           p->recorded.load(std::memory_order_acquire);
}

aclError Synchronize(SharedPage* page, int32_t event_id, int32_t timeout_ms) {
    EventPage* p = PageOf(page);
    const uint64_t target = p->recorded.load(std::memory_order_acquire);
    const int64_t start = cpu::NowNs();
    const int64_t deadline = timeout_ms < 0 ? -1 : start + int64_t{timeout_ms} * 1'000'000;
    int64_t next_check = start + kLivenessCheckNs;
    for (;;) {
        const uint32_t seen = p->changes.load(std::memory_order_acquire);
        if (p->completed.load(std::memory_order_acquire) >= target) return ACL_SUCCESS;
        const int64_t now = cpu::NowNs();
        if (deadline >= 0 && now >= deadline) return ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
        if (now >= next_check) {
            next_check = now + kLivenessCheckNs;
            if (const int32_t ended = RecorderGoneBefore(p, target)) {
                return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
                            "IPC event %d will not complete: process %d, which recorded it, has "
                            "ended before its record ran",
                            event_id, ended);
            }
        }
        int64_t sleep = next_check - now;
        if (deadline >= 0) sleep = std::min(sleep, deadline - now);
        cpu::ParkWhileShared(p->changes, seen, sleep);
    }
}

}  // namespace openacl::ipc_event
