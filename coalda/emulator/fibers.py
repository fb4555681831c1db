"""Fibers for the emulated threads of a block: one C stack each, switched
by COALDA's own context switch on x86-64 (else the C library's ucontext
functions), never a host thread.

A thread that waits at `__syncthreads` keeps its registers and its place in
the code until the barrier opens. Host threads did that at the price of two
futex round trips and a GIL hand-over per switch (most of the emulator's
time: 140 of 158 s on the windows corpus). Here each emulated thread runs
on a stack of its own inside the JIT code, and the switch is a
`swapcontext` between that stack and the launcher's:

- `__coalda_fiber_interval` (called from Python through ctypes, which
  lets the GIL go for the call) runs one interval of a block: for each
  thread in the schedule's order that can run, `__coalda_fiber_resume(ctx)`
  saves the launcher's context and switches to the thread's;
- a barrier or warp collective (`__coalda_collective`) writes its kind, site,
  mask and operands to `@__coalda_wait` and switches back; when the
  launcher resumes the thread, the call returns `@__coalda_result`;
- a thread's entry (`__coalda_fiber_entry_<i>`, one per kernel with
  barriers) reads the launch's arguments from the struct that
  `@__coalda_fiber_args` points to, calls the kernel and, on its return,
  writes EXITED into `@__coalda_wait`; the context's `uc_link` then switches
  back to the launcher.

No Python frame ever runs on a fiber's stack, so the interpreter's own
stack bookkeeping never sees a switch. A barrier reached outside a fiber
(from the native grid loop, through a call the emulator could not follow)
sets the fault flag instead of switching.

On x86-64 the switch is COALDA's own (`__coalda_switch`, module-level
assembly in the JIT code): it saves the callee-saved registers on the
stack it leaves, stores that stack pointer into the context it leaves and
loads the other's, 25 ns a switch. glibc's `swapcontext` also saves and
restores the signal mask, a system call each time, which made a sixth of
the test suite's CPU time system time (144 of 822 s); the emulated code
never touches the signal mask or the floating-point control words, which
is all it skips. A context is then one word, the saved stack pointer; a
fresh fiber's stack holds the six registers' slots and the return address
`__coalda_fiber_start`, which calls the entry function kept in rbx's slot.

Elsewhere (and with COALDA_EMULATOR_UCONTEXT=1, to compare) the contexts
are glibc's `ucontext_t` on a 64-bit Linux: only its first fields are
touched (`uc_link`, `uc_stack`), whose layout is the same on x86-64 and
AArch64; the rest is glibc's business and fits in CONTEXT_BYTES.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import mmap
import os
import platform
import sys
import threading
from collections.abc import Sequence

from ..errors import CoaldaError

# The @__coalda_wait kind of a thread whose kernel returned.
EXITED_KIND = -1
# A thread's state in the launcher's array: FRESH (not started in this
# block), READY, WAITING (parked at a barrier), EXITED.
FRESH, READY, WAITING, EXITED = -1, 0, 1, 2
STACK_BYTES = 1 << 20
CONTEXT_BYTES = 8192  # sizeof(ucontext_t): 968 on x86-64 glibc, 4560 on AArch64
_PAGE = mmap.PAGESIZE
_PROT_NONE, _PROT_RW = 0, 3
_MAP_PRIVATE, _MAP_ANONYMOUS, _MAP_NORESERVE = 0x02, 0x20, 0x4000


# COALDA's own context switch (module docstring): x86-64 only.
OWN_SWITCH = platform.machine() in ("x86_64", "AMD64") and os.environ.get("COALDA_EMULATOR_UCONTEXT") != "1"
# __coalda_switch(from, to): the callee-saved registers pushed on the stack
# it leaves, that stack pointer stored at FROM, the one at TO loaded, the
# registers popped, and a return on the new stack; __coalda_fiber_start is
# where a fresh fiber's first switch returns: it calls the entry in rbx.
# Local symbols: every module JIT-compiled in the process has its own.
_SWITCH_ASM = (
    ".text", ".p2align 4", "__coalda_switch:",
    "pushq %rbp", "pushq %rbx", "pushq %r12", "pushq %r13", "pushq %r14", "pushq %r15",
    "movq %rsp, (%rdi)", "movq (%rsi), %rsp",
    "popq %r15", "popq %r14", "popq %r13", "popq %r12", "popq %rbx", "popq %rbp", "retq",
    ".p2align 4", "__coalda_fiber_start:", "callq *%rbx", "ud2",
)

# the functions the module-level assembly defines (declared in the IR)
ASSEMBLY_SYMBOLS = ("__coalda_switch", "__coalda_fiber_start") if OWN_SWITCH else ()


def _switch_declarations() -> str:
    if not OWN_SWITCH:
        return ("declare i32 @getcontext(ptr)\ndeclare void @makecontext(ptr, ptr, i32, ...)\n"
                "declare i32 @swapcontext(ptr, ptr)")
    asm = "\n".join(f'module asm "  {line}"' if not line.endswith(":") else f'module asm "{line}"'
                    for line in _SWITCH_ASM)
    return asm + "\ndeclare void @__coalda_switch(ptr, ptr)\ndeclare void @__coalda_fiber_start()"


def _switch(leave: str, to: str) -> str:
    """IR switching from the context at LEAVE to the one at TO."""
    if OWN_SWITCH:
        return f"  call void @__coalda_switch(ptr {leave}, ptr {to})"
    return f"  %switched{leave.strip('%')} = call i32 @swapcontext(ptr {leave}, ptr {to})"


def _make_fiber(link: int, sp: int, flags: int, size: int) -> str:
    """The body of __coalda_fiber_make(ctx, stack, size, entry): a context
    that starts ENTRY on STACK, and comes back to the launcher if it
    returns (it never does: entry_ir)."""
    # r15 r14 r13 r12 rbx=entry rbp, then the return address: 16-byte
    # aligned after that return, so that the entry is called as the ABI
    # wants (its stack pointer 8 past a multiple of 16)
    if OWN_SWITCH:
        return """  %top = getelementptr i8, ptr %stack, i64 %size
  %top.int = ptrtoint ptr %top to i64
  %aligned = and i64 %top.int, -16
  %sp.int = sub i64 %aligned, 72
  %sp = inttoptr i64 %sp.int to ptr
  %slot0 = getelementptr i64, ptr %sp, i64 0
  store i64 0, ptr %slot0
  %slot1 = getelementptr i64, ptr %sp, i64 1
  store i64 0, ptr %slot1
  %slot2 = getelementptr i64, ptr %sp, i64 2
  store i64 0, ptr %slot2
  %slot3 = getelementptr i64, ptr %sp, i64 3
  store i64 0, ptr %slot3
  %slot5 = getelementptr i64, ptr %sp, i64 5
  store i64 0, ptr %slot5
  %rbx = getelementptr i64, ptr %sp, i64 4
  store ptr %entry, ptr %rbx
  %ret = getelementptr i64, ptr %sp, i64 6
  store ptr @__coalda_fiber_start, ptr %ret
  store ptr %sp, ptr %ctx
  ret void"""
    return f"""  %g = call i32 @getcontext(ptr %ctx)
  %link = getelementptr i8, ptr %ctx, i64 {link}
  %main = load ptr, ptr @__coalda_main_ctx
  store ptr %main, ptr %link
  %sp = getelementptr i8, ptr %ctx, i64 {sp}
  store ptr %stack, ptr %sp
  %flags = getelementptr i8, ptr %ctx, i64 {flags}
  store i32 0, ptr %flags
  %size.at = getelementptr i8, ptr %ctx, i64 {size}
  store i64 %size, ptr %size.at
  call void (ptr, ptr, i32, ...) @makecontext(ptr %ctx, ptr %entry, i32 0)
  ret void"""


class _StackHead(ctypes.Structure):
    """The head of glibc's ucontext_t: uc_flags, uc_link, uc_stack."""

    _fields_ = [("uc_flags", ctypes.c_ulong), ("uc_link", ctypes.c_void_p),
                ("ss_sp", ctypes.c_void_p), ("ss_flags", ctypes.c_int), ("ss_size", ctypes.c_size_t)]


