// Event management: creation, recording, queries, host synchronisation, cross-stream waits
// and timing.
#include <algorithm>
#include <chrono>
#include <cstdint>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/event.h"
#include "core/ipc_event.h"
#include "core/model_ri.h"
#include "core/op_timeout.h"
#include "core/stream.h"
#include "core/stream_abort.h"

using openacl::Event;
using openacl::Fail;
using openacl::Stream;

namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                      ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |
                                      ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

aclError CreateWithFlag(aclrtEvent* event, uint32_t flag, bool reusable) {
    if (event == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "event is null");
    if ((flag & ~kKnownEventFlags) != 0 || flag == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flag 0x%x is not a combination of ACL_EVENT_* flags",
                    flag);
    }
    if ((flag & ACL_EVENT_IPC) != 0) {
        if (flag != ACL_EVENT_IPC) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "flag 0x%x: ACL_EVENT_IPC cannot be combined with other flags", flag);
        }
        if (!reusable) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "ACL_EVENT_IPC events are made by aclrtCreateEventExWithFlag");
        }
    }
    return openacl::CreateEvent(flag, reusable, false, event);
}

// Events shared between processes wait, query and synchronise through their shared page
// (core/ipc_event.h); captures cannot hold them, and the accelerator backends do not share them.
aclError RefuseIpcOn(Stream* stream, aclrtEvent event, const char* api) {
    if (stream->capture() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: IPC event %p cannot be part of a capture (aclmdlRICaptureBegin)", api,
                    event);
    }
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: IPC events are not supported on the accelerator backends yet", api);
    }
    return ACL_SUCCESS;
}

// Plain aclrtCreateEvent events can do everything: wait, reset and timing.
constexpr uint32_t kPlainEventFlags = ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE;

aclError Record(aclrtEvent event, aclrtStream stream, bool external = false) {
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    if (target->context()->device() != resolved->context()->device()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p was created on device %d but stream %p runs on device %d", event,
                    resolved->context()->device()->id(), stream, target->context()->device()->id());
    }
    if (openacl::SharedPage* page = resolved->ipc()) [[unlikely]] {
        if (aclError refused = RefuseIpcOn(target, event, "aclrtRecordEvent")) return refused;
        if (external) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "ACL_EVENT_RECORD_EXTERNAL is only valid while a stream is being captured");
        }
        openacl::ipc_event::Record(page, target, resolved->id());
        return ACL_SUCCESS;
    }
    if (openacl::ModelRI* model = target->capture()) [[unlikely]]
        return openacl::CaptureRecord(model, target, resolved, external);
    if (external) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "ACL_EVENT_RECORD_EXTERNAL is only valid while a stream is being captured");
    }
    if (int32_t status = resolved->Record(target); status != 0) {
        return openacl::DeviceRefused(target, status, "recording event");
    }
    return ACL_SUCCESS;
}

// aclrtQueryEvent and aclrtQueryEventWaitStatus do not take reusable events.
Event* ResolveForOlderQuery(aclrtEvent event, const void* status, aclError* rc) {
    if (status == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "status is null");
        return nullptr;
    }
    Event* resolved = openacl::ResolveEvent(event, rc);
    if (resolved != nullptr && resolved->reusable()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "event %p comes from aclrtCreateEventExWithFlag: query it with "
                   "aclrtQueryEventStatus",
                   event);
        return nullptr;
    }
    return resolved;
}

}  // namespace

