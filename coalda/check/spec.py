"""Kernel launch descriptions: a TOML file next to the .cu, or inferred from IR.

    # testcases/rgb.toml
    sizes = [32, 1000, 65536]          # default problem sizes n (emulator)
    gpu_sizes = [32, 1000, 67108864]   # on the GPU
    [kernels.copy_naive]
    block = "gcd(n, 256)"              # int or [x, y, z]; expressions of n
    grid = "n // block"
    same_as = "copy_coalesced"         # a hand-written kernel with equal output
    params = [{ name = "dst", out = "3*n" }, { name = "src", in = "3*n" }]

A kernel is named as the source names it (`[kernels."copy<float, 3>"]` for a
template's instance); one of several overloads of a name, by its mangled
symbol (`[kernels._Z5scaleP2F3i]`, as the report's "symbol" gives it).

A parameter is `in`, `out` or `inout` with a size in bytes, or `value` (a
scalar expression of n). `shared` (default 0) is the launch's dynamic shared
memory in bytes (`extern __shared__`), an expression of n and block; `align`
(default 1) the alignment every pointer argument needs (a parameter's own
`align` overrides it for that buffer). Expressions may use n, block and sms (the GPU's SM count, in grid), + - * / //
and %, and min, max, gcd, cdiv; a grid may also use block_y (a 2-D block's y).
"""

from __future__ import annotations

import ast
import functools
import math
import operator
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CoaldaError
from ..report import Report

DIMS = 3
Dim3 = tuple[int, int, int]


class SpecError(CoaldaError):
    pass


