#!/usr/bin/env bash
# Random stagings (tests/stage_kernels.py batches 200-215: 256 kernels, 71 in
# grid-stride loops) at -O3 and -O0, and 24 random chunk windows (seed 7), on
# the GPU against the emulator's verdicts: plainly, and -O3 under racecheck.
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step
step "stage O3" 150 python3 -m coalda.cli run .device/stage-fuzz/stage.cu --from .device/stage-fuzz/out > /tmp/stage-O3.txt 2>&1
step "stage O0" 150 python3 -m coalda.cli run -O 0 .device/stage-fuzz/stage.cu --from .device/stage-fuzz/out0 > /tmp/stage-O0.txt 2>&1
step "window" 100 python3 -m coalda.cli run .device/window-fuzz/window.cu --from .device/window-fuzz/out > /tmp/window.txt 2>&1
step "stage O3 racecheck" 150 compute-sanitizer --tool racecheck --error-exitcode 9 --report-api-errors no \
  python3 -m coalda.cli run .device/stage-fuzz/stage.cu --from .device/stage-fuzz/out --sizes 700 > /tmp/stage-O3-racecheck.txt 2>&1
for f in /tmp/stage-O3.txt /tmp/stage-O0.txt /tmp/window.txt /tmp/stage-O3-racecheck.txt; do
  echo "== $(basename $f)"; grep -E "MISMATCH|RACE|FAULT" "$f" | head -20; grep -E "comparisons|SUMMARY|error" "$f" | tail -3
done > "$OUT/summary.txt"
tar czf "$OUT/fuzz-outputs.tgz" -C /tmp stage-O3.txt stage-O0.txt window.txt stage-O3-racecheck.txt
