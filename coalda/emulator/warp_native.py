"""Warp collectives opened in the JIT code, between two intervals of a block.

`BlockRun` (threads.py) opens what waits at the end of an interval in
Python: `__syncwarp`, the shuffles, votes and reductions, `__activemask()`
and the block-wide barriers. For the schedules whose thread order is the
same in every interval (all but shuffled), `__coalda_fiber_intervals` runs
interval after interval natively while what waits can open in the common
way; this module's `__coalda_open_warps` is that common way for the warp
collectives, as `threads.open_block_barrier_ir` is for `__syncthreads`. A
kernel of warp tiles, shuffles or votes then stays in the JIT code for the
whole block instead of coming back to Python after every interval (where a
block's 256 threads cost the launcher a few hundred microseconds each
time).

It decides exactly as `BlockRun._open_warps` does, warp by warp, lane by
lane:

- the lanes of a warp waiting at one `__activemask()` call site each read
  the mask of those lanes (the fixed schedules never split them:
  Schedule.warp_groups);
- a collective of KIND with MASK, waited at by lane l, opens when every
  lane of MASK below the block's thread count has exited or waits at a
  collective of the same kind with the same mask (any site); the lanes
  present (those waiting) get their results as `threads._collective`
  computes them: a shuffle's source lane from its mode, offset and width
  (its own value when the source is not present), a vote's or reduction's
  value over the present lanes, 0 for `__syncwarp`.

It returns how many threads it made READY, or -1 when a lane waits at a
collective whose mask leaves out its own lane: an error, which Python
words (threads.BlockRun._open_warps). With 0, the block-wide barrier is
tried next, as in BlockRun._open.
"""

from __future__ import annotations

from .fibers import EXITED, READY, WAITING
from .threads import (
    ACTIVEMASK, REDUX_ADD, REDUX_AND, REDUX_MAX, REDUX_MIN, REDUX_OR, REDUX_UMAX, REDUX_UMIN, REDUX_XOR, SHFL_BFLY,
    SHFL_DOWN, SHFL_IDX, SHFL_UP, VOTE_ALL, VOTE_ANY, VOTE_BALLOT, VOTE_UNI, WARP_SYNC,
)

# one field of thread %t's wait record: kind, site, arg (a mask), a, b, c
_FIELD = "getelementptr [6 x i32], ptr %wait, i32 {t}, i32 {f}"


def _load_field(name: str, t: str, field: int) -> str:
    return f"  %{name}.at = {_FIELD.format(t=t, f=field)}\n  %{name} = load i32, ptr %{name}.at\n"


def _activemask_ir() -> str:
    """`__coalda_open_activemask(state, result, wait, base, lanes, l)`: lane
    l's `__activemask()` and every lane of its warp waiting at the same
    site read the mask of those lanes; returns how many."""
    return f"""
define internal i32 @__coalda_open_activemask(ptr %state, ptr %result, ptr %wait, i32 %base, i32 %lanes, i32 %l) {{
entry:
  %t = add i32 %base, %l
{_load_field("site", "%t", 1)}  br label %find
find:
  %u = phi i32 [ 0, %entry ], [ %u.next, %find.next ]
  %mask = phi i32 [ 0, %entry ], [ %mask.next, %find.next ]
  %tu = add i32 %base, %u
  %su.at = getelementptr i32, ptr %state, i32 %tu
  %su = load i32, ptr %su.at
  %waits = icmp eq i32 %su, {WAITING}
{_load_field("ku", "%tu", 0)}{_load_field("siteu", "%tu", 1)}  %is.mask = icmp eq i32 %ku, {ACTIVEMASK}
  %same.site = icmp eq i32 %siteu, %site
  %w.k = and i1 %waits, %is.mask
  %joins = and i1 %w.k, %same.site
  %bit = shl i32 1, %u
  %with = or i32 %mask, %bit
  %mask.next = select i1 %joins, i32 %with, i32 %mask
  br label %find.next
find.next:
  %u.next = add i32 %u, 1
  %more = icmp ult i32 %u.next, %lanes
  br i1 %more, label %find, label %give
give:
  %opened = call i32 @__coalda_warp_release(ptr %state, ptr %result, ptr %wait, i32 %base, i32 %lanes,
                                            i32 %mask.next, i32 {ACTIVEMASK}, i32 %mask.next)
  ret i32 %opened
}}
"""


