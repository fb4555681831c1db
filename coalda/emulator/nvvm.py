"""NVVM math intrinsics and libdevice's inline PTX, as host IR for the emulator.

Kernels that compute call CUDA's math library: clang links libdevice, whose
functions (sqrtf, expf, sinf, powf, rintf, __fdividef, __ldg ...) end in
`llvm.nvvm.*` intrinsics and in about twenty inline PTX snippets (carries of
a 64- or 128-bit multiply, `rcp.approx`, directed-rounding subtractions).
The emulator used to refuse them all, so no kernel with a square root could
be checked before and after a rewrite. This module gives each one a host
definition:

- every `declare ... @llvm.nvvm.NAME(...)` whose NAME one of FAMILIES matches
  becomes `define internal ... @__coalda.nvvm.NAME(...)`, and its calls call
  that; names no family matches are left for the emulator to refuse;
- every inline asm whose template is one of libdevice's (ASM, compared
  without white space) becomes a call of `@__coalda.asm.N`.

What the definitions compute:

- round-to-nearest arithmetic, conversions, rounding to integers, saturation,
  min/max, `mulhi`, `mul24`, `sad`, `prmt`, the 64/128-bit carries and the
  bit casts are exact, as on the GPU;
- the directed roundings (`.rz`, `.rm`, `.rp`) of add, sub, mul, div, rcp,
  sqrt, of f32 fma, of double-to-float and of integer-to-float conversions
  are exact too: the round-to-nearest result is moved one step
  (`nextafter`) when the exact residual (two-sum, fma, or the wider type)
  says it lies on the wrong side. libdevice's algorithms rely on them
  (roundf adds 0.5 rounding toward zero). The f64 fma's directed roundings
  are computed to nearest;
- `.ftz` flushes f32 subnormal operands and results to a zero of their sign;
- the approximations (`ex2`, `lg2`, `sin`, `cos`, `rsqrt`, `sqrt.approx`,
  `div.approx`, `rcp.approx`) are computed by the host's libm to its
  accuracy, not the GPU's: results can differ from the GPU's in the last
  bits. The emulator compares two versions of one kernel, which call the
  same functions on the same values, so its verdicts do not depend on it;
- a NaN result is the canonical NaN of its type (coalda/emulator/emulate.py says why).

A shift by a run-time amount shifts as PTX's `shl`/`shr` do: an amount of
the width or more gives 0 (the sign, for `ashr`), where LLVM's result is
poison and x86 shifts by the amount modulo the width (libdevice's pow tests
an exponent's parity with such a shift).

The generic `fptosi`/`fptoui` of a scalar convert as the GPU's `cvt.rzi`
(NVPTX's form of them), which saturates and has a NaN rule of its own
(_to_int), where x86 returns 0x80000000; clang -O3 folds `__float2int_rz`
and its kin into them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["lower"]

_NAN = {"float": "0x7FFFFFFFE0000000", "double": "0x7FF8000000000000"}
_INF = "0x7FF0000000000000"
_NEG_INF = "0xFFF0000000000000"
_FLT_MIN = "0x3810000000000000"  # 2^-126, the smallest normal float
_SUFFIX = {"float": "f32", "double": "f64"}
_DECLARE = re.compile(r"^declare ([^@\n]*?)\s*@llvm\.nvvm\.([\w.]+)\((.*)\)(?:\s+#\d+)?\s*$", re.M)
_RETURN_ATTRS = re.compile(r"\b(?:noundef|signext|zeroext|inreg|noalias|nonnull|range\([^)]*\)|nofpclass\([^)]*\))\s*")
_PARAM_TYPE = re.compile(r"\s*(ptr(?: addrspace\(\d+\))?|<\d+ x \w+>|\w+)")
_FP_TO_INT = re.compile(
    r"^(\s+%[-\w.$\"]+ = )fpto([su])i (float|double) ([^\s,]+) to (i\d+)", re.M)
_SHIFT = re.compile(
    r"^(\s+%[-\w.$\"]+ = )(shl|lshr|ashr)(?: nuw| nsw| exact)* (i\d+) ([^\s,]+), (%[-\w.$\"]+)", re.M)
_ASM_CALL = re.compile(r'\basm (?:sideeffect |alignstack |inteldialect )*"((?:[^"\\]|\\.)*)", "([^"]*)"')


@dataclass
class _Body:
    """The instructions of one definition, with fresh value names."""

    lines: list[str] = field(default_factory=list)
    count: int = 0

    def __call__(self, rhs: str) -> str:
        self.count += 1
        self.lines.append(f"  %t{self.count} = {rhs}")
        return f"%t{self.count}"

    def call(self, ty: str, fn: str, *args: tuple[str, str]) -> str:
        return self(f"call {ty} @{fn}(" + ", ".join(f"{t} {v}" for t, v in args) + ")")

    def ret(self, ty: str, value: str) -> str:
        return "\n".join([*self.lines, f"  ret {ty} {value}"])


@dataclass(frozen=True)
class _Signature:
    ret: str
    params: tuple[str, ...]

    def arg(self, i: int) -> str:
        return "%" + "abcdef"[i]


# -- floating point helpers ---------------------------------------------------


def _fty(suffix: str) -> str:
    """The type of an intrinsic's `.f`/`.d` suffix (`.f32`/`.f64` in newer LLVMs)."""
    return "double" if suffix in ("d", "f64") else "float"


