// Low-level synchronization used by the CPU executor: a spin lock for the tiny per-queue
// critical sections, a futex-style park/wake on a 32-bit atomic word (with a timeout, which
// std::atomic::wait lacks), and the clocks.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace openacl::cpu {

// Tells the CPU we are busy-waiting (saves power, frees the sibling hyper-thread).
inline void CpuRelax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    asm volatile("yield" ::: "memory");
#endif
}

// Steady-clock nanoseconds: event timestamps and spin deadlines.
inline int64_t NowNs() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

namespace detail {
extern const bool g_invariant_tsc;
}

// Timeline stamps (tracing): the CPU's time-stamp counter where it ticks at a constant rate
// on every core (x86-64 with an invariant TSC), otherwise NowNs(). Reading it costs about half
// of what steady_clock costs under a hypervisor, and a traced enqueue reads the clock twice on
// each side. The unit is arbitrary: convert with (Ticks(), NowNs()) pairs taken around the
// measurement, never compare it with NowNs().
inline int64_t Ticks() noexcept {
#if defined(__x86_64__)
    if (detail::g_invariant_tsc) [[likely]]
        return static_cast<int64_t>(__builtin_ia32_rdtsc());
#endif
    return NowNs();
}

// One step of a busy wait: a pause for the first 64 steps, then a yield, so that a preempted
// thread being waited for can run on an oversubscribed machine.
inline void Backoff(unsigned& spins) noexcept {
    if (++spins < 64) {
        CpuRelax();
    } else {
        std::this_thread::yield();
    }
}

// Guards critical sections of a few dozen instructions that never block. A spin lock beats
// std::mutex there: glibc's mutex sleeps in the kernel on the first contention, which costs
// microseconds when the holder would have released it in nanoseconds. Yields after a short
// spin so a preempted holder on an oversubscribed machine can run.
class SpinLock {
 public:
    void lock() noexcept {
        for (unsigned spins = 0;;) {
            if (!locked_.exchange(true, std::memory_order_acquire)) return;
            while (locked_.load(std::memory_order_relaxed))
                Backoff(spins);
        }
    }
    bool try_lock() noexcept {
        return !locked_.load(std::memory_order_relaxed) &&
               !locked_.exchange(true, std::memory_order_acquire);
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
    std::atomic<bool> locked_{false};
};

// The CPU the calling thread runs on, or -1 when unknown (a hint: it may change at once).
int CurrentCpu() noexcept;

// Blocks while word == expected, at most timeout_ns (negative: no limit). Returns early on a
// wake, a spurious wake-up or a changed value; callers re-check their condition in a loop.
void ParkWhile(std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) noexcept;

// ParkWhile for a sleep that must end on time: the kernel lets a timed sleep run late by the
// thread's timer slack (50 µs by default) to batch wake-ups; this one asks for 1 µs.
void ParkWhileUntilOnTime(std::atomic<uint32_t>& word, uint32_t expected,
                          int64_t timeout_ns) noexcept;

// Wakes up to `count` threads parked on word (INT32_MAX: all). Waking an address nobody waits
// on is harmless, which is what lets a waiter's word live on its stack.
void Unpark(std::atomic<uint32_t>& word, int count) noexcept;

// ParkWhile and Unpark for a word in memory shared between processes (core/shared_page.h):
// the sleepers and the waker may be in different processes.
void ParkWhileShared(std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) noexcept;
void UnparkShared(std::atomic<uint32_t>& word, int count) noexcept;

}  // namespace openacl::cpu
