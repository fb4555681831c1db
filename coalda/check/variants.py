"""Differential runs of reshaped launches' grid variants (the pass's
-coalda-reshape-launches, pass/lib/GridVariant.cpp): a rewritten kernel K
that does one piece of work per thread gets a kernel `K__coalda_grid`, with
K's parameters and one more, the original grid's x size G, that loops over
the original grid's blocks (`for (vb = blockIdx.x; vb < G; vb += gridDim.x)`)
and is launched on a grid of fewer blocks in x (the same y and z: each row
of blocks loops over its own row). Its claim: at grid (g, Y, Z) with G
appended, for any 1 <= g <= G, it computes the bytes that K's original (the
before-IR's, unrewritten) computes at grid (G, Y, Z) with the same block.

`check_variants` proves that on the emulator with the oracle's own machinery
(oracle.check): for each kernel of the spec whose symbol has a variant in
the after-IR, at each size n, it runs the original at (G, Y, Z) against
the variant at g in {1, 2, 3, G-1, G} (those in 1..G),
every g on fresh random inputs, under the oracle's layouts (the overlap and
alias layouts too, where `coalda run` would run them) and schedules, all
buffers compared byte for byte with their guard zones. The variant runs
through `VariantLaunch`, an oracle.Executor that turns the oracle's launch
of K at (G, Y, Z) into one of K's variant at (min(g, G), Y, Z) with G as its
last argument; it is not oracle.Deterministic, so the variant always runs
(it is never the original's code). Given a GPU's executors instead, the
same comparisons run there (one schedule, no alias layout).

The rewrite form (pass/lib/RewriteChoice.cpp, -coalda-choose-rewrites): K
is rewritten as in any build (its bytes are `coalda run`'s to compare) and
`K__coalda_grid` is its code as written, with K's own parameters, marked by
a global `K__coalda_rewrite`. It runs through `RewriteLaunch`, on the
original's grid with the original's arguments."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..emulator.emulate import EmulationRefused, EmulatorExecutor
from ..emulator.schedule import Schedule
from ..driver.launches import REWRITE_SUFFIX, SUFFIX, TILE_SUFFIX  # GridVariant.h's suffixes
from ..ir import byval_params, kernel_names, noalias_params
from .oracle import ALIAS_LAYOUT, LAYOUTS, OVERLAP_LAYOUTS, SCHEDULES, Arg, CaseResult, Executor, Layout, check
from .run_command import Compiled, may_overlap, symbol_map, with_byval
from .spec import Dim3, Spec, unknown_kernel

__all__ = ["SUFFIX", "RewriteLaunch", "TileLaunch", "VariantLaunch", "VariantResult", "VariantsChecked",
           "check_variants", "rewrite_kernels", "tile_grid", "tile_kernels", "variant_blocks", "variant_symbols"]



def variant_symbols(after_ir: str) -> dict[str, str]:
    """Each kernel symbol of AFTER_IR that has a grid variant -> the
    variant's symbol (a kernel of the module too)."""
    kernels = kernel_names(after_ir)
    defined = set(re.findall(r"^define [^\n]*?@([-\w.$]+)\(", after_ir, re.M))
    return {k[: -len(SUFFIX)]: k for k in kernels
            if k.endswith(SUFFIX) and k in defined and k[: -len(SUFFIX)] in kernels}


def tile_kernels(after_ir: str) -> set[str]:
    """The kernel symbols of AFTER_IR whose variant is of the tile form
    (marked by a global `K__coalda_tile`, GridVariantTile.cpp)."""
    return set(re.findall(r"^@([-\w.$]+?)" + TILE_SUFFIX + r" = ", after_ir, re.M))


def rewrite_kernels(after_ir: str) -> set[str]:
    """The kernel symbols of AFTER_IR whose variant is of the rewrite form
    (marked by a global `K__coalda_rewrite`, RewriteChoice.cpp): the
    variant is K's code as written, K its rewrite."""
    return set(re.findall(r"^@([-\w.$]+?)" + REWRITE_SUFFIX + r" = ", after_ir, re.M))


