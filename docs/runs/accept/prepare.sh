#!/usr/bin/env bash
# Builds here what docs/runs/accept/accept.sh runs on the GPU machine (carry
# .whl and .device): copies.cu and staging.cu as the pass emits them, for one
# bench of both (issue 12's table in one run); transpose.cu and the transpose
# and alias adversaries at -O3 and -O0 for the sanitizers (small elements staged too,
# -coalda-stage-small-always, as tests/test_adversarial.py builds them).
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device
for f in copies staging transpose; do
  $C optimize testcases/$f.cu -o .device/$f > /dev/null
done
for o in 3 0; do
  for a in transposes aliases; do
    $C optimize testcases/adversarial/$a.cu -O $o -o .device/adv-$a-O$o \
      --pass-arg=-coalda-stage-small-always > /dev/null
  done
done
find .device -name '*.diff' -delete
