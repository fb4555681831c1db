"""One block of a kernel with barriers, its threads run as fibers, one at a time.

A thread that waits at `__syncthreads` must keep its registers and its place
in the code until every other thread has arrived, so each emulated thread
runs on a C stack of its own (coalda/fibers.py). The launcher resumes the
threads of an interval one after the other in the schedule's order; each
runs until it reaches a barrier or a warp collective (it parks, saying which
and with what operands) or returns. At the end of the interval the launcher
opens what can open and starts the next. So memory is never touched
concurrently, and the special-register globals are always the running
thread's.

Semantics, kept consistent:

- the threads of one interval (between two barriers) run in the order the
  schedule gives for that interval, each to its next barrier or its exit;
- a block-wide barrier (`__syncthreads`, `barrier.sync id`, the
  `__syncthreads_count/and/or` reductions) opens when every thread that has
  not exited waits at it: threads that exited before it are not waited for
  (as GPUs of sm_70 and later behave) and do not count in the reductions;
- the waiting threads must wait at the same call site (and the same barrier
  id): a `__syncthreads` reached on two paths of a branch that splits the
  block is barrier divergence, undefined in CUDA, and reported as an error;
- `__syncwarp(mask)` opens when every thread of the warp named in the mask
  that has not exited waits at a `__syncwarp` with the same mask (any site);
- a warp collective (`__shfl*_sync`, `__all/any/uni/ballot_sync`,
  `__reduce_*_sync`) opens when every thread of the warp named in its mask
  that has not exited waits at one of the same kind with the same mask (any
  site, as sm_70 and later pair them); then
  each gets its result as PTX defines it (a shuffle's source lane from its
  mode, offset and width) over the lanes present; a shuffle from a lane
  that is not present (undefined in CUDA) reads the reader's own value;
- `__activemask()` opens once every thread has run to its next stop: the
  lanes of the warp that wait at the same `__activemask()` call are the ones
  that run together, and each gets their mask (lanes waiting elsewhere or
  exited are not in it). A GPU may also run them apart (independent thread
  scheduling): under the shuffled schedule they are split at random into
  two groups, each reading its own mask (Schedule.warp_groups), so code that
  takes a warp-wide path only on a full mask runs both ways; and the second
  group may be held there (Schedule.holds) while the first runs on, until
  lanes of its warp come back to the call (the next iteration of a loop:
  they read one mask with the lanes still in the iteration before) or no
  other thread can run;
- when no thread can run and no barrier can open, the block is deadlocked:
  an error naming where each thread waits.

An error abandons the threads that wait at barriers: their fibers are
made afresh when their memory is used again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import CoaldaError
from .fibers import EXITED, FRESH, READY, WAITING
from .schedule import Schedule

WARP = 32
# Barrier kinds, as the lowered intrinsics write them into the wait record.
SYNC, POPC, AND, OR, WARP_SYNC = range(5)
# The warp collectives: shuffles, votes and reductions among a mask's lanes.
SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY, VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT = range(5, 13)
REDUX_ADD, REDUX_MIN, REDUX_MAX, REDUX_UMIN, REDUX_UMAX, REDUX_AND, REDUX_OR, REDUX_XOR = range(13, 21)
ACTIVEMASK = 21  # __activemask(): which lanes of the warp run with the caller
SHUFFLES = {"idx": SHFL_IDX, "up": SHFL_UP, "down": SHFL_DOWN, "bfly": SHFL_BFLY}
VOTES = {"all": VOTE_ALL, "any": VOTE_ANY, "uni": VOTE_UNI, "ballot": VOTE_BALLOT}
REDUCTIONS = {"add": REDUX_ADD, "min": REDUX_MIN, "max": REDUX_MAX, "umin": REDUX_UMIN, "umax": REDUX_UMAX,
              "and": REDUX_AND, "or": REDUX_OR, "xor": REDUX_XOR}
WARP_KINDS = frozenset({WARP_SYNC, *range(5, 22)})
KIND_OF = {
    "barrier0": SYNC, "barrier.sync": SYNC, "bar.sync": SYNC,
    "barrier0.popc": POPC, "barrier0.and": AND, "barrier0.or": OR, "bar.warp.sync": WARP_SYNC,
    **{f"shfl.sync.{m}.{t}": k for m, k in SHUFFLES.items() for t in ("i32", "f32")},
    **{f"vote.{m}.sync": k for m, k in VOTES.items()},
    **{f"redux.sync.{m}": k for m, k in REDUCTIONS.items()},
    "activemask": ACTIVEMASK,
}
_SOURCE_NAME = {
    "barrier0": "__syncthreads", "barrier.sync": "barrier.sync", "bar.sync": "bar.sync",
    "barrier0.popc": "__syncthreads_count", "barrier0.and": "__syncthreads_and",
    "barrier0.or": "__syncthreads_or", "bar.warp.sync": "__syncwarp",
    **{f"shfl.sync.{m}.{t}": "__shfl" + ("" if m == "idx" else "_xor" if m == "bfly" else f"_{m}") + "_sync"
       for m in SHUFFLES for t in ("i32", "f32")},
    **{f"vote.{m}.sync": f"__{m}_sync" for m in VOTES},
    **{f"redux.sync.{m}": f"__reduce_{m}_sync" for m in REDUCTIONS},
    "activemask": "__activemask",
}


class EmulationFault(CoaldaError):
    """The kernel did something undefined that the emulator detects: barrier
    divergence, a deadlock, a write past its dynamic shared memory."""


@dataclass(frozen=True)
class Site:
    """A barrier call site of the module (its index is the site id in the IR)."""

    index: int
    function: str
    intrinsic: str  # without the llvm.nvvm. prefix
    line: int | None

    def describe(self, arg: int) -> str:
        name = _SOURCE_NAME[self.intrinsic]
        if KIND_OF[self.intrinsic] == ACTIVEMASK:
            name += "()"
        elif KIND_OF[self.intrinsic] in WARP_KINDS:
            name += f"(0x{arg & 0xFFFFFFFF:08x})"
        elif self.intrinsic in ("barrier.sync", "bar.sync"):
            name += f" {arg}"
        return f"{name} at line {self.line}" if self.line is not None else f"{name} (site {self.index})"


def _ranges(threads: Sequence[int]) -> str:
    """'0-31, 40' for [0..31, 40]."""
    parts, start, prev = [], None, None
    for t in sorted(threads):
        if start is None:
            start = prev = t
        elif t == prev + 1:  # type: ignore[operator]
            prev = t
        else:
            parts.append(f"{start}-{prev}" if prev != start else f"{start}")
            start = prev = t
    if start is not None:
        parts.append(f"{start}-{prev}" if prev != start else f"{start}")
    return ", ".join(parts)


# interval(order, state, result, wait) runs one interval natively (the
# threads of ORDER that are FRESH or READY, each to its next barrier) and
# returns how many exited; the arrays are the block's, one row per thread
# (wait: kind, site, arg or mask, a, b, c), updated in place.
Interval = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], int]


class BlockRun:
    """The threads of one block, run to completion one at a time."""

    def __init__(self, block: int, where: str, count: int, schedule: Schedule, sites: Sequence[Site],
                 interval: Interval) -> None:
        self.block, self.where, self.count, self.schedule = block, where, count, schedule
        self.sites, self.interval = sites, interval
        self.state: list[int] = []
        self.wait: list[tuple[int, int, int]] = []  # (kind, site, arg: a mask for warp kinds)
        self.operands: list[tuple[int, int, int]] = []  # a collective's a, b, c
        self.result: list[int] = []
        self._activemasks = 0  # __activemask() groups opened, for the schedule's splits
        self._held: set[int] = set()  # lanes the schedule keeps waiting at an __activemask()

    def run(self) -> None:
        """Run every thread of the block; raises EmulationFault on an error."""
        state = np.full(self.count, FRESH, np.int32)
        result = np.zeros(self.count, np.int32)
        wait = np.zeros((self.count, 6), np.int32)
        exited, interval = 0, 0
        while True:
            order = np.ascontiguousarray(self.schedule.thread_order(self.block, self.count, interval), np.int32)
            exited += self.interval(order, state, result, wait)
            if exited == self.count:
                return
            interval += 1
            if _open_block_barrier(state, result, wait):
                continue
            self.state, self.result = state.tolist(), result.tolist()
            records = wait.tolist()
            self.wait = [(r[0], r[1], r[2]) for r in records]
            self.operands = [(r[3], r[4], r[5]) for r in records]
            problem = self._open()
            if problem:
                raise EmulationFault(f"{self.where}: {problem}")
            state[:] = self.state
            result[:] = self.result

    # -- barriers

    def _open(self) -> str:
        """Open what can open (every live thread waits); '' or the error."""
        waiting = [t for t, s in enumerate(self.state) if s == WAITING]
        problem = self._open_warps(waiting)
        if problem is not None:
            return problem
        if any(self.state[t] == READY for t in waiting):
            return ""
        if self._held:  # nothing else can run: the held lanes go on
            self._open_activemasks(waiting, release=True)
            if any(self.state[t] == READY for t in waiting):
                return ""
        block_wide = [t for t in waiting if self.wait[t][0] not in WARP_KINDS]
        if len(block_wide) == len(waiting):
            keys = {self._key(t) for t in waiting}
            if len(keys) == 1:
                self._release(waiting)
                return ""
            return "barrier divergence: " + self._where_waiting(waiting)
        return "deadlock at barriers: " + self._where_waiting(waiting)

    def _key(self, t: int) -> tuple[int, int, int]:
        kind, site, arg = self.wait[t]
        return (kind, site, arg if kind == SYNC else 0)

    def _open_warps(self, waiting: list[int]) -> str | None:
        """Open each `__syncwarp` and warp collective whose mask's lanes all
        wait (or have exited) at one of the same kind with the same mask, at
        any call site (sm_70 and later pair them across sites)."""
        count = self.count
        self._open_activemasks(waiting)
        for t in waiting:
            kind, site, mask = self.wait[t]
            if kind not in WARP_KINDS or kind == ACTIVEMASK or self.state[t] != WAITING:
                continue
            mask &= 0xFFFFFFFF
            base = t - t % WARP
            if not mask >> (t % WARP) & 1:
                return f"thread {t}: {self.sites[site].describe(mask)} names a mask without its own lane {t % WARP}"
            lanes = [base + lane for lane in range(WARP) if mask >> lane & 1 and base + lane < count]

            def joins(u: int) -> bool:
                if self.state[u] != WAITING or self.wait[u][2] & 0xFFFFFFFF != mask:
                    return False
                return self.wait[u][0] == kind

            if all(self.state[u] == EXITED or joins(u) for u in lanes):
                present = [u for u in lanes if self.state[u] == WAITING]
                results = _collective(kind, {u % WARP: self.operands[u] for u in present})
                for u in present:
                    self.state[u] = READY
                    self.result[u] = results.get(u % WARP, 0)
        return None

    def _open_activemasks(self, waiting: list[int], release: bool = False) -> None:
        """Each `__activemask()`: the lanes of a warp waiting at the same
        call read the mask of their group (all of them together, or the
        schedule's split of them). A group the schedule holds waits until
        other lanes of its warp reach the same call (the next iteration of a
        loop: they read one mask together), or until RELEASE (no other
        thread can run)."""
        groups: dict[tuple[int, int], list[int]] = {}
        for t in waiting:
            if self.wait[t][0] == ACTIVEMASK and self.state[t] == WAITING:
                groups.setdefault((t // WARP, self.wait[t][1]), []).append(t)
        for (warp, site), lanes in groups.items():
            held = any(u in self._held for u in lanes)
            if held and all(u in self._held for u in lanes) and not release:
                continue  # held until lanes of its warp join it here, or nothing else can run
            self._held.difference_update(lanes)
            self._activemasks += 1
            split = self.schedule.warp_groups(self.block, warp, site, self._activemasks, lanes)
            if len(split) == 2 and not held and self.schedule.holds(self.block, warp, site, self._activemasks):
                self._held.update(split.pop())
            for group in split:
                mask = _signed(sum(1 << (u % WARP) for u in group))
                for u in group:
                    self.state[u] = READY
                    self.result[u] = mask

    def _release(self, waiting: list[int]) -> None:
        kind = self.wait[waiting[0]][0]
        predicates = [self.wait[t][2] != 0 for t in waiting]
        value = _block_reduction(kind, predicates)
        for t in waiting:
            self.state[t] = READY
            self.result[t] = value

    def _where_waiting(self, waiting: list[int]) -> str:
        groups: dict[tuple[int, int, int], list[int]] = {}
        for t in waiting:
            groups.setdefault(self._key(t) if self.wait[t][0] not in WARP_KINDS else self.wait[t], []).append(t)
        parts = [
            f"threads {_ranges(ts)} wait at {self.sites[key[1]].describe(key[2])}"
            for key, ts in sorted(groups.items(), key=lambda kv: min(kv[1]))
        ]
        exited = [t for t, s in enumerate(self.state) if s == EXITED]
        if exited:
            parts.append(f"threads {_ranges(exited)} have exited")
        return "; ".join(parts)


def _block_reduction(kind: int, predicates: list[bool]) -> int:
    """What a block-wide barrier returns: the count, and or or of the
    waiting threads' predicates (__syncthreads_count/and/or), else 0."""
    return {POPC: sum(predicates), AND: int(all(predicates)), OR: int(any(predicates))}.get(kind, 0)


def _open_block_barrier(state: np.ndarray, result: np.ndarray, wait: np.ndarray) -> bool:
    """The common case of BlockRun._open, on the arrays: every live thread
    waits at the same block-wide barrier (kind, site, and id for SYNC); it
    opens. False: anything else, for the general path to decide."""
    waiting = state == WAITING
    records = wait[waiting]
    if not len(records):
        return False
    kind, site, arg = (int(v) for v in records[0, :3])
    if kind in WARP_KINDS or (records[:, 0] != kind).any() or (records[:, 1] != site).any():
        return False
    if kind == SYNC and (records[:, 2] != arg).any():
        return False
    value = _block_reduction(kind, (records[:, 2] != 0).tolist())
    state[waiting] = READY
    result[waiting] = value
    return True


def _signed(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >> 31 else value


def _shuffle_source(kind: int, lane: int, b: int, c: int) -> int | None:
    """The lane a shuffle reads (PTX ISA, shfl.sync), or None: its own value."""
    segmask = (c >> 8) & 0x1F
    min_lane = lane & segmask
    max_lane = min_lane | (c & 0x1F & ~segmask)
    if kind == SHFL_UP:
        j = lane - b
        ok = j >= max_lane
    elif kind == SHFL_DOWN:
        j = lane + b
        ok = j <= max_lane
    elif kind == SHFL_BFLY:
        j = lane ^ b
        ok = j <= max_lane
    else:
        j = min_lane | (b & 0x1F & ~segmask)
        ok = j <= max_lane
    return j if ok else None


def _collective(kind: int, operands: dict[int, tuple[int, int, int]]) -> dict[int, int]:
    """Each present lane's result of a warp collective over the present
    lanes' operands (lane -> (a, b, c)). A shuffle from a lane that is not
    present (outside the mask, or exited: undefined in CUDA) reads the
    reader's own value."""
    if kind == WARP_SYNC:
        return {}
    if kind in (SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY):
        out = {}
        for lane, (a, b, c) in operands.items():
            source = _shuffle_source(kind, lane, b & 0xFFFFFFFF, c & 0xFFFFFFFF)
            out[lane] = operands[source][0] if source in operands else a
        return out
    values = {lane: a for lane, (a, _, _) in operands.items()}
    if kind in (VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT):
        predicates = {lane: a & 1 for lane, a in values.items()}
        result = {
            VOTE_ALL: int(all(predicates.values())), VOTE_ANY: int(any(predicates.values())),
            VOTE_UNI: int(len(set(predicates.values())) <= 1),
            VOTE_BALLOT: _signed(sum(1 << lane for lane, p in predicates.items() if p)),
        }[kind]
    else:
        signed = [_signed(v) for v in values.values()]
        unsigned = [v & 0xFFFFFFFF for v in values.values()]
        if kind == REDUX_ADD:
            result = _signed(sum(unsigned))
        elif kind in (REDUX_MIN, REDUX_MAX):
            result = (min if kind == REDUX_MIN else max)(signed)
        elif kind in (REDUX_UMIN, REDUX_UMAX):
            result = _signed((min if kind == REDUX_UMIN else max)(unsigned))
        else:
            acc = 0xFFFFFFFF if kind == REDUX_AND else 0
            for v in unsigned:
                acc = acc & v if kind == REDUX_AND else acc | v if kind == REDUX_OR else acc ^ v
            result = _signed(acc)
    return {lane: result for lane in operands}
