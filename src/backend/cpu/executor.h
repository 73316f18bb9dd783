// The CPU stream executor: the asynchronous engine behind AscendCL streams and events, with no
// knowledge of ACL itself. One Executor per device owns a few worker threads that run Queues
// (streams). Each queue runs its tasks strictly in submission order; different queues run
// concurrently. Suspended tasks (event waits, blocking host callbacks) park their queue without
// holding a worker. A running task may spread independent blocks of work (a kernel launch's
// blocks) over the idle workers with ParallelFor; it stays one task of its queue.
//
// Sequence numbers: every submitted task gets the next number of its queue (1, 2, ...);
// `completed` is the number of the last finished task. "Point (q, seq) reached" means
// completed(q) >= seq, which is how waits and events are expressed. Numbers keep counting
// when a destroyed queue's slot is recycled, so a point taken on a queue that has since been
// destroyed reads as reached, and a stale SuspendToken is ignored.
//
// Idle cost: workers and waiters spin for `spin` microseconds, then sleep in the kernel; an
// idle executor uses no CPU. Only one idle worker spins at a time, so idle workers do not
// crowd out the threads that have work on a machine with few cores.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "backend/cpu/parallel_for.h"
#include "backend/cpu/ready_ring.h"
#include "backend/cpu/task.h"

namespace openacl::cpu {

class Queue;
struct ParallelJob;

// Outcome of a host-side wait.
struct WaitStatus {
    enum class Kind : uint8_t { kOk, kTimeout, kFailed };
    Kind kind = Kind::kOk;
    int32_t code = 0;  // the failing task's code when kind == kFailed

    static constexpr WaitStatus Ok() { return {}; }
    static constexpr WaitStatus Timeout() { return {Kind::kTimeout, 0}; }
    static constexpr WaitStatus Failed(int32_t code) { return {Kind::kFailed, code}; }
    constexpr bool ok() const { return kind == Kind::kOk; }
    constexpr bool timed_out() const { return kind == Kind::kTimeout; }
    constexpr bool failed() const { return kind == Kind::kFailed; }
};

// What a queue does after one of its tasks fails. Either way the first failure's code is kept
// until a wait on the queue reports it (and clears it).
enum class FailureMode : uint8_t {
    kContinue,  // later tasks run as usual
    kStop,      // later tasks are skipped (complete without running) until the error is reported
};

// Timeline hook: receives start and end times of tasks submitted with a non-zero tag. Called
// on worker threads; keep it short.
class Tracer {
 public:
    struct Record {
        const Queue* queue;
        uint64_t seq;
        uint32_t tag;
        int64_t start;  // Ticks() clock
        int64_t end;
        TaskStatus status;
    };
    virtual ~Tracer() = default;
    virtual void OnTask(const Record& record) noexcept = 0;
};

struct ExecutorOptions {
    unsigned workers = 0;  // 0: one per hardware thread
    std::chrono::microseconds spin{50};
    uint32_t max_queues = 2048;  // CreateQueue returns nullptr beyond this many live queues
    Tracer* tracer = nullptr;    // must outlive the executor; nullptr costs nothing
    std::vector<int> cpus;       // CPUs the workers may run on; empty: any
};

struct QueueOptions {
    FailureMode failure_mode = FailureMode::kContinue;
};

inline constexpr std::chrono::nanoseconds kWaitForever = std::chrono::nanoseconds::max();

class Executor {
 public:
    explicit Executor(const ExecutorOptions& options = {});
    // Discards whatever is still queued (DestroyQueueForce on every live queue), then stops the
    // workers. Must not race with other calls on this executor.
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    unsigned worker_count() const { return worker_count_; }

    // ---- Queues -------------------------------------------------------------------------
    // nullptr when max_queues queues are alive.
    Queue* CreateQueue(const QueueOptions& options = {});
    // Waits for everything submitted to finish (a suspended task must be resumed first), then
    // recycles the queue. Nothing may be submitted to it concurrently or afterwards.
    void DestroyQueue(Queue* q);
    // Like DestroyQueue, but pending and suspended tasks are discarded instead of run (those
    // with Task::kCallWhenCancelled are called with RunReason::kDiscarded). Only a task already
    // running is waited for.
    void DestroyQueueForce(Queue* q);
    // The first half of DestroyQueueForce: from now on the queue discards its pending and
    // suspended tasks, and whatever is submitted later, without waiting or recycling it.
    void DiscardQueue(Queue* q);
    // Cancels every task submitted to q so far, as DiscardQueue does (pending and suspended
    // tasks are discarded; one already running is not interrupted), but keeps the queue: what is
    // submitted later runs as usual. Returns the number of the last task cancelled; the queue has
    // settled once that point is reached.
    uint64_t DiscardSubmitted(Queue* q);
    void SetFailureMode(Queue* q, FailureMode mode);

