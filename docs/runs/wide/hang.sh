#!/usr/bin/env bash
# On the GPU machine: which kernel of testcases/adversarial/guards.cu keeps
# `coalda run` from finishing (ww.sh san: over 60 s plainly, where the
# emulator takes 3 s): each kernel alone (.device/adv-guards-specs/, one
# spec per kernel, split here from guards.toml) with a 12 s limit, after
# the narrowing adversary's remaining sanitizer runs.
set -u
source scripts/gpu_prelude.sh
step "racecheck adv-narrowing-O3" 200 compute-sanitizer --tool racecheck --error-exitcode 9 --report-api-errors no \
  python3 -m coalda.cli run testcases/adversarial/narrowing.cu --from .device/adv-narrowing-O3 > /tmp/san/adv-narrowing-O3-racecheck.txt 2>&1
san adv-narrowing-O0 testcases/adversarial/narrowing.cu -O 0 --from .device/adv-narrowing-O0
summarize narrowing
for s in .device/adv-guards-specs/*.toml; do
  k=$(basename $s .toml)
  echo "== $k" >> $OUT/guards-per-kernel.txt
  step "plain $k" 12 python3 -m coalda.cli run testcases/adversarial/guards.cu --from .device/adv-guards-O3 --spec $s -q >> $OUT/guards-per-kernel.txt 2>&1
done
cat $OUT/log.txt
