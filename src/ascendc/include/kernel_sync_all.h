// Synchronisation between the blocks of a launch: SyncAll, the barrier over all of them (Ascend
// C's "hard" form, and the "soft" form with its GM and UB workspaces); IBSet / IBWait, one block
// waiting for another's flag; DataCacheCleanAndInvalid, which makes a core's scalar GM accesses
// coherent with the others'. On the CPU the blocks of a launch run at once, each on its own
// thread, when there are no more of them than the chip has cores (as on the chip); the barrier
// and the flags are openacl's runtime's (openaclKernelSyncAll and the flag entry points,
// openacl/kernel_binary.h). A launch with more blocks, where the chip would hang, and waits that
// no block can answer, are reported instead.
#ifndef OPENACL_ASCENDC_KERNEL_SYNC_ALL_H_
#define OPENACL_ASCENDC_KERNEL_SYNC_ALL_H_

#include <cstdint>
#include <string>

#include "kernel_core_state.h"
#include "kernel_tensor_impl.h"

// Weak: kernels built into programs that do not link libascendcl (unit tests calling blocks
// directly) still link, and SyncAll then says what is missing.
extern "C" __attribute__((weak)) int openaclKernelSyncAll(uint32_t participants);
extern "C" __attribute__((weak)) int openaclKernelSetFlag(int32_t* flag, int32_t value);
extern "C" __attribute__((weak)) int openaclKernelWaitFlag(const int32_t* flag, int32_t value);

namespace openacl::ascendc {

inline void SyncAllBlocks(const char* api, uint32_t participants) {
    t_core.hazards.JoinAll();  // the barrier waits for every pipe of the core
    if (t_core.group != nullptr) {
        Trap(api, "SyncAll in a mix kernel (AIC and AIV cores) is not provided by openacl");
    }
    if (openaclKernelSyncAll == nullptr) {
        Trap(api,
             "the kernel was not launched by openacl's runtime (libascendcl), whose barrier "
             "SyncAll needs");
    }
    if (const int result = openaclKernelSyncAll(participants); result != 0) {
        FailInterBlockWait(api, result, "the barrier could never be passed",
                           "blocks of this launch returned without reaching this SyncAll: "
                           "every block (of usedCores) must call SyncAll the same number of "
                           "times",
                           "usedCores " + std::to_string(participants) +
                               " is more than the launch's " + std::to_string(GetBlockNum()) +
                               " blocks");
    }
}

// IBSet / IBWait: the flag of (blockIdx, eventID) is the first int32 of the 32-byte slot
// eventID * cores + blockIdx of gmWorkspace (zeroed by the host), which is why CANN sizes it
// cores * 32 * eventID + blockIdx * 32 + 32 bytes; a set flag holds eventID + 1. Returns it.
template <typename GmTensor, typename UbTensor>
int32_t* InterBlockFlag(const char* api, const GmTensor& gmWorkspace, const UbTensor& ubWorkspace,
                        int32_t blockIdx, int32_t eventID) {
    if (t_core.group != nullptr) {
        Trap(api, std::string(api) +
                      " in a mix kernel (AIC and AIV cores) is not provided by "
                      "openacl");
    }
    const int64_t cores = GetBlockNum();
    if (blockIdx < 0 || blockIdx >= cores) {
        Trap(api, "blockIdx " + std::to_string(blockIdx) + " is outside [0, " +
                      std::to_string(cores - 1) + "] (the launch's blocks)");
    }
    if (eventID < 0) Trap(api, "eventID " + std::to_string(eventID) + " is negative");
    const uint64_t slot = static_cast<uint64_t>(eventID) * static_cast<uint64_t>(cores) +
                          static_cast<uint64_t>(blockIdx);
    const uint64_t needed = (slot + 1) * 8;  // int32 values
    if (gmWorkspace.GetPhyAddr() == nullptr) {
        Trap(api, "gmWorkspace has no memory: call SetGlobalBuffer first");
    }
    if (gmWorkspace.GetSize() != 0 && gmWorkspace.GetSize() < needed) {
        Trap(api, "gmWorkspace holds " + std::to_string(gmWorkspace.GetSize()) +
                      " int32 values; blockIdx " + std::to_string(blockIdx) + " and eventID " +
                      std::to_string(eventID) + " of " + std::to_string(cores) + " cores need " +
                      std::to_string(needed) +
                      " (cores * 32 bytes * eventID + blockIdx * 32 bytes + 32 bytes)");
    }
    if (ubWorkspace.GetSize() < 8) {
        Trap(api, "ubWorkspace holds " + std::to_string(ubWorkspace.GetSize()) +
                      " int32 values: it needs 8 (32 bytes)");
    }
    return gmWorkspace.GetPhyAddr() + slot * 8;
}

inline void CheckFlagRuntime(const char* api, int (*entry)(int32_t*, int32_t),
                             int (*wait)(const int32_t*, int32_t)) {
    if (entry == nullptr || wait == nullptr) {
        Trap(api,
             "the kernel was not launched by openacl's runtime (libascendcl), whose "
             "inter-block flags it needs");
    }
}

inline void CheckFlagResult(const char* api, int result, int32_t blockIdx, int32_t eventID) {
    if (result == 0) return;
    FailInterBlockWait(api, result, "a block could wait for one that has not started",
                       "block " + std::to_string(blockIdx) + " never sets event " +
                           std::to_string(eventID) +
                           ": every block still running waits (for a flag or at SyncAll), so "
                           "none is left to set it (the chip would hang)");
}

}  // namespace openacl::ascendc

