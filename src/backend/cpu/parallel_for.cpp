// ParallelFor: one task's blocks spread over the executor's idle workers. The task's worker
// posts the job in its slot (parallel_job.h) and runs blocks itself; idle workers find open
// slots from their loop (WorkerMain, SpinForWork, Park), take blocks from the same counter,
// and leave when none are left or a queue becomes ready. The task's worker then waits for the
// helpers' last blocks.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "backend/cpu/executor.h"
#include "backend/cpu/parallel_job.h"
#include "backend/cpu/sync.h"

namespace openacl::cpu {

thread_local Executor::WorkerSelf Executor::self_;

namespace {

using Kind = ParallelStatus::Kind;

// Automatic grain: about this many grabs per worker. Enough that blocks of unequal cost even
// out and the last grab is a small part of the whole; few enough that the shared counter is
// not contended when blocks are tiny.
constexpr uint64_t kGrabsPerWorker = 32;

uint32_t AutoGrain(uint32_t n, unsigned workers) {
    const uint64_t g = n / (uint64_t{workers} * kGrabsPerWorker);
    return g == 0 ? 1 : static_cast<uint32_t>(g);
}

int64_t DeadlineAfter(std::chrono::nanoseconds timeout) {
    if (timeout.count() <= 0) return 0;
    const int64_t now = NowNs();
    return timeout.count() >= INT64_MAX - now ? 0 : now + timeout.count();
}

bool Passed(int64_t deadline) {
    return deadline != 0 && NowNs() >= deadline;
}

// Every block on the calling thread: nested calls, launches of one grab, one-worker executors.
ParallelStatus RunInline(uint32_t n, BlockFn fn, void* arg, int64_t deadline, unsigned worker) {
    const std::atomic<uint32_t> never_stopped{0};
    const BlockContext ctx(n, worker, &never_stopped, deadline);
    ParallelStatus st;
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t rc = fn(ctx, i, arg);
        ++st.blocks_run;
        if (rc != 0) {
            st.kind = Kind::kFailed;
            st.code = rc;
            st.block = i;
            break;
        }
        if (Passed(deadline)) {
            st.kind = Kind::kTimeout;
            break;
        }
    }
    return st;
}

}  // namespace

Executor* Executor::Current() {
    return self_.exec;
}

ParallelStatus Executor::ParallelFor(uint32_t n, BlockFn fn, void* arg,
                                     const ParallelOptions& options) {
    WorkerSelf& self = self_;
    if (self.exec != this) return {Kind::kRejected};
    if (n == 0) return {};
    const int64_t deadline = DeadlineAfter(options.timeout);
    const uint32_t grain = options.grain != 0 ? options.grain : AutoGrain(n, worker_count());
    if (self.in_parallel || n <= grain || worker_count() == 1)
        return RunInline(n, fn, arg, deadline, self.index);

    self.in_parallel = true;
    ParallelJob& job = jobs_[self.index];
    job.Open(n, grain, fn, arg, deadline);
    jobs_open_.fetch_add(1);
    // Like NotifyWorker: a spinner takes the job by itself (and, when it finds another job open
    // too, wakes a sleeper for it: StopSpinning); otherwise wake one sleeper, and each helper
    // that joins wakes the next while enough blocks are left (HelpJobs).
    if (sleepers_.fetch_add(0) != 0 && spinners_.load() == 0) WakeOne();
    RunBlocks(job, self.index, /*helper=*/false);
    WaitForHelpers(job);
    self.in_parallel = false;

    ParallelStatus st;
    st.blocks_run = job.blocks_run.load(std::memory_order_relaxed);
    if (job.stopped()) {
        st.kind = job.kind;
        st.code = job.code;
        st.block = job.block;
    }
    return st;
}

