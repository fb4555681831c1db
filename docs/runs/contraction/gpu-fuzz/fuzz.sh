#!/usr/bin/env bash
# Random stagings (tests/stage_kernels.py batches 200-215: 256 kernels, 71 in
# grid-stride loops) at -O3 and -O0, and 24 random chunk windows (seed 7), on
# the GPU against the emulator's verdicts: plainly, and -O3 under racecheck.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/coalda-site .whl/*.whl
export PYTHONPATH=/tmp/coalda-site:$PWD PYTHONUNBUFFERED=1 COLUMNS=200
log=$OUT/log.txt
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$log"
step() { local name=$1 limit=$2 s; shift 2; s=$(date +%s); timeout "$limit" "$@"; echo "$name rc=$? $(( $(date +%s) - s ))s" >> "$log"; }
step "stage O3" 150 python3 -m coalda.cli run .device/stage-fuzz/stage.cu --from .device/stage-fuzz/out > /tmp/stage-O3.txt 2>&1
step "stage O0" 150 python3 -m coalda.cli run -O 0 .device/stage-fuzz/stage.cu --from .device/stage-fuzz/out0 > /tmp/stage-O0.txt 2>&1
step "window" 100 python3 -m coalda.cli run .device/window-fuzz/window.cu --from .device/window-fuzz/out > /tmp/window.txt 2>&1
step "stage O3 racecheck" 150 compute-sanitizer --tool racecheck --error-exitcode 9 --report-api-errors no \
  python3 -m coalda.cli run .device/stage-fuzz/stage.cu --from .device/stage-fuzz/out --sizes 700 > /tmp/stage-O3-racecheck.txt 2>&1
for f in /tmp/stage-O3.txt /tmp/stage-O0.txt /tmp/window.txt /tmp/stage-O3-racecheck.txt; do
  echo "== $(basename $f)"; grep -E "MISMATCH|RACE|FAULT" "$f" | head -20; grep -E "comparisons|SUMMARY|error" "$f" | tail -3
done > "$OUT/summary.txt"
cp "$log" "$OUT/"
tar czf "$OUT/fuzz-outputs.tgz" -C /tmp stage-O3.txt stage-O0.txt window.txt stage-O3-racecheck.txt
