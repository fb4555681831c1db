#!/usr/bin/env bash
# Builds here what docs/runs/chains/chains.sh runs on the GPU machine (carry
# .whl and .device): the guard-chain and early-loads adversaries at -O3 and
# -O0 (small elements staged too, as tests/test_adversarial.py builds
# them), and testcases/staging.cu as the pass emits it.
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device
for o in 3 0; do
  for a in guard_chains early_loads; do
    $C optimize testcases/adversarial/$a.cu -O $o -o .device/adv-$a-O$o \
      --pass-arg=-coalda-stage-small-always > /dev/null
  done
done
$C optimize testcases/staging.cu -o .device/staging > /dev/null
find .device -name '*.diff' -delete
