"""One block of a kernel with barriers, its threads run as fibers, one at a time.

A thread that waits at `__syncthreads` must keep its registers and its place
in the code until every other thread has arrived, so each emulated thread
runs on a C stack of its own (coalda/emulator/fibers.py). The launcher resumes the
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

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..errors import CoaldaError
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
class Native(Protocol):
    """The JIT code's side of a block (coalda/emulator/fibers.py): STATE, RESULT and
    WAIT are the block's arrays, ORDER a thread order (int32)."""

    def interval(self, order: np.ndarray, state: np.ndarray, result: np.ndarray, wait: np.ndarray) -> int:
        """One interval; how many threads exited in it."""
        ...

    def intervals(self, order: np.ndarray, state: np.ndarray, result: np.ndarray, wait: np.ndarray,
                  exited: int) -> tuple[int, int]:
        """Intervals in ORDER while the block-wide barrier between them opens
        (open_block_barrier_ir); how many threads have exited in all
        (counting from EXITED), and how many intervals ran."""
        ...

    def open_block_barrier(self, state: np.ndarray, result: np.ndarray, wait: np.ndarray) -> bool:
        """Open the common case's block-wide barrier (open_block_barrier_ir)."""
        ...


@functools.lru_cache(maxsize=4096)
def _thread_order(schedule: Schedule, block: int, count: int, interval: int, warps_apart: bool) -> np.ndarray:
    """schedule.thread_order as the JIT code reads it (contiguous int32),
    computed once: every launch of a check runs the same blocks under the
    same schedules (the original and the rewrite, in each layout)."""
    order = np.ascontiguousarray(schedule.thread_order(block, count, interval, warps_apart), np.int32)
    order.flags.writeable = False
    return order


def warp_waits(sites: Sequence[Site]) -> bool:
    """Whether any of a module's SITES is a warp-level wait (a `__syncwarp`
    or a warp collective): only then does the schedule run warps apart."""
    return any(KIND_OF[s.intrinsic] in WARP_KINDS for s in sites)


