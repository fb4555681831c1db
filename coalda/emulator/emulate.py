"""Run a kernel's device IR on the CPU with llvmlite, under a chosen schedule.

The device module is rewritten so the host can run it, then JIT-compiled once:

- the NVVM special-register reads (`llvm.nvvm.read.ptx.sreg.*`) become loads
  of host globals that the emulator sets for the running thread;
- `__shared__` arrays stay `addrspace(3)` globals (the x86 backend treats the
  address space as plain memory); `extern __shared__` arrays become aliases of
  one 48 KiB buffer, as all dynamic shared memory of a block is one region.
  Blocks run one at a time, so one copy serves every block; it is filled with
  the schedule's poison byte before each block (schedule.SHARED_POISON under
  forward, another under the other orders; neither is a parameter's guard
  byte, oracle.poison_of), so reading a tile byte no thread wrote shows up
  as a difference, also where a staged row writes it into a guard zone, and
  the bytes past the launch's dynamic size must still be poison after it
  (else: a write past the end);
- the barriers (`__syncthreads`, its count/and/or forms, `barrier.sync`,
  `__syncwarp`) and the warp collectives (shuffles, votes, `__reduce_*_sync`,
  `__activemask()`)
  become calls that park the running thread's fiber (coalda/emulator/fibers.py)
  for `threads.BlockRun`; `__threadfence*` are no-ops (one thread
  runs at a time). CUDA's math library (libdevice's NVVM intrinsics and its
  inline PTX snippets, `__ldg`) runs as host definitions (coalda/emulator/nvvm.py);
  a function that uses other NVVM intrinsics or inline PTX gets a body
  that only records that it ran (the host cannot compile its own), and a
  kernel that reaches it is refused by name, saying through which call
  (EmulatedModule.refused): one such function no longer keeps the other
  kernels of its module from running;
- a `contract` fadd or fsub of a `contract` fmul of the same basic block
  becomes one fma, as llc fuses them for the GPU (one rounding; across
  blocks two): a rewrite that split them would change the GPU's bits, and
  the emulator's too (_contract);
- a NaN that float arithmetic (`fadd` ... `fneg`, fma, fmuladd, sqrt,
  minnum/maxnum) produces becomes one canonical NaN: the GPU returns
  0x7fffffff from every f32 operation (measured on an H200:
  docs/runs/nan-payloads-h200.txt), while x86 keeps the first operand's
  payload, so a sum of two NaNs would depend on which operand the host JIT
  puts first and two correct versions of a kernel would differ. The GPU
  propagates f64 payloads by a rule of its own that does not depend on the
  operands' order; here f64 NaN results are 0x7ff8000000000000 (a difference
  only in a double NaN's payload is not seen).

A kernel that reaches no barrier runs in a native loop over the (block,
thread) pairs in the order the schedule gives (an array of linear thread
indices). A kernel with barriers runs each block's threads as fibers (a C
stack each, no host threads), one at a time, switching at barriers in the
schedule's order
(see coalda/emulator/threads.py and coalda/emulator/schedule.py).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import llvmlite.binding as llvm
import numpy as np

from .. import ir
from ..buffers import HostBuffer
from ..errors import CoaldaError
from . import fibers, nvvm
from .schedule import FORWARD, Schedule
from .threads import KIND_OF, BlockRun, EmulationFault, Site, open_block_barrier_ir, warp_waits
from .warp_native import open_warps_ir

__all__ = ["DYNAMIC_SHARED", "EmulatedModule", "EmulationFault", "EmulationRefused", "EmulatorExecutor", "load"]

DIMS = ("x", "y", "z")
REGISTERS = ("tid", "ctaid", "ntid", "nctaid")
DYNAMIC_SHARED = 48 * 1024  # bytes of `extern __shared__` memory a launch may ask for
_SREG = re.compile(r"@llvm\.nvvm\.read\.ptx\.sreg\.(tid|ctaid|ntid|nctaid)\.([xyz])\b")
_DECLARE_SREG = re.compile(r"^declare [^@\n]*@__coalda_sreg_(\w+)_([xyz])\(\)[^\n]*$", re.M)
_BARRIER = re.compile(
    r"@llvm\.nvvm\.(barrier0\.popc|barrier0\.and|barrier0\.or|barrier0|barrier\.sync|bar\.sync|bar\.warp\.sync"
    r"|shfl\.sync\.(?:idx|up|down|bfly)\.(?:i32|f32)|vote\.(?:all|any|uni|ballot)\.sync"
    r"|redux\.sync\.(?:add|min|max|umin|umax|and|or|xor)|activemask)\((\))?"
)
_MEMBAR = re.compile(r"@llvm\.nvvm\.membar\.(?:cta|gl|sys)\(")
_OTHER_NVVM = re.compile(r"@(llvm\.nvvm\.[\w.]+)")
# Float arithmetic whose NaN results are canonicalized (see the docstring):
# `%r = OP [flags] TYPE ...` and `%r = call [flags] TYPE @llvm.F.SUFFIX(...)`.
_FP_TYPE = r"(?:float|double|<\d+ x (?:float|double)>)"
_FP_FLAGS = r"(?: (?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc))*"
_FP_ARITH = re.compile(
    rf"^(\s+)(%[-\w.$]+|%\d+|%\"[^\"\n]*\") = ((?:fadd|fsub|fmul|fdiv|frem|fneg){_FP_FLAGS}"
    rf"|(?:tail |musttail |notail )?call{_FP_FLAGS}(?: noundef)*) ({_FP_TYPE})"
    rf"( [^\n]*)$",
    re.M,
)
_FP_INTRINSIC = re.compile(
    r" @llvm\.(?:fma|fmuladd|sqrt|minnum|maxnum|minimum|maximum"
    r"|vector\.reduce\.f(?:add|mul|min|max|minimum|maximum))\.[\w.]+\("
)
# Contraction (see _contract): `%r = fmul|fadd|fsub FLAGS TYPE A, B`, scalar.
_VALUE = r"(?:%[-\w.$]+|%\d+|%\"[^\"\n]*\"|[-+\w.]+)"
_FP_BINARY = re.compile(
    rf"^(\s+)(%[-\w.$]+|%\d+|%\"[^\"\n]*\") = (fmul|fadd|fsub)({_FP_FLAGS}) (float|double) ({_VALUE}), ({_VALUE})"
    rf"((?:, ![^\n]*)?)$"
)
_BLOCK_START = re.compile(r"^(?:define |\}|[-\w.$\"]+:)")
# Flags and attributes that let the host compiler assume a value is no NaN
# (it would then fold the canonicalization's test, or anything, away).
_NO_NANS = re.compile(r" nofpclass\([^)]*\)| nnan(?= )")
_CANONICAL_NAN = {"float": "0x7FFFFFFFE0000000", "double": "0x7FF8000000000000"}
_INLINE_ASM = re.compile(r"\bcall [^\n]*\basm (?:sideeffect |alignstack |inteldialect )*\"")
_TARGET_ATTRS = re.compile(r'"target-(cpu|features)"="[^"]*"')
_BUILTIN_VARS = re.compile(r"^@(threadIdx|blockIdx|blockDim|gridDim) = [^\n]*$", re.M)
_SHARED_GLOBAL = re.compile(r"^@(\S+) = ([^\n]*?)addrspace\(3\) global ([^\n]*)$", re.M)
_DEFINE = re.compile(r"^define [^\n]*?@([^\s(]+)\(.*?^\}", re.M | re.S)
# A global's name where a function or an initializer names it.
_GLOBAL_NAME = re.compile(r"@([-\w.$]+|\"[^\"\n]*\")")
# An `extern __shared__` array, once _lower_shared made it the dynamic
# buffer's alias.
_DYNAMIC_ALIAS = re.compile(r"^@(\S+) = alias \[0 x i8\], ptr addrspace\(3\) @__coalda_dynamic_shared$", re.M)
# A definition's debug-info subprogram, and that subprogram's source name.
_DEFINE_DBG = re.compile(r"^define [^\n]*?@([^\s(]+)\([^\n]*?!dbg !(\d+) \{$", re.M)
_SUBPROGRAM = re.compile(r'^!(\d+) = distinct !DISubprogram\(name: "([^"\n]*)"', re.M)
# A call through a pointer: `call ... %f(` with no `@callee` before it.
# (Two patterns, each from a literal: one alternation searched ten times
# slower.)
_INDIRECT_CALLS = (re.compile(r" call [^\n@]*?%[-\w.$]+\("), re.compile(r" invoke [^\n@]*?%[-\w.$]+\("))


def _calls_through_pointer(body: str) -> bool:
    """BODY (a function's text) calls through a pointer."""
    return any(pattern.search(body) for pattern in _INDIRECT_CALLS)


_LOCATION = re.compile(r"^!(\d+) = (?:distinct )?!DILocation\(line: (\d+)[^\n]*?(?:inlinedAt: !(\d+))?\)$", re.M)
_FAULT_OVERRUN, _FAULT_STRAY_BARRIER, _FAULT_MISALIGNED, _FAULT_ASSERT, _FAULT_MISSING = 1, 2, 3, 4, 5
# CUDA's device runtime calls a kernel may make: assert()'s __assertfail sets
# the fault flag (the GPU stops the launch: cudaErrorAssert) and records
# where; printf's vprintf prints nothing. Any other function that neither
# the module nor the process defines gets a stub that faults when called,
# naming it (the JIT would jump to address 0; an uncalled declaration, as
# -O0's __nvvm_reflect, is harmless).
# Linked into every module (its definitions replace the kernel's
# declarations).
_DEVICE_RUNTIME = f"""
@__coalda_fault = external global i32
@__coalda_missing = global i32 0
@__coalda_assert_message = global ptr null
@__coalda_assert_file = global ptr null
@__coalda_assert_line = global i32 0
define void @__assertfail(ptr %message, ptr %file, i32 %line, ptr %function, i64 %size) {{
  store i32 {_FAULT_ASSERT}, ptr @__coalda_fault
  store ptr %message, ptr @__coalda_assert_message
  store ptr %file, ptr @__coalda_assert_file
  store i32 %line, ptr @__coalda_assert_line
  ret void
}}
define i32 @vprintf(ptr %format, ptr %args) {{
  ret i32 0
}}
"""
# The address operand and alignment of a load or store: the last `, ptr X,
# align N` of the line (a stored or loaded pointer is not followed by align).
_ACCESS = re.compile(r"^(\s+)(?:%\S+ = load |store )[^\n]*, ptr(?: addrspace\((\d+)\))? ([%@][^\s,]+), align (\d+)(?:,[^\n]*)?$", re.M)

# ctypes for the IR types a kernel parameter may have.
_CTYPES = {
    "ptr": ctypes.c_void_p, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
    "i64": ctypes.c_int64, "float": ctypes.c_float, "double": ctypes.c_double,
}


class EmulationRefused(CoaldaError):
    """A kernel uses something the CPU emulator cannot run. KERNEL (its
    symbol) and REASON (what follows "kernel NAME" in the message) let a
    caller name the kernel as its user does (a launch spec's name)."""

    def __init__(self, message: str, kernel: str = "", reason: str = "") -> None:
        super().__init__(message)
        self.kernel, self.reason = kernel, reason


@dataclass(frozen=True)
class KernelSignature:
    name: str
    params: tuple[tuple[str, str], ...]  # (name, IR type)


@dataclass(frozen=True)
class HostModule:
    """The host-runnable text, and what the launcher must know about it."""

    text: str
    sites: tuple[Site, ...]
    threaded: frozenset[str]  # kernels that reach a barrier
    dynamic_shared: bool
    # the functions whose bodies were replaced by a stub (_stub), in the
    # order of their stub index, each with what it uses that cannot run
    stubbed: tuple[tuple[str, str], ...] = ()
    refused: tuple[tuple[str, str], ...] = ()  # (kernel, reason) of each kernel that reaches a stub


def _unflatten(flat: str, counts: str, register: str) -> str:
    """IR splitting the linear index %FLAT into x, y, z (extents %COUNTSx/y)
    and storing them into the REGISTER globals."""
    f, c, r = flat, counts, register
    return f"""  %{f}x = urem i32 %{f}, %{c}x
  %{f}.yz = udiv i32 %{f}, %{c}x
  %{f}y = urem i32 %{f}.yz, %{c}y
  %{f}z = udiv i32 %{f}.yz, %{c}y
  store i32 %{f}x, ptr @__coalda_{r}_x
  store i32 %{f}y, ptr @__coalda_{r}_y
  store i32 %{f}z, ptr @__coalda_{r}_z"""


def _driver(kernel: KernelSignature, index: int) -> str:
    """IR of `__coalda_grid_<index>(params..., order, count, dyn)`: the
    threads whose linear global index order[0..count) lists, in that order;
    shared memory is checked and poisoned whenever the block changes."""
    formals = "".join(f"{ty} %a{i}, " for i, (_, ty) in enumerate(kernel.params))
    actuals = ", ".join(f"{ty} %a{i}" for i, (_, ty) in enumerate(kernel.params))
    load = "\n".join(f"  %{r}{d} = load i32, ptr @__coalda_{r}_{d}" for r in ("ntid", "nctaid") for d in DIMS)
    return f"""
define void @__coalda_grid_{index}({formals}ptr %order, i64 %count, i64 %dyn) {{
entry:
{load}
  %txy = mul i32 %ntidx, %ntidy
  %threads = mul i32 %txy, %ntidz
  %empty = icmp eq i64 %count, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %thread ]
  %prev = phi i32 [ -1, %entry ], [ %b, %thread ]
  %slot = getelementptr i32, ptr %order, i64 %i
  %g = load i32, ptr %slot
  %b = udiv i32 %g, %threads
  %t = urem i32 %g, %threads
  %same = icmp eq i32 %b, %prev
  br i1 %same, label %thread, label %block
block:
  %first = icmp eq i64 %i, 0
  br i1 %first, label %fresh, label %check
check:
  call void @__coalda_shared_check_{index}(i64 %dyn)
  br label %fresh
fresh:
  call void @__coalda_shared_poison_{index}()
{_unflatten("b", "nctaid", "ctaid")}
  br label %thread
thread:
{_unflatten("t", "ntid", "tid")}
  call void @{kernel.name}({actuals})
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %count
  br i1 %more, label %loop, label %end
end:
  call void @__coalda_shared_check_{index}(i64 %dyn)
  br label %done
done:
  ret void
}}
"""


def _source_lines(text: str) -> dict[str, int]:
    """Debug location id -> the source line it stands for; for code inlined
    from a header (`__syncwarp`), the line of the outermost call."""
    raw = {m[1]: (int(m[2]), m[3]) for m in _LOCATION.finditer(text)}

    def outer(key: str, depth: int = 0) -> int:
        line, parent = raw[key]
        return outer(parent, depth + 1) if parent in raw and depth < 64 else line

    return {key: outer(key) for key in raw}


def _lower_barriers(text: str) -> tuple[str, list[Site]]:
    """Barrier calls -> calls of `__coalda_<intrinsic>(i32 site, args...)`;
    memory fences -> a no-op. Their declarations go."""
    lines = _source_lines(text)
    sites: list[Site] = []
    out: list[str] = []
    function = ""
    for line in text.split("\n"):
        if line.startswith("declare ") and (_BARRIER.search(line) or _MEMBAR.search(line)):
            continue
        if line.startswith("define "):
            match = re.search(r"@([^\s(]+)\(", line)
            function = match[1] if match else ""
        if _BARRIER.search(line):
            dbg = re.search(r"!dbg !(\d+)", line)

            def site(m: re.Match[str], dbg: re.Match[str] | None = dbg, function: str = function) -> str:
                sites.append(Site(len(sites), function, m[1], lines.get(dbg[1]) if dbg else None))
                return f"@__coalda_{m[1].replace('.', '_')}(i32 {len(sites) - 1}" + (")" if m[2] else ", ")

            line = _BARRIER.sub(site, line)
        out.append(_MEMBAR.sub("@__coalda_membar(", line))
    return "\n".join(out), sites


def _barrier_wrappers() -> str:
    """The functions lowered barrier calls call: each parks its fiber with
    (kind, site, argument) for the launcher (coalda/emulator/fibers.py)."""
    out = [
        fibers.fiber_ir(_FAULT_STRAY_BARRIER),
        fibers.interval_ir(_unflatten("t", "ntid", "tid")),
        open_block_barrier_ir(),
        open_warps_ir(),
        "define internal void @__coalda_membar() {\n  ret void\n}",
        "define internal i32 @__coalda_barrier(i32 %kind, i32 %site, i32 %arg) {\n"
        "  %r = call i32 @__coalda_collective(i32 %kind, i32 %site, i32 %arg, i32 0, i32 0, i32 0)\n  ret i32 %r\n}",
    ]
    for intrinsic, kind in KIND_OF.items():
        name = "__coalda_" + intrinsic.replace(".", "_")
        if intrinsic == "activemask":
            out.append(f"define internal i32 @{name}(i32 %site) {{\n"
                       f"  %r = call i32 @__coalda_collective(i32 {kind}, i32 %site, i32 -1, i32 0, i32 0, i32 0)\n"
                       f"  ret i32 %r\n}}")
        elif intrinsic == "barrier0":
            out.append(f"define internal void @{name}(i32 %site) {{\n"
                       f"  %r = call i32 @__coalda_barrier(i32 {kind}, i32 %site, i32 0)\n  ret void\n}}")
        elif intrinsic.startswith("barrier0."):
            out.append(f"define internal i32 @{name}(i32 %site, i32 %p) {{\n"
                       f"  %r = call i32 @__coalda_barrier(i32 {kind}, i32 %site, i32 %p)\n  ret i32 %r\n}}")
        elif intrinsic.startswith("shfl."):
            ty = "float" if intrinsic.endswith("f32") else "i32"
            value = "%v" if ty == "i32" else "%bits"
            cast_in = "" if ty == "i32" else "  %bits = bitcast float %v to i32\n"
            cast_out = "  ret i32 %r" if ty == "i32" else "  %f = bitcast i32 %r to float\n  ret float %f"
            out.append(f"define internal {ty} @{name}(i32 %site, i32 %mask, {ty} %v, i32 %b, i32 %c) {{\n{cast_in}"
                       f"  %r = call i32 @__coalda_collective(i32 {kind}, i32 %site, i32 %mask, i32 {value}, i32 %b,"
                       f" i32 %c)\n{cast_out}\n}}")
        elif intrinsic.startswith("vote.") and intrinsic != "vote.ballot.sync":
            out.append(f"define internal i1 @{name}(i32 %site, i32 %mask, i1 %p) {{\n  %a = zext i1 %p to i32\n"
                       f"  %r = call i32 @__coalda_collective(i32 {kind}, i32 %site, i32 %mask, i32 %a, i32 0, i32 0)\n"
                       f"  %t = icmp ne i32 %r, 0\n  ret i1 %t\n}}")
        elif intrinsic.startswith(("vote.", "redux.")):
            # vote(mask, predicate); redux(value, mask), as the intrinsics
            # and PTX define them (clang 19's __reduce_*_sync passes them
            # the other way round)
            params = "i32 %mask, i1 %p" if intrinsic == "vote.ballot.sync" else "i32 %a, i32 %mask"
            widen = "  %a = zext i1 %p to i32\n" if intrinsic == "vote.ballot.sync" else ""
            out.append(f"define internal i32 @{name}(i32 %site, {params}) {{\n{widen}"
                       f"  %r = call i32 @__coalda_collective(i32 {kind}, i32 %site, i32 %mask, i32 %a, i32 0, i32 0)\n"
                       f"  ret i32 %r\n}}")
        else:
            out.append(f"define internal void @{name}(i32 %site, i32 %a) {{\n"
                       f"  %r = call i32 @__coalda_barrier(i32 {kind}, i32 %site, i32 %a)\n  ret void\n}}")
    return "\n".join(out)


def _lower_shared(text: str) -> tuple[str, list[str], bool]:
    """Static shared arrays get a zero initializer (the emulator poisons them
    per block); `extern __shared__` arrays become aliases of the dynamic
    buffer. Returns the text, the static arrays, whether any is dynamic."""
    static: list[str] = []
    dynamic = False

    def lower(m: re.Match[str]) -> str:
        nonlocal dynamic
        name, prefix, rest = m[1], m[2], m[3]
        if "external" in prefix.split():
            dynamic = True
            return f"@{name} = alias [0 x i8], ptr addrspace(3) @__coalda_dynamic_shared"
        static.append(name)
        return f"@{name} = {prefix}addrspace(3) global " + re.sub(r"\b(undef|poison)\b", "zeroinitializer", rest, count=1)

    return _SHARED_GLOBAL.sub(lower, text), static, dynamic


@functools.lru_cache(maxsize=1)
def _function_bodies(text: str) -> dict[str, str]:
    """Each defined function's text by name; read once for the module's
    text at one step of lower (_threaded and _shared_by_kernel both ask)."""
    return {m[1]: m[0] for m in _DEFINE.finditer(text)}


@dataclass(frozen=True)
class KernelShared:
    """The shared memory one kernel can reach: its static arrays, and
    whether it reaches the dynamic buffer."""

    static: tuple[str, ...]
    dynamic: bool


def _shared_by_kernel(text: str, kernels: Sequence[KernelSignature], static: list[str],
                      dynamic: bool) -> list[KernelShared]:
    """Each kernel's shared memory: the arrays named in the functions it
    reaches by direct calls. A block poisons and checks only those (a
    module of 100 kernels, each with its tiles, spent 2 ms a block filling
    the others'). Every kernel gets all of them where that cannot be told:
    an array named outside a function (in another global's initializer),
    or a reached function that calls through a pointer."""
    everything = KernelShared(tuple(static), dynamic)
    bodies = _function_bodies(text)
    aliases = _DYNAMIC_ALIAS.findall(text)
    # the other globals' initializers (each on its line)
    outside = "\n".join(line for line in text.split("\n") if line.startswith("@")
                        and not _SHARED_GLOBAL.match(line) and not _DYNAMIC_ALIAS.match(line))
    if set(_GLOBAL_NAME.findall(outside)) & {*static, *aliases}:
        return [everything] * len(kernels)
    named = {fn: set(_GLOBAL_NAME.findall(body)) for fn, body in bodies.items()}
    indirect = {fn for fn, body in bodies.items() if _calls_through_pointer(body)}
    out = []
    for kernel in kernels:
        queue, seen = [kernel.name], {kernel.name}
        for fn in queue:  # every function it names, called or not: more arrays, never fewer
            for callee in named.get(fn, ()):
                if callee in bodies and callee not in seen:
                    seen.add(callee)
                    queue.append(callee)
        if seen & indirect:
            out.append(everything)
            continue
        reached = set().union(*(named.get(fn, set()) for fn in seen))
        out.append(KernelShared(tuple(a for a in static if a in reached),
                                dynamic and bool(reached & {"__coalda_dynamic_shared", *aliases})))
    return out


def _shared_functions(shared: Sequence[KernelShared], sizes: dict[str, int], dynamic: bool, text: str) -> str:
    """Per kernel i, `__coalda_shared_poison_<i>()` fills the shared memory
    it reaches with the byte `@__coalda_poison_byte` holds (the host sets it
    per launch); `__coalda_shared_check_<i>(dyn)` sets the fault flag when a
    byte of the dynamic buffer at or past `dyn` is not that byte any more
    (a kernel that does not reach the buffer checks nothing). DYNAMIC: the
    module has `extern __shared__` arrays, aliases of the buffer, which is
    defined then even where no kernel that runs reaches it."""
    out = ["@__coalda_fault = global i32 0\n@__coalda_poison_byte = global i8 0"]
    for i, kernel in enumerate(shared):
        arrays = [(f"@{name}", str(sizes[name.strip('"')])) for name in kernel.static]
        if kernel.dynamic:
            arrays.append(("@__coalda_dynamic_shared", str(DYNAMIC_SHARED)))
        fills = "".join(f"  call void @llvm.memset.p3.i64(ptr addrspace(3) {g}, i8 %poison, i64 {size}, i1 false)\n"
                        for g, size in arrays)
        out.append(f"define void @__coalda_shared_poison_{i}() {{\n  %poison = load i8, ptr @__coalda_poison_byte\n"
                   f"{fills}  ret void\n}}")
        target = "@__coalda_shared_check_dynamic" if kernel.dynamic else "@__coalda_shared_check_none"
        out.append(f"define void @__coalda_shared_check_{i}(i64 %dyn) {{\n"
                   f"  call void {target}(i64 %dyn)\n  ret void\n}}")
    if not re.search(r"^declare [^\n]*@llvm\.memset\.p3\.i64\(", text, re.M):
        out.append("declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1 immarg)")
    out.append("define internal void @__coalda_shared_check_none(i64 %dyn) {\n  ret void\n}")
    if dynamic:
        out.append(_DYNAMIC_CHECK)
    return "\n".join(out)


# The dynamic buffer's bytes at and past %dyn, eight at a time once %dyn is
# a multiple of 8 (the JIT's code is unoptimized: 48 KB a byte at a time
# took a tenth of a millisecond a block).
_DYNAMIC_CHECK = f"""@__coalda_dynamic_shared = addrspace(3) global [{DYNAMIC_SHARED} x i8] zeroinitializer, align 16
define internal void @__coalda_shared_check_dynamic(i64 %dyn) {{
entry:
  %poison = load i8, ptr @__coalda_poison_byte
  %byte = zext i8 %poison to i64
  %word = mul i64 %byte, 72340172838076673
  br label %head
head:
  %i = phi i64 [ %dyn, %entry ], [ %i.next, %head.next ]
  %full = icmp uge i64 %i, {DYNAMIC_SHARED}
  br i1 %full, label %ok, label %head.test
head.test:
  %low = and i64 %i, 7
  %aligned = icmp eq i64 %low, 0
  br i1 %aligned, label %words, label %head.byte
head.byte:
  %p = getelementptr i8, ptr addrspace(3) @__coalda_dynamic_shared, i64 %i
  %v = load i8, ptr addrspace(3) %p
  %bad = icmp ne i8 %v, %poison
  br i1 %bad, label %fail, label %head.next
head.next:
  %i.next = add i64 %i, 1
  br label %head
words:
  %j = phi i64 [ %i, %head.test ], [ %j.next, %words.next ]
  %q = getelementptr i8, ptr addrspace(3) @__coalda_dynamic_shared, i64 %j
  %w = load i64, ptr addrspace(3) %q, align 8
  %wbad = icmp ne i64 %w, %word
  br i1 %wbad, label %fail, label %words.next
words.next:
  %j.next = add i64 %j, 8
  %more = icmp ult i64 %j.next, {DYNAMIC_SHARED}
  br i1 %more, label %words, label %ok
fail:
  store i32 {_FAULT_OVERRUN}, ptr @__coalda_fault
  br label %ok
ok:
  ret void
}}"""


def _threaded(text: str, kernels: Sequence[KernelSignature], sites: Sequence[Site]) -> frozenset[str]:
    """The kernels from which a barrier call site is reachable (direct calls)."""
    bodies = _function_bodies(text)
    reach = {s.function for s in sites}
    grown = True
    while grown:
        grown = False
        for name, body in bodies.items():
            if name not in reach and any(f"@{callee}(" in body for callee in reach):
                reach.add(name)
                grown = True
    return frozenset(k.name for k in kernels if k.name in reach)


def _missing_functions(host: llvm.ModuleRef, provided: set[str]) -> list[str]:
    """The functions HOST declares that neither it nor this process defines
    (intrinsics aside)."""
    process = ctypes.CDLL(None)
    return sorted(fn.name for fn in host.functions
                  if fn.is_declaration and not fn.name.startswith("llvm.") and fn.name not in provided
                  and not hasattr(process, fn.name))


def _missing_stubs(host: llvm.ModuleRef, names: list[str]) -> str:
    """A definition of each of NAMES (declared in HOST) that sets the fault
    flag and which one was called, and returns zero."""
    types = {fn.name: str(fn.global_value_type) for fn in host.functions}
    out = ["@__coalda_fault = external global i32", "@__coalda_missing = external global i32"]
    for k, name in enumerate(names):
        result, params = re.fullmatch(r"(.*?) \((.*)\)", types[name]).groups()  # type: ignore[union-attr]
        args = ", ".join(p if p == "..." else f"{p} %a{j}" for j, p in enumerate(_top_level(params)))
        value = "void" if result == "void" else f"{result} zeroinitializer"
        out.append(f"define {result} @\"{name}\"({args}) {{\n  store i32 {_FAULT_MISSING}, ptr @__coalda_fault\n"
                   f"  store i32 {k}, ptr @__coalda_missing\n  ret {value}\n}}")
    return "\n".join(out)


def _result_type(function_type: str) -> str:
    """The result type of a function type as LLVM prints it (`void (ptr, i32)`)."""
    return re.fullmatch(r"(.*?) \((.*)\)", function_type)[1]  # type: ignore[index]


def _top_level(params: str) -> list[str]:
    """A parameter list's types, split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(params):
        if c in "{[<(":
            depth += 1
        elif c in "}]>)":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(params[start:i].strip())
            start = i + 1
    last = params[start:].strip()
    return [*parts, last] if last else parts


def _unsupported(text: str) -> dict[str, str]:
    """What each defined function of TEXT uses that the host cannot run
    (inline PTX, an NVVM intrinsic with no host definition), in words."""
    out = {}
    for m in _DEFINE.finditer(text):
        what = ["inline PTX assembly (asm)"] if _INLINE_ASM.search(m[0]) else []
        what += sorted(set(_OTHER_NVVM.findall(m[0])))
        if what:
            out[m[1]] = ", ".join(what)
    return out


def _stub(text: str, unsupported: dict[str, str], results: dict[str, str]) -> str:
    """Each function of UNSUPPORTED with a body that stores its index (in
    UNSUPPORTED's order) into `@__coalda_refused` and returns zero: the host
    cannot compile the original body, and the kernels that reach it
    statically are refused before they run (_refusals). A kernel that
    still got there (through a call the analysis cannot see) is refused
    after its launch, never compared. RESULTS: each function's result type."""
    if not unsupported:
        return text
    index = {name: k for k, name in enumerate(unsupported)}

    def stub(m: re.Match[str]) -> str:
        name = m[1]
        if name not in index:
            return m[0]
        header = m[0].split("\n", 1)[0]
        result = results.get(name.strip('"'))
        if result is None or not header.endswith("{"):  # not the IR clang prints: refuse the whole module
            raise EmulationRefused(f"function {name} uses {unsupported[name]}; the CPU emulator cannot run it")
        value = "void" if result == "void" else f"{result} zeroinitializer"
        return f"{header}\n  store i32 {index[name]}, ptr @__coalda_refused\n  ret {value}\n}}"

    return _DEFINE.sub(stub, text)


def _source_names(text: str) -> dict[str, str]:
    """Each defined function's name as its source wrote it (its debug
    info's subprogram: `__hadd2` for `_ZL7__hadd27__half2S_`), where the
    IR has one."""
    programs = dict(_SUBPROGRAM.findall(text))
    return {m[1]: programs[m[2]] for m in _DEFINE_DBG.finditer(text) if m[2] in programs}


def _refusals(
    text: str, kernels: Sequence[KernelSignature], unsupported: dict[str, str], names: dict[str, str]
) -> dict[str, str]:
    """Why each kernel that may reach a function of UNSUPPORTED cannot run:
    the clause that follows "kernel NAME", with the shortest chain of
    direct calls to it; a kernel that makes an indirect call may reach any
    of them whose address is taken (outside debug info and annotations)."""
    if not unsupported:
        return {}
    bodies = {m[1]: m[0] for m in _DEFINE.finditer(text)}
    code = "\n".join(line for line in text.split("\n") if not line.startswith(("!", "define ", "declare ")))
    taken = [f for f in unsupported if re.search(rf"@{re.escape(f)}(?![-\w.$(])", code)]
    out = {}
    for kernel in kernels:
        parent: dict[str, str] = {}
        queue, seen, reached = [kernel.name], {kernel.name}, None
        for fn in queue:  # breadth first: the shortest chain of calls
            body = bodies.get(fn, "")
            if fn in unsupported or (taken and _calls_through_pointer(body)):
                reached = fn
                break
            for callee in re.findall(r"@([-\w.$]+)\(", body):
                if callee in bodies and callee not in seen:
                    seen.add(callee)
                    parent[callee] = fn
                    queue.append(callee)
        if reached is None:
            continue
        chain = [reached]
        while chain[-1] in parent:
            chain.append(parent[chain[-1]])
        calls = "".join(f"calls {names.get(f, f)}, which " for f in reversed(chain[:-1]))
        if reached in unsupported:
            what = f"uses {unsupported[reached]}"
        else:
            targets = " or ".join(names.get(f, f) for f in taken)
            uses = ", ".join(sorted({u for f in taken for u in unsupported[f].split(", ")}))
            what = f"makes an indirect call that may reach {targets}, which use{'s' if len(taken) == 1 else ''} {uses}"
        out[kernel.name] = f"{calls}{what}; the CPU emulator cannot run it"
    return out


def lower(device_ir: str, kernels: Sequence[KernelSignature], shared_sizes: dict[str, int],
          results: dict[str, str] | None = None) -> HostModule:
    """Device IR rewritten so the host can run it. A function the host
    cannot run gets a stub, and the kernels that reach it are listed in
    `refused` (they must not be launched). `shared_sizes` maps each static
    addrspace(3) global to its size in bytes; `results` each defined
    function's result type (for the stubs)."""
    text = _BUILTIN_VARS.sub("", device_ir)
    text = _SREG.sub(lambda m: f"@__coalda_sreg_{m[1]}_{m[2]}", text)
    text, sites = _lower_barriers(text)
    text = nvvm.lower(text)
    unsupported = _unsupported(text)
    text = _stub(text, unsupported, results or {})
    # the stubs use no intrinsic: what is left (a global's initializer) is
    # not code a kernel reaches, and cannot be compiled for the host
    stray = sorted(set(_OTHER_NVVM.findall(re.sub(r"^declare [^\n]*$", "", text, flags=re.M))))
    if stray:
        raise EmulationRefused(f"the module uses {', '.join(stray)} outside its functions; the CPU emulator cannot run it")
    refused = _refusals(text, kernels, unsupported, _source_names(device_ir))
    text, static, dynamic = _lower_shared(text)
    threaded = _threaded(text, kernels, sites)
    shared = _shared_by_kernel(text, kernels, static, dynamic)
    text = _DECLARE_SREG.sub(
        lambda m: f"define internal i32 @__coalda_sreg_{m[1]}_{m[2]}() {{\n"
        f"  %v = load i32, ptr @__coalda_{m[1]}_{m[2]}\n  ret i32 %v\n}}",
        text,
    )
    text = re.sub(r"^target datalayout = .*$", "", text, flags=re.M)
    text = re.sub(r"^target triple = .*$", f'target triple = "{llvm.get_process_triple()}"', text, flags=re.M)
    text = _TARGET_ATTRS.sub("", text)
    text, spaces = _check_alignment(text)
    text = _contract(text)
    text = _canonical_nans(text)
    text = _aggregates_in_registers(text)
    parts = [
        text,
        _alignment_checks(spaces),
        "\n".join(f"@__coalda_{r}_{d} = global i32 0" for r in REGISTERS for d in DIMS),
        "@__coalda_refused = global i32 -1",  # the index of the last stub that ran (_stub)
        _barrier_wrappers(),
        _shared_functions(shared, shared_sizes, dynamic, text),
        *(_driver(k, i) for i, k in enumerate(kernels) if k.name not in threaded),
        *(fibers.entry_ir(i, k.name, [ty for _, ty in k.params]) for i, k in enumerate(kernels) if k.name in threaded),
    ]
    return HostModule("\n".join(parts), tuple(sites), threaded, dynamic, tuple(unsupported.items()),
                      tuple(refused.items()))


def _contract(text: str) -> str:
    """Float multiplies fused into the adds that use them, as the GPU's code
    generator does: llc-19 for NVPTX turns `fadd`/`fsub` of an `fmul` into
    one fma (one rounding instead of two) when both carry `contract` (clang's
    -ffp-contract=fast for CUDA: every -O level) and both lie in one basic
    block (its DAG combiner works on a block at a time; NVPTX fuses an fmul
    of several users into each). The host JIT would never fuse, so a rewrite
    that split a block between a multiply and its add would compute other
    bits on the GPU than the original, and the emulator could not see it.
    Where both operands are such products, the one with fewer users fuses
    (the combiner's choice)."""
    lines = text.split("\n")
    function = 0  # the line its function starts on
    uses: dict[str, int] | None = None  # of the function's values, counted when first asked
    products: dict[str, tuple[str, str]] = {}
    count = 0
    for k, line in enumerate(lines):
        if line.startswith("define "):
            function, uses = k, None
        if _BLOCK_START.match(line):
            products.clear()
            continue
        if " = f" not in line:
            continue
        m = _FP_BINARY.match(line)
        if not m:
            continue
        indent, result, op, flags, ty, a, b, rest = m.groups()
        contract = " contract" in flags or " fast" in flags
        if op == "fmul":
            if contract:
                products[result] = (a, b)
            continue
        candidates = [x for x in (a, b) if contract and x in products and not (op == "fsub" and x == a == b)]
        if not candidates:
            continue
        if len(candidates) == 2:
            if uses is None:
                uses = {}
                for name in re.findall(r"%[-\w.$]+|%\"[^\"\n]*\"", "\n".join(lines[function:lines.index("}", function)])):
                    uses[name] = uses.get(name, 0) + 1
            if uses.get(a, 0) > uses.get(b, 0):
                candidates.reverse()
        product = candidates[0]
        x, y = products[product]
        other = b if product == a else a
        count += 1
        pre = ""
        if op == "fsub":  # a*b - c = fma(a, b, -c); c - a*b = fma(-a, b, c)
            neg = f"%coalda.fneg.{count}"
            if product == a:
                pre, other = f"{indent}{neg} = fneg {ty} {other}\n", neg
            else:
                pre, x = f"{indent}{neg} = fneg {ty} {x}\n", neg
        suffix = "f32" if ty == "float" else "f64"
        lines[k] = f"{pre}{indent}{result} = call{flags} {ty} @llvm.fma.{suffix}({ty} {x}, {ty} {y}, {ty} {other}){rest}"
    out = "\n".join(lines)
    for suffix, ty in (("f32", "float"), ("f64", "double")):
        if f"@llvm.fma.{suffix}(" in out and not re.search(rf"^declare [^\n]*@llvm\.fma\.{suffix}\(", out, re.M):
            out += f"\ndeclare {ty} @llvm.fma.{suffix}({ty}, {ty}, {ty})\n"
    return out


def _canonical_nans(text: str) -> str:
    """Each float operation's NaN result replaced by the canonical NaN of its
    type (the instruction keeps its name for its users: the raw result gets a
    new one). `nnan` and `fast` flags (on every instruction: a `fast` fabs
    may assume its operand is no NaN), `nofpclass` attributes and the
    no-NaNs function attribute are dropped, or the host compiler could fold
    the test away."""
    count = 0

    def canonical(m: re.Match[str]) -> str:
        nonlocal count
        indent, result, op, ty, rest = m.groups()
        if "call" in op.split() and not _FP_INTRINSIC.match(rest):
            return m[0]  # a call of something else
        count += 1
        raw, nan = f"%coalda.fp.{count}", f"%coalda.isnan.{count}"
        op = re.sub(r" nnan\b", "", op.replace(" fast", " reassoc ninf nsz arcp contract afn"))
        lanes = re.match(r"<(\d+) x (\w+)>", ty)
        if lanes:
            element = lanes[2]
            constant = "<" + ", ".join([f"{element} {_CANONICAL_NAN[element]}"] * int(lanes[1])) + ">"
            cond = f"<{lanes[1]} x i1>"
            zero = "zeroinitializer"
        else:
            constant, cond, zero = _CANONICAL_NAN[ty], "i1", "0.0"
        return (f"{indent}{raw} = {op} {ty}{rest}\n"
                f"{indent}{nan} = fcmp uno {ty} {raw}, {zero}\n"
                f"{indent}{result} = select {cond} {nan}, {ty} {constant}, {ty} {raw}")

    text = _FP_ARITH.sub(canonical, _NO_NANS.sub("", text))
    text = re.sub(r"(?<= )fast(?= )", "reassoc ninf nsz arcp contract afn", text)
    return text.replace('"no-nans-fp-math"="true"', '"no-nans-fp-math"="false"')


_LINKAGE = frozenset((
    "internal", "private", "available_externally", "linkonce", "weak", "common", "appending", "extern_weak",
    "linkonce_odr", "weak_odr", "external", "dso_local", "dso_preemptable", "hidden", "protected", "default",
    "unnamed_addr", "local_unnamed_addr",
))
_AGGREGATE = r"(?:%[-\w.$]+|%\"[^\"\n]*\"|\{[^\n]*?\}|\[[^\n]*?\])"
_AGGREGATE_DEFINE = re.compile(rf"^define ((?:[\w()]+ )*?)({_AGGREGATE}) (@[-\w.$]+)\(", re.M)
_FAST_MATH = r"(?:(?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc) )*"


def _aggregates_in_registers(text: str) -> str:
    """Functions that return a struct or an array (make_float4 at -O0)
    called in swiftcc. The host's C convention returns a struct's third and
    fourth float or double in x87 registers, whose loads quiet a signaling
    NaN (0x7fbf12f2 came back 0x7fff12f2): two versions of a kernel that
    pass such a value back in different ways computed different bits, and
    the GPU, whose moves keep every bit, neither. swiftcc returns up to four
    in SSE registers. Only functions called directly and nowhere else."""
    # where a use may be: not the metadata, which names no function, and
    # only the lines that name it (a module of 100 kernels is 4 MB of code)
    code = [line for line in text.split("\n") if not line.startswith("!")]
    for m in list(_AGGREGATE_DEFINE.finditer(text)):
        words, ret, name = m[1].split(), m[2], m[3]
        if any(w not in _LINKAGE and not w.startswith(("noundef", "nonnull", "inreg")) for w in words):
            continue  # a calling convention of its own, or words not known here
        calls = re.compile(rf"\b((?:tail |musttail |notail )?call {_FAST_MATH})((?:\w+ )*?){re.escape(ret)} "
                           rf"{re.escape(name)}\(")
        mentions = "\n".join(line for line in code if name in line)
        uses = len(re.findall(rf"{re.escape(name)}\b", mentions))
        if uses != 1 + len(calls.findall(mentions)):
            continue  # its address is taken
        linkage = [w for w in words if w in _LINKAGE]
        attrs = [w for w in words if w not in _LINKAGE]
        define = f"define {' '.join([*linkage, 'swiftcc', *attrs])} {ret} {name}("
        text = text.replace(m[0], define, 1)
        text = "\n".join(calls.sub(lambda c: f"{c[1]}swiftcc {c[2]}{ret} {name}(", line) if name in line else line
                         for line in text.split("\n"))
    return text


def _check_alignment(text: str) -> tuple[str, set[str]]:
    """Before every load and store that declares an alignment above 1, a call
    that sets the fault flag when the address is not that aligned: the GPU
    faults on a misaligned access, the host would not notice. The access
    itself then declares align 1: the host's aligned vector moves would
    crash the emulator on such an address (SIGSEGV) before the flag is
    read. Returns the address spaces used."""
    spaces: set[str] = set()

    def check(m: re.Match[str]) -> str:
        indent, space, ptr, align = m[1], m[2] or "0", m[3], int(m[4])
        if align <= 1:
            return m[0]
        spaces.add(space)
        ty = "ptr" if space == "0" else f"ptr addrspace({space})"
        at = m.start(4) - m.start(0)
        access = m[0][:at] + "1" + m[0][at + len(m[4]):]
        return f"{indent}call void @__coalda_aligned_{space}({ty} {ptr}, i64 {align - 1})\n{access}"

    return _ACCESS.sub(check, text), spaces


def _alignment_checks(spaces: set[str]) -> str:
    """`__coalda_aligned_<space>(p, mask)`: the fault flag on p & mask != 0."""
    out = []
    for space in sorted(spaces):
        ty = "ptr" if space == "0" else f"ptr addrspace({space})"
        out.append(f"""define internal void @__coalda_aligned_{space}({ty} %p, i64 %mask) alwaysinline {{
  %a = ptrtoint {ty} %p to i64
  %low = and i64 %a, %mask
  %bad = icmp ne i64 %low, 0
  br i1 %bad, label %fault, label %ok
fault:
  store i32 {_FAULT_MISALIGNED}, ptr @__coalda_fault
  br label %ok
ok:
  ret void
}}""")
    return "\n".join(out)


def _target_machine() -> llvm.TargetMachine:
    """A new host target machine. Not shared: an MCJIT engine takes ownership
    of its target machine and frees it with itself. Code generation at -O0:
    the emulated kernels run briefly and compiling them was most of the time
    (windows.cu's two modules, 100 kernels each: 11.5 s of 21 s at -O2, the
    whole run 13.7 s at -O0; the math corpora run no slower)."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.initialize_native_asmparser()  # the fibers' context switch (fibers.OWN_SWITCH)
    return llvm.Target.from_default_triple().create_target_machine(opt=0)


def _coords(index: int, extent: tuple[int, int, int]) -> tuple[int, int, int]:
    return (index % extent[0], index // extent[0] % extent[1], index // (extent[0] * extent[1]))


class EmulatedModule:
    """A device module JIT-compiled for the host; launch its kernels by name.

    A kernel that reaches something the emulator cannot run (inline PTX, an
    NVVM intrinsic it has no model for, a parameter type it cannot pass) is
    in `refused`, with why; launching it raises EmulationRefused. With
    partial=False (the default) such a kernel refuses the whole module at
    once; with partial=True the module is built, and its other kernels run."""

    def __init__(self, device_ir: str, partial: bool = False) -> None:
        self.device_ir = device_ir
        self._module_code: ir.ModuleCode | None = None
        self._codes: dict[str, str] = {}
        parsed = ir.parse(device_ir)
        self.signatures = {
            fn.name: KernelSignature(fn.name, tuple((a.name, str(a.type)) for a in fn.arguments))
            for fn in parsed.functions if not fn.is_declaration
        }
        kernel_names = ir.kernel_names(device_ir)
        self.kernels = [s for name, s in self.signatures.items() if name in kernel_names]
        self.names = _source_names(device_ir)
        # kernel symbol -> why it cannot run: the clause after "kernel NAME"
        self.refused: dict[str, str] = {}
        for k in self.kernels:
            for _, ty in k.params:
                if ty not in _CTYPES:
                    self.refused[k.name] = f"has a parameter of type {ty}, which the CPU emulator cannot pass"
        # the host module gets no driver for those: it could not call them
        runnable = [k for k in self.kernels if k.name not in self.refused]
        tm = _target_machine()
        layout = tm.target_data
        shared_sizes = {
            g.name: layout.get_abi_size(g.global_value_type)
            for g in parsed.global_variables if str(g.type) == "ptr addrspace(3)"
        }
        results = {fn.name: _result_type(str(fn.global_value_type)) for fn in parsed.functions if not fn.is_declaration}
        lowered = lower(device_ir, runnable, shared_sizes, results)
        self.sites, self.threaded, self.dynamic_shared = lowered.sites, lowered.threaded, lowered.dynamic_shared
        self.warps_apart = warp_waits(self.sites)
        self.stubbed = lowered.stubbed
        self.refused.update(lowered.refused)
        if self.refused and not partial:
            raise self.refusal()
        host = ir.parse(lowered.text)
        host.verify()
        host.triple = tm.triple
        host.data_layout = str(layout)
        libc = fibers.libc_symbols()
        for name, address in libc.items():
            llvm.add_symbol(name, address)
        host.link_in(ir.parse(_DEVICE_RUNTIME))
        self.missing = _missing_functions(host, set(libc) | set(fibers.ASSEMBLY_SYMBOLS))
        if self.missing:
            host.link_in(ir.parse(_missing_stubs(host, self.missing)))
        self._engine = llvm.create_mcjit_compiler(host, tm)
        self._engine.finalize_object()
        self._globals = {
            (r, d): ctypes.c_int32.from_address(self._engine.get_global_value_address(f"__coalda_{r}_{d}"))
            for r in REGISTERS for d in DIMS
        }
        self._fault = ctypes.c_int32.from_address(self._engine.get_global_value_address("__coalda_fault"))
        self._poison_byte = ctypes.c_uint8.from_address(self._engine.get_global_value_address("__coalda_poison_byte"))
        self._assertion = [ctypes.c_void_p.from_address(self._engine.get_global_value_address(f"__coalda_assert_{w}"))
                           for w in ("message", "file")]
        self._assert_line = ctypes.c_int32.from_address(self._engine.get_global_value_address("__coalda_assert_line"))
        self._missing_called = ctypes.c_int32.from_address(self._engine.get_global_value_address("__coalda_missing"))
        self._stub_ran = ctypes.c_int32.from_address(self._engine.get_global_value_address("__coalda_refused"))
        self._drivers = {}
        self._fiber_entries: dict[str, tuple[int, type[ctypes.Structure]]] = {}
        # a threaded kernel's (poison, check) of its shared memory, per block
        self._shared_calls: dict[str, tuple[Callable[[], None], Callable[[int], None]]] = {}
        for i, k in enumerate(runnable):
            types = [_CTYPES[ty] for _, ty in k.params]
            if k.name in self.threaded:
                fields = [(f"a{j}", t) for j, t in enumerate(types)]
                args = type(f"Args{i}", (ctypes.Structure,), {"_fields_": fields})
                self._fiber_entries[k.name] = (self._engine.get_function_address(f"__coalda_fiber_entry_{i}"), args)
                self._shared_calls[k.name] = (
                    ctypes.CFUNCTYPE(None)(self._engine.get_function_address(f"__coalda_shared_poison_{i}")),
                    ctypes.CFUNCTYPE(None, ctypes.c_int64)(
                        self._engine.get_function_address(f"__coalda_shared_check_{i}")))
            else:
                proto = ctypes.CFUNCTYPE(None, *types, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
                self._drivers[k.name] = proto(self._engine.get_function_address(f"__coalda_grid_{i}"))
        if self._fiber_entries:
            self._fiber_args = ctypes.c_void_p.from_address(self._engine.get_global_value_address("__coalda_fiber_args"))
            main = ctypes.c_void_p.from_address(self._engine.get_global_value_address("__coalda_main_ctx"))
            self._main_context = fibers.MainContext()
            main.value = self._main_context.address
            self._interval = ctypes.CFUNCTYPE(
                ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32, *[ctypes.c_void_p] * 5)(
                self._engine.get_function_address("__coalda_fiber_interval"))
            self._intervals = ctypes.CFUNCTYPE(
                ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32, *[ctypes.c_void_p] * 5, ctypes.c_int32,
                ctypes.c_void_p)(self._engine.get_function_address("__coalda_fiber_intervals"))
            self._open_barrier = ctypes.CFUNCTYPE(ctypes.c_int32, *[ctypes.c_void_p] * 3, ctypes.c_int32)(
                self._engine.get_function_address("__coalda_open_block_barrier"))

    def code(self, kernel: str) -> str:
        """The code a launch of KERNEL runs (ir.ModuleCode.closure): equal
        for two modules exactly when they run KERNEL alike."""
        if kernel not in self._codes:
            if self._module_code is None:
                self._module_code = ir.ModuleCode(self.device_ir)
            self._codes[kernel] = self._module_code.closure(kernel)
        return self._codes[kernel]

    def refusal(self, kernel: str | None = None) -> EmulationRefused:
        """The refusal of KERNEL (default: the first refused kernel, naming
        how many others are refused too), in the source's names."""
        first = kernel or next(iter(self.refused))
        message = f"kernel {self.names.get(first, first)} {self.refused[first]}"
        others = [self.names.get(k, k) for k in self.refused if k != first]
        if kernel is None and others:
            message += f" ({len(others)} other kernel(s) cannot run either: {', '.join(others)})"
        return EmulationRefused(message, first, self.refused[first])

    def _stub_refusal(self, kernel: str) -> EmulationRefused:
        """A kernel got to a stub (_stub) that the static analysis did not
        see it reach: refused after the fact, never compared."""
        stub, what = self.stubbed[self._stub_ran.value]
        reason = f"reached {self.names.get(stub, stub)}, which uses {what}; the CPU emulator cannot run it"
        return EmulationRefused(f"kernel {self.names.get(kernel, kernel)} {reason}", kernel, reason)

    def launch(
        self,
        kernel: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[np.ndarray | int | float],
        schedule: Schedule = FORWARD,
        shared_bytes: int = 0,
    ) -> None:
        """Run every thread of the grid in the schedule's order; array
        arguments are passed by address. `shared_bytes` is the launch's
        dynamic shared memory. Raises EmulationFault on barrier divergence,
        a deadlock or a write past the dynamic shared memory, and
        EmulationRefused for a kernel in `refused`."""
        if kernel in self.refused:
            raise self.refusal(kernel)
        if kernel not in self._drivers and kernel not in self._fiber_entries:
            names = ", ".join([*self._drivers, *self._fiber_entries]) or "none"
            raise CoaldaError(f"no kernel {kernel!r} in the module (kernels: {names})")
        signature = self.signatures[kernel]
        if len(args) != len(signature.params):
            raise CoaldaError(f"kernel {kernel} takes {len(signature.params)} arguments, got {len(args)}")
        if min(grid) < 1 or min(block) < 1:
            raise CoaldaError(f"empty launch: grid {grid}, block {block}")
        if not 0 <= shared_bytes <= DYNAMIC_SHARED:
            raise CoaldaError(f"dynamic shared memory of {shared_bytes} bytes: the emulator has 0 to {DYNAMIC_SHARED}")
        for d, (g, b) in enumerate(zip(grid, block)):
            self._globals[("nctaid", DIMS[d])].value = g
            self._globals[("ntid", DIMS[d])].value = b
        values = []
        for (name, ty), arg in zip(signature.params, args):
            if ty == "ptr":
                if not isinstance(arg, np.ndarray) or not arg.flags.c_contiguous:
                    raise CoaldaError(f"argument {name} of {kernel} must be a contiguous numpy array")
                values.append(arg.ctypes.data)
            else:
                values.append(arg)
        self._fault.value = 0
        self._stub_ran.value = -1
        self._poison_byte.value = schedule.shared_poison
        try:
            if kernel in self._fiber_entries:
                self._launch_threads(kernel, grid, block, values, schedule, shared_bytes)
            else:
                order = schedule.grid_order(math.prod(grid), math.prod(block))
                self._drivers[kernel](*values, order.ctypes.data, order.size, shared_bytes)
        except EmulationFault:
            # a stub's zero may have caused the fault: the refusal says why
            if self._stub_ran.value >= 0:
                self._fault.value = 0
                raise self._stub_refusal(kernel) from None
            raise
        fault, self._fault.value = self._fault.value, 0
        if self._stub_ran.value >= 0:
            raise self._stub_refusal(kernel)
        if fault == _FAULT_OVERRUN:
            raise EmulationFault(f"kernel {kernel}: a block wrote past its {shared_bytes} bytes of dynamic shared memory")
        if fault == _FAULT_MISALIGNED:
            raise EmulationFault(f"kernel {kernel}: a misaligned access (on the GPU: CUDA_ERROR_MISALIGNED_ADDRESS); "
                                 "check the launch spec's align")
        if fault == _FAULT_STRAY_BARRIER:
            raise EmulationFault(f"kernel {kernel}: reached a barrier through a call the emulator cannot follow")
        if fault == _FAULT_MISSING:
            raise EmulationFault(f"kernel {kernel} called {self.missing[self._missing_called.value]}, "
                                 "which the CPU emulator does not provide")
        if fault == _FAULT_ASSERT:
            message, file = (ctypes.string_at(p.value).decode(errors="replace") if p.value else "?"
                             for p in self._assertion)
            raise EmulationFault(f"kernel {kernel}: assertion `{message}` failed at {file}:{self._assert_line.value} "
                                 "(on the GPU: cudaErrorAssert)")

    def _launch_threads(
        self, kernel: str, grid: tuple[int, int, int], block: tuple[int, int, int],
        values: list[object], schedule: Schedule, shared_bytes: int,
    ) -> None:
        """Each block's threads as fibers that switch at barriers (threads.py)."""
        entry, struct = self._fiber_entries[kernel]
        poison, check = self._shared_calls[kernel]
        arguments = struct(*values)
        self._fiber_args.value = ctypes.addressof(arguments)
        count = math.prod(block)
        slots = fibers.SLOTS.take(count)
        native = _BlockNative(self, np.array([(s.stack, s.context) for s in slots], np.uint64), entry)
        try:
            for b in schedule.block_order(math.prod(grid)):
                where = _coords(int(b), grid)
                self._set("ctaid", where)
                poison()
                BlockRun(int(b), f"kernel {kernel} block {where}", count, schedule, self.sites, native,
                         self.warps_apart).run()
                check(shared_bytes)
        finally:
            fibers.SLOTS.give(slots)

    def _set(self, register: str, value: tuple[int, int, int]) -> None:
        for d, v in zip(DIMS, value):
            self._globals[(register, d)].value = v

class _BlockNative:
    """threads.Native on a module's JIT code, for one launch: SLOTS holds
    each thread's (stack, context), ENTRY is the kernel's fiber entry."""

    def __init__(self, module: EmulatedModule, slots: np.ndarray, entry: int) -> None:
        self.module, self.slots, self.entry = module, slots, entry
        self._ran = ctypes.c_int32(0)

    def interval(self, order: np.ndarray, state: np.ndarray, result: np.ndarray, wait: np.ndarray) -> int:
        return self.module._interval(order.ctypes.data, order.size, state.ctypes.data, result.ctypes.data,
                                     wait.ctypes.data, self.slots.ctypes.data, self.entry)

    def intervals(self, order: np.ndarray, state: np.ndarray, result: np.ndarray, wait: np.ndarray,
                  exited: int) -> tuple[int, int]:
        total = self.module._intervals(order.ctypes.data, order.size, state.ctypes.data, result.ctypes.data,
                                       wait.ctypes.data, self.slots.ctypes.data, self.entry, exited,
                                       ctypes.addressof(self._ran))
        return total, self._ran.value

    def open_block_barrier(self, state: np.ndarray, result: np.ndarray, wait: np.ndarray) -> bool:
        return bool(self.module._open_barrier(state.ctypes.data, result.ctypes.data, wait.ctypes.data, state.size))


@functools.lru_cache(maxsize=64)
def _cached(digest: str, text: str) -> EmulatedModule:
    return EmulatedModule(text, partial=True)


def load(device_ir: str, partial: bool = False) -> EmulatedModule:
    """An EmulatedModule for this IR, JIT-compiled once per distinct text
    (see EmulatedModule for `partial`)."""
    module = _cached(hashlib.sha256(device_ir.encode()).hexdigest(), device_ir)
    if module.refused and not partial:
        raise module.refusal()
    return module


class EmulatorExecutor:
    """oracle.Executor on the CPU emulator. With partial=True, the kernels
    of the module that can run do, and the others are in `refusal`."""

    def __init__(self, device_ir: str, partial: bool = False) -> None:
        self.module = load(device_ir, partial)

    def refusal(self, kernel: str) -> str | None:
        """Why KERNEL (a symbol) cannot run here (the clause after "kernel
        NAME"), or None."""
        return self.module.refused.get(kernel)

    def kernel_code(self, kernel: str) -> str:
        """The code a launch of KERNEL runs (oracle.Deterministic)."""
        return self.module.code(kernel)

    def run(
        self, kernel: str, grid: tuple[int, int, int], block: tuple[int, int, int], args: Sequence[object],
        schedule: Schedule | None = None, shared_bytes: int = 0,
    ) -> None:
        values = [(a.with_addresses(lambda b: b.storage.ctypes.data + b.offset) if a.pointers else
                   a.storage[a.offset :]) if isinstance(a, HostBuffer) else a for a in args]
        self.module.launch(kernel, grid, block, values, schedule or FORWARD, shared_bytes)  # type: ignore[arg-type]
