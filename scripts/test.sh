#!/usr/bin/env bash
# Builds and runs the whole test suite (what CI runs): the default build and formatting, then
# the suite under ThreadSanitizer (the asynchronous engine must stay race-free) and under
# AddressSanitizer + UndefinedBehaviorSanitizer (with LeakSanitizer); the default build runs
# what those two cannot (see below), or everything when one is skipped. Any sanitizer finding
# fails.
# Last, every libFuzzer target runs for a bounded time (scripts/fuzz.sh; a crash fails): the
# AddressSanitizer build is clang's and builds the libFuzzer binaries too, so that the library
# is built three times, not four.
# Extra arguments go to every ctest run; OPENACL_SKIP_TSAN=1 / OPENACL_SKIP_ASAN=1 /
# OPENACL_SKIP_FUZZ=1 skip a pass locally.
set -euo pipefail
cd "$(dirname "$0")/.."
# CI allows 90 minutes: each phase says when it starts, so a log shows where the time went.
phase() { echo "== [$((SECONDS / 60)) min $((SECONDS % 60)) s] $*"; }
phase "dependencies"
scripts/install-deps.sh
phase "the default build"
cmake --preset default
cmake --build build
scripts/check-format.sh
if [ "${OPENACL_SKIP_TSAN:-0}" != 1 ] && [ "${OPENACL_SKIP_ASAN:-0}" != 1 ]; then
  # The sanitizer passes below run every other test, the ThreadSanitizer one built by GCC at
  # -O2 as this one is: here only what they cannot run. Label `plain`: programs built at test
  # time against the plain library (the install tree, Ascend C projects, the tutorial, a
  # preloaded spoiler); pyACL, the conformance run and the fuzz replays; label `compute`,
  # single-threaded suites the ThreadSanitizer build leaves out (tests/CMakeLists.txt); and the
  # tests that skip themselves under any sanitizer (tests/support/sanitizer.h).
  phase "the tests only the plain build runs, and the single-threaded suites"
  ctest --test-dir build --output-on-failure -j"$(nproc)" \
    -L "plain|python|conformance|fuzz|compute" "$@"
  ctest --test-dir build --output-on-failure -j"$(nproc)" -R "^ModelMemoryTest[.]" "$@"
else
  phase "the suite"
  ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
fi
if [ "${OPENACL_SKIP_TSAN:-0}" != 1 ]; then
  phase "the ThreadSanitizer build"
  cmake --preset tsan
  cmake --build build-tsan
  phase "the same suite under ThreadSanitizer"
  # OpenCV's TBB thread pool synchronises in ways TSan cannot see (TBB is not instrumented), so
  # models run on their caller's thread here; tests/tsan.supp covers third-party code only.
  OPENACL_MODEL_THREADS=1 \
  TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan.supp ${TSAN_OPTIONS:-}" \
    ctest --test-dir build-tsan --output-on-failure -j"$(nproc)" --timeout 600 \
      --label-exclude "conformance|fuzz" "$@"
fi
if [ "${OPENACL_SKIP_ASAN:-0}" != 1 ]; then
  phase "the AddressSanitizer + UndefinedBehaviorSanitizer build (clang, with the libFuzzer targets)"
  cmake --preset asan
  cmake --build build-asan
  phase "the same suite under AddressSanitizer + UndefinedBehaviorSanitizer"
  # tests/lsan.supp: leaks inside third-party libraries only (each entry says which and why).
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1 ${ASAN_OPTIONS:-}" \
  LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp ${LSAN_OPTIONS:-}" \
  UBSAN_OPTIONS="print_stacktrace=1 ${UBSAN_OPTIONS:-}" \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 600 \
      --label-exclude "conformance|fuzz" "$@"
fi
if [ "${OPENACL_SKIP_FUZZ:-0}" != 1 ]; then
  # 10 s per target keeps CI well inside its 90 minutes; the suite above already replays every
  # target's corpus with mutations, and scripts/fuzz.sh alone runs 40 s (or what you ask).
  export OPENACL_FUZZ_SECONDS="${OPENACL_FUZZ_SECONDS:-10}"
  phase "libFuzzer: every fuzz target for ${OPENACL_FUZZ_SECONDS} s"
  OPENACL_FUZZ_PRESET=asan scripts/fuzz.sh  # builds build-asan only if its pass was skipped
fi
phase "done"
