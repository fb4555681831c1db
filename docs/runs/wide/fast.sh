#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare-fast.sh):
# copies.cu's guarded and unguarded copies timed against the fast path's
# variants, two runs of the same bench.
set -u
source scripts/gpu_prelude.sh
V=(); for p in .device/copies-variants/*.ptx; do V+=(--variant "$(basename "$p" .ptx)=$p"); done
for r in 1 2; do
  step "bench $r" 200 python3 -m coalda.cli bench testcases/copies.cu --from .device/copies --no-nvcc \
    --kernels rgb,rgb_guarded,ushort3_copy,float3_copy --blocks 128,256,512,1024 --repeat 50 "${V[@]}" \
    --json $OUT/fast-$r.json > $OUT/fast-$r.txt 2>&1
done
cat $OUT/log.txt
