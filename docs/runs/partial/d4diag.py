"""Which doubles of d4_three differ between clang -O3 and COALDA on the GPU,
and what their inputs were (run on the GPU machine from the repository root
with PYTHONPATH set by scripts/gpu_prelude.sh; .device from prepare.sh)."""
import sys
from pathlib import Path

import numpy as np

from coalda.check.gpu import GpuExecutor
from coalda.ir import signatures

out = Path(".device/partial")
sigs = signatures((out / "staging_partial.before.ll").read_text())
name = "_Z8d4_threeP2D4i"
n = int(sys.argv[1]) if len(sys.argv) > 1 else 67108787
block = 256
grid = ((n + block - 1) // block, 1, 1)
rng = np.random.default_rng(0)
start = rng.integers(0, 256, 32 * n, dtype=np.uint8)
results = {}
for label, ptx in (("before", "staging_partial.before.ptx"), ("after", "staging_partial.after.ptx")):
    ex = GpuExecutor((out / ptx).read_text(), sigs)
    for launches in (1, 21):
        a = start.copy()
        from coalda.check.oracle import HostBuffer
        buf = HostBuffer(a, 0, a.size)
        dargs = ex.upload(name, [buf, n])
        for _ in range(launches):
            ex.launch(name, grid, (block, 1, 1), dargs)
        ex.download(dargs)
        results[label, launches] = buf.storage.view(np.float64).reshape(n, 4).copy()
inp = start.view(np.float64).reshape(n, 4)
for launches in (1, 21):
    b, c = results["before", launches], results["after", launches]
    bad = np.flatnonzero((b.view(np.uint64) != c.view(np.uint64)).any(axis=1))
    print(f"{launches} launch(es): {bad.size} elements differ")
    for i in bad[:8]:
        print(" element", i)
        for what, row in (("in", inp[i]), ("clang", b[i]), ("coalda", c[i])):
            print(f"  {what:7s}", " ".join(f"{v!r:>24s}/{v.view(np.uint64):016x}" for v in row))
