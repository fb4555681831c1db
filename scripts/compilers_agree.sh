#!/usr/bin/env bash
# The plugin built by g++ and by clang++-19 must emit the same IR: a call
# whose arguments both emit instructions is evaluated in an order each
# compiler chooses (g++ its last argument first, clang its first), and such
# calls once made 265 of 283 inputs differ. Builds both into build/g++ and
# build/clang++ and runs them over every lit input under four option sets
# (`make compilers-agree`); prints the inputs that differ, exits 1 if any.
set -uo pipefail
cd "$(dirname "$0")/.."
opt=/usr/lib/llvm-19/bin/opt
gen=$(command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
for cxx in g++ clang++-19; do
  dir=build/${cxx%-19}
  [ -f "$dir/CMakeCache.txt" ] || cmake -S pass -B "$dir" $gen -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
  cmake --build "$dir" >/dev/null || { echo "compilers-agree: the $cxx build failed" >&2; exit 2; }
done
differ=0 total=0
for f in $(find pass/test -name '*.ll' | sort); do
  for extra in "" -coalda-stage-small-always -coalda-max-unit=4 -coalda-runtime-checks=false; do
    a=$("$opt" -load-pass-plugin=build/g++/libCoalda.so -passes=coalda $extra -S "$f" -o - 2>/dev/null | md5sum)
    b=$("$opt" -load-pass-plugin=build/clang++/libCoalda.so -passes=coalda $extra -S "$f" -o - 2>/dev/null | md5sum)
    total=$((total + 1))
    if [ "$a" != "$b" ]; then differ=$((differ + 1)); echo "differs: $f $extra"; fi
  done
done
echo "compilers-agree: $differ of $total outputs differ between g++ and clang++-19"
[ "$differ" -eq 0 ]
