#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh), one call:
# the guard-chain adversary (early loads behind chains of early returns) and
# the early-loads adversary at -O3 and -O0, plainly and under memcheck,
# racecheck and synccheck; staging.cu plainly at n = 1000 and 4099 (the
# pass's vote now takes its tests with selects).
set -u
source scripts/gpu_prelude.sh
for o in 3 0; do
  for a in guard_chains early_loads; do
    SAN_TOOL=150 san adv-$a-O$o testcases/adversarial/$a.cu -O $o --from .device/adv-$a-O$o
  done
done
SAN_TOOLS="memcheck" san staging testcases/staging.cu --from .device/staging --sizes 1000,4099
summarize chains
cat $OUT/log.txt $OUT/summary-chains.txt | grep -v "│"
