#!/usr/bin/env bash
# Warp tiles in grid-stride loops on the GPU (docs/benchmarks.md, "Warp tiles
# in grid-stride loops"). Prepare here with docs/runs/warp-loops/prepare.sh,
# then on the GPU machine with OUT set (carry .whl .device):
#  - one bench of staging_loops.cu: the pass (warp tiles per iteration for
#    elements of 24 bytes or more), variant block (block tiles per
#    iteration, as before), variant always (warp tiles for every size);
#  - staging_loops.cu as emitted and with =always under memcheck, racecheck
#    and synccheck;
#  - 128 random grid-stride stagings in warp tiles at -O3 and -O0 against
#    the original, the -O3 ones under racecheck.
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step
mkdir -p /tmp/san
san() {  # NAME, then run's arguments
  local name=$1; shift
  step "plain $name" 60 python3 -m coalda.cli run "$@" > /tmp/san/$name-plain.txt 2>&1
  for tool in memcheck racecheck synccheck; do
    step "$tool $name" 90 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 -m coalda.cli run "$@" > /tmp/san/$name-$tool.txt 2>&1
  done
}
step bench 240 python3 -m coalda.cli bench testcases/staging_loops.cu --from .device/loops \
  --variant block=.device/loops-fallback.ptx --variant always=.device/loops-always.ptx \
  --blocks 128,256,512,1024 --no-nvcc --json "$OUT/bench.json" > "$OUT/bench.txt" 2>&1
san loops testcases/staging_loops.cu --from .device/loops --sizes 1000,4099
san loops-always testcases/staging_loops.cu --from .device/loops-always --sizes 1000,4099
for o in 3 0; do
  step "fuzz O$o" 120 python3 -m coalda.cli run .device/loop-fuzz/stage.cu -O $o --from .device/loop-fuzz/out$o \
    > /tmp/san/fuzz-O$o.txt 2>&1
done
step "fuzz O3 racecheck" 150 compute-sanitizer --tool racecheck --error-exitcode 9 --report-api-errors no \
  python3 -m coalda.cli run .device/loop-fuzz/stage.cu --from .device/loop-fuzz/out3 --sizes 700 \
  > /tmp/san/fuzz-O3-racecheck.txt 2>&1
for f in /tmp/san/*.txt; do
  echo "== $(basename $f)"; grep -E "MISMATCH|RACE|FAULT" "$f" | head -10; grep -E "comparisons|SUMMARY|rror" "$f" | tail -3
done > "$OUT/summary.txt"
tar czf "$OUT/sanitizer.tgz" -C /tmp san
