// Operator timeouts (aclrtSetOpExecuteTimeOut*, aclrtGetOpExecuteTimeout,
// aclrtGetOpTimeOutInterval, aclrtSetOpWaitTimeout): process-wide settings, as in CANN.
//
// The execute timeout is counted in steps of the hardware's interval: a request is rounded up to
// a whole number of steps, at most 254 of them, and 0 asks for the longest (or, when the step is
// under 100 ms, for no timeout at all). Kernel launches enqueued after a setting run under it
// unless the launch carries its own timeout attribute (core/kernel.cpp asks LaunchTimeoutMs).
// Until a program sets one, aclrtGetOpExecuteTimeout reports the chip's default (254 steps) but
// launches are not timed: a deadline costs every block two clock reads, and a CPU kernel cannot
// be stopped mid-block anyway (docs/ARCHITECTURE.md, "Operator timeouts").
//
// The interval is the Atlas A2/A3/950 step, 2^32 ns (4294967 us). OPENACL_OP_TIMEOUT_INTERVAL_US
// sets another, read at the first use after aclInit (or process start); tests use a millisecond
// step so timeouts can be shown in milliseconds.
#pragma once

#include <cstdint>

namespace openacl {

// Steps of the interval a timeout may span; also the chip's default.
inline constexpr uint64_t kOpTimeoutMaxSteps = 254;
// A step shorter than this turns "0 = the longest timeout" into "never time out" (CANN's fast
// fault reporting mode).
inline constexpr uint64_t kOpTimeoutNeverThresholdUs = 100000;
// actualTimeout for "never".
inline constexpr uint64_t kOpTimeoutNeverUs = UINT64_MAX;

// The hardware's timeout step in microseconds (aclrtGetOpTimeOutInterval).
uint64_t OpTimeoutIntervalUs();

// Sets the process-wide execute timeout (us; 0: the longest) and returns the one in force: a
// whole number of steps, or kOpTimeoutNeverUs.
uint64_t SetOpExecuteTimeoutUs(uint64_t requested_us);

// aclrtGetOpExecuteTimeout: the timeout in force in milliseconds (rounded up), the default when
// none was set, UINT32_MAX for "never".
uint32_t OpExecuteTimeoutReportMs();

// The timeout, in milliseconds, of a kernel launch that has none of its own: 0 when launches are
// not timed (nothing set, or "never"). One relaxed load.
uint32_t LaunchTimeoutMs();

// aclrtSetOpWaitTimeout: seconds, 0 = never (the default).
void SetOpWaitTimeoutSeconds(uint32_t seconds);
// The timeout of event waits enqueued now by aclrtStreamWaitEvent, in milliseconds (clamped to
// INT32_MAX); 0 = none.
int32_t OpWaitTimeoutMs();

}  // namespace openacl
