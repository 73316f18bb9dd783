// Deferred reclamation of runtime objects (streams, contexts, events, executors) so that no
// API call can have one freed under it. Every API call pins the runtime for its whole duration
// (ApiScope, outermost scope only); an object that aclFinalize, aclrtResetDevice[Force],
// aclrtDestroyContext, aclrtDestroyStream or aclrtDestroyEvent takes out of the runtime is
// handed to Retire instead of being freed, and freed once every call that was already running
// when it was retired has returned. A call that starts later cannot find it (it was unlinked
// first), so it fails with the documented error instead of touching freed memory.
//
// The pin is one store of the global epoch into the thread's own slot, and one store on return:
// no lock, no fence, no allocation, no shared cache line written. The ordering against the
// retiring thread is an asymmetric fence (core/fence.h): the retiring side pays one or two
// membarriers per retirement instead of every call paying two full barriers. Destroying threads
// never wait for other calls: the last pinned call to return frees what is due (or the next Retire
// does).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "core/fence.h"

namespace openacl::reclaim {

// A thread's pin. One per thread that ever made an API call; pins are never freed (a thread
// that exits hands its pin to the next new thread), so a reclaiming thread may walk the list
// any time.
struct alignas(64) Pin {
    std::atomic<uint64_t> active{0};  // the epoch when the running call began; 0: none running
    std::atomic<bool> in_use{false};
    Pin* next = nullptr;  // fixed before the pin is published
};

namespace detail {
extern std::atomic<uint64_t> g_epoch;
// The stamp of the oldest object not yet freed; 0 when none is pending.
extern std::atomic<uint64_t> g_oldest;
Pin* Claim(Pin** cache) noexcept;
}  // namespace detail

// Frees whatever is due (see ReclaimDue).
void ReclaimDue() noexcept;

// Entering and leaving an API call (outermost scope only; see ApiScope). `cache` is the
// caller's thread-local pointer to the thread's pin (nullptr at first; cleared at thread exit).
// Enter returns the pin, which Leave takes back.
inline Pin* Enter(Pin** cache) noexcept {
    Pin* pin = *cache;
    if (pin == nullptr) [[unlikely]]
        pin = detail::Claim(cache);
    // Either a retiring thread sees this call running, or this call sees the object already
    // unlinked (its lookups come after this store; Retire's first fence::Heavy, between the
    // unlink and the object's entry into the limbo, pairs with it). An epoch read after a
    // retirement comes after its unlink (acquire, a plain load on x86).
    fence::LightStore(pin->active, detail::g_epoch.load(std::memory_order_acquire));
    return pin;
}

inline void Leave(Pin* pin) noexcept {
    const uint64_t began = pin->active.load(std::memory_order_relaxed);
    // Against the publication of g_oldest (Retire, ReclaimDue, each followed by fence::Heavy):
    // either this call sees the pending object, or the reclaiming thread sees it finished.
    fence::LightStore(pin->active, uint64_t{0});
    const uint64_t oldest = detail::g_oldest.load(std::memory_order_seq_cst);
    // A call that began no later than the oldest retirement may have been what kept it.
    if (oldest != 0 && began <= oldest) [[unlikely]]
        ReclaimDue();
}

// Steps a running call back in after it stepped out with Leave for a wait that holds no
// object (UnpinnedWait, core/error.h): what is retired from now on waits for it again.
inline void Resume(Pin* pin) noexcept {
    fence::LightStore(pin->active, detail::g_epoch.load(std::memory_order_acquire));
}

// Frees `release` (runs it) once no call that may still see the object is running. The caller
// must have made the object unreachable for new calls first (unregistered its handle).
// Objects are freed in the order they were retired, so an executor retired after its streams
// outlives them.
void Retire(std::function<void()> release);

// ReclaimDue runs every release that is due. Skipped on an executor's worker threads (a
// release may stop that executor) and while another thread is reclaiming.

// Objects retired but not yet freed (tests).
uint64_t PendingCount() noexcept;

}  // namespace openacl::reclaim
