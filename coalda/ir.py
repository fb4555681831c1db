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


def kernel_names(ir: str) -> frozenset[str]:
    """The kernels' names: those nvvm.annotations marks as kernels, or whose
    calling convention is ptx_kernel; found in one pass over the module (a
    search per function took a second per 100 kernels)."""
    annotated = re.findall(r'!\{ptr @([-\w.$]+), !"kernel", i32 1\}', ir)
    convention = re.findall(r"^define [^\n]*ptx_kernel[^\n]*?@([-\w.$]+)\(", ir, re.M)
    return frozenset(annotated + convention)


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


# Top-level entities of a module as llvm-19's printer writes them: a function
# definition (through its closing brace), a declaration, a global, a
# metadata node, an attribute group, a named type.
_ENTITY = re.compile(
    r'^(?:define [^\n]*?@("[^"]+"|[\w.$-]+)\([^\n]*\{\n.*?^\}$'
    r'|declare [^\n]*?@("[^"]+"|[\w.$-]+)\([^\n]*$'
    r'|@("[^"]+"|[\w.$-]+) = [^\n]*$'
    r"|!(\d+) = ([^\n]*)$"
    r"|attributes #(\d+) = ([^\n]*)$"
    r'|%("[^"]+"|[\w.$-]+) = type ([^\n]*)$)',
    re.M | re.S,
)
_LOCAL_REF = re.compile(r'%("[^"]+"|[\w.$-]+)')
_GLOBAL_REF = re.compile(r'@("[^"]+"|[\w.$-]+)')
_METADATA_REF = re.compile(r"!(\d+)\b")
_ATTRIBUTE_REF = re.compile(r"#(\d+)\b")
# debug locations and records: where the code came from, not what it does
_DEBUG_INFO = re.compile(r",? !dbg !\d+|^ *#dbg_\w+\(.*\n", re.M)


class ModuleCode:
    """A module's top-level entities by name, read once, for `closure`."""

    def __init__(self, text: str) -> None:
        self.defined: dict[str, str] = {}
        self.metadata: dict[str, str] = {}
        self.attributes: dict[str, str] = {}
        self.types: dict[str, str] = {}
        for m in _ENTITY.finditer(text):
            if m[8]:
                self.types[m[8]] = m[9]
            elif m[4]:
                self.metadata[m[4]] = m[5]
            elif m[6]:
                self.attributes[m[6]] = m[7]
            else:
                self.defined[m[1] or m[2] or m[3]] = m[0]

    def closure(self, name: str) -> str:
        """The code a launch of NAME runs, as text that is equal for two
        modules exactly when they give NAME the same code: its definition and
        those of every function and global it reaches, sorted by name, with
        metadata and attribute groups written out in place of their numbers
        (which the printer renumbers when other functions change), the named
        types it uses, and debug locations left out. '' when NAME is not
        defined."""
        if name not in self.defined:
            return ""
        reached, todo = set(), [name]
        while todo:
            symbol = todo.pop()
            if symbol in reached or symbol not in self.defined:
                continue
            reached.add(symbol)
            todo += _GLOBAL_REF.findall(self.defined[symbol])
        written: dict[str, str] = {}

        def node(number: str, depth: int = 0) -> str:
            if number not in written:
                written[number] = f"!{number}"  # a cycle refers to itself by number
                if depth < 64 and number in self.metadata:
                    written[number] = _METADATA_REF.sub(lambda m: node(m[1], depth + 1), self.metadata[number])
            return written[number]

        parts = []
        for symbol in sorted(reached):
            code = _DEBUG_INFO.sub("", self.defined[symbol])
            code = _ATTRIBUTE_REF.sub(lambda m: self.attributes.get(m[1], m[0]), code)
            parts.append(_METADATA_REF.sub(lambda m: node(m[1]), code))
        return "\n".join(parts + self._types_of(parts))

    def _types_of(self, parts: list[str]) -> list[str]:
        """The named types PARTS use (a struct's layout), with those they name."""
        named, todo = set(), [t for part in parts for t in _LOCAL_REF.findall(part) if t in self.types]
        while todo:
            if (t := todo.pop()) not in named:
                named.add(t)
                todo += [u for u in _LOCAL_REF.findall(self.types[t]) if u in self.types]
        return [f"%{t} = type {self.types[t]}" for t in sorted(named)]
