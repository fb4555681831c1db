"""Random kernels for the differential fuzzer (tests/test_fuzz.py).

Each family generates what once broke the pass (issue 9), next to the plain
copies it was built for:

- `copy`     (FuzzKernel): struct/array copies, partial, swizzled, under the
             index forms the README promises (gid, tid, 2d, guard, early
             return, grid-stride, uniform loop), run-time strides.
- `guard`    bounds guards in every spelling (`(unsigned)i < n`, `n > i`,
             `i <= n-1`, `i < min(n,m)`, nested, `&& flag`, on threadIdx,
             data-dependent) and offsets on the index (`gid + c`, `gid - c`),
             sometimes with branches every active thread takes between the
             guard and the copy (libdevice's sinf, a data-dependent loop):
             the copy's threads are then its control class's.
- `control`  control-dependent values in the index: ternaries and if/else
             on threadIdx, on loaded values (divergent), on blockIdx or a
             parameter (uniform), loop-carried counts.
- `oddwidth` LLVM IR kernels whose members have widths CUDA cannot spell:
             <3 x i16>, <3 x i8>, i24, <5 x i16>, <7 x i16>, ... (clang's
             ext_vector_type(3) is padded to 4 lanes and stored with a
             poison lane, so it cannot make a 6-byte member).
- `chain`    two copy groups in one kernel that share a buffer: b=a;c=b,
             b=a;a=b, c=b;b=a, fan-out, the same destination written twice
             under a uniform condition, member-interleaved chains.
- `loop`     grid-stride and uniform loops with odd bounds (`i < n-1`,
             `i <= n-1`, `i < n/2`, `i < min(n,m)`, the bound computed in
             the body, while loops, unsigned counters).

The adversarial corpus's miscompile families (testcases/adversarial/), each
generating the shape that once broke the pass among its neighbours:

- `selptr`   a pointer chosen by a select, a phi or a loop's phi between the
             copy's __restrict__ destination or source and another buffer,
             reading or writing the thread's own element before or after
             the copy (aliasing.cu readback_*, src_written_*).
- `dynshared` shared fills into `extern __shared__` memory seen through
             several names (two extern arrays, a raw byte array at an offset,
             a select with a static array), scratch through another view
             before or after the fill (shared.cu extern_alias, scratch_select).
- `irreducible` goto-built cycles with two entries, the copy in either block
             of the cycle or around it, exits on threadIdx, memory or a
             parameter (reach.cu irreducible_cycle).
- `stride`   run-time strides `s*t*x`, `s*x`, `(s+t)*x`, `t - c*(s > 0)`
             with s a signed/unsigned char, short or int, launched equal to
             the members, with a gap, negative, or as the old trap: an all-ones
             narrow unsigned s whose sign extension fakes the right stride
             (runtime_stride.cu zext_stride, bool_stride).
- `preheader` grid-stride loops with work in the preheader after the `i < n`
             test, on the path that skips the loop, before or after it
             (flat.cu preheader_side_effect).
- `rotated`  loops whose exit test follows the copy (break after the copy,
             unguarded and inclusive do-whiles, the next index tested before
             the copy, a uniform do-while run with m = 0) beside the guarded
             do-while (loops.cu test_after_copy, next_test_before_copy).
- `params`   a `copy` kernel whose pointers and sizes come in a struct taken
             by value; the fuzzer also fails a rewrite that takes the
             struct's address (param_structs.cu update_records, 0.75x).

Every kernel has a launch spec whose sizes are not multiples of the block
where a guard allows it, and an expectation for the pass's decision:
"rewrite" (the README promises it), "alone" (rewriting it cannot be right:
not a whole pure copy, or threads of a row that differ in what they copy),
or "any" (legal either way; only the bytes decide). `expect(opt_level)`
gives it; each family says why in `_expect`.
"""

from __future__ import annotations

import dataclasses
import math

from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol

from hypothesis import strategies as st

from coalda.check.spec import Field, KernelSpec, Param

Expect = Literal["rewrite", "alone", "any"]

# C type -> size (= alignment)
TYPES = {"char": 1, "short": 2, "int": 4, "float": 4, "long long": 8, "double": 8}
# clang ext_vector_type members of 2 and 4 lanes: one vector load/store each,
# sizeof == alignof == lanes * element. (3 lanes are padded to 4 and stored
# with a poison lane: the original would write undefined bytes.)
VECTORS = {"vc2": ("char", 2), "vc4": ("char", 4), "vs2": ("short", 2), "vs4": ("short", 4),
           "vi2": ("int", 2), "vf2": ("float", 2), "vi4": ("int", 4), "vf4": ("float", 4)}
SIZES = {**TYPES, **{v: TYPES[t] * k for v, (t, k) in VECTORS.items()}}
BLOCKS = (32, 36, 64, 96, 100, 128)
GID = "blockIdx.x * blockDim.x + threadIdx.x"
STRIDE = "blockDim.x * gridDim.x"


class Kernel(Protocol):
    """What the fuzzer needs of a generated kernel."""

    family: ClassVar[str]
    language: ClassVar[str]  # "cuda" (a .cu batch) or "ir" (an .ll batch)

    @property
    def restrict(self) -> bool: ...  # pointers __restrict__ (noalias)

    @property
    def overlappable(self) -> bool:
        """The original is defined with its buffers overlapping (one thread):
        not with __restrict__, nor for a struct assignment (an overlapping
        memcpy)."""
        ...

    def source(self, name: str) -> str: ...
    def spec(self, name: str) -> tuple[KernelSpec, int]: ...
    def expect(self, opt_level: int) -> Expect: ...


def restrict(on: bool) -> str:
    return "__restrict__ " if on else ""


# --------------------------------------------------------------------------
# `copy`: the original family (kept as it was; its regressions name it).


@dataclass(frozen=True)
class FuzzKernel:
    members: tuple[str, ...]  # element layout: struct members (or one type for arrays)
    array: bool  # `dst[c*i+k]` on a plain array instead of struct members
    statements: tuple[tuple[int, int], ...]  # (dst member, src member) in program order
    index: str  # gid | tid | 2d | guard | early_return | gridstride | uniform_loop
    restrict: bool
    block: int
    blocks: int  # in x (and in y for 2d)
    tail: int = 0  # guarded kinds: n = block*blocks - tail (a partial last block)
    # arrays: the stride is the kernel argument `s` (launched as the element's
    # count plus stride_extra, so the rewrite's run-time check takes either way)
    runtime_stride: bool = False
    stride_extra: int = 0

    family: ClassVar[str] = "copy"
    language: ClassVar[str] = "cuda"

    @property
    def overlappable(self) -> bool:
        return not self.restrict

    @property
    def layout(self) -> tuple[int, int]:
        """(sizeof, alignof) of one element, as C lays it out."""
        if self.array:
            size = TYPES[self.members[0]]
            return size * len(self.members), size
        return struct_layout(self.members)

    @property
    def expect_rewrite(self) -> bool:
        """A whole, in-place copy of a padding-free element wider than a member."""
        size, _ = self.layout
        copied = sorted(d for d, _ in self.statements)
        pure = all(d == s for d, s in self.statements)
        if self.runtime_stride:
            # The stride is unknown statically: contiguous members are a
            # candidate element, rewritten behind a check that the stride is
            # their size (the launch decides which path runs).
            contiguous = copied == list(range(copied[0], copied[0] + len(copied)))
            return contiguous and pure and len(copied) > 1
        whole = copied == list(range(len(self.members)))
        padded = sum(TYPES[t] for t in self.members) != size
        return whole and pure and not padded and len(self.members) > 1

    def expect(self, opt_level: int) -> Expect:
        """The README's contract, both ways: these index forms are all
        row-prefix forms, so a whole pure copy is rewritten, anything else
        is not. Except a uniform loop over buffers that may overlap: each
        iteration's overlap check covers its own regions only, and a later
        iteration could read what this one wrote (another thread's bytes
        after a rewrite); the oracle cannot lay buffers out that way with
        several threads, so the decision is the only check: left alone."""
        if self.index == "uniform_loop" and not self.restrict:
            return "alone"
        return "rewrite" if self.expect_rewrite else "alone"

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        size, _ = self.layout
        gid = f"int i = {GID};"
        index, close = {
            "gid": (gid, ""),
            "tid": ("int i = threadIdx.x;", ""),
            "2d": ("int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  int y = blockIdx.y * blockDim.y + threadIdx.y;\n  int i = y * width + x;", ""),
            "guard": (gid + "\n  if (i < n) {", "  }\n"),
            "early_return": (gid + "\n  if (i >= n)\n    return;", ""),
            "gridstride": (f"for (int i = {GID}; i < n; i += {STRIDE}) {{", "  }\n"),
            "uniform_loop": ("for (int k = 0; k < n; k++) {\n  int i = k * gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x;", "  }\n"),
        }[self.index]
        width = {"2d": ", int width", "gid": "", "tid": ""}.get(self.index, ", int n")
        if self.array:
            t, c = self.members[0], len(self.members)
            if self.runtime_stride:
                c, width = "s", width + ", int s"
            head = f"__global__ void {name}({t} *{r}dst, const {t} *{r}src{width}) {{"
            body = [f"  dst[{c} * i + {d}] = src[{c} * i + {s}];" for d, s in self.statements]
            struct = ""
        else:
            fields = " ".join(f"{t} m{k};" for k, t in enumerate(self.members))
            struct = f"struct {name}_t {{ {fields} }};\n"
            head = f"__global__ void {name}({name}_t *{r}dst, const {name}_t *{r}src{width}) {{"
            body = [f"  dst[i].m{d} = src[i].m{s};" for d, s in self.statements]
        assert size > 0
        return struct + head + "\n  " + index + "\n" + "\n".join(body) + "\n" + close + "}\n"

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        """The launch, and the n it covers."""
        spec, n = self._spec(name)
        if not self.runtime_stride:
            return spec, n
        # elements of `s` members: buffers sized for the launched stride
        stride = len(self.members) + self.stride_extra
        member = TYPES[self.members[0]]
        params = tuple(
            Param(p.name, p.kind, f"{stride * member}*n") if p.is_buffer else p for p in spec.params
        ) + (Param("s", "value", stride),)
        return KernelSpec(spec.name, params, spec.grid, spec.block, spec.same_as, spec.align), n

    def _spec(self, name: str) -> tuple[KernelSpec, int]:
        size, align = self.layout
        bytes_ = f"{size}*n"
        params = [Param("dst", "out", bytes_), Param("src", "in", bytes_)]
        if self.index == "2d":
            width = self.block * self.blocks
            params.append(Param("width", "value", width))
            spec = KernelSpec(name, tuple(params), grid=[self.blocks, self.blocks], block=[self.block, 2], align=align)
            return spec, width * 2 * self.blocks
        if self.index in ("guard", "early_return"):
            n = self.block * self.blocks - self.tail
            return KernelSpec(name, (*params, Param("n", "value", n)), grid=self.blocks, block=self.block, align=align), n
        if self.index == "gridstride":
            # fewer threads than elements: every thread runs several iterations
            n = self.block * self.blocks * 3 - self.tail
            return KernelSpec(name, (*params, Param("n", "value", n)), grid=self.blocks, block=self.block, align=align), n
        if self.index == "uniform_loop":
            rounds = 2
            spec = KernelSpec(name, (*params, Param("n", "value", rounds)), grid=self.blocks, block=self.block, align=align)
            return spec, self.block * self.blocks * rounds
        if self.index == "tid":
            return KernelSpec(name, tuple(params), grid=1, block=self.block, align=align), self.block
        return KernelSpec(name, tuple(params), grid=self.blocks, block=self.block, align=align), self.block * self.blocks


