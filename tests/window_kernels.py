"""Random kernels for chunk windows (issue 12's run-time chunks): each thread
walks its own chunk of C elements, C a kernel argument, in a loop that also
stores to global memory, so COALDA may read the chunk through a
shared-memory window.

Each kernel varies:

- the element: float, int, double, or a 16-byte float4;
- C: from 10 to 70 elements, sometimes below the run-time cost rule's 80
  bytes (the block then runs the original loop: both paths are checked);
- the loop: `k` from 0 or 1 to C or C-1, step 1 or 2, and which chunk
  elements it reads (`k`, `k+1`, `k-1`: two loads sharing the window);
- where the first load is: in the body, or in the loop's header before the
  exit test (`for (k = 0; (v = in[p*C + k], k < C); k++)`: it runs once
  more than the body, reading up to two elements past the chunk, and its
  last value is kept in `last[p]`);
- what it stores: a coalesced column `out[k*n + p]`, the chunk of another
  array `out[p*C + k]` (strided too), or the chunk itself in place
  (`a[p*C + k] = ...`: the window must see the thread's own stores), or
  nothing in the loop (a reduction, `out[p]` after it: read-only loops take
  the window only when their rows are a multiple of 128 bytes, so C is then
  mostly such a multiple; C is an argument, so the tests optimize with
  -coalda-window-read-only=runtime);
- whether the loads sit in the arms of a uniform branch (`k % 3 == 0`, as
  dslash's `k == 0` picks mult_su3_mat_vec or its `_sum` form): both arms
  reading the same elements in another order (every arm load windowed: the
  element is read whichever way the iteration goes), or one arm reading
  the second element only (that load is not read on every iteration and
  stays where it is; the tests ask for such windows with
  -coalda-window-arms, which the cost rule leaves off by default);
- the row length's type: an int, or (a quarter) an int plus an unsigned
  char of 200 (rows of 276 to 300 elements), which a vote that
  sign-extends it reads as 256 elements shorter and still windows;
- the index type (int or size_t), the guard (none with an exact grid,
  `if (p < n)`, an early return), `__restrict__` or not (without it the
  oracle also runs the buffers overlapping, where every store may write the
  chunk: write-through), and the block size (32 to 160, not always a power
  of two; the last block is partial where the guard allows).

The emulator runs each before and after under every layout and schedule;
the test checks the bytes and that every kernel (its loop stores) is
windowed at -O3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ELEMENTS = {"float": 4, "int": 4, "double": 8, "float4": 16}
STORES = ("column", "other_chunk", "in_place", "sum")
READS = ("k", "k_next", "k_prev")
GUARDS = ("none", "bounds", "early_return")
SHAPES = ("body", "header")
BRANCHES = ("none", "same", "one_sided")
# An unsigned char part of the row length, 200: read as a signed char it is
# -56, so a row of C >= 276 elements is still over the 80-byte rule when
# its length is misread (the vote once sign-extended it: records_break.cu's
# uchar_stride).
NARROW_EXTRA = 200


@dataclass
class WindowKernel:
    name: str
    element: str
    length: int  # C, passed at run time
    start: int  # first k
    step: int
    reads: str
    store: str
    index: str  # "int" or "size_t"
    guard: str
    restrict: bool
    block: int
    shape: str = "body"  # where the first load is: "body" or "header"
    branch: str = "none"  # loads in the arms of a uniform branch (BRANCHES)
    narrow: bool = False  # len = base + an unsigned char extra of 200

    @property
    def width(self) -> int:
        return ELEMENTS[self.element]

    def _end(self) -> str:
        return "len - 1" if self.reads == "k_next" else "len"

    def _value(self, ptr: str, at: str) -> str:
        """An expression of the element type from the chunk element `at`."""
        if self.element == "float4":
            # every member through arithmetic: a float copied without any
            # keeps a signaling NaN (random bytes) on the GPU, but the
            # emulator's x86 code may quiet it on one path and not another
            return (f"make_float4({ptr}[{at}].x * 2.f, {ptr}[{at}].y + 1.f, {ptr}[{at}].z * 0.5f, "
                    f"{ptr}[{at}].w - 3.f)")
        return f"({self.element})({ptr}[{at}] * 3 + 1)"

    def _combine(self, a: str, b: str) -> str:
        """a and b combined: a sum (the emulator gives float arithmetic's NaN
        results the GPU's canonical NaN, so random bytes may make both NaN)."""
        if self.element == "float4":
            return f"make_float4({a}.x + {b}.y, {a}.y, {b}.z, {a}.w)"
        return f"({a} + {b})"

    def _perturbed(self, x: str) -> str:
        """x changed by an operation the other arm does not end with: doubled
        (a float4's first member), or an int xor-ed (int arithmetic
        reassociates: a doubled sum becomes the other arm's sum again)."""
        if self.element == "float4":
            return f"make_float4({x}.x * 2.f, {x}.y, {x}.z, {x}.w)"
        if self.element == "int":
            return f"({x} ^ 0x5a5a)"
        return f"({x} * ({self.element})2)"

    def source(self) -> str:
        t, r = self.element, " __restrict__" if self.restrict else ""
        idx = self.index
        chunk = f"({idx})p * len"
        src = "a" if self.store == "in_place" else "in"
        params = (f"{t} *{r} a" if self.store == "in_place"
                  else f"{t} *{r} out, const {t} *{r} in")
        if self.shape == "header":
            params += f", {t} *{r} last"
        length = "int base, unsigned char extra" if self.narrow else "int len"
        lines = [f"__global__ void {self.name}({params}, int n, {length}) {{",
                 "  int p = blockIdx.x * blockDim.x + threadIdx.x;"]
        if self.narrow:
            lines.append("  int len = base + extra;")
        if self.guard == "early_return":
            lines.append("  if (p >= n)\n    return;")
        first = self._value(src, f"{chunk} + k")
        second = {"k_next": self._value(src, f"{chunk} + k + 1"),
                  "k_prev": self._value(src, f"{chunk} + k - 1")}.get(self.reads)
        body = [] if self.shape == "header" else [f"    {t} v = {first};"]
        if second:
            body.append(f"    v = {self._combine('v', second)};")
        if self.branch != "none" and self.shape == "body":
            # the other arm: the same elements the other way round, or
            # (one_sided) the first element alone; perturbed, so that -O3
            # cannot sink the two arms' loads into one load of a selected
            # address (an address the analysis does not read)
            other = self._perturbed(self._combine(second, first) if second and self.branch == "same"
                                     else self._combine(first, first))
            body = [f"    {t} v;", "    if (k % 3 == 0) {", *("  " + line.replace(f"{t} v =", "v =") for line in body),
                    "    } else {", f"      v = {other};", "    }"]
        if self.store == "sum":
            body.append(f"    acc = {self._combine('acc', 'v')};")
        elif self.store == "column":
            body.append(f"    out[({idx})k * n + p] = v;")
        elif self.store == "other_chunk":
            body.append(f"    out[{chunk} + k] = v;")
        else:
            body.append(f"    a[{chunk} + k] = v;")
        start = max(self.start, 1) if self.reads == "k_prev" else self.start
        if self.shape == "header":
            loop = [f"  {t} v;", "  int k;",
                    f"  for (k = {start}; (v = {first}, k < {self._end()}); k += {self.step}) {{", *body, "  }",
                    "  last[p] = v;"]
        else:
            loop = [f"  for (int k = {start}; k < {self._end()}; k += {self.step}) {{", *body, "  }"]
        if self.store == "sum":
            zero = "make_float4(0.f, 0.f, 0.f, 0.f)" if t == "float4" else f"({t})0"
            loop = [f"  {t} acc = {zero};", *loop, "  out[p] = acc;"]
        if self.guard == "bounds":
            loop = ["  if (p < n) {", *("  " + line for line in loop), "  }"]
        return "\n".join(lines + loop + ["}", ""]) + "\n"

    def spec(self) -> str:
        grid = "n // block" if self.guard == "none" else "cdiv(n, block)"
        w, c = self.width, self.length
        chunk_bytes = f"{w * c}*n"
        if self.store == "in_place":
            params = [f'{{ name = "a", inout = "{chunk_bytes}" }}']
        else:
            # a column of len elements per thread, or a chunk; a sum's one
            out = f"{w}*n" if self.store == "sum" else chunk_bytes
            # the header's load reads up to two elements past the last chunk
            extra = f"+{2 * w}" if self.shape == "header" else ""
            params = [f'{{ name = "out", out = "{out}" }}', f'{{ name = "in", in = "{chunk_bytes}{extra}" }}']
            if self.shape == "header":
                params.append(f'{{ name = "last", out = "{w}*n" }}')
        # without a guard the grid must cover n exactly: n is a multiple of
        # the block there
        n = f"n // {self.block} * {self.block}" if self.guard == "none" else "n"
        if self.narrow:
            params += [f'{{ name = "n", value = "{n}" }}', f'{{ name = "base", value = "{c - NARROW_EXTRA}" }}',
                       f'{{ name = "extra", value = "{NARROW_EXTRA}" }}']
        else:
            params += [f'{{ name = "n", value = "{n}" }}', f'{{ name = "len", value = "{c}" }}']
        return (f"[kernels.{self.name}]\nblock = {self.block}\ngrid = \"{grid}\"\n"
                f"align = {min(w, 16)}\nparams = [{', '.join(params)}]\n")

    def promise(self) -> bool:
        """Windowed at -O3: every kernel's loop stores to global memory."""
        return True


def random_kernels(seed: int, count: int) -> list[WindowKernel]:
    rng = np.random.default_rng(seed + 7919)
    # the loop's shape from its own stream, so that a seed's other choices
    # stay what they were before shapes were drawn
    shapes = np.random.default_rng(seed + 104729)
    branches = np.random.default_rng(seed + 15485863)
    narrows = np.random.default_rng(seed + 32452843)
    kernels = []
    for i in range(count):
        element = str(rng.choice(list(ELEMENTS), p=[0.4, 0.2, 0.25, 0.15]))
        kernels.append(WindowKernel(
            name=f"w{seed}_{i}", element=element, length=int(rng.integers(10, 71)),
            start=int(rng.choice([0, 0, 1])), step=int(rng.choice([1, 1, 1, 2])),
            reads=str(rng.choice(READS, p=[0.5, 0.25, 0.25])), store=str(rng.choice(STORES[:3], p=[0.4, 0.3, 0.3])),
            index=str(rng.choice(["int", "size_t"])), guard=str(rng.choice(GUARDS)),
            restrict=bool(rng.random() < 0.3), block=int(rng.choice([32, 64, 96, 128, 160]))))
        # in place, the header's extra load would read the next thread's
        # chunk while that thread writes it (a race in the original)
        shape = str(shapes.choice(SHAPES))
        if kernels[-1].store != "in_place":
            kernels[-1].shape = shape
        # a quarter are reductions, mostly with rows a multiple of 128
        # bytes (C from 1 to 4 such rows: the window) and else C as drawn
        # (the block skips the vote and runs the original loop)
        # a third put the loads in the arms of a uniform branch (their own
        # stream again); not float4s, whose arms read each member they use
        # (other members in each arm: no element read on every iteration)
        branch = str(branches.choice(BRANCHES[1:]))
        if branches.random() < 1 / 3 and element != "float4":
            kernels[-1].branch = branch
        if shapes.random() < 0.25 and kernels[-1].store != "in_place":
            kernels[-1].store = "sum"
            per_128 = 128 // kernels[-1].width
            if shapes.random() < 0.7:
                kernels[-1].length = per_128 * int(shapes.integers(1, 5 if per_128 < 32 else 3))
        # a quarter take their row length as int + unsigned char (their own
        # stream, drawn last: a seed's other kernels stay as they were):
        # long rows, whose misread length still takes the window
        if narrows.random() < 0.25 and kernels[-1].store != "sum":
            kernels[-1].narrow = True
            kernels[-1].length = int(narrows.integers(276, 301))
    return kernels
