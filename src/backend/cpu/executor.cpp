// The host side of the executor: queues, submission, suspension and waits. (executor_run.cpp
// holds the worker side.)
#include "backend/cpu/executor.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstdint>

#include "backend/cpu/parallel_job.h"
#include "backend/cpu/queue.h"
#include "backend/cpu/sync.h"

namespace openacl::cpu {

Executor::Executor(const ExecutorOptions& options)
    : options_(options),
      spin_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(options.spin).count()),
      worker_count_(
          std::max(options.workers ? options.workers : std::thread::hardware_concurrency(), 1u)),
      ready_(std::max<uint32_t>(options.max_queues, 2)) {
    const unsigned n = worker_count_;
    parkers_.reset(new Parker[n]);
    jobs_.reset(new ParallelJob[n]);
    workers_.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
        workers_.emplace_back([this, i] { WorkerMain(parkers_[i]); });
        if (!options_.cpus.empty()) {
            // The set, not one CPU per worker: the scheduler still balances within it.
            cpu_set_t set;
            CPU_ZERO(&set);
            for (int cpu : options_.cpus)
                CPU_SET(cpu, &set);
            pthread_setaffinity_np(workers_.back().native_handle(), sizeof set, &set);
        }
    }
}

namespace {
std::atomic<Executor::QueueFreedHook> g_queue_freed_hook{nullptr};
}  // namespace

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
    if (QueueFreedHook hook = g_queue_freed_hook.load(std::memory_order_acquire)) {
        for (const auto& slot : slots_)
            hook(slot.get());
    }
}

void Executor::SetQueueFreedHook(QueueFreedHook hook) {
    g_queue_freed_hook.store(hook, std::memory_order_release);
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
    q->stop_on_failure.store(mode == FailureMode::kStop, std::memory_order_relaxed);
}

void Executor::DestroyQueue(Queue* q) {
    WaitPoint(q, q->ring.Pushed(), kWaitForever);
    Retire(q);
}

void Executor::DestroyQueueForce(Queue* q) {
    DiscardQueue(q);
    DestroyQueue(q);
}

void Executor::DiscardQueue(Queue* q) {
    bool reschedule = false;
    {
        std::lock_guard<SpinLock> g(q->lock);
        q->discarding.store(true);  // the worker cancels whatever it pops from now on
        if (q->state == Queue::State::kSuspended) {
            q->state = Queue::State::kScheduled;
            q->suspended_seq = 0;
            q->has_wake = true;
            q->wake = Queue::Wake::kDiscard;
            reschedule = true;
        }
    }
    if (reschedule) Schedule(q);
}

uint64_t Executor::DiscardSubmitted(Queue* q) {
    bool reschedule = false;
    uint64_t through = 0;
    {
        std::lock_guard<SpinLock> g(q->lock);
        through = q->ring.Pushed();
        if (through > q->discard_through.load(std::memory_order_relaxed))
            q->discard_through.store(through, std::memory_order_relaxed);
        if (q->state == Queue::State::kSuspended && q->suspended_seq <= through) {
            q->state = Queue::State::kScheduled;
            q->suspended_seq = 0;
            q->has_wake = true;
            q->wake = Queue::Wake::kDiscard;
            reschedule = true;
        }
    }
    if (reschedule) Schedule(q);
    return through;
}