@st.composite
def fuzz_kernels(draw: st.DrawFn) -> FuzzKernel:
    array = draw(st.booleans())
    if array:
        members = (draw(st.sampled_from(sorted(TYPES))),) * draw(st.integers(1, 8))
    else:
        members = tuple(draw(st.lists(st.sampled_from(sorted(TYPES)), min_size=1, max_size=8)))
    k = len(members)
    order = draw(st.permutations(range(k)))
    kind = draw(st.sampled_from(["whole", "whole", "whole", "partial", "swizzle"]))
    statements = [(d, d) for d in order]
    if kind == "partial" and k > 1:
        statements = statements[: draw(st.integers(1, k - 1))]
    if kind == "swizzle":
        # swap the sources of two members of one type (a real swizzle, no conversion)
        pairs = [(a, b) for a in range(k) for b in range(a + 1, k) if members[a] == members[b]]
        if pairs:
            a, b = draw(st.sampled_from(pairs))
            statements = [(d, b if d == a else a if d == b else d) for d, _ in statements]
    index = draw(st.sampled_from(["gid", "gid", "tid", "2d", "guard", "early_return", "gridstride", "uniform_loop"]))
    block = draw(st.sampled_from(BLOCKS))
    runtime = array and index in ("gid", "guard") and draw(st.booleans())
    return FuzzKernel(
        members, array, tuple(statements), index, draw(st.booleans()), block, draw(st.integers(1, 3)),
        draw(st.integers(0, block - 1)), runtime, draw(st.integers(0, 1)) if runtime else 0,
    )


# --------------------------------------------------------------------------
# `params`: a `copy` kernel whose pointers and sizes come in a struct taken by
# value (`params.dst[3*i] = params.src[3*i]`, issue 37), bound to locals at
# the top: the struct's pointers are bases like parameters, the rewrite
# reads them at the kernel's top, and the oracle writes the field buffers'
# addresses into the struct. Found by hand first: an overlap check against
# the struct itself that moved it to local memory.


