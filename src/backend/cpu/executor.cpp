#include "backend/cpu/executor.h"

#include <algorithm>
#include <cstdint>

#include "backend/cpu/queue.h"
#include "backend/cpu/sync.h"

namespace openacl::cpu {

namespace {

// Tasks a worker runs from one queue before letting other ready queues have a turn. Large
// enough to amortize the ready-ring round trip, small enough to keep queues fair.
constexpr unsigned kTurnBudget = 64;

constexpr uint64_t EncodeError(int32_t code) {
    return (uint64_t{1} << 32) | static_cast<uint32_t>(code);
}

}  // namespace

Executor::Executor(const ExecutorOptions& options)
    : options_(options),
      spin_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(options.spin).count()),
      ready_(std::max<uint32_t>(options.max_queues, 2)) {
    unsigned n = options.workers ? options.workers : std::thread::hardware_concurrency();
    n = std::max(n, 1u);
    parkers_.reset(new Parker[n]);
    workers_.reserve(n);
    for (unsigned i = 0; i < n; ++i)
        workers_.emplace_back([this, i] { WorkerMain(parkers_[i]); });
}

Executor::~Executor() {
    std::vector<Queue*> live;
    {
        std::lock_guard<std::mutex> g(registry_mu_);
        for (auto& slot : slots_) {
            if (slot->live) live.push_back(slot.get());
        }
    }
    for (Queue* q : live)
        DestroyQueueForce(q);
    stopping_.store(true);
    for (unsigned i = 0; i < workers_.size(); ++i) {
        parkers_[i].word.store(1);
        Unpark(parkers_[i].word, 1);
    }
    for (auto& w : workers_)
        w.join();
}

// ---- Workers ------------------------------------------------------------------------------

