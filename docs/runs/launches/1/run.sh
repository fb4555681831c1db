#!/usr/bin/env bash
# Reshaped launches on the GPU machine (OUT set; carry .device and .whl,
# built by prepare.sh): the probe's three builds, alternating, twice; the
# reshaped build pinned to the original (COALDA_LAUNCH=original) and with
# its choices printed (COALDA_LAUNCH_REPORT=1); the reshaped build at the
# small size under memcheck, racecheck and synccheck.
source scripts/gpu_prelude.sh
d=.device/launches
export LD_LIBRARY_PATH=$PWD/$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for run in 1 2; do
  for build in plain coalda reshape; do
    step "$build-$run" 120 "$d/launch_reshape_$build" 20 > "$OUT/$build-$run.txt" 2>&1
  done
done
COALDA_LAUNCH=original step "reshape-pinned" 120 "$d/launch_reshape_reshape" 20 > "$OUT/reshape-pinned.txt" 2>&1
COALDA_LAUNCH_REPORT=1 step "reshape-report" 120 "$d/launch_reshape_reshape" 3 small > "$OUT/reshape-report.txt" 2>&1
for tool in memcheck racecheck synccheck; do
  step "$tool" 150 compute-sanitizer --tool "$tool" --error-exitcode 9 "$d/launch_reshape_reshape" 1 small \
    > "$OUT/reshape-$tool.txt" 2>&1
done
cp docs/runs/launches/run.sh "$OUT/"