aclError aclrtCreateEvent(aclrtEvent* event) {
    OPENACL_API();
    if (event == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "event is null");
    return openacl::CreateEvent(kPlainEventFlags, false, true, event);
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
    OPENACL_API();
    return CreateWithFlag(event, flag, false);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
    OPENACL_API();
    return CreateWithFlag(event, flag, true);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    OPENACL_API();
    if (event == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "event is null");
    return openacl::DestroyEvent(event);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    OPENACL_API();
    return Record(event, stream);
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
    OPENACL_API();
    if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flag %u is not an ACL_EVENT_RECORD_* value", flag);
    }
    return Record(event, stream, flag == ACL_EVENT_RECORD_EXTERNAL);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    if (resolved->plain() || resolved->reusable() || !(resolved->flags() & ACL_EVENT_SYNC)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p cannot be reset: only events created by aclrtCreateEventWithFlag "
                    "with ACL_EVENT_SYNC can",
                    event);
    }
    // Inside a capture the reset is a task of the replay (CANN's graphs reset their external
    // events after waiting for them).
    if (openacl::ModelRI* model = target->capture()) [[unlikely]]
        return openacl::CaptureReset(model, target, resolved);
    resolved->Reset();
    return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
    OPENACL_API();
    if (status == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "status is null");
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    const bool done =
        resolved->ipc() != nullptr ? openacl::ipc_event::Query(resolved->ipc()) : resolved->Query();
    *status = done ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Event* resolved = ResolveForOlderQuery(event, status, &rc);
    if (resolved == nullptr) return rc;
    // Note the inverted values of this older enum: COMPLETE is 0.
    *status = resolved->Query() ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Event* resolved = ResolveForOlderQuery(event, status, &rc);
    if (resolved == nullptr) return rc;
    // A wait on the event is released exactly when its recorded work has completed.
    *status = resolved->Query() ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

namespace {

// The stream of the event's newest record, if it still exists, and its abort epoch now: a wait
// that overlaps an abort of that stream answers the abort, as CANN documents for
// aclrtStreamAbort (the record may have been discarded).
struct RecordSource {
    openacl::Stream* stream = nullptr;
    uint64_t epoch = 0;
    explicit RecordSource(Event* event) : stream(event->record_stream()) {
        if (stream != nullptr && !openacl::StreamAlive(stream)) stream = nullptr;
        if (stream != nullptr) epoch = stream->abort_epoch();
    }
    aclError Aborted() const {
        return stream == nullptr ? ACL_SUCCESS : openacl::AbortedDuringWait(stream, epoch);
    }
};

}  // namespace

aclError aclrtSynchronizeEvent(aclrtEvent event) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    if (openacl::SharedPage* page = resolved->ipc()) [[unlikely]]
        return openacl::ipc_event::Synchronize(page, resolved->id(), -1);
    const RecordSource source(resolved);
    if (aclError aborted = source.Aborted()) return aborted;
    resolved->Synchronize(openacl::cpu::kWaitForever);
    return source.Aborted();
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
    OPENACL_API();
    if (timeout < -1) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: use -1 (wait forever) or a value >= 0", timeout);
    }
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    if (openacl::SharedPage* page = resolved->ipc()) [[unlikely]] {
        rc = openacl::ipc_event::Synchronize(page, resolved->id(), timeout);
        if (rc != ACL_ERROR_RT_EVENT_SYNC_TIMEOUT) return rc;
        return Fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                    "the work recorded by IPC event %p did not complete within %d ms", event,
                    timeout);
    }
    auto limit = timeout < 0 ? openacl::cpu::kWaitForever
                             : std::chrono::nanoseconds(std::chrono::milliseconds(timeout));
    const RecordSource source(resolved);
    if (aclError aborted = source.Aborted()) return aborted;
    if (resolved->Synchronize(limit).timed_out()) {
        if (aclError aborted = source.Aborted()) return aborted;
        return Fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                    "the work recorded by event %p did not complete within %d ms", event, timeout);
    }
    return source.Aborted();
}

