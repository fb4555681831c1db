"""Reading device IR: the parameters and the kernels of a module.

The CPU emulator, the GPU runner, `coalda run` and `coalda bench` all need
the same facts about a module's functions; they read them here, with
llvmlite's parser (LLVM 22 reads clang-19's IR).
"""

from __future__ import annotations

import re

import llvmlite.binding as llvm

from .errors import CoaldaError

Signatures = dict[str, tuple[tuple[str, str], ...]]


def parse(text: str) -> llvm.ModuleRef:
    """The module, or one line saying why it cannot be read."""
    try:
        return llvm.parse_assembly(text)
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "parse error"
        raise CoaldaError(f"cannot read this IR: {first}") from None


def is_kernel(ir: str, name: str) -> bool:
    """NAME is a kernel: nvvm.annotations says so, or its calling convention."""
    return re.search(rf'!\{{ptr @{re.escape(name)}, !"kernel", i32 1\}}', ir) is not None or (
        re.search(rf"define [^\n]*ptx_kernel[^\n]*@{re.escape(name)}\(", ir) is not None
    )


def signatures(device_ir: str) -> Signatures:
    """(name, IR type) of each parameter of each defined function."""
    parsed = parse(device_ir)
    return {
        fn.name: tuple((a.name, str(a.type)) for a in fn.arguments)
        for fn in parsed.functions
        if not fn.is_declaration
    }


def noalias_params(device_ir: str) -> dict[str, frozenset[int]]:
    """Positions of the `__restrict__` (noalias) parameters of each defined function."""
    parsed = parse(device_ir)
    return {
        fn.name: frozenset(i for i, a in enumerate(fn.arguments) if b"noalias" in set(a.attributes))
        for fn in parsed.functions
        if not fn.is_declaration
    }
