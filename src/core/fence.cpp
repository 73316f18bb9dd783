#include "core/fence.h"

#include <sys/syscall.h>
#include <unistd.h>

namespace openacl::fence {

namespace detail {
std::atomic<bool> g_asymmetric{false};
}

namespace {

#if defined(__SANITIZE_THREAD__)
constexpr bool kMayUseMembarrier = false;  // ThreadSanitizer cannot see membarrier's ordering
#else
constexpr bool kMayUseMembarrier = true;
#endif

constexpr int kPrivateExpedited = 1 << 3;          // MEMBARRIER_CMD_PRIVATE_EXPEDITED
constexpr int kRegisterPrivateExpedited = 1 << 4;  // MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED

}  // namespace

bool EnableAsymmetric() noexcept {
    static const bool on = [] {
        const bool ok =
            kMayUseMembarrier && syscall(SYS_membarrier, kRegisterPrivateExpedited, 0, 0) == 0;
        detail::g_asymmetric.store(ok, std::memory_order_relaxed);
        return ok;
    }();
    return on;
}

void Heavy() noexcept {
    // A thread that saw the mode on registered it first; asking here makes this thread's view
    // final, so it never skips the barrier a light store relied on.
    if (EnableAsymmetric()) syscall(SYS_membarrier, kPrivateExpedited, 0, 0);
}

}  // namespace openacl::fence
