#!/bin/sh
# geglu_read_only.cu, built here three ways and run on the GPU machine:
#   docs/probe/run_geglu_read_only.sh build OUT   (here: coalda cc, LLVM 19)
#   docs/probe/run_geglu_read_only.sh run OUT     (there: the three builds
#       as main.cu launches them and with FOR_LOOP = 1, then
#       compute-sanitizer memcheck, racecheck and synccheck on the read-only build at
#       the smallest configuration)
set -eu
mode=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
case $mode in
build)
  mkdir -p "$out"
  coalda=${COALDA:-.venv/bin/coalda}
  flags="-arch sm_90 -std=c++17 -O3"
  $coalda cc $flags -fno-coalda "$here/geglu_read_only.cu" -o "$out/geglu_plain"
  # the staging as COALDA did it before the rule this probe led to (the
  # 16-byte-vector rule, StagingCost.cpp): -coalda-stage-small-always
  # bypasses that rule, and stages what the default did before it
  staged="-Wcoalda -mllvm -coalda-stage-small-always"
  $coalda cc $flags $staged "$here/geglu_read_only.cu" -o "$out/geglu_coalda" 2> "$out/coalda.findings"
  $coalda cc $flags $staged -mllvm -coalda-stage-read-only "$here/geglu_read_only.cu" \
    -o "$out/geglu_read-only" 2> "$out/read-only.findings"
  # the CUDA runtime the builds link, for the GPU machine
  mkdir -p "$out/lib"
  cp -L "$(.venv/bin/python -c 'from coalda.driver.cc import find_cudart; from coalda.driver.toolchain import cuda_path; print(find_cudart(cuda_path()))')" "$out/lib/libcudart.so.12"
  ;;
run)
  export LD_LIBRARY_PATH="$out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  nvidia-smi --query-gpu=name --format=csv,noheader
  for loop in "" loop1; do
    for build in plain coalda read-only; do
      echo "== $build ${loop:-as main.cu (FOR_LOOP = 2)}"
      "$out/geglu_$build" $loop
    done
  done
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool (read-only, small, loop1)"
    compute-sanitizer --tool $tool --error-exitcode 9 "$out/geglu_read-only" small loop1
  done
  ;;
esac
