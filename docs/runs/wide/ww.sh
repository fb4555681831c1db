#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh): all of
# testcases/copies.cu timed with the pass as committed (COALDA) against the
# fast path's form before (variant before), in two runs of the same bench
# (their spread is the noise); rgb_guarded's SASS in both forms (ptxas and
# cuobjdump of the machine's CUDA); then copies.cu, guards.cu and the guards
# and narrowing adversaries plainly and under memcheck, racecheck and
# synccheck. Parts, one device call each: `ww.sh bench`, `ww.sh fast` (the
# guarded and unguarded copies against both variants, into fast-*), `ww.sh
# san`, and `ww.sh san-adv 3|0`, the guards adversary at one level.
set -u
source scripts/gpu_prelude.sh
bench_copies() {  # OUTPUT-NAME, then bench's arguments: two runs of the same bench
  local name=$1 r; shift
  for r in 1 2; do
    step "$name $r" 200 python3 -m coalda.cli bench testcases/copies.cu --from .device/copies --no-nvcc \
      --blocks 128,256,512,1024 --repeat 50 "$@" --json $OUT/$name-$r.json > $OUT/$name-$r.txt 2>&1
  done
}
if [ "$1" = bench ]; then
bench_copies bench --variant before=.device/copies-variants/before.ptx
for p in committed=.device/copies/copies.after.ptx before=.device/copies-variants/before.ptx; do
  ptxas -arch=sm_90 -O3 "${p#*=}" -o /tmp/${p%%=*}.cubin &&
    cuobjdump -sass -fun _Z11rgb_guardedP5PixelPKS_i /tmp/${p%%=*}.cubin > $OUT/rgb_guarded-${p%%=*}.sass 2>&1
done
fi
if [ "$1" = fast ]; then
  V=(); for p in .device/copies-variants/*.ptx; do V+=(--variant "$(basename "$p" .ptx)=$p"); done
  bench_copies fast --kernels rgb,rgb_guarded,ushort3_copy,float3_copy "${V[@]}"
fi
if [ "$1" = san ]; then
san copies testcases/copies.cu --from .device/copies --sizes 1000,4099,65537
for o in 3 0; do
  san guards-O$o testcases/guards.cu -O $o --from .device/guards-O$o --sizes 1000,4099
  SAN_TOOL=200 san adv-narrowing-O$o testcases/adversarial/narrowing.cu -O $o --from .device/adv-narrowing-O$o
done
summarize wide
fi
if [ "$1" = san-adv ]; then  # LEVEL (3 or 0)
  san adv-guards-O$2 testcases/adversarial/guards.cu -O $2 --from .device/adv-guards-O$2
  summarize adv-guards-O$2
fi
cat $OUT/log.txt
