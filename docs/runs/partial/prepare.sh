#!/usr/bin/env bash
# Builds here what docs/runs/partial/pp.sh runs on the GPU machine (carry
# .whl and .device): testcases/staging_partial.cu as the pass emits it
# (records written in part, the store phase masked), the same with the cost
# rule's refusals forced (variant forced: -coalda-stage-partial-gap=0
# -coalda-stage-small-always) and in block tiles (variant block:
# -coalda-stage-warp-tiles=fallback); 128 random kernels that write part of
# their elements (tests/stage_kernels.py's `partial`, seeds 500-507, half of
# them also writing a neighbour's unwritten member) at -O3 and -O0; and the
# real-shapes adversary at -O3 and -O0 (-coalda-stage-small-always, as its
# test), whose records written in part are now staged.
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device/partial-fuzz
$C optimize testcases/staging_partial.cu -o .device/partial > /dev/null
for v in "forced -coalda-stage-partial-gap=0 -coalda-stage-small-always" "block -coalda-stage-warp-tiles=fallback"; do
  set -- $v; name=$1; shift
  $C optimize testcases/staging_partial.cu -o .device/partial-$name $(printf -- '--pass-arg=%s ' "$@") > /dev/null
  cp .device/partial-$name/staging_partial.after.ptx .device/partial-$name.ptx
done
.venv/bin/python - <<'PY'
import sys
import numpy as np
sys.path.insert(0, "tests")
from stage_kernels import random_kernels
kernels = []
for seed in range(500, 508):
    rng = np.random.default_rng([seed, 9])
    for k in random_kernels(seed, 16):
        k.op = "partial"
        k.collective = k.neighbour = ""
        k.partial_rmw = bool(rng.random() < 0.5)
        k.alias_write = bool(rng.random() < 0.5) and not k.epilogue and k.branch != "cond_read"
        kernels.append(k)
open(".device/partial-fuzz/stage.cu", "w").write("".join(k.source() for k in kernels))
open(".device/partial-fuzz/stage.toml", "w").write("sizes = [290, 700, 4100]\n\n" + "\n".join(k.spec() for k in kernels))
PY
for o in 3 0; do
  $C optimize .device/partial-fuzz/stage.cu -O $o -o .device/partial-fuzz/out$o \
    --pass-arg=-coalda-stage-small-always > /dev/null
  $C optimize testcases/adversarial/real_shapes.cu -O $o -o .device/adv-real_shapes-O$o \
    --pass-arg=-coalda-stage-small-always > /dev/null
done
find .device -name '*.diff' -delete
