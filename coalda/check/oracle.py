"""Differential runs: the original and the optimized kernel (and a hand-written
reference) on the same fresh random inputs, compared byte for byte, under
several buffer layouts and several schedules.

Buffers are laid out as users have them. Every pointer argument gets its own
allocation `[GUARD + m bytes of POISON][the buffer: random bytes][GUARD bytes
of POISON]` (outputs are random too, so that bytes a kernel must not touch
are checked), where the allocation starts 64-byte aligned and `m` is the
layout's misalignment of that buffer:

- `aligned`: m = 0 for every buffer (the rewrite's 16-byte fast path);
- `offset`: every buffer misaligned by the same smallest step (+1 byte, or
  +align where the spec says the pointers are `align`-byte aligned);
- `offset-max`: every buffer misaligned by the largest such step below 16
  (+15, +14, +12 or +8);
- `mixed`: even-numbered parameters aligned, odd-numbered ones at +4*align
  (or the largest step), so that the regions are misaligned relative to each
  other (the 4-byte and member-width paths).

A spec whose align is 16 or more has no misaligned starts: its misaligned
layouts are aligned. Sizes that are not a multiple of the block are the
spec's business (`grid = "cdiv(n, block)"` with a bounds guard).

The whole allocation, both guard zones included, must be identical after the
original and the optimized kernel, and both guards must still be POISON (a
write before `dst[0]` is caught like one past its end).

The overlap layouts (`OVERLAP_LAYOUTS`, added by `check(..., overlap=True)`)
place all buffers of the kernel in ONE allocation, each `align` bytes (1 by
default) from the next (`overlap`: each parameter after the next one, so
dst = src + 1; `overlap-back`: before it, dst = src - 1), guarded around the
whole span, and launch one block of one thread: the original then has no race
whatever it does, and a rewrite must keep its result (its run-time overlap
check must send it to the original code). Only meaningful for kernels whose
pointers are not `__restrict__`; no reference comparison there. A kernel
that needs its whole block there (it reads `__shared__` bytes another thread
would have written: the original's two runs, with the two shared poisons,
differ; on a GPU too, whose runner puts each poison in shared memory
first) is not checked in that layout (Verdict.UNCHECKED).

The alias layout (`ALIAS_LAYOUT`, on the emulator: `check(..., overlap=True,
alias=True)`) puts every buffer at one address and runs the whole grid under
every schedule: kernels whose threads each touch only their own elements
(an axpy's x and y, a copy onto itself) are race-free there, and it runs
the rewrites' paths that one thread never takes (block and warp tiles,
transposes) on buffers their run-time checks must see overlap. Where the
original's result depends on the schedule there, the layout is not checked
(Verdict.UNCHECKED).

Each layout runs under every schedule (coalda/emulator/schedule.py). The original
must compute the same bytes under all of them, else the test kernel itself
is racy (verdict RACY_ORIGINAL, no further comparison): a race between its
threads, or a read of `__shared__` bytes no thread wrote (each schedule
starts the blocks' shared memory with its own poison byte, as a GPU leaves
there whatever was before; the detail says which of the two). Then the optimized
kernel runs under each schedule and is compared with the original: a
difference under some schedules only is a race the rewrite introduced
(RACE), one under all of them a plain MISMATCH; an emulator fault of the
rewritten kernel (barrier divergence, deadlock) is a FAULT.

A kernel the pass left as it was (on the emulator: the same definition and
the same everything it reaches: `same_code`) is not run a second time: the
deterministic emulator would compute the original's bytes again. Its
results are matches marked `same_code`. The GPU runs both always.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from ..buffers import POISON, HostBuffer, _aligned_copy, _allocation  # noqa: F401 (HostBuffer, POISON re-exported)
from ..errors import CoaldaError
from ..emulator.schedule import SCHEDULES, Schedule
from .spec import Dim3, KernelSpec, Param, evaluate
from ..emulator.threads import EmulationFault
from ..verdicts import Unchecked, Verdict  # noqa: F401 (re-exported: the oracle's verdicts)

__all__ = [
    "ALIAS_LAYOUT", "GUARD", "LAYOUTS", "OVERLAP_LAYOUTS", "POISON", "SCHEDULES", "Arg", "CaseResult", "Executor",
    "HostBuffer", "Layout", "Schedule", "Verdict", "check", "clone", "compare", "make_args", "other_poison",
    "named_buffers", "reference_args", "same_code", "written_bytes",
]

# Wider than any tile (48 KB): a rewrite that moves a whole row past the
# buffer's end (a partial row taken for a full one) writes into poison, which
# the comparison reports, instead of into the emulator's heap.
GUARD = 64 * 1024


Arg = HostBuffer | int


class Executor(Protocol):
    """Runs one kernel of one module on host buffers, in place. The emulator
    follows `schedule`; the GPU ignores it."""

    def run(
        self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg], schedule: Schedule | None = None,
    ) -> None: ...


@runtime_checkable
class Deterministic(Protocol):
    """An executor that computes the same bytes each time it runs the same
    code on the same bytes under the same schedule (the emulator), and
    tells what code a launch of a kernel runs."""

    def kernel_code(self, kernel: str) -> str: ...


def same_code(original: Executor, optimized: Executor, kernel: str) -> bool:
    """Whether both executors run KERNEL from the same code on a
    Deterministic executor (the emulator's `kernel_code`, a kernel's
    definition with all it reaches): a kernel the pass left as it was. On
    the same bytes under the same schedule that code computes the original's
    bytes again: running it would compare the original with itself. The
    GPU's executor is not Deterministic: there both always run."""
    if not isinstance(original, Deterministic) or not isinstance(optimized, Deterministic):
        return False
    code = original.kernel_code(kernel)
    return bool(code) and code == optimized.kernel_code(kernel)