def _present_ir() -> str:
    """`__coalda_warp_present(state, wait, base, lanes, kind, mask)`: the
    lanes of MASK (below LANES) that wait at a collective of KIND with
    MASK, as a mask; -1 when one of them neither waits so nor has exited
    (the collective cannot open yet). In 64 bits, so that a whole warp's
    mask is not -1."""
    return f"""
define internal i64 @__coalda_warp_present(ptr %state, ptr %wait, i32 %base, i32 %lanes, i32 %kind, i32 %mask) {{
entry:
  br label %loop
loop:
  %u = phi i32 [ 0, %entry ], [ %u.next, %next ]
  %present = phi i64 [ 0, %entry ], [ %present.next, %next ]
  %bit.in = lshr i32 %mask, %u
  %bit.one = and i32 %bit.in, 1
  %named = icmp ne i32 %bit.one, 0
  br i1 %named, label %look, label %next
look:
  %tu = add i32 %base, %u
  %su.at = getelementptr i32, ptr %state, i32 %tu
  %su = load i32, ptr %su.at
  %gone = icmp eq i32 %su, {EXITED}
  br i1 %gone, label %next, label %check
check:
  %waits = icmp eq i32 %su, {WAITING}
{_load_field("ku", "%tu", 0)}{_load_field("mu", "%tu", 2)}  %same.kind = icmp eq i32 %ku, %kind
  %same.mask = icmp eq i32 %mu, %mask
  %w.k = and i1 %waits, %same.kind
  %joins = and i1 %w.k, %same.mask
  br i1 %joins, label %join, label %closed
join:
  %u64 = zext i32 %u to i64
  %bit = shl i64 1, %u64
  %with = or i64 %present, %bit
  br label %next
next:
  %present.next = phi i64 [ %present, %loop ], [ %present, %look ], [ %with, %join ]
  %u.next = add i32 %u, 1
  %more = icmp ult i32 %u.next, %lanes
  br i1 %more, label %loop, label %done
done:
  ret i64 %present.next
closed:
  ret i64 -1
}}
"""