def _canonical(b: _Body, ty: str, x: str) -> str:
    nan = b(f"fcmp uno {ty} {x}, 0.0")
    return b(f"select i1 {nan}, {ty} {_NAN[ty]}, {ty} {x}")


def _flush(b: _Body, ty: str, x: str, ftz: bool) -> str:
    """An f32 subnormal as a zero of its sign (`.ftz`)."""
    if not ftz or ty != "float":
        return x
    magnitude = b.call(ty, "llvm.fabs.f32", (ty, x))
    tiny = b(f"fcmp olt float {magnitude}, {_FLT_MIN}")
    zero = b.call(ty, "llvm.copysign.f32", (ty, "0.0"), (ty, x))
    return b(f"select i1 {tiny}, float {zero}, float {x}")


def _finite(b: _Body, ty: str, *xs: str) -> str:
    out = "true"
    for x in xs:
        magnitude = b.call(ty, f"llvm.fabs.{_SUFFIX[ty]}", (ty, x))
        finite = b(f"fcmp one {ty} {magnitude}, {_INF}")
        out = finite if out == "true" else b(f"and i1 {out}, {finite}")
    return out


def _directed(b: _Body, ty: str, mode: str, r: str, residual: str, finite: str) -> str:
    """The round-to-nearest result R of an operation moved one step where the
    exact result lies on the wrong side for MODE. RESIDUAL has the sign of
    exact - R (0 when exact). FINITE (i1) says the exact result is finite: an
    infinite R is then an overflow, an exact value below R in magnitude
    (a division by zero is exactly infinite: not FINITE)."""
    if mode == "rn":
        return r
    magnitude = b.call(ty, f"llvm.fabs.{_SUFFIX[ty]}", (ty, r))
    overflow = b(f"fcmp oeq {ty} {magnitude}, {_INF}")
    overflowed = b(f"and i1 {overflow}, {finite}")
    negated = b(f"fneg {ty} {r}")
    s = b(f"select i1 {overflowed}, {ty} {negated}, {ty} {residual}")
    below, above = b(f"fcmp olt {ty} {s}, 0.0"), b(f"fcmp ogt {ty} {s}, 0.0")
    if mode == "rm":
        step, target = below, _NEG_INF
    elif mode == "rp":
        step, target = above, _INF
    else:  # rz: toward zero when the exact value is nearer zero than R
        positive, negative = b(f"fcmp ogt {ty} {r}, 0.0"), b(f"fcmp olt {ty} {r}, 0.0")
        down, up = b(f"and i1 {below}, {positive}"), b(f"and i1 {above}, {negative}")
        step, target = b(f"or i1 {down}, {up}"), "0.0"
    next_ = b.call(ty, "nextafterf" if ty == "float" else "nextafter", (ty, r), (ty, target))
    return b(f"select i1 {step}, {ty} {next_}, {ty} {r}")


def _finish(b: _Body, ty: str, r: str, ftz: bool) -> str:
    return b.ret(ty, _canonical(b, ty, _flush(b, ty, r, ftz)))


# -- the families ---------------------------------------------------------------


def _arith(m: re.Match[str], sig: _Signature) -> str:
    """add/mul/div/rcp/sqrt/fma .rn/.rz/.rm/.rp/.approx [.ftz] .f/.d, rsqrt."""
    op, mode, ftz, ty = m["op"], m["mode"] or "rn", bool(m["ftz"]), _fty(m["ty"])
    b = _Body()
    args = [_flush(b, ty, sig.arg(i), ftz) for i in range(len(sig.params))]
    sfx = _SUFFIX[ty]
    if op == "div" and mode == "approx":
        # a divisor above 2^126 gives x times a zero reciprocal (0, NaN for an
        # infinite x), as the CUDA guide says of __fdividef; measured on an
        # H200, a subnormal divisor divides (docs/runs/nvvm-fidelity-h200.txt)
        magnitude = b.call(ty, f"llvm.fabs.{sfx}", (ty, args[1]))
        huge = b(f"fcmp ogt {ty} {magnitude}, 0x47D0000000000000")  # 2^126
        reciprocal = b.call(ty, f"llvm.copysign.{sfx}", (ty, "0.0"), (ty, args[1]))
        zero = b(f"fmul {ty} {args[0]}, {reciprocal}")
        quotient = b(f"fdiv {ty} {args[0]}, {args[1]}")
        return _finish(b, ty, b(f"select i1 {huge}, {ty} {zero}, {ty} {quotient}"), ftz)
    if mode == "approx":
        mode = "rn"
    if op == "fma":
        if ty == "float" and mode != "rn":
            return _finish(b, ty, _fma32_directed(b, mode, *args), ftz)
        return _finish(b, ty, b.call(ty, f"llvm.fma.{sfx}", *((ty, a) for a in args)), ftz)
    if op == "rcp":
        op, args = "div", ["1.0", *args]
    if op in ("add", "mul", "div"):
        r = b(f"f{op} {ty} {args[0]}, {args[1]}")
    else:
        r = b.call(ty, f"llvm.sqrt.{sfx}", (ty, args[0]))
        if op == "rsqrt":
            return _finish(b, ty, b(f"fdiv {ty} 1.0, {r}"), ftz)
    if mode == "rn":
        return _finish(b, ty, r, ftz)
    if ty == "float":
        residual = _sign(b, "double", _residual32(b, op, args, r), "float")
    else:
        residual = _residual64(b, op, args, r)
    finite = _finite(b, ty, *(a for a in args if a != "1.0"))
    if op == "div":
        finite = b(f"and i1 {finite}, {b(f'fcmp une {ty} {args[1]}, 0.0')}")
    return _finish(b, ty, _directed(b, ty, mode, r, residual, finite), ftz)