namespace {

// aclrtStreamWaitEvent, and the WithFlag form without a timeout.
aclError Wait(aclrtStream stream, aclrtEvent event) {
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    if (!(resolved->flags() & (ACL_EVENT_SYNC | ACL_EVENT_IPC))) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p was created without ACL_EVENT_SYNC, so streams cannot wait on it",
                    event);
    }
    if (openacl::SharedPage* page = resolved->ipc()) [[unlikely]] {
        if (aclError refused = RefuseIpcOn(target, event, "aclrtStreamWaitEvent")) return refused;
        openacl::ipc_event::EnqueueWait(page, target, resolved->id(), openacl::OpWaitTimeoutMs());
        return ACL_SUCCESS;
    }
    bool captured = false;
    rc = openacl::CaptureWaitIfCaptured(target, resolved, &captured);
    if (captured) return rc;
    // aclrtSetOpWaitTimeout bounds the waits enqueued after it (CPU backend).
    if (const int32_t limit_ms = openacl::OpWaitTimeoutMs();
        limit_ms > 0 && !resolved->on_device() && target->lane() == nullptr) [[unlikely]] {
        resolved->EnqueueWaitWithTimeout(target, limit_ms);
        return ACL_SUCCESS;
    }
    if (int32_t status = resolved->EnqueueWait(target); status != 0) {
        return openacl::DeviceRefused(target, status, "a wait for event");
    }
    return ACL_SUCCESS;
}

}  // namespace

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    OPENACL_API();
    return Wait(stream, event);
}

namespace {

// aclrtStreamWaitEventWithTimeout and the WithFlag form: timeout_ms > 0 bounds the wait.
aclError WaitWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout_ms) {
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    if (!(resolved->flags() & (ACL_EVENT_SYNC | ACL_EVENT_IPC))) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p was created without ACL_EVENT_SYNC, so streams cannot wait on it",
                    event);
    }
    if (openacl::SharedPage* page = resolved->ipc()) [[unlikely]] {
        if (aclError refused = RefuseIpcOn(target, event, "aclrtStreamWaitEventWithTimeout"))
            return refused;
        openacl::ipc_event::EnqueueWait(page, target, resolved->id(), timeout_ms);
        return ACL_SUCCESS;
    }
    if (resolved->on_device() || target->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "event waits with a timeout are not supported on the accelerator backends "
                    "yet");
    }
    bool captured = false;  // inside a capture the wait is an edge, which has no timeout
    rc = openacl::CaptureWaitIfCaptured(target, resolved, &captured);
    if (captured) return rc;
    resolved->EnqueueWaitWithTimeout(target, timeout_ms);
    return ACL_SUCCESS;
}

}  // namespace

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
    OPENACL_API();
    // CANN 9 counts this timeout in seconds, 0 meaning no limit (older releases: milliseconds).
    if (timeout < 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d s is invalid: use 0 (no limit) or a number of seconds", timeout);
    }
    if (timeout == 0) return Wait(stream, event);
    const int64_t timeout_ms = std::min<int64_t>(int64_t{timeout} * 1000, INT32_MAX);
    return WaitWithTimeout(stream, event, static_cast<int32_t>(timeout_ms));
}

