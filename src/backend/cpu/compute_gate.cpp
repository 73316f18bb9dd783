#include "backend/cpu/compute_gate.h"

#include <algorithm>
#include <thread>

namespace openacl::cpu {

ComputeGate& ComputeGate::Get() {
    static ComputeGate gate;
    return gate;
}

ComputeGate::ComputeGate()
    : capacity_(std::max(1, static_cast<int>(std::thread::hardware_concurrency()))) {}

void ComputeGate::SetCapacity(int threads) {
    {
        std::lock_guard lock(mutex_);
        capacity_ = std::max(1, threads);
    }
    // A larger gate may let waiting borrowers in; a smaller one lets them in as loans return.
    freed_.notify_all();
}

int ComputeGate::capacity() const {
    std::lock_guard lock(mutex_);
    return capacity_;
}

int ComputeGate::Acquire(int threads) {
    std::unique_lock lock(mutex_);
    int lend = 0;
    // The capacity may change while this waits: what is lent is decided when it is free.
    freed_.wait(lock, [&] {
        lend = std::clamp(threads, 1, capacity_);
        return lent_ + lend <= capacity_;
    });
    lent_ += lend;
    stats_.most_lent = std::max(stats_.most_lent, lent_);
    ++stats_.loans;
    return lend;
}

void ComputeGate::Release(int threads) {
    {
        std::lock_guard lock(mutex_);
        lent_ -= threads;
    }
    freed_.notify_all();
}

ComputeGate::Stats ComputeGate::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

void ComputeGate::ResetStats() {
    std::lock_guard lock(mutex_);
    stats_ = Stats{};
}

}  // namespace openacl::cpu
