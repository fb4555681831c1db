"""Random one-copy kernels for flat grid variants (-coalda-reshape-launches;
pass/lib/GridVariantFlat.cpp): a kernel whose whole effect is ONE copy of
element gid = blockIdx.x * blockDim.x + threadIdx.x under bounds `gid <
End` / `gid <= End` gets a variant K__coalda_grid(args..., G) that starts
with one flat copy of elements [0, min(G * blockDim.x, End...)). The count
folds the bounds one by one, each a signed or unsigned parameter or a
constant, of 32 or 64 bits; a fold that reads one bound's negative value
as a huge unsigned one (the bug of d21a5d5: smin(n = -1) before umin(cap =
1000) copied 1000 elements where the original copies none) shows only for
some combinations of bound types, orders and run-time values. This
generator draws those combinations (tests/test_flat_variant_fuzz.py runs
every variant against its original on the emulator).

Each kernel varies:

- the record: 3 ints, 3 chars, 3 shorts, 3 long longs, 5 chars, 5 shorts
  (3 to 24 bytes; never one of 4, 8 or 16 bytes, whose copy is coalesced as
  it is and not rewritten), copied member by member (in a random order now
  and then) or by a struct assignment;
- the pointers: `dst` and `src`, both `__restrict__` now and then (else
  the oracle runs them overlapping and at one address too); now and then
  an element offset on either side (`dst[i + a] = src[i + b]`);
- 0 or 1 bound (even-numbered kernels), 2 or 3 (odd-numbered ones), each a
  parameter (int, unsigned, long, unsigned long) or a constant (int,
  unsigned, long or unsigned long literal), `<` or `<=`, the operands now
  and then swapped (`n > i`), the index now and then cast (`(unsigned)i <
  n`, keeping its width);
- the index: int, unsigned (32-bit arithmetic), long or size_t (64-bit);
  a bound of the index's width (a 32-bit index compared with a 64-bit End
  is refused a rewrite: "the guard's index mixes integer widths"), mostly
  of a 64-bit type on a 64-bit index (a 32-bit End extended keeps the block
  loop); half the kernels of 2 or 3 bounds test each bound on an index of
  its own, computed afresh in nested ifs, mostly of the other width than
  the one before (-O3 then keeps the branches apart, and the kernel flat:
  the shape of tests/test_flat_variants.py's unsigned_outside_signed, the
  bug's at -O3);
- how the bounds are written otherwise: nested ifs, one `&&` chain, early
  returns (`if (i >= n) return;`), or early returns then an `&&` chain;
- the launch: blocks of 64, 96, 128 or 256 threads (now and then a 32x2
  block), 500 to 1024 threads, the last block mostly partial; the buffers
  hold G * blockDim.x elements (plus the offsets), whatever the bounds
  admit;
- the run-time values of the bound parameters, drawn per type from sets
  that hold negatives (-1, -2, -1000, INT_MIN, LONG_MIN) for the signed
  ones, 0, small counts, counts inside the grid (300, T - 1 for T = G *
  blockDim.x, the launch's n), T itself and above it, and the type's limits
  (2^31 - 1, 2^32 - 1, 2^63 - 1, 2^63, 2^64 - 1); a signed bound is
  negative almost half the time, so that its clamp at 0 is exercised
  often.

`<=` on a 64-bit End is rare (it keeps the block loop: End + 1 could wrap).
Constants are positive and at least 100 (`i < 0` folds the copy away at
-O3, `i < 1` becomes `i == 0`: no variant to compare). Everything is
integers: the copy moves random bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# name -> (member type, members)
RECORDS = {
    "I3": ("int", 3), "C3": ("char", 3), "S3": ("short", 3), "L3": ("long long", 3), "C5": ("char", 5),
    "S5": ("short", 5),
}
MEMBER_BYTES = {"int": 4, "char": 1, "short": 2, "long long": 8}
MEMBER_NAMES = "xyzwv"
# bound parameter types (C), with their signedness and bits
PARAM_TYPES = {"int": (True, 32), "unsigned": (False, 32), "long": (True, 64), "unsigned long": (False, 64)}
# index types: int, unsigned (32-bit arithmetic), long, size_t (64-bit
# arithmetic; a size_t of 32-bit arithmetic, widened, is refused a rewrite:
# "the guard's index mixes integer widths")
INDEX_DECL = {
    "int": "int {v} = blockIdx.x * blockDim.x + threadIdx.x;",
    "unsigned": "unsigned {v} = blockIdx.x * blockDim.x + threadIdx.x;",
    "long": "long {v} = (long)blockIdx.x * blockDim.x + threadIdx.x;",
    "size_t": "size_t {v} = (size_t)blockIdx.x * blockDim.x + threadIdx.x;",
}
INDEX_BITS = {"int": 32, "unsigned": 32, "long": 64, "size_t": 64}
# casts of the index that keep its width
INDEX_CASTS = {32: ("(unsigned)", "(int)"), 64: ("(long)", "(size_t)")}
CONST_SUFFIX = {"int": "", "unsigned": "u", "long": "L", "unsigned long": "UL"}
FORMS = ("nested", "and", "early", "early_and")
BLOCKS = (64, 96, 128, 128, 128, 256)
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


def prelude() -> str:
    """The record types, once a file."""
    out = []
    for name, (member, count) in RECORDS.items():
        out.append(f"struct {name} {{\n  {member} {', '.join(MEMBER_NAMES[:count])};\n}};\n")
    return "\n".join(out) + "\n"


@dataclass
class Bound:
    """One bound of the copy's guard: `index < end` (or `<=`)."""

    kind: str  # "param" or "const"
    ctype: str  # a PARAM_TYPES key: the parameter's type, or the constant's literal type
    inclusive: bool
    swapped: bool  # `end > index`
    index: int  # which index variable it tests
    cast: str = ""  # a cast of the index ("" mostly)
    name: str = ""  # the parameter's
    value: int = 0  # the run-time value (parameter) or the constant

    @property
    def end(self) -> str:
        return self.name if self.kind == "param" else f"{self.value}{CONST_SUFFIX[self.ctype]}"

    def test(self, index: str, negate: bool = False) -> str:
        """The C condition that admits the copy (NEGATE: that leaves)."""
        i = f"{self.cast}{index}"
        less = not negate
        op = ("<=" if self.inclusive else "<") if less else (">" if self.inclusive else ">=")
        if self.swapped:
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
            return f"{self.end} {op} {i}"
        return f"{i} {op} {self.end}"


