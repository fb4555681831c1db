#!/usr/bin/env bash
# The adversarial staging corpus at -O3 and -O0 on the GPU, plainly and under
# compute-sanitizer: contract_both_sides checks on the hardware that the
# copied multiply fuses as in the original (prepare: coalda optimize -O N
# testcases/adversarial/staging.cu -o .device/advN --pass-arg=-coalda-stage-small-always)
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step
for O in 3 0; do
  step "plain O$O" 120 python3 -m coalda.cli run -O $O testcases/adversarial/staging.cu --from .device/adv$O > $OUT/adv-O$O-plain.txt 2>&1
  for tool in memcheck racecheck synccheck; do
    step "$tool O$O" 150 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 -m coalda.cli run -O $O testcases/adversarial/staging.cu --from .device/adv$O > /tmp/adv-O$O-$tool.txt 2>&1
    grep -E "SUMMARY|comparisons|MISMATCH" /tmp/adv-O$O-$tool.txt | head -5 > $OUT/adv-O$O-$tool-summary.txt
  done
done
# negative control: the pass with the fma of the split-off add disabled (planted
# here): contract_both_sides must differ on the GPU too
step "plain planted O3" 120 python3 -m coalda.cli run -O 3 testcases/adversarial/staging.cu --from .device/advbad3 > $OUT/adv-O3-planted-no-fma.txt 2>&1
