#!/bin/sh
# kalman_chunk_stores.cu and softmax_chunk_stores.cu (issue 39 item 2), built
# here and run on the GPU machine:
#   docs/probe/run_chunk_stores.sh build OUT   (here: coalda cc, LLVM 19)
#   docs/probe/run_chunk_stores.sh run OUT     (there: every variant at the
#       programs' sizes, softmax also as the pass builds it; then
#       compute-sanitizer memcheck, racecheck and synccheck on the plain
#       builds at the small sizes)
set -eu
mode=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
case $mode in
build)
  mkdir -p "$out"
  coalda=${COALDA:-.venv/bin/coalda}
  flags="-arch sm_90 -std=c++17 -O3"
  for p in kalman softmax; do
    $coalda cc $flags -fno-coalda "$here/${p}_chunk_stores.cu" -o "$out/${p}_plain"
    # with the pass: what it does with the probe's kernels, in the findings
    $coalda cc $flags -Wcoalda "$here/${p}_chunk_stores.cu" -o "$out/${p}_coalda" 2> "$out/$p.findings"
    grep 'rewritten,' "$out/$p.findings"
  done
  # the CUDA runtime the builds link, for the GPU machine
  mkdir -p "$out/lib"
  cp -L "$(.venv/bin/python -c 'from coalda.driver.cc import find_cudart; from coalda.driver.toolchain import cuda_path; print(find_cudart(cuda_path()))')" "$out/lib/libcudart.so.12"
  ;;
run)
  export LD_LIBRARY_PATH="$out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  # every step runs, a failed one is named, and the exit status says if any failed
  failed=""
  step() {
    echo "== $*"
    "$@" || { echo "!! exit $?: $*"; failed="$failed
  $*"; }
  }
  step "$out/kalman_plain"  # the pass rewrites nothing in it: kalman_coalda is the same code
  step "$out/softmax_plain"
  step "$out/softmax_coalda"
  for p in kalman softmax; do
    for tool in memcheck racecheck synccheck; do
      step compute-sanitizer --tool $tool --error-exitcode 9 "$out/${p}_plain" small
    done
  done
  [ -z "$failed" ] || { echo "failed:$failed"; exit 1; }
  ;;
*)
  echo "usage: $0 build|run OUT" >&2; exit 2
  ;;
esac
