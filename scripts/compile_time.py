#!/usr/bin/env -S .venv/bin/python
"""The pass's own compile time: a module of N copy kernels through
`opt -passes=coalda` (median of 3 runs), for N in the arguments.

    scripts/compile_time.py 1000 10000

The module repeats the -O3 IR of testcases/rgb.cu's naive kernel (its body,
renamed) N times, so every kernel is analysed, grouped and rewritten.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from coalda.driver.compile import CompileOptions, compile_to_ir  # noqa: E402
from coalda.driver.toolchain import toolchain  # noqa: E402

KERNEL = '''
struct Pixel { unsigned char r, g, b; };
__global__ void copy(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { dst[i].r = src[i].r; dst[i].g = src[i].g; dst[i].b = src[i].b; }
}
'''


def module(n: int, tmp: Path) -> Path:
    cu = tmp / "k.cu"
    cu.write_text(KERNEL)
    ll = tmp / "k.ll"
    compile_to_ir(cu, CompileOptions(), ll)
    text = ll.read_text()
    head, _, rest = text.partition("define ")
    body, _, tail = ("define " + rest).partition("\n}\n")
    body += "\n}\n"
    name = re.search(r"@(\w+)\(", body)[1]
    decls = "\n".join(l for l in tail.splitlines() if l.startswith("declare") or l.startswith("attributes"))
    kernels = "".join(body.replace(f"@{name}(", f"@k{i}(") for i in range(n))
    annotations = ", ".join(f"!{i}" for i in range(n))
    meta = "\n".join(f'!{i} = !{{ptr @k{i}, !"kernel", i32 1}}' for i in range(n))
    out = tmp / f"m{n}.ll"
    # drop debug info references: the module is synthetic
    kernels = re.sub(r", !dbg !\d+|, !tbaa !\d+|, !llvm.loop !\d+| !dbg !\d+", "", kernels)
    out.write_text(f"{head}{kernels}\n{decls}\n!nvvm.annotations = !{{{annotations}}}\n{meta}\n")
    return out


def time_opt(cmd: list[str]) -> float:
    """Median wall time of three runs."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    tc = toolchain()
    print(f"{'kernels':>8} {'opt -passes=coalda':>20} {'opt, no pass':>14} {'pass alone':>12} {'per kernel':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = module(n, Path(tmp))
            # The same module through opt with no pass: reading and writing it.
            base = time_opt([str(tc.opt), "-passes=", "-disable-output", str(path)])
            t = time_opt([str(tc.opt), f"-load-pass-plugin={tc.plugin}", "-passes=coalda", "-disable-output", str(path)])
            print(f"{n:>8} {t:>19.2f}s {base:>13.2f}s {t - base:>11.2f}s {1e3 * (t - base) / n:>10.3f}ms")


if __name__ == "__main__":
    main()
