"""On the GPU machine (run.sh): every grid variant of an adversary, STEM
(default grid_variants; prepare_variants.py's build), against its original on the H200, at reduced
grids with the original grid's x size as the extra argument
(coalda/check/variants.py with the GPU executors), REPS seeds at each size.
Prints each failing (kernel, n, blocks) and exits 1 if any."""

from __future__ import annotations

import collections
import json
import sys
import time
from pathlib import Path

from coalda.check.gpu import GpuExecutor
from coalda.check.run_command import Compiled, source_names
from coalda.check.spec import load_spec
from coalda.check.variants import check_variants

d = Path(".device/launches/variants")
stem = sys.argv[3] if len(sys.argv) > 3 else "grid_variants"
read = lambda k: (d / f"{stem}.{k}").read_text()  # noqa: E731
c = Compiled(read("before.ll"), read("after.ll"), read("before.ptx"), read("after.ptx"), json.loads(read("report.json")))
sigs = {k: {n: tuple(tuple(p) for p in v) for n, v in s.items()} for k, s in json.loads(read("sigs.json")).items()}
names = source_names(c.report)
executors = (GpuExecutor(c.before_ptx, sigs["before"], "original", names),
             GpuExecutor(c.after_ptx, sigs["after"], "optimized", names))
spec = load_spec(Path(f"testcases/adversarial/{stem}.toml"))
reps, sizes = int(sys.argv[1]), [int(x) for x in sys.argv[2].split(",")]
fails: collections.Counter = collections.Counter()
total: collections.Counter = collections.Counter()
first: dict = {}
start = time.time()
for rep in range(reps):
    run = check_variants(c, spec, sizes=sizes, seed=rep, executors=executors)
    for x in run.results:
        key = (x.result.kernel, x.result.n, x.blocks)
        total[key] += 1
        if not x.result.match:
            fails[key] += 1
            first.setdefault(key, str(x))
    if rep == 0:
        print("skipped", run.skipped, "kernels", len(run.kernels()), flush=True)
print("time", round(time.time() - start, 1), "s, comparisons", sum(total.values()))
for key in sorted(total):
    if fails[key]:
        print(key, f"{fails[key]}/{total[key]} fail:", first[key][:300])
print("kernels with no failure:", sorted({k[0] for k in total} - {k[0] for k in fails}))
sys.exit(1 if fails else 0)
