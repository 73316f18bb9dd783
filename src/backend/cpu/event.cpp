#include "backend/cpu/event.h"

#include <mutex>

#include "backend/cpu/queue.h"

namespace openacl::cpu {

Event* Event::Create() {
    return new Event();
}

void Event::Retain() noexcept {
    refs_.fetch_add(1, std::memory_order_relaxed);
}

void Event::Release() noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

void Event::Drop() noexcept {
    uint64_t unused = 0;
    {
        std::lock_guard<SpinLock> g(lock_);
        unused = credits_;
        credits_ = 0;
    }
    if (refs_.fetch_sub(unused + 1, std::memory_order_acq_rel) == unused + 1) delete this;
}

uint64_t Event::Record(Queue* q, uint32_t tag) {
    constexpr uint64_t kCredits = 1024;
    std::lock_guard<SpinLock> g(lock_);
    if (credits_ == 0) [[unlikely]] {
        refs_.fetch_add(kCredits, std::memory_order_relaxed);
        credits_ = kCredits;
    }
    --credits_;  // now held by the record task; released when it runs or is cancelled
    const uint64_t generation = ++generation_;
    // The task only stamps the time: "reached" is the queue's own completion count. It holds
    // a reference, so it is not replayable, and needs not be: it goes to the queue directly,
    // never to a graph capture (which keeps a record as an edge, or records anew at each
    // replay).
    Task t = MakeTask(
        [event = this, generation](TaskContext& ctx) {
            if (!ctx.cancelled()) event->MarkReached(generation, NowNs());
            event->Release();
        },
        tag, Task::kCallWhenCancelled);
    // Submitted under our lock so point_ and generation_ always describe the same record.
    const uint64_t seq = q->exec->Submit(q, t);
    point_ = {q, seq};
    return seq;
}

void Event::MarkReached(uint64_t generation, int64_t now_ns) {
    std::lock_guard<SpinLock> g(reached_lock_);
    // Records on different queues may complete out of order; keep the newest.
    if (generation > reached_gen_) {
        reached_gen_ = generation;
        reached_ns_ = now_ns;
    }
}

Event::Point Event::point() const {
    std::lock_guard<SpinLock> g(lock_);
    return point_;
}

Event::Point Event::EnqueueWait(Queue* q, uint32_t tag, uint64_t* wait_seq) const {
    const Point p = point();
    if (p.queue != nullptr) {
        const uint64_t seq = q->exec->SubmitWait(q, p.queue, p.seq, tag);
        if (wait_seq != nullptr) *wait_seq = seq;
    }
    return p;
}

bool Event::Query() const {
    const Point p = point();
    return p.queue == nullptr || Executor::Reached(p.queue, p.seq);
}

WaitStatus Event::Synchronize(std::chrono::nanoseconds timeout) const {
    const Point p = point();
    if (p.queue == nullptr) return WaitStatus::Ok();
    return Executor::WaitPoint(p.queue, p.seq, timeout);
}

std::optional<int64_t> Event::TimestampNs() const {
    std::lock_guard<SpinLock> g(lock_);
    std::lock_guard<SpinLock> r(reached_lock_);  // always after lock_
    if (generation_ == 0 || reached_gen_ != generation_) return std::nullopt;
    return reached_ns_;
}

}  // namespace openacl::cpu
