"""Random kernels for the staging rewrite (issue 12): computations on
array-of-structs elements that COALDA may stage through a shared-memory tile.

Each kernel owns one element per thread of an `out` array of a random struct
(4-, 8- and 2-byte members in random order) and does one of:

- `store`: writes every member from SoA inputs (staged: stores only);
- `rmw`: updates every member from its own value (staged: load + store);
- `axpy`: updates every member from a read-only AoS `x` at the same index
  (two arrays share the plan);
- `partial`: writes only some members (every other one, from SoA inputs or,
  `partial_rmw`, from their own values): staged, the store phase writing
  back only the written members; half of those (`alias_write`) also write
  an unwritten member of the neighbour element `i ^ 1` through `out` after
  the first member's store, which a tile written back whole would undo (no
  other generator made a kernel that tells a masked store phase from a
  whole one);

sometimes with branches between the member accesses (`branch`: a
full-precision sinf, expf, logf, powf or atan2f, whose slow paths branch and
loop beside the accesses; a loop of data-dependent length; a conditional
read of the thread's own element: the accesses then span several blocks
that every thread runs once, which the staging takes as one region),
often through a function of CUDA's math library that stays free of
branches at -O3 (sqrtf, __expf, rintf, __fdividef, __sinf, __logf, rsqrtf,
directed-rounding intrinsics, conversions: the emulator runs libdevice,
coalda/emulator/nvvm.py), under a random guard (none, `if (i < n)`, an early return, a non-prefix
`i % 3 != 1`, a row-uniform flag; the bound's other forms, whose blocks
decide go without a vote: `i <= n - 1`, `n > i`, `n - i > 0`, unsigned,
two bounds `i < n && i < n - 37`, a flag that is 0 at run time, an early
return `i >= n || !flag`, a chain of two early returns, `i >= n` then
`threadIdx.y + blockIdx.y * blockDim.y >= flag` (two branches, whose
region's early loads take both tests); an early return on data, `(live[i] & 31) == 3`
after `i >= n`, where no block barrier may go: staged in warp tiles, about
a third of the warps full), with or without `__restrict__` (without
it the oracle also runs the buffers overlapping) and `__launch_bounds__`,
with an index of `i`, `i + k` (shifted) or `2*i` (gaps between elements:
must be left alone), in C's layout or packed (`#pragma pack(1)`: members at
any byte, or `pack(4)`: 8-byte members 4-byte aligned, the layouts whose
declared alignment the row copy's unit once ignored; the oracle's
misaligned layouts then fault on a unit wider than the alignment), or
inside a grid-stride loop instead of the guard (`loop`: an int, unsigned or
size_t index, `i < n` or `i <= n - 1`, a grid of a third of the blocks: the
rows of full iterations are staged, the partial last one runs the original
code; elements of 24 bytes or more in warp tiles, each full warp of each
iteration on its own; a third of the loops' read-modify-writes also read,
through `view = out - stride`, the element the thread had in the last
iteration, which another thread wrote back when that one was staged), and sometimes a write of the thread's element before
(the rows must be loaded after it) or a read of it after (the rows must be
stored before it: another thread stores them), and sometimes, without a
guard (every lane of every warp arrives), a warp collective after the first
member's store (`collective`: a shuffle, a vote or a reduction over the full
warp, into `coll[i]`), half of those followed by a read of a neighbour
lane's first member through `out` (`neighbour`: `i ^ 1`, `i ^ 16`, the next
lane): the collective runs the warp's lanes in step, so the original reads
the neighbour's new member; a tile would hold that store back, so such a
kernel must be left alone (the miscompile adversarial/warp_tiles.cu's
`shfl_orders` found, which no generator made). The emulator runs each before and after under every
layout and schedule; the test checks the bytes and which kernels were staged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MEMBER_TYPES = {"float": 4, "int": 4, "double": 8, "short": 2, "unsigned": 4}
# the floats a computed value is clamped to before it converts to an integer
# member (the largest floats inside each type's range; stage77_8 of the
# campaign converted 35105.0f to short, UB, and the emulator's two builds
# made different poison of it)
INT_RANGE = {"short": ("-32768.0f", "32767.0f"), "int": ("-2147483520.0f", "2147483520.0f"),
             "unsigned": ("0.0f", "4294967040.0f")}
OPS = ("store", "rmw", "axpy", "partial")
GUARDS = ("none", "bounds", "early_return", "non_prefix", "flag", "inclusive", "lane_right", "difference",
          "unsigned", "two_bounds", "flag_off", "early_or")
INDEXES = ("i", "shifted", "gapped")
# branch-free at -O3 (libdevice's full-precision sinf, expf, powf ... branch:
# BRANCHES below)
MATH = (
    "sqrtf(fabsf({v}))", "__expf(fminf({v}, 10.0f))", "rintf({v} * 0.5f)", "__fdividef({v}, 3.0f)",
    "__saturatef({v}) + floorf({v})", "__sinf({v}) * __logf(fabsf({v}) + 1.0f)",
    "(float)__float2int_rn({v}) + __fadd_rz({v}, 0.25f)", "rsqrtf(1.0f + {v} * {v})",
    "fmaxf({v}, -1e4f) + copysignf(1.0f, {v})", "__fmul_rd({v}, 1.5f)",
)

# computations that put branches between the member accesses at -O3
BRANCHES = {
    # sinf's argument kept small: its slow reduction is in the code, but the
    # emulator rarely runs it (random bytes are huge floats)
    "libm": ("sinf(fminf(fabsf({v}), 100.0f))", "expf(fminf({v}, 20.0f))", "logf(fabsf({v}) + 1.0f)",
             "powf(fabsf({v}) + 0.5f, 0.75f)", "atan2f({v}, 1.5f)"),
    "loop": ("wobble({v})",),
    "cond_read": ("({v} + (((int)fminf(fabsf({v}), 7.0f) & 1) ? (float){own} : 0.0f))",),
}
# grid-stride loop heads over element i (GID and STRIDE spelled out)
LOOPS = {
    "int": "for (int i = GID; i < n; i += STRIDE) {",
    "unsigned": "for (unsigned i = GID; i < (unsigned)n; i += STRIDE) {",
    "size_t": "for (size_t i = (size_t)GID; i < (size_t)n; i += (size_t)STRIDE) {",
    "inclusive": "for (int i = GID; i <= n - 1; i += STRIDE) {",
}
# warp collectives over all 32 lanes of the value {v} (a float)
COLLECTIVES = (
    "__shfl_xor_sync(0xffffffffu, {v}, 1)", "__shfl_down_sync(0xffffffffu, {v}, 3)",
    "__shfl_sync(0xffffffffu, {v}, 0)", "(float)__popc(__ballot_sync(0xffffffffu, {v} > 0.0f))",
    "(float)__any_sync(0xffffffffu, {v} > 1.0f)",
    # the builtin, value first: clang 19's __reduce_add_sync passes the mask
    # as the value (llvm-project#131415; the emulator says so)
    "(float)__nvvm_redux_sync_add((int)(__float_as_uint({v}) & 255u), -1)",
)
# another lane of the same warp, as a function of i
NEIGHBOURS = ("i ^ 1", "i ^ 16", "(i & ~31) | ((i + 1) & 31)")
WOBBLE = (
    "__device__ __forceinline__ float wobble(float t) {\n"
    "  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)\n"
    "    t = t * 0.5f + 1.0f;\n"
    "  return t;\n"
    "}\n"
)


@dataclass
class StageKernel:
    name: str
    members: list[tuple[str, str]]  # (type, name)
    op: str
    guard: str
    index: str
    restrict: bool
    bound: int  # __launch_bounds__ x, 0 for none
    block: int
    prologue: bool = False  # the thread writes a member of its element first
    epilogue: bool = False  # and reads one back after (into `sink`)
    pack: int = 0  # #pragma pack(N) around the struct; 0: C's layout
    math: str = ""  # a MATH form applied to every computed value, or none
    branch: str = ""  # a BRANCHES kind applied to the computed values, or none
    branch_form: str = ""
    loop: str = ""  # a LOOPS head around the body instead of the guard, or none
    collective: str = ""  # a COLLECTIVES form after the first member's store, or none
    neighbour: str = ""  # a NEIGHBOURS lane whose first member is read after it, or none
    partial_rmw: bool = False  # `partial` updates its members from their own values
    alias_write: bool = False  # `partial` also writes member 1 of element i ^ 1
    previous: bool = False  # in a loop, member 1 also reads the last iteration's element

    @property
    def struct(self) -> str:
        return f"S_{self.name}"

    def _member_align(self, type_: str) -> int:
        width = MEMBER_TYPES[type_]
        return min(width, self.pack) if self.pack else width

    @property
    def align(self) -> int:
        return max(self._member_align(t) for t, _ in self.members)

    @property
    def size(self) -> int:
        """sizeof the struct, laid out as C does (each member at a multiple
        of its alignment, the end padded to the struct's)."""
        end = 0
        for t, _ in self.members:
            step = self._member_align(t)
            end = -(-end // step) * step + MEMBER_TYPES[t]
        return -(-end // self.align) * self.align

    @property
    def padded(self) -> bool:
        return self.size != sum(MEMBER_TYPES[t] for t, _ in self.members)

    def promise(self) -> bool | None:
        """True: the README promises the staging; False: it must be left
        alone (bytes of the element it never writes: skipped members, tail
        padding, gaps between elements); None: either is right (the cost
        rule decides on the widths -O3 leaves, which may merge 2-byte
        members, or the guard's shape)."""
        if self.neighbour:
            # the prologue's own store, in a block before them, may be staged
            # alone (a store of part of the element, written back masked)
            return None if self.prologue else False
        # gaps between elements: the untouched run of each row decides
        if self.index == "gapped":
            return None
        # a collective between the accesses beside run-time checks: refused
        if self.collective:
            return None
        # in a loop, branches between the accesses spread them over several
        # blocks (staged per iteration only in one): either is right
        if self.loop and self.branch:
            return None
        # the view of the last iteration's element is checked against the
        # thread's own at run time: staged with a vote, or left alone
        if self.previous:
            return None
        if any(t == "short" for t, _ in self.members) or self.guard == "non_prefix" or self.pack:
            return None
        # a read of the thread's own element beside the staged region: it is
        # checked at run time against the element (and always overlaps)
        if self.branch == "cond_read":
            return None
        # `if (i < n) prologue; if (i < n && more)`: -O3 may nest the second
        # test inside the first, a branch not every thread reaches
        if self.prologue and self.guard in ("flag", "flag_off", "two_bounds", "early_chain"):
            return None
        return True

    def expects_uniform_go(self) -> bool:
        """Staged, the block decides go without a vote: its guard bounds the
        lane index (with uniform flags) and its only other accesses, x[i]
        beside out[i], share out's index (a store's inputs are 4 bytes a
        lane against out's element: per-thread checks unless __restrict__;
        the epilogue's sink[i] may join the region at -O3)."""
        if self.loop or self.expects_warp_tiles() is not False:  # the iteration's row; a warp's ballot
            return False
        guarded = self.guard not in ("none", "non_prefix")
        inputs = self.op in ("rmw", "axpy") or (self.op == "store" and self.restrict)
        return guarded and inputs and not self.epilogue and self.branch != "cond_read"

    def expects_warp_tiles(self) -> bool | None:
        """Staged, each full warp on its own: no block barrier may go before
        the accesses (an early return on data), or the element is of 24
        bytes or more (the cost rule: warp tiles measured faster, in
        grid-stride loops too, on each iteration). None: either (after a
        prologue's `if (i < n)`, -O3 may nest a guard with more tests inside
        it, where not every thread arrives: warp tiles; and where the
        accesses may be left alone, the prologue's own store, staged alone,
        has its own tile)."""
        if self.prologue and not self.loop and (
                self.guard in ("flag", "flag_off", "two_bounds", "non_prefix", "early_chain")
                or self.promise() is not True):
            return None
        stride = 2 * self.size if self.index == "gapped" else self.size
        return (self.guard == "data_exit" and not self.loop) or stride >= 24

    def source(self) -> str:
        r = "__restrict__ " if self.restrict else ""
        fields = " ".join(f"{t} {m};" for t, m in self.members)
        lines = [f"struct {self.struct} {{ {fields} }};"]
        if self.branch == "loop":
            lines.append(f"#ifndef WOBBLE\n#define WOBBLE\n{WOBBLE}#endif")
        if self.pack:
            lines = [f"#pragma pack(push, {self.pack})", *lines, "#pragma pack(pop)"]
        bounds = f"__launch_bounds__({self.bound}) " if self.bound else ""
        params = [f"{self.struct} *{r}out"]
        if self.op == "store" or self.op == "partial":
            params += [f"const float *{r}in{k}" for k in range(len(self.members))]
        if self.op == "axpy":
            params.append(f"const {self.struct} *{r}x")
        if self.epilogue:
            params.append(f"float *{r}sink")
        if self.guard == "data_exit":
            params.append(f"const unsigned char *{r}live")
        if self.collective:
            params.append(f"float *{r}coll")
        params += ["int n", "int flag"]
        lines.append(f"__global__ void {bounds}{self.name}({', '.join(params)}) {{")
        if not self.loop:
            lines.append("  int i = blockIdx.x * blockDim.x + threadIdx.x;")
        idx = {"i": "i", "shifted": "i + 1", "gapped": "2 * i"}[self.index]
        first_type, first = self.members[0]
        if self.prologue and not self.loop:
            lines.append(f"  if (i < n) out[{idx}].{first} = ({first_type})(flag + 7);")
        body: list[str] = []
        for k, (t, m) in enumerate(self.members):
            if self.op == "partial" and k % 2 == 1:
                continue
            if self.op in ("store", "partial") and not self.partial_rmw:
                value = f"in{k}[i] * 3.0f + {k}"
            elif self.op in ("rmw", "partial"):
                value = f"out[{idx}].{m} * 2 + {k + 1}"
            else:
                value = f"x[{idx}].{m} * 3 + out[{idx}].{m}"
            if k == 1 and self.previous:
                value = f"{value} + (float)view[{idx}].{first}"
            if self.math:
                value = self.math.format(v=f"(float)({value})")
            if self.branch and (self.branch != "cond_read" or k == 0):
                own = f"out[{idx}].{self.members[-1][1]}"
                value = self.branch_form.format(v=f"(float)({value})", own=own)
            if (self.math or self.branch) and t in INT_RANGE:
                # a float out of the integer's range converts to poison (UB
                # in C): clamped, or the two builds' poison may differ
                low, high = INT_RANGE[t]
                value = f"fminf(fmaxf({value}, {low}), {high})"
            value = f"({t})({value})"
            body.append(f"out[{idx}].{m} = {value};")
            if k == 0 and self.alias_write:
                t1, m1 = self.members[1]
                other = idx.replace("i", "(i ^ 1)")
                body.append(f"out[{other}].{m1} = ({t1})(out[{idx}].{m} + 1);")
            if k == 0 and self.collective:
                body.append(f"float c = {self.collective.format(v=f'(float)out[{idx}].{m}')};")
                seen = f" + (float)out[{idx.replace('i', f'({self.neighbour})')}].{m}" if self.neighbour else ""
                body.append(f"coll[i] = c{seen};")
        guard = {
            "none": None, "bounds": "i < n", "early_return": None, "non_prefix": "i < n && i % 3 != 1",
            "flag": "i < n && flag", "inclusive": "i <= n - 1", "lane_right": "n > i", "difference": "n - i > 0",
            "unsigned": "(unsigned)i < (unsigned)n", "two_bounds": "i < n && i < n - 37", "flag_off": "i < n && flag",
            "early_or": None, "early_chain": None, "data_exit": None,
        }[self.guard]
        if self.loop:
            head = LOOPS[self.loop]
            if self.previous:
                # view[i] is out[i - STRIDE]: the element this thread had in
                # the last iteration (the loop starts one iteration late)
                lines.append(f"  const {self.struct} *view = out - blockDim.x * gridDim.x;")
                head = head.replace("GID", "(GID + STRIDE)")
            head = head.replace("GID", "blockIdx.x * blockDim.x + threadIdx.x")
            lines.append("  " + head.replace("STRIDE", "blockDim.x * gridDim.x"))
            if self.prologue:
                lines.append(f"    out[{idx}].{first} = ({first_type})(flag + 7);")
            lines += [f"    {b}" for b in body]
            if self.epilogue:
                lines.append(f"    sink[i] = (float)out[{idx}].{self.members[-1][1]};")
            lines += ["  }", "}"]
            return "\n".join(lines) + "\n"
        if self.guard == "early_return":
            lines.append("  if (i >= n) return;")
        if self.guard == "early_or":
            lines.append("  if (i >= n || !flag) return;")
        if self.guard == "early_chain":  # clang keeps the two branches
            lines.append("  if (i >= n) return;")
            lines.append("  if (threadIdx.y + blockIdx.y * blockDim.y >= flag) return;")
        if self.guard == "data_exit":
            lines.append("  if (i >= n) return;")
            lines.append("  if ((live[i] & 31) == 3) return;")
        if guard:
            lines.append(f"  if ({guard}) {{")
            lines += [f"    {b}" for b in body]
            lines.append("  }")
        else:
            lines += [f"  {b}" for b in body]
        if self.epilogue:
            lines.append(f"  if (i < n) sink[i] = (float)out[{idx}].{self.members[-1][1]};")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def spec(self) -> str:
        """The launch spec (TOML) of the kernel. Without a guard the grid
        covers n threads exactly (the sizes are multiples of the block)."""
        span = {"i": "n", "shifted": "(n + 1)", "gapped": "(2 * n)"}[self.index]
        # a packed struct's (or a struct of shorts') arrays at its own
        # (smaller) alignment, the float arrays beside them at 4
        narrow = self.pack or self.align < 4
        own = f", align = {self.align}" if narrow else ""
        params = [f'{{ name = "out", inout = "{self.size}*{span}"{own} }}']
        if self.op in ("store", "partial"):
            params += [f'{{ name = "in{k}", in = "4*n" }}' for k in range(len(self.members))]
        if self.op == "axpy":
            params.append(f'{{ name = "x", in = "{self.size}*{span}"{own} }}')
        if self.epilogue:
            params.append('{ name = "sink", out = "4*n" }')
        if self.guard == "data_exit":
            params.append('{ name = "live", in = "n" }')
        if self.collective:
            params.append('{ name = "coll", out = "4*n" }')
        flag = 0 if self.guard == "flag_off" else 1
        params += ['{ name = "n", value = "n" }', f'{{ name = "flag", value = "{flag}" }}']
        grid = '"n // block"' if self.guard == "none" else '"cdiv(n, block)"'
        if self.loop:  # each block walks about three rows
            grid = '"cdiv(n, block) // 3 + 1"'
        align = max(self.align, 4) if narrow else self.align
        return (f"[kernels.{self.name}]\nblock = {self.block}\ngrid = {grid}\nalign = {align}\n"
                f"params = [{', '.join(params)}]\n")


def _members(rng: np.random.Generator) -> list[tuple[str, str]]:
    """2-5 members, sorted by decreasing size (padding only at the end)."""
    count = int(rng.integers(2, 6))
    pool = list(MEMBER_TYPES)
    weights = np.array([4, 2, 2, 1, 1], dtype=float)
    types = [str(t) for t in rng.choice(pool, size=count, p=weights / weights.sum())]
    types.sort(key=lambda t: -MEMBER_TYPES[t])
    # Mostly fill the tail padding with members (a padded element is never
    # written whole, so it is left alone: keep some of those too).
    align = max(MEMBER_TYPES[t] for t in types)
    pad = -sum(MEMBER_TYPES[t] for t in types) % align
    if pad and rng.random() < 0.75:
        types += ["float"] * (pad // 4) + ["short"] * (pad % 4 // 2)
        types.sort(key=lambda t: -MEMBER_TYPES[t])
    return [(t, f"m{k}") for k, t in enumerate(types)]


def random_kernels(seed: int, count: int) -> list[StageKernel]:
    rng = np.random.default_rng(seed)
    math_rng = np.random.default_rng([seed, 1])  # its own stream: the other draws stay as they were
    branch_rng = np.random.default_rng([seed, 2])
    loop_rng = np.random.default_rng([seed, 3])
    warp_rng = np.random.default_rng([seed, 4])
    collective_rng = np.random.default_rng([seed, 5])
    partial_rng = np.random.default_rng([seed, 6])
    previous_rng = np.random.default_rng([seed, 7])
    chain_rng = np.random.default_rng([seed, 8])
    kernels = []
    for k in range(count):
        op = str(rng.choice(OPS, p=[0.3, 0.3, 0.25, 0.15]))
        guard = str(rng.choice(GUARDS))
        index = str(rng.choice(INDEXES, p=[0.75, 0.15, 0.10]))
        block = int(rng.choice([32, 64, 96, 128]))
        bound = int(rng.choice([0, 0, 128])) if block <= 128 else 0
        kernel = StageKernel(f"stage{seed}_{k}", _members(rng), op, guard, index,
                             bool(rng.integers(0, 2)), bound, block,
                             prologue=bool(rng.random() < 0.2), epilogue=bool(rng.random() < 0.3))
        kernel.pack = int(rng.choice([0, 0, 0, 0, 1, 4]))
        kernel.math = str(math_rng.choice(MATH)) if math_rng.random() < 0.4 else ""
        if branch_rng.random() < 0.3:
            kernel.branch = str(branch_rng.choice(list(BRANCHES), p=[0.6, 0.2, 0.2]))
            kernel.branch_form = str(branch_rng.choice(BRANCHES[kernel.branch]))
        if loop_rng.random() < 0.3:
            kernel.loop = str(loop_rng.choice(list(LOOPS)))
            # half the loops' read-modify-writes read a second array too: a
            # product of it before the first staged access, its add after
            # (the split that cost llc its fma: docs/benchmarks.md)
            if kernel.op == "rmw" and loop_rng.random() < 0.5:
                kernel.op = "axpy"
            # a third of those read through a view the element the thread
            # wrote back in the last iteration (another thread stored its
            # row: the miscompile adversarial/early_loads.cu's
            # grid_stride_prev found, when that iteration ran the original)
            kernel.previous = (kernel.op in ("rmw", "axpy") and kernel.index != "gapped"
                               and len(kernel.members) >= 2 and previous_rng.random() < 0.35)
        elif warp_rng.random() < 0.2:
            kernel.guard = "data_exit"
        elif collective_rng.random() < 0.15:
            # every lane of every warp reaches the collective: no guard, the
            # grid covers n exactly (a multiple of the block)
            kernel.guard = "none"
            kernel.collective = str(collective_rng.choice(COLLECTIVES))
            if collective_rng.random() < 0.5:
                kernel.neighbour = str(collective_rng.choice(NEIGHBOURS))
        # half the early returns outside loops are a chain of two
        if kernel.guard == "early_return" and not kernel.loop and chain_rng.random() < 0.5:
            kernel.guard = "early_chain"
        if kernel.op == "partial":
            kernel.partial_rmw = bool(partial_rng.random() < 0.5)
            # member 1 (another thread's to write) is never read: not the
            # epilogue's or cond_read's last member, nor a neighbour's
            kernel.alias_write = (partial_rng.random() < 0.5 and not kernel.epilogue
                                  and not kernel.collective and kernel.branch != "cond_read")
        kernels.append(kernel)
    return kernels