class BlockRun:
    """The threads of one block, run to completion one at a time."""

    def __init__(self, block: int, where: str, count: int, schedule: Schedule, sites: Sequence[Site],
                 native: Native, warps_apart: bool) -> None:
        """WARPS_APART: whether SITES have a warp-level wait (warp_waits), so
        that the schedule runs warps apart (its lagging warps otherwise only
        add intervals); computed once per module, not once per block."""
        self.block, self.where, self.count, self.schedule = block, where, count, schedule
        self.sites, self.native = sites, native
        self.state: list[int] = []
        # per thread: kind, site, arg (a mask for warp kinds), then a
        # collective's operands a, b, c (the JIT code's six words, as lists)
        self.wait: list[list[int]] = []
        self.result: list[int] = []
        self._activemasks = 0  # __activemask() groups opened, for the schedule's splits
        self._warps_apart = warps_apart
        self._held: set[int] = set()  # lanes the schedule keeps waiting at an __activemask()

    def run(self) -> None:
        """Run every thread of the block; raises EmulationFault on an error.
        An order that is the same in every interval runs its intervals in
        the JIT code until something other than a common block-wide barrier
        must open; a shuffled order changes each interval, so each interval
        comes back here for its order."""
        state = np.full(self.count, FRESH, np.int32)
        result = np.zeros(self.count, np.int32)
        wait = np.zeros((self.count, 6), np.int32)
        exited, interval = 0, 0
        fixed = self.schedule.same_order_every_interval
        while True:
            if fixed:
                order = _thread_order(self.schedule, 0, self.count, 0, False)
                exited, ran = self.native.intervals(order, state, result, wait, exited)
                interval += ran
                if exited == self.count:
                    return
            else:
                order = _thread_order(self.schedule, self.block, self.count, interval, self._warps_apart)
                exited += self.native.interval(order, state, result, wait)
                if exited == self.count:
                    return
                interval += 1
                if self.native.open_block_barrier(state, result, wait):
                    continue
            waiting = np.flatnonzero(state == WAITING).tolist()
            self.state, self.result, self.wait = state.tolist(), result.tolist(), wait.tolist()
            problem = self._open(waiting)
            if problem:
                raise EmulationFault(f"{self.where}: {problem}")
            state[:] = self.state
            result[:] = self.result

    # -- barriers

    def _open(self, waiting: list[int]) -> str:
        """Open what can open (every live thread waits; WAITING: those that
        wait, in order); '' or the error."""
        problem = self._open_warps(waiting)
        if problem is not None:
            return problem
        # a thread a warp collective just let go, or one of a warp the
        # schedule left out of the interval, has yet to run
        if READY in self.state or FRESH in self.state:
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
        kind, site, arg = self.wait[t][:3]
        return (kind, site, arg if kind == SYNC else 0)

    def _open_warps(self, waiting: list[int]) -> str | None:
        """Open each `__syncwarp` and warp collective whose mask's lanes all
        wait (or have exited) at one of the same kind with the same mask, at
        any call site (sm_70 and later pair them across sites)."""
        self._open_activemasks(waiting)
        state, wait = self.state, self.wait
        closed: set[tuple[int, int, int]] = set()  # (warp's first thread, kind, mask) that cannot open now
        for t in waiting:
            kind, site, mask = wait[t][:3]
            if kind not in WARP_KINDS or kind == ACTIVEMASK or state[t] != WAITING:
                continue
            mask &= 0xFFFFFFFF
            lane = t % WARP
            if not mask >> lane & 1:
                return f"thread {t}: {self.sites[site].describe(mask)} names a mask without its own lane {lane}"
            key = (t - lane, kind, mask)
            if key not in closed and not self._open_group(key):
                closed.add(key)
        return None

    def _open_group(self, key: tuple[int, int, int]) -> bool:
        """Open the collective of KEY's lanes when every one that has not
        exited waits at it; whether it opened."""
        base, kind, mask = key
        state, wait = self.state, self.wait
        present = []
        for lane in _lanes(mask):
            u = base + lane
            if u >= self.count:
                break
            if state[u] == EXITED:
                continue
            if state[u] != WAITING or wait[u][0] != kind or wait[u][2] & 0xFFFFFFFF != mask:
                return False
            present.append(u)
        results = _collective(kind, {u % WARP: tuple(wait[u][3:]) for u in present}) if kind != WARP_SYNC else {}
        for u in present:
            state[u] = READY
            self.result[u] = results.get(u % WARP, 0)
        return True

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
            groups.setdefault(self._key(t) if self.wait[t][0] not in WARP_KINDS else tuple(self.wait[t][:3]), []).append(t)
        parts = [
            f"threads {_ranges(ts)} wait at {self.sites[key[1]].describe(key[2])}"
            for key, ts in sorted(groups.items(), key=lambda kv: min(kv[1]))
        ]
        exited = [t for t, s in enumerate(self.state) if s == EXITED]
        if exited:
            parts.append(f"threads {_ranges(exited)} have exited")
        return "; ".join(parts)


@functools.lru_cache(maxsize=1024)
def _lanes(mask: int) -> tuple[int, ...]:
    """The lanes a warp mask names, in order."""
    return tuple(lane for lane in range(WARP) if mask >> lane & 1)


def _block_reduction(kind: int, predicates: list[bool]) -> int:
    """What a block-wide barrier returns: the count, and or or of the
    waiting threads' predicates (__syncthreads_count/and/or), else 0."""
    return {POPC: sum(predicates), AND: int(all(predicates)), OR: int(any(predicates))}.get(kind, 0)