namespace {

// ACL_EVENT_WAIT_EXTERNAL: inside a capture, a wait for a record made outside the graph (another
// stream's, or another graph's ACL_EVENT_RECORD_EXTERNAL record), touched at every replay.
aclError WaitExternal(aclrtStream stream, aclrtEvent event, uint32_t timeout_s) {
    if (timeout_s != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %u s is invalid with ACL_EVENT_WAIT_EXTERNAL: an external wait "
                    "takes 0 (no limit)",
                    timeout_s);
    }
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    if (!resolved->reusable() || resolved->flags() != ACL_EVENT_SYNC) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p cannot be waited for with ACL_EVENT_WAIT_EXTERNAL: only events "
                    "made by aclrtCreateEventExWithFlag with ACL_EVENT_SYNC alone can",
                    event);
    }
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    openacl::ModelRI* model = nullptr;
    openacl::CaptureStatus(target, &status, &model);
    if (status == ACL_MODEL_RI_CAPTURE_STATUS_NONE || model == nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    "ACL_EVENT_WAIT_EXTERNAL is only valid while stream %p is being captured "
                    "(aclmdlRICaptureBegin); outside a capture use ACL_EVENT_WAIT_DEFAULT",
                    stream);
    }
    if (const uint64_t mark = resolved->captured_mark(); mark != 0 && (mark >> 32) == model->id()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p was last recorded in this same capture: ACL_EVENT_WAIT_EXTERNAL "
                    "waits for a record made outside the graph (wait with "
                    "ACL_EVENT_WAIT_DEFAULT for a record inside it)",
                    event);
    }
    bool captured = false;
    return openacl::CaptureWaitIfCaptured(target, resolved, &captured);
}

}  // namespace

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                      uint32_t flag) {
    OPENACL_API();
    if (flag == ACL_EVENT_WAIT_EXTERNAL) return WaitExternal(stream, event, timeout);
    if (flag != ACL_EVENT_WAIT_DEFAULT) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag %u is neither ACL_EVENT_WAIT_DEFAULT nor ACL_EVENT_WAIT_EXTERNAL", flag);
    }
    // The timeout is in seconds here; 0 waits without a limit, as aclrtStreamWaitEvent does.
    if (timeout == 0) return Wait(stream, event);
    const int64_t timeout_ms = std::min<int64_t>(int64_t{timeout} * 1000, INT32_MAX);
    return WaitWithTimeout(stream, event, static_cast<int32_t>(timeout_ms));
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    OPENACL_API();
    if (ms == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ms is null");
    aclError rc = ACL_SUCCESS;
    Event* start = openacl::ResolveEvent(startEvent, &rc);
    if (start == nullptr) return rc;
    Event* end = openacl::ResolveEvent(endEvent, &rc);
    if (end == nullptr) return rc;
    for (Event* e : {start, end}) {
        if (!(e->flags() & ACL_EVENT_TIME_LINE)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "event %p was created without ACL_EVENT_TIME_LINE, so it has no "
                        "timestamp",
                        static_cast<void*>(e));
        }
    }
    if (start->on_device() && end->on_device()) {
        // Measured by the device itself: finer than the host clock the timestamps map to.
        if (std::optional<float> elapsed =
                end->DeviceEvent()->ElapsedMsSince(*start->DeviceEvent());
            elapsed && *elapsed >= 0) {
            *ms = *elapsed;
            return ACL_SUCCESS;
        }
    }
    auto t0 = start->TimestampNs();
    auto t1 = end->TimestampNs();
    if (!t0 || !t1) {
        return Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                    "%s event has not completed (record both events, then synchronize before "
                    "asking for the elapsed time)",
                    !t0 ? "the start" : "the end");
    }
    if (*t1 < *t0) {
        return Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
                    "the end event completed %.3f ms before the start event",
                    static_cast<double>(*t0 - *t1) / 1e6);
    }
    *ms = static_cast<float>(static_cast<double>(*t1 - *t0) / 1e6);
    return ACL_SUCCESS;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
    OPENACL_API();
    if (timestamp == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "timestamp is null");
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    if (resolved->ipc() != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "event %p is an IPC event, which has no timestamp",
                    event);
    }
    auto stamp = resolved->TimestampNs();
    if (!stamp) {
        return Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "event %p has not completed a record yet",
                    event);
    }
    *timestamp = static_cast<uint64_t>(*stamp);  // nanoseconds of the steady clock
    return ACL_SUCCESS;
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
    OPENACL_API();
    if (eventId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "eventId is null");
    aclError rc = ACL_SUCCESS;
    Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    if (resolved->ipc() != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p is an IPC event: CANN gives IPC events no event id", event);
    }
    *eventId = static_cast<uint32_t>(resolved->id());
    return ACL_SUCCESS;
}

aclError aclrtGetEventAvailNum(uint32_t* eventCount) {
    OPENACL_API();
    if (eventCount == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "eventCount is null");
    uint32_t live = openacl::LiveEventCount();
    *eventCount = live >= openacl::kMaxEventsPerDevice ? 0 : openacl::kMaxEventsPerDevice - live;
    return ACL_SUCCESS;
}
