// Events shared between processes (ACL_EVENT_IPC events, aclrtIpcGetEventHandle,
// aclrtIpcOpenEventHandle). Their state is a shared page (core/shared_page.h) that counts the
// records enqueued by any process and holds the number of the newest one that has run. A record
// enqueues a task that marks its number run when its stream gets there; a wait, a stream's or the
// host's, in any process, takes the number of the newest record at the time of the call and waits
// until that number has run (a never-recorded event imposes nothing). Waiting streams are parked
// and polled (core/poll_park.h), and woken at once by a record that runs in their own process;
// host waits sleep on a futex in the page. A wait whose record was made by a process that has
// ended since fails, with a message, instead of hanging.
#pragma once

#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class SharedPage;
class Stream;

namespace ipc_event {

// The page of a new ACL_EVENT_IPC event.
aclError Create(SharedPage** page);
// Publishes the page (once) and writes its name into the handle.
aclError GetHandle(SharedPage* page, int32_t device_id, aclrtIpcEventHandle* handle);
// Maps the page a handle names (a Fail that says why not).
aclError Open(const aclrtIpcEventHandle& handle, SharedPage** page);

void Record(SharedPage* page, Stream* stream, int32_t event_id);
// timeout_ms > 0: the wait fails its stream with ACL_ERROR_RT_EVENT_SYNC_TIMEOUT when the record
// has not run that long after the stream reached the wait.
void EnqueueWait(SharedPage* page, Stream* stream, int32_t event_id, int32_t timeout_ms);
// True when the newest record has run (or there was none).
bool Query(SharedPage* page);
// Blocks until the newest record as of the call has run: ACL_SUCCESS;
// ACL_ERROR_RT_EVENT_SYNC_TIMEOUT after timeout_ms (negative: no limit), without a message; or a
// Fail when the process that made the record has ended.
aclError Synchronize(SharedPage* page, int32_t event_id, int32_t timeout_ms);

}  // namespace ipc_event
}  // namespace openacl