def _residual32(b: _Body, op: str, args: list[str], r: str) -> str:
    """A double with the sign of exact - R for a float operation: in double
    the operations below are exact (products of floats, differences of
    close values), so nothing underflows."""
    wide = [a if a == "1.0" else b(f"fpext float {a} to double") for a in args]
    back = b(f"fpext float {r} to double")
    neg = b(f"fneg double {back}")
    if op == "add":
        total = b(f"fadd double {wide[0]}, {wide[1]}")
        error = _two_sum(b, "double", wide[0], wide[1], total)
        return b(f"fadd double {b(f'fsub double {total}, {back}')}, {error}")
    if op == "mul":
        return b(f"fsub double {b(f'fmul double {wide[0]}, {wide[1]}')}, {back}")
    if op == "sqrt":
        return b.call("double", "llvm.fma.f64", ("double", neg), ("double", back), ("double", wide[0]))
    remainder = b.call("double", "llvm.fma.f64", ("double", neg), ("double", wide[1]), ("double", wide[0]))
    return _by_sign_of(b, "double", remainder, wide[1])


def _by_sign_of(b: _Body, ty: str, x: str, sign: str) -> str:
    """X negated when SIGN is negative: (a - r*d) has the sign of (a/d - r) * d."""
    negative = b(f"fcmp olt {ty} {sign}, 0.0")
    return b(f"select i1 {negative}, {ty} {b(f'fneg {ty} {x}')}, {ty} {x}")


# 2^-960, 2^-900, 2^600, 2^300
_TINY64, _TINY_OPERAND = "0x03F0000000000000", "0x07B0000000000000"
_UP600, _UP300 = "0x6570000000000000", "0x52B0000000000000"


def _residual64(b: _Body, op: str, args: list[str], r: str) -> str:
    """A double with the sign of exact - R for a double operation: two-sum is
    exact; for mul, div and sqrt near the bottom of the range the residual
    is taken of operands scaled up by 2^600 (exactly), so that it does not
    underflow. A residual below 2^-1074 even so (subnormal operands of a
    product whose result is not tiny) rounds to zero: that step is then to
    nearest."""
    if op == "add":
        return _two_sum(b, "double", args[0], args[1], r)
    # scaled when R is tiny or the operand that sets the residual's last place
    # is (the first of div and sqrt, the smaller of mul); exact, and no
    # scaled value overflows (R < 2^174 wherever that operand is below 2^-900)
    if op == "mul":
        x_abs = b.call("double", "llvm.fabs.f64", ("double", args[0]))
        y_abs = b.call("double", "llvm.fabs.f64", ("double", args[1]))
        x_smaller = b(f"fcmp olt double {x_abs}, {y_abs}")
        small = b(f"select i1 {x_smaller}, double {args[0]}, double {args[1]}")
        large = b(f"select i1 {x_smaller}, double {args[1]}, double {args[0]}")
        lead = small
    else:
        lead = args[0]
    lead_abs = b.call("double", "llvm.fabs.f64", ("double", lead))
    lead_tiny = b(f"fcmp olt double {lead_abs}, {_TINY_OPERAND}")
    r_abs = b.call("double", "llvm.fabs.f64", ("double", r))
    tiny = b(f"or i1 {lead_tiny}, {b(f'fcmp olt double {r_abs}, {_TINY64}')}")

    def up(x: str, by: str) -> str:
        return b(f"select i1 {tiny}, double {b(f'fmul double {x}, {by}')}, double {x}")

    if op == "sqrt":
        root = up(r, _UP300)
        neg = b(f"fneg double {root}")
        return b.call("double", "llvm.fma.f64", ("double", neg), ("double", root), ("double", up(args[0], _UP600)))
    if op == "mul":
        neg = b(f"fneg double {up(r, _UP600)}")
        residual = b.call("double", "llvm.fma.f64", ("double", up(small, _UP600)), ("double", large), ("double", neg))
        # both operands nonzero and R zero: the exact product is not 0, sign of x*y
        zero = b(f"fcmp oeq double {r}, 0.0")
        signs = b(f"fmul double {b.call('double', 'llvm.copysign.f64', ('double', '1.0'), ('double', args[0]))}, "
                  f"{b.call('double', 'llvm.copysign.f64', ('double', '1.0'), ('double', args[1]))}")
        lost = b(f"and i1 {zero}, {b(f'fcmp one double {small}, 0.0')}")
        return b(f"select i1 {lost}, double {signs}, double {residual}")
    neg = b(f"fneg double {up(r, _UP600)}")
    remainder = b.call("double", "llvm.fma.f64", ("double", neg), ("double", args[1]), ("double", up(args[0], _UP600)))
    return _by_sign_of(b, "double", remainder, args[1])


