#!/usr/bin/env bash
# Fails when a tracked C/C++ file is not clang-format clean.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.c' '*.cpp' '*.h' '*.hpp' 2>/dev/null || true)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
if ! clang-format --dry-run --Werror $files; then
  echo "clang-format: run 'clang-format -i' on the files above" >&2
  exit 1
fi
# .asc (Ascend C single-source) files: clang-format reads them as C++ through standard input.
for file in $(git ls-files '*.asc' 2>/dev/null || true); do
  if ! clang-format --assume-filename=source.cpp < "$file" | cmp -s - "$file"; then
    echo "clang-format: $file is not clean (clang-format --assume-filename=x.cpp < $file)" >&2
    exit 1
  fi
done
echo "clang-format: all files clean"
