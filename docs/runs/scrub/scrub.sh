#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh), one call:
#   1. unwritten.cu at -O0 and -O3, three times each with the runner's
#      shared-memory scrub (coalda/check/gpu.py) and three times with the scrub
#      replaced by nothing (as the runner was before): with it, the
#      one-thread overlap launches are "not checked" every time; without it,
#      what they compare depends on what earlier kernels left in shared memory;
#   2. the early-loads adversary's -O3 racecheck without the scrub (its time,
#      150 s at most), then the adversary with the scrub at -O3 plainly and
#      under memcheck, racecheck (200 s at most) and synccheck, and at -O0
#      plainly and under memcheck and synccheck: the scrub kernel disturbs
#      neither the comparisons nor the tools.
set -u
source scripts/gpu_prelude.sh
noscrub="import sys, coalda.check.gpu as g, coalda.cli as c; g.GpuExecutor.scrub = lambda self, *args: None; sys.argv[0] = 'coalda'; c.main()"
mkdir -p /tmp/u
for rep in 1 2 3; do
  for o in 0 3; do
    args="docs/runs/scrub/unwritten.cu -O $o --from .device/unwritten-O$o"
    step "scrub unwritten-O$o-$rep" 60 python3 -m coalda.cli run $args > /tmp/u/scrub-O$o-$rep.txt 2>&1
    step "noscrub unwritten-O$o-$rep" 60 python3 -c "$noscrub" run $args > /tmp/u/noscrub-O$o-$rep.txt 2>&1
  done
done
for f in /tmp/u/*.txt; do
  echo "== $(basename $f)"; grep -E "MISMATCH|not checked|comparisons|match" "$f" | tail -4
done > $OUT/summary-unwritten.txt
tar czf $OUT/unwritten.tgz -C /tmp u
step "racecheck-noscrub adv-early_loads-O3" 150 compute-sanitizer --tool racecheck --error-exitcode 9 \
  --report-api-errors no python3 -c "$noscrub" run testcases/adversarial/early_loads.cu -O 3 \
  --from .device/adv-early_loads-O3 > $OUT/racecheck-noscrub-O3.txt 2>&1
SAN_TOOL=200 san adv-early_loads-O3 testcases/adversarial/early_loads.cu -O 3 --from .device/adv-early_loads-O3
SAN_TOOLS="memcheck synccheck" san adv-early_loads-O0 testcases/adversarial/early_loads.cu -O 0 \
  --from .device/adv-early_loads-O0
summarize early_loads
cat $OUT/log.txt $OUT/summary-early_loads.txt; tail -2 $OUT/racecheck-noscrub-O3.txt
