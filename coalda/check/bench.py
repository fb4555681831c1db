"""`coalda bench`: time the unoptimized kernel (clang -O3, and nvcc -O3 where
nvcc is installed), the COALDA-optimized kernel, the hand-coalesced reference
and cudaMemcpy on the same buffers, in one run, and check every output byte.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from rich.table import Table

from ..driver.compile import run_tool
from ..errors import CoaldaError
from ..ir import signatures
from .oracle import (LAYOUTS, clone, compare, make_args, named_buffers, nan_payloads_only, reference_args,
                     written_bytes)
from .run_command import Compiled, source_names, symbol_map
from .spec import KernelSpec, Spec, evaluate
from ..driver.toolchain import find_nvcc

CLANG, NVCC, COALDA, HAND, MEMCPY = "clang -O3", "nvcc -O3", "COALDA", "hand-coalesced", "cudaMemcpy"
# Another compiler's build of the source: its floating point (contraction
# into fma, its own libdevice) may round differently from clang's, so its
# bytes are shown beside clang's but are no check of COALDA.
OTHER_COMPILERS = frozenset({NVCC})


@dataclass
class Measurement:
    kernel: str
    n: int
    block: int | str  # threads per block, or "32x8"
    variant: str
    median_ms: float
    min_ms: float
    max_ms: float
    gbps: float
    speedup: float | None = None  # over clang -O3
    of_memcpy: float | None = None  # fraction of cudaMemcpy's GB/s
    match: bool = True
    detail: str = ""
    # the bytes differ only in the payloads of double NaNs
    # (oracle.nan_payloads_only): no check of COALDA
    nan_payloads: bool = False


@dataclass
class BenchResult:
    gpu: str
    driver: str
    command: str
    repeat: int
    rows: list[Measurement] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({**asdict(self), "rows": [asdict(r) for r in self.rows]}, indent=2)


def moved_bytes(spec: KernelSpec, n: int) -> int:
    """Bytes read plus bytes written by one launch (a struct's fields'
    buffers, not the struct)."""
    total = 0
    for p in spec.params:
        buffers = [f.buffer for f in p.pointer_fields] if p.fields else [p] if p.is_buffer else []
        for b in buffers:
            size = evaluate(b.expr, {"n": n})
            total += 2 * size if b.kind == "inout" else size
    return total


def nvcc_ptx(source: Path, arch: str, includes: Sequence[Path], defines: Sequence[str]) -> str | None:
    """PTX of SOURCE by nvcc -O3, or None when nvcc is not installed."""
    nvcc = find_nvcc()
    if nvcc is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "k.ptx"
        cmd = [str(nvcc), "-ptx", "-O3", f"-arch={arch}", "-o", str(out), str(source)]
        cmd += [f"-I{i}" for i in includes] + [f"-D{d}" for d in defines]
        run_tool("nvcc", cmd)
        return out.read_text()


def run_bench(
    compiled: Compiled,
    spec: Spec,
    sizes: Sequence[int],
    blocks: Sequence[int | tuple[int, int]] | None,
    repeat: int,
    seed: int,
    nvcc: str | None,
    variants: dict[str, str],
    kernels: Sequence[str] | None,
    command: str,
) -> BenchResult:
    from .gpu import GpuExecutor, KernelFault, driver_version, gpu_name, sm_count, time_memcpy

    sigs = signatures(compiled.before_ir)
    # a fault names the kernel as the source does, and the variant
    names = source_names(compiled.report)
    executors = {CLANG: GpuExecutor(compiled.before_ptx, sigs, CLANG, names),
                 COALDA: GpuExecutor(compiled.after_ptx, sigs, COALDA, names)}
    if nvcc is not None:
        executors[NVCC] = GpuExecutor(nvcc, sigs, NVCC, names)
    # A variant built from another version of the source may lack kernels:
    # it is timed for the kernels it has.
    entries: dict[str, set[str]] = {}
    for label, ptx in variants.items():
        executors[label] = GpuExecutor(ptx, sigs, label, names)
        entries[label] = set(re.findall(r"\.entry\s+([\w$.]+)\s*\(", ptx))
    symbols = symbol_map(compiled.report)
    references = {k.same_as for k in spec.kernels.values() if k.same_as}
    names = list(kernels) if kernels else [k for k in spec.kernels if k not in references]
    for name in names:
        if name not in spec.kernels or name not in symbols:
            raise CoaldaError(f"no kernel {name} in the spec and the source")
    sms = sm_count()
    rng = np.random.default_rng(seed)
    result = BenchResult(gpu_name(), driver_version(), command, repeat)
    memcpy_cache: dict[int, list[float]] = {}
    for n in sizes:
        for name in names:
            kspec = spec.kernels[name]
            args = make_args(kspec, n, rng, LAYOUTS[0])  # one input set for all shapes
            nbytes = moved_bytes(kspec, n)
            for shape in blocks or kspec.bench_blocks(n):  # None: each kernel's own default
                grid, blk = kspec.dims(n, shape, sms)
                block = f"{shape[0]}x{shape[1]}" if isinstance(shape, tuple) else shape
                rows: list[Measurement] = []
                baseline = None
                for label, ex in executors.items():
                    if label in entries and symbols[name] not in entries[label]:
                        continue
                    mine = clone(args)
                    times = ex.time(symbols[name], grid, blk, mine, repeat)
                    if baseline is None:
                        baseline = mine
                    detail = compare(kspec, baseline, mine)
                    rows.append(_measure(name, n, block, label, times, nbytes, detail))
                    rows[-1].nan_payloads = bool(detail) and nan_payloads_only(kspec, baseline, mine)
                reference = spec.kernels.get(kspec.same_as) if kspec.same_as else None
                if reference is not None:
                    rgrid, rblk = reference.dims(n, shape, sms)
                    theirs = reference_args(kspec, reference, args, n)
                    try:  # clang's build of the hand-written kernel: its row's variant
                        times = executors[CLANG].time(symbols[reference.name], rgrid, rblk, theirs, repeat)
                    except KernelFault as fault:
                        raise fault.of_variant(HAND) from None
                    by_name = dict(named_buffers(kspec, baseline or [], fields_by_own_name=True))
                    detail = compare(reference, [by_name[p.name] if p.is_buffer else 0 for p in reference.params], theirs)
                    rows.append(_measure(name, n, block, HAND, times, nbytes, detail))
                out_bytes = written_bytes(kspec, args)
                if out_bytes not in memcpy_cache:
                    memcpy_cache[out_bytes] = time_memcpy(out_bytes, repeat)
                rows.append(_measure(name, n, block, MEMCPY, memcpy_cache[out_bytes], 2 * out_bytes, ""))
                clang_ms = rows[0].median_ms
                memcpy_gbps = rows[-1].gbps
                for r in rows:
                    r.speedup = clang_ms / r.median_ms
                    r.of_memcpy = r.gbps / memcpy_gbps
                result.rows.extend(rows)
    return result


def _measure(kernel: str, n: int, block: int | str, variant: str, times: list[float], nbytes: int, detail: str) -> Measurement:
    median = statistics.median(times)
    return Measurement(
        kernel, n, block, variant, median, min(times), max(times), nbytes / (median * 1e-3) / 1e9,
        match=not detail, detail=detail,
    )


def bench_table(result: BenchResult) -> Table:
    table = Table(title=f"coalda bench on {result.gpu} (driver {result.driver}), median of {result.repeat} launches")
    for column in ("kernel", "n", "block", "variant", "ms", "min-max ms", "GB/s", "vs clang", "of memcpy", "check"):
        table.add_column(column, justify="left" if column in ("kernel", "variant", "check") else "right", no_wrap=True)
    previous = None
    for r in result.rows:
        key = (r.kernel, r.n, r.block)
        if previous is not None and key != previous:
            table.add_section()
        previous = key
        style = "bold green" if r.variant == COALDA else ""
        table.add_row(
            r.kernel, str(r.n), str(r.block), f"[{style}]{r.variant}[/]" if style else r.variant,
            f"{r.median_ms:.4f}", f"{r.min_ms:.4f}-{r.max_ms:.4f}", f"{r.gbps:.0f}",
            f"{r.speedup:.2f}x", f"{100 * r.of_memcpy:.0f}%",
            _check(r),
        )
    return table


def _check(r: Measurement) -> str:
    if r.match:
        return "ok"
    if r.variant in OTHER_COMPILERS:
        return f"[yellow]differs[/] {r.detail} (another compiler's rounding)"
    if r.nan_payloads:
        return f"[yellow]differs[/] {r.detail}, all in double NaNs (which NaN operand the GPU keeps)"
    return f"[bold red]MISMATCH[/] {r.detail}"


def failures(result: BenchResult) -> list[Measurement]:
    """The rows whose bytes must equal the clang -O3 kernel's and do not
    (COALDA's, the variants', the hand-written reference's), but for NaN
    payloads."""
    return [r for r in result.rows if not r.match and r.variant not in OTHER_COMPILERS and not r.nan_payloads]


def load_result(path: Path) -> BenchResult:
    """A BenchResult from `coalda bench --json`."""
    data = json.loads(path.read_text())
    rows = [Measurement(**r) for r in data.pop("rows")]
    return BenchResult(**data, rows=rows)


def plot(result: BenchResult, path: Path) -> None:
    """One panel per kernel: GB/s of each variant at each block size, with
    cudaMemcpy on the same bytes as a dashed line."""
    try:
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        raise CoaldaError("--plot needs matplotlib: `pip install 'coalda[gpu]'`") from None
    kernels = list(dict.fromkeys(r.kernel for r in result.rows))
    variants = [v for v in dict.fromkeys(r.variant for r in result.rows) if v != MEMCPY]
    colors = dict(zip(variants, ["#9e9e9e", "#1f77b4", "#bdbdbd", "#d62728", "#2ca02c", "#ff7f0e"]))
    colors[COALDA] = "#1f77b4"
    cols = min(4, len(kernels))
    rows_n = -(-len(kernels) // cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(4.2 * cols, 3.3 * rows_n), squeeze=False, sharey=True)
    for ax, kernel in zip(axes.flat, kernels):
        mine = [r for r in result.rows if r.kernel == kernel]
        blocks = sorted({r.block for r in mine})
        width = 0.8 / len(variants)
        for i, v in enumerate(variants):
            ys = [next((r.gbps for r in mine if r.block == b and r.variant == v), 0) for b in blocks]
            xs = [x + (i - (len(variants) - 1) / 2) * width for x in range(len(blocks))]
            ax.bar(xs, ys, width, label=v, color=colors.get(v))
        memcpy = max(r.gbps for r in mine if r.variant == MEMCPY)
        ax.axhline(memcpy, color="black", linestyle="--", linewidth=1)
        best = max((r for r in mine if r.variant == COALDA), key=lambda r: r.speedup or 0)
        ax.set_title(f"{kernel}  (best {best.speedup:.2f}x)", fontsize=10)
        ax.set_xticks(range(len(blocks)), [str(b) for b in blocks])
        ax.set_xlabel("threads per block", fontsize=8)
    for ax in axes.flat[len(kernels):]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel("GB/s (read + written)")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    handles.append(plt.Line2D([], [], color="black", linestyle="--"))
    labels.append("cudaMemcpy")
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=9)
    n = ", ".join(str(v) for v in sorted({r.n for r in result.rows}))
    fig.suptitle(f"COALDA on {result.gpu} (driver {result.driver}), n = {n}, median of {result.repeat} launches")
    fig.tight_layout(rect=(0, 0.05, 1, 0.97))
    fig.savefig(path, dpi=110)
