#!/usr/bin/env bash
# Run 12's builds (here, from the repository root): is the 0.6 us that the
# kernel's trials gained over the variant's on 4-5 us launches (runs 10 and
# 11) the code, the variant's launch, or the order of the trials? scan2,
# rodinia-gaussian16 and layout built with -fcoalda-reshape twice: with the
# runtime as committed (the kernel's trial first in each pair) and with a
# copy of it whose trials run the variant first (two lines changed).
set -euo pipefail
out=build/order-probe
rm -rf "$out" && mkdir -p "$out"
sed -e 's/unsigned Which = I % 2;/unsigned Which = 1 - I % 2;/' \
    -e 's/Use = Reserved % 2 ? Choice::Variant : Choice::Original;/Use = Reserved % 2 ? Choice::Original : Choice::Variant;/' \
    pass/runtime/LaunchGrid.cpp > "$out/LaunchGridVariantFirst.cpp"
[ "$(diff pass/runtime/LaunchGrid.cpp "$out/LaunchGridVariantFirst.cpp" | grep -c '^>')" = 2 ]
clang++-19 -O2 -std=c++17 -fno-exceptions -fno-rtti -fPIC -c -emit-llvm "$out/LaunchGridVariantFirst.cpp" \
  -o "$out/variant-first.bc"
progs=scan2,rodinia-gaussian16,layout
.venv/bin/python scripts/corpus.py build --reshape --only $progs --out "$out/kernel-first" > "$out/build.log"
COALDA_LAUNCH_RUNTIME=$PWD/$out/variant-first.bc \
  .venv/bin/python scripts/corpus.py build --reshape --only $progs --out "$out/variant-first" >> "$out/build.log"
tar czf build/order-probe.tar.gz -C build order-probe/kernel-first order-probe/variant-first
