#!/usr/bin/env bash
# Builds here what docs/runs/cpp/cpp.sh runs on the GPU machine (carry .whl
# and .device): the C++-features adversary at -O3 and -O0, small elements
# staged too (-coalda-stage-small-always, as tests/test_adversarial.py
# builds it).
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device
for o in 3 0; do
  $C optimize testcases/adversarial/cpp_features.cu -O $o -o .device/adv-cpp_features-O$o \
    --pass-arg=-coalda-stage-small-always > /dev/null
done
find .device -name '*.diff' -delete