@dataclass(frozen=True)
class Layout:
    """Where each buffer starts: `offsets(param index, align)` is its
    misalignment (bytes past a 64-byte boundary); in an overlap layout, its
    position in the one shared allocation (shifted so the lowest is 0)."""

    name: str
    offsets: Callable[[int, int], int]
    overlap: bool = False
    # an overlap layout launched by one thread (else the spec's whole grid)
    one_thread: bool = True


def _steps(align: int) -> list[int]:
    """Misalignments that keep `align`: its multiples in 1..15 ([0] if none)."""
    return list(range(align, 16, align)) or [0]


def _mixed(index: int, align: int) -> int:
    if index % 2 == 0:
        return 0
    return 4 * align if 4 * align < 16 else _steps(align)[-1]


LAYOUTS: tuple[Layout, ...] = (
    Layout("aligned", lambda i, a: 0),
    Layout("offset", lambda i, a: _steps(a)[0]),
    Layout("offset-max", lambda i, a: _steps(a)[-1]),
    Layout("mixed", _mixed),
)
OVERLAP_LAYOUTS: tuple[Layout, ...] = (
    Layout("overlap", lambda i, a: -i * a, overlap=True),
    Layout("overlap-back", lambda i, a: i * a, overlap=True),
)
# Every buffer at one address, the whole grid: a kernel whose threads each
# read and write only their own elements (x and y of an axpy, a copy onto
# itself) is race-free there, and its rewrites' paths that one thread never
# takes (block and warp tiles, transposes) run on buffers their run-time
# checks must see overlap. Where the original's threads race there, nothing
# is compared (Verdict.UNCHECKED). The emulator's only: it takes schedules
# to tell.
ALIAS_LAYOUT = Layout("alias", lambda i, a: 0, overlap=True, one_thread=False)


def poison_of(index: int) -> int:
    """The guard byte of the index-th parameter's buffer: POISON for the
    first, others distinct from it and from each other."""
    return (POISON + 0x3B * index) % 256


MAX_BUFFER = 1 << 34  # bytes of one buffer: 16 GiB, beyond what a test needs, within what a host has


