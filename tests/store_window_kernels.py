"""Random kernels for store windows (-coalda-window-stores): a loop that a
chunk window takes for its loads, `for (j = 0; j < len; j++) ... src[i*S +
j]`, whose stores `dest[i*D + P*j + m] = f(...)` write each iteration's
record of the thread's own row of another array (softmax's output pass).
With the option, each thread writes its record into its row of a shared
tile, and each warp flushes its 32 rows in coalesced units between
__syncwarp()s when the next record would not fit and when the loop exits.

Each kernel varies what changes the emitted code or the decision:

- the loads' element (float, int, double, float2, float4: one load of
  src[i*S + j] an iteration) and the stores' (float, int, double, float2,
  float4, int4, double2), of another type as often as not;
- the record: P = 1 to 4 stores an iteration, `dest[i*D + P*j + m]` for m
  < P (three floats: a float3-like record), in a random order, written as
  indexes or through a row pointer (`T *drow = dest + i*D; drow[P*j + m]`),
  so a record is 4 to 64 bytes; now and then the loop steps j by 2, the
  record then at `(P/2)*j + m` (P even) or `P*(j >> 1) + m`: still dense;
- the row lengths: S (src's, in elements) an argument, at least 80 bytes
  mostly (shorter ones run the original: the vote's row rule), often not a
  multiple of the window's 32 bytes; dest's row D an argument of its own,
  or the same S (the softmax form, where the record fits it);
- the trip count: 1 to 100 (now and then 0), the loops going to S (the
  whole row) or to a run-time `len` below it, from 0 (or now and then 1);
- the passes over src before the storing loop: none, a max, or a max and a
  sum (softmax's max/sum/write);
- the loop as -O3 leaves it (unrolled by 2 or 4 with a remainder loop
  where the body is small), under `#pragma unroll 1`, or `#pragma unroll
  4`;
- what else touches dest, where a window kept from before or a late flush
  would show: a store to the row's first element before the loops (`pre`),
  a loop reading dest's records before the storing loop (its load window
  then holds them), and after the loop (POSTS) a loop reading them back,
  a loop rewriting them from themselves, a read of the row's last element
  stored into its first, or, after a __syncthreads(), a neighbour's row
  read (thread i ^ 1, or i ^ 32: another warp); a result goes to the
  thread's own row, the element after its records (a buffer of its own
  would overlap other threads' rows in the alias layout);
- the layout of the two arrays, which the spec's parameters decide:
  `separate` (src and dest parameters of their own, `__restrict__` now and
  then; without it the oracle also runs them overlapping, one thread, and
  at one address, the whole grid, so their rows are then as many bytes
  long: each thread touches its own row alone, and the original is
  race-free there too), or one buffer `L *buf` (src's type)
  with run-time offsets `src_off` and `dest_off` in its elements, dest
  cast to its own type (a `char *` buffer with byte offsets is no window:
  its loads "do not step in whole elements"): `in_place` (both 0: each
  thread reads and rewrites its own row, an iteration's stores
  overwriting bytes later iterations read where the record is wider than
  the load), `after` (dest past the end of src: disjoint, but in one
  allocation, so only the run-time check tells), `in_row` (one of the two
  shifted by a few elements inside the thread's own row: the record
  overlaps elements the thread has yet to read, or has read). Race-free in
  each (every thread touches its own row alone, and a neighbour's only
  after a barrier), so every layout compares;
- the index (int `i*S + j` or size_t), the guard (an early return on i >=
  n, an if-block, or none with an exact grid), the block (64 to 512
  threads, whole warps, or now and then not: those blocks run the
  original), and the threads (n: at least one full block, and where a
  guard allows a partial last one, which runs the original);
- a twist (TWISTS, a kernel in four) that breaks one condition of the
  store window: a record with a gap after it (`(P+1)*j + m`: not dense), a
  store skipped on some iterations, the stored array read in the loop (the
  iteration's own record before it is written, or the previous
  iteration's record after it was), a second exit (`if (j == stop)
  break;`, uniform), the row walked backwards. The emulator checks those
  as all others; the test pins what the pass decides.

Values go through arithmetic on every element (floats and doubles read as
their mantissa bits under the exponent of 1, a number in [1, 2): random
bytes would make NaNs and infinities that hide a wrong element; ints
masked to 16 bits), so every byte stored depends on the bytes read.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LOAD_BYTES = {"float": 4, "int": 4, "double": 8, "float2": 8, "float4": 16}
STORE_BYTES = {"float": 4, "int": 4, "double": 8, "float2": 8, "float4": 16, "int4": 16, "double2": 16}
# the scalar a load's element becomes, and its stores' members
ACC = {"float": "float", "float2": "float", "float4": "float", "double": "double", "int": "int"}
MEMBERS = {"float2": ("float", 2), "float4": ("float", 4), "int4": ("int", 4), "double2": ("double", 2)}
LAYOUTS = ("separate", "in_place", "after", "in_row")
GUARDS = ("early_return", "bounds", "none")
UNROLLS = ("free", "one", "four")
# what touches dest after the storing loop
POSTS = ("none", "read_loop", "rmw_loop", "tail", "neighbour")
# what breaks the store window's conditions (TWISTS[0]: nothing)
TWISTS = ("none", "gap", "sometimes", "reread", "reread_prev", "exit", "reverse")
WHOLE_WARPS = (64, 96, 128, 160, 192, 256, 320, 384, 512)
NOT_WARPS = (80, 100, 144, 200, 250)
MIN_ROW = 80  # bytes: shorter rows run the original (-coalda-window-min-row)
MAX_THREADS = 700  # the emulator's time: threads times trip count times passes


@dataclass
class StoreWindowKernel:
    name: str
    load: str  # src's element type
    store: str  # dest's element type
    per: int  # P: stores an iteration
    order: tuple[int, ...]  # the order of the record's stores
    step: int  # j's step in the storing loop
    trip: int  # T: the loops' bound (j < T)
    row: int  # S: src's row, elements
    drow: int  # D: dest's row, elements (== row where shared)
    shared_row: bool  # dest indexed by S too (softmax's dest[i*S + j])
    bound: str  # "row" (j < S, T == S) or "len" (j < len)
    start: int
    passes: int  # loops over src, the storing one included (1 to 3)
    unroll: str
    layout: str
    src_off: int  # bytes (one-buffer layouts)
    dest_off: int
    index: str  # "int" or "size_t"
    guard: str
    restrict: bool
    rowptr: bool  # through row pointers `srow[j]`, `drow[P*j + m]`
    block: int
    threads: int  # n
    twist: str = "none"
    stop: int = 0  # the exit twist's iteration
    pre: bool = False  # a store to the row's first element before the loops
    pre_read: bool = False  # a loop reading dest's records before the storing loop
    post: str = "none"
    lper: int = 1  # Q: src elements an iteration of the storing loop reads (src[Q*j + q])
    dest2: bool = False  # a second stored array, dest2, written as dest is

    @property
    def lw(self) -> int:
        return LOAD_BYTES[self.load]

    @property
    def sw(self) -> int:
        return STORE_BYTES[self.store]

    @property
    def acc(self) -> str:
        return ACC[self.load]

    @property
    def one_buffer(self) -> bool:
        return self.layout != "separate"

    @property
    def aux(self) -> bool:
        """Whether the kernel stores its post's result into its row's
        element after the records (`dest[i*D + span]`: a buffer of its own
        would overlap other threads' rows in the alias layout)."""
        return self.post in ("read_loop", "neighbour")

    @property
    def reads_dest(self) -> bool:
        return self.pre_read or self.post != "none" or self.twist in ("reread", "reread_prev")

    def iterations(self) -> list[int]:
        """The storing loop's j, in order (the exit twist's break aside)."""
        js = list(range(self.start, self.trip, self.step))
        return js[::-1] if self.twist == "reverse" else js

    def record_at(self, j: int) -> int:
        """The dest element (from the row's start) of iteration j's record."""
        if self.twist == "gap":
            return (self.per + 1) * j
        if self.step == 2:
            return self.per // 2 * j if self.per % 2 == 0 else self.per * (j >> 1)
        return self.per * j

    def src_span(self) -> int:
        """Elements of src's row the kernel reads."""
        return max(self.trip * self.lper, self.trip)

    def records_span(self) -> int:
        """Elements of dest's row the storing loop writes (from its row start)."""
        return max([self.record_at(j) + self.per for j in self.iterations()] + [1])

    def span(self) -> int:
        """Elements of dest's row the kernel touches (from its row start)."""
        return self.records_span() + self.aux

    def grid(self) -> int:
        return -(-self.threads // self.block)

    # -- expressions ------------------------------------------------------

    def _num(self, x: str, scalar: str) -> str:
        """A float or double as its mantissa bits under the exponent of 1
        (in [1, 2)); an int masked to 16 bits."""
        if scalar == "float":
            return f"__int_as_float(__float_as_int({x}) & 0x7fffff | 0x3f800000)"
        if scalar == "double":
            return f"__longlong_as_double(__double_as_longlong({x}) & 0xfffffffffffffLL | 0x3ff0000000000000LL)"
        return f"({x} & 0xffff)"

    def _value(self, e: str) -> str:
        """The scalar (of type acc) a loaded element E makes."""
        if self.load == "float2":
            return f"({self._num(f'{e}.x', 'float')} + {self._num(f'{e}.y', 'float')} * 0.5f)"
        if self.load == "float4":
            return (f"({self._num(f'{e}.x', 'float')} + {self._num(f'{e}.y', 'float')} * 0.5f - "
                    f"{self._num(f'{e}.z', 'float')} + {self._num(f'{e}.w', 'float')} * 0.25f)")
        return self._num(e, self.acc)

    def _stored_value(self, e: str) -> str:
        """The scalar (of type acc) a dest element E makes (its first member)."""
        member, _ = MEMBERS.get(self.store, (self.store, 1))
        x = f"{e}.x" if self.store in MEMBERS else e
        return f"({self.acc})({self._num(x, member)})"

    def _scalar(self, kind: str, m: int, t: str = "t", j: str = "j") -> str:
        """Member m of a store's value, of scalar type KIND, from T and J."""
        a = self.acc
        if kind == "int":
            if a == "int":
                return f"({t} * {m + 3} + {j})"
            return f"((int)({t} * ({a}){1024 * (m + 1)}) + {j})"
        if kind == "float":
            return f"((float){t} * {0.5 + 0.25 * m}f + (float)({j} + {m}))"
        return f"((double){t} * {0.75 + 0.5 * m} + (double)({j} - {m}))"

    def _store_value(self, m: int, t: str = "t", j: str = "j") -> str:
        """The value of a record's m-th store."""
        if self.store in MEMBERS:
            member, count = MEMBERS[self.store]
            parts = ", ".join(self._scalar(member, 4 * m + k, t, j) for k in range(count))
            return f"make_{self.store}({parts})"
        return self._scalar(self.store, m, t, j)

    def _row_start(self, rows: str, i: str = "i") -> str:
        return f"(size_t){i} * {rows}" if self.index == "size_t" else f"{i} * {rows}"

    def _src(self, j: str) -> str:
        return f"srow[{j}]" if self.rowptr else f"src[{self._row_start('S')} + {j}]"

    def _drows(self) -> str:
        return "S" if self.shared_row else "D"

    def _dest(self, at: str) -> str:
        return f"drow[{at}]" if self.rowptr else f"dest[{self._row_start(self._drows())} + {at}]"

    def _record(self, j: str, m: int = 0) -> str:
        """The C index (from the row's start) of iteration J's m-th store."""
        if self.twist == "gap":
            at = f"{self.per + 1} * {j}"
        elif self.step == 2 and self.per % 2 == 0:
            at = j if self.per == 2 else f"{self.per // 2} * {j}"
        elif self.step == 2:
            at = f"({j} >> 1)" if self.per == 1 else f"{self.per} * ({j} >> 1)"
        else:
            at = j if self.per == 1 else f"{self.per} * {j}"
        return at + (f" + {m}" if m else "")

    def _end(self) -> str:
        return "S" if self.bound == "row" else "len"

    def _head(self, step: int | None = None) -> str:
        """The storing loop's header (and the dest loops', which walk its
        records in the same order)."""
        end, step = self._end(), self.step if step is None else step
        inc = "j++" if step == 1 else f"j += {step}"
        if self.twist == "reverse":
            return f"  for (int j = {end} - 1; j >= {self.start}; j--) {{"
        return f"  for (int j = {self.start}; j < {end}; {inc}) {{"

    def source(self) -> str:
        a, t, ld, r = self.acc, self.store, self.load, " __restrict__" if self.restrict else ""
        if self.one_buffer:
            params = f"{ld} *buf, int src_off, int dest_off"
        else:
            params = f"{t} *{r} dest, const {ld} *{r} src"
            if self.dest2:
                params += f", {t} *{r} dest2"
        params += ", int n, int S"
        if not self.shared_row:
            params += ", int D"
        if self.bound == "len":
            params += ", int len"
        if self.twist == "exit":
            params += ", int stop"
        lines = [f"__global__ void {self.name}({params}) {{",
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;"]
        if self.one_buffer:
            dest = "buf + dest_off" if t == ld else f"({t} *)(buf + dest_off)"
            lines += [f"  const {ld} *src = buf + src_off;", f"  {t} *dest = {dest};"]
        if self.guard == "early_return":
            lines.append("  if (i >= n)\n    return;")
        body: list[str] = []
        if self.rowptr:
            body += [f"  const {ld} *srow = src + {self._row_start('S')};",
                     f"  {t} *drow = dest + {self._row_start(self._drows())};"]
            if self.dest2:
                body.append(f"  {t} *d2row = dest2 + {self._row_start(self._drows())};")
        end = self._end()
        if self.pre:
            body.append(f"  {self._dest('0')} = {self._store_value(0, '1', '7')};")
        if self.passes >= 2:
            big = {"float": "fmaxf", "double": "fmax", "int": "max"}[a]
            body += [f"  {a} mx = ({a})0;",
                     f"  for (int j = 0; j < {end}; j++)",
                     f"    mx = {big}(mx, {self._value(self._src('j'))});"]
        if self.passes >= 3:
            term = "(v ^ j)" if a == "int" else "v * v"
            body += [f"  {a} sum = ({a})1;",
                     f"  for (int j = 0; j < {end}; j++) {{",
                     f"    {a} v = {self._value(self._src('j'))};",
                     f"    sum += {term};",
                     "  }"]
        if self.pre_read:
            body += [f"  {a} before = ({a})0;", self._head(),
                     f"    before += {self._stored_value(self._dest(self._record('j')))};", "  }"]
        value = "v"
        if self.passes == 2:
            value = "v - mx"
        elif self.passes == 3:
            value = "(v - mx) * 3 + sum" if a == "int" else "(v - mx) / sum"
        if self.pre_read:
            value = f"({value}) + before" if a == "int" else f"({value}) + before * ({a})0.125"
        loop = []
        if self.twist == "exit":
            loop.append("    if (j == stop)\n      break;")
        if self.lper == 1:
            loop.append(f"    {a} v = {self._value(self._src('j'))};")
        else:
            # Q elements an iteration (a record of src), each its own term
            terms = [self._value(self._src(f"{self.lper} * j" + (f" + {q}" if q else ""))) for q in range(self.lper)]
            loop.append(f"    {a} v = " + " + ".join(f"{term} * ({a}){q + 1}" for q, term in enumerate(terms)) + ";")
        loop.append(f"    {a} t = {value};")
        if self.twist == "reread":
            loop.append(f"    t += {self._stored_value(self._dest(self._record('j')))};")
        elif self.twist == "reread_prev":
            prev = f"j > {self.start} ? j - {self.step} : j"
            loop.append(f"    int q = {prev};")
            loop.append(f"    t += {self._stored_value(self._dest(self._record('q')))};")
        for m in self.order:
            store = f"    {self._dest(self._record('j', m))} = {self._store_value(m)};"
            if self.twist == "sometimes" and m == self.per - 1:
                store = f"    if (j % 3 != 1)\n  {store}"
            loop.append(store)
        if self.dest2:
            for m in self.order:
                at = self._dest(self._record('j', m)).replace("dest[", "dest2[").replace("drow[", "d2row[")
                loop.append(f"    {at} = {self._store_value(m + 4)};")
        pragma = {"free": [], "one": ["#pragma unroll 1"], "four": ["#pragma unroll 4"]}[self.unroll]
        body += [*pragma, self._head(), *loop, "  }"]
        body += self._post()
        if self.guard == "bounds":
            split = body.index("  __syncthreads();") if self.post == "neighbour" else len(body)
            body = ["  if (i < n) {", *("  " + line for line in body[:split]), "  }", *body[split:]]
        return "\n".join(lines + body + ["}", ""]) + "\n"

    def store_lines(self) -> list[int]:
        """The lines (1-based, in the kernel's source) of the storing
        loop's stores."""
        stores = {f"{self._dest(self._record('j', m))} = {self._store_value(m)};" for m in range(self.per)}
        return [n for n, line in enumerate(self.source().splitlines(), 1) if line.strip() in stores]

    def _post(self) -> list[str]:
        a = self.acc
        if self.post == "read_loop":
            return [f"  {a} after = ({a})0;", self._head(),
                    f"    after += {self._stored_value(self._dest(self._record('j', self.per - 1)))};", "  }",
                    f"  {self._dest(str(self.records_span()))} = {self._store_value(0, 'after', '9')};"]
        if self.post == "rmw_loop":
            # the storing loop's records rewritten from themselves
            return [self._head(), f"    {a} w = {self._stored_value(self._dest(self._record('j')))};",
                    f"    {self._dest(self._record('j'))} = {self._store_value(0, 'w', 'j')};", "  }"]
        if self.post == "tail":
            last = max(self.record_at(j) for j in self.iterations()) + self.per - 1 if self.iterations() else 0
            return [f"  {a} w = {self._stored_value(self._dest(str(last)))};",
                    f"  {self._dest('0')} = {self._store_value(0, 'w', '5')};"]
        if self.post == "neighbour":
            # after a barrier (outside the guard's block), a neighbour's
            # first element: i ^ 1 in the warp, or i ^ 32 in another
            other = "i ^ 32" if self.block % 64 == 0 else "i ^ 1"
            rows = self._drows()
            guard = f"i < n && ({other}) < n" if self.guard != "none" else "true"
            first = f"dest[{self._row_start(rows, '(' + other + ')')}]"
            value = self._store_value(0, f"({self._stored_value(first)})", "9")
            own = f"dest[{self._row_start(rows)} + {self.records_span()}]"  # drow is the guard block's
            return ["  __syncthreads();", f"  if ({guard})", f"    {own} = {value};"]
        return []

    def spec(self) -> str:
        n = self.threads
        grid = self.grid()
        dest_kind = "inout" if self.reads_dest or self.pre else "out"
        if self.one_buffer:
            size = max(self.src_off + n * self.row * self.lw, self.dest_off + n * self.drow * self.sw)
            # the offsets in src's elements (multiples of the widest element)
            params = [f'{{ name = "buf", inout = "{size}" }}',
                      f'{{ name = "src_off", value = "{self.src_off // self.lw}" }}',
                      f'{{ name = "dest_off", value = "{self.dest_off // self.lw}" }}']
        else:
            params = [f'{{ name = "dest", {dest_kind} = "{n * self.drow * self.sw}" }}',
                      f'{{ name = "src", in = "{n * self.row * self.lw}" }}']
            if self.dest2:
                params.append(f'{{ name = "dest2", out = "{n * self.drow * self.sw}" }}')
        params += [f'{{ name = "n", value = "{n}" }}', f'{{ name = "S", value = "{self.row}" }}']
        if not self.shared_row:
            params.append(f'{{ name = "D", value = "{self.drow}" }}')
        if self.bound == "len":
            params.append(f'{{ name = "len", value = "{self.trip}" }}')
        if self.twist == "exit":
            params.append(f'{{ name = "stop", value = "{self.stop}" }}')
        return (f"[kernels.{self.name}]\nblock = {self.block}\ngrid = {grid}\n"
                f"align = {max(self.lw, self.sw)}\nparams = [{', '.join(params)}]\n")

    def window_runs(self) -> bool:
        """Whether the windowed code can run at all (the vote's run-time
        rules): blocks of whole warps, src's rows of at least 80 bytes."""
        return self.block % 32 == 0 and self.row * self.lw >= MIN_ROW


def _trip(rng: np.random.Generator) -> int:
    """0 to 100 iterations: a few very short loops, mostly 5 to 40."""
    kind = rng.choice(4, p=[0.03, 0.14, 0.58, 0.25])
    return int([0, rng.integers(1, 5), rng.integers(5, 41), rng.integers(41, 101)][kind])


def _draw(rng: np.random.Generator, name: str) -> StoreWindowKernel:
    load = str(rng.choice(list(LOAD_BYTES), p=[0.35, 0.15, 0.2, 0.15, 0.15]))
    store = load if load != "float2" and rng.random() < 0.4 else str(
        rng.choice(list(STORE_BYTES), p=[0.3, 0.15, 0.15, 0.15, 0.1, 0.1, 0.05]))
    per = int(rng.choice([1, 2, 3, 4], p=[0.45, 0.25, 0.2, 0.1]))
    if STORE_BYTES[store] == 16 and per > 2 and rng.random() < 0.7:
        per = 2
    layout = str(rng.choice(LAYOUTS, p=[0.7, 0.1, 0.1, 0.1]))
    twist = str(rng.choice(TWISTS, p=[0.8, 0.03, 0.03, 0.03, 0.04, 0.04, 0.03]))
    guard = str(rng.choice(GUARDS, p=[0.45, 0.4, 0.15]))
    passes = int(rng.choice([1, 2, 3], p=[0.35, 0.25, 0.4]))
    if guard == "none" and passes > 1:
        # -O3 leaves the entry block the loops' nearest common dominator,
        # where no vote goes ("no point before the loops is reached once by
        # every thread of the block")
        guard = str(rng.choice(GUARDS[:2]))
    post = str(rng.choice(POSTS, p=[0.7, 0.075, 0.075, 0.075, 0.075]))
    if post == "neighbour" and guard == "early_return":
        guard = "bounds"  # no barrier after an early return
    k = StoreWindowKernel(
        name=name, load=load, store=store, per=per, order=tuple(int(m) for m in rng.permutation(per))
        if rng.random() < 0.3 else tuple(range(per)), step=2 if rng.random() < 0.15 else 1,
        trip=_trip(rng), row=0, drow=0, shared_row=False,
        bound=str(rng.choice(["row", "len"])), start=int(rng.choice([0, 0, 0, 1])),
        passes=passes, unroll=str(rng.choice(UNROLLS, p=[0.6, 0.2, 0.2])),
        layout=layout, src_off=0, dest_off=0, index=str(rng.choice(["int", "size_t"])), guard=guard,
        restrict=layout == "separate" and bool(rng.random() < 0.3), rowptr=bool(rng.random() < 0.25),
        block=0, threads=0, twist=twist, pre=bool(rng.random() < 0.15), pre_read=bool(rng.random() < 0.1),
        post=post)
    if k.twist in ("gap", "reverse"):
        k.step = 1
    if k.trip == 0:
        k.bound = "len"
    if k.start >= k.trip:
        k.start = 0
    if twist == "exit":
        k.stop = int(rng.choice([k.trip // 2, k.trip + 3]))
    lw, sw = k.lw, k.sw
    widest = max(lw, sw)
    if layout == "in_row":
        shift = widest * int(rng.integers(1, 4))
        if rng.random() < 0.5:
            k.dest_off = shift
        else:
            k.src_off = shift
    # rows: the loops go to S itself (T == S) or to len < S
    if rng.random() < 0.15:
        k.lper = int(rng.choice([2, 4]))
    if layout == "separate" and rng.random() < 0.1:
        k.dest2 = True
    # one byte row for both arrays where they may be one buffer: in the
    # alias layout (every pointer at one address) each thread then touches
    # its own row alone (else the original races, and a race whose values
    # happen to agree on every schedule of the original hides from the
    # oracle until the rewrite's barriers reorder it)
    equal_rows = k.one_buffer or not k.restrict
    if equal_rows and (k.span() * sw > k.trip * lw or k.src_off):
        k.bound = "len"  # dest's part of the row is longer than src's, or src starts inside it
    if k.lper > 1:
        k.bound = "len"  # src's row holds Q elements an iteration
    if k.bound == "row":
        k.row = k.trip
    else:
        # mostly rows of at least 80 bytes (the window's), sometimes shorter
        least = -(-MIN_ROW // lw) if rng.random() < 0.85 else 1
        k.row = max(k.src_span() + int(rng.integers(0, 6)), least + int(rng.integers(0, 8)))
    if equal_rows:
        # one byte row R for both arrays: S*lw == D*sw, each thread's
        # accesses inside its own row
        while (k.row * lw % sw or k.row * lw // sw < k.span() + k.dest_off // sw
               or k.src_off + k.src_span() * lw > k.row * lw):
            k.row += 1
        k.drow = k.row * lw // sw
        k.shared_row = lw == sw and bool(rng.random() < 0.5)
    else:
        k.shared_row = k.span() <= k.row and bool(rng.random() < 0.5)
        k.drow = k.row if k.shared_row else k.span() + int(rng.choice([0, 0, 1, 3]))
    if k.bound == "row" and k.row != k.trip:
        k.bound = "len"
    k.block = int(rng.choice(WHOLE_WARPS)) if rng.random() < 0.85 else int(rng.choice(NOT_WARPS))
    # at least one full block (a partial one runs the original: the vote)
    full = int(rng.integers(1, max(1, MAX_THREADS // k.block) + 1))
    k.threads = full * k.block + (0 if guard == "none" else int(rng.integers(0, k.block)))
    if k.layout == "after":
        k.dest_off = -(-k.threads * k.row * lw // widest) * widest + widest * int(rng.integers(0, 3))
    return k


def random_kernels(seed: int, count: int) -> list[StoreWindowKernel]:
    rng = np.random.default_rng([seed, 104723])
    return [_draw(rng, f"sw{seed}_{i}") for i in range(count)]


def expected_store_window(kernel: StoreWindowKernel) -> bool:
    """Whether the pass gives the kernel's storing loop a store window (with
    -coalda-window-stores): no twist."""
    return kernel.twist == "none"
