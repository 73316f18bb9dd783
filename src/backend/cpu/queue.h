// A Queue (a stream): in-order tasks plus the bookkeeping for completion, suspension and
// failures. Internal to the executor; users hold Queue* as an opaque handle.
//
// Who touches what:
//  - `lock` guards the fields after it up to `watchers`: submitting threads, the one worker
//    currently running the queue, resumers and waiters registering themselves. The exceptions
//    are atomic: the worker pops the ring (see TaskRing), reads `discarding`,
//    `discard_through`, `stop_seq` and `stop_on_failure` and writes `running_seq` without the
//    lock, so that running a task that is already queued takes no lock.
//  - `completed`, `running_seq` and `error` are written only by the worker running the queue
//    (one at a time) and read by anyone, lock-free.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "backend/cpu/sync.h"
#include "backend/cpu/task.h"
#include "backend/cpu/task_ring.h"

namespace openacl::cpu {

class Executor;

class Queue {
 public:
    explicit Queue(Executor* owner) : exec(owner) {}
    Queue(const Queue&) = delete;
    Queue& operator=(const Queue&) = delete;

    enum class State : uint8_t {
        kIdle,       // no runnable work; not in the ready ring
        kScheduled,  // in the ready ring, or being run by exactly one worker
        kSuspended,  // head task suspended; nobody runs it until Resume/Complete
    };
    // What to do with the suspended head task once it is woken.
    enum class Wake : uint8_t { kRerun, kComplete, kDiscard };

    // Fires once completed >= seq: resumes a suspended task (event waits) or wakes a host
    // thread blocked in a wait (flag set to 1, then unparked).
    struct Watcher {
        uint64_t seq;
        SuspendToken token;
        std::atomic<uint32_t>* flag;
    };

    Executor* const exec;

    alignas(64) SpinLock lock;
    TaskRing ring;
    State state = State::kIdle;
    // Tasks numbered up to this are cancelled instead of run (Executor::DiscardSubmitted); the
    // queue runs later tasks as usual. Only grows.
    std::atomic<uint64_t> discard_through{0};
    // A task Executor::Stop ends with stop_code: not run when it has not started yet.
    std::atomic<uint64_t> stop_seq{0};
    std::atomic<int32_t> stop_code{0};
    std::atomic<bool> stop_on_failure{false};
    std::atomic<bool> discarding{false};  // DestroyQueueForce in progress: cancel all that is left
    uint64_t suspended_seq = 0;           // head task parked in `parked` (state == kSuspended)
    // A woken suspended task the worker must handle before popping the ring.
    bool has_wake = false;
    Wake wake = Wake::kRerun;
    TaskStatus wake_status;
    // A Resume/Complete that arrived while the task was still running, before it returned
    // Suspended; the worker applies it instead of parking.
    uint64_t early_seq = 0;
    Wake early_wake = Wake::kRerun;
    TaskStatus early_status;
    Task parked;
    std::vector<Watcher> watchers;
    // The number of tasks submitted so far is ring.Pushed(): written under lock, read anywhere.
    // Set while DestroyQueue retires the queue: a worker lingering on it (see
    // Executor::Linger) lets go at once.
    std::atomic<bool> retiring{false};
    // How long host waits on this queue took lately (a moving average, ns); written by waiters
    // (a lost update between racing waiters is harmless). See Executor::WaitPoint.
    std::atomic<int64_t> typical_wait_ns{0};

    // Written by the running worker; own cache line so waiters polling it do not slow
    // submitters.
    alignas(64) std::atomic<uint64_t> completed{0};
    std::atomic<uint64_t> running_seq{0};  // task a worker is executing right now (0: none)
    std::atomic<bool> has_watchers{false};
    // First unreported failure: (1 << 32) | code, 0 when none. The next wait takes it.
    std::atomic<uint64_t> error{0};
    static constexpr uint64_t EncodeError(int32_t code) {
        return (uint64_t{1} << 32) | static_cast<uint32_t>(code);
    }
    static constexpr int32_t DecodeError(uint64_t e) {
        return static_cast<int32_t>(static_cast<uint32_t>(e));
    }

    bool live = false;  // guarded by the executor's registry mutex
};

}  // namespace openacl::cpu