def make_args(spec: KernelSpec, n: int, rng: np.random.Generator, layout: Layout) -> list[Arg]:
    """The kernel's arguments at size n: buffers laid out as `layout` says."""
    values = [evaluate(p.expr, {"n": n}) for p in spec.params]
    for p, size in zip(spec.params, values):
        if p.is_buffer and not 0 <= size <= MAX_BUFFER:
            raise CoaldaError(f"kernel {spec.name} at n={n}: buffer {p.name} of {size} bytes; a buffer takes "
                              f"0 to {MAX_BUFFER} bytes (16 GiB)")
    if layout.overlap:
        return _overlapping_args(spec, values, n, rng, layout)
    args: list[Arg] = []
    for index, (param, value) in enumerate(zip(spec.params, values)):
        if not param.is_buffer:
            args.append(value)
            continue
        args.append(_own_buffer(param, value, n, rng, index, layout.offsets(index, param.align or spec.align),
                                layout, spec.align))
    return args


def _contents(param: Param, size: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """Random bytes, or the int32 values the spec asks for (a bound in memory)."""
    if param.int32 is None:
        return rng.integers(0, 256, size, dtype=np.uint8)
    if size % 4:
        raise CoaldaError(f"parameter {param.name}: int32 contents need a size that is a multiple of 4, not {size}")
    value = evaluate(param.int32, {"n": n})
    if not -(1 << 31) <= value < 1 << 31:
        raise CoaldaError(f"parameter {param.name}: int32 contents of {value} at n={n}, which no int32 holds")
    return np.full(size // 4, value, dtype="<i4").view(np.uint8)


def _overlapping_args(
    spec: KernelSpec, values: list[int], n: int, rng: np.random.Generator, layout: Layout
) -> list[Arg]:
    buffers = [i for i, p in enumerate(spec.params) if p.is_buffer]
    # the whole grid's writes through the other buffers must not change the
    # bounds and indices a spec gives (int32 contents): those stay apart, as
    # do structs taken by value (a copy of their own on a GPU); a struct's
    # pointer fields' buffers overlap like parameters (slots after them)
    structs = [i for i in buffers if spec.params[i].fields]
    apart = {i for i in buffers
             if spec.params[i].byval or spec.params[i].fields
             or not layout.one_thread and spec.params[i].int32 is not None}
    own = {i: _own_buffer(spec.params[i], values[i], n, rng, i, align=spec.align)
           for i in apart if i not in structs}
    # a slot: (param, None) for a parameter's buffer, (param, k) for field k
    slots: list[tuple[int, int | None]] = [(i, None) for i in buffers if i not in apart]
    sizes = {(i, None): values[i] for i, _ in slots}
    for i in structs:
        for k, field in enumerate(spec.params[i].fields):
            if field.buffer is not None:
                slots.append((i, k))
                sizes[(i, k)] = evaluate(field.buffer.expr, {"n": n})
    if not slots:
        return [own.get(i, v) for i, v in enumerate(values)]
    position = {slot: layout.offsets(number, spec.align) for number, slot in enumerate(slots)}
    low = min(position.values())
    span = max(position[slot] - low + sizes[slot] for slot in slots)
    storage = _allocation(GUARD + span + GUARD)
    storage[GUARD : GUARD + span] = rng.integers(0, 256, span, dtype=np.uint8)
    for i, k in slots:
        if k is None and spec.params[i].int32 is not None:
            at = GUARD + position[(i, k)] - low
            storage[at : at + values[i]] = _contents(spec.params[i], values[i], n, rng)
    placed = {slot: HostBuffer(storage, GUARD + position[slot] - low, sizes[slot], GUARD, GUARD + span)
              for slot in slots}
    for i in structs:
        shell = _struct(dataclasses.replace(spec.params[i], fields=tuple(
            f for f in spec.params[i].fields if f.buffer is None)), values[i], n, rng, i, None, spec.align)
        own[i] = dataclasses.replace(shell, pointers=tuple(
            (f.at, placed[(i, k)]) for k, f in enumerate(spec.params[i].fields) if f.buffer is not None))
    return [
        own[i] if i in own else placed[(i, None)] if p.is_buffer else values[i]
        for i, p in enumerate(spec.params)
    ]


def _own_buffer(param: Param, size: int, n: int, rng: np.random.Generator, index: int,
                misalign: int = 0, layout: Layout | None = None, align: int = 1) -> HostBuffer:
    """A buffer in an allocation of its own, `misalign` bytes past a 64-byte
    boundary, between guard zones of its parameter's poison (a struct's
    field buffers: as LAYOUT lays out parameters that are ALIGN-aligned)."""
    if param.fields:
        return _struct(param, size, n, rng, index, layout, align)
    offset = GUARD + misalign
    storage = _allocation(offset + size + GUARD, poison_of(index))
    storage[offset : offset + size] = _contents(param, size, n, rng)
    return HostBuffer(storage, offset, size, poison=poison_of(index))


# the k-th field buffer of a struct is laid out as parameter FIELD_INDEX + k
# (its own poison, and its own place in the layout's misalignments)
FIELD_INDEX = 16


def _struct(param: Param, size: int, n: int, rng: np.random.Generator, index: int,
            layout: Layout | None, align: int) -> HostBuffer:
    """A struct taken by value: zero bytes, its int32 fields set, and a
    buffer of its own for each pointer field, laid out as the layout lays
    out a parameter (an overlap layout: aligned)."""
    storage = _allocation(GUARD + size + GUARD, poison_of(index))
    storage[GUARD : GUARD + size] = 0
    pointers = []
    for k, field in enumerate(param.fields):
        if field.int32 is not None:
            value = evaluate(field.int32, {"n": n})
            storage[GUARD + field.at : GUARD + field.at + 4] = np.frombuffer(np.int32(value).tobytes(), np.uint8)
            continue
        assert field.buffer is not None
        at = FIELD_INDEX + k
        bytes_ = evaluate(field.buffer.expr, {"n": n})
        if not 0 <= bytes_ <= MAX_BUFFER:
            raise CoaldaError(f"field {param.name}.{field.name} at n={n}: a buffer of {bytes_} bytes")
        misalign = layout.offsets(at, field.buffer.align or align) if layout and not layout.overlap else 0
        pointers.append((field.at, _own_buffer(field.buffer, bytes_, n, rng, at, misalign)))
    return HostBuffer(storage, GUARD, size, poison=poison_of(index), pointers=tuple(pointers))


def reference_args(spec: KernelSpec, reference: KernelSpec, args: Sequence[Arg], n: int) -> list[Arg]:
    """The reference kernel's arguments: copies of the buffers of the same
    name (it must name the same buffers), its own scalars."""
    by_name = dict(named_buffers(spec, args, fields_by_own_name=True))  # a struct's by its fields' names
    out: list[Arg] = []
    for p in reference.params:
        if not p.is_buffer:
            out.append(evaluate(p.expr, {"n": n}))
        elif isinstance(by_name.get(p.name), HostBuffer):
            out.append(by_name[p.name].copy())  # type: ignore[union-attr]
        else:
            raise CoaldaError(f"reference {reference.name} names buffer {p.name}, which {spec.name} does not have")
    return out


def clone(args: Sequence[Arg]) -> list[Arg]:
    """Fresh copies of the buffers; buffers that share an allocation (the
    overlap layouts) share the copy."""
    copies: dict[int, np.ndarray] = {}

    def copied(a: HostBuffer) -> HostBuffer:
        if id(a.storage) not in copies:
            copies[id(a.storage)] = _aligned_copy(a.storage)
        return dataclasses.replace(a, storage=copies[id(a.storage)],
                                   pointers=tuple((at, copied(b)) for at, b in a.pointers))

    return [copied(a) if isinstance(a, HostBuffer) else a for a in args]


@dataclass
class CaseResult:
    kernel: str
    n: int
    layout: str
    against: str  # "original" or the reference kernel
    match: bool
    detail: str = ""
    schedule: str = "forward"
    verdict: Verdict = Verdict.MATCH
    unchecked: Unchecked | None = None  # with Verdict.UNCHECKED: why
    # a match by `same_code`: the optimized kernel is the original's code,
    # which ran under this schedule as the original
    same_code: bool = False

    def __post_init__(self) -> None:
        if self.verdict in (Verdict.NAN_PAYLOADS, Verdict.UNCHECKED):  # no failure, whatever the caller said
            self.match = True
        if not self.match and self.verdict is Verdict.MATCH:
            self.verdict = Verdict.MISMATCH


def _buffers(spec: KernelSpec, args: Sequence[Arg]) -> list[tuple[str, Param, HostBuffer]]:
    """Every buffer of ARGS with the Param that describes it: a parameter's,
    then a struct's fields' buffers (as `p.field`)."""
    out: list[tuple[str, Param, HostBuffer]] = []
    for param, a in zip(spec.params, args):
        if isinstance(a, HostBuffer):
            out.append((param.name, param, a))
            out += [(f"{param.name}.{f.name}", f.buffer, b)  # type: ignore[misc]
                    for f, (_, b) in zip(param.pointer_fields, a.pointers)]
    return out


def named_buffers(spec: KernelSpec, args: Sequence[Arg],
                  fields_by_own_name: bool = False) -> list[tuple[str, HostBuffer]]:
    """Every buffer of ARGS by name, a struct's fields' as `p.field` (or as
    `field`, which a reference kernel's parameters name)."""
    return [(name.split(".", 1)[-1] if fields_by_own_name else name, b) for name, _, b in _buffers(spec, args)]


def written_bytes(spec: KernelSpec, args: Sequence[Arg]) -> int:
    """The bytes of the buffers the kernel may write (out, inout), a struct's
    fields' buffers included: what a cudaMemcpy baseline moves."""
    return sum(b.size for _, param, b in _buffers(spec, args) if param.kind != "in")


def compare(spec: KernelSpec, expected: Sequence[Arg], actual: Sequence[Arg]) -> str:
    """'' when all buffers (guards included) are identical, else what differs."""
    for (name, a), (_, b) in zip(named_buffers(spec, expected), named_buffers(spec, actual)):
        if not a.guard_before_intact():
            return f"{name}: the original kernel writes before the buffer"
        if not a.guard_after_intact():
            return f"{name}: the original kernel writes past the buffer"
        if not b.guard_before_intact():
            return f"{name}: written before its start (guard zone before it changed)"
        if not b.guard_after_intact():
            return f"{name}: written past its end (guard zone changed)"
        diff = np.flatnonzero(a.storage != b.storage)
        if diff.size:
            first = int(diff[0]) - a.offset
            return f"{name}: {diff.size} bytes differ, first at byte {first}"
    return ""


def nan_payloads_only(spec: KernelSpec, expected: Sequence[Arg], actual: Sequence[Arg]) -> bool:
    """Whether every byte that differs lies in a double (an 8-byte word at a
    multiple of 8 into its buffer) that is a NaN on both sides: which NaN
    operand's payload an f64 add or fma keeps on the GPU follows the
    operand order ptxas chooses, not the PTX's (an H200 gave y's in one
    kernel and the other operand's in a rewrite of it with the same PTX
    operand order: docs/benchmarks.md, "Records written in part"), so two
    correct versions of a kernel may differ there. f32 results are one
    canonical NaN on the GPU and never differ so."""
    differs = False
    for (_, a), (_, b) in zip(named_buffers(spec, expected), named_buffers(spec, actual)):
        diff = np.flatnonzero(a.storage != b.storage)
        if not diff.size:
            continue
        differs = True
        words = np.unique((diff - a.offset) // 8)
        if words[0] < 0 or (words[-1] + 1) * 8 > a.size:
            return False  # outside the buffer's whole words: the guards, or a tail
        for side in (a, b):
            values = side.storage[side.offset : side.offset + a.size // 8 * 8].view("<u8")[words]
            exponent, mantissa = (values >> 52) & 0x7FF, values & ((1 << 52) - 1)
            if not np.all((exponent == 0x7FF) & (mantissa != 0)):
                return False
    return differs


@dataclass(frozen=True)
class _Launch:
    kernel: str
    grid: Dim3
    block: Dim3
    shared_bytes: int

    def run(self, executor: Executor, args: Sequence[Arg], schedule: Schedule) -> list[Arg]:
        """A copy of args after one launch under schedule."""
        out = clone(args)
        extra = {"shared_bytes": self.shared_bytes} if self.shared_bytes else {}
        executor.run(self.kernel, self.grid, self.block, out, schedule=schedule, **extra)  # type: ignore[call-arg]
        return out


UNDEFINED_LANES = ("not checked on the GPU: the original stores vector lanes it leaves undefined (the padding lane "
                   "of a 3-element vector), whatever a register held there; the emulator checks it")


def other_poison(schedule: Schedule) -> Schedule:
    """The same order with the other shared poison (coalda/emulator/schedule.py)."""
    return dataclasses.replace(schedule, other_poison=not schedule.other_poison)


def _racy_detail(spec: KernelSpec, run_original: Callable[[Schedule], list[Arg]], expected: Sequence[Arg],
                 first: Schedule, schedule: Schedule, detail: str) -> str:
    """Why the original's result under SCHEDULE differs from FIRST's: when
    FIRST's order with the other shared poison differs too, the kernel reads
    __shared__ bytes no thread wrote (on a GPU: what an earlier block left);
    else a race between its threads."""
    unwritten = compare(spec, expected, run_original(other_poison(first)))
    if unwritten:
        return (f"racy original: the test kernel reads __shared__ memory no thread wrote "
                f"({first} vs {other_poison(first)}: {unwritten})")
    return f"racy original: the test kernel itself depends on the schedule ({first} vs {schedule}: {detail})"


def _racy_original(spec: KernelSpec, layout: Layout, run_original: Callable[[Schedule], list[Arg]],
                   expected: Sequence[Arg], originals: Sequence[Schedule], schedules: Sequence[Schedule],
                   result: Callable[..., CaseResult]) -> list[CaseResult]:
    """The one result that says the original's own bytes depend on the
    schedule (its runs under ORIGINALS after the first, against EXPECTED,
    the first's), or none when they do not."""
    for schedule in originals[1:]:
        detail = compare(spec, expected, run_original(schedule))
        if detail and layout.overlap and layout.one_thread:
            return [result("original", "not checked: in this one-thread launch the original reads __shared__ "
                           f"memory no thread wrote, so it needs its whole block ({detail})", schedules[0],
                           Verdict.UNCHECKED, Unchecked.ONE_THREAD)]
        if detail and layout.overlap:
            return [result("original", "not checked: with every buffer at one address the original's result "
                           f"depends on the schedule ({detail})", schedule, Verdict.UNCHECKED, Unchecked.ALIAS)]
        if detail:
            return [result("original", _racy_detail(spec, run_original, expected, schedules[0], schedule, detail),
                           schedule, Verdict.RACY_ORIGINAL)]
    return []


def check(
    spec: KernelSpec,
    symbol: Callable[[str], str],
    original: Executor,
    optimized: Executor,
    n: int,
    rng: np.random.Generator,
    layouts: Sequence[Layout] = LAYOUTS,
    reference: KernelSpec | None = None,
    schedules: Sequence[Schedule] = SCHEDULES,
    overlap: bool = False,
    nan_payloads: bool = False,
    alias: bool = False,
    undefined_lanes: bool = False,
) -> list[CaseResult]:
    """Run original vs optimized (and the reference vs original) for one n:
    one result per layout and schedule (one per layout when the original is
    racy or the layout is an overlap layout). With nan_payloads (the GPU's
    runs: the emulator's f64 NaNs are canonical), an optimized result whose
    bytes differ only inside doubles that are NaN on both sides is a match
    (Verdict.NAN_PAYLOADS). With undefined_lanes (the GPU's runs of a kernel
    whose original stores a vector with a lane it leaves undefined,
    ir.undefined_lane_stores), a difference is not checked
    (Verdict.UNCHECKED): those bytes are whatever a register held, and
    which bytes they are the GPU cannot tell; the emulator checks it."""
    if not schedules:
        raise CoaldaError("check needs at least one schedule")
    results: list[CaseResult] = []
    for layout in [*layouts, *(OVERLAP_LAYOUTS if overlap else ()), *((ALIAS_LAYOUT,) if overlap and alias else ())]:
        results += _check_layout(spec, symbol, original, optimized, n, rng, layout, reference, schedules,
                                 nan_payloads, undefined_lanes)
    return results


def _check_layout(
    spec: KernelSpec, symbol: Callable[[str], str], original: Executor, optimized: Executor, n: int,
    rng: np.random.Generator, layout: Layout, reference: KernelSpec | None, schedules: Sequence[Schedule],
    nan_payloads: bool = False, undefined_lanes: bool = False,
) -> list[CaseResult]:
    grid, block = spec.dims(n)
    shared = spec.shared_bytes(n)
    # the original's runs: every schedule; in an overlap layout's one thread
    # the first one twice, the second time with the other shared poison
    originals = list(schedules)
    if layout.overlap and layout.one_thread:  # one thread: the original is race-free on any overlap
        grid, block, schedules = (1, 1, 1), (1, 1, 1), schedules[:1]
        originals = [schedules[0], other_poison(schedules[0])]
    launch = _Launch(symbol(spec.name), grid, block, shared)
    args = make_args(spec, n, rng, layout)

    def result(against: str, detail: str, schedule: Schedule, verdict: Verdict,
               unchecked: Unchecked | None = None, unchanged: bool = False) -> CaseResult:
        return CaseResult(spec.name, n, layout.name, against, verdict is Verdict.MATCH, detail, str(schedule), verdict,
                          unchecked, unchanged)

    def run_original(schedule: Schedule) -> list[Arg]:
        try:
            return launch.run(original, args, schedule)
        except EmulationFault as fault:
            raise EmulationFault(f"the original kernel {spec.name} (n={n}, {layout.name}, {schedule}): {fault}") from None

    # The original under its other schedules tells a racy test kernel from
    # a racy rewrite. A kernel the pass left as it was runs them all (that
    # is all there is to check of it), and so does an overlap layout (where
    # an original whose result depends on the schedule is "not checked").
    # Otherwise the original's other runs come only when the rewritten
    # kernel's bytes differ somewhere: where they match the original's first
    # run under every schedule, the rewrite computed, under each, bytes the
    # original computes, and those runs would decide nothing (they were a
    # third of the emulator's launches in `make test`).
    unchanged = same_code(original, optimized, launch.kernel)
    expected = run_original(originals[0])
    if unchanged or layout.overlap:
        if racy := _racy_original(spec, layout, run_original, expected, originals, schedules, result):
            return racy
    details: list[tuple[str, bool]] = []
    payloads: set[int] = set()  # the schedules whose differences are all in NaN payloads
    for k, schedule in enumerate(schedules):
        if unchanged:
            details.append(("", False))
            continue
        try:
            output = launch.run(optimized, args, schedule)
        except EmulationFault as fault:
            details.append((f"the rewritten kernel faults: {fault}", True))
            continue
        detail = compare(spec, expected, output)
        if detail and nan_payloads and nan_payloads_only(spec, expected, output):
            payloads.add(k)
        details.append((detail, False))
    if not (unchanged or layout.overlap) and any(detail for detail, _ in details):
        if racy := _racy_original(spec, layout, run_original, expected, originals, schedules, result):
            return racy
    failing = sum(1 for k, (detail, _) in enumerate(details) if detail and k not in payloads)
    results = []
    for k, (schedule, (detail, fault)) in enumerate(zip(schedules, details)):
        if k in payloads:
            results.append(result("original", f"only in doubles that are NaN on both sides: {detail}", schedule,
                                  Verdict.NAN_PAYLOADS))
        elif not detail:
            results.append(result("original", "", schedule, Verdict.MATCH, unchanged=unchanged))
        elif fault:
            results.append(result("original", detail, schedule, Verdict.FAULT))
        elif undefined_lanes:
            results.append(result("original", f"{UNDEFINED_LANES}: {detail}", schedule, Verdict.UNCHECKED,
                                  Unchecked.UNDEFINED_LANES))
        elif failing < len(schedules):
            results.append(result("original", f"race in the rewritten kernel (schedule {schedule}): {detail}",
                                  schedule, Verdict.RACE))
        else:
            results.append(result("original", detail, schedule, Verdict.MISMATCH))
    if reference is not None and not layout.overlap:
        ref_grid, ref_block = reference.dims(n)
        theirs = reference_args(spec, reference, args, n)
        extra = {"shared_bytes": reference.shared_bytes(n)} if reference.shared_bytes(n) else {}
        original.run(symbol(reference.name), ref_grid, ref_block, theirs, schedule=schedules[0], **extra)  # type: ignore[call-arg]
        mine = dict(named_buffers(spec, expected, fields_by_own_name=True))
        detail = compare(reference, [mine[p.name] if p.is_buffer else 0 for p in reference.params], theirs)
        results.append(result(reference.name, detail, schedules[0], Verdict.MISMATCH if detail else Verdict.MATCH))
    return results
