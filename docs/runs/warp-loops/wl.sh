#!/usr/bin/env bash
# Warp tiles in grid-stride loops on the GPU (docs/benchmarks.md, "Warp tiles
# in grid-stride loops"). Prepare here with docs/runs/warp-loops/prepare.sh,
# then on the GPU machine with OUT set (carry .whl .device), `bash
# docs/runs/warp-loops/wl.sh` (main), `... wl.sh continue`, `... wl.sh real`:
#  - one bench of staging_loops.cu: the pass (warp tiles per iteration for
#    elements of 24 bytes or more), variant block (block tiles per
#    iteration, as before), variant always (warp tiles for every size);
#  - staging_loops.cu as emitted and with =always under memcheck, racecheck
#    and synccheck;
#  - 128 random grid-stride stagings in warp tiles at -O3 and -O0 against
#    the original, the -O3 ones under racecheck;
#  - continue: one bench of continue.cu, and it and the warp-tile adversary
#    (its grid_continue loops) at -O3 and -O0 plainly and under memcheck,
#    racecheck and synccheck; real: the real-shapes adversary the same way.
part=${1:-main}
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step, san, summarize
if [ "$part" = main ]; then
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
elif [ "$part" = continue ]; then
step bench-continue 120 python3 -m coalda.cli bench docs/runs/warp-loops/continue.cu --from .device/continue \
  --blocks 128,256,512,1024 --no-nvcc --json "$OUT/bench-continue.json" > "$OUT/bench-continue.txt" 2>&1
san continue docs/runs/warp-loops/continue.cu --from .device/continue --sizes 1000,4099
for o in 3 0; do
  san adv-warp_tiles-O$o testcases/adversarial/warp_tiles.cu -O $o --from .device/adv-warp_tiles-O$o --sizes 300
done
else  # real
for o in 3 0; do
  san adv-real_shapes-O$o testcases/adversarial/real_shapes.cu -O $o --from .device/adv-real_shapes-O$o --sizes 300
done
fi
summarize "$part"
