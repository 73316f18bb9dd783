// Parallel work inside a task: what Executor::ParallelFor takes and returns. A kernel launch is
// one task on its stream; inside it, ParallelFor spreads the launch's blocks over every worker
// of the executor that is free to help, the worker running the task included, and returns once
// all blocks have finished. (parallel_job.h and parallel_for.cpp hold the machinery.)
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "backend/cpu/sync.h"
#include "backend/cpu/task.h"

namespace openacl::cpu {

// What a running block may know about its launch.
class BlockContext {
 public:
    BlockContext(uint32_t num_blocks, unsigned worker, const std::atomic<uint32_t>* stop,
                 int64_t deadline)
        : num_blocks_(num_blocks), worker_(worker), stop_(stop), deadline_(deadline) {}

    uint32_t num_blocks() const { return num_blocks_; }
    // Index of the executor worker running this block (0 .. worker_count() - 1).
    unsigned worker() const { return worker_; }
    // True once another block has failed or the launch's timeout has passed: blocks not yet
    // started are skipped, and a long block may poll this to give up early (it should then
    // return an error code: the launch fails anyway).
    bool cancelled() const {
        return stop_->load(std::memory_order_relaxed) != 0 ||
               (deadline_ != 0 && NowNs() >= deadline_);
    }

 private:
    uint32_t num_blocks_;
    unsigned worker_;
    const std::atomic<uint32_t>* stop_;
    int64_t deadline_;  // NowNs() time; 0: none
};

// Runs block `block` of a launch. Returns 0 on success, or a non-zero error code: the launch
// then fails with that code and this block's index, and blocks not yet started are skipped.
// Blocks run concurrently on several threads; fn and arg must allow that.
using BlockFn = int32_t (*)(const BlockContext& ctx, uint32_t block, void* arg);

struct ParallelOptions {
    // 0 (or negative): none. Otherwise (ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT) the launch reports
    // kTimeout when any block is still running, or not yet started, `timeout` after the call;
    // blocks not started by then are skipped. Blocks cannot be killed: ParallelFor still waits
    // for the ones running (they see cancelled()), so nothing touches the launch's memory once
    // it has returned. The call may thus take longer than the timeout, but never reports Done
    // when it did.
    std::chrono::nanoseconds timeout{0};
    // Blocks taken per grab of the shared counter. 0: chosen from the number of blocks and
    // workers (1 for launches of up to ~64 blocks per worker). n <= grain runs inline.
    uint32_t grain = 0;
};

// Outcome of a ParallelFor.
struct ParallelStatus {
    enum class Kind : uint8_t {
        kDone,      // every block ran and returned 0
        kFailed,    // a block returned `code`; `block` is its index
        kTimeout,   // the timeout passed before the last block finished
        kRejected,  // not called from a task running on this executor: no block ran
    };
    Kind kind = Kind::kDone;
    int32_t code = 0;         // kFailed: the failing block's code
    uint32_t block = 0;       // kFailed: the failing block's index
    uint32_t blocks_run = 0;  // blocks that were called (the others were skipped)

    constexpr bool ok() const { return kind == Kind::kDone; }
    constexpr bool failed() const { return kind == Kind::kFailed; }
    constexpr bool timed_out() const { return kind == Kind::kTimeout; }
    constexpr bool rejected() const { return kind == Kind::kRejected; }

    // The launch task's result: Done, the failing block's code, or the caller's code for a
    // timeout or a rejected call.
    constexpr TaskStatus ToTaskStatus(int32_t timeout_code, int32_t rejected_code) const {
        switch (kind) {
            case Kind::kDone:
                return TaskStatus::Done();
            case Kind::kFailed:
                return TaskStatus::Failed(code);
            case Kind::kTimeout:
                return TaskStatus::Failed(timeout_code);
            case Kind::kRejected:
                break;
        }
        return TaskStatus::Failed(rejected_code);
    }
};

}  // namespace openacl::cpu
