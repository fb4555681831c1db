"""Attacks on grid variants of the tile form (-coalda-reshape-launches;
pass/lib/GridVariantTile.cpp; testcases/adversarial/tile_variants.cu): a
rewritten kernel whose whole effect is one transposed store per thread
(`out[x*N + y] = f(in[y*M + x])`) gets K__coalda_grid(args..., Gx, Gy),
marked by K__coalda_tile, launched on the grid of 32x32 tiles
(coalda/check/variants.py's tile_grid, as the run time computes it) with
the original grid's x and y appended; each block runs the tile's original
blocks in turn, keeps each virtual thread's store in a shared tile of
values and one of addresses, and after a barrier writes the tile back 32
threads down a column. Attacked: the elements (float, double, char, short,
8- and 16-byte vectors of ints, floats and doubles, long long with size_t
indices, a constant), a value computed between load and store, the guards
(`<`, `<=`, unsigned, early returns, one bound, none, a hole pattern), sizes
whose tiles are partial at both edges, a 3-D grid, gridDim.x/y and
blockIdx.x/y read in index and value, threadIdx.z, __restrict__ or not
(the overlap and alias layouts), one buffer read in one half and written in
the other, two threads storing to one address, blocks the tiles do not fit
(the original runs); and kernels that must get no tile variant (a second
store, an atomic, a global load after the store, a loop, __syncthreads,
shared memory, a shuffle, a volatile load, a 12-byte struct, a
__noinline__ call, a row store).

At -O3 and -O0 through `coalda optimize` with the option: each kernel's
launch decision is pinned from the report's "launch" objects and the
after-IR (the tile mark, the variant's signature, its one barrier and two
shared tiles); every tile variant runs against its original on the
emulator (check_variants, TileLaunch: every layout, the overlap and alias
ones where no pointer is __restrict__; -O3 under all four schedules, -O0
in `make test-o0` only, under all four too), at the spec's blocks and again
at the tiles' blocks (32x8, 16x16, 8x32) and at blocks they do not fit. Edits planted
into the variants' IR must be caught: the tile row dropped from the virtual
block's y, the value/address pairs of two virtual blocks crossed, the
thread's address slots cleared after the barrier, `ult` -> `ule` in the
virtual block's bounds (caught where no guard of the kernel hides it), Gx
read from the variant's own grid; and edits that change nothing must not
be: the write-back's row and column swapped (values and addresses travel
together: another order of the same stores), the tile row dropped on 8x32
blocks (one row of virtual blocks), pairs crossed where every value is the
same constant, `ule` under the kernel's own guards.

The target moved while this was written: the corpus was first run against
the plugin of commit 51ff14a (a loop over 32/x * 32/y virtual blocks, for
every block of powers of two of at most 512 threads) and then against
64d02cf (four virtual blocks unrolled, their results in registers until one
write of the tile, blocks of 256 threads only: 32x8, 16x16, 8x32), which
is what this test runs and pins (the launch rule, the IR the plants edit).
Both computed the original's bytes in every comparison (at 51ff14a also at
8x4, 32x4, 16x8, 4x4, 2x16, 32x16, 16x32, 1x32 and 32x1 blocks); one
uncommitted build in between gave invalid IR for this corpus at both
levels ("Instruction does not dominate all uses": a copy's value stored
into the tile after the copies) and was gone minutes later.

Found, none of it a miscompile of the pass:
  - stride_zero_same in the alias layout (in == out): each thread of a row
    reads and writes out[y] unsynchronized, a race; but every order of
    whole threads multiplies by 3 equally often, so the emulator's
    schedules (one thread at a time between barriers) never see it, and
    call the variant's result, the GPU's (a block's loads before its
    stores), a MISMATCH. The spec says `overlap = false` for it;
    test_stride_zero_alias_is_a_race_the_schedules_miss pins the blind spot;
  - a variant that stores through an address slot no thread wrote (the
    barrier dropped; in 51ff14a's form also the address tile not cleared,
    or cleared after the barrier) does not come back as a FAULT: the
    shared poison read as an address is stored through in the host
    process, which dies of SIGSEGV. The dropped barrier is a strict xfail
    here (run in a child process), for the day the emulator checks its
    stores' addresses.

About 9 s on one core in `make test` (two builds, the emulator's JIT of
three modules and a child's of two, about 1,300 comparisons); 12 s with
-O0's comparisons (`make test-o0`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import (
    REPO, TESTCASES, assert_partition, function_text, global_kernels, in_function, optimize_levels, optimize_outputs,
)

from coalda.check.oracle import Verdict
from coalda.check.run_command import Compiled
from coalda.check.spec import Dim3, load_spec
from coalda.check.variants import SUFFIX, VariantsChecked, check_variants, tile_grid, tile_kernels, variant_symbols
from coalda.driver.launches import TILE_SUFFIX
from coalda.emulator.schedule import FORWARD, REVERSE, SCHEDULES, Schedule

SOURCE = TESTCASES / "adversarial" / "tile_variants.cu"
SPEC = SOURCE.with_suffix(".toml")
LEVELS = (3, 0)
OPTIONS = ("--pass-arg=-coalda-reshape-launches",)
FULL_O0 = os.environ.get("COALDA_ADVERSARIAL_O0") == "full"
LAYOUTS = ("aligned", "offset", "offset-max", "mixed")

TILE_FORM = "tile transpose"
# GridVariant.cpp: describe(GridVariantForm::TileTranspose), describeReshaped
DOES = "each block runs a 32x32 tile of original blocks, its transposed stores written 32 to a column"
TAKEN = "launch reshaped (4 virtual blocks per block at 32x8 and 16x16 threads)"
NOT_PROFITABLE = "launch kept: not profitable: a variant that loops over the original blocks measured no faster"
LOOPS = "launch kept: each thread loops over its own work"
CALLS = "launch kept: the kernel calls a function"

# The tile form, at both levels.
TILE_BOTH = {
    "naive_float", "scale_double", "elem_char", "elem_short", "vec_int2", "vec_float4", "vec_double2", "index_64",
    "const_value", "computed_int", "guard_inclusive", "guard_unsigned", "guard_early_return", "guard_x_only",
    "guard_none", "guard_parity", "grid_z", "reads_grid_dims", "block_in_value", "tid_z", "restricted",
    "inplace_halves", "stride_zero_same", "stride_zero_racy",
}
TILE = {3: TILE_BOTH, 0: TILE_BOTH}
# Tile kernels whose original is racy in the spec's layouts: their verdicts
# are MATCH or RACY_ORIGINAL (at least one RACY_ORIGINAL: the race is seen).
RACY = {"stride_zero_racy"}
# Rewritten (the transposed store staged), and no tile form offered: the
# launch is kept by the block loop's cost rule or GridVariant.cpp's own
# refusals. At -O0 the shuffle is the CUDA header's wrapper, a call.
KEPT_BOTH = {
    "no_second_store": NOT_PROFITABLE, "no_read_after": NOT_PROFITABLE, "no_syncthreads": NOT_PROFITABLE,
    "no_shared": NOT_PROFITABLE, "no_loop": LOOPS, "no_call": CALLS,
}
KEPT = {3: KEPT_BOTH | {"no_shuffle": NOT_PROFITABLE}, 0: KEPT_BOTH | {"no_shuffle": CALLS}}
# No launch decision: the staging itself refuses the atomic and the volatile
# load, the 12-byte struct has no transposed candidate, the row store is
# coalesced.
NOT_REWRITTEN = {3: {"no_atomic", "no_volatile", "no_struct12", "no_row_store"},
                 0: {"no_atomic", "no_volatile", "no_struct12", "no_row_store"}}

# The spec's kernels whose block the tiles fit (tile_grid, as the run time
# decides since 64d02cf: 256 threads, x and y powers of two, z = 1):
# the variant runs there; elsewhere the original does (32x32, 64x4, 8x4,
# 32x4, 16x8, 16x8x2), and those run at the tiles' blocks in
# test_tiles_at_other_blocks.
TILE_RUNS = TILE_BOTH - {"elem_short", "guard_x_only", "index_64", "computed_int", "guard_early_return", "tid_z"}
TILE_BLOCKS: tuple[Dim3, ...] = ((32, 8, 1), (16, 16, 1), (8, 32, 1))


def kernel_names() -> set[str]:
    return global_kernels(SOURCE)


def symbols(report: dict) -> dict[str, str]:
    return {k["name"]: k["symbol"] for k in report["kernels"]}


def schedules_at(level: int) -> tuple[Schedule, ...]:
    """-O3 under every schedule; -O0 (compared only when
    COALDA_ADVERSARIAL_O0=full, CHECKED_LEVELS) under every one too."""
    return SCHEDULES if level == 3 or FULL_O0 else (FORWARD, REVERSE)


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("tile-variants"), LEVELS, *OPTIONS, "-q")


# The comparisons at -O0 in `make test-o0` (COALDA_ADVERSARIAL_O0=full);
# `make test` pins -O0's decisions and forms (CI time: docs/test-speed.md).
CHECKED_LEVELS = LEVELS if FULL_O0 else (3,)


@pytest.fixture(scope="module")
def checked(optimized: dict) -> dict[int, VariantsChecked]:
    spec = load_spec(SPEC)
    return {level: check_variants(optimize_outputs(optimized[level][0], SOURCE.stem), spec,
                                  schedules=schedules_at(level))
            for level in CHECKED_LEVELS}


def test_pins_are_complete() -> None:
    names = kernel_names()
    assert set(tomllib.loads(SPEC.read_text())["kernels"]) == names and 20 <= len(names) <= 35, len(names)
    for level in LEVELS:
        assert_partition(names, [TILE[level], set(KEPT[level]), NOT_REWRITTEN[level]], level)
    assert RACY <= TILE_BOTH and TILE_RUNS <= TILE_BOTH


def test_launch_rule() -> None:
    """Which of the spec's blocks the tiles fit (the run time's rule, which
    TileLaunch mirrors): the variant runs for TILE_RUNS, the original for
    the others; and the tile grid of the tiles' blocks at n = 70."""
    spec = load_spec(SPEC)
    runs = {name for name in TILE_BOTH if tile_grid(*spec.kernels[name].dims(70)) is not None}
    assert runs == TILE_RUNS, sorted(runs ^ TILE_RUNS)
    # 70 x 38 at 32x8: 3 x 5 blocks, tiles of 1 x 4; at 16x16 5 x 3, tiles
    # of 2 x 2; at 8x32 9 x 2, tiles of 4 x 1: partial tiles at both edges
    assert tile_grid((3, 5, 1), (32, 8, 1)) == (3, 2, 1)
    assert tile_grid((5, 3, 1), (16, 16, 1)) == (3, 2, 1)
    assert tile_grid((9, 2, 1), (8, 32, 1)) == (3, 2, 1)
    assert tile_grid((3, 5, 2), (32, 8, 1)) == (3, 2, 2)  # grid_z: the layers kept
    for block in ((32, 32, 1), (64, 4, 1), (16, 8, 2), (1, 1, 1)):
        assert tile_grid((3, 5, 1), block) is None, block


