"""Host buffers: the pointer arguments the oracle lays out and the executors
(the emulator, the GPU) run kernels on. Shared vocabulary below the layers
(the emulator unwraps them, the oracle makes them); `coalda.check.oracle`
re-exports HostBuffer and POISON."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

POISON = 0xA5


@dataclass
class HostBuffer:
    """A pointer argument: `storage[offset:offset+size]`. The allocation's
    usable span is `storage[lo:hi]` (the buffer itself, or in an overlap
    layout the union of all buffers); everything outside it is guard."""

    storage: np.ndarray
    offset: int
    size: int
    lo: int = -1
    hi: int = -1
    # each buffer's guards hold a poison of their own, so that bytes copied
    # from one buffer's guard into another's show
    poison: int = POISON
    # a struct taken by value: (byte, buffer) for each pointer field, whose
    # address an executor writes there for the launch (these bytes stay zero)
    pointers: tuple[tuple[int, HostBuffer], ...] = ()

    def __post_init__(self) -> None:
        if self.lo < 0:
            self.lo = self.offset
        if self.hi < 0:
            self.hi = self.offset + self.size

    def copy(self) -> HostBuffer:
        return dataclasses.replace(self, storage=_aligned_copy(self.storage),
                                   pointers=tuple((at, b.copy()) for at, b in self.pointers))

    def with_addresses(self, address: Callable[[HostBuffer], int]) -> np.ndarray:
        """A copy of a struct's bytes with each pointer field set to
        `address(buffer)` (where that buffer is on the executor)."""
        data = self.storage[self.offset : self.offset + self.size].copy()
        for at, buffer in self.pointers:
            data[at : at + 8] = np.frombuffer(np.uint64(address(buffer)).tobytes(), dtype=np.uint8)
        return data

    def guard_before_intact(self) -> bool:
        return bool((self.storage[: self.lo] == self.poison).all())

    def guard_after_intact(self) -> bool:
        return bool((self.storage[self.hi :] == self.poison).all())

    def guard_intact(self) -> bool:
        return self.guard_before_intact() and self.guard_after_intact()



def _allocation(nbytes: int, poison: int = POISON) -> np.ndarray:
    """nbytes of poison whose first byte is 64-byte aligned."""
    raw = np.empty(nbytes + 64, dtype=np.uint8)
    start = (-raw.ctypes.data) % 64
    storage = raw[start : start + nbytes]
    storage[:] = poison
    return storage


def _aligned_copy(storage: np.ndarray) -> np.ndarray:
    """A copy that keeps the allocation's 64-byte alignment (numpy's own copy
    does not), so that every layout's offsets mean what they say."""
    copy = _allocation(storage.nbytes)
    copy[:] = storage
    return copy
