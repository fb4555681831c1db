"""Schedules: the orders in which the CPU emulator runs a grid's threads.

A CUDA grid promises no order between blocks, nor between the threads of a
block except at barriers. A kernel whose result depends on that order has a
race. The emulator runs one thread at a time, so each run follows one order;
running the same launch under several orders and comparing the bytes finds
races that any single order hides:

- `forward`: blocks and threads in increasing linear index (the order of the
  old sequential emulator);
- `reverse`: both in decreasing index, so a thread that reads what a later
  thread writes (or the other way round) sees the other outcome;
- `shuffled`: a seeded random permutation of the blocks, and of each block's
  threads, drawn anew for every interval between two barriers; each warp
  starts 0 to 3 intervals late and then sits out a quarter of the intervals,
  so the others run ahead of it through their `__syncwarp`s (warps keep no
  pace with each other between block barriers: arrays staged in turn once
  gave a warp a slice of the tile that overlapped the next warp's while
  that one ran an array behind, which only the GPU showed);
- `strided`: lane 0 of every warp, then lane 1 of every warp, ... (threads
  32 apart run back to back, as warps interleave on an SM), and the odd
  blocks before the even ones.

Under shuffled the lanes of a warp that reach an `__activemask()` together
are also, half the time, split in two at random (warp_groups), as a GPU's independent thread
scheduling may run them apart; half of those times the second group waits
there while the first runs on (holds), so lanes that come back to the same
call (the next iteration of a loop) run together with lanes an iteration
behind, as a GPU may group any of a warp's lanes that reach one instruction.

Blocks always run one after another (shared memory is per block; one copy of
it serves every block in turn).

A block's `__shared__` memory starts out undefined on a GPU: what an earlier
block or kernel left there. The emulator fills it with a poison byte before
every block, `SHARED_POISON` under forward and `SHARED_POISON_OTHER` under
the other orders (or, with `other_poison`, the other one of the two), so a
kernel that reads a shared byte no thread wrote computes different bytes
under different schedules, as it may on the GPU, and its test is reported
as depending on the schedule rather than passing by luck. The GPU runner
puts the same byte in shared memory before each launch (gpu.py,
GpuExecutor.scrub).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import CoaldaError

KINDS = ("forward", "reverse", "shuffled", "strided")
WARP = 32
# Neither is the guard byte of any of the first 254 parameters
# (oracle.poison_of: 0x6A is no parameter's, 0x2F the 255th's): a staged row
# written where it must not be carries the unwritten tile bytes into a guard
# zone, where a guard byte would hide them.
# threads of one emulated launch: more takes the CPU many minutes (10^8
# ran past 30 s with nothing to show)
MAX_THREADS = 1 << 24
SHARED_POISON = 0x6A
SHARED_POISON_OTHER = 0x2F


@dataclass(frozen=True)
class Schedule:
    """One order of execution: `name` is one of KINDS; `seed` only matters
    for shuffled."""

    name: str
    seed: int = 0
    # the other of the two shared poisons than the order's own
    other_poison: bool = False

    def __post_init__(self) -> None:
        if self.name not in KINDS:
            raise CoaldaError(f"unknown schedule {self.name!r} (known: {', '.join(KINDS)})")

    def __str__(self) -> str:
        name = f"shuffled({self.seed})" if self.name == "shuffled" else self.name
        return f"{name}, other shared poison" if self.other_poison else name

    @property
    def shared_poison(self) -> int:
        """The byte every `__shared__` byte holds when a block starts."""
        own = self.name == "forward"
        return SHARED_POISON if own != self.other_poison else SHARED_POISON_OTHER

    def _rng(self, *key: int) -> np.random.Generator:
        return np.random.default_rng([self.seed, *key])

    def block_order(self, blocks: int) -> np.ndarray:
        """Linear block indices in the order the blocks run."""
        order = np.arange(blocks, dtype=np.uint32)
        if self.name == "reverse":
            return order[::-1].copy()
        if self.name == "shuffled":
            return self._rng(0).permutation(order)
        if self.name == "strided":
            return np.concatenate([order[1::2], order[0::2]])
        return order

    def thread_order(self, block: int, threads: int, interval: int, warps_apart: bool = True) -> np.ndarray:
        """Linear thread indices of one block in the order they run in one
        interval between barriers (interval 0 starts at the kernel entry).
        WARPS_APART: under shuffled, leave the lagging warps out (a module
        with no warp-level wait gains nothing from it, only intervals)."""
        order = np.arange(threads, dtype=np.uint32)
        if self.name == "reverse":
            return order[::-1].copy()
        if self.name == "shuffled":
            order = self._rng(1, block, interval).permutation(order)
            return order[~self._lagging(block, threads, interval)[order // WARP]] if warps_apart else order
        if self.name == "strided":
            return order[np.lexsort((order // WARP, order % WARP))]
        return order

    def _lagging(self, block: int, threads: int, interval: int) -> np.ndarray:
        """Under shuffled, the warps that sit an interval out, per warp: each
        warp of the block starts 0 to 3 intervals late (one of them at once),
        so the others run that many `__syncwarp`s ahead of it for as long as
        no block barrier meets them all; after that a quarter of them sit
        each interval out, drawn anew (never all). Warps keep no pace with
        each other between block barriers on a GPU."""
        warps = -(-threads // WARP)
        if warps < 2:
            return np.zeros(warps, bool)
        start = self._rng(5, block)
        delays = start.integers(0, 4, warps)
        delays[start.integers(0, warps)] = 0
        lag = (interval < delays) | (self._rng(6, block, interval).random(warps) < 1 / 4)
        if lag.all():
            lag[delays == 0] = False
        return lag

    @property
    def same_order_every_interval(self) -> bool:
        """thread_order is the same for every block and interval (all
        schedules but shuffled)."""
        return self.name != "shuffled"

    def warp_groups(self, block: int, warp: int, site: int, k: int, lanes: list[int]) -> list[list[int]]:
        """The groups in which LANES (threads of one warp waiting at one
        `__activemask()`, the K-th opened in the block) run: together, or
        under shuffled, half the time, split at random in two, as a GPU may run
        them apart."""
        if self.name != "shuffled" or len(lanes) < 2:
            return [lanes]
        rng = self._rng(3, block, warp, site, k)
        if rng.integers(0, 2) == 0:  # half the time together, so both paths run
            return [lanes]
        side = rng.integers(0, 2, len(lanes))
        groups = [[t for t, s in zip(lanes, side) if s == g] for g in (0, 1)]
        return [g for g in groups if g]

    def holds(self, block: int, warp: int, site: int, k: int) -> bool:
        """Whether the second group of a split (warp_groups, same arguments)
        keeps waiting at the `__activemask()` while the first runs on: under
        shuffled, half the time."""
        return self.name == "shuffled" and bool(self._rng(4, block, warp, site, k).integers(0, 2))

    def grid_order(self, blocks: int, threads: int) -> np.ndarray:
        """Linear global thread indices (block * threads + thread) of a whole
        barrier-free launch, block after block, each block's threads in the
        order of its interval 0."""
        if blocks * threads > MAX_THREADS:
            raise CoaldaError(f"launch of {blocks} blocks of {threads} threads is too large for the emulator "
                              f"(at most {MAX_THREADS} threads, minutes of CPU; the GPU takes larger sizes)")
        order = self.block_order(blocks)
        if self.name == "shuffled":
            tile = np.broadcast_to(np.arange(threads, dtype=np.uint32), (blocks, threads))
            within = self._rng(2).permuted(tile, axis=1)
        else:
            within = np.broadcast_to(self.thread_order(0, threads, 0), (blocks, threads))
        return (order[:, None] * np.uint32(threads) + within).ravel()


FORWARD = Schedule("forward")
REVERSE = Schedule("reverse")
SHUFFLED = Schedule("shuffled", 1)
STRIDED = Schedule("strided")
SCHEDULES: tuple[Schedule, ...] = (FORWARD, REVERSE, SHUFFLED, STRIDED)
