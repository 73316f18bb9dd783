#include "backend/cpu/sync.h"

#include <algorithm>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#if defined(__linux__)
#include <linux/futex.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>
#endif

namespace openacl::cpu {

namespace {
bool HasInvariantTsc() {
#if defined(__x86_64__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    // CPUID 0x80000007, EDX bit 8: the TSC runs at a constant rate in every P-, C- and T-state.
    if (__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) return (edx >> 8 & 1) != 0;
#endif
    return false;
}
}  // namespace

namespace detail {
// Read once at load; a stamp taken before (none is: tracing starts after aclInit) would come
// from NowNs().
const bool g_invariant_tsc = HasInvariantTsc();
}  // namespace detail

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "the futex word must be a plain 32-bit integer");

#if defined(__linux__)

int CurrentCpu() noexcept {
    return sched_getcpu();
}

namespace {

// op: FUTEX_WAIT_PRIVATE for this process's words, FUTEX_WAIT for shared memory's.
void FutexWait(std::atomic<uint32_t>& word, int op, uint32_t expected,
               int64_t timeout_ns) noexcept {
    timespec ts{};
    timespec* tsp = nullptr;
    if (timeout_ns >= 0) {
        ts.tv_sec = static_cast<time_t>(timeout_ns / 1'000'000'000);
        ts.tv_nsec = static_cast<long>(timeout_ns % 1'000'000'000);
        tsp = &ts;
    }
    // FUTEX_WAIT re-checks the value atomically in the kernel, so a wake between our
    // caller's check and this call is never lost.
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), op, expected, tsp, nullptr, 0);
}

}  // namespace

void ParkWhile(std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) noexcept {
    FutexWait(word, FUTEX_WAIT_PRIVATE, expected, timeout_ns);
}

void ParkWhileShared(std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) noexcept {
    FutexWait(word, FUTEX_WAIT, expected, timeout_ns);
}

void ParkWhileUntilOnTime(std::atomic<uint32_t>& word, uint32_t expected,
                          int64_t timeout_ns) noexcept {
    // The slack is the calling thread's own setting: lowered for this sleep only.
    const int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    prctl(PR_SET_TIMERSLACK, 1000, 0, 0, 0);
    ParkWhile(word, expected, timeout_ns);
    if (slack > 0) prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0);
}

void Unpark(std::atomic<uint32_t>& word, int count) noexcept {
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE_PRIVATE, count, nullptr,
            nullptr, 0);
}

void UnparkShared(std::atomic<uint32_t>& word, int count) noexcept {
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE, count, nullptr, nullptr, 0);
}

#else  // Portable fallback: std::atomic::wait has no timeout, so timed waits poll.

int CurrentCpu() noexcept {
    return -1;
}

void ParkWhile(std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) noexcept {
    if (timeout_ns < 0) {
        word.wait(expected, std::memory_order_acquire);
    } else if (word.load(std::memory_order_acquire) == expected) {
        std::this_thread::sleep_for(
            std::chrono::nanoseconds(std::min<int64_t>(timeout_ns, 100'000)));
    }
}

void ParkWhileUntilOnTime(std::atomic<uint32_t>& word, uint32_t expected,
                          int64_t timeout_ns) noexcept {
    ParkWhile(word, expected, timeout_ns);
}

void Unpark(std::atomic<uint32_t>& word, int count) noexcept {
    if (count == 1) {
        word.notify_one();
    } else {
        word.notify_all();
    }
}

// Without futexes a sleeper in another process cannot be woken: shared waits poll.
void ParkWhileShared(std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) noexcept {
    if (word.load(std::memory_order_acquire) == expected) {
        std::this_thread::sleep_for(std::chrono::nanoseconds(
            std::min<int64_t>(timeout_ns < 0 ? 100'000 : timeout_ns, 100'000)));
    }
}

void UnparkShared(std::atomic<uint32_t>&, int) noexcept {}

#endif

}  // namespace openacl::cpu