    // ---- Submission (any thread; several threads may submit to one queue) -----------------
    // Appends t to q and returns its sequence number. No allocation once the queue's ring has
    // reached its high-water mark; takes only q's lock.
    uint64_t Submit(Queue* q, const Task& t);
    // Appends n tasks in order under one lock and one wake-up (a replayed graph); returns the
    // sequence number of the last, or of the newest task already there when n is 0.
    uint64_t SubmitBatch(Queue* q, const Task* tasks, size_t n);
    // Appends a task that holds `dst` until point (src, seq) is reached. The queue parks while
    // it waits; no worker is held. src may belong to another executor. `tag` as in Task.
    uint64_t SubmitWait(Queue* dst, Queue* src, uint64_t seq, uint32_t tag = 0);

    // ---- Suspension --------------------------------------------------------------------
    // A task that returned Suspended stays at its queue's head until one of these is called
    // with its token (from any thread, even before the task has returned):
    //  - Resume runs the task again (with its payload as the first run left it); it decides
    //    again. Suits "re-check a condition" waits.
    //  - Complete finishes it with `status` without running it again. Suits host callbacks:
    //    the callback thread reports when it is done.
    // Both return false when the token does not name a currently suspended (or suspending)
    // task, e.g. it was already woken or discarded.
    static bool Resume(SuspendToken token);
    static bool Complete(SuspendToken token, TaskStatus status = TaskStatus::Done());
    // True while the task `token` names is still held by its queue (suspended, or running
    // towards suspension), and so its queue, and the stream owning it, still alive.
    static bool IsHeld(SuspendToken token);
    // Called with each of an executor's queues just before its memory is freed (the executor
    // is destroyed, a device reset), so that whoever keeps SuspendTokens beyond their task's
    // life (the poll parking, core/poll_park.cpp) can drop them instead of reaching freed
    // memory. One hook for the process; nullptr removes it.
    using QueueFreedHook = void (*)(const Queue* queue);
    static void SetQueueFreedHook(QueueFreedHook hook);
    // Ends task `seq` of q with `status` (a failure, usually): at once when it is suspended,
    // instead of running it when it has not started (one that owns a payload is still called to
    // release it, as a discarded task is), and when it suspends if it is executing now: a
    // running task is not interrupted, and one that finishes by itself keeps its own status.
    void Stop(Queue* q, uint64_t seq, TaskStatus status);

    // ---- Completion --------------------------------------------------------------------
    // Blocks until every task submitted to q before the call has finished. Reports (and
    // clears) the queue's first unreported failure, if any.
    WaitStatus Wait(Queue* q) { return WaitFor(q, kWaitForever); }
    // Same with a time limit: Timeout when the work is not done by then (0 = poll); a timeout
    // leaves any failure unreported.
    WaitStatus WaitFor(Queue* q, std::chrono::nanoseconds timeout);
    // True when every task submitted so far has finished. Reports no failures.
    bool Query(const Queue* q) const;
    // Waits for every live queue (device synchronize). Reports the first failure found, and
    // clears the failures of all queues.
    WaitStatus WaitAll();

    // Points: (q, seq) is reached when q's task seq has finished. WaitPoint neither reports
    // nor clears failures (events do not carry stream errors).
    static bool Reached(const Queue* q, uint64_t seq);
    static WaitStatus WaitPoint(Queue* q, uint64_t seq, std::chrono::nanoseconds timeout);
    static uint64_t Submitted(const Queue* q);
    static uint64_t Completed(const Queue* q);
    // Takes (and clears) q's first unreported failure without waiting: its code, or 0. For
    // queues no caller ever waits on (a replayed graph's own queues), whose failures another
    // queue reports.
    static int32_t TakeFailure(Queue* q);

    // ---- Parallel work inside a task (parallel_for.cpp) -----------------------------------
    // The executor whose worker is the calling thread; nullptr on any other thread.
    static Executor* Current();

    // Runs fn(ctx, i, arg) once for every i in [0, n) and returns when all calls have
    // returned (n == 0: returns Done at once). Must be called from a task running on this
    // executor (otherwise kRejected, nothing runs); the task's queue stays busy meanwhile, so
    // the call is ordered with the queue's other tasks like any task.
    //
    // Blocks are dealt dynamically, `grain` at a time, to the calling worker and to every
    // worker of this executor that is idle now or becomes idle before the blocks run out:
    // spinning workers join at once, sleeping ones are woken. Workers busy with other queues
    // do not help, and helpers go back to queues that become ready, so at worst the caller
    // runs every block itself; several queues may run ParallelFor at once. Allocates nothing.
    // Called from inside a block (nested), it runs its blocks inline on the calling thread.
    //
    // The first block to fail (non-zero return) or the timeout stops the launch: blocks not yet
    // started are skipped, the running ones finish (see BlockContext::cancelled), and the
    // result names the failing block. "First" is in time, not necessarily the lowest index.
    ParallelStatus ParallelFor(uint32_t n, BlockFn fn, void* arg,
                               const ParallelOptions& options = {});

