#include "backend/cpu/block_threads.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "backend/cpu/sync.h"

namespace openacl::cpu {

namespace {

// One co-resident launch: its blocks' progress, its barrier and its outcome (under mutex).
struct CoLaunch {
    uint32_t n = 0;
    BlockFn fn = nullptr;
    void* arg = nullptr;
    int64_t deadline = 0;  // NowNs(); 0: none
    std::atomic<uint32_t> stop{0};
    bool has_cpus = false;
    cpu_set_t cpus{};

    std::mutex mutex;
    std::condition_variable changed;
    uint32_t exited = 0;  // blocks that returned
    // The barrier: arrivals of the current generation; passing it starts the next one.
    uint32_t arrived = 0;
    uint64_t generation = 0;
    // Blocks in CoResidentWaitFlag: the flag each waits for, and the value.
    std::vector<std::pair<const int32_t*, int32_t>> flag_waits;
    // CrossCoreSetFlag mode 0: per flag id, each block's sets and the rounds completed; blocks
    // in CoResidentAllCoresWait with the flag id and the rounds they took.
    std::array<std::vector<uint64_t>, kAllCoreFlags> all_core_sets;
    std::array<uint64_t, kAllCoreFlags> all_core_rounds{};
    std::vector<std::pair<uint32_t, uint64_t>> all_core_waits;
    // The outcome: the first failing block.
    bool failed = false;
    int32_t code = 0;
    uint32_t failed_block = 0;
};

thread_local CoLaunch* t_launch = nullptr;
thread_local uint32_t t_block = 0;  // the calling block's index in t_launch

// A pool thread: waits for a block to run, runs it, goes back to the pool.
class BlockThread {
 public:
    BlockThread() : thread_([this] { Loop(); }) { thread_.detach(); }
    void Assign(CoLaunch* launch, uint32_t block) {
        std::lock_guard lock(mutex_);
        launch_ = launch;
        block_ = block;
        assigned_.notify_one();
    }

 private:
    void Loop();

