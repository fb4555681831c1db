#!/usr/bin/env bash
# On the GPU machine: chunk windows against chunk length (issue 12's cost
# rule). `coalda bench` of testcases/staging.cu's invert_mapping (coalesced
# stores) and chunk_sum (a reduction: reads only) at 2^26 - 77 floats in
# chunks of L floats, for L in 8 ... 256, each from a spec written here.
# Usage there: scripts/window_lengths.sh FROM OUTFILE (FROM: the `coalda
# optimize` OUTDIR of testcases/staging.cu; PYTHONPATH set as in
# gpu_staging.sh).
set -u
from=$1 out=$2
: > "$out"
for L in 8 12 16 20 24 34 48 64 100 256; do
  spec=/tmp/windows-$L.toml
  cat > "$spec" <<SPEC
gpu_sizes = [67108787]
[kernels.invert_mapping]
block = 256
grid = "cdiv(n // $L, block)"
align = 4
params = [{ name = "input", in = "$((4 * L))*(n // $L)" }, { name = "output", out = "$((4 * L))*(n // $L)" }, { name = "npoints", value = "n // $L" }, { name = "nfeatures", value = "$L" }]
[kernels.chunk_sum]
block = 256
grid = "cdiv(n // $L, block)"
align = 4
params = [{ name = "out", out = "4*(n // $L)" }, { name = "in", in = "$((4 * L))*(n // $L)" }, { name = "n", value = "n // $L" }, { name = "len", value = "$L" }]
SPEC
  echo "== chunk length $L floats ($((4 * L)) bytes)" >> "$out"
  timeout 120 python3 -m coalda.cli bench testcases/staging.cu --from "$from" --spec "$spec" \
    --kernels invert_mapping,chunk_sum --blocks 128,256,512 --no-nvcc -q >> "$out" 2>&1
done
