#!/usr/bin/env bash
# Builds here what docs/runs/unroll/un.sh runs on the GPU machine (carry .whl
# and .device): the staging testcases as the pass emits them (.device/NAME),
# and two variants each in .device/NAME-variants/: loop64, the staged row
# copy as it was (a loop over 64-bit unit indices: -coalda-stage-index32=false
# -coalda-stage-unroll=0), and loop32 (the loop, over 32-bit indices:
# -coalda-stage-unroll=0); the staging adversaries at -O3 and -O0 for the
# sanitizers.
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device
for f in staging staging_loops staging_warps staging_partial staging_math; do
  $C optimize testcases/$f.cu -o .device/$f > /dev/null
  mkdir -p .device/$f-variants
  for v in "loop64 -coalda-stage-index32=false -coalda-stage-unroll=0" "loop32 -coalda-stage-unroll=0"; do
    set -- $v; name=$1; shift
    $C optimize testcases/$f.cu -o /tmp/unroll-$f-$name $(printf -- '--pass-arg=%s ' "$@") > /dev/null
    cp /tmp/unroll-$f-$name/$f.after.ptx .device/$f-variants/$name.ptx
  done
done
for o in 3 0; do
  for a in staging warp_tiles warps; do
    $C optimize testcases/adversarial/$a.cu -O $o -o .device/adv-$a-O$o > /dev/null
  done
done
find .device -name '*.diff' -delete
