"""`coalda run`: compile (or reuse an OUTDIR), then run original vs optimized.

On the emulator every case runs under every schedule (coalda/emulator/schedule.py);
kernels with at least two buffers and no `__restrict__` pointer also run the
overlap layouts (one thread, all buffers in one allocation), where the
rewrite must keep the original's result. The GPU picks its own schedule, so
it runs each case once.

A kernel the emulator cannot run (inline PTX, an NVVM intrinsic it has no
model for, directly or in a function it calls) is not checked, and says so
in one line (Checked.refused), while the module's other kernels are: the
user learns what matches and what was not checked, and the exit code says
that something asked for was not checked."""

from __future__ import annotations

import dataclasses
import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..driver.compile import CompileOptions
from ..emulator.emulate import EmulationRefused, EmulatorExecutor
from ..ir import byval_params, noalias_params, signatures, undefined_lane_stores
from ..errors import CoaldaError
from ..driver.pipeline import Artifacts, build, inputs_digest
from ..report import Report
from ..emulator.schedule import Schedule
from .oracle import LAYOUTS, SCHEDULES, CaseResult, Executor, check, make_args
from .spec import KernelSpec, Spec, infer_spec, kernel_symbols, load_spec, spec_path, unknown_kernel


@dataclass
class Compiled:
    before_ir: str
    after_ir: str
    before_ptx: str
    after_ptx: str
    report: Report


