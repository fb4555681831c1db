"""Random kernels for chunk windows refilled once per iteration with a
record (StagedArray::RefillAt, perIteration in pass/lib/ChunkWindow.cpp;
emitIterationRefill and moveRecords in ChunkWindowEmitter.cpp): thread p's
row holds K records of P units, and iteration k of a loop reads the k-th
record of the thread's own row whole (dslash's `d_fat[4*site + k]`, 72-byte
su3 matrices), so each warp refills a tile with its 32 rows' records at
the top of the iteration, the 32*P units moved flat (lane l moves unit
32*i + l: row u/P, column u%P).

Each kernel varies what changes the emitted code:

- the unit (the loads' width): float, int, double, or a float2 read member
  by member (two 4-byte loads at -O3: 4-byte units);
- P, the units of a record: 32 bytes (the option's default) to 32 units,
  mostly not a divisor of 32 (9, 18, 20, 27...: a request wraps from one
  row's record into the next's at a column that depends on the lane);
- the row: a head of elements before the first record (records start
  mid-row), a gap between records, a tail at the row's end (the lane
  stride S is more than K records; the tail also pads rows to 80 bytes,
  the shortest a window takes);
- the loop: k from 0 or 1 to a run-time `recs` or to the constant K, step
  1 or 2; under `#pragma unroll 1` (one record an iteration, a branch's
  arms kept), or as -O3 leaves it (`free`: bodies of up to about 10 loads
  are unrolled by 2, an iteration reading two adjacent records and the
  odd one left to an epilogue that runs the original loads, so these have
  no gap, step 1 and at least 4 records; a branch on `k == start` is
  peeled off the loop where the body is small);
- the reads: an inner loop over the record in memory order (`#pragma
  unroll`: -O3 unrolls it whole, which it does not by itself for the
  larger records), or the elements listed in a random order, in the body
  or in both arms of a uniform branch (`if (k == start) ... else ...`,
  each arm reading the whole record in its own order with its own
  arithmetic: dslash's mult_su3_mat_vec and its `_sum` form);
- what it stores: a column `out[k*n + p]` in the loop, a per-thread
  accumulator after it (the loop then only reads its chunks: the tail pads
  the row to a multiple of 128 bytes, the read-only cost rule's), or both;
- the values: a float's or double's mantissa bits as a number in [1, 2)
  (`mantissa`), or the raw number (`plain`, only with `__restrict__`: see
  below); ints as they are;
- the index: int (`p*S + k*R` in 32 bits) or size_t; the guard (none with
  an exact grid, `if (p < n)`, an early return); `__restrict__` or not
  (without it the oracle also runs the buffers overlapping, and the
  column's store may write the record: written through); the block, 32 to
  256 threads in whole warps or 48 (not whole warps: the vote sends every
  block to the original), never more than the tile's threads;
  `__launch_bounds__` where a tile for 512 threads does not fit 48 KB.

What the generator leaves out, since the pass refuses it (a kernel that is
not windowed per iteration proves nothing here):

- a loop of a constant two iterations (-O3 turns k into a phi of two
  constants: no recurrence), so a constant bound runs at least three;
- -O3's unrolling of small bodies with a gap between records or step 2
  (two records an iteration with bytes between them: refilled on leaving).

and of the kernels with a second array (below), which the pass would
refuse or size otherwise: no guard with a run-time count of the first loop
(the loops' common dominator is then the entry block, where findVote puts
no vote), a constant count of the second loop after a run-time one with
size_t indexes (GVN's PRE leaves `(size_t)p` a phi there, which the
analysis does not read through), and -O3's own unrolling of a plain sum
(by 4 for 4 or 5 doubles, with a remainder loop; by 2 for 12 float2
units).

Values go through arithmetic on every unit (random input bytes can be
NaN: the emulator gives float arithmetic's NaN results one canonical NaN
on both sides, a float copied through might keep its payload on one path
and not the other). Sums of raw random floats are often NaN or infinite
(4-14% and 6-28% of sums of 8 to 29 products) and otherwise about their
largest term, which hides a wrong element, and hid a race: with every buffer at one address (the oracle's alias layout) a
thread's store lands in other threads' rows, so the original's threads
race, but where each of its schedules summed to the same NaN the oracle
took it for race-free and reported the rewritten kernel's other bytes as
"race in the rewritten kernel" (`r8_3` of an earlier draft: a sum over
29-float records). Mantissas keep every bit of each element in the sum
and never make a NaN; raw numbers stay for kernels whose buffers cannot
overlap.

A kernel now and then (MIXED_ODDS, its own random stream: the other
draws stay) reads a second array `b` of the other width (4-byte units
beside double's 8-byte ones) in a second loop after the first, drawn as
the first's record is, with its own count `recs2`, accumulator `s2` and
output `out2`: the two arrays' loops are apart, so the warps refill them
through one tile in turn (ArraysInTurn in pass/lib/ChunkWindow.cpp), whose
row pitch is the arrays' longest window row. Until 2026-12-04 that pitch
was not rounded up to the widest unit: 10 ints and 4 doubles in turn had
44-byte rows, and the doubles' 8-byte shared accesses in odd rows were
misaligned (records_break.cu's mixed_widths). Most such draws give the
4-byte array the longer row and an odd number of 4-byte units in it (a
pitch of 4 mod 8: a float2 record always, where -O3 unrolls by two too),
the others the doubles the longer row.

The emulator runs each before and after under every layout and schedule
(tests/test_record_fuzz.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

UNIT_BYTES = {"float": 4, "int": 4, "double": 8, "float2": 4}  # the loads' width
ELEMENT_BYTES = {"float": 4, "int": 4, "double": 8, "float2": 8}
BOUNDS = ("recs", "constant")
UNROLLS = ("pragma", "free")
READS = ("loop", "listed")
STORES = ("column", "sum", "both")
GUARDS = ("none", "bounds", "early_return")
# whole warps, and now and then 48 threads (the vote sends the block to the
# original: nothing windowed runs)
BLOCKS = (32, 64, 96, 128, 160, 256, 48)
BLOCK_ODDS = (0.14, 0.18, 0.16, 0.18, 0.14, 0.14, 0.06)
STATIC_SHARED = 48 * 1024
MIN_ROW = 80  # bytes: shorter constant rows are left out (-coalda-window-min-row)
READ_ONLY_ROWS = 128  # a loop that only reads takes rows a multiple of this apart
# -O3 unrolls a `free` loop by 2 when its body has at most about 10 loads
# (plain sums: float 9, float2 10 units, double 9 are, 10 floats are not):
# its iteration then reads two adjacent records. Below this many units the
# tile is sized for two (an upper bound: the test checks the refill moves
# one or two records)
UNROLLED_UNITS = 12
# a second array of the other width, read in a loop of its own (the arrays
# in turn); of those, the share whose 4-byte array has the longer window row
MIXED_ODDS = 0.25
MIXED_FOUR_LONGER = 0.75


@dataclass
class RecordKernel:
    name: str
    unit: str
    units: int  # P: units of a record (a float2 is two)
    records: int  # K: records a row
    head: int  # elements before the first record
    gap: int  # elements between records
    tail: int  # elements after the last record
    bound: str  # the loop's end: the `recs` argument or the constant K
    unroll: str  # "pragma" (#pragma unroll 1) or "free" (as -O3 decides)
    start: int  # first k
    step: int
    reads: str
    branch: bool  # the reads in both arms of `if (k == start)`
    store: str
    index: str  # "int" or "size_t"
    guard: str
    restrict: bool
    block: int
    values: str = "mantissa"  # floats and doubles: "plain" or "mantissa" (_number)
    # the elements in the order the body (or the first arm) reads them, and
    # the second arm's order (listed reads)
    orders: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    # a second array `b` of the other width, read in a loop after the first
    # (its name, index, guard, restrict, block and values are the first's)
    second: RecordKernel | None = None

    @property
    def width(self) -> int:
        """Bytes of an array element."""
        return ELEMENT_BYTES[self.unit]

    @property
    def elements(self) -> int:
        """Array elements of a record."""
        return self.units * UNIT_BYTES[self.unit] // self.width

    @property
    def pitch(self) -> int:
        """R: elements from one record to the next."""
        return self.elements + self.gap

    @property
    def row(self) -> int:
        """S: elements from one thread's row to the next's."""
        return self.head + self.records * self.pitch - self.gap + self.tail

    def iterations(self) -> int:
        return len(range(self.start, self.records, self.step))

    def record_units(self) -> int:
        """The units an iteration of the windowed loop reads: two records
        where -O3 unrolls the loop."""
        doubled = self.unroll == "free" and self.units < UNROLLED_UNITS
        return 2 * self.units if doubled else self.units

    def window_pitch(self) -> int:
        """Bytes of a thread's row of the tile: the iteration's records
        and a padding unit (an upper bound where -O3 may unroll)."""
        return (self.record_units() + 1) * UNIT_BYTES[self.unit]

    def tile_pitch(self) -> int:
        """The tile's row pitch: the window's, or with a second array
        (one tile in turn) the longer of the two rounded up to the widest
        unit."""
        if self.second is None:
            return self.window_pitch()
        widest = max(UNIT_BYTES[self.unit], UNIT_BYTES[self.second.unit])
        longest = max(self.window_pitch(), self.second.window_pitch())
        return -(-longest // widest) * widest

    def capacity(self) -> int:
        """The threads a tile is sized for: 512 unless __launch_bounds__
        says fewer (a record and a padding unit a thread must fit 48 KB)."""
        pitch = self.tile_pitch()
        return next(b for b in (512, 256, 128, 64, 32) if b * pitch <= STATIC_SHARED)

    def _acc(self) -> str:
        """The accumulator's type."""
        return "float" if self.unit == "float2" else self.unit

    def _number(self, x: str) -> str:
        """A float or double member `x` as the value the kernel computes
        with: itself ("plain"), or ("mantissa") its mantissa bits under the
        exponent of 1, a number in [1, 2) that every bit of the mantissa
        changes (random bytes are often NaN, infinite or huge: a sum of them
        is NaN or its largest term, and hides a wrong element)."""
        if self.values == "plain":
            return x
        if self.unit == "double":
            return f"__longlong_as_double(__double_as_longlong({x}) & 0xfffffffffffffLL | 0x3ff0000000000000LL)"
        return f"__int_as_float(__float_as_int({x}) & 0x7fffff | 0x3f800000)"

    def _term(self, at: str, j: int | str, arm: int, s: str = "s") -> str:
        """Element `at` (the j-th of the record: a number, or the inner
        loop's `j`) folded into `s`: arm 0 adds it scaled, arm 1 another
        function of it (ints: xor, not a product, so that -O3 cannot fold
        the two arms into one sum over selected addresses)."""
        acc = self._acc()
        scale = f"({acc})({j} + 1)" if isinstance(j, str) else f"({acc}){j + 1}"
        if self.unit == "int":
            return f"{s} += {at} * {scale};" if arm == 0 else f"{s} -= {at} ^ {j};"
        if self.unit == "float2":
            x, y = self._number(f"{at}.x"), self._number(f"{at}.y")
            return f"{s} += {x} * {scale} + {y};" if arm == 0 else f"{s} -= {x} * {y} + (float)({j} % 5);"
        x = self._number(at)
        return f"{s} += {x} * {scale};" if arm == 0 else f"{s} = {s} * ({acc})0.5 - {x};"

    def _reads(self, arm: int, indent: str, s: str = "s") -> list[str]:
        """The statements reading the record `rec` whole into `s`: an inner
        loop (the second arm's backwards), or the elements listed in the
        arm's order."""
        if self.reads == "loop":
            at = "rec[j]" if arm == 0 else f"rec[{self.elements - 1} - j]"
            return [f"{indent}#pragma unroll", f"{indent}for (int j = 0; j < {self.elements}; j++)",
                    f"{indent}  {self._term(at, 'j', arm, s)}"]
        return [f"{indent}{self._term(f'rec[{j}]', j, arm, s)}" for j in self.orders[arm]]

    def _record(self, array: str = "a") -> str:
        """The k-th record of the thread's row."""
        if self.index == "int":
            return f"{array} + p * {self.row} + {self.head} + k * {self.pitch}"
        return f"{array} + (size_t)p * {self.row} + {self.head} + (size_t)k * {self.pitch}"

    def _loop(self, array: str, s: str, out: str, recs: str) -> list[str]:
        """The record loop over ARRAY into the accumulator S, its columns
        (and the sum after it) stored to OUT, RECS its run-time bound."""
        acc = self._acc()
        end = recs if self.bound == "recs" else str(self.records)
        body = [f"    const {self.unit} *rec = {self._record(array)};"]
        if self.branch:
            body += [f"    if (k == {self.start}) {{", f"      {s} = ({acc})0;", *self._reads(0, "      ", s),
                     "    } else {", *self._reads(1, "      ", s), "    }"]
        else:
            body += self._reads(0, "    ", s)
        column = "(size_t)k * n + p" if self.index == "size_t" else "k * n + p"
        if self.store != "sum":
            body.append(f"    {out}[{column}] = {s};")
        loop = [f"  {acc} {s} = ({acc})0;"]
        if self.unroll == "pragma":
            loop.append("#pragma unroll 1")
        loop += [f"  for (int k = {self.start}; k < {end}; k += {self.step}) {{", *body, "  }"]
        if self.store != "column":
            loop.append(f"  {out}[{self.records} * n + p] = {s};")
        return loop

    def source(self) -> str:
        acc, r = self._acc(), " __restrict__" if self.restrict else ""
        bounds = self.capacity()
        launch = f"__launch_bounds__({bounds}) " if bounds < 512 else ""
        params = f"{acc} *{r} out, const {self.unit} *{r} a, int n, int recs"
        if self.second:
            params += f", {self.second._acc()} *{r} out2, const {self.second.unit} *{r} b, int recs2"
        lines = [f"__global__ void {launch}{self.name}({params}) {{",
                 "  int p = blockIdx.x * blockDim.x + threadIdx.x;"]
        if self.guard == "early_return":
            lines.append("  if (p >= n)\n    return;")
        loop = self._loop("a", "s", "out", "recs")
        if self.second:
            loop += self.second._loop("b", "s2", "out2", "recs2")
        if self.guard == "bounds":
            loop = ["  if (p < n) {", *("  " + line for line in loop), "  }"]
        return "\n".join(lines + loop + ["}", ""]) + "\n"

    def spec(self) -> str:
        grid = "n // block" if self.guard == "none" else "cdiv(n, block)"
        acc = ELEMENT_BYTES[self._acc()]
        # without a guard the grid must cover n exactly
        n = f"n // {self.block} * {self.block}" if self.guard == "none" else "n"
        params = [f'{{ name = "out", out = "{acc * (self.records + 1)}*n" }}',
                  f'{{ name = "a", in = "{self.width * self.row}*n" }}',
                  f'{{ name = "n", value = "{n}" }}', f'{{ name = "recs", value = "{self.records}" }}']
        align = self.width
        if b := self.second:
            params += [f'{{ name = "out2", out = "{ELEMENT_BYTES[b._acc()] * (b.records + 1)}*n" }}',
                       f'{{ name = "b", in = "{b.width * b.row}*n" }}', f'{{ name = "recs2", value = "{b.records}" }}']
            align = max(align, b.width)
        return (f"[kernels.{self.name}]\nblock = {self.block}\ngrid = \"{grid}\"\n"
                f"align = {align}\nparams = [{', '.join(params)}]\n")


