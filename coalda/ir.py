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


def byval_params(device_ir: str) -> dict[str, frozenset[int]]:
    """Positions of the parameters each defined function takes by value (a
    struct, a `__grid_constant__`, a lambda: a `byval` pointer in the IR)."""
    parsed = parse(device_ir)
    return {
        fn.name: frozenset(i for i, a in enumerate(fn.arguments)
                           if any(attr.startswith(b"byval") for attr in a.attributes))
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


# a shufflevector whose mask leaves a lane undefined (clang's store of a
# 3-element ext_vector_type as 4 lanes: `<i32 0, i32 1, i32 2, i32 poison>`)
_UNDEFINED_LANE = re.compile(r"=\s*shufflevector\b.*,\s*<\d+ x i32> <[^>]*\b(?:poison|undef)\b")
_CALLEE = re.compile(r"@([\w$.\"-]+)\(")


def undefined_lane_stores(device_ir: str) -> frozenset[str]:
    """The defined functions that store, or call a function that stores, a
    vector with a lane left undefined: bytes whose value the program leaves
    open (on a GPU, what a register held), which a rewrite may write
    differently without being wrong."""
    parsed = parse(device_ir)
    direct: set[str] = set()
    calls: dict[str, set[str]] = {}
    for fn in parsed.functions:
        if fn.is_declaration:
            continue
        undefined: set[str] = set()
        calls[fn.name] = set()
        for block in fn.blocks:
            for inst in block.instructions:
                text = str(inst)
                if inst.opcode == "shufflevector" and _UNDEFINED_LANE.search(text):
                    undefined.add(inst.name)
                elif inst.opcode == "store" and next(iter(inst.operands)).name in undefined - {""}:
                    direct.add(fn.name)
                elif inst.opcode == "call":
                    calls[fn.name].update(m.strip('"') for m in _CALLEE.findall(text))
    flagged = set(direct)
    while True:  # callers of flagged functions, to a fixed point
        more = {f for f, callees in calls.items() if f not in flagged and callees & flagged}
        if not more:
            return frozenset(flagged)
        flagged |= more
