#!/usr/bin/env bash
# Builds here what docs/runs/early/early.sh runs on the GPU machine (carry
# .whl and .device): staging.cu and staging_loops.cu as the pass emits them
# (.device/NAME) and the variant `late` (-coalda-stage-early-loads=0: the
# region's loads of other memory after the load phase's barrier, the form
# before) in .device/NAME-variants/; the staging adversaries and
# early_loads.cu at -O3 and -O0 for the sanitizers (small elements staged
# too, -coalda-stage-small-always, as tests/test_adversarial.py builds them).
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device
for f in staging staging_loops; do
  $C optimize testcases/$f.cu -o .device/$f > /dev/null
  mkdir -p .device/$f-variants
  $C optimize testcases/$f.cu -o /tmp/early-$f-late --pass-arg=-coalda-stage-early-loads=0 > /dev/null
  cp /tmp/early-$f-late/$f.after.ptx .device/$f-variants/late.ptx
done
for o in 3 0; do
  for a in staging uniform_go real_shapes warp_tiles early_loads loop_stagings; do
    [ -f testcases/adversarial/$a.cu ] || continue
    $C optimize testcases/adversarial/$a.cu -O $o -o .device/adv-$a-O$o --pass-arg=-coalda-stage-small-always > /dev/null
  done
done
find .device -name '*.diff' -delete