def _reduce_ir() -> str:
    """`__coalda_warp_reduce(wait, base, lanes, present, kind)`: a vote's or
    reduction's value over the present lanes' first operands (0 for
    `__syncwarp`), as threads._collective computes it."""
    return f"""
define internal i32 @__coalda_warp_reduce(ptr %wait, i32 %base, i32 %lanes, i32 %present, i32 %kind) {{
entry:
  br label %loop
loop:
  %u = phi i32 [ 0, %entry ], [ %u.next, %next ]
  %ones = phi i32 [ 0, %entry ], [ %ones.n, %next ]
  %count = phi i32 [ 0, %entry ], [ %count.n, %next ]
  %ballot = phi i32 [ 0, %entry ], [ %ballot.n, %next ]
  %sum = phi i32 [ 0, %entry ], [ %sum.n, %next ]
  %smin = phi i32 [ 2147483647, %entry ], [ %smin.n, %next ]
  %smax = phi i32 [ -2147483648, %entry ], [ %smax.n, %next ]
  %umin = phi i32 [ -1, %entry ], [ %umin.n, %next ]
  %umax = phi i32 [ 0, %entry ], [ %umax.n, %next ]
  %and = phi i32 [ -1, %entry ], [ %and.n, %next ]
  %or = phi i32 [ 0, %entry ], [ %or.n, %next ]
  %xor = phi i32 [ 0, %entry ], [ %xor.n, %next ]
  %in = lshr i32 %present, %u
  %in.one = and i32 %in, 1
  %member = icmp ne i32 %in.one, 0
  br i1 %member, label %take, label %next
take:
  %tu = add i32 %base, %u
{_load_field("a", "%tu", 3)}  %p = and i32 %a, 1
  %ones.t = add i32 %ones, %p
  %count.t = add i32 %count, 1
  %p.bit = shl i32 %p, %u
  %ballot.t = or i32 %ballot, %p.bit
  %sum.t = add i32 %sum, %a
  %slt = icmp slt i32 %a, %smin
  %smin.t = select i1 %slt, i32 %a, i32 %smin
  %sgt = icmp sgt i32 %a, %smax
  %smax.t = select i1 %sgt, i32 %a, i32 %smax
  %ult = icmp ult i32 %a, %umin
  %umin.t = select i1 %ult, i32 %a, i32 %umin
  %ugt = icmp ugt i32 %a, %umax
  %umax.t = select i1 %ugt, i32 %a, i32 %umax
  %and.t = and i32 %and, %a
  %or.t = or i32 %or, %a
  %xor.t = xor i32 %xor, %a
  br label %next
next:
  %ones.n = phi i32 [ %ones, %loop ], [ %ones.t, %take ]
  %count.n = phi i32 [ %count, %loop ], [ %count.t, %take ]
  %ballot.n = phi i32 [ %ballot, %loop ], [ %ballot.t, %take ]
  %sum.n = phi i32 [ %sum, %loop ], [ %sum.t, %take ]
  %smin.n = phi i32 [ %smin, %loop ], [ %smin.t, %take ]
  %smax.n = phi i32 [ %smax, %loop ], [ %smax.t, %take ]
  %umin.n = phi i32 [ %umin, %loop ], [ %umin.t, %take ]
  %umax.n = phi i32 [ %umax, %loop ], [ %umax.t, %take ]
  %and.n = phi i32 [ %and, %loop ], [ %and.t, %take ]
  %or.n = phi i32 [ %or, %loop ], [ %or.t, %take ]
  %xor.n = phi i32 [ %xor, %loop ], [ %xor.t, %take ]
  %u.next = add i32 %u, 1
  %more = icmp ult i32 %u.next, %lanes
  br i1 %more, label %loop, label %done
done:
  %all = icmp eq i32 %ones.n, %count.n
  %all.v = zext i1 %all to i32
  %any = icmp ne i32 %ones.n, 0
  %any.v = zext i1 %any to i32
  %none = icmp eq i32 %ones.n, 0
  %uni = or i1 %all, %none
  %uni.v = zext i1 %uni to i32
  switch i32 %kind, label %zero [
    i32 {VOTE_ALL}, label %r.all
    i32 {VOTE_ANY}, label %r.any
    i32 {VOTE_UNI}, label %r.uni
    i32 {VOTE_BALLOT}, label %r.ballot
    i32 {REDUX_ADD}, label %r.sum
    i32 {REDUX_MIN}, label %r.smin
    i32 {REDUX_MAX}, label %r.smax
    i32 {REDUX_UMIN}, label %r.umin
    i32 {REDUX_UMAX}, label %r.umax
    i32 {REDUX_AND}, label %r.and
    i32 {REDUX_OR}, label %r.or
    i32 {REDUX_XOR}, label %r.xor
  ]
r.all:
  ret i32 %all.v
r.any:
  ret i32 %any.v
r.uni:
  ret i32 %uni.v
r.ballot:
  ret i32 %ballot.n
r.sum:
  ret i32 %sum.n
r.smin:
  ret i32 %smin.n
r.smax:
  ret i32 %smax.n
r.umin:
  ret i32 %umin.n
r.umax:
  ret i32 %umax.n
r.and:
  ret i32 %and.n
r.or:
  ret i32 %or.n
r.xor:
  ret i32 %xor.n
zero:
  ret i32 0
}}
"""


