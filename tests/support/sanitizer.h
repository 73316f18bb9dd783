// Whether this test binary runs under AddressSanitizer or ThreadSanitizer, for the few tests
// that measure what a sanitizer changes: resident memory (shadow pages) and CPU time (each
// instrumented call, futex waits included, costs several times its plain cost).
//
// CI runs the gtest suites under both sanitizers and, in the plain build, only what they cannot
// run (scripts/test.sh): a test skipped under both (kSanitized) must be named there too, as
// ModelMemoryTest is; one skipped under one sanitizer still runs under the other.
#pragma once

// The library is built with AddressSanitizer: the test's own code may not be
// (OPENACL_ADDRESS_SANITIZED_LIBRARY, tests/CMakeLists.txt), and __SANITIZE_ADDRESS__ says only
// whether this file's code is instrumented.
#if defined(__SANITIZE_ADDRESS__) || defined(OPENACL_ADDRESS_SANITIZED_LIBRARY)
constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitized = true;
#else
constexpr bool kAddressSanitized = false;
#endif
#else
constexpr bool kAddressSanitized = false;
#endif

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || \
    defined(OPENACL_ADDRESS_SANITIZED_LIBRARY)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// ThreadSanitizer owns most of the address space (its shadow and meta memory, and the gaps it
// protects): mappings at chosen addresses outside its application ranges are refused.
#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitized = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kThreadSanitized = true;
#else
constexpr bool kThreadSanitized = false;
#endif
#else
constexpr bool kThreadSanitized = false;
#endif
