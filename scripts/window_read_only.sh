#!/usr/bin/env bash
# Chunk windows for loops that only read their chunks (issue 12's cost rule
# for reductions): testcases/staging.cu's chunk_sum at 2^26 - 77 floats in
# chunks of L floats, benched at 128 / 256 / 512 threads with two builds of
# the pass, in one `coalda bench` run per L: COALDA = every row length takes
# the window (-coalda-window-min-row=0 -coalda-window-read-only-modulus=4),
# variant `rule` = the rule under test (-coalda-window-read-only-modulus=M);
# both with -coalda-window-read-only=runtime (chunk_sum's length is an
# argument).
#   here:             scripts/window_read_only.sh prepare M
#   on the GPU:       scripts/window_read_only.sh run OUTFILE
#                     (PYTHONPATH set as in gpu_staging.sh; carry .device)
set -u
if [ "$1" = prepare ]; then
  for v in "all -coalda-window-min-row=0 -coalda-window-read-only-modulus=4" \
           "rule -coalda-window-read-only-modulus=$2"; do
    v="$v -coalda-window-read-only=runtime"
    set -- $v; name=$1; shift
    rm -rf ".device/staging-ro-$name"
    .venv/bin/python - "$name" "$@" <<'PY'
import sys
from pathlib import Path
from coalda.driver.compile import CompileOptions
from coalda.driver.pipeline import optimize
name, args = sys.argv[1], sys.argv[2:]
optimize(Path("testcases/staging.cu"), CompileOptions(), Path(f".device/staging-ro-{name}"), pass_args=args)
PY
  done
  exit 0
fi
out=$2
: > "$out"
for L in 8 16 20 24 32 48 64 96 128 192 256 512; do
  spec=/tmp/read-only-$L.toml
  cat > "$spec" <<SPEC
gpu_sizes = [67108787]
[kernels.chunk_sum]
block = 256
grid = "cdiv(n // $L, block)"
align = 4
params = [{ name = "out", out = "4*(n // $L)" }, { name = "in", in = "$((4 * L))*(n // $L)" }, { name = "n", value = "n // $L" }, { name = "len", value = "$L" }]
SPEC
  echo "== chunk length $L floats ($((4 * L)) bytes)" >> "$out"
  timeout 60 python3 -m coalda.cli bench testcases/staging.cu --from .device/staging-ro-all --spec "$spec" \
    --variant rule=.device/staging-ro-rule/staging.after.ptx \
    --kernels chunk_sum --blocks 128,256,512 --no-nvcc -q >> "$out" 2>&1
done
