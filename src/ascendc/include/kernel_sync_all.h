// SyncAll: the barrier over all the blocks of a launch (Ascend C's "hard" form, and the "soft"
// form with its GM and UB workspaces). On the CPU the blocks of a launch run at once, each on
// its own thread, when there are no more of them than the chip has cores (as on the chip); the
// barrier is openacl's runtime's (openaclKernelSyncAll, openacl/kernel_binary.h). A launch with
// more blocks, where the chip would hang, and blocks that return without reaching the barrier,
// are reported instead.
#ifndef OPENACL_ASCENDC_KERNEL_SYNC_ALL_H_
#define OPENACL_ASCENDC_KERNEL_SYNC_ALL_H_

#include <cstdint>
#include <string>

#include "kernel_core_state.h"
#include "kernel_tensor_impl.h"

// Weak: kernels built into programs that do not link libascendcl (unit tests calling blocks
// directly) still link, and SyncAll then says what is missing.
extern "C" __attribute__((weak)) int openaclKernelSyncAll(uint32_t participants);

namespace openacl::ascendc {

inline void SyncAllBlocks(const char* api, uint32_t participants) {
    if (t_core.group != nullptr) {
        Trap(api, "SyncAll in a mix kernel (AIC and AIV cores) is not provided by openacl");
    }
    if (openaclKernelSyncAll == nullptr) {
        Trap(api,
             "the kernel was not launched by openacl's runtime (libascendcl), whose barrier "
             "SyncAll needs");
    }
    switch (openaclKernelSyncAll(participants)) {
        case 0:
            return;
        case 1:
            Trap(api, "the launch has more blocks (" + std::to_string(GetBlockNum()) +
                          ") than the chip has cores, so not all of them run at once and the "
                          "barrier could never be passed (the chip would hang): launch at most "
                          "as many blocks as the chip has cores");
        case 2:
            Trap(api,
                 "blocks of this launch returned without reaching this SyncAll: every block "
                 "(of usedCores) must call SyncAll the same number of times");
        case 3:
            Trap(api,
                 "another block of the launch failed, or the launch's timeout passed, "
                 "while this block waited");
        default:
            Trap(api, "usedCores " + std::to_string(participants) + " is more than the launch's " +
                          std::to_string(GetBlockNum()) + " blocks");
    }
}

}  // namespace openacl::ascendc

namespace AscendC {

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
