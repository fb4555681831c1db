#!/usr/bin/env bash
# The parameter-struct rewrites (issue 37) on the GPU: the adversary
# testcases/adversarial/param_structs.cu, whose kernels read their pointers
# from a struct taken by value, checked plainly and under compute-sanitizer
# memcheck, racecheck and synccheck, then timed against the unoptimized build
# and cudaMemcpy (the oracle writes each field buffer's device address into
# the struct).
#
# Here:  .venv/bin/coalda optimize testcases/adversarial/param_structs.cu -o .device/param_structs
# There (OUT set, carrying .whl and .device):  bash docs/runs/param-structs/run.sh
source scripts/gpu_prelude.sh
san param_structs testcases/adversarial/param_structs.cu --from .device/param_structs --sizes 256,300,4099
step bench 400 python3 -m coalda.cli bench testcases/adversarial/param_structs.cu --from .device/param_structs \
  --sizes 67108787 --blocks 128,256,512,1024 > "$OUT/bench.txt" 2>&1
step bench-twins 300 python3 -m coalda.cli bench testcases/adversarial/param_structs.cu --from .device/param_structs \
  --sizes 67108787 --blocks 128,256,512,1024 --kernels copy3_args,update_records_args,copy3_grid_stride_args > "$OUT/bench-twins.txt" 2>&1
summarize param-structs
