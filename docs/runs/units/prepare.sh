#!/usr/bin/env bash
# Builds here what docs/runs/units/uu.sh runs on the GPU machine (carry .whl
# and .device): testcases/copies.cu as the pass emits it (.device/copies) and
# with narrower widest units (variants mu8: -coalda-max-unit=8, mu4:
# -coalda-max-unit=4), to see whether rows of 1024 threads of narrow members
# (rgb_guarded: 192 of 1024 threads move a 16-byte unit) gain from more
# threads moving smaller units.
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device/copies-variants
$C optimize testcases/copies.cu -o .device/copies > /dev/null
for v in mu8=-coalda-max-unit=8 mu4=-coalda-max-unit=4; do
  $C optimize testcases/copies.cu -o /tmp/units-${v%%=*} --pass-arg=${v#*=} > /dev/null
  cp /tmp/units-${v%%=*}/copies.after.ptx .device/copies-variants/${v%%=*}.ptx
done
find .device -name '*.diff' -delete