@dataclass(frozen=True)
class ParamStructKernel:
    inner: FuzzKernel

    family: ClassVar[str] = "params"
    language: ClassVar[str] = "cuda"

    @property
    def restrict(self) -> bool:
        return False  # a struct's pointers carry no __restrict__

    @property
    def overlappable(self) -> bool:
        return True

    def _fields(self, name: str) -> list[tuple[str, str]]:
        """(type, name) of the inner kernel's parameters, in order."""
        head = self.inner.source(name).split(f"__global__ void {name}(", 1)[1].split(") {", 1)[0]
        out = []
        for decl in head.split(", "):
            ty, _, var = decl.replace("__restrict__ ", "").rpartition(" ")
            star = var.count("*")
            out.append((ty + " " + "*" * star if star else ty, var.lstrip("*")))
        return out

    def source(self, name: str) -> str:
        text = self.inner.source(name)
        fields = self._fields(name)
        head_start = text.index(f"__global__ void {name}(")
        body_start = text.index(") {", head_start) + 3
        struct = f"struct {name}_p {{ " + " ".join(f"{t} {v};" for t, v in fields) + " };\n"
        binds = "".join(f"\n  {t} {v} = p.{v};" for t, v in fields)
        return (text[:head_start] + struct + f"__global__ void {name}({name}_p p) {{" + binds
                + text[body_start:])

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        spec, n = self.inner.spec(name)
        fields, at = [], 0
        for param in spec.params:  # pointers first (8 bytes), then the ints (4 bytes)
            if param.is_buffer:
                fields.append(Field(at, param.name, buffer=param))
                at += 8
            else:
                fields.append(Field(at, param.name, int32=param.expr))
                at += 4
        struct = Param("p", "in", -(-at // 8) * 8, fields=tuple(fields))
        return KernelSpec(spec.name, (struct,), spec.grid, spec.block, spec.same_as, spec.align), n

    def expect(self, opt_level: int) -> Expect:
        """-O3 as the plain copy, but where a loop or a stride read from the
        struct lets another rewrite (a staging) or none take it; -O0 copies
        the struct to the stack first, whose pointers are no base."""
        if opt_level == 0 or self.inner.index in ("gridstride", "2d") or self.inner.runtime_stride:
            return "any"
        return self.inner.expect(opt_level)


@st.composite
def param_struct_kernels(draw: st.DrawFn) -> ParamStructKernel:
    inner = draw(fuzz_kernels())
    return ParamStructKernel(dataclasses.replace(inner, restrict=False))


# --------------------------------------------------------------------------
# The element the new families copy: a struct, scalars and 2/4-lane vectors.


def struct_layout(members: tuple[str, ...]) -> tuple[int, int]:
    """(sizeof, alignof) of a struct of these members (size == alignment each)."""
    offset, align = 0, 1
    for t in members:
        size = SIZES[t]
        offset = -(-offset // size) * size + size
        align = max(align, size)
    return -(-offset // align) * align, align


@dataclass(frozen=True)
class Element:
    """A struct element and which members one copy statement list moves, in
    program order. Whole pure copies of a padding-free element of more than
    one member are what the pass rewrites."""

    members: tuple[str, ...]
    order: tuple[int, ...]
    assign: bool = False  # `dst[i] = src[i]`: one memcpy of the element, padding included

    @property
    def layout(self) -> tuple[int, int]:
        return struct_layout(self.members)

    @property
    def expect(self) -> Expect:
        """What the element allows whatever the index: a whole member-wise
        copy of a padding-free element of several members is rewritten; a
        struct assignment is a memcpy of the element (padding too) that the
        pass may take as one member covering it, or not; anything else
        (one member: already coalesced; partial; padded) is left alone."""
        if len(self.members) < 2:
            return "alone"
        if self.assign:
            return "any"
        return "rewrite" if self.whole_pure else "alone"

    @property
    def member_bytes(self) -> frozenset[int]:
        """The byte offsets its members cover (not the padding)."""
        covered: set[int] = set()
        offset = 0
        for t in self.members:
            size = SIZES[t]
            offset = -(-offset // size) * size
            covered.update(range(offset, offset + size))
            offset += size
        return frozenset(covered)

    @property
    def whole_pure(self) -> bool:
        size, _ = self.layout
        whole = sorted(self.order) == list(range(len(self.members)))
        return whole and sum(SIZES[t] for t in self.members) == size and len(self.members) > 1

    def declare(self, name: str) -> str:
        """The typedefs it needs (redeclaring a typedef is legal C++) and the struct."""
        vectors = sorted({t for t in self.members if t in VECTORS})
        typedefs = "".join(
            f"typedef {VECTORS[v][0]} {v} __attribute__((ext_vector_type({VECTORS[v][1]})));\n" for v in vectors
        )
        fields = " ".join(f"{t} m{k};" for k, t in enumerate(self.members))
        return f"{typedefs}struct {name}_t {{ {fields} }};\n"

    def copy(self, dst: str, src: str, i: str = "i", indent: str = "  ") -> list[str]:
        if self.assign:
            return [f"{indent}{dst}[{i}] = {src}[{i}];"]
        return [f"{indent}{dst}[{i}].m{k} = {src}[{i}].m{k};" for k in self.order]


def weakest(*expects: Expect) -> Expect:
    """The expectation both constraints allow: "alone" wins, then "any"."""
    for e in ("alone", "any"):
        if e in expects:
            return e  # type: ignore[return-value]
    return "rewrite"


def packed(members: list[str]) -> list[str]:
    """The members largest first, then scalars closing the tail padding:
    a struct with no padding at all (sizes are powers of two, so every
    offset after larger members is aligned)."""
    out = sorted(members, key=lambda t: -SIZES[t])
    size, align = struct_layout(tuple(out))
    total = sum(SIZES[t] for t in out)
    by_size = {s: t for t, s in TYPES.items() if t in ("char", "short", "int", "double")}
    while total % align:
        fill = max(s for s in by_size if s <= align - total % align and total % s == 0)
        out.append(by_size[fill])
        total += fill
    return out


@st.composite
def elements(draw: st.DrawFn, partial: bool = True) -> Element:
    """Mostly whole copies of padding-free elements (the families vary the
    index, not the element); padded elements and, a fifth of the time,
    partial copies must never be rewritten."""
    # one member is a coalesced access, nothing to rewrite: a tenth of them
    smallest = 1 if draw(st.integers(0, 9)) == 0 else 2
    members = draw(st.lists(st.sampled_from(sorted(SIZES)), min_size=smallest, max_size=5))
    if draw(st.integers(0, 3)):
        members = packed(members)
    members = tuple(members)
    order = tuple(draw(st.permutations(range(len(members)))))
    if draw(st.integers(0, 7)) == 0:
        return Element(members, order, assign=True)
    if partial and len(members) > 1 and draw(st.integers(0, 4)) == 0:
        order = order[: draw(st.integers(1, len(members) - 1))]
    return Element(members, order)


def buffers(element: Element, count: int, *names: str, kinds: tuple[str, ...] = ()) -> tuple[Param, ...]:
    """Buffers of `count` elements each; the first is "out", the rest "in"
    unless kinds says otherwise."""
    size, _ = element.layout
    kinds = kinds or ("out",) + ("in",) * (len(names) - 1)
    return tuple(Param(n, k, size * count) for n, k in zip(names, kinds))


def launch(name: str, params: tuple[Param, ...], element: Element, block: int, blocks: int) -> KernelSpec:
    """The launch; every buffer is offset only by multiples of the alignment
    all of them need (the element's, 4 for the int `sel` and float `w`
    buffers): the emulator, like the GPU, faults on a misaligned access."""
    align = element.layout[1]
    if any(p.name in ("sel", "w") for p in params):
        align = math.lcm(align, 4)
    return KernelSpec(name, params, grid=blocks, block=block, align=align)


# --------------------------------------------------------------------------
# `guard`: bounds guards in every spelling, offsets on the index.

# guard -> (opening, closing) around the copy
GUARDS: dict[str, tuple[str, str]] = {
    "lt": ("if (i < n) {", "}"),
    "gt": ("if (n > i) {", "}"),
    "le": ("if (i <= n - 1) {", "}"),
    "unsigned": ("if ((unsigned)i < (unsigned)n) {", "}"),
    "min": ("if (i < min(n, m)) {", "}"),
    "nested": ("if (i < n) {\n  if (i < m) {", "}\n  }"),
    "flag": ("if (i < n && flag) {", "}"),
    "flag_first": ("if (flag) {\n  if (i < n) {", "}\n  }"),
    "return": ("if (i >= n)\n    return;\n  {", "}"),
    "return_unsigned": ("if ((unsigned)i >= (unsigned)n)\n    return;\n  {", "}"),
    "range": ("if (i >= 0 && i < n) {", "}"),
    "lower": ("if (i >= m && i < n) {", "}"),  # a window, not a prefix
    "tid_lt": ("if (threadIdx.x < m && i < n) {", "}"),  # a prefix of every row
    "tid_ge": ("if (threadIdx.x >= m && i < n) {", "}"),  # a suffix of every row
    "tid_odd": ("if ((threadIdx.x & 1) && i < n) {", "}"),  # every other thread
    "loaded": ("if (i < n && sel[i]) {", "}"),  # data-dependent
    "none": ("{", "}"),
}
# the guards that keep a negative index away from memory
NEGATIVE_SAFE = ("unsigned", "return_unsigned", "range", "lower")
# The README's contract: a bounds guard `i < bound` on the global index
# (`if (i >= n) return` too; bound row-uniform), under conditions on uniform
# values, keeps a prefix of every row; these spellings of it are rewritten
# when the index is gid + c with c >= 0 ("none": every thread copies).
# Statements between the guard and the copy whose branches every thread
# passing the guard takes one way or the other (w[i]: the thread's own).
PRELUDES: dict[str, tuple[str, ...]] = {
    # the argument kept small: sinf's branches are in the code, but the
    # emulator rarely runs its slow reduction (random bytes are huge floats)
    "sinf": ("w[i] = sinf(fminf(fabsf(w[i]), 100.0f));",),
    "loop": ("for (int r = (int)fminf(fabsf(w[i]), 5.0f); r > 0; --r)", "  w[i] = w[i] * 0.5f + 1.0f;"),
}
PREFIX_GUARDS = ("lt", "gt", "le", "return", "min", "nested", "flag", "flag_first", "none")
# guards under which the active threads of a row are not a prefix decided
# by uniform values: no rewrite of the pass's row model can be right
DIVERGENT_GUARDS = ("tid_odd", "loaded")


class OfElements:
    """The kernels of the families over an Element: their buffers may overlap
    in the oracle unless __restrict__ or a struct assignment (an overlapping
    memcpy is undefined) says otherwise."""

    restrict: bool
    element: Element

    @property
    def overlappable(self) -> bool:
        return not self.restrict and not self.element.assign


@dataclass(frozen=True)
class GuardKernel(OfElements):
    element: Element
    guard: str
    offset: int  # i = gid + offset
    restrict: bool
    block: int
    blocks: int
    tail: int  # n = threads + offset - tail
    m: int  # the second bound (min, nested, lower, tid_*)
    flag: int
    prelude: str = ""  # a PRELUDES key: branches between the guard and the copy

    family: ClassVar[str] = "guard"
    language: ClassVar[str] = "cuda"


    @property
    def threads(self) -> int:
        return self.block * self.blocks

    @property
    def n(self) -> int:
        return self.threads + self.offset - (0 if self.guard == "none" else self.tail)

    def expect(self, opt_level: int) -> Expect:
        """Signed prefix guards on gid + c (c >= 0) must be rewritten;
        divergent guards must not be. The rest is rewritten or not as far
        as the pass can prove the active threads are a row prefix: unsigned
        range checks (defect 1: `(unsigned)(gid-5) < n` keeps a suffix of
        block 0; on gid + c, c >= 0, it is a prefix if the pass can prove the
        index non-negative), `i >= 0 && i < n`, windows `m <= i < n`, guards
        on threadIdx alone. What it proves is its business, the bytes ours."""
        if self.guard in DIVERGENT_GUARDS:
            return "alone"
        prefix = self.guard in PREFIX_GUARDS and self.offset >= 0
        # w, written before the copy, may be dst or src unless __restrict__
        if self.prelude and not (self.restrict and opt_level == 3):
            prefix = False
        return weakest(self.element.expect, "rewrite" if prefix else "any")

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        extra = {"min": ", int m", "nested": ", int m", "lower": ", int m", "tid_lt": ", int m", "tid_ge": ", int m",
                 "flag": ", int flag", "flag_first": ", int flag", "loaded": f", const int *{r}sel"}.get(self.guard, "")
        sign = "+" if self.offset >= 0 else "-"
        index = f"int i = (int)({GID})" + (f" {sign} {abs(self.offset)};" if self.offset else ";")
        open_, close = GUARDS[self.guard]
        body = self.element.copy("dst", "src", indent="    ")
        if self.prelude:
            extra += f", float *{r}w"
            body = ["    " + line for line in PRELUDES[self.prelude]] + body
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *{r}dst, const {t} *{r}src, int n{extra}) {{\n"
            + f"  {index}\n  {open_}\n" + "\n".join(body) + f"\n  {close}\n}}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        count = max(self.n, self.threads + self.offset)  # the highest index + 1 a thread may touch
        params = buffers(self.element, count, "dst", "src") + (Param("n", "value", self.n),)
        if self.guard in ("min", "nested", "lower", "tid_lt", "tid_ge"):
            params += (Param("m", "value", self.m),)
        if self.guard in ("flag", "flag_first"):
            params += (Param("flag", "value", self.flag),)
        if self.guard == "loaded":
            params += (Param("sel", "in", 4 * count),)
        if self.prelude:
            params += (Param("w", "inout", 4 * count),)
        return launch(name, params, self.element, self.block, self.blocks), self.n


@st.composite
def guard_kernels(draw: st.DrawFn) -> GuardKernel:
    guard = draw(st.sampled_from(sorted(GUARDS)))
    block, blocks = draw(st.sampled_from(BLOCKS)), draw(st.integers(1, 3))
    threads = block * blocks
    low = -5 if guard in NEGATIVE_SAFE else 0
    offsets = [0, 0, draw(st.integers(low, 5))]
    if guard in NEGATIVE_SAFE:
        # The index wraps below 0 anywhere in the grid, at a row's start too:
        # rows whose start wraps must run the original code, whichever test
        # the rewrite's fast path and slow path use to see it.
        offsets.append(draw(st.integers(1 - threads, -1)))
    offset = draw(st.sampled_from(offsets))
    tail = draw(st.integers(0, min(block - 1, threads + offset - 1)))
    n = threads + offset - tail
    bound = block if guard.startswith("tid") else n
    return GuardKernel(
        draw(elements()), guard, offset, draw(st.booleans()), block, blocks, tail,
        draw(st.integers(0, max(0, bound))), draw(st.integers(0, 1)),
        draw(st.sampled_from(["", "", "", *sorted(PRELUDES)])),
    )


# --------------------------------------------------------------------------
# `control`: control-dependent values in the index (defect 3).

# form -> (statements computing k, or i itself, divergent across a row?)
CONTROL: dict[str, tuple[str, bool]] = {
    "select_tid": ("int k = threadIdx.x < SPLIT ? 0 : 1;", True),
    "phi_tid": ("int k;\n  if (threadIdx.x < SPLIT)\n    k = 0;\n  else\n    k = 1;", True),
    "phi_tid_odd": ("int k = 0;\n  if (threadIdx.x & 1)\n    k = 1;", True),
    "phi_index": ("int i;\n  if (threadIdx.x < SPLIT)\n    i = base + threadIdx.x;\n  else\n    i = base + threadIdx.x + blockDim.x;", True),
    "loop_tid": ("int k = 0;\n  for (unsigned j = 0; j < threadIdx.x % 2; j++)\n    k++;", True),
    "phi_loaded": ("int k;\n  if (sel[blockIdx.x * blockDim.x + threadIdx.x] & 1)\n    k = 1;\n  else\n    k = 0;", True),
    "select_loaded": ("int k = (sel[blockIdx.x * blockDim.x + threadIdx.x] & 1) ? 1 : 0;", True),
    "select_bid": ("int k = (blockIdx.x & 1) ? 1 : 0;", False),
    "phi_bid": ("int k;\n  if (blockIdx.x & 1)\n    k = 1;\n  else\n    k = 0;", False),
    "phi_flag": ("int k;\n  if (flag)\n    k = 1;\n  else\n    k = 0;", False),
    "loop_flag": ("int k = 0;\n  for (int j = 0; j < flag; j++)\n    k++;", False),
    "loaded_uniform": ("int k = sel[blockIdx.x] & 1;", False),
}


# uniform k the README's rules cover: a select or branch on a uniform value
UNIFORM_CHOICES = ("select_bid", "phi_bid", "phi_flag")


@dataclass(frozen=True)
class ControlKernel(OfElements):
    """`i = 2*ctaid*ntid + tid + k*ntid` with k in {0, 1} per thread: every
    thread copies one element of its block's two rows, so the original is
    race-free whatever k is."""

    element: Element
    form: str
    split: int  # SPLIT: threads below it take k = 0
    restrict: bool
    block: int
    blocks: int
    flag: int

    family: ClassVar[str] = "control"
    language: ClassVar[str] = "cuda"


    def expect(self, opt_level: int) -> Expect:
        """A k that differs across a row puts threads of one row in different
        regions: a rewrite moving one region per row cannot be right (defect
        3). A k chosen by a branch or select on blockIdx or a parameter is
        row-uniform ("conditions on row-uniform values are fine"): rewritten.
        A uniform k from a loop's trip count or from memory is left to the
        pass; bytes decide."""
        if CONTROL[self.form][1]:
            return "alone"
        return weakest(self.element.expect, "rewrite" if self.form in UNIFORM_CHOICES else "any")

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        extra = {"phi_flag": ", int flag", "loop_flag": ", int flag"}.get(self.form, "")
        if "loaded" in self.form:
            extra = f", const int *{r}sel"
        code = CONTROL[self.form][0].replace("SPLIT", str(self.split))
        base = "int base = blockIdx.x * 2 * blockDim.x;"
        index = "" if self.form == "phi_index" else "\n  int i = base + threadIdx.x + k * blockDim.x;"
        body = self.element.copy("dst", "src")
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *{r}dst, const {t} *{r}src{extra}) {{\n"
            + f"  {base}\n  {code}{index}\n" + "\n".join(body) + "\n}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        count = 2 * self.block * self.blocks
        params = buffers(self.element, count, "dst", "src")
        if self.form in ("phi_flag", "loop_flag"):
            params += (Param("flag", "value", self.flag),)
        if "loaded" in self.form:
            params += (Param("sel", "in", 4 * self.block * self.blocks),)
        return launch(name, params, self.element, self.block, self.blocks), count


@st.composite
def control_kernels(draw: st.DrawFn) -> ControlKernel:
    block = draw(st.sampled_from(BLOCKS))
    return ControlKernel(
        draw(elements()), draw(st.sampled_from(sorted(CONTROL))), draw(st.integers(1, block - 1)),
        draw(st.booleans()), block, draw(st.integers(1, 3)), draw(st.integers(0, 1)),
    )


# --------------------------------------------------------------------------
# `chain`: two copy groups sharing a buffer (defect 5).

# shape -> (statement template, buffer kinds of c, b, a); copy(X, Y) = X[i] = Y[i] member-wise
CHAINS: dict[str, tuple[str, tuple[str, str, str]]] = {
    "chain": ("copy(b, a)\ncopy(c, b)", ("out", "inout", "in")),
    "roundtrip": ("copy(b, a)\ncopy(a, b)", ("in", "inout", "inout")),
    "war": ("copy(c, b)\ncopy(b, a)", ("out", "inout", "in")),
    "fanout": ("copy(b, a)\ncopy(c, a)", ("out", "out", "in")),
    "twice": ("copy(b, a)\nif (flag) {\ncopy(b, c)\n}", ("in", "out", "in")),
    "twice_bid": ("copy(b, a)\nif (blockIdx.x & 1) {\ncopy(b, c)\n}", ("in", "out", "in")),
    "interleaved": ("mix(b, a, c)", ("out", "inout", "in")),
}


@dataclass(frozen=True)
class ChainKernel(OfElements):
    element: Element
    shape: str
    guarded: bool  # `if (i < n)` around both copies
    restrict: bool
    block: int
    blocks: int
    tail: int
    flag: int

    family: ClassVar[str] = "chain"
    language: ClassVar[str] = "cuda"


    def expect(self, opt_level: int) -> Expect:
        """Legal outcomes are: neither group rewritten, or a group rewritten
        whose buffers are touched elsewhere only by groups rewritten in the
        same thread mapping (test_fuzz checks that from the report). Which
        one the pass picks is its choice; the schedules decide the bytes."""
        return weakest(self.element.expect, "any")

    def body(self) -> list[str]:
        lines: list[str] = []
        depth = 2 if self.guarded else 1
        for stmt in CHAINS[self.shape][0].splitlines():
            depth -= stmt == "}"
            indent = "  " * depth
            if stmt.startswith("copy("):
                dst, src = stmt[5:-1].split(", ")
                lines += self.element.copy(dst, src, indent=indent)
            elif stmt.startswith("mix("):
                # per member: b.m = a.m; c.m = b.m (the chain, one member at a time)
                for k in self.element.order:
                    lines += [f"{indent}b[i].m{k} = a[i].m{k};", f"{indent}c[i].m{k} = b[i].m{k};"]
            else:
                lines.append(indent + stmt)
            depth += stmt.endswith("{")
        return lines

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        const = {"in": "const "}
        kinds = CHAINS[self.shape][1]
        params = ", ".join(f"{const.get(k, '')}{t} *{r}{p}" for p, k in zip("cba", kinds))
        flag = ", int flag" if self.shape == "twice" else ""
        open_, close = ("  if (i < n) {\n", "  }\n") if self.guarded else ("", "")
        return (
            self.element.declare(name)
            + f"__global__ void {name}({params}, int n{flag}) {{\n  int i = {GID};\n"
            + open_ + "\n".join(self.body()) + "\n" + close + "}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        n = threads - self.tail if self.guarded else threads
        params = buffers(self.element, threads, "c", "b", "a", kinds=CHAINS[self.shape][1]) + (Param("n", "value", n),)
        if self.shape == "twice":
            params += (Param("flag", "value", self.flag),)
        return launch(name, params, self.element, self.block, self.blocks), n


@st.composite
def chain_kernels(draw: st.DrawFn) -> ChainKernel:
    block = draw(st.sampled_from(BLOCKS))
    return ChainKernel(
        draw(elements(partial=False)), draw(st.sampled_from(sorted(CHAINS))), draw(st.booleans()),
        draw(st.booleans()), block, draw(st.integers(1, 3)), draw(st.integers(0, block - 1)), draw(st.integers(0, 1)),
    )


# --------------------------------------------------------------------------
# `loop`: grid-stride and uniform loops with odd bounds (defect 4).

# form -> loop head (CONST is a small constant); the body follows, then "}"
LOOPS: dict[str, str] = {
    "lt": f"for (int i = {GID}; i < n; i += {STRIDE}) {{",
    "lt_minus": f"for (int i = {GID}; i < n - CONST; i += {STRIDE}) {{",
    "le_minus": f"for (int i = {GID}; i <= n - CONST; i += {STRIDE}) {{",
    "gt_minus": f"for (int i = {GID}; n - CONST > i; i += {STRIDE}) {{",
    "half": f"for (int i = {GID}; i < n / 2; i += {STRIDE}) {{",
    "min": f"for (int i = {GID}; i < min(n, m); i += {STRIDE}) {{",
    "inner": f"for (int i = {GID};; i += {STRIDE}) {{\n    int lim = n - CONST;\n    if (i >= lim)\n      break;",
    "while": f"int i = {GID};\n  while (i < n - CONST) {{",
    "unsigned": f"for (unsigned i = {GID}; i < (unsigned)(n - CONST); i += {STRIDE}) {{",
    "uniform": f"for (int r = 0; r < m - CONST; r++) {{\n    int i = r * {STRIDE} + {GID};",
    # counting down: lane stride -1, a row's elements in reverse order
    "down": f"for (int i = n - 1 - CONST - (int)({GID}); i >= 0; i -= {STRIDE}) {{",
    # a bound that changes between iterations: low on the second test (the
    # middle row's upper part leaves), n again on the third, which the
    # threads that left must not come back for
    "varying": f"for (int i = {GID}, r = 0; i < ((r++ & 1) ? n - 3 * (int)({STRIDE}) / 2 - CONST : n); "
               f"i += {STRIDE}) {{",
}


@dataclass(frozen=True)
class LoopKernel(OfElements):
    element: Element
    form: str
    c: int
    restrict: bool
    block: int
    blocks: int
    tail: int  # n = 3 * threads - tail: several iterations, a partial last one
    m: int

    family: ClassVar[str] = "loop"
    language: ClassVar[str] = "cuda"


    @property
    def n(self) -> int:
        return 3 * self.block * self.blocks - self.tail

    @property
    def rounds(self) -> int:
        """m for the uniform loop: at least one round after `- C`."""
        return self.c + 1 + self.m % 3

    def expect(self, opt_level: int) -> Expect:
        """`for (i = gid; i < n; i += stride)` is the README's grid-stride
        contract, and every bound here is row-uniform (`n - c`, `n / 2`,
        `min(n, m)`, computed in the body, an unsigned counter), as is the
        uniform loop's: with __restrict__ all are rewritten, by valid IR
        (defect 4). Over buffers that may overlap, a per-iteration rewrite
        is unsound (a later iteration may read what this one wrote, and a
        partial last row changes the unit, so the thread): the uniform loop
        is left alone (the oracle cannot build that overlap with several
        threads, so the decision is the check), and a grid-stride loop gets
        at most the flat copy, whose check covers the whole loop: promised
        for `i < n`, left to the pass for other bounds. A loop counting down
        moves each row's elements in reverse thread order: left to the pass.
        A bound that changes between iterations keeps no prefix of the row
        in the loop: left alone (the -O0 header-tested form was rewritten
        from the current bound, copying for threads that had left)."""
        if self.form == "varying":
            return "alone"
        if self.form == "down":
            return weakest(self.element.expect, "any")
        if not self.restrict and self.form == "uniform":
            return "alone"
        if not self.restrict and self.form != "lt":
            return weakest(self.element.expect, "any")
        return self.element.expect

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        head = LOOPS[self.form].replace("CONST", str(self.c))
        step = f"\n    i += {STRIDE};" if self.form == "while" else ""
        body = self.element.copy("dst", "src", indent="    ")
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *{r}dst, const {t} *{r}src, int n, int m) {{\n"
            + f"  {head}\n" + "\n".join(body) + step + "\n  }\n}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        m = self.rounds if self.form == "uniform" else self.m
        count = threads * self.rounds if self.form == "uniform" else self.n
        params = buffers(self.element, count, "dst", "src") + (Param("n", "value", self.n), Param("m", "value", m))
        return launch(name, params, self.element, self.block, self.blocks), count


@st.composite
def loop_kernels(draw: st.DrawFn) -> LoopKernel:
    block, blocks = draw(st.sampled_from(BLOCKS)), draw(st.integers(1, 2))
    n = 3 * block * blocks
    form = draw(st.sampled_from(sorted(LOOPS)))
    # `i <= n - 0` would read past the buffer: the original must be valid
    return LoopKernel(
        draw(elements()), form, draw(st.integers(1 if form == "le_minus" else 0, 3)), draw(st.booleans()),
        block, blocks, draw(st.integers(0, block - 1)), draw(st.integers(0, n)),
    )


# --------------------------------------------------------------------------
# `oddwidth`: LLVM IR kernels with members of widths CUDA cannot spell (defect 2).

# IR type -> store size in bytes
IR_TYPES = {
    "i8": 1, "i16": 2, "i24": 3, "<3 x i8>": 3, "i32": 4, "<5 x i8>": 5, "i48": 6, "<3 x i16>": 6,
    "i64": 8, "<5 x i16>": 10, "<3 x i32>": 12, "<7 x i16>": 14, "<4 x i32>": 16,
}
IR_HEADER = """target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
"""
IR_DECLARATIONS = """
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
"""


def lowbit(x: int) -> int:
    """The largest power of two dividing x (x = 0: unbounded)."""
    return x & -x if x else 1 << 30


@dataclass(frozen=True)
class OddWidthKernel:
    """`dst + stride*gid + offset_k <- src + stride*gid + offset_k` for packed
    members of any store size; access alignments follow from the base
    alignment `align`, the stride and the member offset."""

    members: tuple[str, ...]  # IR types, packed without padding
    statements: tuple[tuple[int, int], ...]  # (dst member, src member)
    guarded: bool  # `if (gid < n)`
    noalias: bool
    align: int  # every buffer's base alignment (the spec's align)
    byte_geps: bool  # i8 GEPs on a byte offset, else one GEP per member on an index
    block: int
    blocks: int
    tail: int

    family: ClassVar[str] = "oddwidth"
    language: ClassVar[str] = "ir"

    @property
    def restrict(self) -> bool:
        return self.noalias

    @property
    def overlappable(self) -> bool:
        return not self.noalias

    @property
    def offsets(self) -> list[int]:
        out, at = [], 0
        for t in self.members:
            out.append(at)
            at += IR_TYPES[t]
        return out

    @property
    def stride(self) -> int:
        return sum(IR_TYPES[t] for t in self.members)

    @property
    def pure_whole(self) -> bool:
        dsts = sorted(d for d, _ in self.statements)
        return dsts == list(range(len(self.members))) and all(d == s for d, s in self.statements)

    def expect(self, opt_level: int) -> Expect:
        """Partial copies and swizzles must be left alone. Whole copies of
        more than one member are rewritten, odd member widths included
        (defect 2 was in the unit arithmetic, not in the decision), except
        at power-of-two strides, where the cost rule may leave an element
        the backend moves as one vector alone."""
        if not self.pure_whole or len(self.members) == 1:
            return "alone"
        return "any" if self.stride & (self.stride - 1) == 0 else "rewrite"

    def access_align(self, offset: int) -> int:
        return min(self.align, lowbit(self.stride), lowbit(offset))

    def source(self, name: str) -> str:
        """A whole module (for a failure message); batches use `function`."""
        return IR_HEADER + self.function(name) + IR_DECLARATIONS + annotations([name])

    def function(self, name: str) -> str:
        na = "noalias " if self.noalias else ""
        lines = [
            f"define void @{name}(ptr {na}%dst, ptr {na}%src, i32 %n) {{",
            "entry:",
            "  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
            "  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()",
            "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
            "  %row = mul i32 %ctaid, %ntid",
            "  %gid = add i32 %row, %tid",
        ]
        if self.guarded:
            lines += ["  %in = icmp slt i32 %gid, %n", "  br i1 %in, label %body, label %exit", "body:"]
        lines += ["  %i = sext i32 %gid to i64", f"  %e = mul nsw i64 %i, {self.stride}"]
        offsets = self.offsets
        for j, (d, s) in enumerate(self.statements):
            ty = self.members[d]
            for role, base, k in (("s", "src", s), ("d", "dst", d)):
                if self.byte_geps:
                    lines += [f"  %{role}o{j} = add nsw i64 %e, {offsets[k]}",
                              f"  %{role}{j} = getelementptr inbounds i8, ptr %{base}, i64 %{role}o{j}"]
                else:
                    lines += [f"  %{role}e{j} = getelementptr inbounds i8, ptr %{base}, i64 %e",
                              f"  %{role}{j} = getelementptr inbounds i8, ptr %{role}e{j}, i64 {offsets[k]}"]
            lines += [f"  %v{j} = load {ty}, ptr %s{j}, align {self.access_align(offsets[s])}",
                      f"  store {ty} %v{j}, ptr %d{j}, align {self.access_align(offsets[d])}"]
        if self.guarded:
            lines += ["  br label %exit", "exit:"]
        lines += ["  ret void", "}", ""]
        return "\n".join(lines)

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        n = threads - self.tail if self.guarded else threads
        size = self.stride * threads
        params = (Param("dst", "out", size), Param("src", "in", size), Param("n", "value", n))
        return KernelSpec(name, params, grid=self.blocks, block=self.block, align=self.align), n


def annotations(names: list[str]) -> str:
    refs = ", ".join(f"!{k}" for k in range(len(names)))
    marks = "".join(f'!{k} = !{{ptr @{n}, !"kernel", i32 1}}\n' for k, n in enumerate(names))
    return f"!nvvm.annotations = !{{{refs}}}\n{marks}"


def ir_module(functions: list[tuple[OddWidthKernel, str]]) -> str:
    """One module of IR kernels (a batch), as clang would emit for the device."""
    return IR_HEADER + "".join(k.function(n) for k, n in functions) + IR_DECLARATIONS + annotations([n for _, n in functions])


@st.composite
def oddwidth_kernels(draw: st.DrawFn) -> OddWidthKernel:
    # Bias toward the odd widths: most elements have at least one.
    odd = [t for t, w in IR_TYPES.items() if w & (w - 1)]
    first = draw(st.sampled_from(odd))
    rest = draw(st.lists(st.sampled_from(sorted(IR_TYPES)), min_size=0 if draw(st.integers(0, 9)) == 0 else 1, max_size=3))
    members = tuple(draw(st.permutations([first, *rest])))
    k = len(members)
    order = draw(st.permutations(range(k)))
    statements = [(d, d) for d in order]
    kind = draw(st.sampled_from(["whole", "whole", "whole", "partial", "swizzle"]))
    if kind == "partial" and k > 1:
        statements = statements[: draw(st.integers(1, k - 1))]
    if kind == "swizzle":
        pairs = [(a, b) for a in range(k) for b in range(a + 1, k) if members[a] == members[b]]
        if pairs:
            a, b = draw(st.sampled_from(pairs))
            statements = [(d, b if d == a else a if d == b else d) for d, _ in statements]
    block = draw(st.sampled_from(BLOCKS))
    return OddWidthKernel(
        members, tuple(statements), draw(st.booleans()), draw(st.booleans()), draw(st.sampled_from([1, 2, 4, 8, 16])),
        draw(st.booleans()), block, draw(st.integers(1, 3)), draw(st.integers(0, block - 1)),
    )


# --------------------------------------------------------------------------
# The adversarial corpus's miscompile families (testcases/adversarial/),
# randomized: each generates the shape that once broke the pass among its
# neighbours. Their expectations are mostly "any" (the bytes decide, under
# every schedule and layout); a rewrite is pinned where the pass must do it.


def copy_at(element: Element, dst: str, di: str, src: str, si: str, indent: str = "  ") -> list[str]:
    """The element's copy statements from src[si] to dst[di]."""
    if element.assign:
        return [f"{indent}{dst}[{di}] = {src}[{si}];"]
    return [f"{indent}{dst}[{di}].m{k} = {src}[{si}].m{k};" for k in element.order]


def view_type(element: Element, offset: int, wide: bool) -> str:
    """A scalar that views the element's bytes at `offset`: int where the
    element's alignment and the offset allow it, else unsigned char."""
    size, align = element.layout
    return "int" if wide and align >= 4 and offset % 4 == 0 and size >= offset + 4 else "unsigned char"


def with_align(spec: KernelSpec, align: int) -> KernelSpec:
    return KernelSpec(spec.name, spec.params, spec.grid, spec.block, spec.same_as, math.lcm(spec.align, align),
                      spec.shared, spec.overlap)


# --------------------------------------------------------------------------
# `selptr`: a pointer chosen by a select or phi between the copy's buffer and
# another one, next to __restrict__ pointers (aliasing.cu: disjointness from
# a noalias base took the select/phi for the underlying object; 5f0774f).

# how p is chosen ({A} the copy's buffer, {B} another; {IDX} this thread's element)
SEL_CHOICES: dict[str, str] = {
    "select": "{V} *p = (flag ? ({V} *){A} : ({V} *){B}) + {IDX};",
    "select_tid": "{V} *p = ((threadIdx.x & 1) ? ({V} *){A} : ({V} *){B}) + {IDX};",
    "phi": "{V} *p;\n  if (flag)\n    p = ({V} *){A} + {IDX};\n  else\n    p = ({V} *){B} + {IDX};",
    "phi_offsets": "{V} *p;\n  if (flag)\n    p = ({V} *){A} + {IDX};\n  else\n    p = ({V} *){B} + i;",
    "phi_loop": "{V} *p = ({V} *){B};\n  for (int j = 0; j < flag; j++)\n    p = ({V} *){A};\n  p += {IDX};",
}
# what is done through p to this thread's own element (race-free), and when
SEL_ACCESSES = ("read_after", "read_before", "write_after", "write_before")


@dataclass(frozen=True)
class SelectKernel(OfElements):
    """The copy `dst[i] = src[i]` and, before or after it, a read or write
    of this thread's own element through `p = flag ? (V *)dst : other` (or
    a phi, a choice per thread, a phi of a loop). target `other`: p chooses
    between two other buffers, nothing conflicts."""

    element: Element
    target: str  # dst | src | other
    choice: str
    access: str
    offset: int  # the byte of the element p points at
    wide: bool  # an int view where the offset allows it
    restrict: bool
    flag: int
    block: int
    blocks: int

    family: ClassVar[str] = "selptr"
    language: ClassVar[str] = "cuda"

    def expect(self, opt_level: int) -> Expect:
        """p choosing between two other __restrict__ buffers: the copy is
        rewritten (but see phi_offsets). Otherwise the pass must see
        through the select/phi to the copy's buffer; its decision is free,
        the bytes decide (the launch's flag mostly picks the copy's buffer;
        `select_tid` picks it in every odd thread)."""
        if self.target == "other" and self.restrict and self.choice != "phi_offsets":
            return self.element.expect
        # phi_offsets at -O3: PRE leaves the copy's index a phi of two equal
        # sext(gid) (one per branch), which the analysis reads as a value
        # threads reach from different paths: no group (a missed rewrite)
        return weakest(self.element.expect, "any")

    @property
    def view(self) -> str:
        return view_type(self.element, self.offset, self.wide)

    @property
    def writes_src(self) -> bool:
        return self.target == "src" and self.access.startswith("write")

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        size, _ = self.element.layout
        v = self.view
        vs = 4 if v == "int" else 1
        a, b = {"dst": ("dst", "other"), "src": ("src", "other"), "other": ("other", "other2")}[self.target]
        choose = SEL_CHOICES[self.choice].format(V=v, A=a, B=b, IDX=f"({size // vs} * i + {self.offset // vs})")
        src_const = "" if self.writes_src else "const "
        use = ["  out[i] = *p;"] if self.access.startswith("read") else [f"  *p = ({v})(i * 7 + 1);"]
        copy = self.element.copy("dst", "src")
        body = use + copy if self.access.endswith("before") else copy + use
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *{r}dst, {src_const}{t} *{r}src, {v} *{r}out, {v} *{r}other, "
            + f"{v} *{r}other2, int flag) {{\n"
            + f"  int i = {GID};\n  {choose}\n" + "\n".join(body) + "\n}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        size, _ = self.element.layout
        vs = 4 if self.view == "int" else 1
        params = buffers(self.element, threads, "dst", "src", kinds=("out", "inout" if self.writes_src else "in")) + (
            Param("out", "out", vs * threads),
            Param("other", "inout", size * threads),
            Param("other2", "inout", size * threads),
            Param("flag", "value", self.flag),
        )
        return with_align(launch(name, params, self.element, self.block, self.blocks), vs), threads


@st.composite
def select_kernels(draw: st.DrawFn) -> SelectKernel:
    element = draw(elements(partial=False))
    size, _ = element.layout
    block = draw(st.sampled_from(BLOCKS))
    return SelectKernel(
        element, draw(st.sampled_from(["dst", "dst", "src", "other", "other"])), draw(st.sampled_from(sorted(SEL_CHOICES))),
        draw(st.sampled_from(SEL_ACCESSES)), draw(st.integers(0, size - 1)), draw(st.booleans()),
        draw(st.integers(0, 3)) > 0, draw(st.sampled_from([1, 1, 1, 0])), block, draw(st.integers(1, 2)),
    )


# --------------------------------------------------------------------------
# `dynshared`: a shared tile filled from global memory, barrier, drained
# mirrored, in dynamic shared memory seen through several names (shared.cu:
# two `extern __shared__` arrays are one memory, but were "distinct
# variables"; a select of shared arrays was taken as disjoint; 5f0774f).

# view -> how the fill's tile and the scratch view S are declared ({T} the
# element, {U} the scratch scalar, {OFF} the tile's byte offset; {P} names
# the extern arrays per kernel: one name of two types in one file is an error)
SHARED_VIEWS: dict[str, str] = {
    "one": "extern __shared__ {T} {P}a[];\n  {T} *tile = {P}a;\n  {U} *S = ({U} *){P}a;",
    "two_extern": "extern __shared__ {T} {P}a[];\n  extern __shared__ {U} {P}b[];\n  {T} *tile = {P}a;\n  {U} *S = {P}b;",
    "raw_offset": "extern __shared__ unsigned char {P}raw[];\n  {T} *tile = ({T} *)({P}raw + {OFF});\n  {U} *S = ({U} *)({P}raw + {OFF});",
    "raw_extern": "extern __shared__ {T} {P}a[];\n  extern __shared__ unsigned char {P}raw[];\n  {T} *tile = ({T} *)({P}raw + {OFF});\n  {U} *S = ({U} *)((unsigned char *){P}a + {OFF});",
    "select_static": "extern __shared__ {T} {P}a[];\n  __shared__ {T} spare[128];\n  {T} *tile = {P}a;\n  {U} *S = flag ? ({U} *){P}a : ({U} *)spare;",
    # two static arrays (shared.cu scratch_select): no dynamic memory used
    "static_select": "__shared__ {T} fixed[128];\n  __shared__ {T} spare[128];\n  {T} *tile = fixed;\n  {U} *S = flag ? ({U} *)fixed : ({U} *)spare;",
}
# what the scratch view does with this thread's own slot: nothing, write and
# read back before the fill (race-free: the fill overwrites it), write after
# the fill (before the barrier; the drain then sees it), read a mirrored slot
# after the barrier
SHARED_SCRATCH = ("none", "before", "after", "read_mirror")


@dataclass(frozen=True)
class SharedKernel:
    element: Element
    view: str
    scratch: str
    offset: int  # byte of the own slot the scratch view touches
    wide: bool
    tile_offset: int  # multiples of the element's alignment (raw views)
    restrict: bool  # src
    flag: int
    block: int
    blocks: int

    family: ClassVar[str] = "dynshared"
    language: ClassVar[str] = "cuda"
    fills_shared: ClassVar[bool] = True  # test_fuzz: tile loads after the barrier stay per-thread

    @property
    def overlappable(self) -> bool:
        """dst and src may overlap when src is not __restrict__ (dst never
        is); the fill's tile is shared memory, not a parameter."""
        return not self.restrict and not self.element.assign

    def expect(self, opt_level: int) -> Expect:
        """Every access to the tile but the fill comes after the barrier:
        the pass's shared fill; with scratch through another view before
        the barrier the pass must see that the views are one memory: its
        decision is free, the bytes decide."""
        return weakest(self.element.expect, "any")

    @property
    def scratch_type(self) -> str:
        return view_type(self.element, self.offset, self.wide)

    def source(self, name: str) -> str:
        t = f"{name}_t"
        size, _ = self.element.layout
        u = self.scratch_type
        us = 4 if u == "int" else 1
        decl = SHARED_VIEWS[self.view].format(T=t, U=u, OFF=self.tile_offset, P=f"{name}_")
        own = f"{size // us} * t + {self.offset // us}"
        mirror = f"{size // us} * (blockDim.x - 1 - t) + {self.offset // us}"
        fill = copy_at(self.element, "tile", "t", "src", "i")
        drain = copy_at(self.element, "dst", "i", "tile", "blockDim.x - 1 - t")
        before, after, late = [], [], []
        if self.scratch == "before":
            before = [f"  S[{own}] = ({u})(t + 1);", f"  out[i] = S[{own}];"]
        elif self.scratch == "after":
            after = [f"  S[{own}] = ({u})(t + 3);"]
        elif self.scratch == "read_mirror":
            late = [f"  out[i] = S[{mirror}];"]
        # the spare array a select view may point at is written too: a read
        # of a slot no thread wrote differs between two runs on a GPU
        spare = ["  memset(&spare[t], 0, sizeof(spare[0]));"] if "select" in self.view else []
        body = [*spare, *before, *fill, *after, "  __syncthreads();", *late, *drain]
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *dst, const {t} *{restrict(self.restrict)}src, {u} *out, int flag) {{\n"
            + f"  {decl}\n  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n" + "\n".join(body) + "\n}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        size, _ = self.element.layout
        us = 4 if self.scratch_type == "int" else 1
        params = buffers(self.element, threads, "dst", "src") + (
            Param("out", "out", us * threads), Param("flag", "value", self.flag),
        )
        spec = with_align(launch(name, params, self.element, self.block, self.blocks), us)
        shared = 0 if self.view == "static_select" else self.tile_offset + size * self.block
        return KernelSpec(spec.name, spec.params, spec.grid, spec.block, spec.same_as, spec.align, shared), threads


@st.composite
def shared_kernels(draw: st.DrawFn) -> SharedKernel:
    element = draw(elements(partial=False))
    _, align = element.layout
    # mostly two names of one memory, and scratch before the fill (what broke)
    view = draw(st.sampled_from(sorted(SHARED_VIEWS) + ["two_extern", "raw_extern", "select_static"]))
    offset = draw(st.integers(0, 2)) * align if view.startswith("raw") else 0
    scratch = draw(st.sampled_from(SHARED_SCRATCH + ("before", "before")))
    # the scratch view touches member bytes only: read_mirror reads the byte
    # (or int) another thread's fill wrote, and the fill skips the padding,
    # which on a GPU holds whatever was there (the emulator's per-schedule
    # shared poison made such a kernel a racy test)
    members = element.member_bytes
    at = draw(st.sampled_from(sorted(members)))
    wide = draw(st.booleans()) and set(range(at, at + 4)) <= members
    return SharedKernel(
        element, view, scratch, at, wide,
        offset, draw(st.integers(0, 3)) > 0, draw(st.sampled_from([1, 1, 0])),
        draw(st.sampled_from((32, 36, 64, 100, 128))), draw(st.sampled_from((1, 1, 2))),  # barriers: few threads
    )


# --------------------------------------------------------------------------
# `irreducible`: a cycle with two entries built from gotos around or inside
# the copy (reach.cu irreducible_cycle: LoopInfo sees no loop, so the copy's
# block "runs in every thread of a row" and k "is row-uniform"; f03b8de).

# entry -> the condition that enters the cycle at B instead of A
IRR_ENTRIES = {"flag": "flag", "bid": "blockIdx.x & 1", "tid": "threadIdx.x & 1"}
# exit -> the test in A that leaves the cycle (k counts rounds through B)
IRR_EXITS = {"tid": "k >= (int)(threadIdx.x % 3)", "uniform": "k >= m", "loaded": "k >= (lim[i] & 1) + (lim[i] >> 1 & 1)"}
# where the copy is: in A before the exit test, in B after k++, before the
# cycle, after it
IRR_PLACES = ("a", "b", "before", "after")
IRR_ROUNDS = 4  # k <= 3


@dataclass(frozen=True)
class IrreducibleKernel(OfElements):
    element: Element
    entry: str
    exit: str
    place: str
    record: bool  # out[i] = k after the cycle (else the exit returns)
    restrict: bool
    flag: int
    m: int
    block: int
    blocks: int

    family: ClassVar[str] = "irreducible"
    language: ClassVar[str] = "cuda"

    def expect(self, opt_level: int) -> Expect:
        """A copy inside the cycle whose entry or exit differs across a row
        runs in different threads in different rounds: no row rewrite can be
        right (the old miscompile: threads that stay move the whole row).
        (Entered per thread at B, the copy there runs in the same rounds in
        every thread unless m = 0.) Inside a cycle of uniform entry and exit,
        or before or after the cycle, the pass may rewrite it; the bytes
        decide."""
        inside = self.place in ("a", "b")
        if inside and (self.exit != "uniform" or (self.entry == "tid" and self.place == "a")):
            return "alone"
        return weakest(self.element.expect, "any")

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        inner = "base + k * (int)blockDim.x + t"
        copy = {p: copy_at(self.element, "dst", inner, "src", inner) if p == self.place else [] for p in ("a", "b")}
        outer = {p: copy_at(self.element, "dst", "base + t", "src", "base + t") if p == self.place else []
                 for p in ("before", "after")}
        lines = [
            "  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;",
            f"  int base = blockIdx.x * blockDim.x * {IRR_ROUNDS};",
            "  int k = 0;",
            *outer["before"],
            f"  if ({IRR_ENTRIES[self.entry]})\n    goto B;",
            "A:",
            *copy["a"],
            f"  if ({IRR_EXITS[self.exit]})\n    {'goto done' if self.record or self.place == 'after' else 'return'};",
            "B:",
            "  k++;",
            *copy["b"],
            "  goto A;",
            "done:;",
            *outer["after"],
            *(["  out[i] = k;"] if self.record else []),
        ]
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *{r}dst, const {t} *{r}src, int *__restrict__ out, const int *__restrict__ lim, "
            + "int flag, int m) {\n"
            + "\n".join(lines) + "\n}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        params = buffers(self.element, threads * IRR_ROUNDS, "dst", "src") + (
            Param("out", "out", 4 * threads), Param("lim", "in", 4 * threads),
            Param("flag", "value", self.flag), Param("m", "value", self.m),
        )
        return with_align(launch(name, params, self.element, self.block, self.blocks), 4), threads


@st.composite
def irreducible_kernels(draw: st.DrawFn) -> IrreducibleKernel:
    # mostly the copy in A, the cycle's exit after it (what broke); the
    # recording of k after the cycle a quarter of the time (with an exit on
    # threadIdx, the analysis then loses the copy: nothing to rewrite)
    return IrreducibleKernel(
        draw(elements(partial=False)), draw(st.sampled_from(sorted(IRR_ENTRIES))), draw(st.sampled_from(sorted(IRR_EXITS))),
        draw(st.sampled_from(IRR_PLACES + ("a",))), draw(st.integers(0, 3)) == 0, draw(st.booleans()),
        draw(st.integers(0, 1)), draw(st.integers(0, 2)), draw(st.sampled_from(BLOCKS)), draw(st.integers(1, 2)),
    )


# --------------------------------------------------------------------------
# `stride`: run-time strides `s * t * x` whose atoms are narrow, signed or
# unsigned, negative or large (runtime_stride.cu: the stride check
# sign-extended every atom whatever the IR's extension; 5f0774f).

# type -> (bits, signed)
STRIDE_TYPES = {"signed char": (8, True), "unsigned char": (8, False), "short": (16, True),
                "unsigned short": (16, False), "int": (32, True), "unsigned": (32, False)}
# form -> the element index e of the copy `dst[e + k] = src[e + k]`
STRIDE_FORMS = {
    "st": "int e = s * t * (int)(X) + off;",
    "s": "int e = s * (int)(X) + off;",
    "s_plus_t": "int e = (s + t) * (int)(X) + off;",
    # a bool converted to int (zext of an i1) in the stride; s is an int
    "bool": "int w = t - c * (s > 0);\n  int e = w * (int)(X) + off;",  # c: the member count
}
# launch -> what the stride is at run time: the members' count (the rewrite
# runs), a gap, counting down, or the old trap: a narrow unsigned atom whose
# sign extension makes the product look like the members' count
STRIDE_LAUNCHES = ("match", "gap", "down", "trap")


def wrap32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


@dataclass(frozen=True)
class StrideKernel:
    member: str
    count: int  # members per element
    stype: str
    form: str
    mode: str
    lane: str  # tid (one block) | gid
    restrict: bool
    block: int
    blocks: int

    family: ClassVar[str] = "stride"
    language: ClassVar[str] = "cuda"

    @property
    def overlappable(self) -> bool:
        return not self.restrict

    def expect(self, opt_level: int) -> Expect:
        """A whole copy of several members at a run-time stride is rewritten
        behind a run-time check that the stride is the members' bytes (and
        that narrow atoms are non-negative): the launch decides which path
        runs, the bytes whether the check is right (the old trap passed it
        with the wrong stride)."""
        return "rewrite"

    @property
    def values(self) -> tuple[int, int]:
        """(s, t) as passed, for the launch's mode."""
        c = self.count
        bits, signed = STRIDE_TYPES[self.stype]
        if self.form == "bool":  # w = t - c * (s > 0)
            return {"match": (1, 2 * c), "gap": (0, c + 1), "down": (1, 0), "trap": (1, 0)}[self.mode]
        if self.mode == "trap" and not signed and bits < 32:
            # all ones: sign-extended -1, so -1 * -c == c (s_plus_t: -1 + (c + 1))
            return (2**bits - 1, c + 1) if self.form == "s_plus_t" else (2**bits - 1, -c)
        want = {"match": c, "gap": c + 1 + c % 2, "down": -c, "trap": c}[self.mode]
        if self.form == "s":
            if want < 0 and not signed:
                want = c
            return want % 2**bits if not signed else want, 0
        if self.form == "s_plus_t":
            return 1, want - 1
        if signed:
            return -1, -want
        return abs(want), 1 if want > 0 else -1

    @property
    def stride(self) -> int:
        """The elements between neighbouring threads, as C computes it."""
        s, t = self.values
        bits, signed = STRIDE_TYPES[self.stype]
        if self.form == "bool":
            return t - self.count * (s > 0)
        if self.form == "s":
            return wrap32(s)
        if self.form == "s_plus_t":
            return wrap32(s + t)
        return wrap32(s * t)

    @property
    def threads(self) -> int:
        return self.block * (self.blocks if self.lane == "gid" else 1)

    @property
    def slack(self) -> int:
        """Elements kept free before the lowest and after the highest element
        copied: as far as a row's region at a wrongly assumed stride reaches
        (the old trap wrote up to a row past dst's end, far beyond the guard
        zones, into the host's heap); there the bytes show it."""
        return self.threads * self.count

    @property
    def offset(self) -> int:
        return max(0, -self.stride * (self.threads - 1)) + self.slack

    @property
    def elements(self) -> int:
        return abs(self.stride) * (self.threads - 1) + self.count + 2 * self.slack

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        m = self.member
        lane = "threadIdx.x" if self.lane == "tid" else GID
        index = STRIDE_FORMS[self.form].replace("X", lane).replace("c * ", f"{self.count} * ")
        body = [f"  dst[e + {k}] = src[e + {k}];" for k in range(self.count)]
        return (
            f"__global__ void {name}({m} *{r}dst, const {m} *{r}src, {self.stype} s, int t, int off) {{\n"
            + f"  {index}\n" + "\n".join(body) + "\n}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        size = TYPES[self.member] * self.elements
        s, t = self.values
        params = (Param("dst", "out", size), Param("src", "in", size), Param("s", "value", s),
                  Param("t", "value", t), Param("off", "value", self.offset))
        grid = self.blocks if self.lane == "gid" else 1
        return KernelSpec(name, params, grid=grid, block=self.block, align=TYPES[self.member]), self.threads


@st.composite
def stride_kernels(draw: st.DrawFn) -> StrideKernel:
    form = draw(st.sampled_from(["st", "st", "st", "s", "s_plus_t", "bool"]))
    stype = "int" if form == "bool" else draw(st.sampled_from(sorted(STRIDE_TYPES)))
    mode = draw(st.sampled_from(STRIDE_LAUNCHES + ("trap",)))
    bits, signed = STRIDE_TYPES[stype]
    member = draw(st.sampled_from(sorted(TYPES)))
    count = draw(st.integers(2, 4))
    # the trap's stride is 2^bits elements: few threads
    small = mode == "trap" and 1 < bits < 32 and not signed
    block = draw(st.sampled_from([2, 3] if bits == 16 else [2, 3, 32])) if small else draw(st.sampled_from(BLOCKS))
    lane = "tid" if small else draw(st.sampled_from(["tid", "gid"]))
    return StrideKernel(member, count, stype, form, mode, lane, draw(st.booleans()), block, draw(st.integers(1, 2)))


# --------------------------------------------------------------------------
# `preheader`: a grid-stride loop with work the flat copy must not skip:
# in the preheader after the `i < n` test, on the path that skips the loop,
# before or after the loop (flat.cu preheader_side_effect: the flat copy
# replaced the guard's branch and jumped over the preheader; 5f0774f).

# shape -> the loop with SIDE somewhere around it; COPY the copy of element i
PREHEADER_SHAPES: dict[str, str] = {
    "guard_do": "if (i < n) {\n    SIDE\n    do {\n      COPY\n      i += step;\n    } while (i < n);\n  }",
    "guard_while": "if (i < n) {\n    SIDE\n    while (i < n) {\n      COPY\n      i += step;\n    }\n  }",
    "guard_else": "if (i < n) {\n    do {\n      COPY\n      i += step;\n    } while (i < n);\n  } else {\n    SIDE\n  }",
    "before_for": "SIDE\n  for (; i < n; i += step) {\n    COPY\n  }",
    "flag_before": "if (flag) {\n    SIDE\n  }\n  for (; i < n; i += step) {\n    COPY\n  }",
    "after_for": "for (; i < n; i += step) {\n    COPY\n  }\n  SIDE",
}
# side -> the work (g: this thread's index; dst/src: its first element, only
# where g < n)
PREHEADER_SIDES = {"seen": "seen[g] = g + 1;", "seen_n": "seen[g] = n - g;", "dst": "DST", "src": "SRC"}
GUARDED_SHAPES = ("guard_do", "guard_while")


@dataclass(frozen=True)
class PreheaderKernel(OfElements):
    element: Element
    shape: str
    side: str
    restrict: bool
    flag: int
    block: int
    blocks: int
    n: int

    family: ClassVar[str] = "preheader"
    language: ClassVar[str] = "cuda"

    def expect(self, opt_level: int) -> Expect:
        """Rewritten per iteration, flat, or left alone: the pass's choice;
        the work around the loop must happen either way (the bytes)."""
        return weakest(self.element.expect, "any")

    def side_code(self) -> str:
        """The work; on the copy's buffers it writes the first member the
        copy moves (a vector member gets g in every lane)."""
        k = 0 if self.element.assign else self.element.order[0]
        member = self.element.members[k]
        value = f"({VECTORS[member][0]})g" if member in VECTORS else "g"
        return PREHEADER_SIDES[self.side].replace("DST", f"dst[g].m{k} = {value};").replace("SRC", f"src[g].m{k} = {value};")

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        copy = "\n      ".join(s.strip() for s in self.element.copy("dst", "src"))
        body = PREHEADER_SHAPES[self.shape].replace("SIDE", self.side_code()).replace("COPY", copy)
        src_const = "" if self.side == "src" else "const "
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *{r}dst, {src_const}{t} *{r}src, int *{r}seen, int n, int flag) {{\n"
            + f"  int g = {GID};\n  int i = g;\n  int step = {STRIDE};\n  {body}\n}}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        count = max(self.n, threads)
        params = buffers(self.element, count, "dst", "src", kinds=("out", "inout" if self.side == "src" else "in")) + (
            Param("seen", "out", 4 * threads), Param("n", "value", self.n), Param("flag", "value", self.flag),
        )
        return with_align(launch(name, params, self.element, self.block, self.blocks), 4), count


@st.composite
def preheader_kernels(draw: st.DrawFn) -> PreheaderKernel:
    # mostly the preheader after the test (what broke), over __restrict__
    # buffers (what gets the flat copy)
    shape = draw(st.sampled_from(sorted(PREHEADER_SHAPES) + ["guard_do", "guard_do", "guard_while"]))
    # the copy's own buffers are written only where the thread's element is < n
    sides = ["seen", "seen", "seen_n"] + (["dst", "src"] if shape in GUARDED_SHAPES else [])
    block, blocks = draw(st.sampled_from(BLOCKS)), draw(st.integers(1, 2))
    threads = block * blocks
    n = draw(st.sampled_from([3 * threads - draw(st.integers(0, block - 1)), draw(st.integers(1, threads)),
                              draw(st.integers(-3, 0))]))
    return PreheaderKernel(draw(elements(partial=False)), shape, draw(st.sampled_from(sides)),
                           draw(st.integers(0, 3)) > 0, draw(st.integers(0, 1)), block, blocks, n)


# --------------------------------------------------------------------------
# `rotated`: loops whose exit test comes after the copy, so the copy runs
# once more than a top-tested loop would (loops.cu test_after_copy and
# next_test_before_copy: a test taken for "on entry to every iteration";
# 5f0774f), next to the correctly rotated guarded do-while.

# form -> the loop; COPY copies element i (grid-stride) or base + k*ntid + t
ROTATED_FORMS: dict[str, str] = {
    "break_after": "for (;; i += step) {\n    COPY\n    if (i >= n)\n      break;\n  }",
    "break_after_gt": "while (true) {\n    COPY\n    if (i > n - 1)\n      break;\n    i += step;\n  }",
    "do_while": "do {\n    COPY\n    i += step;\n  } while (i < n);",
    "do_while_le": "if (i < n) {\n    do {\n      COPY\n      i += step;\n    } while (i <= n);\n  }",
    "guarded_do": "if (i < n) {\n    do {\n      COPY\n      i += step;\n    } while (i < n);\n  }",
    "next_before": "if (i < n) {\n    while (true) {\n      int nx = i + step;\n      if (nx >= n)\n        break;\n      COPY\n      i = nx;\n    }\n  }",
    "uniform_do": "int k = 0;\n  do {\n    int j = base + k * (int)blockDim.x + (int)threadIdx.x;\n    COPYJ\n    k++;\n  } while (k < m);",
}


@dataclass(frozen=True)
class RotatedKernel(OfElements):
    element: Element
    form: str
    restrict: bool
    block: int
    blocks: int
    n: int
    m: int

    family: ClassVar[str] = "rotated"
    language: ClassVar[str] = "cuda"

    def expect(self, opt_level: int) -> Expect:
        """The guarded do-while over __restrict__ buffers is the rotated
        grid-stride loop the README promises (loops.cu guarded_do_while):
        rewritten. A test after the copy (or on the next index before it)
        makes the copy's active threads something else: the pass decides,
        the bytes check it."""
        if self.form == "guarded_do" and self.restrict:
            return self.element.expect
        return weakest(self.element.expect, "any")

    @property
    def threads(self) -> int:
        return self.block * self.blocks

    @property
    def count(self) -> int:
        """Elements a thread may touch: past n by up to two grid strides."""
        if self.form == "uniform_do":
            return self.threads * max(self.m, 1)
        return max(self.n, 0) + 2 * self.threads

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        copy = "\n      ".join(s.strip() for s in self.element.copy("dst", "src"))
        copyj = "\n    ".join(s.strip() for s in copy_at(self.element, "dst", "j", "src", "j"))
        body = ROTATED_FORMS[self.form].replace("COPYJ", copyj).replace("COPY", copy)
        return (
            self.element.declare(name)
            + f"__global__ void {name}({t} *{r}dst, const {t} *{r}src, int n, int m) {{\n"
            + f"  int i = {GID};\n  int step = {STRIDE};\n  int base = blockIdx.x * blockDim.x * (m > 0 ? m : 1);\n  {body}\n}}\n"
        )

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        params = buffers(self.element, self.count, "dst", "src") + (Param("n", "value", self.n), Param("m", "value", self.m))
        return launch(name, params, self.element, self.block, self.blocks), self.count


@st.composite
def rotated_kernels(draw: st.DrawFn) -> RotatedKernel:
    block, blocks = draw(st.sampled_from(BLOCKS)), draw(st.integers(1, 2))
    threads = block * blocks
    n = draw(st.sampled_from([3 * threads - draw(st.integers(0, block - 1)), draw(st.integers(1, threads)),
                              draw(st.integers(-2, 0))]))
    # the forms the pass rewrites (a guarded do-while, a uniform do-while
    # over __restrict__ buffers) twice: the family must reach the rewrite
    form = draw(st.sampled_from(sorted(ROTATED_FORMS) + ["guarded_do", "uniform_do"]))
    return RotatedKernel(draw(elements(partial=False)), form, draw(st.integers(0, 3)) > 0, block, blocks, n,
                         draw(st.integers(0, 3)))


# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# `accumulate`: loops that read and write their thread's element on every
# iteration (the loop promotion's target: pass/lib/LoopPromotion.cpp). The
# element's other pointers (src, a float view of dst's own buffer, a table
# indexed by the loop) may reach it; without __restrict__ the oracle also
# lays dst and src a few bytes apart in one allocation, where the overlap
# checks must send the thread down the original loop.

# the loop's shape: (head, step after the body)
ACC_LOOPS: dict[str, tuple[str, str]] = {
    "for": ("for (int k = 0; k < reps; k++) {", ""),
    "const": ("for (int k = 0; k < 5; k++) {", ""),
    "while": ("int k = 0;\n    while (k < reps) {", "\n      k++;"),
    "down": ("for (int k = reps; k > 0; k--) {", ""),
}
# one statement of the body: MEMBER is dst's member, OTHER another member
ACC_OPS = (
    "dst[t].MEMBER += src[t].OTHER;",
    "dst[t].MEMBER = dst[t].MEMBER * 0.5f + src[t].MEMBER;",
    "dst[t].MEMBER += table[k % 7];",
    "dst[t].MEMBER += dst[t].OTHER;",
    "dst[t].MEMBER -= view[4 * t + SLOT];",
    "dst[t].MEMBER += src[t + 1].OTHER;",
    # on every fourth iteration only, a byte index whose steps wrap: the
    # read is at byte 16t + 4 + 4*MIDX at k = 0 and 16t + 4*MIDX (the
    # member it adds to, in the alias layout with four members) at k = 4:
    # a range over the loop that wraps past the top of the address space
    "{ float v = 1.f; if ((k & 3) == 0) v = ((const unsigned char *)view)[16 * t + 4 + 4 * MIDX + "
    "(long long)((unsigned long long)k * 0x3FFFFFFFFFFFFFFFull)]; dst[t].MEMBER += v; }",
)


@dataclass(frozen=True)
class AccumulateKernel:
    members: int  # floats in the element
    loop: str
    ops: tuple[tuple[int, int, int, int], ...]  # (op, member, other member, view slot)
    guard: bool
    restrict: bool
    block: int
    blocks: int
    tail: int
    reps: int

    family: ClassVar[str] = "accumulate"
    language: ClassVar[str] = "cuda"
    alias_layout: ClassVar[bool] = True

    @property
    def overlappable(self) -> bool:
        return not self.restrict

    @property
    def n(self) -> int:
        return self.block * self.blocks - (self.tail if self.guard else 0)

    def expect(self, opt_level: int) -> Expect:
        """Legal either way: a loop the promotion refuses keeps its code;
        the bytes decide (the promotion is no copy rewrite: no group)."""
        return "any"

    def source(self, name: str) -> str:
        r = restrict(self.restrict)
        t = f"{name}_t"
        names = "xyzw"[: self.members]
        head, step = ACC_LOOPS[self.loop]
        body = []
        for op, m, o, slot in self.ops:
            body.append("      " + ACC_OPS[op].replace("MEMBER", names[m % self.members])
                        .replace("OTHER", names[o % self.members]).replace("SLOT", str(slot % self.members))
                        .replace("MIDX", str(m % self.members)))
        guard = "if (t < n) " if self.guard else ""
        return (f"struct {t} {{ {' '.join(f'float {c};' for c in names)} }};\n"
                f"__global__ void {name}({t} *{r}dst, const {t} *{r}src, const float *{r}table, "
                f"const float *{r}view, int reps, int n) {{\n"
                f"  int t = {GID};\n  {guard}{{\n    {head}\n" + "\n".join(body) + f"{step}\n    }}\n  }}\n}}\n")

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        threads = self.block * self.blocks
        size = 4 * self.members
        params = (Param("dst", "inout", size * threads), Param("src", "in", size * (threads + 1)),
                  Param("table", "in", 4 * 7), Param("view", "in", 16 * (threads + 1)),
                  Param("reps", "value", self.reps), Param("n", "value", self.n))
        return KernelSpec(name, params, grid=self.blocks, block=self.block, align=4), threads


@st.composite
def accumulate_kernels(draw: st.DrawFn) -> AccumulateKernel:
    members = draw(st.integers(1, 4))
    ops = tuple(draw(st.lists(st.tuples(st.integers(0, len(ACC_OPS) - 1), st.integers(0, 3), st.integers(0, 3),
                                        st.integers(0, 3)), min_size=1, max_size=4)))
    block = draw(st.sampled_from(BLOCKS))
    return AccumulateKernel(members, draw(st.sampled_from(sorted(ACC_LOOPS))), ops, draw(st.booleans()),
                            draw(st.booleans()), block, draw(st.integers(1, 2)), draw(st.integers(0, block - 1)),
                            draw(st.integers(0, 6)))


FAMILIES = {
    "copy": fuzz_kernels(),
    "guard": guard_kernels(),
    "control": control_kernels(),
    "chain": chain_kernels(),
    "loop": loop_kernels(),
    "oddwidth": oddwidth_kernels(),
    "selptr": select_kernels(),
    "dynshared": shared_kernels(),
    "irreducible": irreducible_kernels(),
    "stride": stride_kernels(),
    "preheader": preheader_kernels(),
    "rotated": rotated_kernels(),
    "params": param_struct_kernels(),
    "accumulate": accumulate_kernels(),
}


def any_kernels(families: list[str] | None = None) -> st.SearchStrategy[Kernel]:
    """One kernel of the named families (all by default); `copy` counts
    twice so that the plain copies the pass exists for stay a fair share."""
    names = families or list(FAMILIES)
    weighted = [FAMILIES[f] for f in names] + ([FAMILIES["copy"]] if "copy" in names and len(names) > 1 else [])
    return st.one_of(*weighted)
