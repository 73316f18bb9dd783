// The worker side of the executor: worker threads, spinning and parking, and running a queue's
// tasks. (executor.cpp holds the host side: queues, submission, suspension and waits.)
#include <cstdint>

#include "backend/cpu/executor.h"
#include "backend/cpu/queue.h"
#include "backend/cpu/sync.h"

namespace openacl::cpu {

namespace {

// Tasks a worker runs from one queue before letting other ready queues have a turn. Large
// enough to amortize the ready-ring round trip, small enough to keep queues fair.
constexpr unsigned kTurnBudget = 64;

}  // namespace

// ---- Workers ------------------------------------------------------------------------------

void Executor::WorkerMain(Parker& me) {
    self_ = {this, static_cast<unsigned>(&me - parkers_.get()), false};
    bool spinning = false;  // this worker holds the spinner role (see RunQueue)
    bool spun_out = false;  // the last RunQueue spun its budget waiting for more work
    for (;;) {
        // Ready queues first: a ParallelFor always has its own worker, a queue has none.
        Queue* q = ready_.TryPop();
        if (q != nullptr) {
            if (spinning) StopSpinning(spinning, Taking::kQueue);
            spun_out = RunQueue(*q, spinning);
            continue;
        }
        if (JobsOpen() && HelpJobs(spinning)) continue;
        if (stopping_.load(std::memory_order_acquire)) {
            if (spinning) StopSpinning(spinning, Taking::kNothing);
            return;
        }
        // A queue that lingered for the whole spin budget already was this worker's spin.
        q = spun_out ? nullptr : SpinForWork(spinning);
        spun_out = false;
        if (q != nullptr) {
            spun_out = RunQueue(*q, spinning);
        } else if (!JobsOpen()) {
            Park(me);
        }
    }
}

// Only one worker spins at a time: on a small machine more spinners would steal cores from the
// threads that do have work. Submitters skip the wake-up while someone spins.
bool Executor::TryStartSpinning() {
    uint32_t none = 0;
    return spin_ns_ > 0 && spinners_.load(std::memory_order_relaxed) == 0 &&
           spinners_.compare_exchange_strong(none, 1);
}

void Executor::StopSpinning(bool& spinning, Taking taking) {
    spinning = false;
    spinners_.store(0);
    // Submitters and ParallelFor launches did not wake anyone while we were the spinner. If
    // more is waiting than what we take, hand it to a sleeper: two launches may both have
    // counted on us. (The read-modify-write orders us against NotifyWorker; jobs_open_ is read
    // after our store, as a launch reads spinners_ after its increment.)
    const uint32_t sleepers = sleepers_.fetch_add(0);
    if (taking == Taking::kNothing || sleepers == 0) return;  // kNothing: we look again next
    const uint32_t jobs_we_take = taking == Taking::kJob ? 1 : 0;
    if (ready_.LooksNonEmpty() || jobs_open_.load() > jobs_we_take) WakeOne();
}

// Busy-polls the ready ring for up to the spin budget, so back-to-back submissions do not pay
// a kernel wake-up on either side. Returns nullptr with no queue found, also as soon as a
// ParallelFor opens (the caller then helps it).
Queue* Executor::SpinForWork(bool& spinning) {
    if (!spinning && !(spinning = TryStartSpinning())) return nullptr;
    Queue* q = nullptr;
    const int64_t start = NowNs();
    for (unsigned i = 1;; ++i) {
        q = ready_.TryPop();
        if (q != nullptr || stopping_.load(std::memory_order_relaxed)) break;
        if (JobsOpen()) {
            StopSpinning(spinning, Taking::kJob);
            return nullptr;
        }
        CpuRelax();
        if (i % 64 == 0 && NowNs() - start >= spin_ns_) break;
    }
    StopSpinning(spinning, q != nullptr ? Taking::kQueue : Taking::kNothing);
    return q;
}

void Executor::Park(Parker& me) {
    me.word.store(0);  // seq_cst, so the stopping_ check below cannot miss the destructor
    me.cpu.store(CurrentCpu(), std::memory_order_relaxed);
    me.parked.store(1);  // before the count: a waker that sees the count finds us
    sleepers_.fetch_add(1);
    // Re-check after announcing ourselves: a submitter (or a ParallelFor) either sees us in
    // sleepers_ (and wakes someone) or published its queue (or job) where we see it here.
    if (!ready_.LooksNonEmpty() && jobs_open_.load() == 0) {
        while (me.word.load() == 0 && !stopping_.load())
            ParkWhile(me.word, 0, -1);
    }
    sleepers_.fetch_sub(1);
    uint32_t still = 1;  // not claimed by a waker (we found work ourselves)
    me.parked.compare_exchange_strong(still, 0);
    me.cpu.store(CurrentCpu(), std::memory_order_relaxed);
}

// Called after making a queue ready. Every worker that stops spinning or goes to sleep does
// a read-modify-write on sleepers_ before its last look at the ring, and so do we after
// publishing: whichever comes second in sleepers_'s order sees the other's writes. (A fence
// would express this too, but GCC rejects fences under ThreadSanitizer.)
void Executor::NotifyWorker() {
    const uint32_t sleepers = sleepers_.fetch_add(0);
    // A spinning worker will find the queue; busy workers come back to the ring by themselves.
    if (sleepers == 0 || spinners_.load() != 0) return;
    WakeOne();
}

// Wakes one parked worker, preferring one that last ran on a CPU where neither we nor an awake
// worker run. When no CPU is idle at the moment of the wake-up, Linux puts the woken thread
// back on its previous CPU; if that CPU is busy with another of our threads, it waits there
// for milliseconds while the CPU we are about to free (by waiting) stays idle.
void Executor::WakeOne() {
    const unsigned n = worker_count();
    uint64_t busy = 0;  // CPUs 0..63 we know to be taken; beyond that the hint is ignored
    auto mark = [&busy](int cpu) {
        if (cpu >= 0 && cpu < 64) busy |= uint64_t{1} << cpu;
    };
    mark(CurrentCpu());
    for (unsigned i = 0; i < n; ++i) {
        if (parkers_[i].parked.load(std::memory_order_relaxed) == 0)
            mark(parkers_[i].cpu.load(std::memory_order_relaxed));
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (unsigned i = 0; i < n; ++i) {
            Parker& p = parkers_[i];
            const int cpu = p.cpu.load(std::memory_order_relaxed);
            if (pass == 0 && cpu >= 0 && cpu < 64 && (busy >> cpu & 1)) continue;
            uint32_t asleep = 1;
            if (p.parked.load() == 1 && p.parked.compare_exchange_strong(asleep, 0)) {
                p.word.store(1);
                Unpark(p.word, 1);
                return;
            }
        }
    }
}

void Executor::Schedule(Queue* q) {
    ready_.Push(q);
    NotifyWorker();
}

// Runs q's tasks in order until it runs dry, suspends, or has used its turn.
//
// When the task it is about to finish is the last one queued, the worker takes the spinner
// role *before* publishing the completion. A host thread waiting for that completion often
// submits again at once; it then sees a spinner and skips the kernel wake-up of a sleeping
// worker, which would cost it microseconds. Taking the role only after the task has run keeps
// a long task from hiding newly ready queues from the sleepers. The spinner then lingers on
// the queue it ran dry (see Linger). Returns true when the queue went idle after lingering
// for the whole spin budget: the worker has done its spinning.
bool Executor::RunQueue(Queue& q, bool& spinning) {
    Task t;
    for (unsigned turn = 0; turn < kTurnBudget; ++turn) {
        // Only the worker holding the queue advances `completed`, so the head's number is
        // known without the lock.
        const uint64_t seq = q.completed.load(std::memory_order_relaxed) + 1;
        const bool spun_out = spinning && !Linger(q, seq, spinning);
        RunReason reason = RunReason::kRun;
        bool forced = false;
        bool last = false;
        TaskStatus status;
        // has_wake is written by others only while the queue is suspended (nobody runs it);
        // the ready ring then orders their write before this read.
        if (q.has_wake) [[unlikely]] {
            std::lock_guard<SpinLock> g(q.lock);
            q.has_wake = false;
            t = q.parked;
            if (q.wake == Queue::Wake::kComplete) {
                forced = true;
                status = q.wake_status;
            } else if (q.wake == Queue::Wake::kDiscard) {
                reason = RunReason::kDiscarded;
            }
        } else if (!q.ring.TryPop(&t)) {
            // Looks dry. Under the lock, the ring and its overflow hold all that was submitted:
            // take what came in meanwhile, or go idle so the next Submit schedules the queue.
            std::lock_guard<SpinLock> g(q.lock);
            if (!q.ring.TryPop(&t) && !(q.ring.Refill() && q.ring.TryPop(&t))) {
                q.state = Queue::State::kIdle;
                q.running_seq.store(0, std::memory_order_relaxed);
                return spun_out;
            }
        }
        last = q.ring.LooksEmpty();
        q.running_seq.store(seq, std::memory_order_relaxed);
        bool stopped = false;  // cancelled by Executor::Stop before it ran: it fails
        if (q.discarding.load(std::memory_order_relaxed) ||
            seq <= q.discard_through.load(std::memory_order_relaxed)) {
            reason = RunReason::kDiscarded;
        } else if (!forced && reason == RunReason::kRun &&
                   seq == q.stop_seq.load(std::memory_order_acquire)) {
            reason = RunReason::kDiscarded;
            stopped = true;
        } else if (reason == RunReason::kRun && q.stop_on_failure.load(std::memory_order_relaxed) &&
                   q.error.load(std::memory_order_relaxed) != 0) {
            reason = RunReason::kSkipped;
        }
        if (spinning) StopSpinning(spinning, Taking::kQueue);  // more work came in after all
        if (!forced || reason == RunReason::kDiscarded) {
            status = Execute(q, t, seq, reason);
            if (stopped) status = TaskStatus::Failed(q.stop_code.load(std::memory_order_relaxed));
        } else if (t.tag != 0 && options_.tracer != nullptr) {
            // Completed from outside (a host callback's thread): the tracer learns when.
            const int64_t now = Ticks();
            options_.tracer->OnTask({&q, seq, t.tag, now, now, status});
        }

        if (status.suspended()) {
            std::lock_guard<SpinLock> g(q.lock);
            q.parked = t;              // keeps whatever the run wrote into its payload
            if (q.early_seq == seq) {  // woken before it even returned: go again
                q.early_seq = 0;
                q.has_wake = true;
                q.wake = q.early_wake;
                q.wake_status = q.early_status;
                continue;
            }
            if (q.discarding.load(std::memory_order_relaxed) ||
                seq <= q.discard_through.load(std::memory_order_relaxed)) {
                q.has_wake = true;
                q.wake = Queue::Wake::kDiscard;
                continue;
            }
            // Park the queue; the worker moves on. Wake() reschedules it.
            q.state = Queue::State::kSuspended;
            q.suspended_seq = seq;
            q.running_seq.store(0, std::memory_order_relaxed);
            return false;
        }
        if (last && !spinning) spinning = TryStartSpinning();
        q.running_seq.store(0, std::memory_order_relaxed);  // no longer held (see IsHeld)
        Finish(q, seq, status);
    }
    Schedule(&q);  // turn used up: back of the line
    return false;
}

// The worker has run q dry and holds the spinner role: rather than mark q idle (so that the
// next submission must push it through the ready ring and maybe wake a worker), it keeps q
// scheduled and watches its submission counter. A host thread enqueueing back to back then
// only takes q's lock. Gives up, releasing the role, after the spin budget; early (keeping
// the role) when other queues become ready, a ParallelFor opens, the queue is being retired,
// or the executor stops. Returns false when it spun the whole budget in vain.
bool Executor::Linger(Queue& q, uint64_t next_seq, bool& spinning) {
    const int64_t start = NowNs();
    for (unsigned i = 1;; ++i) {
        if (q.ring.Pushed() >= next_seq) return true;
        if (ready_.LooksNonEmpty() || JobsOpen() || q.retiring.load(std::memory_order_relaxed) ||
            stopping_.load(std::memory_order_relaxed)) {
            return true;
        }
        CpuRelax();
        if (i % 64 == 0 && NowNs() - start >= spin_ns_) break;
    }
    StopSpinning(spinning, Taking::kNothing);
    return false;
}

TaskStatus Executor::Execute(Queue& q, Task& t, uint64_t seq, RunReason reason) {
    TaskContext ctx(&q, seq, reason, (t.flags & Task::kBorrowed) != 0);
    if (reason != RunReason::kRun) {
        if ((t.flags & (Task::kCallWhenCancelled | Task::kBorrowed)) == Task::kCallWhenCancelled)
            t.fn(ctx, t.payload);
        return TaskStatus::Done();  // cancelled tasks complete, whatever they say
    }
    Tracer* tracer = options_.tracer;
    if (tracer == nullptr || t.tag == 0) [[likely]] {
        return t.fn(ctx, t.payload);
    }
    const int64_t start = Ticks();
    TaskStatus status = t.fn(ctx, t.payload);
    tracer->OnTask({&q, seq, t.tag, start, Ticks(), status});
    return status;
}

void Executor::Finish(Queue& q, uint64_t seq, TaskStatus status) {
    if (status.failed()) {
        uint64_t none = 0;  // keep the first failure: later ones are usually its consequences
        q.error.compare_exchange_strong(none, Queue::EncodeError(status.code),
                                        std::memory_order_relaxed);
    }
    // seq_cst store then seq_cst load: pairs with AddWatcher (store flag, load completed), so
    // either we see its watcher or it sees our progress.
    q.completed.store(seq);
    if (q.has_watchers.load()) FireWatchers(q);
}

}  // namespace openacl::cpu