@dataclass
class FlatKernel:
    name: str
    record: str
    assign: bool  # a struct assignment, else member by member
    order: tuple[int, ...]  # the members' order (member by member)
    restrict: bool
    dst_off: int  # elements
    src_off: int
    indexes: list[str]  # index variables' types (i0, i1, ...)
    copy_index: int  # the index variable the copy uses
    bounds: list[Bound]
    form: str
    block: int
    block_y: int
    threads: int  # n: the launch's threads in x (grid = cdiv(n, block))
    fresh: bool = False  # each nested level declares its own index

    @property
    def grid(self) -> int:
        return -(-self.threads // self.block)

    @property
    def gids(self) -> int:
        """T = G * blockDim.x: the original grid's gid runs below it."""
        return self.grid * self.block

    @property
    def record_bytes(self) -> int:
        member, count = RECORDS[self.record]
        return MEMBER_BYTES[member] * count

    @property
    def align(self) -> int:
        return MEMBER_BYTES[RECORDS[self.record][0]]

    def params(self) -> list[Bound]:
        return [b for b in self.bounds if b.kind == "param"]

    # -- source ------------------------------------------------------------

    def _copy(self) -> list[str]:
        i = f"i{self.copy_index}"
        d = f"{i} + {self.dst_off}" if self.dst_off else i
        s = f"{i} + {self.src_off}" if self.src_off else i
        if self.assign:
            return [f"dst[{d}] = src[{s}];"]
        return [f"dst[{d}].{MEMBER_NAMES[m]} = src[{s}].{MEMBER_NAMES[m]};" for m in self.order]

    def source(self) -> str:
        r = " __restrict__" if self.restrict else ""
        params = [f"{self.record} *{r} dst", f"const {self.record} *{r} src"]
        params += [f"{b.ctype} {b.name}" for b in self.params()]
        lines = [f"__global__ void {self.name}({', '.join(params)}) {{"]
        copy = self._copy()
        pad = "  "
        if self.fresh:
            # nested ifs, each level declaring the index its bound tests
            declared: set[int] = set()
            for b in self.bounds:
                if b.index not in declared:
                    lines.append(pad + INDEX_DECL[self.indexes[b.index]].format(v=f"i{b.index}"))
                    declared.add(b.index)
                lines.append(pad + f"if ({b.test(f'i{b.index}')}) {{")
                pad += "  "
            if self.copy_index not in declared:
                lines.append(pad + INDEX_DECL[self.indexes[self.copy_index]].format(v=f"i{self.copy_index}"))
            lines += [pad + c for c in copy]
            for _ in self.bounds:
                pad = pad[:-2]
                lines.append(pad + "}")
            return "\n".join(lines + ["}", ""]) + "\n"
        for k, t in enumerate(self.indexes):
            lines.append(pad + INDEX_DECL[t].format(v=f"i{k}"))
        bounds = self.bounds
        if self.form in ("early", "early_and"):
            cut = len(bounds) if self.form == "early" else max(1, len(bounds) - 1)
            for b in bounds[:cut]:
                lines += [pad + f"if ({b.test(f'i{b.index}', negate=True)})", pad + "  return;"]
            bounds = bounds[cut:]
        if not bounds:
            lines += [pad + c for c in copy]
        elif self.form == "nested":
            for b in bounds:
                lines.append(pad + f"if ({b.test(f'i{b.index}')}) {{")
                pad += "  "
            lines += [pad + c for c in copy]
            for _ in bounds:
                pad = pad[:-2]
                lines.append(pad + "}")
        else:
            cond = " && ".join(f"{b.test(f'i{b.index}')}" for b in bounds)
            lines.append(pad + f"if ({cond}) {{")
            lines += [pad + "  " + c for c in copy]
            lines.append(pad + "}")
        return "\n".join(lines + ["}", ""]) + "\n"

    def spec(self) -> str:
        """The kernel's launch ([kernels.NAME]); the file's size n is unused."""
        t = self.gids
        block = f"[{self.block}, {self.block_y}]" if self.block_y > 1 else str(self.block)
        params = [f'{{ name = "dst", inout = "{(t + self.dst_off) * self.record_bytes}" }}',
                  f'{{ name = "src", in = "{(t + self.src_off) * self.record_bytes}" }}']
        params += [f'{{ name = "{b.name}", value = "{b.value}" }}' for b in self.params()]
        return (f"[kernels.{self.name}]\nblock = {block}\ngrid = {self.grid}\nalign = {self.align}\n"
                f"params = [{', '.join(params)}]\n")

    def assigns_overlapping(self, shift: int) -> bool:
        """Whether the kernel assigns a record to one that overlaps it in
        part when dst starts SHIFT bytes after src (the oracle's one-thread
        overlap layouts: SHIFT = +-align): undefined in C++ ([expr.ass]/8:
        the overlap of an assignment's objects shall be exact), and clang
        makes the assignment an llvm.memcpy, whose operands shall not
        overlap. Member by member, each assignment is of whole members:
        defined."""
        delta = (self.dst_off - self.src_off) * self.record_bytes + shift
        return self.assign and not self.restrict and 0 < abs(delta) < self.record_bytes

    def comparison(self, b: Bound) -> tuple[bool, int]:
        """Bound B's comparison as C's usual arithmetic conversions make it:
        whether it is signed, and the value of its End in the comparison's
        type (an int n = -1 compared with an unsigned index is 2^32 - 1)."""
        index = {"(unsigned)": "unsigned", "(int)": "int", "(long)": "long", "(size_t)": "size_t"}.get(
            b.cast, self.indexes[b.index])
        isigned, ibits = index in ("int", "long"), INDEX_BITS[index]
        esigned, ebits = PARAM_TYPES[b.ctype]
        # (the generator compares no 32-bit index with a 64-bit End)
        signed = isigned and esigned if ibits == ebits else isigned
        bits = max(ibits, ebits)
        value = b.value & ((1 << ebits) - 1)
        if esigned and value >> (ebits - 1):
            value -= 1 << ebits  # the End's own value
        value &= (1 << bits) - 1  # extended (by its own signedness) to the comparison's width
        if signed and value >> (bits - 1):
            value -= 1 << bits
        return signed, value

    def wide_unsigned_end(self) -> bool:
        """Whether a 64-bit unsigned comparison's End (n, or n + 1 for `<=`)
        is 2^63 or more: n = 2^64 - 1, 2^63, or a long n = -1 compared with
        a size_t index. The region copy's rewrite reads End minus the row's
        first index as a signed count (RegionCopyEmitter::activeLeft: smin
        and smax in i64), negative there, and the rows where it is copy
        nothing where the original copies every element
        (tests/test_flat_variant_fuzz.py: a known failure)."""
        ends = zip(self.bounds, map(self.comparison, self.bounds))
        return any(not signed and value + b.inclusive >= 1 << 63 for b, (signed, value) in ends)

    def negative_signed_bound(self) -> bool:
        """Whether a signed comparison's End is negative (its clamp at 0
        matters)."""
        return any(s and v < 0 for s, v in map(self.comparison, self.bounds))

    def folds_negative_before_unsigned(self) -> bool:
        """Whether the kernel has a signed comparison whose End is negative
        and an unsigned one whose End is above 0: the bug's combination
        (which of them the pass folds first, and whether the kernel is flat
        at all, the pass decides)."""
        ends = list(map(self.comparison, self.bounds))
        return any(s and v < 0 for s, v in ends) and any(not s and v > 0 for s, v in ends)


def _value(rng: np.random.Generator, ctype: str, t: int, threads: int) -> int:
    """A run-time value for a bound parameter of type CTYPE on a grid of T
    threads (THREADS of them the launch's n)."""
    signed, bits = PARAM_TYPES[ctype]
    inside = [1, 5, 127, 300, threads - 1, threads, t - 1, (t * 2) // 3]
    above = [t, t + 1, 1024, 5000]
    if signed and rng.random() < 0.45:
        limit = INT_MIN if bits == 32 else LONG_MIN
        return int(rng.choice([-1, -1, -2, -1000, limit, limit + 1] + ([INT_MIN] if bits == 64 else [])))
    kind = rng.choice(4, p=[0.08, 0.5, 0.27, 0.15])
    if kind == 0:
        return 0
    if kind == 1:
        return int(rng.choice(inside))
    if kind == 2:
        return int(rng.choice(above))
    if signed:
        return int(rng.choice([INT_MAX, INT_MAX - 1] if bits == 32 else [LONG_MAX, INT_MAX, 1 << 32]))
    return int(rng.choice([(1 << 32) - 1, 1 << 31, (1 << 32) - 2] if bits == 32
                          else [(1 << 64) - 1, 1 << 63, (1 << 32) - 1, 1 << 32]))


def _draw(rng: np.random.Generator, name: str, many: bool) -> FlatKernel:
    """A kernel of 0 or 1 bound, or (MANY) of 2 or 3."""
    record = str(rng.choice(list(RECORDS), p=[0.45, 0.15, 0.1, 0.1, 0.1, 0.1]))
    count = RECORDS[record][1]
    block = int(rng.choice(BLOCKS))
    block_y = 2 if block <= 128 and rng.random() < 0.08 else 1
    if block_y > 1:
        block = 32
    threads = int(rng.choice([1000, 1000, 1024, 700, 513, 900]))
    if block == 32:
        threads = 500  # a 32x2 block: 16 blocks in x
    nbounds = int(rng.choice([2, 3], p=[0.7, 0.3]) if many else rng.choice([0, 1], p=[0.15, 0.85]))
    main = str(rng.choice(list(INDEX_DECL), p=[0.4, 0.25, 0.15, 0.2]))
    fresh = nbounds >= 2 and rng.random() < 0.5
    indexes = [main]
    bounds: list[Bound] = []
    k = FlatKernel(name=name, record=record, assign=bool(rng.random() < 0.35),
                   order=tuple(int(m) for m in (rng.permutation(count) if rng.random() < 0.25 else range(count))),
                   restrict=bool(rng.random() < 0.3),
                   dst_off=int(rng.choice([1, 2, 4])) if rng.random() < 0.08 else 0,
                   src_off=int(rng.choice([1, 3, 8])) if rng.random() < 0.08 else 0,
                   indexes=indexes, copy_index=0, bounds=bounds, form=str(rng.choice(FORMS, p=[0.3, 0.25, 0.3, 0.15])),
                   block=block, block_y=block_y, threads=threads, fresh=fresh)
    t = k.gids
    for b in range(nbounds):
        index = 0
        if fresh and b > 0:
            # mostly of the other width than the bound before (-O3 merges
            # two indexes of one width, and joins their bounds into one
            # `and`: no flat copy)
            before = INDEX_BITS[indexes[-1]]
            width = (96 - before) if rng.random() < 0.8 else before
            indexes.append(str(rng.choice([ty for ty, w in INDEX_BITS.items() if w == width])))
            index = len(indexes) - 1
        # a bound of the index's own width (a 32-bit index compared with a
        # 64-bit bound is widened: "mixes integer widths", no rewrite; a
        # 64-bit index with a 32-bit bound keeps the block loop: the bound
        # is an extension, not a parameter); of its own signedness as
        # often as not
        bits = INDEX_BITS[indexes[index]]
        own = {"int": "int", "unsigned": "unsigned", "long": "long", "size_t": "unsigned long"}[indexes[index]]
        ctype = own if rng.random() < 0.4 else str(rng.choice(
            ["int", "unsigned"] if bits == 32 else list(PARAM_TYPES),
            p=None if bits == 32 else [0.1, 0.1, 0.4, 0.4] if many else [0.03, 0.03, 0.47, 0.47]))
        kind = "const" if rng.random() < 0.15 else "param"
        # (`<=` on 64 bits keeps the block loop: End + 1 could wrap)
        inclusive = bool(rng.random() < (0.3 if bits == 32 else 0.12 if many else 0.04))
        bound = Bound(kind=kind, ctype=ctype, inclusive=inclusive, swapped=bool(rng.random() < 0.2),
                      index=index, cast=str(rng.choice(INDEX_CASTS[bits])) if rng.random() < 0.1 else "",
                      name=f"n{b}")
        if kind == "const":
            bound.value = int(rng.choice([100, 300, 999, 1000, 1024, 3000]))
        else:
            bound.value = _value(rng, ctype, t, threads)
        bounds.append(bound)
    if fresh:
        k.copy_index = bounds[-1].index
        k.form = "nested"
    return k


def random_kernels(seed: int, count: int) -> list[FlatKernel]:
    """COUNT kernels, named fv<SEED>_<i>, drawn from SEED alone."""
    rng = np.random.default_rng([seed, 7919])
    # every other kernel has 2 or 3 bounds (-O3 keeps most of them a block
    # loop), the others 0 or 1 (flat at both levels but for a few): each
    # batch's share of flat kernels at -O3 stays near its mean (about 60%)
    return [_draw(rng, f"fv{seed}_{i}", many=i % 2 == 1) for i in range(count)]


def module_source(kernels: list[FlatKernel]) -> str:
    """One .cu file of KERNELS."""
    return prelude() + "".join(k.source() for k in kernels)


def module_spec(kernels: list[FlatKernel]) -> str:
    """Its launch spec (each kernel's own grid and values: the size n is
    unused)."""
    return "sizes = [1]\n\n" + "\n".join(k.spec() for k in kernels)
