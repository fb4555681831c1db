"""Run a kernel's device IR on the CPU with llvmlite.

The NVVM special-register reads (`llvm.nvvm.read.ptx.sreg.*`) become calls to
small functions that load host globals; a generated driver walks every
(block, thread) of the grid in sequence, setting those globals and calling the
kernel. The module is retargeted to the host and JIT-compiled once.

Sequential execution is a valid schedule of a CUDA grid only when threads do
not wait on each other: kernels with barriers, shared memory or other NVVM
intrinsics are refused with a clear message.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

import llvmlite.binding as llvm
import numpy as np

from .errors import CoaldaError

DIMS = ("x", "y", "z")
REGISTERS = ("tid", "ctaid", "ntid", "nctaid")
_SREG = re.compile(r"@llvm\.nvvm\.read\.ptx\.sreg\.(tid|ctaid|ntid|nctaid)\.([xyz])\b")
_DECLARE_SREG = re.compile(r"^declare [^@\n]*@__coalda_sreg_(\w+)_([xyz])\(\)[^\n]*$", re.M)
_OTHER_NVVM = re.compile(r"@(llvm\.nvvm\.[\w.]+)")
_TARGET_ATTRS = re.compile(r'"target-(cpu|features)"="[^"]*"')
_BUILTIN_VARS = re.compile(r"^@(threadIdx|blockIdx|blockDim|gridDim) = [^\n]*$", re.M)

# ctypes for the IR types a kernel parameter may have.
_CTYPES = {
    "ptr": ctypes.c_void_p, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
    "i64": ctypes.c_int64, "float": ctypes.c_float, "double": ctypes.c_double,
}


class EmulationRefused(CoaldaError):
    """The kernel cannot be run sequentially on the CPU."""


@dataclass(frozen=True)
class KernelSignature:
    name: str
    params: tuple[tuple[str, str], ...]  # (name, IR type)


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
    """IR of `__coalda_grid_<index>(params...)`: every block, every thread."""
    formals = ", ".join(f"{ty} %a{i}" for i, (_, ty) in enumerate(kernel.params))
    actuals = ", ".join(f"{ty} %a{i}" for i, (_, ty) in enumerate(kernel.params))
    load = "\n".join(
        f"  %{r}{d} = load i32, ptr @__coalda_{r}_{d}" for r in ("ntid", "nctaid") for d in DIMS
    )
    return f"""
define void @__coalda_grid_{index}({formals}) {{
entry:
{load}
  %bxy = mul i32 %nctaidx, %nctaidy
  %blocks = mul i32 %bxy, %nctaidz
  %txy = mul i32 %ntidx, %ntidy
  %threads = mul i32 %txy, %ntidz
  br label %block
block:
  %b = phi i32 [ 0, %entry ], [ %b.next, %block.end ]
{_unflatten("b", "nctaid", "ctaid")}
  br label %thread
thread:
  %t = phi i32 [ 0, %block ], [ %t.next, %thread ]
{_unflatten("t", "ntid", "tid")}
  call void @{kernel.name}({actuals})
  %t.next = add i32 %t, 1
  %t.more = icmp ult i32 %t.next, %threads
  br i1 %t.more, label %thread, label %block.end
block.end:
  %b.next = add i32 %b, 1
  %b.more = icmp ult i32 %b.next, %blocks
  br i1 %b.more, label %block, label %done
done:
  ret void
}}
"""


def host_module_text(device_ir: str, kernels: Sequence[KernelSignature]) -> str:
    """Device IR rewritten so the host can run it; refuses what it cannot run."""
    if "addrspace(3)" in device_ir:
        raise EmulationRefused("kernel uses shared memory; the CPU emulator runs threads one after another and cannot")
    text = _BUILTIN_VARS.sub("", device_ir)
    text = _SREG.sub(lambda m: f"@__coalda_sreg_{m[1]}_{m[2]}", text)
    others = sorted(set(_OTHER_NVVM.findall(text)))
    if others:
        barrier = [o for o in others if "barrier" in o or "bar." in o]
        what = "a barrier (__syncthreads)" if barrier else ", ".join(others)
        raise EmulationRefused(f"kernel uses {what}; the CPU emulator cannot run it")
    text = _DECLARE_SREG.sub(
        lambda m: f"define internal i32 @__coalda_sreg_{m[1]}_{m[2]}() {{\n"
        f"  %v = load i32, ptr @__coalda_{m[1]}_{m[2]}\n  ret i32 %v\n}}",
        text,
    )
    text = re.sub(r"^target datalayout = .*$", "", text, flags=re.M)
    text = re.sub(r"^target triple = .*$", f'target triple = "{llvm.get_process_triple()}"', text, flags=re.M)
    text = _TARGET_ATTRS.sub("", text)
    globals_ = "\n".join(f"@__coalda_{r}_{d} = global i32 0" for r in REGISTERS for d in DIMS)
    drivers = "".join(_driver(k, i) for i, k in enumerate(kernels))
    return text + "\n" + globals_ + "\n" + drivers


def _target_machine() -> llvm.TargetMachine:
    """A new host target machine. Not shared: an MCJIT engine takes ownership
    of its target machine and frees it with itself."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm.Target.from_default_triple().create_target_machine(opt=2)