def pad_row(kernel: RecordKernel) -> None:
    """Lengthens the kernel's tail until its row is at least MIN_ROW bytes,
    and a multiple of READ_ONLY_ROWS bytes where the loop only reads (a
    second array's loop by the same rule: -O0 may window either alone)."""
    w = kernel.width
    while kernel.row * w < MIN_ROW or (kernel.store == "sum" and kernel.row * w % READ_ONLY_ROWS):
        kernel.tail += 1


def _draw(rng: np.random.Generator, name: str, unit: str, units: int) -> RecordKernel:
    """A kernel of one record loop over UNIT, P = UNITS, the rest drawn."""
    k = RecordKernel(
        name=name, unit=unit, units=units, records=int(rng.integers(2, 6)),
        head=int(rng.choice([0, 0, 1, 3])), gap=int(rng.choice([0, 0, 1, 2])), tail=int(rng.choice([0, 0, 1, 5])),
        bound=str(rng.choice(BOUNDS, p=[0.7, 0.3])), unroll=str(rng.choice(UNROLLS)),
        start=int(rng.choice([0, 0, 1])), step=int(rng.choice([1, 1, 1, 2])), reads=str(rng.choice(READS)),
        branch=bool(rng.random() < 0.4), store=str(rng.choice(STORES, p=[0.5, 0.25, 0.25])),
        index=str(rng.choice(["int", "size_t"])), guard=str(rng.choice(GUARDS)),
        restrict=bool(rng.random() < 0.3), block=int(rng.choice(BLOCKS, p=BLOCK_ODDS)))
    _draw_orders(rng, k)
    if k.iterations() < 2:
        k.start, k.step = 0, 1
    if k.bound == "constant":
        # -O3 would unroll a constant trip count whole: one record an
        # iteration under the pragma, and three iterations at least
        k.unroll = "pragma"
        if k.iterations() < 3:
            k.bound = "recs"
    if k.unroll == "free":
        # an unrolled iteration reads adjacent records whole; four
        # records or more, so that the unrolled body runs (after the
        # first iteration, which a branch on it may have peeled)
        k.bound, k.step, k.gap = "recs", 1, 0
        k.records = max(k.records, 4)
    return k