def tile_grid(grid: Dim3, block: Dim3) -> Dim3 | None:
    """The tile form's grid for a launch of GRID by BLOCK, as the run time
    computes it (pass/runtime/LaunchGrid.cpp, tileGrid): None where the
    block does not fit the tiles, and the original kernel launches."""
    def fits(d: int) -> bool:
        return 1 <= d <= 32 and d & (d - 1) == 0
    if block[2] != 1 or not fits(block[0]) or not fits(block[1]) or block[0] * block[1] != 256:
        return None
    across, down = 32 // block[0], 32 // block[1]
    return (-(-grid[0] // across), -(-grid[1] // down), grid[2])


@dataclass(frozen=True)
class TileLaunch:
    """oracle.Executor: a launch of kernel K at GRID by BLOCK runs, on
    INNER, K's tile variant at tile_grid(GRID, BLOCK) with GRID's x and y
    appended, or K itself where the block does not fit the tiles (as the run
    time does)."""

    inner: Executor

    def run(self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg], schedule: Schedule | None = None,
            **extra: int) -> None:
        tiles = tile_grid(grid, block)
        if tiles is None:
            self.inner.run(kernel, grid, block, args, schedule=schedule, **extra)  # type: ignore[call-arg]
        else:
            self.inner.run(kernel + SUFFIX, tiles, block, [*args, grid[0], grid[1]], schedule=schedule,
                           **extra)  # type: ignore[call-arg]


@dataclass(frozen=True)
class RewriteLaunch:
    """oracle.Executor: a launch of kernel K runs, on INNER, K's rewrite-form
    variant (its code as written) on the same grid with the same
    arguments."""

    inner: Executor

    def run(self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg], schedule: Schedule | None = None,
            **extra: int) -> None:
        self.inner.run(kernel + SUFFIX, grid, block, args, schedule=schedule, **extra)  # type: ignore[call-arg]


def variant_blocks(grid: int) -> list[int]:
    """The reduced grids a variant runs at for an original grid of GRID
    blocks: 1, 2, 3, GRID-1 and GRID, those in 1..GRID."""
    return sorted({g for g in (1, 2, 3, grid - 1, grid) if 1 <= g <= grid})


@dataclass(frozen=True)
class VariantLaunch:
    """oracle.Executor: a launch of kernel K at grid (G, Y, Z) runs, on
    INNER, K's grid variant at grid (min(blocks, G), Y, Z) with G appended
    to the arguments (the buffers are the oracle's: written in place)."""

    inner: Executor
    blocks: int

    def run(self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg], schedule: Schedule | None = None,
            **extra: int) -> None:
        count = grid[0]
        self.inner.run(kernel + SUFFIX, (min(self.blocks, count), grid[1], grid[2]), block,
                       [*args, count], schedule=schedule, **extra)  # type: ignore[call-arg]


@dataclass(frozen=True)
class VariantResult:
    """One comparison: the variant at `blocks` blocks against the original
    at `grid` blocks (result.layout, result.schedule, result.verdict)."""

    blocks: int
    grid: int
    result: CaseResult

    def __str__(self) -> str:
        r = self.result
        where = f"{r.kernel} n={r.n} variant at {self.blocks} of {self.grid} blocks, {r.layout}, {r.schedule}"
        return f"{where}: {r.verdict.value}" + (f" ({r.detail})" if r.detail else "")


@dataclass
class VariantsChecked:
    """The comparisons, and why each spec kernel with a variant that was
    not compared (at some size) was not: kernel -> reasons."""

    results: list[VariantResult] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)

    @property
    def failures(self) -> list[VariantResult]:
        return [r for r in self.results if not r.result.match]

    def kernels(self) -> set[str]:
        """The spec's kernels that were compared at least once."""
        return {r.result.kernel for r in self.results}

    def summary(self, limit: int = 12) -> str:
        """The first LIMIT failures, a line each (for an assertion's message)."""
        return "\n".join(str(r) for r in self.failures[:limit])


