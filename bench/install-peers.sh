#!/usr/bin/env bash
# Installs the peers of bench/models.sh that Debian does not package: ONNX Runtime's CPU engine,
# as the npm package onnxruntime-node (its bundled libonnxruntime). ONNXRUNTIME_NODE_INSTALL=skip
# keeps its install script from fetching the CUDA/TensorRT extras, which need the network
# beyond the registry and are not measured. Idempotent: does nothing when the version is there.
#
#   bench/install-peers.sh [DIR]      # default: build-bench/bench-peers (ignored by git)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${BUILD_DIR:-build-bench}/bench-peers}
version=1.30.0
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "install-peers: Node.js and npm are needed (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
package="$dir/node_modules/onnxruntime-node/package.json"
if [[ -f $package ]] && grep -q "\"version\": \"$version\"" "$package"; then
  exit 0
fi
mkdir -p "$dir"
[[ -f $dir/package.json ]] || echo '{"private": true}' >"$dir/package.json"
echo "install-peers: onnxruntime-node@$version into $dir"
ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$dir" --no-audit --no-fund \
  "onnxruntime-node@$version" >&2
ls "$dir"/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/libonnxruntime.so.1 >/dev/null