class FibersUnavailable(CoaldaError):
    """This host's C library has no ucontext functions the emulator can use."""


def _libc() -> ctypes.CDLL:
    if not sys.platform.startswith("linux") or ctypes.sizeof(ctypes.c_void_p) != 8:
        raise FibersUnavailable("the CPU emulator needs 64-bit Linux (its threads are glibc ucontext fibers)")
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    return libc


_LIBC: ctypes.CDLL | None = None


def libc_symbols() -> dict[str, int]:
    """The addresses of the C library functions the fiber IR calls, by the
    names it calls them."""
    global _LIBC
    if _LIBC is None:
        _LIBC = _libc()
    names = {"getcontext": "getcontext", "makecontext": "makecontext", "swapcontext": "swapcontext",
             "__coalda_abort": "abort"}
    return {name: ctypes.cast(getattr(_LIBC, c), ctypes.c_void_p).value or 0 for name, c in names.items()}


def _map(size: int) -> int:
    libc_symbols()
    assert _LIBC is not None
    address = _LIBC.mmap(None, size, _PROT_RW, _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise CoaldaError(f"the emulator could not map {size} bytes for a fiber (errno {ctypes.get_errno()})")
    return int(address)


class _Slot:
    """One fiber's memory: a guard page, its stack, its context."""

    def __init__(self) -> None:
        base = _map(_PAGE + STACK_BYTES + CONTEXT_BYTES)
        assert _LIBC is not None
        _LIBC.mprotect(base, _PAGE, _PROT_NONE)  # a stack overflow faults instead of writing the neighbour
        self.stack = base + _PAGE
        self.context = self.stack + STACK_BYTES


class _Slots:
    """Fiber memory, reused by every launch of the process (mapped once,
    touched lazily: a 1024-thread block costs what its stacks use)."""

    def __init__(self) -> None:
        self.idle: list[_Slot] = []
        self.lock = threading.Lock()

    def take(self, count: int) -> list[_Slot]:
        with self.lock:
            taken, self.idle = self.idle[:count], self.idle[count:]
        return taken + [_Slot() for _ in range(count - len(taken))]

    def give(self, slots: Sequence[_Slot]) -> None:
        with self.lock:
            self.idle.extend(slots)


SLOTS = _Slots()


class MainContext:
    """The launcher's context buffer of one module (freed with it), 64-byte
    aligned."""

    def __init__(self) -> None:
        self._buffer = (ctypes.c_uint8 * (CONTEXT_BYTES + 64))()
        self.address = -(-ctypes.addressof(self._buffer) // 64) * 64


_WAIT_WORDS = ("kind", "site", "arg", "a", "b", "c")


def _store_wait_record() -> str:
    """IR storing the collective's operands %kind ... %c into @__coalda_wait."""
    return "\n".join(f"  %w{k} = getelementptr [6 x i32], ptr @__coalda_wait, i64 0, i64 {k}\n"
                     f"  store i32 %{word}, ptr %w{k}" for k, word in enumerate(_WAIT_WORDS))


def _copy_wait_record() -> str:
    """IR copying @__coalda_wait into thread %t's row of the %wait array."""
    return "\n".join(f"  %from{k} = getelementptr [6 x i32], ptr @__coalda_wait, i32 0, i32 {k}\n"
                     f"  %word{k} = load i32, ptr %from{k}\n"
                     f"  %to{k} = getelementptr [6 x i32], ptr %wait, i32 %t, i32 {k}\n"
                     f"  store i32 %word{k}, ptr %to{k}" for k in range(len(_WAIT_WORDS)))


def fiber_ir(stray_fault: int) -> str:
    """The module-level IR: the wait record, resume, the collective that
    parks a thread (or, outside a fiber, sets the fault flag to
    STRAY_FAULT), and the context maker."""
    link, sp, flags, size = (getattr(_StackHead, f).offset for f in ("uc_link", "ss_sp", "ss_flags", "ss_size"))
    return f"""@__coalda_main_ctx = global ptr null
@__coalda_fiber_ctx = global ptr null
@__coalda_fiber_args = global ptr null
@__coalda_in_fiber = global i32 0
@__coalda_wait = global [6 x i32] zeroinitializer
@__coalda_result = global i32 0
{_switch_declarations()}
declare void @__coalda_abort() noreturn

define internal i32 @__coalda_collective(i32 %kind, i32 %site, i32 %arg, i32 %a, i32 %b, i32 %c) {{
entry:
  %in = load i32, ptr @__coalda_in_fiber
  %stray = icmp eq i32 %in, 0
  br i1 %stray, label %fault, label %park
fault:
  store i32 {stray_fault}, ptr @__coalda_fault
  ret i32 0
park:
{_store_wait_record()}
  %cur = load ptr, ptr @__coalda_fiber_ctx
  %main = load ptr, ptr @__coalda_main_ctx
{_switch("%cur", "%main")}
  %r = load i32, ptr @__coalda_result
  ret i32 %r
}}

define internal void @__coalda_fiber_resume(ptr %ctx, i32 %result) {{
  store i32 %result, ptr @__coalda_result
  store ptr %ctx, ptr @__coalda_fiber_ctx
  store i32 1, ptr @__coalda_in_fiber
  %main = load ptr, ptr @__coalda_main_ctx
{_switch("%main", "%ctx")}
  store i32 0, ptr @__coalda_in_fiber
  ret void
}}

define internal void @__coalda_fiber_make(ptr %ctx, ptr %stack, i64 %size, ptr %entry) {{
{_make_fiber(link, sp, flags, size)}
}}
"""


def entry_ir(index: int, kernel: str, params: Sequence[str]) -> str:
    """`__coalda_fiber_entry_<index>()`: the kernel called with the
    arguments in the struct @__coalda_fiber_args points to (its fields the
    parameters' IR types, laid out as a C struct of them)."""
    struct = "{ " + ", ".join(params) + " }" if params else "{}"
    loads = "".join(f"  %p{i} = getelementptr {struct}, ptr %argv, i32 0, i32 {i}\n  %a{i} = load {ty}, ptr %p{i}\n"
                    for i, ty in enumerate(params))
    actuals = ", ".join(f"{ty} %a{i}" for i, ty in enumerate(params))
    return f"""
define internal void @__coalda_fiber_entry_{index}() {{
  %argv = load ptr, ptr @__coalda_fiber_args
{loads}  call void @{kernel}({actuals})
  store i32 {EXITED_KIND}, ptr @__coalda_wait
  %cur = load ptr, ptr @__coalda_fiber_ctx
  %main = load ptr, ptr @__coalda_main_ctx
{_switch("%cur", "%main")}
  call void @__coalda_abort()
  unreachable
}}
"""


def interval_ir(set_tid: str) -> str:
    """`__coalda_fiber_interval(order, n, state, result, wait, slots, start)`:
    one interval of a block, natively. Each thread order[0..n) lists that is
    READY runs to its next barrier (made afresh at its first step, when its
    state is FRESH): its tid globals set (SET_TID: IR storing them from
    %t), it resumes with result[t]; it ends EXITED, or WAITING with its wait
    record in wait[6t..6t+6). `slots` holds each thread's (stack, context).
    Returns how many threads exited.

    `__coalda_fiber_intervals(..., exited, intervals)`: for an order that is
    the same in every interval (all schedules but shuffled), intervals one
    after the other while what waits between them opens in the common way:
    the warp collectives and `__activemask()` (warp_native.open_warps_ir),
    else the block-wide barrier (threads.open_block_barrier_ir; the module
    must define both): back to the launcher only when every thread has
    exited or something else must open (an error to word, a deadlock). Returns how many threads have exited in all
    (EXITED counting from `exited`), and writes how many intervals ran:
    a ctypes call and the launcher's Python per interval cost more than
    most intervals.
    """
    return f"""
define i32 @__coalda_fiber_interval(ptr %order, i32 %n, ptr %state, ptr %result, ptr %wait, ptr %slots, ptr %start) {{
entry:
  %ntidx = load i32, ptr @__coalda_ntid_x
  %ntidy = load i32, ptr @__coalda_ntid_y
  %empty = icmp eq i32 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  %exited = phi i32 [ 0, %entry ], [ %exited.next, %next ]
  %slot.t = getelementptr i32, ptr %order, i32 %i
  %t = load i32, ptr %slot.t
  %state.t = getelementptr i32, ptr %state, i32 %t
  %s = load i32, ptr %state.t
  %ready = icmp eq i32 %s, {READY}
  %fresh = icmp eq i32 %s, {FRESH}
  %runs = or i1 %ready, %fresh
  br i1 %runs, label %set, label %next
set:
{set_tid}
  %stack.at = getelementptr [2 x ptr], ptr %slots, i32 %t, i32 0
  %stack = load ptr, ptr %stack.at
  %ctx.at = getelementptr [2 x ptr], ptr %slots, i32 %t, i32 1
  %ctx = load ptr, ptr %ctx.at
  br i1 %fresh, label %make, label %go
make:
  call void @__coalda_fiber_make(ptr %ctx, ptr %stack, i64 {STACK_BYTES}, ptr %start)
  br label %go
go:
  %result.t = getelementptr i32, ptr %result, i32 %t
  %r = load i32, ptr %result.t
  call void @__coalda_fiber_resume(ptr %ctx, i32 %r)
  %kind = load i32, ptr @__coalda_wait
  %gone = icmp eq i32 %kind, {EXITED_KIND}
  br i1 %gone, label %exit, label %park
exit:
  store i32 {EXITED}, ptr %state.t
  br label %next
park:
  store i32 {WAITING}, ptr %state.t
{_copy_wait_record()}
  br label %next
next:
  %one = phi i32 [ 0, %loop ], [ 1, %exit ], [ 0, %park ]
  %exited.next = add i32 %exited, %one
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %total = phi i32 [ 0, %entry ], [ %exited.next, %next ]
  ret i32 %total
}}

define i32 @__coalda_fiber_intervals(ptr %order, i32 %n, ptr %state, ptr %result, ptr %wait, ptr %slots,
                                     ptr %start, i32 %exited.before, ptr %intervals) {{
entry:
  br label %run
run:
  %exited = phi i32 [ %exited.before, %entry ], [ %exited.now, %try ], [ %exited.now, %barrier ]
  %k = phi i32 [ 0, %entry ], [ %k.next, %try ], [ %k.next, %barrier ]
  %e = call i32 @__coalda_fiber_interval(ptr %order, i32 %n, ptr %state, ptr %result, ptr %wait, ptr %slots,
                                         ptr %start)
  %exited.now = add i32 %exited, %e
  %k.next = add i32 %k, 1
  %all = icmp eq i32 %exited.now, %n
  br i1 %all, label %stop, label %try
try:
  %warps = call i32 @__coalda_open_warps(ptr %state, ptr %result, ptr %wait, i32 %n)
  %warps.opened = icmp sgt i32 %warps, 0
  br i1 %warps.opened, label %run, label %try.block
try.block:
  %warps.error = icmp slt i32 %warps, 0
  br i1 %warps.error, label %stop, label %barrier
barrier:
  %opened = call i32 @__coalda_open_block_barrier(ptr %state, ptr %result, ptr %wait, i32 %n)
  %again = icmp ne i32 %opened, 0
  br i1 %again, label %run, label %stop
stop:
  store i32 %k.next, ptr %intervals
  ret i32 %exited.now
}}
"""
