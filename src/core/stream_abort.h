// Stopping and aborting work: aclrtStreamStop, aclrtStreamAbort, aclrtDeviceTaskAbort and the
// callbacks aclrtSetDeviceTaskAbortCallback registers.
//
// - An abort discards what the stream has queued and stops its running task, then puts the
//   stream back in service: what is submitted after the call returns runs as usual. Tasks
//   submitted while it runs are discarded too. A task waiting on the stream (an event, notify or
//   value wait, a blocking callback) is stopped at once; one executing host code on a worker (a
//   kernel, a copy, a host function) cannot be interrupted on a CPU, so the abort returns once
//   it has finished. Synchronisations that wait across an abort, or begin during it, return
//   ACL_ERROR_RT_STREAM_ABORT (ACL_ERROR_RT_DEVICE_TASK_ABORT for a device abort): of the
//   stream, of an event whose newest record went to it (the record may have been discarded),
//   and of its device; the errors of the aborted work are dropped.
// - A stop ends the running task only, with ACL_ERROR_RT_TASK_ABORT_STOP, which the next
//   synchronisation reports; queued tasks stay and then run or are skipped as the stream's
//   failure mode says (aclrtSetStreamFailureMode).
// - A device abort runs the PRE callbacks, aborts every stream of the device, then the POST
//   callbacks, within the timeout.
#pragma once

#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

// The stream has been resolved by the API; these refuse streams they cannot act on (the
// default stream where CANN does, captured or model-bound streams, device-only streams, the
// accelerator backends) with the documented code and a message.
aclError AbortStream(Stream* stream);
aclError StopStream(Stream* stream);

// timeout_ms: 0 waits as long as it takes, otherwise the limit for the whole abort.
aclError AbortDeviceTasks(int32_t device_id, uint32_t timeout_ms);
aclError SetDeviceTaskAbortCallback(const char* name, aclrtDeviceTaskAbortCallback fn, void* args);

// For synchronisations of `stream`: ACL_SUCCESS, or the abort code (recorded with a message)
// when the stream is being aborted now or was aborted since `epoch` (Stream::abort_epoch()
// read before the wait began).
aclError AbortedDuringWait(Stream* stream, uint64_t epoch);

}  // namespace openacl