def _two_sum(b: _Body, ty: str, x: str, y: str, s: str) -> str:
    """x + y - s exactly (Knuth's two-sum; s = x + y rounded to nearest)."""
    yy = b(f"fsub {ty} {s}, {x}")
    xx = b(f"fsub {ty} {s}, {yy}")
    dy = b(f"fsub {ty} {y}, {yy}")
    dx = b(f"fsub {ty} {x}, {xx}")
    return b(f"fadd {ty} {dx}, {dy}")


def _sign(b: _Body, ty: str, x: str, out: str) -> str:
    """-1, 0 or 1 as an OUT value: the sign of X (of type TY)."""
    below, above = b(f"fcmp olt {ty} {x}, 0.0"), b(f"fcmp ogt {ty} {x}, 0.0")
    low = b(f"select i1 {below}, {out} -1.0, {out} 0.0")
    return b(f"select i1 {above}, {out} 1.0, {out} {low}")


def _fma32_directed(b: _Body, mode: str, x: str, y: str, z: str) -> str:
    """x*y+z for floats, rounded in MODE: the product is exact in double, the
    sum's error exact by two-sum, so the float nearest the double sum is one
    of the two around the exact value and the residual's sign is exact."""
    wide = [b(f"fpext float {v} to double") for v in (x, y, z)]
    product = b(f"fmul double {wide[0]}, {wide[1]}")
    total = b(f"fadd double {product}, {wide[2]}")
    error = _two_sum(b, "double", product, wide[2], total)
    r = b(f"fptrunc double {total} to float")
    back = b(f"fpext float {r} to double")
    gap = b(f"fsub double {total}, {back}")
    residual_d = b(f"fadd double {gap}, {error}")
    residual = _sign(b, "double", residual_d, "float")
    return _directed(b, "float", mode, r, residual, _finite(b, "float", x, y, z))


_LLVM_UNARY = {"ex2": "exp2", "lg2": "log2", "sin": "sin", "cos": "cos", "fabs": "fabs", "floor": "floor",
               "ceil": "ceil", "trunc": "trunc", "round": "roundeven"}


def _unary(m: re.Match[str], sig: _Signature) -> str:
    """ex2/lg2/sin/cos .approx, fabs, floor/ceil/trunc/round [.ftz] .f/.d."""
    ty, ftz = _fty(m["ty"]), bool(m["ftz"])
    b = _Body()
    x = _flush(b, ty, "%a", ftz)
    return _finish(b, ty, b.call(ty, f"llvm.{_LLVM_UNARY[m['op']]}.{_SUFFIX[ty]}", (ty, x)), ftz)


def _minmax(m: re.Match[str], sig: _Signature) -> str:
    """fmin/fmax [.ftz] .f/.d: the other operand when one is NaN."""
    ty, ftz = _fty(m["ty"]), bool(m["ftz"])
    b = _Body()
    x, y = _flush(b, ty, "%a", ftz), _flush(b, ty, "%b", ftz)
    fn = f"llvm.{'minnum' if m['op'] == 'fmin' else 'maxnum'}.{_SUFFIX[ty]}"
    return _finish(b, ty, b.call(ty, fn, (ty, x), (ty, y)), ftz)


def _saturate(m: re.Match[str], sig: _Signature) -> str:
    """Clamp to [0, 1]; NaN -> 0."""
    ty, ftz = _fty(m["ty"]), bool(m["ftz"])
    b = _Body()
    x = _flush(b, ty, "%a", ftz)
    low = b.call(ty, f"llvm.maxnum.{_SUFFIX[ty]}", (ty, x), (ty, "0.0"))
    return _finish(b, ty, b.call(ty, f"llvm.minnum.{_SUFFIX[ty]}", (ty, low), (ty, "1.0")), ftz)


_TO_INTEGRAL = {"rn": "roundeven", "rz": "trunc", "rm": "floor", "rp": "ceil"}
_INT_BITS = {"i": 32, "ui": 32, "ll": 64, "ull": 64}


def _to_int(b: _Body, ty: str, x: str, signed: bool, bits: int) -> str:
    """X (integral or not) truncated to a BITS-bit integer as the GPU's cvt
    does it: saturating; a NaN is 0 from f32 to 32 bits, and the pattern of
    the sign bit alone (INT_MIN, 2^(bits-1) unsigned) in every other
    conversion (measured on an H200: docs/runs/nvvm-fidelity-h200.txt)."""
    kind = "s" if signed else "u"
    value = b.call(f"i{bits}", f"llvm.fpto{kind}i.sat.i{bits}.{_SUFFIX[ty]}", (ty, x))
    nan_value = 0 if ty == "float" and bits == 32 else -(1 << (bits - 1))
    if nan_value == 0:
        return value
    nan = b(f"fcmp uno {ty} {x}, 0.0")
    return b(f"select i1 {nan}, i{bits} {nan_value}, i{bits} {value}")


