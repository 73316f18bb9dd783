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
