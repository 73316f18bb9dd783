// Whether this test binary runs under AddressSanitizer or ThreadSanitizer, for the few tests
// that measure what a sanitizer changes: resident memory (shadow pages) and CPU time (each
// instrumented call, futex waits included, costs several times its plain cost).
#pragma once

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
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