# The report's "launch" objects, the tile marks and variants the after-IR
# defines (each with two more parameters, i32 %coalda.grid.x and .y, one
# barrier and two shared tiles of its own), nothing for the others.
@pytest.mark.parametrize("level", LEVELS)
def test_forms_are_pinned(level: int, optimized: dict) -> None:
    out, report = optimized[level]
    found = {k["name"]: k.get("launch") for k in report["kernels"]}
    assert set(found) == kernel_names() and len(found) == len(report["kernels"])
    forms = {name: launch["form"] for name, launch in found.items() if launch and launch["reshaped"]}
    assert set(forms.values()) <= {TILE_FORM}, forms
    assert set(forms) == TILE[level], sorted(set(forms) ^ TILE[level])
    refused = {name: launch["reason"] for name, launch in found.items() if launch and not launch["reshaped"]}
    assert set(refused) == set(KEPT[level]), sorted(set(refused) ^ set(KEPT[level]))
    for name, reason in KEPT[level].items():
        assert refused[name].startswith(reason) and "form" not in found[name], (name, found[name])
    assert {name for name, launch in found.items() if launch is None} == NOT_REWRITTEN[level]

    syms = symbols(report)
    after = (out / f"{SOURCE.stem}.after.ll").read_text()
    marked, variants = tile_kernels(after), variant_symbols(after)
    assert {name for name, sym in syms.items() if sym in marked} == TILE[level]
    assert {name for name, sym in syms.items() if sym in variants} == TILE[level]
    globals_ = dict(re.findall(r"^@([-\w.$]+) = ([^\n]*)", after, re.M))
    for name in TILE[level]:
        launch, variant = found[name], syms[name] + SUFFIX
        assert launch is not None and launch["reason"].startswith(TAKEN), launch
        assert launch["variant"] == variant and launch["does"] == DOES, launch
        assert launch["until_measured"] == "variant", launch
        assert syms[name] + TILE_SUFFIX in globals_, name
        body = function_text(after, variant)
        head = body.split("\n", 2)[1]  # the define line: two more parameters than the kernel's
        assert head.startswith("define ") and f"@{variant}(" in head, head
        assert ", i32 %coalda.grid.x, i32 %coalda.grid.y) " in head, head
        assert body.count("call void @llvm.nvvm.barrier0()") == 1, name
        for tile in ("values", "addresses"):  # 32 rows of 33 slots in shared memory
            assert globals_[f"{variant}.tile.{tile}"].startswith("internal addrspace(3) global [1056 x "), (name, tile)
        # the original's promises the variant breaks are gone from it
        assert " noalias " not in head and " nocapture " not in head, head


