#!/usr/bin/env bash
# Run 13's builds (here, from the repository root): run 12 found the choice's
# trials biased by their order (the first of each pair faster). Two copies
# of the runtime with four rounds in the Thue-Morse order (K V V K V K K V:
# each code first in half the pairs, and as often early as late), one
# starting with the kernel and one with the variant; scan2,
# rodinia-gaussian16 and layout built with -fcoalda-reshape against each.
set -euo pipefail
out=build/order-probe2
rm -rf "$out" && mkdir -p "$out"
for first in kernel variant; do
  flip=$([ $first = kernel ] && echo "" || echo "1 - ")
  sed -e 's/constexpr unsigned Rounds = 3;/constexpr unsigned Rounds = 4;/' \
      -e "s/unsigned Which = I % 2;/unsigned Which = ${flip}__builtin_popcount(I) % 2;/" \
      -e "s/Use = Reserved % 2 ? Choice::Variant : Choice::Original;/Use = (${flip}__builtin_popcount(Reserved) % 2) ? Choice::Variant : Choice::Original;/" \
      pass/runtime/LaunchGrid.cpp > "$out/LaunchGrid-$first.cpp"
  [ "$(diff pass/runtime/LaunchGrid.cpp "$out/LaunchGrid-$first.cpp" | grep -c '^>')" = 3 ]
  clang++-19 -O2 -std=c++17 -fno-exceptions -fno-rtti -fPIC -c -emit-llvm "$out/LaunchGrid-$first.cpp" \
    -o "$out/$first-first.bc"
  COALDA_LAUNCH_RUNTIME=$PWD/$out/$first-first.bc .venv/bin/python scripts/corpus.py build --reshape \
    --only scan2,rodinia-gaussian16,layout --out "$out/$first-first" >> "$out/build.log"
done
tar czf build/order-probe2.tar.gz -C build order-probe2/kernel-first order-probe2/variant-first
