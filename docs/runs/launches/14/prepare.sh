#!/usr/bin/env bash
# Run 14's builds (here, from the repository root): the runtime with four
# rounds in the Thue-Morse order and each code's median launch (as
# committed after run 13), and a copy of it whose trials start with the
# variant (one line changed); scan2, rodinia-gaussian16 and layout built
# with -fcoalda-reshape against each.
set -euo pipefail
out=build/order-probe3
rm -rf "$out" && mkdir -p "$out"
sed -e 's/return __builtin_popcount(I) % 2 ? Choice::Variant : Choice::Original;/return __builtin_popcount(I) % 2 ? Choice::Original : Choice::Variant;/' \
    pass/runtime/LaunchGrid.cpp > "$out/LaunchGridVariantFirst.cpp"
[ "$(diff pass/runtime/LaunchGrid.cpp "$out/LaunchGridVariantFirst.cpp" | grep -c '^>')" = 1 ]
clang++-19 -O2 -std=c++17 -fno-exceptions -fno-rtti -fPIC -c -emit-llvm "$out/LaunchGridVariantFirst.cpp" \
  -o "$out/variant-first.bc"
progs=scan2,rodinia-gaussian16,layout
.venv/bin/python scripts/corpus.py build --reshape --only $progs --out "$out/kernel-first" > "$out/build.log"
COALDA_LAUNCH_RUNTIME=$PWD/$out/variant-first.bc \
  .venv/bin/python scripts/corpus.py build --reshape --only $progs --out "$out/variant-first" >> "$out/build.log"
tar czf build/order-probe3.tar.gz -C build order-probe3/kernel-first order-probe3/variant-first
