#!/usr/bin/env bash
# On the GPU machine (carry .whl and .device, built by prepare.sh), one call:
# the C++-features adversary at -O3 and -O0 at its gpu_sizes, plainly and
# under memcheck, racecheck and synccheck. Its __grid_constant__ struct and
# its lambda are taken by value: the runner launches those two kernels
# through the driver with the struct's bytes (coalda/check/gpu.py).
set -u
source scripts/gpu_prelude.sh
for o in 3 0; do
  SAN_TOOL=200 san adv-cpp_features-O$o testcases/adversarial/cpp_features.cu -O $o \
    --from .device/adv-cpp_features-O$o
done
summarize cpp_features
cat $OUT/log.txt $OUT/summary-cpp_features.txt
grep -E "gridconst|apply" /tmp/san/adv-cpp_features-O3-plain.txt | head -8
