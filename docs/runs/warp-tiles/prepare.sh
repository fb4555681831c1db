#!/usr/bin/env bash
# Builds here what docs/runs/warp-tiles/wt.sh runs on the GPU machine (carry
# .whl and .device): testcases/staging_warps.cu as the pass emits it;
# staging_loops.cu's one-element kernels in block tiles (the default) and in
# warp tiles (-coalda-stage-warp-tiles=always), timed in one run; the
# adversarial staging corpora at -O3 and -O0 (their warp-tiled kernels
# among them, the warp-tile corpus too); staging.cu as committed and with
# block tiles wherever they may go (final); 128 random stagings behind a data-dependent early return
# (tests/stage_kernels.py, seeds 300-307, every kernel's guard set to
# data_exit) at -O3 and -O0; and, for the block-or-warp comparison, the
# staging testcases and explorations in warp tiles
# (-coalda-stage-warp-tiles=always) beside their default builds.
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device/warp-always
$C optimize testcases/staging_warps.cu -o .device/staging_warps > /dev/null
$C optimize testcases/staging_loops.cu -o .device/staging_loops > /dev/null
$C optimize testcases/staging_loops.cu -o .device/warp-always/out --pass-arg=-coalda-stage-warp-tiles=always > /dev/null
cp .device/warp-always/out/staging_loops.after.ptx .device/warp-always/staging_loops.ptx
for t in staging uniform_go warp_tiles; do
  for o in 3 0; do
    $C optimize testcases/adversarial/$t.cu -O $o -o .device/adv-$t-O$o --pass-arg=-coalda-stage-small-always > /dev/null
  done
done
# final: the committed pass (warp tiles where measured faster) against the
# same pass with block tiles wherever a block barrier may go (variant block)
$C optimize testcases/staging.cu -o .device/final/staging > /dev/null
$C optimize testcases/staging.cu -o .device/final/block --pass-arg=-coalda-stage-warp-tiles=fallback > /dev/null
cp .device/final/block/staging.after.ptx .device/final/staging-block.ptx && rm -rf .device/final/block
mkdir -p .device/warp-fuzz
.venv/bin/python - <<'PY'
import sys
sys.path.insert(0, "tests")
from stage_kernels import random_kernels
kernels = []
for seed in range(300, 308):
    for k in random_kernels(seed, 16):
        k.guard, k.loop = "data_exit", ""
        kernels.append(k)
open(".device/warp-fuzz/stage.cu", "w").write("".join(k.source() for k in kernels))
open(".device/warp-fuzz/stage.toml", "w").write("sizes = [290, 700]\n\n" + "\n".join(k.spec() for k in kernels))
PY
for o in 3 0; do
  $C optimize .device/warp-fuzz/stage.cu -O $o -o .device/warp-fuzz/out$o --pass-arg=-coalda-stage-small-always > /dev/null
done
# block (default) against warp tiles (always), each file's PTX as a variant
for f in testcases/staging.cu testcases/staging_math.cu testcases/staging_warps.cu \
         docs/runs/staging-math/explore.cu docs/runs/staging-rule/explore.cu; do
  d=$(basename "$(dirname "$f")")-$(basename "$f" .cu)
  $C optimize "$f" -o .device/cmp/$d > /dev/null
  $C optimize "$f" -o .device/cmp/$d-warp --pass-arg=-coalda-stage-warp-tiles=always > /dev/null
  cp .device/cmp/$d-warp/$(basename "$f" .cu).after.ptx .device/cmp/$d-warp.ptx
  rm -rf .device/cmp/$d-warp
done
find .device -name '*.diff' -delete
