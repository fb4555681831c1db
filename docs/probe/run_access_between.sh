#!/bin/sh
# access_between.cu, built here and run on the GPU machine:
#   docs/probe/run_access_between.sh build OUT   (here: coalda cc, LLVM 19,
#       without the pass: every variant is written by hand)
#   docs/probe/run_access_between.sh run OUT     (there: every variant at
#       the programs' sizes, then compute-sanitizer memcheck, racecheck and
#       synccheck at the small size, where partial warps and blocks take
#       the fallback; well under 90 s on an H200, the sanitizers included:
#       sph's 250 warm-up steps take about 2 s, its timed launches about 1 s)
set -eu
mode=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
case $mode in
build)
  mkdir -p "$out"
  coalda=${COALDA:-.venv/bin/coalda}
  $coalda cc -arch sm_90 -std=c++17 -O3 -fno-coalda "$here/access_between.cu" -o "$out/access_between"
  # the CUDA runtime the build links, for the GPU machine
  mkdir -p "$out/lib"
  cp -L "$(.venv/bin/python -c 'from coalda.driver.cc import find_cudart; from coalda.driver.toolchain import cuda_path; print(find_cudart(cuda_path()))')" "$out/lib/libcudart.so.12"
  ;;
run)
  export LD_LIBRARY_PATH="$out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  nvidia-smi --query-gpu=name --format=csv,noheader
  echo "== sph 2048 after 250 steps, nbody 8000 and 16000"
  "$out/access_between" all
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool (small: sph 500, nbody 1000)"
    compute-sanitizer --tool $tool --error-exitcode 9 "$out/access_between" all small
  done
  ;;
*)
  echo "usage: $0 build|run OUT" >&2
  exit 2
  ;;
esac
