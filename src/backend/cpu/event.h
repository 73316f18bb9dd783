// Events: markers recorded into a queue that other queues, or the host, can wait for.
//
// Recording enqueues a small task; the event's point is (that queue, that task's sequence
// number), and the task stores a completion timestamp when the queue reaches it. An event may
// be re-recorded: later waits and queries refer to the newest record, while waits enqueued
// earlier keep the point they captured.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

#include "backend/cpu/executor.h"
#include "backend/cpu/sync.h"

namespace openacl::cpu {

class Event {
 public:
    struct Point {
        Queue* queue = nullptr;  // nullptr: never recorded
        uint64_t seq = 0;
    };

    // Reference counted, because a pending record task may outlive the owner's handle: the
    // creator holds one reference (given up with Drop), every pending record another, and
    // Retain/Release add short-lived ones.
    static Event* Create();
    void Retain() noexcept;
    void Release() noexcept;
    void Drop() noexcept;

    // Enqueues a record on q (which names its executor). Returns the new point's seq. The
    // tag is the record task's (see Task::tag).
    uint64_t Record(Queue* q, uint32_t tag = 0);
    // Makes q not run past this point until the newest record, as of now, has completed. A
    // never-recorded event imposes nothing. Returns the point waited for ({} when none) and
    // sets *wait_seq to the wait task's seq on q.
    Point EnqueueWait(Queue* q, uint32_t tag = 0, uint64_t* wait_seq = nullptr) const;
    // True when the newest record has completed (or there was none).
    bool Query() const;
    // Blocks the host until the newest record (as of the call) completes, or the timeout.
    WaitStatus Synchronize(std::chrono::nanoseconds timeout = kWaitForever) const;
    // NowNs() time at which the newest record completed; empty if it has not (or the record
    // was skipped or discarded, and so never ran).
    std::optional<int64_t> TimestampNs() const;
    Point point() const;

 private:
    Event() = default;
    ~Event() = default;
    void MarkReached(uint64_t generation, int64_t now_ns);

    // Recording threads' side.
    mutable SpinLock lock_;
    Point point_;              // newest record
    uint64_t generation_ = 0;  // records so far; the newest is number generation_
    // References the creator has taken in advance for records to come: a record takes one of
    // these instead of incrementing refs_, so that recording does not pull refs_'s cache line
    // away from the worker that releases the previous record's reference.
    uint64_t credits_ = 0;

    // The workers' side, on its own cache line: a host thread recording the event again
    // while the previous record runs does not touch it.
    alignas(64) mutable SpinLock reached_lock_;
    uint64_t reached_gen_ = 0;  // newest record that has run
    int64_t reached_ns_ = 0;    // and when
    std::atomic<uint64_t> refs_{1};
};

}  // namespace openacl::cpu