def _units(rng: np.random.Generator, unit: str) -> int:
    """P: 32 bytes to 32 units, each as likely (mostly not divisors of 32)."""
    units = int(rng.integers(32 // UNIT_BYTES[unit], 33))
    return units + units % 2 if unit == "float2" else units


def _draw_orders(rng: np.random.Generator, k: RecordKernel) -> None:
    """The orders of listed reads: the body's (or first arm's), the second
    arm's."""
    k.orders = (tuple(int(x) for x in rng.permutation(k.elements)),
                tuple(int(x) for x in rng.permutation(k.elements)))


def _four_longer(four: RecordKernel, eight: RecordKernel) -> None:
    """Records that give FOUR (4-byte units) the longer window row, of an
    odd number of units (its records' even, and a padding unit): a row
    pitch of 4 mod 8, which the tile in turn must round up to 8. The
    double record shrinks (to 4 units, 32 bytes, at least; no more -O3
    unrolling by two), the 4-byte one grows where that is not enough
    (10 ints beside 4 doubles: 44 bytes against 40)."""
    step = 2 if four.unit == "float2" else 1
    while True:
        if four.record_units() % 2:
            four.units += step if four.units < 32 else -step
        elif eight.window_pitch() < four.window_pitch():
            return
        elif eight.units > 4:
            eight.units -= 1
        elif eight.unroll == "free":
            eight.unroll = "pragma"
        else:
            four.units += step


def _second(mixed: np.random.Generator, first: RecordKernel) -> RecordKernel:
    """The second array of FIRST, of the other width, drawn from MIXED (the
    second arrays' own stream) as the first is; with MIXED_FOUR_LONGER
    odds, the two records then made to give the array of 4-byte units the
    longer row, of a pitch of 4 mod 8 (_four_longer)."""
    if UNIT_BYTES[first.unit] == 8:
        unit = str(mixed.choice(["float", "int", "float2"], p=[0.4, 0.3, 0.3]))
    else:
        unit = "double"
    second = _draw(mixed, "", unit, _units(mixed, unit))
    if first.guard == "none" and first.bound == "recs":
        # without a guard, a first loop that may run no iteration leaves the
        # entry block the loops' nearest common dominator, where findVote
        # puts no vote ("no point before the loops is reached once by every
        # thread of the block")
        first.guard = str(mixed.choice(["bounds", "early_return"]))
    if first.bound == "recs" and first.index == "size_t":
        # GVN's PRE makes the second loop's `(size_t)p` a phi of two equal
        # sign extensions, which the analysis does not read through: with a
        # constant trip count the second loop's record address is no
        # expression of its k (b + S*lane) and b is not windowed
        second.bound = "recs"
    for shared in ("index", "guard", "restrict", "block", "values"):
        setattr(second, shared, getattr(first, shared))
    if mixed.random() < MIXED_FOUR_LONGER:
        four, eight = (second, first) if unit != "double" else (first, second)
        _four_longer(four, eight)
        for k in (four, eight):
            if len(k.orders[0]) != k.elements:
                _draw_orders(mixed, k)
    for k in (first, second):
        if k.unroll == "free" and k.store == "sum" and k.values == "plain":
            # the smallest bodies (a plain sum of 4 or 5 doubles) -O3
            # unrolls by 4 with a remainder loop, not refilled per
            # iteration; a plain sum of 12 float2 units by 2, past the
            # tile record_units() sizes
            k.unroll = "pragma"
    return second


def random_kernels(seed: int, count: int) -> list[RecordKernel]:
    rng = np.random.default_rng(seed + 1299709)
    values = np.random.default_rng(seed + 15485863)  # its own stream: the others' draws stay
    mixed = np.random.default_rng([seed, 61939])  # the second arrays' own stream too
    kernels = []
    for i in range(count):
        unit = str(rng.choice(list(UNIT_BYTES), p=[0.35, 0.25, 0.25, 0.15]))
        k = _draw(rng, f"r{seed}_{i}", unit, _units(rng, unit))
        # plain floats only where the buffers cannot overlap: with every
        # buffer at one address (the oracle's alias layout) the original's
        # threads race, and a NaN sum can hide that from its schedules
        if k.restrict and values.random() < 0.5:
            k.values = "plain"
        if mixed.random() < MIXED_ODDS:
            k.second = _second(mixed, k)
        pad_row(k)
        if k.second:
            pad_row(k.second)
        k.block = min(k.block, k.capacity())
        kernels.append(k)
    return kernels
