// A queue's pending tasks: a growable ring buffer, stored by value. It only allocates when it
// outgrows its high-water mark, so steady-state submission is allocation-free. Not
// thread-safe: the owning Queue guards it with its lock.
#pragma once

#include <cstdint>
#include <memory>

#include "backend/cpu/task.h"

namespace openacl::cpu {

class TaskRing {
 public:
    explicit TaskRing(uint32_t capacity = 128) : buf_(new Task[capacity]), mask_(capacity - 1) {
        // Power-of-two capacity turns the index wrap into a mask.
    }

    bool empty() const { return head_ == tail_; }
    uint64_t size() const { return tail_ - head_; }
    uint64_t capacity() const { return mask_ + 1; }

    void Push(const Task& t) {
        if (size() == capacity()) Grow();
        buf_[tail_ & mask_] = t;
        ++tail_;
    }

    // Copies out the oldest task; the caller runs it outside the lock, which is why the ring
    // may then grow (and move its storage) without disturbing the running task.
    void Pop(Task* out) {
        *out = buf_[head_ & mask_];
        ++head_;
    }

 private:
    void Grow() {
        uint64_t cap = capacity() * 2;
        std::unique_ptr<Task[]> bigger(new Task[cap]);
        for (uint64_t i = head_; i != tail_; ++i)
            bigger[i & (cap - 1)] = buf_[i & mask_];
        buf_ = std::move(bigger);
        mask_ = cap - 1;
    }

    std::unique_ptr<Task[]> buf_;
    uint64_t mask_;
    uint64_t head_ = 0;
    uint64_t tail_ = 0;
};

}  // namespace openacl::cpu
