#!/usr/bin/env bash
# Grid-stride staging on the GPU (docs/benchmarks.md, "Grid-stride loops"):
# one bench of testcases/staging_loops.cu (the loops beside their one-element
# forms) and of reductions.cu's row_max32 pair, and both files under
# compute-sanitizer memcheck, racecheck and synccheck. Prepare here:
#   .venv/bin/coalda optimize testcases/staging_loops.cu -o .device/staging_loops
#   .venv/bin/coalda optimize testcases/reductions.cu -o .device/reductions
# then, on the GPU machine with OUT set (carry .whl .device): bash gs.sh
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step
step bench 200 python3 -m coalda.cli bench testcases/staging_loops.cu --from .device/staging_loops \
  --blocks 128,256,512,1024 --no-nvcc --json "$OUT/gs-bench.json" --plot "$OUT/gs-bench.png" > "$OUT/gs-bench.txt" 2>&1
step bench-red 100 python3 -m coalda.cli bench testcases/reductions.cu --from .device/reductions \
  --kernels row_max32,row_max32_grid_stride --blocks 128,256,512,1024 --no-nvcc --sizes 67108787 > "$OUT/gs-bench-reductions.txt" 2>&1
mkdir -p /tmp/san
for t in staging_loops reductions; do
  step "plain $t" 60 python3 -m coalda.cli run testcases/$t.cu --from .device/$t --sizes 1000,4099 > /tmp/san/$t-plain.txt 2>&1
  for tool in memcheck racecheck synccheck; do
    step "$tool $t" 100 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 -m coalda.cli run testcases/$t.cu --from .device/$t --sizes 1000,4099 > /tmp/san/$t-$tool.txt 2>&1
  done
done
for f in /tmp/san/*.txt; do echo "== $(basename $f)"; grep -E "SUMMARY|comparisons|MISMATCH|error" "$f" | head -5; done > "$OUT/sanitizer-summary.txt"
tar czf "$OUT/sanitizer.tgz" -C /tmp san
