#!/usr/bin/env bash
# Records written in part on the GPU (docs/benchmarks.md, "Records written in
# part"). Prepare here with docs/runs/partial/prepare.sh, then on the GPU
# machine with OUT set (carry .whl .device), `bash docs/runs/partial/pp.sh`
# (main), `... pp.sh fuzz`, `... pp.sh real` (and `diag`: d4diag.py;
# `bench-c`: three kernels benched again after bench's NaN-payload check;
# `bench-d`: the kernels whose decision the final cost rule changed):
#  - main: a bench of staging_partial.cu (in two halves, by kernel): the
#    pass, variant forced (the cost rule's refusals staged), variant block
#    (block tiles for every size), at 128-1024 threads; staging_partial.cu
#    as emitted and forced under memcheck, racecheck and synccheck (skipped
#    with BENCH_ONLY set);
#  - fuzz: 128 random kernels writing part of their elements at -O3 and -O0
#    against the original, the -O3 ones under racecheck;
#  - real: staging_partial.cu again (its later kernels) and the real-shapes
#    adversary at -O3 and -O0, plainly and under the three sanitizers.
part=${1:-main}
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step, san, summarize
bench_partial() {  # NAME KERNELS: one bench of those kernels, the pass and both variants
  step bench-$1 290 python3 -m coalda.cli bench testcases/staging_partial.cu --from .device/partial \
    --variant forced=.device/partial-forced.ptx --variant block=.device/partial-block.ptx --kernels $2 \
    --blocks 128,256,512,1024 --no-nvcc --json "$OUT/bench-$1.json" > "$OUT/bench-$1.txt" 2>&1
}
if [ "$part" = main ]; then
# two benches (each within a step's time): the 32- and 40-byte records, then
# the 16- and 64-byte ones
bench_partial a nbody_update,nbody_mass,sph_integrate,sph_neighbour,d4_three
bench_partial b xyz_write,rgb_scale,e64_one,e64_half,e64_quarter
[ -n "${BENCH_ONLY:-}" ] && exit 0
san partial testcases/staging_partial.cu --from .device/partial --sizes 1000,4099
san partial-forced testcases/staging_partial.cu --from .device/partial-forced --sizes 1000,4099
elif [ "$part" = bench-c ]; then
# after the NaN-payload check (bench's yellow `differs ... all in double
# NaNs`): d4_three again, and the two kernels added after the first bench
bench_partial c d4_three,both_arms,flag_bounce
exit 0
elif [ "$part" = bench-d ]; then
# the pass as committed (the gap option off by default, a narrow update of
# a large record not small): the kernels whose decision that changed
bench_partial d e64_one,e64_quarter,flag_bounce
exit 0
elif [ "$part" = diag ]; then
step d4diag 200 python3 docs/runs/partial/d4diag.py > "$OUT/d4diag.txt" 2>&1
exit 0
elif [ "$part" = fuzz ]; then
for o in 3 0; do
  step "fuzz O$o" 150 python3 -m coalda.cli run .device/partial-fuzz/stage.cu -O $o --from .device/partial-fuzz/out$o \
    --sizes 700,4100 > /tmp/san/fuzz-O$o.txt 2>&1
done
step "fuzz O3 racecheck" 180 compute-sanitizer --tool racecheck --error-exitcode 9 --report-api-errors no \
  python3 -m coalda.cli run .device/partial-fuzz/stage.cu --from .device/partial-fuzz/out3 --sizes 700 \
  > /tmp/san/fuzz-O3-racecheck.txt 2>&1
else  # real
san partial testcases/staging_partial.cu --from .device/partial --sizes 1000,4099
for o in 3 0; do
  san adv-real_shapes-O$o testcases/adversarial/real_shapes.cu -O $o --from .device/adv-real_shapes-O$o --sizes 300
done
fi
summarize "$part"
