// Compute threads: the OpenMP threads oneDNN computes with, for the compiled model engine
// (model/dnnl_engine.cpp) and the BLAS operators (ops/gemm.cpp). OpenMP knows nothing of the
// executor: a task that calls oneDNN starts an OpenMP team on the worker running it, so two
// streams computing at once would run twice the threads the device has workers, and the cores
// would thrash. Every such task therefore first borrows its threads from one process-wide
// gate that holds the device's worker count, and waits while they are lent out: a model on one
// stream and a GEMM on another take turns on the cores instead of fighting over them.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace openacl::cpu {

class ComputeGate {
 public:
    static ComputeGate& Get();

    // Threads that may compute at once, process-wide: the device's workers (set when a device
    // opens). Until set, the machine's hardware threads.
    void SetCapacity(int threads);
    int capacity() const;

    // Waits until `threads` (at least 1, at most the capacity) are free, then lends them and
    // returns how many it lent: what the caller may compute with, and what it gives back.
    int Acquire(int threads);
    void Release(int threads);

    // What tests check: the most threads lent at once, and how many loans were made, since the
    // last reset.
    struct Stats {
        int most_lent = 0;
        uint64_t loans = 0;
    };
    Stats stats() const;
    void ResetStats();

 private:
    ComputeGate();

    mutable std::mutex mutex_;
    std::condition_variable freed_;
    int capacity_;
    int lent_ = 0;
    Stats stats_;
};

// Threads borrowed for one computation, given back when it goes out of scope.
class ComputeLease {
 public:
    explicit ComputeLease(int threads) : threads_(ComputeGate::Get().Acquire(threads)) {}
    ~ComputeLease() { ComputeGate::Get().Release(threads_); }
    ComputeLease(const ComputeLease&) = delete;
    ComputeLease& operator=(const ComputeLease&) = delete;

    int threads() const { return threads_; }

 private:
    const int threads_;
};

}  // namespace openacl::cpu