    // The same with any callable f(const BlockContext&, uint32_t block) or f(uint32_t block),
    // returning int32_t (0: success) or void. f is called by reference from several threads.
    template <class F>
    ParallelStatus ParallelFor(uint32_t n, F&& f, const ParallelOptions& options = {}) {
        using Fn = std::remove_reference_t<F>;
        static_assert(std::is_invocable_v<Fn&, const BlockContext&, uint32_t> ||
                          std::is_invocable_v<Fn&, uint32_t>,
                      "blocks take (const BlockContext&, uint32_t) or (uint32_t)");
        BlockFn call = [](const BlockContext& ctx, uint32_t block, void* arg) -> int32_t {
            Fn& fn = *static_cast<Fn*>(arg);
            if constexpr (std::is_invocable_v<Fn&, const BlockContext&, uint32_t>) {
                if constexpr (std::is_void_v<
                                  std::invoke_result_t<Fn&, const BlockContext&, uint32_t>>) {
                    fn(ctx, block);
                    return 0;
                } else {
                    return static_cast<int32_t>(fn(ctx, block));
                }
            } else {
                if constexpr (std::is_void_v<std::invoke_result_t<Fn&, uint32_t>>) {
                    fn(block);
                    return 0;
                } else {
                    return static_cast<int32_t>(fn(block));
                }
            }
        };
        return ParallelFor(n, call, const_cast<void*>(static_cast<const void*>(&f)), options);
    }

 private:
    // Worker parking. Each worker sleeps on its own word so that a waker can choose whom to
    // wake (see WakeOne); sleepers_ counts them for the cheap "anyone asleep?" check.
    struct alignas(64) Parker {
        std::atomic<uint32_t> parked{0};  // 1 while asleep; a waker claims it by setting 0
        std::atomic<uint32_t> word{0};    // futex word: 1 once woken
        std::atomic<int> cpu{-1};         // CPU the worker last ran on (a hint)
    };

    // What a worker giving up the spinner role goes on to do (see StopSpinning).
    enum class Taking { kNothing, kQueue, kJob };

    void WorkerMain(Parker& me);
    bool TryStartSpinning();
    void StopSpinning(bool& spinning, Taking taking);
    Queue* SpinForWork(bool& spinning);
    void Park(Parker& me);
    void WakeOne();
    void Schedule(Queue* q);
    void NotifyWorker();
    bool RunQueue(Queue& q, bool& spinning);
    bool Linger(Queue& q, uint64_t next_seq, bool& spinning);
    TaskStatus Execute(Queue& q, Task& t, uint64_t seq, RunReason reason);
    static void Finish(Queue& q, uint64_t seq, TaskStatus status);
    static bool Wake(SuspendToken token, uint8_t how, TaskStatus status);
    static bool AddWatcher(Queue& q, uint64_t seq, SuspendToken token, std::atomic<uint32_t>* flag);
    static void FireWatchers(Queue& q);
    static WaitStatus TakeError(Queue& q);
    void Retire(Queue* q);

    // Parallel work (parallel_for.cpp).
    struct WorkerSelf {
        Executor* exec = nullptr;
        unsigned index = 0;
        bool in_parallel = false;  // inside a ParallelFor or a block: nested calls run inline
    };
    static thread_local WorkerSelf self_;
    bool JobsOpen() const { return jobs_open_.load(std::memory_order_relaxed) != 0; }
    bool HelpJobs(bool& spinning);
    uint32_t RunBlocks(ParallelJob& job, unsigned worker, bool helper);
    void WaitForHelpers(ParallelJob& job);
    void CloseJob(ParallelJob& job);

    const ExecutorOptions options_;
    const int64_t spin_ns_;
    const unsigned worker_count_;  // fixed before the workers start, so they may read it
    ReadyRing ready_;

    std::unique_ptr<Parker[]> parkers_;               // one per worker
    std::unique_ptr<ParallelJob[]> jobs_;             // one per worker: its task's ParallelFor
    alignas(64) std::atomic<uint32_t> jobs_open_{0};  // jobs that may still take helpers
    alignas(64) std::atomic<uint32_t> sleepers_{0};
    std::atomic<uint32_t> spinners_{0};
    std::atomic<bool> stopping_{false};

    // Queue slots are never freed before the executor is: tokens and points that name a
    // destroyed queue stay safe to check. Creation and destruction are cold paths.
    std::mutex registry_mu_;
    std::vector<std::unique_ptr<Queue>> slots_;
    std::vector<Queue*> free_slots_;

    std::vector<std::thread> workers_;
};

}  // namespace openacl::cpu
