#!/usr/bin/env bash
# Builds here what docs/runs/warp-loops/wl.sh runs on the GPU machine (carry
# .whl and .device): testcases/staging_loops.cu as the pass emits it (warp
# tiles per iteration for elements of 24 bytes or more), the same with block
# tiles per iteration (-coalda-stage-warp-tiles=fallback, variant block) and
# with warp tiles for every element size (=always, variant always); and 128
# random stagings in grid-stride loops (tests/stage_kernels.py, seeds
# 400-407, each kernel put in a loop) at -O3 and -O0, in warp tiles (=always);
# for wl.sh's `continue` part: continue.cu (grid-stride loops that skip dead
# particles), and the warp-tile and real-shapes adversaries at -O3 and -O0
# (-coalda-stage-small-always, as their tests).
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device/loop-fuzz
$C optimize testcases/staging_loops.cu -o .device/loops > /dev/null
for v in fallback always; do
  $C optimize testcases/staging_loops.cu -o .device/loops-$v --pass-arg=-coalda-stage-warp-tiles=$v > /dev/null
  cp .device/loops-$v/staging_loops.after.ptx .device/loops-$v.ptx
done
.venv/bin/python - <<'PY'
import sys
sys.path.insert(0, "tests")
from stage_kernels import LOOPS, random_kernels
kernels = []
for seed in range(400, 408):
    for j, k in enumerate(random_kernels(seed, 16)):
        k.loop = k.loop or list(LOOPS)[j % len(LOOPS)]
        k.collective = k.neighbour = ""
        kernels.append(k)
open(".device/loop-fuzz/stage.cu", "w").write("".join(k.source() for k in kernels))
open(".device/loop-fuzz/stage.toml", "w").write("sizes = [290, 700, 4099]\n\n" + "\n".join(k.spec() for k in kernels))
PY
for o in 3 0; do
  $C optimize .device/loop-fuzz/stage.cu -O $o -o .device/loop-fuzz/out$o \
    --pass-arg=-coalda-stage-small-always --pass-arg=-coalda-stage-warp-tiles=always > /dev/null
done
$C optimize docs/runs/warp-loops/continue.cu -o .device/continue > /dev/null
for t in warp_tiles real_shapes; do
  for o in 3 0; do
    $C optimize testcases/adversarial/$t.cu -O $o -o .device/adv-$t-O$o --pass-arg=-coalda-stage-small-always > /dev/null
  done
done
find .device -name '*.diff' -delete