# Every tile variant against its original at both sizes, in the four
# layouts (and the overlap and alias ones where no pointer is __restrict__)
# under every schedule (-O0: forward and reverse), launched as the run time
# launches it (TileLaunch).
@pytest.mark.parametrize("level", CHECKED_LEVELS)
def test_every_variant_computes_the_original_bytes(level: int, checked: dict) -> None:
    run: VariantsChecked = checked[level]
    assert not run.skipped, run.skipped
    assert run.kernels() == TILE[level]
    good = [r for r in run.failures if r.result.kernel not in RACY]
    assert not good, run.summary()
    spec = load_spec(SPEC)
    names = {str(s) for s in schedules_at(level)}
    for name in TILE[level]:
        mine = [r for r in run.results if r.result.kernel == name]
        grid, block = spec.kernels[name].dims(70)
        tiles = tile_grid(grid, block)
        assert {r.grid for r in mine if r.result.n == 70} == {grid[0]}, name
        assert {r.blocks for r in mine if r.result.n == 70} == {tiles[0] if tiles else grid[0]}, name
        if name in RACY:
            verdicts = {r.result.verdict for r in mine}
            assert Verdict.RACY_ORIGINAL in verdicts and verdicts <= {
                Verdict.MATCH, Verdict.RACY_ORIGINAL, Verdict.UNCHECKED}, (name, verdicts)
            continue
        assert {(r.result.n, r.result.layout, r.result.schedule) for r in mine} >= {
            (n, layout, schedule) for n in spec.sizes for layout in LAYOUTS for schedule in names}, name
        # nothing compared vacuously but the alias layout, where in == out
        # makes the original's threads race (a transpose reads where
        # another thread writes)
        unchecked = {r.result.layout for r in mine if r.result.verdict is Verdict.UNCHECKED}
        assert unchecked <= {"alias"}, (name, unchecked)