def _float_to_int(m: re.Match[str], sig: _Signature) -> str:
    """f2i/f2ui/f2ll/f2ull/d2i/... .rn/.rz/.rm/.rp [.ftz]: rounded, then
    converted as cvt does (_to_int)."""
    ty, bits = _fty(m["src"]), _INT_BITS[m["dst"]]
    b = _Body()
    x = _flush(b, ty, "%a", bool(m["ftz"]))
    whole = b.call(ty, f"llvm.{_TO_INTEGRAL[m['mode']]}.{_SUFFIX[ty]}", (ty, x))
    return b.ret(f"i{bits}", _to_int(b, ty, whole, not m["dst"].startswith("u"), bits))


def _clamped_shift(op: str, ty: str) -> str:
    """`@__coalda.<op>.<ty>`: the shift with PTX's clamp of the amount."""
    width = int(ty[1:])
    safe = str(width - 1) if op == "ashr" else "0"
    lines = [f"  %big = icmp uge {ty} %b, {width}", f"  %amount = select i1 %big, {ty} {safe}, {ty} %b",
             f"  %r = {op} {ty} %a, %amount"]
    if op == "ashr":
        lines.append(f"  ret {ty} %r")
    else:
        lines += [f"  %out = select i1 %big, {ty} 0, {ty} %r", f"  ret {ty} %out"]
    body = "\n".join(lines)
    return f"define internal {ty} @__coalda.{op}.{ty}({ty} %a, {ty} %b) alwaysinline {{\n{body}\n}}"


def _generic_to_int(kind: str, ty: str, bits: int) -> str:
    """`@__coalda.fpto<kind>i.i<bits>.<f32|f64>`: LLVM's fptosi/fptoui as the
    GPU computes them (NVPTX: cvt.rzi)."""
    b = _Body()
    body = b.ret(f"i{bits}", _to_int(b, ty, "%a", kind == "s", bits))
    return f"define internal i{bits} @__coalda.fpto{kind}i.i{bits}.{_SUFFIX[ty]}({ty} %a) alwaysinline {{\n{body}\n}}"


def _int_to_float(m: re.Match[str], sig: _Signature) -> str:
    """i2f/ui2f/ll2f/ull2f/i2d/... .rn/.rz/.rm/.rp: the nearest value moved a
    step where the exact integer lies on the wrong side. R is integral, so
    it converts back exactly, except a 64-bit source's R of 2^63 (2^64
    unsigned), which is above every source value."""
    ty, bits, mode = _fty(m["dst"]), _INT_BITS[m["src"]], m["mode"]
    signed = not m["src"].startswith("u")
    s, ext = ("s", "sext") if signed else ("u", "zext")
    b = _Body()
    r = b(f"{s}itofp i{bits} %a to {ty}")
    if mode == "rn" or (ty == "double" and bits == 32):
        return _finish(b, ty, r, False)
    exact = b(f"{ext} i{bits} %a to i64") if bits == 32 else "%a"
    back = b.call("i64", f"llvm.fpto{s}i.sat.i64.{_SUFFIX[ty]}", (ty, r))
    limit = "0x43E0000000000000" if signed else "0x43F0000000000000"  # 2^63, 2^64
    past = b(f"fcmp oge {ty} {r}, {limit}")
    less = b(f"icmp {s}lt i64 {exact}, {back}")
    less = b(f"select i1 {past}, i1 true, i1 {less}")
    more = b(f"icmp {s}gt i64 {exact}, {back}")
    more = b(f"select i1 {past}, i1 false, i1 {more}")
    low = b(f"select i1 {less}, {ty} -1.0, {ty} 0.0")
    residual = b(f"select i1 {more}, {ty} 1.0, {ty} {low}")
    return _finish(b, ty, _directed(b, ty, mode, r, residual, "false"), False)  # never overflows


def _d2f(m: re.Match[str], sig: _Signature) -> str:
    """double -> float .rn/.rz/.rm/.rp [.ftz]: the residual is exact in double."""
    mode, ftz = m["mode"], bool(m["ftz"])
    b = _Body()
    r = b("fptrunc double %a to float")
    back = b(f"fpext float {r} to double")
    gap = b(f"fsub double %a, {back}")
    residual = _sign(b, "double", gap, "float")  # a finite double past the float range: _directed
    finite = _finite(b, "double", "%a")
    return _finish(b, "float", _directed(b, "float", mode, r, residual, finite), ftz)


def _f2h(m: re.Match[str], sig: _Signature) -> str:
    b = _Body()
    x = _flush(b, "float", "%a", bool(m["ftz"]))
    half = b(f"fptrunc float {x} to half")
    return b.ret("i16", b(f"bitcast half {half} to i16"))


def _d2i_part(m: re.Match[str], sig: _Signature) -> str:
    b = _Body()
    bits = b("bitcast double %a to i64")
    part = b(f"lshr i64 {bits}, 32") if m["part"] == "hi" else bits
    return b.ret("i32", b(f"trunc i64 {part} to i32"))


def _lohi(m: re.Match[str], sig: _Signature) -> str:
    b = _Body()
    lo, hi = b("zext i32 %a to i64"), b("zext i32 %b to i64")
    shifted = b(f"shl i64 {hi}, 32")
    return b.ret("double", b(f"bitcast i64 {b(f'or i64 {shifted}, {lo}')} to double"))


