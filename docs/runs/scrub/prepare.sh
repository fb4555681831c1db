#!/usr/bin/env bash
# Builds here what docs/runs/scrub/scrub.sh runs on the GPU machine (carry
# .whl and .device): unwritten.cu and the early-loads adversary at -O3 and
# -O0, small elements staged too (-coalda-stage-small-always, as
# tests/test_adversarial.py builds them).
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device
for o in 3 0; do
  $C optimize docs/runs/scrub/unwritten.cu -O $o -o .device/unwritten-O$o \
    --pass-arg=-coalda-stage-small-always > /dev/null
  $C optimize testcases/adversarial/early_loads.cu -O $o -o .device/adv-early_loads-O$o \
    --pass-arg=-coalda-stage-small-always > /dev/null
done
find .device -name '*.diff' -delete