// Takes grabs of blocks until none are left or the job stops. A helper also leaves when a
// queue becomes ready (queues have no other worker; the job has its owner), without closing.
uint32_t Executor::RunBlocks(ParallelJob& job, unsigned worker, bool helper) {
    const uint32_t n = job.n;
    const uint32_t grain = job.grain;
    const BlockFn fn = job.fn;
    void* const arg = job.arg;
    const int64_t deadline = job.deadline;
    const BlockContext ctx(n, worker, &job.stop, deadline);
    uint32_t ran = 0;
    bool out_of_blocks = true;
    bool first = !helper;  // the owner's first grab, [0, grain), is its own (ParallelJob::Open)
    while (!job.stopped()) {
        if (helper && ready_.LooksNonEmpty()) {
            out_of_blocks = false;
            break;
        }
        const uint64_t begin = first ? 0 : job.next.fetch_add(grain, std::memory_order_relaxed);
        first = false;
        if (begin >= n) break;
        const uint32_t end = static_cast<uint32_t>(std::min<uint64_t>(begin + grain, n));
        for (uint32_t i = static_cast<uint32_t>(begin); i < end && !job.stopped(); ++i) {
            if (Passed(deadline)) {  // not started in time
                job.Stop(Kind::kTimeout, 0, 0);
                break;
            }
            const int32_t rc = fn(ctx, i, arg);
            ++ran;
            if (rc != 0) {
                job.Stop(Kind::kFailed, i, rc);
                break;
            }
            if (Passed(deadline)) {  // still running at the deadline
                job.Stop(Kind::kTimeout, 0, 0);
                break;
            }
        }
    }
    if (out_of_blocks) CloseJob(job);
    job.blocks_run.fetch_add(ran, std::memory_order_relaxed);  // before Leave's release
    return ran;
}

void Executor::CloseJob(ParallelJob& job) {
    if (job.Close()) jobs_open_.fetch_sub(1, std::memory_order_relaxed);
}

// The owner, out of blocks, waits for the helpers still running theirs: a short spin (they are
// usually finishing one block), then sleep until the last one leaves. No time limit: blocks
// cannot be killed, and returning would leave them running on memory the launch may free. The
// timeout is the participants' business: a block that finishes (or would start) past the
// deadline stops the job, and blocks that poll cancelled() see the deadline themselves.
void Executor::WaitForHelpers(ParallelJob& job) {
    auto helpers = [&job] {
        return job.state.load(std::memory_order_acquire) & ParallelJob::kCountMask;
    };
    const int64_t start = NowNs();
    for (unsigned i = 1; helpers() != 0; ++i) {
        CpuRelax();
        if (i % 64 == 0 && NowNs() - start >= spin_ns_) break;
    }
    for (;;) {
        const uint32_t v = job.state.fetch_or(ParallelJob::kWaiter, std::memory_order_acquire);
        if ((v & ParallelJob::kCountMask) == 0) break;
        ParkWhile(job.state, v | ParallelJob::kWaiter, -1);
    }
    job.state.fetch_and(~ParallelJob::kWaiter, std::memory_order_relaxed);
}

// Called by an idle worker while jobs are open: joins one (starting after its own slot, so
// helpers spread over concurrent jobs) and runs its blocks. False when none could be joined.
bool Executor::HelpJobs(bool& spinning) {
    WorkerSelf& self = self_;
    const unsigned workers = worker_count();
    for (unsigned k = 1; k < workers; ++k) {
        const unsigned slot = (self.index + k) % workers;
        ParallelJob& job = jobs_[slot];
        if ((job.state.load(std::memory_order_relaxed) & ParallelJob::kOpen) == 0) continue;
        if (!job.TryJoin()) continue;
        if (spinning) StopSpinning(spinning, Taking::kJob);
        // Pass the wake-up on while blocks are left beyond the grab this helper is about to take.
        const uint64_t taken = job.next.load(std::memory_order_relaxed);
        if (taken + job.grain < job.n && sleepers_.load() != 0 && spinners_.load() == 0) WakeOne();
        self.in_parallel = true;
        RunBlocks(job, self.index, /*helper=*/true);
        self.in_parallel = false;
        job.Leave();
        return true;
    }
    return false;
}

}  // namespace openacl::cpu
