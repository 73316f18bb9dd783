#!/usr/bin/env bash
# llama.cpp's CANN backend (ggml-cann) on openacl, built the way llama.cpp's docs build it for
# an Ascend machine: `source set_env.sh`, then `cmake -DGGML_CANN=on` (the chip comes from
# `npu-smi info`). The source is the llama.cpp release that the npm package node-llama-cpp
# carries as a git bundle (the registry is the one source of code this machine reaches). Then:
#
#   1. test-backend-ops on CANN0: every ggml operator ggml-cann says it supports, against ggml's
#      CPU backend, one process per operator (an abort stops that operator's cases only);
#   2. test-llama-archs: a small random-weight model of each architecture on CANN0 against CPU
#      (normalised mean squared error of the logits) and saved and reloaded;
#   3. llama-bench: prompt and generation speed of a random-weight llama on CANN0 and on ggml's
#      own CPU backend, side by side;
#   4. graph mode (-DUSE_ACL_GRAPH=ON, a second build): ggml-cann captures each decoding step
#      with aclmdlRICaptureBegin/End and replays it with aclmdlRIExecuteAsync; the greedy text
#      of llama-simple must equal the eager build's and the CPU's, and llama-bench compares the
#      decoding speed of the two builds.
#
# Results: <work>/summary.txt and the per-operator / per-architecture logs beside it.
#
#   bench/llama_cpp.sh [BUILD_DIR]      # default: build; works in BUILD_DIR/bench-llama-cpp
#   STEPS="ops archs bench graph" OPS="ADD MUL_MAT" ARCHS="llama qwen2" bench/llama_cpp.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(realpath -m "$build/bench-llama-cpp")
package=node-llama-cpp@3.22.1
steps=${STEPS:-ops archs bench graph}
mkdir -p "$work/logs/ops" "$work/logs/archs"

echo "llama.cpp: openacl installed into $work/openacl" >&2
cmake --install "$build" --prefix "$work/openacl" >/dev/null

src=$work/llama.cpp
if [[ ! -d $src/.git ]]; then
  echo "llama.cpp: fetching $package (its llama/gitRelease.bundle)" >&2
  (cd "$work" && npm pack --silent "$package" >/dev/null)
  tar -xzf "$work"/node-llama-cpp-*.tgz -C "$work" package/llama/gitRelease.bundle
  git clone -q "$work/package/llama/gitRelease.bundle" "$src"
fi

# shellcheck source=/dev/null
source "$work/openacl/set_env.sh"
if [[ ! -f $src/build/build.ninja ]]; then
  cmake -S "$src" -B "$src/build" -G Ninja -DGGML_CANN=on -DCMAKE_BUILD_TYPE=Release \
    -DLLAMA_CURL=OFF -DLLAMA_BUILD_SERVER=OFF >"$work/logs/configure.log"
fi
ninja -C "$src/build" test-backend-ops test-llama-archs llama-bench llama-simple \
  >"$work/logs/build.log"
bin=$src/build/bin
summary=$work/summary.txt
: >"$summary"

strip() { sed 's/\x1b\[[0-9;]*m//g'; }

if [[ " $steps " == *" ops "* ]]; then
  ops=${OPS:-$(python3 - "$src/ggml/src/ggml.c" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
names = []
for table in ("GGML_OP_NAME", "GGML_UNARY_OP_NAME", "GGML_GLU_OP_NAME"):
    body = re.search(r"static const char \* %s\[\w+\] = \{(.*?)\};" % table, text, re.S).group(1)
    names += re.findall(r'"([A-Z0-9_]+)"', body)
print(" ".join(n for n in names if n != "NONE"))
EOF
)}
  printf '%-24s %6s %6s %8s  %s\n' operator passed failed unsupp "ended" >>"$summary"
  for op in $ops; do
    log=$work/logs/ops/$op.log
    rc=0
    timeout 900 "$bin/test-backend-ops" -b CANN0 -o "$op" >"$log" 2>&1 || rc=$?
    passed=$(strip <"$log" | grep -c '): OK$' || true)
    failed=$(strip <"$log" | grep -c '): FAIL$' || true)
    unsupported=$(grep -c 'not supported \[CANN0\]' "$log" || true)
    ended=ok
    if ((rc != 0)); then
      ended="exit $rc: $(grep -m1 -o 'CANN error: .*\|GGML_ASSERT.*' "$log" | cut -c1-110 || true)"
    fi
    printf '%-24s %6s %6s %8s  %s\n' "$op" "$passed" "$failed" "$unsupported" "$ended" >>"$summary"
  done
  echo >>"$summary"