def _mulhi(m: re.Match[str], sig: _Signature) -> str:
    bits = _INT_BITS[m["ty"]]
    ext = "zext" if m["ty"].startswith("u") else "sext"
    b = _Body()
    x, y = b(f"{ext} i{bits} %a to i{2 * bits}"), b(f"{ext} i{bits} %b to i{2 * bits}")
    high = b(f"lshr i{2 * bits} {b(f'mul i{2 * bits} {x}, {y}')}, {bits}")
    return b.ret(f"i{bits}", b(f"trunc i{2 * bits} {high} to i{bits}"))


def _mul24(m: re.Match[str], sig: _Signature) -> str:
    """The low 32 bits of the product of the operands' low 24 bits."""
    ext = "zext" if m["ty"] == "ui" else "sext"
    b = _Body()
    x, y = (b(f"{ext} i24 {b(f'trunc i32 {v} to i24')} to i64") for v in ("%a", "%b"))
    return b.ret("i32", b(f"trunc i64 {b(f'mul i64 {x}, {y}')} to i32"))


def _sad(m: re.Match[str], sig: _Signature) -> str:
    """|a - b| + c."""
    b = _Body()
    greater = b(f"icmp {'ugt' if m['ty'] == 'ui' else 'sgt'} i32 %a, %b")
    high, low = b(f"select i1 {greater}, i32 %a, i32 %b"), b(f"select i1 {greater}, i32 %b, i32 %a")
    return b.ret("i32", b(f"add i32 {b(f'sub i32 {high}, {low}')}, %c"))


def _prmt(m: re.Match[str], sig: _Signature) -> str:
    """Byte i of the result is byte sel[4i..4i+2] of {b, a}, or its sign
    replicated when sel[4i+3] is set."""
    b = _Body()
    hi, lo = b("zext i32 %b to i64"), b("zext i32 %a to i64")
    pool = b(f"or i64 {b(f'shl i64 {hi}, 32')}, {lo}")
    out = "0"
    for i in range(4):
        nibble = b(f"and i32 {b(f'lshr i32 %c, {4 * i}')}, 15")
        index = b(f"zext i32 {b(f'and i32 {nibble}, 7')} to i64")
        shift = b(f"shl i64 {index}, 3")
        byte = b(f"and i64 {b(f'lshr i64 {pool}, {shift}')}, 255")
        sign_mode = b(f"icmp uge i32 {nibble}, 8")
        negative = b(f"icmp uge i64 {byte}, 128")
        replicated = b(f"select i1 {negative}, i64 255, i64 0")
        chosen = b(f"select i1 {sign_mode}, i64 {replicated}, i64 {byte}")
        out = b(f"or i64 {out}, {b(f'shl i64 {chosen}, {8 * i}')}")
    return b.ret("i32", b(f"trunc i64 {out} to i32"))


def _load(m: re.Match[str], sig: _Signature) -> str:
    """`__ldg`/`ldu`: a load (the emulator has no read-only cache to model)."""
    b = _Body()
    return b.ret(sig.ret, b(f"load {sig.ret}, {sig.params[0]} %a, align 1"))


_MODE = r"(?P<mode>rn|rz|rm|rp)"
FAMILIES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], _Signature], str]], ...] = tuple(
    (re.compile(pattern), build) for pattern, build in (
        (r"(?P<op>add|mul|div|fma)\.(?P<mode>rn|rz|rm|rp|approx)(?P<ftz>\.ftz)?\.(?P<ty>f32|f64|[fd])", _arith),
        (r"(?P<op>rcp|sqrt)\.(?P<mode>rn|rz|rm|rp|approx)(?P<ftz>\.ftz)?\.(?P<ty>f32|f64|[fd])", _arith),
        (r"(?P<op>sqrt)(?P<mode>)(?P<ftz>)\.(?P<ty>f)", _arith),
        (r"(?P<op>rsqrt)\.(?P<mode>approx)(?P<ftz>\.ftz)?\.(?P<ty>f32|f64|[fd])", _arith),
        (r"(?P<op>ex2|lg2|sin|cos)\.approx(?P<ftz>\.ftz)?\.(?P<ty>f32|f64|[fd])", _unary),
        (r"(?P<op>fabs|floor|ceil|trunc|round)(?P<ftz>\.ftz)?\.(?P<ty>f32|f64|[fd])", _unary),
        (r"(?P<op>fmin|fmax)(?P<ftz>\.ftz)?\.(?P<ty>f32|f64|[fd])", _minmax),
        (r"saturate(?P<ftz>\.ftz)?\.(?P<ty>f32|f64|[fd])", _saturate),
        (rf"(?P<src>[fd])2(?P<dst>i|ui|ll|ull)\.{_MODE}(?P<ftz>\.ftz)?", _float_to_int),
        (rf"(?P<src>i|ui|ll|ull)2(?P<dst>[fd])\.{_MODE}", _int_to_float),
        (rf"d2f\.{_MODE}(?P<ftz>\.ftz)?", _d2f),
        (r"f2h\.rn(?P<ftz>\.ftz)?", _f2h),
        (r"d2i\.(?P<part>lo|hi)", _d2i_part),
        (r"lohi\.i2d", _lohi),
        (r"mulhi\.(?P<ty>i|ui|ll|ull)", _mulhi),
        (r"mul24\.(?P<ty>i|ui)", _mul24),
        (r"sad\.(?P<ty>i|ui)", _sad),
        (r"prmt", _prmt),
        (r"(?:ldg|ldu)\.global\.[ifp]\.[\w.]+", _load),
        # The emulated GPU has one SM: a grid of one block is a full wave.
        (r"read\.ptx\.sreg\.nsmid", lambda m, sig: "  ret i32 1"),
    )
)
_LIBM = ("declare float @nextafterf(float, float)", "declare double @nextafter(double, double)")


