#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh): the
# staged row copies without a loop (the pass as committed, COALDA) against
# the loop over 64-bit (loop64, the form before) and 32-bit (loop32) unit
# indices. Parts, one device call each:
#   staging R testcases/staging.cu (issue 12's table), run R (1, 2: two runs
#             of the same bench, their spread is the noise), and
#             docs/probe/axpy3_vote.cu built with nvcc (the hand-written axpy3
#             staging, for reference)
#   others F [OUT KERNELS]  one run of testcase F (or of its KERNELS, into
#             OUT) against loop64 only (staging_warps ran
#             against both, the first time, with the others in one call
#             that ran past its limit: `others` then benched them all against
#             both variants with 200 s each)
#   san       the staging testcases and adversaries plainly and under
#             memcheck, racecheck and synccheck
set -u
source scripts/gpu_prelude.sh
bench() {  # OUTPUT-NAME TESTCASE LIMIT [VARIANT...] (default: all); KERNELS=a,b
  local out=$1 tc=$2 limit=$3 V=() p v; shift 3
  [ -n "${KERNELS:-}" ] && V+=(--kernels "$KERNELS")
  for p in .device/$tc-variants/*.ptx; do
    v=$(basename "$p" .ptx)
    if [ $# = 0 ] || [[ " $* " == *" $v "* ]]; then V+=(--variant "$v=$p"); fi
  done
  step "bench $out" $limit python3 -m coalda.cli bench testcases/$tc.cu --from .device/$tc --no-nvcc \
    --blocks 128,256,512,1024 "${V[@]}" --json $OUT/$out.json > $OUT/$out.txt 2>&1
}
if [ "$1" = staging ]; then
  bench staging-$2 staging 400
  step "nvcc probe" 60 bash -c "nvcc -O3 -arch=sm_90 docs/probe/axpy3_vote.cu -o /tmp/axpy3_vote && /tmp/axpy3_vote" \
    > $OUT/axpy3_vote-$2.txt 2>&1
fi
if [ "$1" = others ]; then
  KERNELS=${4:-} bench ${3:-$2} $2 270 loop64
fi
if [ "$1" = san ]; then
  for f in staging staging_loops staging_warps staging_partial staging_math; do
    san $f testcases/$f.cu --from .device/$f --sizes 1000,4099
  done
  for o in 3 0; do
    for a in staging warp_tiles warps; do
      san adv-$a-O$o testcases/adversarial/$a.cu -O $o --from .device/adv-$a-O$o
    done
  done
  summarize unroll
fi
cat $OUT/log.txt