fi

if [[ " $steps " == *" archs "* ]]; then
  archs=${ARCHS:-$(python3 - "$src/src/llama-arch.cpp" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
body = re.search(r"LLM_ARCH_NAMES\s*=\s*\{(.*?)\n\};", text, re.S).group(1)
print(" ".join(re.findall(r'\{\s*LLM_ARCH_\w+,\s*"([^"]+)"\s*\}', body)))
EOF
)}
  printf '%-18s %-6s %-22s %s\n' architecture config "NMSE vs CPU" "save+load" >>"$summary"
  for arch in $archs; do
    log=$work/logs/archs/$arch.log
    rc=0
    timeout 600 "$bin/test-llama-archs" -a "^${arch}\$" >"$log" 2>&1 || rc=$?
    rows=$(strip <"$log" | grep '| *Ascend' || true)
    if [[ -z $rows ]]; then
      printf '%-18s %-6s %s\n' "$arch" - "no CANN row (exit $rc)" >>"$summary"
      continue
    fi
    while IFS='|' read -r _ _ _ config nmse roundtrip _; do
      printf '%-18s %-6s %-22s %s\n' "$arch" "$(echo $config)" "$(echo $nmse)" \
        "$(echo $roundtrip)" >>"$summary"
    done <<<"$rows"
  done
  echo >>"$summary"
fi

models=$work/models
if [[ " $steps " == *" bench "* || " $steps " == *" graph "* ]] &&
  [[ ! -f $models/llama-dense.gguf ]]; then
  mkdir -p "$models"  # test-llama-archs saves llama-dense.gguf and llama-moe.gguf
  "$bin/test-llama-archs" -a '^llama$' -o "$models" >"$work/logs/model.log" 2>&1
fi

if [[ " $steps " == *" bench "* ]]; then
  echo "llama-bench, random-weight llama (dev none = ggml's CPU backend):" >>"$summary"
  for device in CANN0 none; do
    "$bin/llama-bench" -m "$models/llama-dense.gguf" -dev "$device" -p 64 -n 16 -r 3 -o md \
      2>>"$work/logs/bench.log" | grep '^|' >>"$summary"
  done
fi
if [[ " $steps " == *" graph "* ]]; then
  if [[ ! -f $src/build-graph/build.ninja ]]; then
    cmake -S "$src" -B "$src/build-graph" -G Ninja -DGGML_CANN=on -DUSE_ACL_GRAPH=ON \
      -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_BUILD_SERVER=OFF \
      >"$work/logs/configure-graph.log"
  fi
  ninja -C "$src/build-graph" llama-bench llama-simple >"$work/logs/build-graph.log"
  simple() { "$1/llama-simple" -m "$models/llama-dense.gguf" -n 32 -ngl "$2" "hello world" 2>/dev/null; }
  cpu=$(simple "$bin" 0)
  eager=$(simple "$bin" 99)
  graph=$(simple "$src/build-graph/bin" 99)
  echo >>"$summary"
  verdict="differ"
  [[ -n $cpu && $cpu == "$eager" && $cpu == "$graph" ]] && verdict="the same"
  echo "graph mode: llama-simple's 32 greedy tokens on the CPU, CANN0 eager and CANN0 graph: $verdict" \
    >>"$summary"
  for mode in eager graph; do
    build=$bin
    [[ $mode == graph ]] && build=$src/build-graph/bin
    row=$("$build/llama-bench" -m "$models/llama-dense.gguf" -dev CANN0 -p 0 -n 64 -r 3 -o md \
      2>>"$work/logs/bench.log" | grep '^|' | tail -1)
    echo "$row $mode" >>"$summary"
  done
fi
cat "$summary"
