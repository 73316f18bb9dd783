// A queue's pending tasks, stored by value: a ring that submitting threads fill under the
// queue's lock and the one worker running the queue empties without it.
//
// Why: with a lock on both sides, a host thread enqueueing while the worker drains spends most
// of each enqueue waiting for the lock's cache line to come back from the worker. Here the
// worker only reads the published tail and writes its own head; submitters only read the head
// when the ring looks full.
//
// The ring has a fixed capacity between growths. A push that finds it full goes to an overflow
// list instead (and so do all pushes after it, keeping the order) until the consumer, having
// emptied the ring, takes the lock and calls Refill: the ring doubles and takes the overflow
// in. Steady-state submission, below the high-water mark, allocates nothing.
//
// Threads: Push and Refill under the owning queue's lock; TryPop and LooksEmpty
// by the single consumer (with or without the lock).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/cpu/task.h"

namespace openacl::cpu {

class TaskRing {
 public:
    explicit TaskRing(uint32_t capacity = 128) : buf_(new Task[capacity]), mask_(capacity - 1) {
        // Power-of-two capacity turns the index wrap into a mask.
    }

    // Producer (under the lock). Returns the number of tasks pushed so far, this one included.
    uint64_t Push(const Task& t) {
        const uint64_t tail = tail_.load(std::memory_order_relaxed);
        if (overflow_.empty() && (tail - head_seen_ <= mask_ || HasRoom(tail))) {
            buf_[tail & mask_] = t;
            tail_.store(tail + 1, std::memory_order_release);
        } else {
            overflow_.push_back(t);
        }
        const uint64_t pushed = pushed_.load(std::memory_order_relaxed) + 1;
        pushed_.store(pushed, std::memory_order_release);
        return pushed;
    }
    // Tasks pushed so far (ring and overflow). Anyone.
    uint64_t Pushed() const { return pushed_.load(std::memory_order_acquire); }

    // Consumer. False when the ring holds nothing (the overflow may: see Refill).
    bool TryPop(Task* out) {
        const uint64_t head = head_.load(std::memory_order_relaxed);
        if (head == tail_.load(std::memory_order_acquire)) return false;
        *out = buf_[head & mask_];
        head_.store(head + 1, std::memory_order_release);
        return true;
    }
    bool LooksEmpty() const {
        return head_.load(std::memory_order_relaxed) == tail_.load(std::memory_order_relaxed);
    }

    // Consumer, under the lock, once TryPop has found the ring empty: grows the ring and moves
    // the overflow into it. False when there was no overflow.
    bool Refill() {
        if (overflow_.empty()) return false;
        uint64_t cap = (mask_ + 1) * 2;
        while (cap < overflow_.size())
            cap *= 2;
        // Empty ring: the indices may restart anywhere, so keep them and only remask.
        buf_.reset(new Task[cap]);
        mask_ = cap - 1;
        uint64_t tail = tail_.load(std::memory_order_relaxed);
        for (const Task& t : overflow_)
            buf_[tail++ & mask_] = t;
        overflow_.clear();  // keeps its capacity: the next overflow allocates nothing
        head_seen_ = head_.load(std::memory_order_relaxed);
        tail_.store(tail, std::memory_order_release);
        return true;
    }

 private:
    bool HasRoom(uint64_t tail) {
        head_seen_ = head_.load(std::memory_order_acquire);
        return tail - head_seen_ <= mask_;
    }

    // Producer side, and read by the consumer (which alone changes buf_ and mask_, in Refill,
    // with the lock held and the ring empty).
    std::unique_ptr<Task[]> buf_;
    uint64_t mask_;
    uint64_t head_seen_ = 0;  // the consumer's head as the producers last read it
    std::vector<Task> overflow_;
    // The producers' indices on one cache line and the consumer's on another: the tail moves
    // with every push, the head with every pop, and each side reads the other's only when it
    // must.
    alignas(64) std::atomic<uint64_t> tail_{0};
    std::atomic<uint64_t> pushed_{0};
    alignas(64) std::atomic<uint64_t> head_{0};
};

}  // namespace openacl::cpu