def _shuffle_ir() -> str:
    """`__coalda_warp_shuffle(wait, base, present, kind, u)`: lane u's
    shuffle result (threads._shuffle_source): the source lane's first
    operand when the source is in range and present, else its own."""
    return f"""
define internal i32 @__coalda_warp_shuffle(ptr %wait, i32 %base, i32 %present, i32 %kind, i32 %u) {{
entry:
  %tu = add i32 %base, %u
{_load_field("a", "%tu", 3)}{_load_field("b", "%tu", 4)}{_load_field("c", "%tu", 5)}  %c.seg = lshr i32 %c, 8
  %segmask = and i32 %c.seg, 31
  %min.lane = and i32 %u, %segmask
  %not.seg = xor i32 %segmask, -1
  %c.low = and i32 %c, 31
  %clamp = and i32 %c.low, %not.seg
  %max.lane = or i32 %min.lane, %clamp
  %max64 = zext i32 %max.lane to i64
  %u64 = zext i32 %u to i64
  %b64 = zext i32 %b to i64
  %b.low = and i32 %b, 31
  %b.idx = and i32 %b.low, %not.seg
  %j.idx32 = or i32 %min.lane, %b.idx
  %j.idx = zext i32 %j.idx32 to i64
  %j.up = sub i64 %u64, %b64
  %j.down = add i64 %u64, %b64
  %j.bfly = xor i64 %u64, %b64
  %is.up = icmp eq i32 %kind, {SHFL_UP}
  %is.down = icmp eq i32 %kind, {SHFL_DOWN}
  %is.bfly = icmp eq i32 %kind, {SHFL_BFLY}
  %j.1 = select i1 %is.bfly, i64 %j.bfly, i64 %j.idx
  %j.2 = select i1 %is.down, i64 %j.down, i64 %j.1
  %j = select i1 %is.up, i64 %j.up, i64 %j.2
  %ok.up = icmp sge i64 %j, %max64
  %ok.other = icmp sle i64 %j, %max64
  %ok = select i1 %is.up, i1 %ok.up, i1 %ok.other
  %nonneg = icmp sge i64 %j, 0
  %below = icmp slt i64 %j, 32
  %ok.1 = and i1 %ok, %nonneg
  %ok.2 = and i1 %ok.1, %below
  br i1 %ok.2, label %lane, label %own
lane:
  %j32 = trunc i64 %j to i32
  %has = lshr i32 %present, %j32
  %has.one = and i32 %has, 1
  %there = icmp ne i32 %has.one, 0
  br i1 %there, label %source, label %own
source:
  %tj = add i32 %base, %j32
{_load_field("aj", "%tj", 3)}  ret i32 %aj
own:
  ret i32 %a
}}
"""


def _collective_ir() -> str:
    """`__coalda_open_collective(state, result, wait, base, lanes, l)`: lane
    l's collective, opened when its mask's lanes are all present or
    exited; how many lanes it made READY (0: not yet), -1 when the mask
    leaves out lane l."""
    return f"""
define internal i32 @__coalda_open_collective(ptr %state, ptr %result, ptr %wait, i32 %base, i32 %lanes, i32 %l) {{
entry:
  %t = add i32 %base, %l
{_load_field("kind", "%t", 0)}{_load_field("mask", "%t", 2)}  %own = lshr i32 %mask, %l
  %own.one = and i32 %own, 1
  %named = icmp ne i32 %own.one, 0
  br i1 %named, label %gather, label %bad
bad:
  ret i32 -1
gather:
  %present64 = call i64 @__coalda_warp_present(ptr %state, ptr %wait, i32 %base, i32 %lanes, i32 %kind, i32 %mask)
  %closed = icmp eq i64 %present64, -1
  br i1 %closed, label %not.yet, label %open
not.yet:
  ret i32 0
open:
  %present = trunc i64 %present64 to i32
  %common = call i32 @__coalda_warp_reduce(ptr %wait, i32 %base, i32 %lanes, i32 %present, i32 %kind)
  %opened = call i32 @__coalda_warp_release(ptr %state, ptr %result, ptr %wait, i32 %base, i32 %lanes,
                                            i32 %present, i32 %kind, i32 %common)
  ret i32 %opened
}}
"""


