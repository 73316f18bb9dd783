// One ParallelFor in flight: the slot through which a worker running a task shares a launch's
// blocks with the idle workers. Internal to the executor (see parallel_for.cpp).
//
// Every worker owns one slot, allocated with the executor: a worker runs one task at a time
// and nested calls run inline, so a slot holds at most one job and posting one allocates
// nothing. The slot outlives every job, so a helper may always touch it; the protocol below
// keeps it from acting on a job other than the one it joined.
//
// Protocol, all on `state` (helper count | kOpen | kWaiter):
//  - The owner writes the job's description, then sets kOpen (release).
//  - A helper joins with fetch_add(1): if kOpen was set it is in, and (acquire) sees the
//    description; otherwise it leaves at once without reading anything. Whoever joins after a
//    job closed and the next one opened simply helps the next one.
//  - Blocks are dealt with fetch_add(grain) on `next`, except the first grab, which is the
//    owner's from the start: an owner left with no block of its own would only wait for its
//    helpers, holding a worker that other launches need. Whoever finds no more to take (or
//    the job stopped) clears kOpen, so no one else joins.
//  - The owner, after running out of blocks itself, waits until the helper count drops to 0:
//    every block has then finished, and (release/acquire) every helper's writes are visible.
//    It sets kWaiter and sleeps on `state` (a futex word) when the wait is long; the last
//    helper to leave then wakes it.
#pragma once

#include <atomic>
#include <cstdint>

#include "backend/cpu/parallel_for.h"
#include "backend/cpu/sync.h"

namespace openacl::cpu {

struct ParallelJob {
    static constexpr uint32_t kOpen = uint32_t{1} << 30;
    static constexpr uint32_t kWaiter = uint32_t{1} << 31;
    static constexpr uint32_t kCountMask = kOpen - 1;

    // ---- Membership and the job's description (written by the owner while closed) ----------
    alignas(64) std::atomic<uint32_t> state{0};
    uint32_t n = 0;
    uint32_t grain = 1;
    BlockFn fn = nullptr;
    void* arg = nullptr;
    int64_t deadline = 0;  // NowNs() time after which blocks are skipped; 0: none

    // ---- The block counter every participant hammers: a line of its own ---------------------
    alignas(64) std::atomic<uint64_t> next{0};

    // ---- Outcome ------------------------------------------------------------------------------
    // Non-zero once a block failed or the timeout passed: no more blocks start. Whoever sets it
    // first writes kind/code/block, which the owner reads after every helper has left.
    alignas(64) std::atomic<uint32_t> stop{0};
    std::atomic<uint32_t> blocks_run{0};  // summed by each participant as it leaves
    ParallelStatus::Kind kind = ParallelStatus::Kind::kDone;
    int32_t code = 0;
    uint32_t block = 0;

    // Called by the owner while the job is closed and no helper is inside.
    void Open(uint32_t blocks, uint32_t chunk, BlockFn f, void* a, int64_t until) {
        n = blocks;
        grain = chunk;
        fn = f;
        arg = a;
        deadline = until;
        next.store(chunk, std::memory_order_relaxed);  // [0, chunk): the owner's first grab
        stop.store(0, std::memory_order_relaxed);
        blocks_run.store(0, std::memory_order_relaxed);
        kind = ParallelStatus::Kind::kDone;
        state.fetch_or(kOpen);  // seq_cst: ordered before the owner's look at the sleepers
    }

    // True when the caller is in (and must Leave).
    bool TryJoin() {
        const uint32_t v = state.fetch_add(1, std::memory_order_acquire);
        if (v & kOpen) return true;
        Leave();
        return false;
    }

    void Leave() {
        const uint32_t v = state.fetch_sub(1, std::memory_order_release);
        if ((v & kCountMask) == 1 && (v & kWaiter)) Unpark(state, 1);
    }

    // Stops new joins. True for the one call that actually closed the job.
    bool Close() { return (state.fetch_and(~kOpen, std::memory_order_relaxed) & kOpen) != 0; }

    // Stops the job for `why`; the first caller's reason is kept.
    void Stop(ParallelStatus::Kind why, uint32_t at, int32_t rc) {
        uint32_t none = 0;
        if (stop.compare_exchange_strong(none, 1, std::memory_order_relaxed)) {
            kind = why;
            block = at;
            code = rc;
        }
    }

    bool stopped() const { return stop.load(std::memory_order_relaxed) != 0; }
};

}  // namespace openacl::cpu