namespace AscendC {

// The data cache a scalar unit's GM accesses go through on the chip, and what to make coherent.
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// The chip writes back and drops cached GM lines so that other cores' writes are read and this
// core's are seen. A CPU's caches are coherent already; what is left is the order: a full fence,
// so that the scalar accesses before it are visible before those after it.
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>&) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// Sets the flag of (blockIdx, eventID): blocks waiting for it in IBWait go on, and see what this
// block wrote to global memory before.
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace,
                             const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                             int32_t eventID) {
    int32_t* flag =
        openacl::ascendc::InterBlockFlag("IBSet", gmWorkspace, ubWorkspace, blockIdx, eventID);
    openacl::ascendc::CheckFlagRuntime("IBSet", openaclKernelSetFlag, openaclKernelWaitFlag);
    openacl::ascendc::t_core.hazards.JoinAll();  // the flag waits for every pipe of the core
    ubWorkspace.Data()[0] = eventID + 1;         // the chip stages the flag in UB
    openacl::ascendc::CheckFlagResult("IBSet", openaclKernelSetFlag(flag, eventID + 1), blockIdx,
                                      eventID);
}

// Waits until block blockIdx (not this one) has set its flag of eventID.
template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace,
                              const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                              int32_t eventID) {
    const int32_t* flag =
        openacl::ascendc::InterBlockFlag("IBWait", gmWorkspace, ubWorkspace, blockIdx, eventID);
    if (blockIdx == GetBlockIdx()) {
        openacl::ascendc::Trap("IBWait", "blockIdx " + std::to_string(blockIdx) +
                                             " is this block: a block waits for another one");
    }
    openacl::ascendc::CheckFlagRuntime("IBWait", openaclKernelSetFlag, openaclKernelWaitFlag);
    openacl::ascendc::CheckFlagResult("IBWait", openaclKernelWaitFlag(flag, eventID + 1), blockIdx,
                                      eventID);
    ubWorkspace.Data()[0] = eventID + 1;
    openacl::ascendc::t_core.hazards.JoinAll();
}

// The hard form: every block of the launch.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
    openacl::ascendc::SyncAllBlocks("SyncAll", 0);
}

// The soft form: the chip keeps each block's state in gmWorkspace (zeroed by the caller, at
// least 32 bytes per core) and ubWorkspace (32 bytes per core); the barrier is the same here,
// and the workspaces are checked as the chip needs them. usedCores: the blocks 0 .. usedCores-1
// that take part (0: all).
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace,
                               const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0) {
    const int64_t blocks = usedCores > 0 ? usedCores : GetBlockNum();
    const uint64_t needed = static_cast<uint64_t>(blocks) * 32 / sizeof(int32_t);
    if (gmWorkspace.GetSize() != 0 && gmWorkspace.GetSize() < needed) {
        openacl::ascendc::Trap("SyncAll",
                               "gmWorkspace holds " + std::to_string(gmWorkspace.GetSize()) +
                                   " int32 values; " + std::to_string(blocks) + " cores need " +
                                   std::to_string(needed) + " (32 bytes per core)");
    }
    if (ubWorkspace.GetSize() < needed) {
        openacl::ascendc::Trap("SyncAll",
                               "ubWorkspace holds " + std::to_string(ubWorkspace.GetSize()) +
                                   " int32 values; " + std::to_string(blocks) + " cores need " +
                                   std::to_string(needed) + " (32 bytes per core)");
    }
    if (usedCores < 0) {
        openacl::ascendc::Trap("SyncAll",
                               "usedCores " + std::to_string(usedCores) + " is negative");
    }
    openacl::ascendc::SyncAllBlocks("SyncAll", static_cast<uint32_t>(usedCores));
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_SYNC_ALL_H_