void Executor::Retire(Queue* q) {
    // All work is done, but the worker that finished the last task may still hold the queue
    // for a moment (or linger on it) before marking it idle. Wait for that so the slot is
    // truly free.
    q->retiring.store(true, std::memory_order_relaxed);
    for (;;) {
        {
            std::lock_guard<SpinLock> g(q->lock);
            if (q->state == Queue::State::kIdle) {
                q->retiring.store(false, std::memory_order_relaxed);
                q->discarding.store(false, std::memory_order_relaxed);
                q->typical_wait_ns.store(0, std::memory_order_relaxed);
                q->stop_on_failure.store(false, std::memory_order_relaxed);
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
        seq = q->ring.Push(t);
        wake = q->state == Queue::State::kIdle;
        if (wake) q->state = Queue::State::kScheduled;
    }
    if (wake) q->exec->Schedule(q);
    return seq;
}

uint64_t Executor::SubmitBatch(Queue* q, const Task* tasks, size_t n) {
    uint64_t seq;
    bool wake = false;
    {
        std::lock_guard<SpinLock> g(q->lock);
        seq = q->ring.Pushed();
        for (size_t i = 0; i < n; ++i)
            seq = q->ring.Push(tasks[i]);
        if (n != 0 && q->state == Queue::State::kIdle) {
            q->state = Queue::State::kScheduled;
            wake = true;
        }
    }
    if (wake) q->exec->Schedule(q);
    return seq;
}

int32_t Executor::TakeFailure(Queue* q) {
    const uint64_t error = q->error.exchange(0, std::memory_order_acq_rel);
    return error == 0 ? 0 : Queue::DecodeError(error);
}

uint64_t Executor::SubmitWait(Queue* dst, Queue* src, uint64_t seq, uint32_t tag) {
    // Re-checks on every run: Resume (from src's watcher) just means "look again".
    const Task wait = MakeTask(
        [src, seq](TaskContext& ctx) -> TaskStatus {
            if (src == nullptr || Reached(src, seq)) return TaskStatus::Done();
            if (!AddWatcher(*src, seq, ctx.token(), nullptr)) return TaskStatus::Done();
            return TaskStatus::Suspended();
        },
        tag);
    return Submit(dst, wait);
}

bool Executor::Resume(SuspendToken token) {
    return Wake(token, static_cast<uint8_t>(Queue::Wake::kRerun), TaskStatus::Done());
}

bool Executor::Complete(SuspendToken token, TaskStatus status) {
    if (status.suspended()) status = TaskStatus::Done();  // "complete" cannot mean "not yet"
    return Wake(token, static_cast<uint8_t>(Queue::Wake::kComplete), status);
}

bool Executor::IsHeld(SuspendToken token) {
    Queue* q = token.queue;
    if (q == nullptr || token.seq == 0) return false;
    std::lock_guard<SpinLock> g(q->lock);
    return (q->state == Queue::State::kSuspended && q->suspended_seq == token.seq) ||
           q->running_seq.load(std::memory_order_relaxed) == token.seq;
}

void Executor::Stop(Queue* q, uint64_t seq, TaskStatus status) {
    if (status.suspended()) status = TaskStatus::Done();
    {
        std::lock_guard<SpinLock> g(q->lock);
        if (q->completed.load(std::memory_order_acquire) >= seq) return;
        q->stop_code.store(status.code, std::memory_order_relaxed);
        q->stop_seq.store(seq, std::memory_order_release);
    }
    // Suspended: complete it now; executing: when it suspends (see Wake).
    Wake({q, seq}, static_cast<uint8_t>(Queue::Wake::kComplete), status);
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
        } else if (q->running_seq.load(std::memory_order_relaxed) == token.seq) {
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
    return q->ring.Pushed();
}

uint64_t Executor::Completed(const Queue* q) {
    return q->completed.load(std::memory_order_acquire);
}

bool Executor::Query(const Queue* q) const {
    return Reached(q, Submitted(q));
}

WaitStatus Executor::WaitPoint(Queue* q, uint64_t seq, std::chrono::nanoseconds timeout) {
    if (Reached(q, seq)) {
        // A wait that took no time (see the spin below).
        const int64_t avg = q->typical_wait_ns.load(std::memory_order_relaxed);
        if (avg != 0) q->typical_wait_ns.store(avg - avg / 4, std::memory_order_relaxed);
        return WaitStatus::Ok();
    }
    if (timeout.count() <= 0) return WaitStatus::Timeout();
    const bool forever = timeout == kWaitForever;
    const int64_t start = NowNs();
    const int64_t limit = forever ? INT64_MAX : timeout.count();

    // Short spin first: most waits on a busy stream end within microseconds. But where this
    // queue's waits lately took beyond the spin budget (its tasks run for a while: an image
    // resize, a model), spinning through them burns a core the stream's own workers could
    // use, and sleeping until the worker's wake-up adds that wake-up to every wait (20 – 30 µs
    // under a VM, a quarter of a 0.1 ms resize). So such a wait sleeps through most of the
    // expected time and spins for its end (below). The average follows the waits, so a queue
    // that goes back to short tasks gets its plain spin back.
    const int64_t budget = q->exec->spin_ns_;
    const int64_t typical = q->typical_wait_ns.load(std::memory_order_relaxed);
    const bool expect_long = budget > 0 && typical > budget;  // spin_us 0: never spin
    const int64_t spin = expect_long ? 0 : std::min(budget, limit);
    auto learn = [q, start] {
        const int64_t took = NowNs() - start;
        const int64_t avg = q->typical_wait_ns.load(std::memory_order_relaxed);
        q->typical_wait_ns.store(avg + (took - avg) / 4, std::memory_order_relaxed);
    };
    for (unsigned i = 1; spin > 0; ++i) {
        if (Reached(q, seq)) {
            learn();
            return WaitStatus::Ok();
        }
        CpuRelax();
        if (i % 64 == 0 && NowNs() - start >= spin) break;
    }

    // Then sleep until the worker that reaches seq wakes us. The flag lives on our stack; the
    // worker only touches it while our watcher is registered or being fired (see below).
    std::atomic<uint32_t> flag{0};
    if (!AddWatcher(*q, seq, {}, &flag)) {
        learn();
        return WaitStatus::Ok();
    }
    if (expect_long) {
        // Wake `lead` before the expected end (an earlier end wakes us through the watcher),
        // then spin on the watcher's flag until as long after it; a task that runs later than
        // that is waited for asleep. 60 µs covers this VM's late timers (about 18 µs) and the
        // jitter of the tasks; a smaller spin budget caps it.
        const int64_t lead = std::min<int64_t>(60'000, 2 * budget);
        const int64_t wake = std::min(typical - lead, limit);
        if (const int64_t left = wake - (NowNs() - start); left > 0) {
            ParkWhileUntilOnTime(flag, 0, left);
        }
        const int64_t spin_until = std::min(typical + lead, limit);
        for (unsigned i = 1; flag.load(std::memory_order_acquire) == 0; ++i) {
            CpuRelax();
            if (i % 64 == 0 && NowNs() - start >= spin_until) break;
        }
    }
    for (;;) {
        if (flag.load(std::memory_order_acquire) != 0) {
            learn();
            return WaitStatus::Ok();
        }
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
    return WaitStatus::Failed(Queue::DecodeError(e));
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