def test_stride_zero_alias_is_a_race_the_schedules_miss(optimized: dict) -> None:
    """stride_zero_same with its overlap and alias layouts back (the spec
    leaves them out): every layout matches but the alias one, where in ==
    out and each thread of a row multiplies out[y] by 3 unsynchronized.
    The emulator's orders of whole threads all multiply as often (70 times
    at n = 70); the variant loads a block's four virtual blocks before it
    stores (3 times, one per tile column), a GPU's lost updates. A MISMATCH
    under every schedule, which is the checker's blind spot, not the
    pass's bug: the original is racy there."""
    spec = load_spec(SPEC)
    assert spec.kernels["stride_zero_same"].overlap is False
    spec.kernels = {"stride_zero_same": dataclasses.replace(spec.kernels["stride_zero_same"], overlap=True)}
    run = check_variants(optimize_outputs(optimized[3][0], SOURCE.stem), spec, sizes=[70], schedules=(FORWARD, REVERSE))
    assert not run.skipped and run.kernels() == {"stride_zero_same"}
    assert {r.result.layout for r in run.results} == {*LAYOUTS, "overlap", "overlap-back", "alias"}
    bad = {(r.result.layout, r.result.schedule, r.result.verdict) for r in run.failures}
    assert bad == {("alias", "forward", Verdict.MISMATCH), ("alias", "reverse", Verdict.MISMATCH)}, run.summary()