    std::mutex mutex_;
    std::condition_variable assigned_;
    CoLaunch* launch_ = nullptr;
    uint32_t block_ = 0;
    std::thread thread_;
};

// The idle threads. Never destroyed: detached threads may still be parked on it at exit.
struct Pool {
    std::mutex mutex;
    std::vector<BlockThread*> idle;
};
Pool& ThePool() {
    static Pool* pool = new Pool;
    return *pool;
}

// `pinned`: the calling thread already runs on the launch's CPUs (the launcher itself).
void RunBlock(CoLaunch* launch, uint32_t block, bool pinned = false) {
    if (launch->has_cpus && !pinned)
        pthread_setaffinity_np(pthread_self(), sizeof launch->cpus, &launch->cpus);
    int32_t code = 0;
    if (launch->stop.load(std::memory_order_relaxed) == 0) {
        t_launch = launch;
        t_block = block;
        const BlockContext ctx(launch->n, 0, &launch->stop, launch->deadline);
        code = launch->fn(ctx, block, launch->arg);
        t_launch = nullptr;
    }
    std::lock_guard lock(launch->mutex);
    if (code != 0 && !launch->failed) {
        launch->failed = true;
        launch->code = code;
        launch->failed_block = block;
        launch->stop.store(1, std::memory_order_relaxed);
    }
    ++launch->exited;
    launch->changed.notify_all();  // the launcher, and barrier waiters that now cannot pass
}

void BlockThread::Loop() {
    for (;;) {
        CoLaunch* launch = nullptr;
        uint32_t block = 0;
        {
            std::unique_lock lock(mutex_);
            assigned_.wait(lock, [this] { return launch_ != nullptr; });
            launch = launch_;
            block = block_;
            launch_ = nullptr;
        }
        // Back in the pool before the launcher can see this block finished, so a launch right
        // after this one finds the thread idle instead of making another.
        {
            Pool& pool = ThePool();
            std::lock_guard lock(pool.mutex);
            pool.idle.push_back(this);
        }
        RunBlock(launch, block);
    }
}

}  // namespace

ParallelStatus RunCoResident(uint32_t n, BlockFn fn, void* arg, const ParallelOptions& options) {
    CoLaunch launch;
    launch.n = n;
    launch.fn = fn;
    launch.arg = arg;
    if (options.timeout.count() > 0) launch.deadline = NowNs() + options.timeout.count();
    launch.has_cpus = pthread_getaffinity_np(pthread_self(), sizeof launch.cpus, &launch.cpus) == 0;
    // The launcher runs the last block itself: a one-block launch then crosses no thread, and
    // every launch hands off one block fewer.
    const uint32_t others = n - 1;
    std::vector<BlockThread*> threads;
    if (others > 0) {
        Pool& pool = ThePool();
        std::lock_guard lock(pool.mutex);
        while (!pool.idle.empty() && threads.size() < others) {
            threads.push_back(pool.idle.back());
            pool.idle.pop_back();
        }
    }
    while (threads.size() < others)
        threads.push_back(new BlockThread);  // joins the pool when its first block is done
    for (uint32_t block = 0; block < others; ++block)
        threads[block]->Assign(&launch, block);
    RunBlock(&launch, others, /*pinned=*/true);
    ParallelStatus status;
    std::unique_lock lock(launch.mutex);
    launch.changed.wait(lock, [&] { return launch.exited == n; });
    status.blocks_run = n;
    if (launch.failed) {
        status.kind = ParallelStatus::Kind::kFailed;
        status.code = launch.code;
        status.block = launch.failed_block;
    } else if (launch.deadline != 0 && NowNs() >= launch.deadline) {
        status.kind = ParallelStatus::Kind::kTimeout;
    }
    return status;
}

BarrierResult CoResidentBarrier(uint32_t participants) {
    CoLaunch* launch = t_launch;
    if (launch == nullptr) return BarrierResult::kNotCoResident;
    const uint32_t need = participants == 0 ? launch->n : participants;
    if (need > launch->n) return BarrierResult::kTooMany;
    std::unique_lock lock(launch->mutex);
    const uint64_t generation = launch->generation;
    if (++launch->arrived == need) {
        launch->arrived = 0;
        ++launch->generation;
        launch->changed.notify_all();
        return BarrierResult::kPassed;
    }
    for (;;) {
        if (launch->generation != generation) return BarrierResult::kPassed;
        if (launch->stop.load(std::memory_order_relaxed) != 0) return BarrierResult::kCancelled;
        // Blocks that returned never arrive: once too few remain, nobody can pass.
        if (launch->n - launch->exited < need) return BarrierResult::kMismatch;
        if (launch->deadline != 0) {
            const int64_t left = launch->deadline - NowNs();
            if (left <= 0) return BarrierResult::kCancelled;
            launch->changed.wait_for(lock, std::chrono::nanoseconds(left));
        } else {
            launch->changed.wait(lock);
        }
    }
}

BarrierResult CoResidentSetFlag(int32_t* flag, int32_t value) {
    CoLaunch* launch = t_launch;
    if (launch == nullptr) return BarrierResult::kNotCoResident;
    __atomic_store_n(flag, value, __ATOMIC_RELEASE);
    std::lock_guard lock(launch->mutex);
    launch->changed.notify_all();
    return BarrierResult::kPassed;
}

namespace {

// Blocks that wait and will not go on by themselves: flag waits whose flag is not set, mode-0
// waits whose round has not completed, barrier arrivals (under the launch's mutex).
uint32_t Blocked(const CoLaunch& launch) {
    uint32_t count = launch.arrived;
    for (const auto& [flag, value] : launch.flag_waits)
        count += __atomic_load_n(flag, __ATOMIC_ACQUIRE) != value ? 1 : 0;
    for (const auto& [id, taken] : launch.all_core_waits)
        count += launch.all_core_rounds[id] <= taken ? 1 : 0;
    return count;
}

// Waits (the launch's mutex held through `lock`) until done() holds; fails when every block
// still running is blocked, on another block's failure, or at the launch's deadline.
template <class Done>
BarrierResult WaitUntil(CoLaunch* launch, std::unique_lock<std::mutex>& lock, Done done) {
    for (;;) {
        if (done()) return BarrierResult::kPassed;
        if (launch->stop.load(std::memory_order_relaxed) != 0) return BarrierResult::kCancelled;
        if (launch->n - launch->exited == Blocked(*launch)) return BarrierResult::kMismatch;
        int64_t wait_ns = 1000000;  // also polled: a kernel may write a flag without IBSet
        if (launch->deadline != 0) {
            const int64_t left = launch->deadline - NowNs();
            if (left <= 0) return BarrierResult::kCancelled;
            wait_ns = std::min(wait_ns, left);
        }
        launch->changed.wait_for(lock, std::chrono::nanoseconds(wait_ns));
    }
}

}  // namespace

BarrierResult CoResidentWaitFlag(const int32_t* flag, int32_t value) {
    CoLaunch* launch = t_launch;
    if (launch == nullptr) return BarrierResult::kNotCoResident;
    if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == value) return BarrierResult::kPassed;
    std::unique_lock lock(launch->mutex);
    launch->flag_waits.emplace_back(flag, value);
    launch->changed.notify_all();  // blocks already waiting may now see that none is left
    const BarrierResult result =
        WaitUntil(launch, lock, [&] { return __atomic_load_n(flag, __ATOMIC_ACQUIRE) == value; });
    auto& waits = launch->flag_waits;
    waits.erase(std::find(waits.begin(), waits.end(), std::make_pair(flag, value)));
    return result;
}

BarrierResult CoResidentAllCoresSet(uint32_t id) {
    CoLaunch* launch = t_launch;
    if (launch == nullptr) return BarrierResult::kNotCoResident;
    std::lock_guard lock(launch->mutex);
    std::vector<uint64_t>& sets = launch->all_core_sets[id];
    if (sets.empty()) sets.assign(launch->n, 0);
    ++sets[t_block];
    const uint64_t rounds = *std::min_element(sets.begin(), sets.end());
    if (rounds > launch->all_core_rounds[id]) {
        launch->all_core_rounds[id] = rounds;
        launch->changed.notify_all();
    }
    return BarrierResult::kPassed;
}

BarrierResult CoResidentAllCoresWait(uint32_t id, uint64_t taken) {
    CoLaunch* launch = t_launch;
    if (launch == nullptr) return BarrierResult::kNotCoResident;
    std::unique_lock lock(launch->mutex);
    launch->all_core_waits.emplace_back(id, taken);
    launch->changed.notify_all();
    const BarrierResult result =
        WaitUntil(launch, lock, [&] { return launch->all_core_rounds[id] > taken; });
    auto& waits = launch->all_core_waits;
    waits.erase(std::find(waits.begin(), waits.end(), std::make_pair(id, taken)));
    return result;
}

}  // namespace openacl::cpu
