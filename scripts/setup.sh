#!/usr/bin/env bash
# One command from a fresh Debian machine: install dependencies, build, run the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default
cmake --build build
echo
build/examples/video_pipeline/video_pipeline