def _signature(ret: str, params: str) -> _Signature:
    types = tuple(m[1] for p in params.split(",") if p.strip() and (m := _PARAM_TYPE.match(p)))
    return _Signature(_RETURN_ATTRS.sub("", ret).strip(), types)


def _body(name: str, sig: _Signature) -> str | None:
    """The body of the intrinsic NAME's definition, or None: no family has it."""
    for pattern, build in FAMILIES:
        m = pattern.fullmatch(name)
        if m:
            return build(m, sig)
    return None


def _define(name: str, sig: _Signature) -> str | None:
    body = _body(name, sig)
    if body is None:
        return None
    params = ", ".join(f"{t} {sig.arg(i)}" for i, t in enumerate(sig.params))
    return f"define internal {sig.ret} @__coalda.nvvm.{name}({params}) alwaysinline {{\n{body}\n}}"


# -- libdevice's inline PTX -----------------------------------------------------

_MAD_WIDE = """  %x = zext i32 %a to i64
  %y = zext i32 %b to i64
  %z = zext i32 %c to i64
  %p = mul i64 %x, %y
  %s = add i64 %p, %z
  %lo = trunc i64 %s to i32
  %sh = lshr i64 %s, 32
  %hi = trunc i64 %sh to i32
  %r0 = insertvalue { i32, i32 } poison, i32 %lo, 0
  %r = insertvalue { i32, i32 } %r0, i32 %hi, 1
  ret { i32, i32 } %r"""


def _wide(op: str, args: str) -> str:
    """{lo, hi} of a 128-bit OP on 64-bit halves."""
    return f"""{args}
  %s = {op}
  %lo = trunc i128 %s to i64
  %sh = lshr i128 %s, 64
  %hi = trunc i128 %sh to i64
  %r0 = insertvalue {{ i64, i64 }} poison, i64 %lo, 0
  %r = insertvalue {{ i64, i64 }} %r0, i64 %hi, 1
  ret {{ i64, i64 }} %r"""


_PAIR = """  %x0 = zext i64 %a to i128
  %x1 = zext i64 %b to i128
  %x1s = shl i128 %x1, 64
  %x = or i128 %x0, %x1s
  %y0 = zext i64 %c to i128
  %y1 = zext i64 %d to i128
  %y1s = shl i128 %y1, 64
  %y = or i128 %y0, %y1s"""


# template (white space removed) -> (return type, parameter types, body)
def _asm_table() -> dict[str, tuple[str, tuple[str, ...], str]]:
    table: dict[str, tuple[str, tuple[str, ...], str]] = {
        "rcp.approx.ftz.f32$0,$1;": ("float", ("float",), _define_body("rcp.approx.ftz.f", ("float",), "float")),
        "rsqrt.approx.ftz.f64$0,$1;": ("double", ("double",), _define_body("rsqrt.approx.d", ("double",), "double")),
        "{mad.lo.cc.u32$0,$2,$3,$4;madc.hi.u32$1,$2,$3,0;}": ("{ i32, i32 }", ("i32", "i32", "i32"), _MAD_WIDE),
        "bfind.shiftamt.u32$0,$1;": ("i32", ("i32",), """  %z = icmp eq i32 %a, 0
  %n = call i32 @llvm.ctlz.i32(i32 %a, i1 false)
  %r = select i1 %z, i32 -1, i32 %n
  ret i32 %r"""),
    }
    for ty, letter, width in (("float", "f", "f32"), ("double", "d", "f64")):
        for mode in ("rn", "rz", "rm", "rp"):
            for ftz in ((False, True) if ty == "float" else (False,)):
                key = f"sub.{mode}{'.ftz' if ftz else ''}.{width}$0,$1,$2;"
                body = _define_body(f"add.{mode}{'.ftz' if ftz else ''}.{letter}", (ty, ty), ty)
                table[key] = (ty, (ty, ty), f"  %nb = fneg {ty} %b\n" + body.replace("%b", "%nb"))
    return table


def _define_body(name: str, params: tuple[str, ...], ret: str) -> str:
    """An asm snippet's body: the intrinsic NAME's (one FAMILIES has)."""
    body = _body(name, _Signature(ret, params))
    assert body is not None, name
    return body


