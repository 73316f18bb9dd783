// HCCL's environment variables (hccl/environment.h).
#include "hccl/environment.h"

#include <cstdlib>
#include <cstring>

#include "core/log.h"

namespace openacl::hccl {
namespace {

// Whole seconds from `name`, or `fallback` when it is unset or not a number (with a warning).
int64_t Seconds(const char* name, int64_t fallback) {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') return fallback;
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (*end != '\0' || value < 0 || value > 24 * 3600 * 365) {
        OPENACL_LOG_WARNING("%s=%s is not a number of seconds; using %lld", name, text,
                            static_cast<long long>(fallback));
        return fallback;
    }
    return value;
}

}  // namespace

int64_t ConnectTimeoutMs() {
    return Seconds("HCCL_CONNECT_TIMEOUT", 120) * 1000;
}

int64_t ExecTimeoutMs() {
    return Seconds("HCCL_EXEC_TIMEOUT", 1836) * 1000;
}

}  // namespace openacl::hccl
