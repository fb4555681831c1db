#!/usr/bin/env bash
# Builds here what run.sh 2 runs on the GPU machine (carry .whl, .device and
# build/corpus-final.tar.gz): the store-window adversary at -O3 and -O0, the
# random family's batches 0-3 of 6 at -O3 (tests/store_window_kernels.py),
# and softmax and page-rank from their corpus recipes.
set -eu
for L in 3 0; do
  .venv/bin/coalda optimize -O$L testcases/adversarial/store_windows.cu -o .device/store-windows-O$L -q
done
mkdir -p .device/store-fuzz
.venv/bin/python - <<'PY'
import sys
sys.path.insert(0, "tests")
from store_window_kernels import random_kernels
ks = [k for b in range(4) for k in random_kernels(b, 6)]
open(".device/store-fuzz/stores.cu", "w").write("".join(k.source() for k in ks))
open(".device/store-fuzz/stores.toml", "w").write("sizes = [1]\n\n" + "\n".join(k.spec() for k in ks))
PY
.venv/bin/coalda optimize -O3 .device/store-fuzz/stores.cu -o .device/store-fuzz/O3 -q
# what run.sh does not read (the carry limit is 64 MiB)
find .device -name "*.diff" -o -name "*.yaml" | xargs rm -f
.venv/bin/python scripts/corpus.py build --only softmax,page-rank --out build/corpus-final
