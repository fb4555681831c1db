"""Differential runs: the original and the optimized kernel (and a hand-written
reference) on the same fresh random inputs, compared byte for byte.

Every pointer argument gets its own allocation: random contents (outputs too,
so that bytes a kernel must not touch are checked), followed by a guard zone of
POISON bytes. The whole allocation, guard included, must be identical after
the original and the optimized kernel, and the guard must still be POISON.
Each case runs under several layouts (buffer start offsets), so that every
version the rewrite emits (16-, 4-byte units, member width) is exercised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .errors import CoaldaError
from .spec import Dim3, KernelSpec, evaluate

GUARD = 256
POISON = 0xA5


@dataclass
class HostBuffer:
    """A pointer argument: `storage[offset:offset+size]` plus a poisoned guard."""

    storage: np.ndarray
    offset: int
    size: int

    def copy(self) -> HostBuffer:
        return HostBuffer(self.storage.copy(), self.offset, self.size)

    def guard_intact(self) -> bool:
        end = self.offset + self.size
        return bool((self.storage[end : end + GUARD] == POISON).all())


Arg = HostBuffer | int


class Executor(Protocol):
    """Runs one kernel of one module on host buffers, in place."""

    def run(self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg]) -> None: ...


@dataclass
class Layout:
    name: str
    offsets: Callable[[int, int], int]  # (param index, align) -> start offset


LAYOUTS = (
    Layout("aligned", lambda i, a: 0),
    Layout("offset", lambda i, a: a),
    Layout("mixed", lambda i, a: 0 if i % 2 == 0 else 4 * a),
)


def make_args(spec: KernelSpec, n: int, rng: np.random.Generator, layout: Layout) -> list[Arg]:
    args: list[Arg] = []
    for index, param in enumerate(spec.params):
        value = evaluate(param.expr, {"n": n})
        if not param.is_buffer:
            args.append(value)
            continue
        offset = layout.offsets(index, spec.align)
        # Over-allocate so that storage[0] is 64-byte aligned: offsets are exact.
        raw = np.empty(offset + value + GUARD + 64, dtype=np.uint8)
        start = (-raw.ctypes.data) % 64
        storage = raw[start : start + offset + value + GUARD]
        storage[: offset + value] = rng.integers(0, 256, offset + value, dtype=np.uint8)
        storage[offset + value :] = POISON
        args.append(HostBuffer(storage, offset, value))
    return args


def reference_args(spec: KernelSpec, reference: KernelSpec, args: Sequence[Arg], n: int) -> list[Arg]:
    """The reference kernel's arguments: copies of the buffers of the same
    name (it must name the same buffers), its own scalars."""
    by_name = {p.name: a for p, a in zip(spec.params, args)}
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
    return [a.copy() if isinstance(a, HostBuffer) else a for a in args]


@dataclass
class CaseResult:
    kernel: str
    n: int
    layout: str
    against: str  # "original" or the reference kernel
    match: bool
    detail: str = ""


def compare(spec: KernelSpec, expected: Sequence[Arg], actual: Sequence[Arg]) -> str:
    """'' when all buffers (guards included) are identical, else what differs."""
    for param, a, b in zip(spec.params, expected, actual):
        if not isinstance(a, HostBuffer):
            continue
        assert isinstance(b, HostBuffer)
        if not a.guard_intact():
            return f"{param.name}: the original kernel writes past the buffer"
        if not b.guard_intact():
            return f"{param.name}: written past its end (guard zone changed)"
        diff = np.flatnonzero(a.storage != b.storage)
        if diff.size:
            first = int(diff[0]) - a.offset
            return f"{param.name}: {diff.size} bytes differ, first at byte {first}"
    return ""


def check(
    spec: KernelSpec,
    symbol: Callable[[str], str],
    original: Executor,
    optimized: Executor,
    n: int,
    rng: np.random.Generator,
    layouts: Sequence[Layout] = LAYOUTS,
    reference: KernelSpec | None = None,
) -> list[CaseResult]:
    """Run original vs optimized (and the reference vs original) for one n."""
    grid, block = spec.dims(n)
    results = []
    for layout in layouts:
        args = make_args(spec, n, rng, layout)
        expected = clone(args)
        original.run(symbol(spec.name), grid, block, expected)
        actual = clone(args)
        optimized.run(symbol(spec.name), grid, block, actual)
        detail = compare(spec, expected, actual)
        results.append(CaseResult(spec.name, n, layout.name, "original", not detail, detail))
        if reference is not None:
            ref_grid, ref_block = reference.dims(n)
            theirs = reference_args(spec, reference, args, n)
            original.run(symbol(reference.name), ref_grid, ref_block, theirs)
            mine = {p.name: a for p, a in zip(spec.params, expected)}
            detail = compare(reference, [mine[p.name] if p.is_buffer else 0 for p in reference.params], theirs)
            results.append(CaseResult(spec.name, n, layout.name, reference.name, not detail, detail))
    return results
