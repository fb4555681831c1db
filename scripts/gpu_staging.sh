#!/usr/bin/env bash
# On the GPU machine: the staging benchmark (coalda bench, one run) and the
# staging testcase plain and under compute-sanitizer. Prepare here first:
#   COALDA_GPU_TESTCASES=staging scripts/gpu_runs.sh prepare
# Run there with OUT set to the output directory.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/coalda-site .whl/*.whl
export PYTHONPATH=/tmp/coalda-site:$PWD PYTHONUNBUFFERED=1 COLUMNS=200
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/gpu.txt
S=$(date +%s)
timeout 330 python3 -m coalda.cli bench testcases/staging.cu --from .device/staging --blocks 128,256,512,1024 --json $OUT/staging.json --plot $OUT/staging.png > $OUT/staging-bench.txt 2>&1; echo "bench rc=$? $(( $(date +%s) - S ))s" >> $OUT/gpu.txt
S=$(date +%s)
COALDA_GPU_TESTCASES=staging timeout 230 bash scripts/gpu_runs.sh run $OUT/sanitizer; echo "sanitizer rc=$? $(( $(date +%s) - S ))s" >> $OUT/gpu.txt
tail -30 $OUT/staging-bench.txt; cat $OUT/gpu.txt; cat $OUT/sanitizer/summary.txt
