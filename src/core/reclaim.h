// Deferred reclamation of runtime objects (streams, contexts, events, executors) so that no
// API call can have one freed under it. Every API call pins the runtime for its whole duration
// (ApiScope, outermost scope only); an object that aclFinalize, aclrtResetDevice[Force],
// aclrtDestroyContext, aclrtDestroyStream or aclrtDestroyEvent takes out of the runtime is
// handed to Retire instead of being freed, and freed once every call that was already running
// when it was retired has returned. A call that starts later cannot find it (it was unlinked
// first), so it fails with the documented error instead of touching freed memory.
//
// The pin is one store of the global epoch into the thread's own slot (a locked exchange, for
// the ordering against the retiring thread), and one store on return: no lock, no allocation,
// no shared cache line written. Destroying threads never wait for other calls: the last pinned
// call to return frees what is due (or the next Retire does).
#pragma once

#include <cstdint>
#include <functional>

namespace openacl::reclaim {

// Entering and leaving an API call (outermost scope only; see ApiScope). Enter returns the
// thread's pin, which Leave takes back (no second thread-local lookup on the way out).
struct Pin;
Pin* Enter() noexcept;
void Leave(Pin* pin) noexcept;

// Frees `release` (runs it) once no call that may still see the object is running. The caller
// must have made the object unreachable for new calls first (unregistered its handle).
// Objects are freed in the order they were retired, so an executor retired after its streams
// outlives them.
void Retire(std::function<void()> release);

// Runs every release that is due. Skipped on an executor's worker threads (a release may stop
// that executor) and while another thread is reclaiming.
void ReclaimDue() noexcept;

// Objects retired but not yet freed (tests).
uint64_t PendingCount() noexcept;

}  // namespace openacl::reclaim