_FUNCS = {"min": min, "max": max, "gcd": math.gcd, "cdiv": lambda a, b: -(-a // b)}
_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Div: operator.floordiv, ast.Mod: operator.mod,
}


@functools.lru_cache(maxsize=1024)
def _parsed(expr: str) -> ast.Expression:
    """EXPR parsed once: a check evaluates each of its spec's expressions
    for every size, layout and launch (tens of thousands of times a run)."""
    return ast.parse(expr, mode="eval")


def evaluate(expr: str | int, names: dict[str, int]) -> int:
    """Integer arithmetic over `names`; nothing else is allowed."""
    if isinstance(expr, int):
        return expr

    def walk(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            return _BINOPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS
                and not node.keywords):
            args = [walk(a) for a in node.args]
            try:
                return _FUNCS[node.func.id](*args)
            except TypeError:
                raise SpecError(f"cannot evaluate {expr!r}: {node.func.id} does not take "
                                f"{len(args)} argument(s)") from None
        raise SpecError(f"cannot evaluate {expr!r}: {ast.unparse(node)} is not allowed")

    try:
        return walk(_parsed(str(expr)))
    except SyntaxError:
        raise SpecError(f"cannot evaluate {expr!r}: not an expression") from None
    except ZeroDivisionError:
        raise SpecError(f"cannot evaluate {expr!r}: division by zero") from None
    except RecursionError:
        raise SpecError(f"cannot evaluate an expression of {len(str(expr))} characters: nested too deeply") from None


@dataclass(frozen=True)
class Field:
    """A field of a struct taken by value: at byte `at`, a pointer to a
    buffer of its own (`buffer`, a Param of kind in/out/inout), or an int32
    (`int32`, an expression of n: a size the kernel reads)."""

    at: int
    name: str
    buffer: Param | None = None
    int32: str | int | None = None


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # in | out | inout | value
    expr: str | int
    # an `in` buffer of int32 values all equal to this expression of n (a
    # bound or length the kernel reads), instead of random bytes
    int32: str | int | None = None
    # this buffer's own alignment, where it differs from the kernel's `align`
    # (a packed struct's array beside float arrays)
    align: int | None = None
    # the kernel takes this buffer by value (a struct): set from the IR by
    # `coalda run`, not written in specs. A GPU passes a copy of its own,
    # so it never overlaps another buffer
    byval: bool = False
    # a struct taken by value (`struct = BYTES`): its pointer and int32
    # fields; its other bytes are zero
    fields: tuple[Field, ...] = ()

    @property
    def pointer_fields(self) -> tuple[Field, ...]:
        """A struct's fields that point at buffers of their own."""
        return tuple(f for f in self.fields if f.buffer is not None)

    @property
    def is_buffer(self) -> bool:
        return self.kind != "value"


@dataclass(frozen=True)
class KernelSpec:
    name: str
    params: tuple[Param, ...]
    grid: Any = "n // block"
    block: Any = 256
    same_as: str | None = None
    align: int = 1  # byte alignment every pointer argument needs
    shared: Any = 0  # bytes of dynamic shared memory per block, an expression of n and block
    # whether the original is defined when its buffers overlap (struct
    # assignment between partially overlapping objects is undefined in C++)
    overlap: bool = True

    def dims(self, n: int, block_override: int | tuple[int, int] | None = None, sms: int = 132) -> tuple[Dim3, Dim3]:
        """(grid, block) at size n; `coalda bench --blocks` overrides the
        block (an int: block.x; (x, y): a 2-D block). Grid expressions may use
        block (its x) and block_y."""
        if isinstance(block_override, tuple):
            block = (block_override[0], block_override[1], 1)
        else:
            block = (block_override, 1, 1) if block_override else _dim3(self.block, {"n": n})
        grid = _dim3(self.grid, {"n": n, "block": block[0], "block_y": block[1], "sms": sms})
        return grid, block

    def bench_blocks(self, n: int) -> list[int | tuple[int, int]]:
        """`coalda bench`'s block shapes without --blocks: the spec's own
        block where it is 2-D (a kernel written for 32x8 blocks may fault at
        1-D ones), else 128 to 1024 threads."""
        x, y, _ = _dim3(self.block, {"n": n})
        return [(x, y)] if y > 1 else [128, 256, 512, 1024]

    def shared_bytes(self, n: int) -> int:
        """Dynamic shared memory per block at size n."""
        return evaluate(self.shared, {"n": n, "block": _dim3(self.block, {"n": n})[0]})


@dataclass
class Spec:
    kernels: dict[str, KernelSpec]
    sizes: list[int] = field(default_factory=lambda: [32, 1000, 65536])
    gpu_sizes: list[int] = field(default_factory=lambda: [32, 1000, 1 << 26])
    source: Path | None = None  # the TOML file it was read from (None: inferred)


def _dim3(value: Any, names: dict[str, int]) -> Dim3:
    items = value if isinstance(value, list) else [value]
    if not 1 <= len(items) <= DIMS:
        raise SpecError(f"a launch dimension has 1 to 3 entries, not {value!r}")
    dims = [evaluate(v, names) for v in items] + [1] * (DIMS - len(items))
    return (dims[0], dims[1], dims[2])


def _field(raw: Any, size: int, where: str) -> Field:
    if not isinstance(raw, dict) or type(raw.get("at")) is not int or not isinstance(raw.get("name"), str):
        raise SpecError(f"{where}: each field is a table {{ at = BYTE, name = ..., in/out/inout/int32 = ... }}, "
                        f"not {raw!r}")
    at, name = raw["at"], raw["name"]
    kinds = [k for k in ("in", "out", "inout", "int32") if k in raw]
    unknown = set(raw) - {"at", "name", "in", "out", "inout", "int32", "align"}
    if len(kinds) != 1 or unknown:
        raise SpecError(f"{where}: field {name} needs exactly one of in/out/inout/int32"
                        + (f" (unknown keys {', '.join(sorted(unknown))})" if unknown else ""))
    width = 4 if kinds[0] == "int32" else 8
    if at < 0 or at % width or at + width > size:
        raise SpecError(f"{where}: field {name} at byte {at}: a {width}-byte field, aligned, inside the "
                        f"{size}-byte struct")
    if kinds[0] == "int32":
        return Field(at, name, int32=raw["int32"])
    return Field(at, name, buffer=_param({k: v for k, v in raw.items() if k != "at"}, where))


def _struct(raw: dict[str, Any], where: str) -> Param:
    """`{ name = "p", struct = BYTES, fields = [...] }`: a struct taken by
    value whose fields point at buffers of their own."""
    size, fields = raw["struct"], raw.get("fields")
    unknown = set(raw) - {"name", "struct", "fields"}
    if type(size) is not int or size < 1 or not isinstance(fields, list) or unknown:
        raise SpecError(f"{where}: parameter {raw['name']}: a struct is {{ name = ..., struct = BYTES, "
                        "fields = [...] }}")
    parsed = tuple(_field(f, size, f"{where}: parameter {raw['name']}") for f in fields)
    spans = sorted((f.at, f.at + (4 if f.int32 is not None else 8)) for f in parsed)
    if any(a[1] > b[0] for a, b in zip(spans, spans[1:])):
        raise SpecError(f"{where}: parameter {raw['name']}: two fields overlap")
    return Param(raw["name"], "in", size, fields=parsed)


def _param(raw: dict[str, Any], where: str) -> Param:
    if not isinstance(raw, dict):
        raise SpecError(f"{where}: each parameter is a table ({{ name = ..., in = ... }}), not {raw!r}")
    if isinstance(raw.get("name"), str) and "struct" in raw:
        return _struct(raw, where)
    kinds = [k for k in ("in", "out", "inout", "value") if k in raw]
    if not isinstance(raw.get("name"), str) or len(kinds) != 1:
        raise SpecError(f"{where}: a parameter needs a name and exactly one of in/out/inout/value")
    unknown = set(raw) - {"name", "in", "out", "inout", "value", "int32", "align"}
    if unknown:
        raise SpecError(f"{where}: parameter {raw['name']}: unknown keys {', '.join(sorted(unknown))}")
    if "int32" in raw and kinds[0] != "in":
        raise SpecError(f"{where}: parameter {raw['name']}: int32 fills an `in` buffer")
    align = raw.get("align")
    if align is not None and (kinds[0] == "value" or not isinstance(align, int) or align < 1 or align & (align - 1)):
        raise SpecError(f"{where}: parameter {raw['name']}: align is a power of two of a buffer, not {align!r}")
    return Param(raw["name"], kinds[0], raw[kinds[0]], raw.get("int32"), align)


def _sizes(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not value or not all(type(s) is int for s in value):
        raise SpecError(f"{where} is a list of one or more integers, not {value!r}")
    return value


def _kernel(name: str, raw: Any, where: str) -> KernelSpec:
    """One [kernels.NAME] table, its values of the types they must have."""
    if not isinstance(raw, dict):
        raise SpecError(f"{where}: a kernel is a table ([kernels.{_toml_key(name)}]), not {raw!r}")
    unknown = set(raw) - {"params", "grid", "block", "same_as", "align", "shared", "overlap"}
    if unknown:
        raise SpecError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    if not isinstance(raw.get("params", []), list):
        raise SpecError(f"{where}: params is a list of tables, not {raw['params']!r}")
    params = tuple(_param(p, where) for p in raw.get("params", []))
    align = raw.get("align", 1)
    if type(align) is not int or align < 1 or align & (align - 1):
        raise SpecError(f"{where}: align is a power of two, not {align!r}")
    if not isinstance(raw.get("overlap", True), bool):
        raise SpecError(f"{where}: overlap is true or false, not {raw['overlap']!r}")
    if raw.get("same_as") == name:
        raise SpecError(f"{where}: same_as names the kernel itself, a comparison that proves nothing")
    return KernelSpec(name, params, raw.get("grid", "n // block"), raw.get("block", 256), raw.get("same_as"),
                      align, raw.get("shared", 0), raw.get("overlap", True))


def load_spec(path: Path) -> Spec:
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SpecError(f"cannot read launch spec {path}: {exc}") from None
    unknown = set(data) - {"sizes", "gpu_sizes", "kernels"}
    if unknown:
        raise SpecError(f"launch spec {path}: unknown keys {', '.join(sorted(unknown))} "
                        "(known: sizes, gpu_sizes, kernels)")
    tables = data.get("kernels", {})
    if not isinstance(tables, dict) or not tables:
        raise SpecError(f"launch spec {path} names no kernel: give each one a [kernels.NAME] table")
    kernels = {name: _kernel(name, raw, f"{path}: kernel {name}") for name, raw in tables.items()}
    spec = Spec(kernels, source=path)
    if "sizes" in data:
        spec.sizes = _sizes(data["sizes"], f"launch spec {path}: sizes")
    if "gpu_sizes" in data:
        spec.gpu_sizes = _sizes(data["gpu_sizes"], f"launch spec {path}: gpu_sizes")
    return spec


def spec_path(source: Path) -> Path:
    return source.with_suffix(".toml")


def _toml_key(name: str) -> str:
    """A kernel name as a TOML key: bare when it can be, else quoted (`"copy<float, 3>"`)."""
    if name and all(c.isalnum() or c in "_-" for c in name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def how_to_write(source: Path | None, name: str, params: tuple[tuple[str, str], ...],
                 kernel: dict[str, Any] | None = None) -> str:
    """The end of every refusal to infer a launch: where the spec goes, and
    the TOML table to start it from (one entry per parameter, in order; a
    buffer's size where its accesses tell it, else BYTES to fill in)."""
    where = spec_path(source) if source is not None else Path("FILE.toml")
    accesses = kernel["accesses"] if kernel else []

    def entry(pname: str, ty: str) -> str:
        if ty != "ptr":
            return f'{{ name = "{pname}", value = "n" }}'
        mine = [a for a in accesses if a.get("base") == pname]
        kinds = {a["kind"] for a in mine}
        kind = "in" if kinds == {"load"} else "out" if kinds == {"store"} else "inout"
        strides = {a["stride"] for a in mine if a.get("lane") == "gid"}
        size = f"{strides.pop()}*n" if len(strides) == 1 and None not in strides else "BYTES"
        return f'{{ name = "{pname}", {kind} = "{size}" }}'

    entries = ", ".join(entry(p, ty) for p, ty in params)
    return (f"write a launch spec {where} (or pass --spec FILE.toml) with "
            f"[kernels.{_toml_key(name)}] block = 256, grid = \"cdiv(n, block)\", params = [{entries}]: "
            "each buffer `in`, `out` or `inout` with its size in bytes and each scalar a `value`, "
            "as expressions of n (the format: `coalda run --help` and the README; an example: testcases/rgb.toml)")


def kernel_symbols(report: Report) -> dict[str, str]:
    """Each name a launch spec may give a kernel, with the kernel's symbol:
    its source name (`copy<float, 3>`) where no other kernel has that name,
    and its mangled symbol (`_Z5scaleP2F3i`) always, which is how a spec
    names one of several overloads."""
    names: dict[str, list[str]] = {}
    for kernel in report["kernels"]:
        names.setdefault(kernel["name"], []).append(kernel["symbol"])
    symbols = {kernel["symbol"]: kernel["symbol"] for kernel in report["kernels"]}
    symbols.update({name: found[0] for name, found in names.items() if len(found) == 1})
    return symbols


def unknown_kernel(name: str, report: Report) -> SpecError:
    """The refusal of a spec's kernel NAME that kernel_symbols lacks: an
    overloaded name (saying how to name each overload), or none at all."""
    overloads = [kernel["symbol"] for kernel in report["kernels"] if kernel["name"] == name]
    if len(overloads) > 1:
        tables = " or ".join(f"[kernels.{_toml_key(symbol)}]" for symbol in overloads)
        return SpecError(f"the launch spec names kernel {name}, which is overloaded ({len(overloads)} kernels have "
                         f"that name); name one overload by its symbol instead: {tables}")
    return SpecError(f"the launch spec names kernel {name}, which the source does not define")


def infer_spec(report: Report, signatures: dict[str, tuple[tuple[str, str], ...]]) -> Spec:
    """A spec from the IR alone, where that is unambiguous: every pointer is
    indexed at one constant stride of one lane, written pointers are outputs,
    and an integer parameter, if any, is n. Refuses otherwise, saying how to
    write the spec."""
    kernels = {}
    source = Path(report["source"]) if report.get("source") else None
    symbols = kernel_symbols(report)
    for kernel in report["kernels"]:
        # an overloaded name names no kernel: each overload by its symbol
        name = kernel["name"] if kernel["name"] in symbols else kernel["symbol"]
        params = signatures.get(kernel["symbol"])
        if params is None:
            continue
        how = how_to_write(source, name, params, kernel)
        stores = {a["base"] for a in kernel["accesses"] if a["kind"] == "store" and "base" in a}
        out: list[Param] = []
        scalars = [p for p, ty in params if ty != "ptr"]
        if len(scalars) > 1:
            raise SpecError(f"kernel {name} has {len(scalars)} scalar parameters ({', '.join(scalars)}), "
                            f"so COALDA cannot tell which one is the size n: {how}")
        lanes = set()
        for pname, ty in params:
            if ty != "ptr":
                out.append(Param(pname, "value", "n"))
                continue
            strides = {(a["stride"], a["lane"]) for a in kernel["accesses"] if a.get("base") == pname}
            if len(strides) != 1 or None in next(iter(strides)):
                raise SpecError(f"kernel {name}: cannot tell the size of {pname} from its accesses: {how}")
            stride, lane = next(iter(strides))
            lanes.add(lane)
            out.append(Param(pname, "out" if pname in stores else "in", f"{stride}*n"))
        if lanes != {"gid"}:
            raise SpecError(f"kernel {name}: the index is not the global thread index: {how}")
        # the buffers may be offset only by what every access's alignment allows
        align = max((a.get("align", 1) for a in kernel["accesses"]), default=1)
        kernels[name] = KernelSpec(name, tuple(out), grid="n // block", block="gcd(n, 256)", align=align)
    if not kernels:
        raise SpecError("no kernel whose launch can be inferred: "
                        + how_to_write(source, "KERNEL", (("dst", "ptr"), ("src", "ptr"), ("n", "i32"))))
    return Spec(kernels)


def check_spec(spec: Spec, report: Report, signatures: dict[str, tuple[tuple[str, str], ...]]) -> None:
    """Each kernel of SPEC gets one parameter entry per argument of the
    kernel, pointers as buffers and scalars as values; the message names the
    kernel as the spec does: as the source does (`copy<float, 3>`), or by the
    symbol the spec names an overload by."""
    symbols = kernel_symbols(report)
    where = f"launch spec {spec.source}" if spec.source else "the inferred launch spec"
    for name, kspec in spec.kernels.items():
        if name not in symbols and any(k["name"] == name for k in report["kernels"]):
            raise unknown_kernel(name, report)  # overloaded: which overload's arguments to check against?
        params = signatures.get(symbols.get(name, ""))
        if params is None:
            continue
        if len(params) != len(kspec.params):
            def listed(names: list[str]) -> str:
                return f" ({', '.join(names)})" if names else ""

            raise SpecError(
                f"{where}: kernel {name} takes {len(params)} argument(s){listed([p for p, _ in params])}, "
                f"the spec lists {len(kspec.params)}{listed([p.name for p in kspec.params])}; "
                "give one params entry per argument, in order"
            )
        for index, ((pname, ty), param) in enumerate(zip(params, kspec.params), start=1):
            if (ty == "ptr") != param.is_buffer:
                want = "a buffer (in, out or inout)" if ty == "ptr" else "a value"
                raise SpecError(f"{where}: kernel {name}: argument {index} ({pname}) is a "
                                f"{'pointer' if ty == 'ptr' else 'scalar'}, so its params entry "
                                f"({param.name}) must be {want}")
