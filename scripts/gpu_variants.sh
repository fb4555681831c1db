#!/usr/bin/env bash
# On the GPU machine: the staged kernels of testcases/staging.cu timed against
# pass variants (PTX built here into .device/variants/ with opt-19 and the
# -coalda-stage-* switches), then the staging testcase under racecheck and
# synccheck at small sizes, the coalda cc check and the ncu cost validation.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/coalda-site .whl/*.whl
export PYTHONPATH=/tmp/coalda-site:$PWD PYTHONUNBUFFERED=1 COLUMNS=200
V=(); for p in .device/variants/*.ptx; do V+=(--variant "$(basename "$p" .ptx)=$p"); done
S=$(date +%s)
timeout 200 python3 -m coalda.cli bench testcases/staging.cu --from .device/staging --no-nvcc \
  --kernels soa_to_aos,d4_update,axpy3,chunk8,chunk8_guarded --blocks 128,256,512,1024 "${V[@]}" \
  --json $OUT/variants.json > $OUT/variants.txt 2>&1; echo "variants rc=$? $(( $(date +%s) - S ))s" >> $OUT/log.txt
for tool in racecheck synccheck; do
  S=$(date +%s)
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
    python3 -m coalda.cli run testcases/staging.cu --from .device/staging --sizes 1000,4099 > $OUT/$tool.txt 2>&1
  echo "$tool rc=$? $(( $(date +%s) - S ))s" >> $OUT/log.txt
done
S=$(date +%s); timeout 60 bash scripts/gpu_cc_check.sh run build/cc-check > $OUT/cc-check.txt 2>&1; echo "cc rc=$? $(( $(date +%s) - S ))s" >> $OUT/log.txt
S=$(date +%s); timeout 200 python3 scripts/ncu_validate.py measure build/ncu $OUT/ncu > $OUT/ncu.txt 2>&1; echo "ncu rc=$? $(( $(date +%s) - S ))s" >> $OUT/log.txt
cat $OUT/log.txt