void Executor::WorkerMain(Parker& me) {
    bool spinning = false;  // this worker holds the spinner role (see RunQueue)
    for (;;) {
        Queue* q = ready_.TryPop();
        if (q != nullptr) {
            if (spinning) StopSpinning(spinning, true);
        } else if (!stopping_.load(std::memory_order_acquire)) {
            q = SpinForWork(spinning);
        }
        if (q != nullptr) {
            RunQueue(*q, spinning);
        } else if (stopping_.load(std::memory_order_acquire)) {
            if (spinning) StopSpinning(spinning, false);
            return;
        } else {
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

void Executor::StopSpinning(bool& spinning, bool found_work) {
    spinning = false;
    spinners_.store(0);
    // Submitters did not wake anyone while we were the spinner; if more than what we took is
    // ready, hand it to a sleeper. (The read-modify-write orders us against NotifyWorker.)
    const uint32_t sleepers = sleepers_.fetch_add(0);
    if (found_work && sleepers != 0 && ready_.LooksNonEmpty()) WakeOne();
}

// Busy-polls the ready ring for up to the spin budget, so back-to-back submissions do not pay
// a kernel wake-up on either side.
Queue* Executor::SpinForWork(bool& spinning) {
    if (!spinning && !(spinning = TryStartSpinning())) return nullptr;
    Queue* q = nullptr;
    const int64_t start = NowNs();
    for (unsigned i = 1;; ++i) {
        q = ready_.TryPop();
        if (q != nullptr || stopping_.load(std::memory_order_relaxed)) break;
        CpuRelax();
        if (i % 64 == 0 && NowNs() - start >= spin_ns_) break;
    }
    StopSpinning(spinning, q != nullptr);
    return q;
}

void Executor::Park(Parker& me) {
    me.word.store(0);  // seq_cst, so the stopping_ check below cannot miss the destructor
    me.cpu.store(CurrentCpu(), std::memory_order_relaxed);
    me.parked.store(1);  // before the count: a waker that sees the count finds us
    sleepers_.fetch_add(1);
    // Re-check after announcing ourselves: a submitter either sees us in sleepers_ (and wakes
    // someone) or published its queue where we see it here.
    if (!ready_.LooksNonEmpty()) {
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
// a long task from hiding newly ready queues from the sleepers.
void Executor::RunQueue(Queue& q, bool& spinning) {
    Task t;
    for (unsigned turn = 0; turn < kTurnBudget; ++turn) {
        // Only the worker holding the queue advances `completed`, so the head's number is
        // known without the lock.
        const uint64_t seq = q.completed.load(std::memory_order_relaxed) + 1;
        RunReason reason = RunReason::kRun;
        bool forced = false;
        bool last = false;
        TaskStatus status;
        {
            std::lock_guard<SpinLock> g(q.lock);
            if (q.has_wake) {
                q.has_wake = false;
                t = q.parked;
                if (q.wake == Queue::Wake::kComplete) {
                    forced = true;
                    status = q.wake_status;
                } else if (q.wake == Queue::Wake::kDiscard) {
                    reason = RunReason::kDiscarded;
                }
            } else if (q.ring.empty()) {
                q.state = Queue::State::kIdle;
                q.running_seq = 0;
                return;
            } else {
                q.ring.Pop(&t);
            }
            last = q.ring.empty();
            q.running_seq = seq;
            if (q.discarding) {
                reason = RunReason::kDiscarded;
            } else if (reason == RunReason::kRun && q.stop_on_failure &&
                       q.error.load(std::memory_order_relaxed) != 0) {
                reason = RunReason::kSkipped;
            }
        }
        if (spinning) StopSpinning(spinning, true);  // more work came in after all
        if (!forced || reason == RunReason::kDiscarded) status = Execute(q, t, seq, reason);

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
            if (q.discarding) {
                q.has_wake = true;
                q.wake = Queue::Wake::kDiscard;
                continue;
            }
            // Park the queue; the worker moves on. Wake() reschedules it.
            q.state = Queue::State::kSuspended;
            q.suspended_seq = seq;
            q.running_seq = 0;
            return;
        }
        if (last && !spinning) spinning = TryStartSpinning();
        Finish(q, seq, status);
    }
    Schedule(&q);  // turn used up: back of the line
}

TaskStatus Executor::Execute(Queue& q, Task& t, uint64_t seq, RunReason reason) {
    TaskContext ctx(&q, seq, reason);
    if (reason != RunReason::kRun) {
        if (t.flags & Task::kCallWhenCancelled) t.fn(ctx, t.payload);
        return TaskStatus::Done();  // cancelled tasks complete, whatever they say
    }
    Tracer* tracer = options_.tracer;
    if (tracer == nullptr || t.tag == 0) [[likely]] {
        return t.fn(ctx, t.payload);
    }
    const int64_t start = NowNs();
    TaskStatus status = t.fn(ctx, t.payload);
    tracer->OnTask({&q, seq, t.tag, start, NowNs(), status});
    return status;
}

void Executor::Finish(Queue& q, uint64_t seq, TaskStatus status) {
    if (status.failed()) {
        uint64_t none = 0;  // keep the first failure: later ones are usually its consequences
        q.error.compare_exchange_strong(none, EncodeError(status.code), std::memory_order_relaxed);
    }
    // seq_cst store then seq_cst load: pairs with AddWatcher (store flag, load completed), so
    // either we see its watcher or it sees our progress.
    q.completed.store(seq);
    if (q.has_watchers.load()) FireWatchers(q);
}

// ---- Watchers -----------------------------------------------------------------------------

bool Executor::AddWatcher(Queue& q, uint64_t seq, SuspendToken token, std::atomic<uint32_t>* flag) {
    std::lock_guard<SpinLock> g(q.lock);
    if (q.completed.load(std::memory_order_acquire) >= seq) return false;
    q.watchers.push_back({seq, token, flag});
    q.has_watchers.store(true);
    if (q.completed.load() >= seq) {  // Finish ran before it could see the flag
        q.watchers.pop_back();
        if (q.watchers.empty()) q.has_watchers.store(false);
        return false;
    }
    return true;
}

void Executor::FireWatchers(Queue& q) {
    // Collected under the lock, fired after it: waking takes other queues' locks. Reused per
    // thread, so firing does not allocate after warm-up.
    thread_local std::vector<Queue::Watcher> due;
    due.clear();
    {
        std::lock_guard<SpinLock> g(q.lock);
        const uint64_t done = q.completed.load(std::memory_order_relaxed);
        auto& w = q.watchers;
        for (size_t i = 0; i < w.size();) {
            if (w[i].seq <= done) {
                due.push_back(w[i]);
                w[i] = w.back();
                w.pop_back();
            } else {
                ++i;
            }
        }
        if (w.empty()) q.has_watchers.store(false, std::memory_order_relaxed);
    }
    for (const Queue::Watcher& w : due) {
        if (w.flag != nullptr) {
            w.flag->store(1, std::memory_order_release);
            Unpark(*w.flag, 1);
        } else {
            Wake(w.token, static_cast<uint8_t>(Queue::Wake::kRerun), TaskStatus::Done());
        }
    }
}

// ---- Queues -------------------------------------------------------------------------------

Queue* Executor::CreateQueue(const QueueOptions& options) {
    Queue* q = nullptr;
    {
        std::lock_guard<std::mutex> g(registry_mu_);
        if (!free_slots_.empty()) {
            q = free_slots_.back();
            free_slots_.pop_back();
        } else if (slots_.size() < options_.max_queues) {
            slots_.push_back(std::make_unique<Queue>(this));
            q = slots_.back().get();
        } else {
            return nullptr;
        }
        q->live = true;
    }
    SetFailureMode(q, options.failure_mode);
    return q;
}

void Executor::SetFailureMode(Queue* q, FailureMode mode) {
    std::lock_guard<SpinLock> g(q->lock);
    q->stop_on_failure = mode == FailureMode::kStop;
}

void Executor::DestroyQueue(Queue* q) {
    WaitPoint(q, q->submitted.load(std::memory_order_acquire), kWaitForever);
    Retire(q);
}

void Executor::DestroyQueueForce(Queue* q) {
    bool reschedule = false;
    {
        std::lock_guard<SpinLock> g(q->lock);
        q->discarding = true;  // the worker cancels whatever it pops from now on
        if (q->state == Queue::State::kSuspended) {
            q->state = Queue::State::kScheduled;
            q->suspended_seq = 0;
            q->has_wake = true;
            q->wake = Queue::Wake::kDiscard;
            reschedule = true;
        }
    }
    if (reschedule) Schedule(q);
    DestroyQueue(q);
}

void Executor::Retire(Queue* q) {
    // All work is done, but the worker that finished the last task may still hold the queue
    // for a moment before marking it idle. Wait for that so the slot is truly free.
    for (;;) {
        {
            std::lock_guard<SpinLock> g(q->lock);
            if (q->state == Queue::State::kIdle) {
                q->discarding = false;
                q->stop_on_failure = false;
                q->early_seq = 0;
                q->error.store(0, std::memory_order_relaxed);
                break;
            }
        }
        std::this_thread::yield();
    }
    // Sequence numbers carry on in the recycled slot, keeping old points reached and old
    // tokens stale.
    std::lock_guard<std::mutex> g(registry_mu_);
    q->live = false;
    free_slots_.push_back(q);
}

// ---- Submission and suspension ------------------------------------------------------------

uint64_t Executor::Submit(Queue* q, const Task& t) {
    uint64_t seq;
    bool wake;
    {
        std::lock_guard<SpinLock> g(q->lock);
        q->ring.Push(t);
        seq = q->submitted.load(std::memory_order_relaxed) + 1;
        q->submitted.store(seq, std::memory_order_release);
        wake = q->state == Queue::State::kIdle;
        if (wake) q->state = Queue::State::kScheduled;
    }
    if (wake) q->exec->Schedule(q);
    return seq;
}

uint64_t Executor::SubmitWait(Queue* dst, Queue* src, uint64_t seq) {
    // Re-checks on every run: Resume (from src's watcher) just means "look again".
    return Submit(dst, MakeTask([src, seq](TaskContext& ctx) -> TaskStatus {
                      if (src == nullptr || Reached(src, seq)) return TaskStatus::Done();
                      if (!AddWatcher(*src, seq, ctx.token(), nullptr)) return TaskStatus::Done();
                      return TaskStatus::Suspended();
                  }));
}

bool Executor::Resume(SuspendToken token) {
    return Wake(token, static_cast<uint8_t>(Queue::Wake::kRerun), TaskStatus::Done());
}

bool Executor::Complete(SuspendToken token, TaskStatus status) {
    if (status.suspended()) status = TaskStatus::Done();  // "complete" cannot mean "not yet"
    return Wake(token, static_cast<uint8_t>(Queue::Wake::kComplete), status);
}

bool Executor::Wake(SuspendToken token, uint8_t how, TaskStatus status) {
    Queue* q = token.queue;
    if (q == nullptr || token.seq == 0) return false;
    {
        std::lock_guard<SpinLock> g(q->lock);
        if (q->state == Queue::State::kSuspended && q->suspended_seq == token.seq) {
            q->state = Queue::State::kScheduled;
            q->suspended_seq = 0;
            q->has_wake = true;
            q->wake = static_cast<Queue::Wake>(how);
            q->wake_status = status;
        } else if (q->running_seq == token.seq) {
            // Still running (about to return Suspended): leave a note for its worker.
            q->early_seq = token.seq;
            q->early_wake = static_cast<Queue::Wake>(how);
            q->early_status = status;
            return true;
        } else {
            return false;
        }
    }
    q->exec->Schedule(q);
    return true;
}

// ---- Completion ---------------------------------------------------------------------------

bool Executor::Reached(const Queue* q, uint64_t seq) {
    return q->completed.load(std::memory_order_acquire) >= seq;
}

uint64_t Executor::Submitted(const Queue* q) {
    return q->submitted.load(std::memory_order_acquire);
}

uint64_t Executor::Completed(const Queue* q) {
    return q->completed.load(std::memory_order_acquire);
}

bool Executor::Query(const Queue* q) const {
    return Reached(q, Submitted(q));
}

WaitStatus Executor::WaitPoint(Queue* q, uint64_t seq, std::chrono::nanoseconds timeout) {
    if (Reached(q, seq)) return WaitStatus::Ok();
    if (timeout.count() <= 0) return WaitStatus::Timeout();
    const bool forever = timeout == kWaitForever;
    const int64_t start = NowNs();
    const int64_t limit = forever ? INT64_MAX : timeout.count();

    // Short spin first: most waits on a busy stream end within microseconds.
    const int64_t spin = std::min(q->exec->spin_ns_, limit);
    for (unsigned i = 1; spin > 0; ++i) {
        if (Reached(q, seq)) return WaitStatus::Ok();
        CpuRelax();
        if (i % 64 == 0 && NowNs() - start >= spin) break;
    }

    // Then sleep until the worker that reaches seq wakes us. The flag lives on our stack; the
    // worker only touches it while our watcher is registered or being fired (see below).
    std::atomic<uint32_t> flag{0};
    if (!AddWatcher(*q, seq, {}, &flag)) return WaitStatus::Ok();
    for (;;) {
        if (flag.load(std::memory_order_acquire) != 0) return WaitStatus::Ok();
        int64_t left = -1;
        if (!forever) {
            left = limit - (NowNs() - start);
            if (left <= 0) break;
        }
        ParkWhile(flag, 0, left);
    }
    {
        std::lock_guard<SpinLock> g(q->lock);
        auto& w = q->watchers;
        auto it = std::find_if(w.begin(), w.end(), [&](const auto& x) { return x.flag == &flag; });
        if (it != w.end()) {
            *it = w.back();
            w.pop_back();
            if (w.empty()) q->has_watchers.store(false, std::memory_order_relaxed);
            return WaitStatus::Timeout();
        }
    }
    // A worker took our watcher to fire it just as we timed out: the point was reached. Wait
    // for its store so the flag is not written after we return.
    while (flag.load(std::memory_order_acquire) == 0)
        std::this_thread::yield();
    return WaitStatus::Ok();
}

WaitStatus Executor::TakeError(Queue& q) {
    if (q.error.load(std::memory_order_relaxed) == 0) return WaitStatus::Ok();
    const uint64_t e = q.error.exchange(0, std::memory_order_acq_rel);
    if (e == 0) return WaitStatus::Ok();
    return WaitStatus::Failed(static_cast<int32_t>(static_cast<uint32_t>(e)));
}

WaitStatus Executor::WaitFor(Queue* q, std::chrono::nanoseconds timeout) {
    WaitStatus st = WaitPoint(q, Submitted(q), timeout);
    return st.ok() ? TakeError(*q) : st;
}

WaitStatus Executor::WaitAll() {
    std::vector<std::pair<Queue*, uint64_t>> points;
    {
        std::lock_guard<std::mutex> g(registry_mu_);
        for (auto& slot : slots_) {
            if (slot->live) points.emplace_back(slot.get(), Submitted(slot.get()));
        }
    }
    // A queue destroyed meanwhile is fine: its slot lives on and its points read as reached.
    WaitStatus first = WaitStatus::Ok();
    for (auto [q, seq] : points) {
        WaitPoint(q, seq, kWaitForever);
        WaitStatus st = TakeError(*q);
        if (first.ok()) first = st;
    }
    return first;
}

}  // namespace openacl::cpu