def compile_or_reuse(
    source: Path, options: CompileOptions, from_dir: Path | None, ptx: bool = True, pass_args: Sequence[str] = ()
) -> Compiled:
    """The before/after IR and PTX: from an OUTDIR, or built now with the
    pass's pass_args (PTX only when a GPU will run it)."""
    if from_dir is not None:
        art = Artifacts(from_dir, source.stem)
        missing = [p.name for p in (art.before, art.after, art.report) if not p.is_file()]
        if missing:
            raise CoaldaError(f"{from_dir} is not an OUTDIR of `coalda optimize {source.name}` (missing {', '.join(missing)})")
        def read(path: Path) -> str:
            return path.read_text() if path.is_file() else ""

        try:
            report = json.loads(art.report.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CoaldaError(f"{art.report} is not a report of `coalda optimize` ({exc}); run `coalda optimize "
                              f"{source} -o {from_dir}` again") from None
        if not isinstance(report, dict) or report.get("inputs") != inputs_digest(source, options):
            raise CoaldaError(
                f"{from_dir} was made from another version of {source} or with other options; "
                f"run `coalda optimize {source} -o {from_dir}` (with the same options) again"
            )
        if ptx and not (art.before_ptx.is_file() and art.ptx.is_file()):
            raise CoaldaError(f"{from_dir} has no PTX (made by `coalda optimize --no-ptx`); run `coalda optimize "
                              f"{source} -o {from_dir}` without --no-ptx for the GPU")
        return Compiled(read(art.before), read(art.after), read(art.before_ptx), read(art.ptx), report)
    with tempfile.TemporaryDirectory(prefix="coalda-") as scratch:
        art = Artifacts(Path(scratch), source.stem)
        result = build(source, options, art, ptx=ptx, pass_args=pass_args)
        text = {p: p.read_text() if p.is_file() else "" for p in (art.before_ptx, art.ptx)}
        return Compiled(
            art.before.read_text(), art.after.read_text(), text[art.before_ptx], text[art.ptx], result.report
        )


def choose_spec(source: Path, spec_file: Path | None, compiled: Compiled) -> Spec:
    path = spec_file or spec_path(source)
    if path.is_file():
        return load_spec(path)
    if spec_file is not None:
        raise CoaldaError(f"launch spec {spec_file} not found")
    return infer_spec(compiled.report, signatures(compiled.before_ir))


@dataclass
class Row:
    result: CaseResult
    ms_original: float | None = None
    ms_optimized: float | None = None


MAX_BLOCK, MAX_BLOCK_Z = 1024, 64  # CUDA's limits on a block's threads


@dataclass
class Checked:
    """What `coalda run` did: the comparisons, and one line for each check
    the spec asks for that could not be made (a kernel, or its comparison
    with its reference, that the emulator cannot run). Those kernels have
    no rows: a kernel that was not checked is never shown as matching."""

    rows: list[Row]
    refused: list[str]


def symbol_map(report: Report) -> dict[str, str]:
    """The names a launch spec may give kernels (spec.kernel_symbols): an
    overloaded name is refused only where a spec names it."""
    return kernel_symbols(report)


def source_names(report: Report) -> dict[str, str]:
    """Each kernel's symbol -> its source name (`copy<float, 3>`), as a
    message about it (a fault on the GPU) names it."""
    return {kernel["symbol"]: kernel["name"] for kernel in report["kernels"]}


def may_overlap(kspec: KernelSpec, noalias: frozenset[int]) -> bool:
    """Whether the kernel must stay correct when its buffers overlap: two
    or more of them (structs taken by value do not count: each is a copy
    of its own; their pointer fields' buffers do), none `__restrict__`, and the spec does not say that the
    original is undefined then (`overlap = false`)."""
    buffers = [i for i, p in enumerate(kspec.params) if p.is_buffer and not p.byval]
    fields = sum(len(p.pointer_fields) for p in kspec.params)  # a struct's pointers
    return kspec.overlap and len(buffers) + fields >= 2 and not noalias.intersection(buffers)


def with_byval(kspec: KernelSpec, byval: frozenset[int]) -> KernelSpec:
    """KSPEC with the buffers at positions BYVAL marked as taken by value. A
    `struct` entry must be one of them: the oracle writes its fields'
    addresses into a copy of it for each launch, which is what a struct
    taken by value is."""
    for i, p in enumerate(kspec.params):
        if p.fields and i not in byval:
            raise CoaldaError(f"kernel {kspec.name}: parameter {p.name} is a `struct` in the launch spec, but the "
                              "kernel does not take it by value (a pointer to a struct: give its fields as buffers)")
    if not byval:
        return kspec
    params = tuple(dataclasses.replace(p, byval=True) if i in byval and p.is_buffer else p
                   for i, p in enumerate(kspec.params))
    return dataclasses.replace(kspec, params=params)


def not_checked(name: str, reason: str, rewritten: bool = False) -> str:
    """The line saying that kernel NAME was not checked; REASON is the
    emulator's clause that follows "kernel NAME" (EmulationRefused.reason)."""
    return f"{'the rewritten ' if rewritten else ''}kernel {name} {reason}, so {name} was not checked"


def emulator_refusal(emulators: Sequence[EmulatorExecutor], kspec: KernelSpec, reference: KernelSpec | None,
                     symbol: Callable[[str], str]) -> tuple[str | None, str | None]:
    """Why the emulator cannot check KSPEC at all (the original's module
    first, then the rewritten one's), and, where it can, why it cannot
    compare it with its REFERENCE; None where nothing is in the way."""
    for rewritten, emulator in enumerate(emulators):
        reason = emulator.refusal(symbol(kspec.name))
        if reason:
            return not_checked(kspec.name, reason, bool(rewritten)), None
    reason = emulators[0].refusal(symbol(reference.name)) if reference else None
    if reference and reason:
        return None, f"kernel {kspec.name} was not compared with its reference {reference.name}: {reference.name} {reason}"
    return None, None


def run(
    compiled: Compiled, spec: Spec, sizes: Sequence[int] | None, seed: int, gpu: bool, repeat: int = 10,
    schedules: Sequence[Schedule] | None = None,
) -> Checked:
    """SCHEDULES: the emulator's thread orders (default: every one of
    SCHEDULES); the GPU runs its own."""
    symbols = symbol_map(compiled.report)

    def symbol(name: str) -> str:
        if name not in symbols:
            raise unknown_kernel(name, compiled.report)
        return symbols[name]

    original: Executor
    optimized: Executor
    emulators: tuple[EmulatorExecutor, ...] = ()
    if gpu:
        from .gpu import GpuExecutor, median

        sigs = signatures(compiled.before_ir)
        names = source_names(compiled.report)
        original = GpuExecutor(compiled.before_ptx, sigs, "original", names)
        optimized = GpuExecutor(compiled.after_ptx, sigs, "optimized", names)
    else:
        # partial: a kernel the emulator cannot run is refused alone, by
        # name, and the module's other kernels are still checked
        emulators = (EmulatorExecutor(compiled.before_ir, partial=True),
                     EmulatorExecutor(compiled.after_ir, partial=True))
        original, optimized = emulators
    noalias = noalias_params(compiled.before_ir)
    byval = byval_params(compiled.before_ir)
    # on the GPU, bytes a kernel stores undefined are what a register held
    undefined = undefined_lane_stores(compiled.before_ir) if gpu else frozenset()
    schedules = SCHEDULES[:1] if gpu else tuple(schedules or SCHEDULES)
    rng = np.random.default_rng(seed)
    rows: list[Row] = []
    refused: dict[str, str] = {}  # kernel (or "kernel>reference") -> its line, once
    for n in sizes or (spec.gpu_sizes if gpu else spec.sizes):
        for kspec in spec.kernels.values():
            reference = spec.kernels.get(kspec.same_as) if kspec.same_as else None
            if kspec.same_as and reference is None:
                raise CoaldaError(f"kernel {kspec.name}: same_as names {kspec.same_as}, which the spec lacks")
            grid, block = kspec.dims(n)
            if min(grid) < 1 or min(block) < 1:
                raise CoaldaError(f"kernel {kspec.name} at n={n}: empty launch (grid {grid}, block {block})")
            if block[0] * block[1] * block[2] > MAX_BLOCK or block[2] > MAX_BLOCK_Z:
                raise CoaldaError(f"kernel {kspec.name} at n={n}: a block of {block} threads; a GPU launches at most "
                                  f"{MAX_BLOCK} threads a block, at most {MAX_BLOCK_Z} along z")
            kspec = with_byval(kspec, byval.get(symbol(kspec.name), frozenset()))
            overlap = may_overlap(kspec, noalias.get(symbol(kspec.name), frozenset()))
            if kspec.name in refused:
                continue
            whole, against = emulator_refusal(emulators, kspec, reference, symbol) if emulators else (None, None)
            if whole:
                refused[kspec.name] = whole
                continue
            if against:  # the comparison with the original can still be made
                refused[f"{kspec.name}>{reference.name if reference else ''}"] = against
                reference = None
            try:
                results = check(kspec, symbol, original, optimized, n, rng, LAYOUTS, reference, schedules, overlap,
                                nan_payloads=gpu, alias=not gpu, undefined_lanes=symbol(kspec.name) in undefined)
            except EmulationRefused as exc:  # reached a stub through a call the analysis did not see
                if exc.reason and exc.kernel == symbol(kspec.name):
                    refused[kspec.name] = not_checked(kspec.name, exc.reason)
                else:  # its reference's refusal
                    refused[kspec.name] = f"kernel {kspec.name} was not checked: {exc}"
                rows = [row for row in rows if row.result.kernel != kspec.name]  # its earlier sizes too
                continue
            for r in results:
                rows.append(Row(r))
            if gpu:
                args = make_args(kspec, n, rng, LAYOUTS[0])
                shared = kspec.shared_bytes(n)
                t0 = median(original.time(symbol(kspec.name), grid, block, args, repeat, shared))  # type: ignore[attr-defined]
                t1 = median(optimized.time(symbol(kspec.name), grid, block, args, repeat, shared))  # type: ignore[attr-defined]
                rows[-len(results)].ms_original, rows[-len(results)].ms_optimized = t0, t1
    return Checked(rows, list(refused.values()))