def open_block_barrier_ir() -> str:
    """`__coalda_open_block_barrier(state, result, wait, count)`: the common
    case of BlockRun._open, natively, between two intervals: every live
    thread (none READY or FRESH: a warp the schedule left out of the
    interval has yet to arrive) waits at the same block-wide barrier
    (kind, site, and id for SYNC); it opens, each waiting thread READY with
    the barrier's value (_block_reduction: 0, or the count, and, or of the
    predicates). Returns 1 when it opened, 0 for anything else (the general
    path decides)."""
    row = "getelementptr [6 x i32], ptr %wait, i32"
    return f"""
define internal i32 @__coalda_open_block_barrier(ptr %state, ptr %result, ptr %wait, i32 %count) {{
entry:
  %empty = icmp eq i32 %count, 0
  br i1 %empty, label %no, label %find
find:
  %f = phi i32 [ 0, %entry ], [ %f.next, %find.next ]
  %f.at = getelementptr i32, ptr %state, i32 %f
  %f.state = load i32, ptr %f.at
  %f.waits = icmp eq i32 %f.state, {WAITING}
  %f.ready = icmp eq i32 %f.state, {READY}
  %f.fresh = icmp eq i32 %f.state, {FRESH}
  %f.runs = or i1 %f.ready, %f.fresh
  br i1 %f.waits, label %first, label %f.not.waiting
f.not.waiting:
  br i1 %f.runs, label %no, label %find.next
find.next:
  %f.next = add i32 %f, 1
  %f.more = icmp ult i32 %f.next, %count
  br i1 %f.more, label %find, label %no
first:
  %kind.at = {row} %f, i32 0
  %kind = load i32, ptr %kind.at
  %site.at = {row} %f, i32 1
  %site = load i32, ptr %site.at
  %arg.at = {row} %f, i32 2
  %arg = load i32, ptr %arg.at
  %is.sync = icmp eq i32 %kind, {SYNC}
  %block.wide = icmp ult i32 %kind, {WARP_SYNC}
  br i1 %block.wide, label %check, label %no
check:
  %t = phi i32 [ %f, %first ], [ %t.next, %check.next ]
  %waiting = phi i32 [ 0, %first ], [ %waiting.next, %check.next ]
  %true = phi i32 [ 0, %first ], [ %true.next, %check.next ]
  %t.at = getelementptr i32, ptr %state, i32 %t
  %t.state = load i32, ptr %t.at
  %t.waits = icmp eq i32 %t.state, {WAITING}
  %t.ready = icmp eq i32 %t.state, {READY}
  %t.fresh = icmp eq i32 %t.state, {FRESH}
  %t.runs = or i1 %t.ready, %t.fresh
  br i1 %t.waits, label %same, label %not.waiting
not.waiting:
  br i1 %t.runs, label %no, label %check.next
same:
  %t.kind.at = {row} %t, i32 0
  %t.kind = load i32, ptr %t.kind.at
  %t.site.at = {row} %t, i32 1
  %t.site = load i32, ptr %t.site.at
  %t.arg.at = {row} %t, i32 2
  %t.arg = load i32, ptr %t.arg.at
  %kind.eq = icmp eq i32 %t.kind, %kind
  %site.eq = icmp eq i32 %t.site, %site
  %arg.eq = icmp eq i32 %t.arg, %arg
  %arg.free = xor i1 %is.sync, true
  %arg.ok = or i1 %arg.eq, %arg.free
  %kind.site = and i1 %kind.eq, %site.eq
  %joins = and i1 %kind.site, %arg.ok
  %pred = icmp ne i32 %t.arg, 0
  %pred.one = zext i1 %pred to i32
  br i1 %joins, label %check.next, label %no
check.next:
  %w.add = phi i32 [ 0, %not.waiting ], [ 1, %same ]
  %p.add = phi i32 [ 0, %not.waiting ], [ %pred.one, %same ]
  %waiting.next = add i32 %waiting, %w.add
  %true.next = add i32 %true, %p.add
  %t.next = add i32 %t, 1
  %t.more = icmp ult i32 %t.next, %count
  br i1 %t.more, label %check, label %value
value:
  %all = icmp eq i32 %true.next, %waiting.next
  %all.one = zext i1 %all to i32
  %any = icmp ne i32 %true.next, 0
  %any.one = zext i1 %any to i32
  %is.popc = icmp eq i32 %kind, {POPC}
  %is.and = icmp eq i32 %kind, {AND}
  %and.or = select i1 %is.and, i32 %all.one, i32 %any.one
  %reduced = select i1 %is.popc, i32 %true.next, i32 %and.or
  %v = select i1 %is.sync, i32 0, i32 %reduced
  br label %release
release:
  %r = phi i32 [ %f, %value ], [ %r.next, %release.next ]
  %r.at = getelementptr i32, ptr %state, i32 %r
  %r.state = load i32, ptr %r.at
  %r.waits = icmp eq i32 %r.state, {WAITING}
  br i1 %r.waits, label %release.one, label %release.next
release.one:
  store i32 {READY}, ptr %r.at
  %res.at = getelementptr i32, ptr %result, i32 %r
  store i32 %v, ptr %res.at
  br label %release.next
release.next:
  %r.next = add i32 %r, 1
  %r.more = icmp ult i32 %r.next, %count
  br i1 %r.more, label %release, label %yes
yes:
  ret i32 1
no:
  ret i32 0
}}
"""


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