# The kernels whose spec block the tiles do not fit, at the tiles' blocks;
# naive_float and guard_parity at every block shape, fitting or not (the
# original must run where it does not fit; the variant where it does):
# -O3, n = 70, forward and reverse, the four layouts.
OTHER_BLOCKS: dict[str, tuple[Dim3, ...]] = {
    **{name: TILE_BLOCKS for name in TILE_BOTH - TILE_RUNS if name != "tid_z"},
    "tid_z": ((16, 16, 1), (32, 8, 1), (8, 32, 1), (16, 16, 2)),
    "naive_float": (*TILE_BLOCKS, (8, 4, 1), (32, 4, 1), (16, 8, 1), (4, 4, 1), (32, 16, 1), (16, 32, 1),
                    (1, 32, 1), (32, 32, 1), (64, 4, 1), (16, 8, 2)),
    "guard_parity": (*TILE_BLOCKS, (2, 16, 1), (32, 1, 1)),
}


def test_tiles_at_other_blocks(optimized: dict) -> None:
    compiled = optimize_outputs(optimized[3][0], SOURCE.stem)
    base = load_spec(SPEC)
    ran: set[tuple[str, Dim3]] = set()
    for k in range(max(map(len, OTHER_BLOCKS.values()))):
        shapes = {name: blocks[k] for name, blocks in OTHER_BLOCKS.items() if k < len(blocks)}
        spec = dataclasses.replace(base, kernels={
            name: dataclasses.replace(base.kernels[name], block=list(block)) for name, block in shapes.items()})
        run = check_variants(compiled, spec, sizes=[70], schedules=(FORWARD, REVERSE), overlap=False)
        assert not run.skipped and run.kernels() == set(shapes), run.skipped
        assert not run.failures, run.summary()
        for name, block in shapes.items():
            mine = [r for r in run.results if r.result.kernel == name]
            assert {r.result.layout for r in mine} == set(LAYOUTS), name
            if tile_grid(spec.kernels[name].dims(70)[0], block) is not None:
                ran.add((name, block))
    # the variant ran at each of the tiles' blocks, for every kernel swept
    assert ran == {(name, block) for name, blocks in OTHER_BLOCKS.items() for block in blocks if block in TILE_BLOCKS}


