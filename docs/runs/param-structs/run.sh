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
# The fallback path alone (variant-orig-only.txt): .device/variants/orig_only.ptx
# is param_structs.after.ll with `%coalda.fits = and i1 false, false` in both
# update_records kernels, through coalda.driver.compile.emit_ptx; then
#   python3 -m coalda.cli bench testcases/adversarial/param_structs.cu --from .device/param_structs \
#     --sizes 67108787 --blocks 256,1024 --kernels update_records,update_records_args \
#     --variant orig-only=.device/variants/orig_only.ptx
