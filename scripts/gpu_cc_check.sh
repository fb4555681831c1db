#!/usr/bin/env bash
# Whole programs built by `coalda cc`, checked on a GPU against the same build
# without the COALDA plugin.
#
#   scripts/gpu_cc_check.sh build [DIR]   here (clang-19, the plugin, .venv):
#       builds every testcases/ program with a main twice into DIR (default
#       build/cc-check): PROG.coalda (coalda cc: the plugin on the device side)
#       and PROG.plain (coalda cc -fno-coalda: the same clang-19 -O3 steps, no
#       plugin), and copies the CUDA 12 runtime (libcudart.so.12) beside them.
#       GPU_CC_CHECK_WALKTHROUGH=0 leaves out README's walkthrough programs
#       (tests/test_cc.py: tests/test_walkthrough.py builds them already).
#   scripts/gpu_cc_check.sh run [DIR]     on the GPU machine (bash and DIR only;
#       no clang, no Python): runs both builds of every program on the same
#       arguments, diffs their outputs and exit codes, and requires exit 0
#       and no MISMATCH. Exit 0 when all agree, 1 otherwise.
set -euo pipefail

mode=${1:-}
dir=${2:-build/cc-check}

# program stem -> source, and the argument lists each program runs with
# (rgb_main's argument is the number of pixels; "" is its default size).
# cmake_example and walkthrough_app are README's walkthrough (examples/cmake,
# built with CMake and coalda-cc, and with `coalda cc` directly).
sources=(testcases/programs/rgb_main.cu testcases/rgb.cu)
stems=(rgb_main rgb cmake_example walkthrough_app)
args_rgb_main=("" 1 31 255 256 1000 65537 33554437)
args_rgb=("")
args_cmake_example=("")
args_walkthrough_app=("")
example=examples/cmake
example_sources=("$example/src/main.cpp" "$example/src/copy.cu" "$example/src/gray.cu")
example_flags=(-I "$example/include" -DBLOCK=256 -std=c++17)

usage() {
  echo "usage: $0 build|run [DIR]   (DIR defaults to build/cc-check)" >&2
  exit 2
}

build() {
  cd "$(dirname "$0")/.."
  local coalda=.venv/bin/coalda src stem plugin
  [ -x "$coalda" ] || { echo "gpu_cc_check: error: $coalda not found; run make setup" >&2; exit 1; }
  mkdir -p "$dir"
  local manifest="$dir/MANIFEST"
  {
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
    clang++-19 --version | head -1
    plugin=$(.venv/bin/python -c 'from coalda.driver.toolchain import find_plugin; print(find_plugin())')
    echo "plugin $plugin sha256 $(sha256sum "$plugin" | cut -d' ' -f1)"
  } > "$manifest"
  for src in "${sources[@]}"; do
    stem=$(basename "$src" .cu)
    "$coalda" cc "$src" -o "$dir/$stem.coalda"
    "$coalda" cc -fno-coalda "$src" -o "$dir/$stem.plain"
    echo "$stem.coalda: coalda cc $src" >> "$manifest"
    echo "$stem.plain:  coalda cc -fno-coalda $src" >> "$manifest"
  done
  # README's walkthrough, step 6: CMake with coalda-cc (and the same with
  # -fno-coalda), and coalda cc directly.
  local flavour flag
  local flavours=(coalda plain)
  [ "${GPU_CC_CHECK_WALKTHROUGH:-1}" != 0 ] || flavours=()
  for flavour in "${flavours[@]}"; do
    flag=$([ "$flavour" = plain ] && echo -fno-coalda || true)
    cmake -S "$example" -B "$dir/cmake-$flavour" -DCMAKE_CXX_COMPILER="$PWD/.venv/bin/coalda-cc" \
      -DCMAKE_CXX_FLAGS="$flag" > /dev/null
    cmake --build "$dir/cmake-$flavour" > /dev/null
    cp "$dir/cmake-$flavour/cmake_example" "$dir/cmake_example.$flavour"
    # shellcheck disable=SC2086  # an empty flag stays out
    "$coalda" cc $flag "${example_sources[@]}" "${example_flags[@]}" -o "$dir/walkthrough_app.$flavour"
    rm -rf "$dir/cmake-$flavour"
  done
  if [ "${GPU_CC_CHECK_WALKTHROUGH:-1}" != 0 ]; then
    echo "cmake_example.coalda: cmake -S $example -DCMAKE_CXX_COMPILER=coalda-cc; cmake --build" >> "$manifest"
    echo "cmake_example.plain:  the same with -DCMAKE_CXX_FLAGS=-fno-coalda" >> "$manifest"
    echo "walkthrough_app.coalda: coalda cc ${example_sources[*]} ${example_flags[*]}" >> "$manifest"
    echo "walkthrough_app.plain:  coalda cc -fno-coalda (the same)" >> "$manifest"
  fi
  local cudart
  cudart=$(.venv/bin/python -c 'from coalda.driver.cc import find_cudart; from coalda.driver.toolchain import cuda_path; print(find_cudart(cuda_path()))')
  cp -L "$cudart" "$dir/libcudart.so.12"
  (cd "$dir" && sha256sum ./*.coalda ./*.plain libcudart.so.12) >> "$manifest"
  echo "gpu_cc_check: built $(ls "$dir" | grep -c -e '\.coalda$' -e '\.plain$') executables in $dir; on the GPU machine: scripts/gpu_cc_check.sh run $dir"
}

run() {
  [ -d "$dir" ] || { echo "gpu_cc_check: error: $dir not found; build it with '$0 build $dir' where clang-19 is" >&2; exit 1; }
  dir=$(cd "$dir" && pwd)
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  command -v nvidia-smi >/dev/null && nvidia-smi -L || true
  [ -f "$dir/MANIFEST" ] && head -2 "$dir/MANIFEST"
  local failures=0 runs=0 src stem arg out_c out_p rc_c rc_p
  local tmp
  tmp=$(mktemp -d)
  trap "rm -rf '$tmp'" EXIT
  for stem in "${stems[@]}"; do
    local -n arglist="args_${stem}"
    for arg in "${arglist[@]}"; do
      runs=$((runs + 1))
      out_c="$tmp/$stem.$runs.coalda" out_p="$tmp/$stem.$runs.plain"
      # shellcheck disable=SC2086  # an empty argument list stays empty
      set +e
      "$dir/$stem.coalda" $arg > "$out_c" 2>&1; rc_c=$?
      "$dir/$stem.plain" $arg > "$out_p" 2>&1; rc_p=$?
      set -e
      echo "== $stem ${arg:-(default)}: coalda exit $rc_c, plain exit $rc_p"
      cat "$out_c"
      if [ "$rc_c" -ne 0 ] || [ "$rc_p" -ne 0 ] || grep -q MISMATCH "$out_c" "$out_p"; then
        echo "FAIL: a non-zero exit or a MISMATCH"
        failures=$((failures + 1))
      fi
      if ! diff -u --label "$stem.plain" --label "$stem.coalda" "$out_p" "$out_c"; then
        echo "FAIL: the outputs differ"
        failures=$((failures + 1))
      fi
    done
  done
  if [ "$failures" -eq 0 ]; then
    echo "gpu_cc_check: all $runs runs: coalda and plain builds agree, every copy ok"
  else
    echo "gpu_cc_check: $failures failures in $runs runs"
    exit 1
  fi
}

case "$mode" in
  build) build ;;
  run) run ;;
  *) usage ;;
esac
