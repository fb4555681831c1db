#!/usr/bin/env bash
# Reshaped launches on the GPU machine (OUT set; carry .device and .whl,
# built by prepare.sh and prepare_variants.py): the probe's three builds,
# alternating, twice; the reshaped build with its choices printed
# (COALDA_LAUNCH_REPORT=1) and pinned to each kernel (COALDA_LAUNCH); the
# reshaped build at the small size under memcheck, racecheck and synccheck;
# the adversary's grid variants against their originals on the GPU.
source scripts/gpu_prelude.sh
d=.device/launches
export LD_LIBRARY_PATH=$PWD/$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for run in 1 2; do
  for build in plain coalda reshape; do
    step "$build-$run" 120 "$d/launch_reshape_$build" 20 > "$OUT/$build-$run.txt" 2>&1
  done
done
COALDA_LAUNCH_REPORT=1 step "reshape-report" 120 "$d/launch_reshape_reshape" 20 > "$OUT/reshape-report.txt" 2>&1
for pin in original reshaped; do
  COALDA_LAUNCH=$pin step "reshape-$pin" 120 "$d/launch_reshape_reshape" 20 > "$OUT/reshape-$pin.txt" 2>&1
done
for tool in memcheck racecheck synccheck; do
  step "$tool" 100 compute-sanitizer --tool "$tool" --error-exitcode 9 "$d/launch_reshape_reshape" 8 small \
    > "$OUT/reshape-$tool.txt" 2>&1
done
step "variants" 150 python3 docs/runs/launches/check_variants_gpu.py 2 1000,100000 > "$OUT/variants.txt" 2>&1
cp docs/runs/launches/run.sh "$OUT/"
