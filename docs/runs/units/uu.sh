#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh): copies.cu's
# narrow-member kernels (rgb, rgb_guarded, rgb_grid_stride, ushort3_copy) timed with the
# pass as committed (COALDA) against widest units of 8 (mu8) and 4 bytes (mu4),
# two runs of the same bench (their spread is the noise).
set -u
source scripts/gpu_prelude.sh
V=(); for p in .device/copies-variants/*.ptx; do V+=(--variant "$(basename "$p" .ptx)=$p"); done
for r in 1 2; do
  step "bench $r" 200 python3 -m coalda.cli bench testcases/copies.cu --from .device/copies --no-nvcc \
    --kernels rgb,rgb_guarded,rgb_grid_stride,ushort3_copy --blocks 128,256,512,1024 --repeat 50 "${V[@]}" --json $OUT/units-$r.json > $OUT/units-$r.txt 2>&1
done
cat $OUT/log.txt