# The planted edits, at -O3, each into one kernel's variant of 64d02cf's
# form (four virtual blocks unrolled: tile.pre, then per virtual
# block %tile.vxK/%tile.vyK/%tile.slotK and its copy of the body, then the
# four results into the tile, the barrier, and four write-back rounds).
def phases(body: str) -> tuple[str, str]:
    """The variant before its barrier and from it on."""
    at = body.index("call void @llvm.nvvm.barrier0()")
    return body[:at], body[at:]


def drop_row(body: str) -> str:
    """Each virtual block's y is blockIdx.y * (32 / ntid.y), the tile row
    left out: every virtual block of a tile column runs the first's rows."""
    return re.sub(r"(%tile\.vy\d*) = add i32 (%[\w.]+), %[\w.]+", r"\1 = add i32 \2, 0", body)


def cross_pairs(body: str) -> str:
    """The first two virtual blocks' addresses go to each other's slots:
    each value is stored at the other virtual block's address."""
    before, after = phases(body)
    a, b = re.findall(r"tile\.addresses, i64 (%tile\.slot\d*)\b", before)[:2]
    before = re.sub(rf"(tile\.addresses, i64 ){re.escape(a)}\b", r"\1@@", before)
    before = re.sub(rf"(tile\.addresses, i64 ){re.escape(b)}\b", rf"\g<1>{a}", before)
    return before.replace("@@", b) + after


def clear_after_barrier(body: str) -> str:
    """Right after the barrier each thread clears its own four address
    slots, while the others are about to read them."""
    before, after = phases(body)
    slots = re.findall(r"(%\w+) = getelementptr i64, ptr addrspace\(3\) @[\w.]+\.tile\.addresses, i64 %tile\.slot",
                       before)
    barrier, rest = after.split("\n", 1)
    return before + barrier + "".join(f"\n  store i64 0, ptr addrspace(3) {s}, align 8" for s in slots) + "\n" + rest


def inside_ule(body: str) -> str:
    """A virtual block is inside the original grid when vx <= Gx and
    vy <= Gy: the row and column just past it run too."""
    return re.sub(r"icmp ult i32 (%tile\.v[xy]\d*), (%coalda\.grid\.[xy])", r"icmp ule i32 \1, \2", body)


def swap_writeback(body: str) -> str:
    """The write-back's slot is (w / 32)*33 + w % 32 rather than
    (w % 32)*33 + w / 32: threads down a row instead of a column."""
    before, after = phases(body)
    after = re.sub(r"= urem i32 (%\w+), 32\b", r"= @@ i32 \1, 32", after)
    after = re.sub(r"= udiv i32 (%\w+), 32\b", r"= urem i32 \1, 32", after)
    return before + after.replace("= @@ ", "= udiv ")


def own_grid(body: str) -> str:
    """Gx is the variant's own gridDim.x, not the original's."""
    head, rest = body.split("\ntile.pre:\n", 1)
    return (head + "\ntile.pre:\n  %tile.own.gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n"
            + rest.replace("%coalda.grid.x", "%tile.own.gx"))


def no_barrier(body: str) -> str:
    """The barrier between the tile's writes and its write-back dropped."""
    return re.sub(r"\n\s*call void @llvm\.nvvm\.barrier0\(\)[^\n]*", "", body)


# kernel -> (its edit, whether it is caught: a MISMATCH in every layout at
# both sizes, under both schedules; else every comparison matches)
PLANTED: dict[str, tuple[Callable[[str], str], bool]] = {
    "naive_float": (drop_row, True),  # 32x8: four rows of virtual blocks
    "guard_parity": (drop_row, False),  # 8x32: one row of virtual blocks (4 x 1)
    "vec_double2": (cross_pairs, True),
    "const_value": (cross_pairs, False),  # every value is 0x1234567
    "block_in_value": (clear_after_barrier, True),
    "guard_none": (inside_ule, True),  # no guard: written past the matrix's end
    "guard_inclusive": (inside_ule, False),  # its `<=` guards leave the extra blocks nothing to store
    "elem_char": (swap_writeback, False),
    "reads_grid_dims": (own_grid, True),  # M and N from the tile grid
}


