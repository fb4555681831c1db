#!/usr/bin/env bash
# Builds here what docs/runs/wide/ww.sh runs on the GPU machine (carry .whl
# and .device): copies.cu as the pass emits it (.device/copies) and as it
# was before the fast path's one full-row test (variant before:
# -coalda-fast-full-row=false) and before 32-bit unit indices (variant
# index64: -coalda-copy-index32=false); testcases/guards.cu (every spelling of a
# bounds guard) and the guards and narrowing adversaries (rows whose index
# wraps) at -O3 and -O0, for the sanitizers.
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device/copies-variants
$C optimize testcases/copies.cu -o .device/copies > /dev/null
for v in before=-coalda-fast-full-row=false index64=-coalda-copy-index32=false; do
  $C optimize testcases/copies.cu -o /tmp/wide-${v%%=*} --pass-arg=${v#*=} > /dev/null
  cp /tmp/wide-${v%%=*}/copies.after.ptx .device/copies-variants/${v%%=*}.ptx
done
for o in 3 0; do
  $C optimize testcases/guards.cu -O $o -o .device/guards-O$o > /dev/null
  for a in guards narrowing; do
    $C optimize testcases/adversarial/$a.cu -O $o -o .device/adv-$a-O$o > /dev/null
  done
done
find .device -name '*.diff' -delete
