#!/usr/bin/env bash
# -O0's rewrites on the GPU (issue 39's -O0/-O3 item, 2026-12-02): since -O0
# runs SROA and the full unroll of constant trip counts, and legality reads
# its early returns as one chain, many adversarial kernels are rewritten at
# -O0 that were not (guard chains, struct copies, unrolled member loops).
# Each corpus at -O0, plainly and under compute-sanitizer memcheck, racecheck
# and synccheck, at 300 elements (partial blocks).
#
# Here:  for t in guard_chains real_shapes staging uniform_go cpp_features warp_tiles \
#            early_loads windows read_only_windows aliases; do
#          .venv/bin/coalda optimize -O0 testcases/adversarial/$t.cu -o .device/$t \
#            --pass-arg=-coalda-stage-small-always; done
# There (OUT set, carrying .whl and .device):
#        bash docs/runs/o0/run.sh 1   (then 2: the device allows 10 minutes a call)
source scripts/gpu_prelude.sh
SAN_TOOL=${SAN_TOOL:-120}
case "${1:-1}" in
  1) files="guard_chains real_shapes staging" ;;
  2) files="uniform_go cpp_features warp_tiles early_loads windows read_only_windows aliases" ;;
esac
for t in $files; do
  san "$t" testcases/adversarial/$t.cu -O 0 --from .device/$t --sizes 300
done
summarize "o0-${1:-1}"
cp docs/runs/o0/run.sh "$OUT/"