def check_variants(
    compiled: Compiled,
    spec: Spec,
    sizes: Sequence[int] | None = None,
    seed: int = 0,
    schedules: Sequence[Schedule] = SCHEDULES,
    layouts: Sequence[Layout] = LAYOUTS,
    kernels: Collection[str] | None = None,
    overlap: bool = True,
    executors: tuple[Executor, Executor] | None = None,
) -> VariantsChecked:
    """Every variant of COMPILED's after-IR whose kernel SPEC names (only
    KERNELS, spec names, where given) against its original, at SIZES (the
    spec's by default). OVERLAP=False leaves out the overlap and alias
    layouts even where `coalda run` runs them. EXECUTORS: the original
    module's and the optimized one's (default: the emulator's, JIT-compiled
    from the IR at the first comparison); a GPU's (gpu.GpuExecutor on the
    PTX, the optimized one with the after-IR's signatures, which have the
    variants') runs each case once, under SCHEDULES[:1]."""
    symbols = symbol_map(compiled.report)
    variants = variant_symbols(compiled.after_ir)
    tiled = tile_kernels(compiled.after_ir)
    rewrites = rewrite_kernels(compiled.after_ir)
    given = list(executors or ())

    def pair() -> tuple[Executor, Executor]:
        if not given:
            given.extend(EmulatorExecutor(ir, partial=True) for ir in (compiled.before_ir, compiled.after_ir))
        return given[0], given[1]

    def refusal(executor: Executor, symbol: str) -> str | None:
        return executor.refusal(symbol) if isinstance(executor, EmulatorExecutor) else None

    noalias = noalias_params(compiled.before_ir)
    byval = byval_params(compiled.before_ir)
    rng = np.random.default_rng(seed)
    out = VariantsChecked()

    def symbol(name: str) -> str:
        if name not in symbols:
            raise unknown_kernel(name, compiled.report)
        return symbols[name]

    for n in sizes or spec.sizes:
        for kspec in spec.kernels.values():
            if kernels is not None and kspec.name not in kernels:
                continue
            sym = symbol(kspec.name)
            if sym not in variants:
                continue
            grid, block = kspec.dims(n)
            original, optimized = pair()
            refused = refusal(original, sym) or refusal(optimized, variants[sym])
            if refused:
                out.skipped.setdefault(kspec.name, []).append(f"n={n}: the emulator cannot run it: {refused}")
                continue
            kspec = with_byval(kspec, byval.get(sym, frozenset()))
            both = overlap and may_overlap(kspec, noalias.get(sym, frozenset()))
            # a tile variant's grid follows from the block: one launch
            tiles = tile_grid(grid, block) if sym in tiled else None
            # a rewrite runs on the original's grid: one launch too
            reduced = ([tiles[0] if tiles else grid[0]] if sym in tiled else
                       [grid[0]] if sym in rewrites else variant_blocks(grid[0]))
            for k, blocks in enumerate(reduced):
                # the overlap layouts launch one thread (G = 1): once; the
                # alias layout the whole grid: at every g, on the emulator
                # (whose schedules tell a racy original there; as `coalda run`)
                extra = ((*(OVERLAP_LAYOUTS if k == 0 else ()), *((ALIAS_LAYOUT,) if executors is None else ()))
                         if both else ())
                launch = (TileLaunch(optimized) if sym in tiled else RewriteLaunch(optimized) if sym in rewrites
                          else VariantLaunch(optimized, blocks))
                try:
                    results = check(kspec, symbol, original, launch, n, rng,
                                    [*layouts, *extra], None, schedules if executors is None else schedules[:1])
                except EmulationRefused as exc:  # reached a stub the analysis did not see: not compared at all
                    out.skipped.setdefault(kspec.name, []).append(f"n={n}: the emulator cannot run it: {exc}")
                    out.results = [r for r in out.results if r.result.kernel != kspec.name]
                    break
                out.results += [VariantResult(blocks, grid[0], r) for r in results]
    return out
