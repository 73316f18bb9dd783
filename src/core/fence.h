// Asymmetric fences: a store-then-load ordering that costs the frequent side (every API call,
// every trace record) a plain store, and the rare side (retiring an object, stopping a trace)
// one membarrier system call.
//
// Why: the frequent side's ordering used to be a locked exchange, a full barrier that waits
// for the thread's earlier stores to leave its store buffer. After an enqueue those stores are
// the task's slot and the ring's tail, whose lines the worker holds, so the barrier waited for
// cache misses: most of an uncontended aclrtLaunchHostFunc on this project's 2-vCPU host.
//
// The pattern (Dekker's): thread A does LightStore(x) then loads y; thread B stores y, calls
// Heavy(), then loads x. Either B sees A's store or A sees B's. Heavy() makes every running
// thread of the process execute a full barrier (MEMBARRIER_CMD_PRIVATE_EXPEDITED, Linux 4.14),
// which is what A's exchange used to pay for itself. B's store and load must be sequentially
// consistent: where the kernel refuses membarrier, and under ThreadSanitizer (which cannot see
// its ordering), LightStore stays the exchange and Heavy() does nothing, so the ordering is
// that of two sequentially consistent threads.
#pragma once

#include <atomic>

namespace openacl::fence {

namespace detail {
extern std::atomic<bool> g_asymmetric;
}

// Turns the asymmetric mode on if the kernel allows it; at most once per process, later calls
// return the first answer. Call before the first LightStore of a thread that may race with a
// Heavy() (a light store made before it simply takes the exchange).
bool EnableAsymmetric() noexcept;

// Stores `value` into `a`, ordered before the calling thread's later loads as seen by any
// thread that calls Heavy() between its own store and load.
template <class T>
inline void LightStore(std::atomic<T>& a, T value) noexcept {
    if (detail::g_asymmetric.load(std::memory_order_relaxed)) {
        a.store(value, std::memory_order_relaxed);
        std::atomic_signal_fence(std::memory_order_seq_cst);  // the compiler keeps the order
    } else {
        a.exchange(value, std::memory_order_seq_cst);
    }
}

// The rare side's barrier, between a sequentially consistent store and a sequentially
// consistent load: after it returns, every LightStore made before it is visible to the
// caller's later loads, and a thread's loads after a LightStore made later see the caller's
// earlier stores.
void Heavy() noexcept;

}  // namespace openacl::fence
