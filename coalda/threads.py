"""One block of a kernel with barriers, run as host threads under one token.

A thread that waits at `__syncthreads` must keep its registers and its place
in the code until every other thread has arrived, so each emulated thread
gets a host thread (from a pool reused across blocks and launches) that calls
the JIT-compiled kernel; the barrier intrinsics call back into `BlockRun`.
Exactly one host thread runs kernel code at a time: it holds the token until
it reaches a barrier or returns, then the scheduler (run by whichever thread
gives the token up) picks the next thread in the schedule's order, sets the
special-register globals for it and hands it the token. So memory is never
touched concurrently, and the globals are always the running thread's.

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
- when no thread can run and no barrier can open, the block is deadlocked:
  an error naming where each thread waits.

An error leaves the threads that wait at barriers parked for good (native
frames cannot be unwound); their workers leave the pool and new ones are made.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import CoaldaError
from .schedule import Schedule

WARP = 32
READY, WAITING, EXITED = range(3)
# Barrier kinds, as the lowered intrinsics pass them to the hook.
SYNC, POPC, AND, OR, WARP_SYNC = range(5)
# The warp collectives: shuffles, votes and reductions among a mask's lanes.
SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY, VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT = range(5, 13)
REDUX_ADD, REDUX_MIN, REDUX_MAX, REDUX_UMIN, REDUX_UMAX, REDUX_AND, REDUX_OR, REDUX_XOR = range(13, 21)
SHUFFLES = {"idx": SHFL_IDX, "up": SHFL_UP, "down": SHFL_DOWN, "bfly": SHFL_BFLY}
VOTES = {"all": VOTE_ALL, "any": VOTE_ANY, "uni": VOTE_UNI, "ballot": VOTE_BALLOT}
REDUCTIONS = {"add": REDUX_ADD, "min": REDUX_MIN, "max": REDUX_MAX, "umin": REDUX_UMIN, "umax": REDUX_UMAX,
              "and": REDUX_AND, "or": REDUX_OR, "xor": REDUX_XOR}
WARP_KINDS = frozenset({WARP_SYNC, *range(5, 21)})
KIND_OF = {
    "barrier0": SYNC, "barrier.sync": SYNC, "bar.sync": SYNC,
    "barrier0.popc": POPC, "barrier0.and": AND, "barrier0.or": OR, "bar.warp.sync": WARP_SYNC,
    **{f"shfl.sync.{m}.{t}": k for m, k in SHUFFLES.items() for t in ("i32", "f32")},
    **{f"vote.{m}.sync": k for m, k in VOTES.items()},
    **{f"redux.sync.{m}": k for m, k in REDUCTIONS.items()},
}
_SOURCE_NAME = {
    "barrier0": "__syncthreads", "barrier.sync": "barrier.sync", "bar.sync": "bar.sync",
    "barrier0.popc": "__syncthreads_count", "barrier0.and": "__syncthreads_and",
    "barrier0.or": "__syncthreads_or", "bar.warp.sync": "__syncwarp",
    **{f"shfl.sync.{m}.{t}": "__shfl" + ("" if m == "idx" else "_xor" if m == "bfly" else f"_{m}") + "_sync"
       for m in SHUFFLES for t in ("i32", "f32")},
    **{f"vote.{m}.sync": f"__{m}_sync" for m in VOTES},
    **{f"redux.sync.{m}": f"__reduce_{m}_sync" for m in REDUCTIONS},
}
_STACK = 1 << 20


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
        if KIND_OF[self.intrinsic] in WARP_KINDS:
            name += f"(0x{arg & 0xFFFFFFFF:08x})"
        elif self.intrinsic in ("barrier.sync", "bar.sync"):
            name += f" {arg}"
        return f"{name} at line {self.line}" if self.line is not None else f"{name} (site {self.index})"


class _Worker:
    """A parked host thread; `go` is its token (locked while it waits)."""

    def __init__(self) -> None:
        self.go = threading.Lock()
        self.go.acquire()
        self.job: Callable[[], None] | None = None
        previous = threading.stack_size(_STACK)
        try:
            self.thread = threading.Thread(target=self._loop, name="coalda-emulated-thread", daemon=True)
            self.thread.start()
        finally:
            threading.stack_size(previous)

    def _loop(self) -> None:
        while True:
            self.go.acquire()
            job = self.job
            if job is None:
                return
            job()


class _Pool:
    """Idle workers, shared by every launch (launches do not overlap)."""

    def __init__(self) -> None:
        self.idle: list[_Worker] = []
        self.lock = threading.Lock()

    def take(self, count: int) -> list[_Worker]:
        with self.lock:
            taken, self.idle = self.idle[:count], self.idle[count:]
        return taken + [_Worker() for _ in range(count - len(taken))]

    def give(self, workers: Sequence[_Worker]) -> None:
        with self.lock:
            self.idle.extend(workers)


POOL = _Pool()


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


class BlockRun:
    """The threads of one block, run to completion under one token."""

    def __init__(
        self,
        block: int,
        where: str,
        coords: Sequence[tuple[int, int, int]],
        schedule: Schedule,
        sites: Sequence[Site],
        workers: Sequence[_Worker],
        entry: Callable[[], None],
        set_tid: Callable[[tuple[int, int, int]], None],
    ) -> None:
        self.block, self.where, self.coords, self.schedule = block, where, coords, schedule
        self.sites, self.workers, self.entry, self.set_tid = sites, workers, entry, set_tid
        count = len(coords)
        self.state = [READY] * count
        self.wait: list[tuple[int, int, int]] = [(0, 0, 0)] * count  # (kind, site, arg: a mask for warp kinds)
        self.operands: list[tuple[int, int, int]] = [(0, 0, 0)] * count  # a collective's a, b, c
        self.result = [0] * count
        self.exited = 0
        self.current = -1
        self.interval = 0
        self.queue = deque(int(t) for t in schedule.thread_order(block, count, 0))
        self.done = threading.Lock()
        self.done.acquire()
        self.error: str | None = None
        for t, worker in enumerate(workers):
            worker.job = self._job(t)

    def _job(self, t: int) -> Callable[[], None]:
        return lambda: self._body(t)

    def run(self) -> None:
        """Run every thread of the block; raises EmulationFault on an error."""
        self._dispatch()
        self.done.acquire()
        if self.error is not None:
            raise EmulationFault(self.error)

    def stuck(self) -> list[_Worker]:
        """Workers whose threads are parked inside the kernel for good."""
        return [w for t, w in enumerate(self.workers) if self.state[t] == WAITING]

    # -- called in the host thread of the emulated thread that holds the token

    def _body(self, t: int) -> None:
        try:
            self.entry()
        except BaseException as exc:  # noqa: BLE001 - must hand the token on, whatever happened
            self._fail(f"{self.where}: thread {t} failed: {exc}")
            return
        self.state[t] = EXITED
        self.exited += 1
        self._dispatch()

    def arrive(self, kind: int, site: int, arg: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        """The current thread reached a barrier or a warp collective (ARG its
        mask, A-C its operands): park it until it opens."""
        t = self.current
        try:
            self.state[t] = WAITING
            self.wait[t] = (kind, site, arg)
            self.operands[t] = (a, b, c)
            self._dispatch()
        except BaseException as exc:  # noqa: BLE001
            self._fail(f"{self.where}: the barrier of thread {t} failed: {exc}")
        self.workers[t].go.acquire()
        return self.result[t]

    def _fail(self, message: str) -> None:
        if self.error is None:
            self.error = message
            self.done.release()

    def _dispatch(self) -> None:
        """Hand the token to the next ready thread of the interval; at the
        end of an interval open barriers and start the next one."""
        count = len(self.coords)
        while True:
            while self.queue:
                t = self.queue.popleft()
                if self.state[t] == READY:
                    self.current = t
                    self.set_tid(self.coords[t])
                    self.workers[t].go.release()
                    return
            if self.exited == count:
                self.done.release()
                return
            problem = self._open()
            if problem:
                self._fail(f"{self.where}: {problem}")
                return
            self.interval += 1
            self.queue = deque(int(t) for t in self.schedule.thread_order(self.block, count, self.interval))

    # -- barriers

    def _open(self) -> str:
        """Open what can open (every live thread waits); '' or the error."""
        waiting = [t for t, s in enumerate(self.state) if s == WAITING]
        problem = self._open_warps(waiting)
        if problem is not None:
            return problem
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
        count = len(self.coords)
        for t in waiting:
            kind, site, mask = self.wait[t]
            if kind not in WARP_KINDS or self.state[t] != WAITING:
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

    def _release(self, waiting: list[int]) -> None:
        kind = self.wait[waiting[0]][0]
        predicates = [self.wait[t][2] != 0 for t in waiting]
        value = {POPC: sum(predicates), AND: int(all(predicates)), OR: int(any(predicates))}.get(kind, 0)
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
