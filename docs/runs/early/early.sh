#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh): the
# staged region's first loads of other memory issued before the load phase
# (COALDA, the pass as committed) against `late` (after the load phase's
# barrier, the form before). Parts, one device call each:
#   bench R  testcases/staging.cu whole (issue 12's table) and
#            staging_loops.cu's axpy3 kernels, against late; run R (1, 2);
#            docs/probe/axpy3_vote.cu built with nvcc (the hand-written
#            axpy3 staging, for reference)
#   san 3    staging.cu, staging_loops.cu and the adversaries at -O3,
#   san 0    the adversaries at -O0: plainly and under memcheck, racecheck
#            and synccheck
set -u
source scripts/gpu_prelude.sh
bench() {  # OUTPUT-NAME TESTCASE LIMIT; KERNELS=a,b
  local out=$1 tc=$2 limit=$3 K=()
  [ -n "${KERNELS:-}" ] && K+=(--kernels "$KERNELS")
  step "bench $out" $limit python3 -m coalda.cli bench testcases/$tc.cu --from .device/$tc --no-nvcc \
    --blocks 128,256,512,1024 "${K[@]}" --variant late=.device/$tc-variants/late.ptx \
    --json $OUT/$out.json > $OUT/$out.txt 2>&1
}
if [ "$1" = bench ]; then
  if [ "$2" = 1 ]; then
    bench staging-1 staging 400
  else
    KERNELS=axpy3 bench staging-axpy3-$2 staging 120
  fi
  KERNELS=axpy3,axpy3_grid_stride bench staging_loops-$2 staging_loops 150
  step "nvcc probe" 60 bash -c "nvcc -O3 -arch=sm_90 docs/probe/axpy3_vote.cu -o /tmp/axpy3_vote && /tmp/axpy3_vote" \
    > $OUT/axpy3_vote-$2.txt 2>&1
fi
if [ "$1" = san ]; then  # san 3: the testcases and the adversaries at -O3; san 0: the adversaries at -O0
  o=$2
  if [ "$o" = 3 ]; then
    for f in staging staging_loops; do
      san $f testcases/$f.cu --from .device/$f --sizes 1000,4099
    done
  fi
  for a in staging uniform_go real_shapes warp_tiles early_loads loop_stagings; do
    san adv-$a-O$o testcases/adversarial/$a.cu -O $o --from .device/adv-$a-O$o
  done
  summarize early-O$o
fi
if [ "$1" = resume ]; then  # resume O NAMES...: the rest of a `san O` call that ran past its limit
  o=$2; shift 2
  for a in "$@"; do
    san adv-$a-O$o testcases/adversarial/$a.cu -O $o --from .device/adv-$a-O$o
  done
  summarize early-O$o
fi
cat $OUT/log.txt
