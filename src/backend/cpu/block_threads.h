// Co-resident blocks: a launch whose blocks all run at once, each on its own thread, as every
// block of an Ascend C kernel does on the chip when numBlocks is at most the core count. Only
// then can blocks wait for one another (SyncAll): ParallelFor deals blocks to whichever worker is
// free and runs each to completion, so a block waiting for one not yet started would wait
// forever. Threads come from a process-wide pool and are reused; each block runs with the CPU
// affinity of the thread that launched it (the device's worker CPUs).
#pragma once

#include <cstdint>

#include "backend/cpu/parallel_for.h"

namespace openacl::cpu {

// Runs blocks 0 .. n-1 of fn concurrently, one thread each (the last on the calling thread), and
// returns when all have returned.
// Same contract as Executor::ParallelFor (failures, timeout); n must be at least 1.
ParallelStatus RunCoResident(uint32_t n, BlockFn fn, void* arg, const ParallelOptions& options);

// Why a barrier could not be passed.
enum class BarrierResult : int32_t {
    kPassed = 0,
    kNotCoResident = 1,  // the calling block is not part of a co-resident launch
    kMismatch = 2,       // blocks of the launch returned without reaching the barrier
    kCancelled = 3,      // another block failed, or the launch's timeout passed
    kTooMany = 4,        // more participants asked for than the launch has blocks
};

// Inside a co-resident block: waits until `participants` blocks of its launch (0: all) have
// called it, the all-core barrier of SyncAll. Blocks 0 .. participants-1 are expected to call.
BarrierResult CoResidentBarrier(uint32_t participants);

// Inside a co-resident block, the flags of IBSet / IBWait (an int32 in device memory each):
// stores `value` at `flag` (release: what the block wrote before is seen by whoever sees the
// flag), waking the blocks of the launch that wait; waits until the int32 at `flag` holds
// `value` (acquire). The wait gives kMismatch when no block is left to set it (every block still
// running waits for a flag or at the barrier) and kCancelled as the barrier does.
BarrierResult CoResidentSetFlag(int32_t* flag, int32_t value);
BarrierResult CoResidentWaitFlag(const int32_t* flag, int32_t value);

// Inside a co-resident block, CrossCoreSetFlag mode 0 of a kernel whose blocks are one core each:
// round r of flag `id` (0 .. kAllCoreFlags-1) completes once every block of the launch has set it
// r times; a wait returns once more rounds have completed than the block took before (`taken`).
// The wait fails as CoResidentWaitFlag does.
inline constexpr uint32_t kAllCoreFlags = 16;
BarrierResult CoResidentAllCoresSet(uint32_t id);
BarrierResult CoResidentAllCoresWait(uint32_t id, uint64_t taken);

}  // namespace openacl::cpu
