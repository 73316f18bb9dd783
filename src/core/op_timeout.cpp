#include "core/op_timeout.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>

#include "core/log.h"
#include "core/runtime.h"

namespace openacl {

namespace {

// The Atlas A2/A3/950 step: 2^32 cycles of the 1 GHz task scheduler clock, in whole
// microseconds (what aclrtGetOpTimeOutInterval reports there).
constexpr uint64_t kDefaultIntervalUs = 4294967;
// The largest step OPENACL_OP_TIMEOUT_INTERVAL_US may give: 100 s.
constexpr uint64_t kMaxIntervalUs = 100000000;

struct State {
    std::mutex mutex;
    uint64_t interval_us = 0;  // 0: not read yet
    bool execute_set = false;  // a program set an execute timeout
    uint64_t execute_us = 0;   // the effective one (kOpTimeoutNeverUs: never)
};

State& Settings() {
    static auto* state = new State;
    return *state;
}

// What launches read: written under the mutex, read without it.
std::atomic<uint32_t> g_launch_ms{0};
std::atomic<uint32_t> g_wait_seconds{0};

// aclFinalize ends the settings with the session: the next aclInit starts from the defaults and
// reads the interval again.
void ResetSettings() {
    State& state = Settings();
    std::lock_guard lock(state.mutex);
    state.interval_us = 0;
    state.execute_set = false;
    state.execute_us = 0;
    g_launch_ms.store(0, std::memory_order_relaxed);
    g_wait_seconds.store(0, std::memory_order_relaxed);
}

void HookFinalize() {
    static const bool hooked = (Runtime::Get().AddReleaseHook(ResetSettings), true);
    (void)hooked;
}

uint64_t IntervalLocked(State& state) {
    if (state.interval_us != 0) return state.interval_us;
    state.interval_us = kDefaultIntervalUs;
    const char* text = std::getenv("OPENACL_OP_TIMEOUT_INTERVAL_US");
    if (text == nullptr || *text == '\0') return state.interval_us;
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || text[0] == '-' || value == 0 || value > kMaxIntervalUs) {
        OPENACL_LOG_WARNING(
            "OPENACL_OP_TIMEOUT_INTERVAL_US=%s is not a number of microseconds from 1 to %llu; "
            "the operator timeout step stays %llu us",
            text, static_cast<unsigned long long>(kMaxIntervalUs),
            static_cast<unsigned long long>(kDefaultIntervalUs));
        return state.interval_us;
    }
    state.interval_us = value;
    return state.interval_us;
}

uint64_t EffectiveLocked(State& state, uint64_t requested_us) {
    const uint64_t interval = IntervalLocked(state);
    if (requested_us == 0) {
        return interval < kOpTimeoutNeverThresholdUs ? kOpTimeoutNeverUs
                                                     : interval * kOpTimeoutMaxSteps;
    }
    uint64_t steps = requested_us / interval + (requested_us % interval != 0 ? 1 : 0);
    if (steps > kOpTimeoutMaxSteps) steps = kOpTimeoutMaxSteps;
    return steps * interval;
}

uint64_t CeilMs(uint64_t us) {
    return us / 1000 + (us % 1000 != 0 ? 1 : 0);
}

}  // namespace

uint64_t OpTimeoutIntervalUs() {
    HookFinalize();
    State& state = Settings();
    std::lock_guard lock(state.mutex);
    return IntervalLocked(state);
}

uint64_t SetOpExecuteTimeoutUs(uint64_t requested_us) {
    HookFinalize();
    State& state = Settings();
    std::lock_guard lock(state.mutex);
    const uint64_t effective = EffectiveLocked(state, requested_us);
    state.execute_set = true;
    state.execute_us = effective;
    // At most 254 steps of at most 100 s: always below UINT32_MAX milliseconds.
    const uint64_t ms = effective == kOpTimeoutNeverUs ? 0 : CeilMs(effective);
    g_launch_ms.store(static_cast<uint32_t>(ms), std::memory_order_relaxed);
    OPENACL_LOG_INFO("operator execute timeout: %llu us requested, %llu us in force%s",
                     static_cast<unsigned long long>(requested_us),
                     static_cast<unsigned long long>(effective),
                     effective == kOpTimeoutNeverUs ? " (never)" : "");
    return effective;
}

uint32_t OpExecuteTimeoutReportMs() {
    HookFinalize();
    State& state = Settings();
    std::lock_guard lock(state.mutex);
    if (!state.execute_set)
        return static_cast<uint32_t>(CeilMs(IntervalLocked(state) * kOpTimeoutMaxSteps));
    if (state.execute_us == kOpTimeoutNeverUs) return UINT32_MAX;
    return static_cast<uint32_t>(CeilMs(state.execute_us));
}

uint32_t LaunchTimeoutMs() {
    return g_launch_ms.load(std::memory_order_relaxed);
}

void SetOpWaitTimeoutSeconds(uint32_t seconds) {
    HookFinalize();
    g_wait_seconds.store(seconds, std::memory_order_relaxed);
}

int32_t OpWaitTimeoutMs() {
    const uint64_t ms = uint64_t{g_wait_seconds.load(std::memory_order_relaxed)} * 1000;
    return ms > INT32_MAX ? INT32_MAX : static_cast<int32_t>(ms);
}

}  // namespace openacl
