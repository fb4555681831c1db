#!/usr/bin/env bash
# Warp tiles on the GPU (docs/benchmarks.md, "Warp tiles"). Prepare here with
# docs/runs/warp-tiles/prepare.sh, then on the GPU machine with OUT set
# (carry .whl .device): bash docs/runs/warp-tiles/wt.sh main, then ... compare,
# ... final, ... adversarial (one device call each; main and compare ran
# with the pass before the cost rule: warp tiles only where no block
# barrier may go)
#  - one bench of testcases/staging_warps.cu (2^26 - 77 elements, random
#    alive flags: about one lane in 256 returns early);
#  - one bench of staging_loops.cu's one-element kernels, block tiles (the
#    pass's default) against warp tiles (variant `warp`: the same pass with
#    -coalda-stage-warp-tiles=always), in the same run;
#  - staging_warps.cu, the warp-tiled staging_loops.cu and the adversarial
#    staging corpora at -O3 and -O0 under memcheck, racecheck and synccheck;
#  - 128 random stagings behind a data-dependent early return at -O3 and -O0
#    against the original (compare), the -O3 ones under racecheck (main);
#  - compare: block tiles against warp tiles, one bench per file, for every
#    staged testcase shape and the cost-rule explorations.
part=${1:-main}
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step, san, summarize
if [ "$part" = main ]; then
step bench-warps 120 python3 -m coalda.cli bench testcases/staging_warps.cu --from .device/staging_warps \
  --blocks 128,256,512,1024 --no-nvcc --json "$OUT/bench-warps.json" > "$OUT/bench-warps.txt" 2>&1
step bench-block-vs-warp 150 python3 -m coalda.cli bench testcases/staging_loops.cu --from .device/staging_loops \
  --kernels soa_to_aos,d4_update,axpy3 --variant warp=.device/warp-always/staging_loops.ptx \
  --blocks 128,256,512,1024 --no-nvcc > "$OUT/bench-block-vs-warp.txt" 2>&1
san staging_warps testcases/staging_warps.cu --from .device/staging_warps --sizes 1000,4099
san loops_warp_always testcases/staging_loops.cu --from .device/warp-always/out --sizes 1000,4099
step "fuzz O3 racecheck" 150 compute-sanitizer --tool racecheck --error-exitcode 9 --report-api-errors no \
  python3 -m coalda.cli run .device/warp-fuzz/stage.cu --from .device/warp-fuzz/out3 --sizes 700 \
  > /tmp/san/fuzz-O3-racecheck.txt 2>&1
elif [ "$part" = compare ]; then
for o in 3 0; do
  step "fuzz O$o" 120 python3 -m coalda.cli run .device/warp-fuzz/stage.cu -O $o --from .device/warp-fuzz/out$o \
    --sizes 290,700 > /tmp/san/fuzz-O$o.txt 2>&1
done
# block tiles (COALDA: the pass's default) against warp tiles (variant warp)
cmp() {  # FILE, then bench's arguments
  local f=$1 d; shift; d=$(basename "$(dirname "$f")")-$(basename "$f" .cu)
  step "bench $d" 150 python3 -m coalda.cli bench "$f" --from .device/cmp/$d --variant warp=.device/cmp/$d-warp.ptx \
    --no-nvcc "$@" > "$OUT/cmp-$d.txt" 2>&1
}
cmp testcases/staging_warps.cu --kernels advance --blocks 128,256,512,1024
cmp testcases/staging.cu --kernels d4_update,chunk8,chunk8_guarded,soa_to_aos,axpy3 --blocks 128,256,512,1024
cmp testcases/staging_math.cu --kernels bodies --blocks 128,256,512,1024 --repeat 10
cmp docs/runs/staging-math/explore.cu --kernels one_sin_24,one_sin_32,one_sin_64,fast_32,heavy_32 \
  --blocks 128,256,512 --repeat 10
cmp docs/runs/staging-rule/explore.cu --kernels d3_axpy,f3_triple --blocks 128,256,512,1024 --repeat 10
elif [ "$part" = final ]; then
# the committed pass: staging.cu (issue 12's table) against the same pass with
# block tiles wherever they may go (variant block), and staging_warps.cu
step bench-staging 240 python3 -m coalda.cli bench testcases/staging.cu --from .device/final/staging \
  --variant block=.device/final/staging-block.ptx --blocks 128,256,512,1024 --no-nvcc \
  --json "$OUT/final-bench-staging.json" > "$OUT/final-bench-staging.txt" 2>&1
step bench-warps 120 python3 -m coalda.cli bench testcases/staging_warps.cu --from .device/staging_warps \
  --blocks 128,256,512,1024 --no-nvcc > "$OUT/final-bench-warps.txt" 2>&1
san staging testcases/staging.cu --from .device/final/staging --sizes 1000,4099
san staging_warps testcases/staging_warps.cu --from .device/staging_warps --sizes 1000,4099
for o in 3 0; do
  san adv-warp_tiles-O$o testcases/adversarial/warp_tiles.cu -O $o --from .device/adv-warp_tiles-O$o --sizes 300
done
else
# the adversarial staging corpora with the default options (large elements
# in warp tiles), and the warp-tile corpus again after final's own_shared fix
for t in staging uniform_go warp_tiles; do
  for o in 3 0; do
    san adv-$t-O$o testcases/adversarial/$t.cu -O $o --from .device/adv-$t-O$o --sizes 300
  done
done
fi
summarize "$part"
