#!/usr/bin/env bash
# Builds and runs the whole test suite (what CI runs). Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default
cmake --build build
scripts/check-format.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