def _release_ir() -> str:
    """`__coalda_warp_release(state, result, wait, base, lanes, present,
    kind, common)`: each lane of PRESENT made READY with its result, a
    shuffle's own (__coalda_warp_shuffle) or COMMON (an `__activemask()`'s
    mask, a vote's or reduction's value); returns how many."""
    return f"""
define internal i32 @__coalda_warp_release(ptr %state, ptr %result, ptr %wait, i32 %base, i32 %lanes, i32 %present,
                                           i32 %kind, i32 %common) {{
entry:
  %is.shfl.lo = icmp uge i32 %kind, {SHFL_IDX}
  %is.shfl.hi = icmp ule i32 %kind, {SHFL_BFLY}
  %is.shfl = and i1 %is.shfl.lo, %is.shfl.hi
  br label %set
set:
  %v = phi i32 [ 0, %entry ], [ %v.next, %set.next ]
  %opened = phi i32 [ 0, %entry ], [ %opened.next, %set.next ]
  %in = lshr i32 %present, %v
  %in.one = and i32 %in, 1
  %member = icmp ne i32 %in.one, 0
  br i1 %member, label %release, label %set.next
release:
  br i1 %is.shfl, label %shuffled, label %write
shuffled:
  %mine = call i32 @__coalda_warp_shuffle(ptr %wait, i32 %base, i32 %present, i32 %kind, i32 %v)
  br label %write
write:
  %value = phi i32 [ %common, %release ], [ %mine, %shuffled ]
  %tv = add i32 %base, %v
  %sv.at = getelementptr i32, ptr %state, i32 %tv
  store i32 {READY}, ptr %sv.at
  %rv.at = getelementptr i32, ptr %result, i32 %tv
  store i32 %value, ptr %rv.at
  br label %set.next
set.next:
  %add = phi i32 [ 0, %set ], [ 1, %write ]
  %opened.next = add i32 %opened, %add
  %v.next = add i32 %v, 1
  %again = icmp ult i32 %v.next, %lanes
  br i1 %again, label %set, label %done
done:
  ret i32 %opened.next
}}
"""


def open_warps_ir() -> str:
    """`__coalda_open_warps(state, result, wait, count)`: every warp's
    `__activemask()` groups and collectives that can open, in lane order;
    how many threads it made READY, or -1 (Python words the error). The
    shuffles' results are read from the operands, never from the results
    written here, so the order of opening does not matter."""
    return f"""
{_activemask_ir()}{_present_ir()}{_reduce_ir()}{_shuffle_ir()}{_release_ir()}{_collective_ir()}
define internal i32 @__coalda_open_warps(ptr %state, ptr %result, ptr %wait, i32 %count) {{
entry:
  %empty = icmp eq i32 %count, 0
  br i1 %empty, label %done, label %warp
warp:
  %base = phi i32 [ 0, %entry ], [ %base.next, %warp.next ]
  %opened.w = phi i32 [ 0, %entry ], [ %opened.l.next, %warp.next ]
  %left = sub i32 %count, %base
  %whole = icmp ugt i32 %left, 32
  %lanes = select i1 %whole, i32 32, i32 %left
  br label %lane
lane:
  %l = phi i32 [ 0, %warp ], [ %l.next, %lane.next ]
  %opened.l = phi i32 [ %opened.w, %warp ], [ %opened.l.next, %lane.next ]
  %t = add i32 %base, %l
  %st.at = getelementptr i32, ptr %state, i32 %t
  %st = load i32, ptr %st.at
  %waits = icmp eq i32 %st, {WAITING}
  br i1 %waits, label %kind, label %lane.next
kind:
{_load_field("k", "%t", 0)}  %is.mask = icmp eq i32 %k, {ACTIVEMASK}
  br i1 %is.mask, label %mask, label %collective.q
mask:
  %m.opened = call i32 @__coalda_open_activemask(ptr %state, ptr %result, ptr %wait, i32 %base, i32 %lanes, i32 %l)
  br label %lane.next
collective.q:
  %is.coll.lo = icmp uge i32 %k, {WARP_SYNC}
  %is.coll.hi = icmp ule i32 %k, {REDUX_XOR}
  %is.coll = and i1 %is.coll.lo, %is.coll.hi
  br i1 %is.coll, label %collective, label %lane.next
collective:
  %c.opened = call i32 @__coalda_open_collective(ptr %state, ptr %result, ptr %wait, i32 %base, i32 %lanes, i32 %l)
  %c.bad = icmp slt i32 %c.opened, 0
  br i1 %c.bad, label %error, label %lane.next
lane.next:
  %add = phi i32 [ 0, %lane ], [ %m.opened, %mask ], [ 0, %collective.q ], [ %c.opened, %collective ]
  %opened.l.next = add i32 %opened.l, %add
  %l.next = add i32 %l, 1
  %more.l = icmp ult i32 %l.next, %lanes
  br i1 %more.l, label %lane, label %warp.next
warp.next:
  %base.next = add i32 %base, 32
  %more.w = icmp ult i32 %base.next, %count
  br i1 %more.w, label %warp, label %done
done:
  %total = phi i32 [ 0, %entry ], [ %opened.l.next, %warp.next ]
  ret i32 %total
error:
  ret i32 -1
}}
"""
