#!/bin/sh
# columns_walked.cu, built here and run on the GPU machine:
#   docs/probe/run_columns_walked.sh build OUT   (here: coalda cc -fno-coalda,
#       LLVM 19; and once with the pass and -Wcoalda, for its findings only:
#       OUT/coalda.findings)
#   docs/probe/run_columns_walked.sh run OUT     (there: every program at its
#       recipe's sizes, then compute-sanitizer memcheck and racecheck on all of
#       them at the small sizes; about a minute on an H200)
set -eu
mode=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
case $mode in
build)
  mkdir -p "$out"
  coalda=${COALDA:-.venv/bin/coalda}
  flags="-arch sm_90 -std=c++17 -O3"
  # the variants are hand-written: the pass stays out of the timed build
  $coalda cc $flags -fno-coalda "$here/columns_walked.cu" -o "$out/columns_walked"
  # what the pass says of the orig twins (the header of columns_walked.cu
  # sums it up); this build is not run: it also rewrites Fan2 and softMax
  $coalda cc $flags -Wcoalda "$here/columns_walked.cu" -o "$out/columns_walked_coalda" 2> "$out/coalda.findings"
  # the CUDA runtime the builds link, for the GPU machine
  mkdir -p "$out/lib"
  cp -L "$(.venv/bin/python -c 'from coalda.driver.cc import find_cudart; from coalda.driver.toolchain import cuda_path; print(find_cudart(cuda_path()))')" "$out/lib/libcudart.so.12"
  ;;
run)
  export LD_LIBRARY_PATH="$out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  # one process a program: a failed check in one still lets the others run
  status=0
  for prog in softmax gaussian rodinia16 rodinia32; do
    echo "== $prog"
    "$out/columns_walked" $prog || status=1
  done
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool (all, small)"
    compute-sanitizer --tool $tool --error-exitcode 9 "$out/columns_walked" all small || status=1
  done
  exit $status
  ;;
*)
  echo "usage: $0 build|run OUT" >&2
  exit 2
  ;;
esac