_MOVES2 = "mov.b64{alo,ahi},$2;mov.b64{blo,bhi},$3;"
_MOVES4 = "mov.b64{a0,a1},$2;mov.b64{a2,a3},$3;mov.b64{b0,b1},$4;mov.b64{b2,b3},$5;"
_RESULT = "mov.b64$0,{r0,r1};mov.b64$1,{r2,r3};}"
_CARRY4 = "{op}.cc.u32r0,a0,b0;{op}c.cc.u32r1,a1,b1;{op}c.cc.u32r2,a2,b2;{op}c.u32r3,a3,b3;"
# libdevice's 128-bit snippets, white space removed: a*b, a*b + c, a + b, a - b
_ASM_WIDE = {
    "{.reg.u32r0,r1,r2,r3,alo,ahi,blo,bhi;" + _MOVES2 + "mul.lo.u32r0,alo,blo;mul.hi.u32r1,alo,blo;"
    "mad.lo.cc.u32r1,alo,bhi,r1;madc.hi.u32r2,alo,bhi,0;mad.lo.cc.u32r1,ahi,blo,r1;madc.hi.cc.u32r2,ahi,blo,r2;"
    "madc.hi.u32r3,ahi,bhi,0;mad.lo.cc.u32r2,ahi,bhi,r2;addc.u32r3,r3,0;" + _RESULT:
        ("{ i64, i64 }", ("i64", "i64"),
         _wide("mul i128 %x, %y", "  %x = zext i64 %a to i128\n  %y = zext i64 %b to i128")),
    "{.reg.u32r0,r1,r2,r3,alo,ahi,blo,bhi,clo,chi;" + _MOVES2 + "mov.b64{clo,chi},$4;mad.lo.cc.u32r0,alo,blo,clo;"
    "madc.hi.cc.u32r1,alo,blo,chi;madc.hi.u32r2,alo,bhi,0;mad.lo.cc.u32r1,alo,bhi,r1;madc.hi.cc.u32r2,ahi,blo,r2;"
    "madc.hi.u32r3,ahi,bhi,0;mad.lo.cc.u32r1,ahi,blo,r1;madc.lo.cc.u32r2,ahi,bhi,r2;addc.u32r3,r3,0;" + _RESULT:
        ("{ i64, i64 }", ("i64", "i64", "i64"),
         _wide("add i128 %p, %z", "  %x = zext i64 %a to i128\n  %y = zext i64 %b to i128\n"
               "  %z = zext i64 %c to i128\n  %p = mul i128 %x, %y")),
    "{.reg.u32r0,r1,r2,r3,a0,a1,a2,a3,b0,b1,b2,b3;" + _MOVES4 + _CARRY4.format(op="add") + _RESULT:
        ("{ i64, i64 }", ("i64",) * 4, _wide("add i128 %x, %y", _PAIR)),
    "{.reg.u32r0,r1,r2,r3,a0,a1,a2,a3,b0,b1,b2,b3;" + _MOVES4 + _CARRY4.format(op="sub") + _RESULT:
        ("{ i64, i64 }", ("i64",) * 4, _wide("sub i128 %x, %y", _PAIR)),
}


def _asm_definition(template: str, table: dict[str, tuple[str, tuple[str, ...], str]]) -> tuple[str, tuple[str, ...], str] | None:
    key = re.sub(r"\\0A|\\09|\s", "", template)
    return table.get(key) or _ASM_WIDE.get(key)


def lower(text: str) -> str:
    """TEXT with every NVVM intrinsic and inline asm this module models
    replaced by calls of host definitions (appended)."""
    definitions: list[str] = []
    names: list[str] = []

    def declare(m: re.Match[str]) -> str:
        name = m[2]
        definition = _define(name, _signature(m[1], m[3]))
        if definition is None:
            return m[0]
        definitions.append(definition)
        names.append(name)
        return ""

    text = _DECLARE.sub(declare, text)
    for name in names:
        text = re.sub(rf"@llvm\.nvvm\.{re.escape(name)}(?=\()", f"@__coalda.nvvm.{name}", text)
    table = _asm_table()
    asm_names: dict[str, str] = {}

    def asm(m: re.Match[str]) -> str:
        entry = _asm_definition(m[1], table)
        if entry is None:
            return m[0]
        if m[1] not in asm_names:
            asm_names[m[1]] = f"__coalda.asm.{len(asm_names)}"
            ret, params, body = entry
            args = ", ".join(f"{t} %{'abcdef'[i]}" for i, t in enumerate(params))
            definitions.append(f"define internal {ret} @{asm_names[m[1]]}({args}) alwaysinline {{\n{body}\n}}")
        return f"@{asm_names[m[1]]}"

    text = _ASM_CALL.sub(asm, text)
    conversions: set[tuple[str, str, int]] = set()

    def convert(m: re.Match[str]) -> str:
        conversions.add((m[2], m[3], int(m[5][1:])))
        return f"{m[1]}call {m[5]} @__coalda.fpto{m[2]}i.{m[5]}.{_SUFFIX[m[3]]}({m[3]} {m[4]})"

    text = _FP_TO_INT.sub(convert, text)
    definitions.extend(_generic_to_int(*c) for c in sorted(conversions))
    shifts: set[tuple[str, str]] = set()

    def shift(m: re.Match[str]) -> str:
        shifts.add((m[2], m[3]))
        return f"{m[1]}call {m[3]} @__coalda.{m[2]}.{m[3]}({m[3]} {m[4]}, {m[3]} {m[5]})"

    text = _SHIFT.sub(shift, text)
    definitions.extend(_clamped_shift(*s) for s in sorted(shifts))
    if definitions:
        definitions.extend(_LIBM)
    return "\n".join([text, *definitions])
