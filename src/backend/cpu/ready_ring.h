// The executor's run queue of ready Queues: a bounded lock-free multi-producer/multi-consumer
// ring (Dmitry Vyukov's design). Host threads push a queue when it gets work, workers pop. A
// Queue is in the ring at most once (its state says so), so a ring as large as the most queues
// an executor may hold never overflows, and no global lock sits on the submission path.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>

#include "backend/cpu/sync.h"

namespace openacl::cpu {

class Queue;

class ReadyRing {
 public:
    explicit ReadyRing(uint32_t min_capacity)
        : cells_(new Cell[std::bit_ceil(min_capacity < 2 ? 2u : min_capacity)]),
          mask_(std::bit_ceil(min_capacity < 2 ? 2u : min_capacity) - 1) {
        for (uint64_t i = 0; i <= mask_; ++i)
            cells_[i].seq.store(i, std::memory_order_relaxed);
    }

    // Never fails: the caller guarantees fewer items than cells. The ring can still look full
    // for a moment while a consumer that took the cell one lap ago finishes releasing it.
    void Push(Queue* q) noexcept {
        uint64_t pos = tail_.load(std::memory_order_relaxed);
        for (;;) {
            Cell& c = cells_[pos & mask_];
            uint64_t seq = c.seq.load(std::memory_order_acquire);
            if (seq == pos) {
                if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
                    c.item = q;
                    c.seq.store(pos + 1, std::memory_order_release);
                    return;
                }
            } else if (seq < pos) {
                CpuRelax();  // that consumer is mid-release
                pos = tail_.load(std::memory_order_relaxed);
            } else {
                pos = tail_.load(std::memory_order_relaxed);
            }
        }
    }

    Queue* TryPop() noexcept {
        uint64_t pos = head_.load(std::memory_order_relaxed);
        for (;;) {
            Cell& c = cells_[pos & mask_];
            uint64_t seq = c.seq.load(std::memory_order_acquire);
            if (seq == pos + 1) {
                if (head_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
                    Queue* q = c.item;
                    c.seq.store(pos + mask_ + 1, std::memory_order_release);
                    return q;
                }
            } else if (seq < pos + 1) {
                return nullptr;  // empty (or a push not yet published; its pusher wakes us)
            } else {
                pos = head_.load(std::memory_order_relaxed);
            }
        }
    }

    // A cheap "is there probably something to pop" for spinning and parking decisions.
    bool LooksNonEmpty() const noexcept {
        uint64_t pos = head_.load(std::memory_order_relaxed);
        return cells_[pos & mask_].seq.load(std::memory_order_acquire) == pos + 1;
    }

 private:
    struct Cell {
        std::atomic<uint64_t> seq;
        Queue* item = nullptr;
    };
    std::unique_ptr<Cell[]> cells_;
    uint64_t mask_;
    // Producers and consumers hammer different cache lines.
    alignas(64) std::atomic<uint64_t> tail_{0};
    alignas(64) std::atomic<uint64_t> head_{0};
};

}  // namespace openacl::cpu
