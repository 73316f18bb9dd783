#!/usr/bin/env bash
# Installs what openacl needs to build, test and benchmark, from Debian packages.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config python3 binutils   # build (nm reads the objects)
  nlohmann-json3-dev                                  # aclInit configuration files
  libgloo-dev                                         # HCCL: ranks in other processes (Gloo); bench_hccl's peer
  libgtest-dev libgmock-dev libbenchmark-dev          # tests and benchmarks
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers   # the PoCL peer in bench/bench_pocl.cpp
  libopencv-dnn-dev libopencv-imgcodecs-dev           # models (OpenCV DNN), image decode
  libopencv-imgproc-dev libopencv-videoio-dev         # video pipeline: decode/encode clips
  libturbojpeg0-dev libyuv-dev                        # DVPP: JPEG codec, YUV conversion and scaling
  libpng-dev                                          # DVPP: PNG decode
  libavcodec-dev libavutil-dev libswscale-dev         # DVPP video: H.264/H.265 decode and encode
  libonnx-dev libprotobuf-dev                         # reading ONNX graphs
  libdnnl-dev                                         # the compiled model engine (oneDNN)
  libopenmpi-dev openmpi-bin                          # hccl_test under mpirun (optional)
  libonnx-testdata                                    # conformance run and test models
  clang-format                                        # style check
  clang libclang-rt-dev                               # libFuzzer runs (-fsanitize=fuzzer)
  python3-dev python3-numpy python3-pytest            # pyACL: the acl module, its tests
  python3-onnx                                        # pyACL operator tests build ONNX models
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
