#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh). Parts, one
# device call each:
#   bench 1 testcases/copies.cu and testcases/staging.cu whole, 128 to 1024
#           threads, in one call: issue 12's staging table and its "never
#           below 1.0x" for copies.cu, in one run
#   bench 2 copies.cu again (its run-to-run spread)
#   san     transpose.cu and the transpose adversary (-O3, -O0) plainly and
#           under memcheck, racecheck and synccheck (the adversary at its
#           gpu_sizes: racecheck runs past 90 s there)
#   race    the adversary under racecheck at sizes 1, 33 and 70 (its
#           emulator sizes), 250 s each
#   aliases the alias adversary (-O3, -O0) plainly and under memcheck,
#           racecheck and synccheck
set -u
source scripts/gpu_prelude.sh
if [ "$1" = bench ]; then
  files="copies staging"; [ "$2" = 2 ] && files=copies
  for f in $files; do
    step "bench $f-$2" 280 python3 -m coalda.cli bench testcases/$f.cu --from .device/$f --no-nvcc \
      --blocks 128,256,512,1024 --json $OUT/$f-$2.json > $OUT/$f-$2.txt 2>&1
  done
fi
if [ "$1" = san ]; then
  san transpose testcases/transpose.cu --from .device/transpose --sizes 100,150
  for o in 3 0; do
    san adv-transposes-O$o testcases/adversarial/transposes.cu -O $o --from .device/adv-transposes-O$o
  done
  summarize transposes
fi
if [ "$1" = aliases ]; then  # the alias adversary (its GPU runs: the layouts but alias, the emulator's)
  for o in 3 0; do
    san adv-aliases-O$o testcases/adversarial/aliases.cu -O $o --from .device/adv-aliases-O$o
  done
  summarize aliases
fi
if [ "$1" = race ]; then
  for o in 3 0; do
    SAN_TOOLS=racecheck SAN_TOOL=250 san adv-transposes-race-O$o testcases/adversarial/transposes.cu -O $o \
      --from .device/adv-transposes-O$o --sizes 1,33,70
  done
  summarize transposes-race
fi
cat $OUT/log.txt