class EmulatedModule:
    """A device module JIT-compiled for the host; launch its kernels by name."""

    def __init__(self, device_ir: str) -> None:
        self.device_ir = device_ir
        self.signatures = {name: KernelSignature(name, params) for name, params in signatures(device_ir).items()}
        self.kernels = [s for name, s in self.signatures.items() if _is_kernel(device_ir, name)]
        host = _parse(host_module_text(device_ir, self.kernels))
        host.verify()
        tm = _target_machine()
        host.triple = tm.triple
        host.data_layout = str(tm.target_data)
        self._engine = llvm.create_mcjit_compiler(host, tm)
        self._engine.finalize_object()
        self._globals = {
            (r, d): ctypes.c_int32.from_address(self._engine.get_global_value_address(f"__coalda_{r}_{d}"))
            for r in REGISTERS for d in DIMS
        }
        self._drivers = {}
        for i, k in enumerate(self.kernels):
            for _, ty in k.params:
                if ty not in _CTYPES:
                    raise EmulationRefused(f"kernel {k.name} has a parameter of type {ty}, which the emulator cannot pass")
            proto = ctypes.CFUNCTYPE(None, *(_CTYPES[ty] for _, ty in k.params))
            self._drivers[k.name] = proto(self._engine.get_function_address(f"__coalda_grid_{i}"))

    def launch(
        self,
        kernel: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[np.ndarray | int | float],
    ) -> None:
        """Run every thread of the grid; array arguments are passed by address."""
        if kernel not in self._drivers:
            raise CoaldaError(f"no kernel {kernel!r} in the module (kernels: {', '.join(self._drivers) or 'none'})")
        signature = self.signatures[kernel]
        if len(args) != len(signature.params):
            raise CoaldaError(f"kernel {kernel} takes {len(signature.params)} arguments, got {len(args)}")
        if min(grid) < 1 or min(block) < 1:
            raise CoaldaError(f"empty launch: grid {grid}, block {block}")
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
        self._drivers[kernel](*values)


def _parse(text: str) -> llvm.ModuleRef:
    try:
        return llvm.parse_assembly(text)
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "parse error"
        raise CoaldaError(f"the emulator cannot read this IR: {first}") from None


def _is_kernel(ir: str, name: str) -> bool:
    return re.search(rf'!\{{ptr @{re.escape(name)}, !"kernel", i32 1\}}', ir) is not None or (
        re.search(rf"define [^\n]*ptx_kernel[^\n]*@{re.escape(name)}\(", ir) is not None
    )


@functools.lru_cache(maxsize=64)
def _cached(digest: str, text: str) -> EmulatedModule:
    return EmulatedModule(text)


def load(device_ir: str) -> EmulatedModule:
    """An EmulatedModule for this IR, JIT-compiled once per distinct text."""
    return _cached(hashlib.sha256(device_ir.encode()).hexdigest(), device_ir)


def signatures(device_ir: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """(name, IR type) of each parameter of each defined function."""
    parsed = _parse(device_ir)
    return {
        fn.name: tuple((a.name, str(a.type)) for a in fn.arguments)
        for fn in parsed.functions
        if not fn.is_declaration
    }


class EmulatorExecutor:
    """runner.Executor on the CPU emulator."""

    def __init__(self, device_ir: str) -> None:
        self.module = load(device_ir)

    def run(self, kernel: str, grid: tuple[int, int, int], block: tuple[int, int, int], args: Sequence[object]) -> None:
        from .runner import HostBuffer

        values = [a.storage[a.offset :] if isinstance(a, HostBuffer) else a for a in args]
        self.module.launch(kernel, grid, block, values)  # type: ignore[arg-type]
