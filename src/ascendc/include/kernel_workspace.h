// GetUserWorkspace: the user's part of the kernel's workspace, after the system workspace the
// host reserves for the high-level APIs (PlatformAscendC::GetLibApiWorkSpaceSize, 16 MiB).
#ifndef OPENACL_ASCENDC_KERNEL_WORKSPACE_H_
#define OPENACL_ASCENDC_KERNEL_WORKSPACE_H_

#include <cstdint>

#include "kernel_core_state.h"
#include "kernel_type.h"

namespace openacl::ascendc {
constexpr uint64_t kSystemWorkspaceBytes = 16 * 1024 * 1024;
}  // namespace openacl::ascendc

namespace AscendC {

__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
    if (workspace == nullptr) {
        openacl::ascendc::Trap("GetUserWorkspace",
                               "the workspace is null: launch the kernel with a workspace of "
                               "the system size (GetLibApiWorkSpaceSize) plus the user's");
    }
    return workspace + openacl::ascendc::kSystemWorkspaceBytes;
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_WORKSPACE_H_