def planted(optimized: dict, plants: dict[str, Callable[[str], str]]) -> Compiled:
    """The -O3 build with each kernel's edit in its variant."""
    out, report = optimized[3]
    syms = symbols(report)
    original = optimize_outputs(out, SOURCE.stem)
    after = original.after_ir
    for name, edit in plants.items():
        new = in_function(after, syms[name] + SUFFIX + "(", edit)  # the define, not the tiles' globals
        assert new != after, f"the plant in {name} matched nothing"
        after = new
    return Compiled(original.before_ir, after, "", "", original.report)


def test_planted_bugs_are_caught(optimized: dict) -> None:
    assert sum(caught for _, caught in PLANTED.values()) >= 4 and set(PLANTED) <= TILE_RUNS
    compiled = planted(optimized, {name: edit for name, (edit, _) in PLANTED.items()})
    run = check_variants(compiled, load_spec(SPEC), kernels=set(PLANTED), schedules=(FORWARD, REVERSE), overlap=False)
    assert not run.skipped and run.kernels() == set(PLANTED), run.skipped
    sizes = load_spec(SPEC).sizes
    for name, (_, caught) in PLANTED.items():
        mine = [r for r in run.results if r.result.kernel == name]
        assert {(r.result.n, r.result.layout, r.result.schedule) for r in mine} == {
            (n, layout, str(s)) for n in sizes for layout in LAYOUTS for s in (FORWARD, REVERSE)}, name
        verdicts = {r.result.verdict for r in mine}
        assert verdicts == ({Verdict.MISMATCH} if caught else {Verdict.MATCH}), (name, verdicts)


# Run in a child: the emulator dies of it (see the module's docstring).
CHILD = """
import collections, json, sys
from pathlib import Path
from coalda.check.run_command import Compiled
from coalda.check.spec import load_spec
from coalda.check.variants import check_variants
from coalda.emulator.schedule import FORWARD, REVERSE
at = Path(sys.argv[1])
compiled = Compiled((at / "before.ll").read_text(), (at / "after.ll").read_text(), "", "",
                    json.loads((at / "report.json").read_text()))
run = check_variants(compiled, load_spec(Path(sys.argv[2])), kernels={sys.argv[3]}, sizes=[70],
                     schedules=(FORWARD, REVERSE), overlap=False)
print(json.dumps([r.result.verdict.value for r in run.results]))
"""


@pytest.mark.xfail(strict=True, reason="the emulator stores through the shared poison read as an address (an "
                                       "address slot no thread wrote yet) in the host process: SIGSEGV, no verdict")
def test_missing_barrier_is_caught(optimized: dict, tmp_path: Path) -> None:
    """scale_double's variant without its barrier: each thread's write-back
    reads slots other threads have not written yet under either order
    (forward: threads of lower index first, but slot (w % 32, w / 32) is
    virtual thread w / 32 + 32 * (w % 32)'s). It must not match; on the
    emulator it should be a FAULT, a RACE or a MISMATCH."""
    compiled = planted(optimized, {"scale_double": no_barrier})
    (tmp_path / "before.ll").write_text(compiled.before_ir)
    (tmp_path / "after.ll").write_text(compiled.after_ir)
    (tmp_path / "report.json").write_text(json.dumps(compiled.report))
    proc = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), str(SPEC), "scale_double"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 0, f"the child exited {proc.returncode}: {proc.stderr[-2000:]}"
    verdicts = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(verdicts) == 8 and Verdict.MATCH.value not in verdicts, verdicts
