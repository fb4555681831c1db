"""Attacks on grid variants that are one flat copy (-coalda-reshape-launches;
pass/lib/GridVariantFlat.cpp; testcases/adversarial/flat_variants.cu): a
rewritten kernel whose whole effect is one copy of element gid =
blockIdx.x * blockDim.x + threadIdx.x below bounds `gid < End` / `gid <=
End` gets a variant K__coalda_grid(args..., G) that first tries one flat
copy of elements [0, min(G * blockDim.x, End...)) by all threads of the
reshaped grid (16-byte units, grid-stride), when both bases are 16-byte
aligned and disjoint, and else runs its loop over the original blocks
(GridVariant.cpp). Attacked: the bounds' forms (none, `<`, `<=` below the
last thread and past all of them, unsigned, constant, two of one sign and
of both signs, an early return, a swapped comparison, a 64-bit index),
records of ints and of chars, a struct assignment, a region that starts
inside its element, element offsets, a global source, __restrict__, a 2-D
block on a 2-D grid, a grid smaller than the bound; and kernels that must
keep the block loop (or get no variant): guards on blockIdx.x, threadIdx.y,
data and `!=`, two copies, a copy beside a store or an atomic, an index
that is not gid, bounds computed from a parameter or reading gridDim.x, a
64-bit `<=`, a copy within one array.

At -O3 and -O0 through `coalda optimize` with the option on: each kernel's
form (flat copy, block loop, refused, not rewritten) is pinned from the
report's "launch" objects, the after-IR and the remarks; every variant runs
against its original on the emulator (coalda/check/variants.py: the
original at G blocks, the variant at g in variant_blocks(G) with G
appended, every layout, the overlap and alias ones too where no pointer is
__restrict__; the flat copies at -O3 under all four schedules, the block
loops and -O0 under forward and reverse, as the corpus runs -O0). Edits
planted into the variants' IR show that the flat path is what runs where
the bases are aligned (the block loop skipped: the layouts where the flat
copy runs still match, the others do not) and that the corpus catches a
flat copy whose count ignores the bound or reads the variant's own grid,
whose start is shifted, whose stride is doubled, or whose tail is dropped.

Found by this corpus (the plugin of 2026-12-04, before d21a5d5):
unsigned_then_signed at -O0 and unsigned_outside_signed at -O3 and -O0
computed other bytes than the original in the aligned layout, at every g
and schedule. emitFlatVariant folded the bounds into the element count one
by one, the one nearest the copy first, with smin for a signed bound and
umin for an unsigned one, taking the count for never negative; a signed
bound n = -1 folded first made it -1 (the original copies nothing), and the
umin of an unsigned bound cap = 1000 after it read -1 as 2^64 - 1: the flat
copy moved 1000 elements. Now a signed bound is clamped at 0 before its
umin, and both kernels are pinned flat and equal (BROKEN is empty; the
check that a BROKEN kernel differs exactly where the flat copy runs stays,
for the next such bug). signed_then_unsigned (umin first) was right.

About 5 s on one core (two builds, the emulator's JIT of five modules,
about 4,100 comparisons).
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import (
    TESTCASES, assert_partition, function_text, global_kernels, in_function, optimize_levels, optimize_outputs,
)

from coalda.check.oracle import Verdict
from coalda.check.run_command import Compiled
from coalda.check.spec import load_spec
from coalda.check.variants import SUFFIX, VariantsChecked, check_variants, variant_blocks, variant_symbols
from coalda.emulator.schedule import FORWARD, REVERSE, SCHEDULES, Schedule

SOURCE = TESTCASES / "adversarial" / "flat_variants.cu"
SPEC = SOURCE.with_suffix(".toml")
LEVELS = (3, 0)
# The block loops too (refused by default, a cost rule; the lit test
# Launch/grid-variant.ll checks the default), so that the kernels that must
# not be flat show which form they take.
OPTIONS = ("--pass-arg=-coalda-reshape-launches", "--pass-arg=-coalda-reshape-block-loops")
FULL_O0 = os.environ.get("COALDA_ADVERSARIAL_O0") == "full"
LAYOUTS = ("aligned", "offset", "offset-max", "mixed")
# -O0's comparisons run in `make test-o0`; `make test` pins -O0's forms
# (CI time: docs/test-speed.md).
CHECKED_LEVELS = LEVELS if FULL_O0 else (3,)

FLAT_FORM, LOOP_FORM = "flat copy", "block loop"
# GridVariant.cpp's describe(GridVariantForm), the report's "does" and the
# remark's last words
DOES = {
    FLAT_FORM: "one flat copy of the original grid's elements by all threads when aligned and disjoint, "
               "else each block loops over original blocks",
    LOOP_FORM: "each block loops over original blocks",
}
TAKEN = "launch reshaped where its grid is larger than the device holds"
EXIT = "launch kept: a thread may return while others of its block still synchronize"

# One flat copy, at both levels unless said. At -O3 instcombine joins two
# bounds tested together into one `and` (the copy's branch then tests no
# bound itself: block loop), and folds `i <= n && i != n` into `i < n`.
FLAT_BOTH = {
    "unguarded", "guarded", "inclusive", "inclusive_all", "unsigned_bound", "constant_bound",
    "unsigned_outside_signed", "early_return", "swapped_compare", "short_grid", "index_64", "char_records",
    "struct_assign", "shifted_members", "element_offset", "from_global", "restricted", "block_2d",
}
TWO_BOUNDS = {"nested_bounds", "signed_then_unsigned", "unsigned_then_signed"}
FLAT = {3: FLAT_BOTH | {"inclusive_not_last"}, 0: FLAT_BOTH | TWO_BOUNDS}
# A variant that loops over the original blocks: a guard that is not a
# bound of gid (blockIdx.x, threadIdx.y), an index that is not gid, a
# bound computed from a parameter or reading gridDim.x, a 64-bit `<=`; at
# -O3 two copies and a copy beside a store (whose rewrites -O0 refuses),
# and the joined bounds.
LOOP_BOTH = {"block_guard", "row_guard", "double_index", "bound_minus_one", "bound_reads_grid", "index_64_inclusive"}
LOOP = {3: LOOP_BOTH | TWO_BOUNDS | {"two_copies", "copy_and_tag"}, 0: LOOP_BOTH}
# Refused a variant: data_guard's dst is staged through warp tiles (its
# copy, under a data guard, is no region copy), whose warps synchronize
# after the divergent guard.
REFUSED = {3: {"data_guard": EXIT}, 0: {"data_guard": EXIT}}
# No launch decision: the atomic (a call), a copy within one array ("source
# and destination are the same buffer"); at -O0 the `!=` guard (not a
# bound), two copies and the copy beside a store (its destination may be
# written elsewhere).
NOT_REWRITTEN = {
    3: {"copy_and_atomic", "same_array"},
    0: {"copy_and_atomic", "same_array", "inclusive_not_last", "two_copies", "copy_and_tag"},
}
# Flat variants that compute other bytes (the module's docstring): none
# since the fix; a BROKEN one must differ in the aligned layout, where the
# flat copy runs, at every g and schedule, and nowhere else.
BROKEN: dict[int, set[str]] = {3: set(), 0: set()}


def kernel_names() -> set[str]:
    return global_kernels(SOURCE)


def symbols(report: dict) -> dict[str, str]:
    return {k["name"]: k["symbol"] for k in report["kernels"]}


@functools.cache
def grid_of(name: str) -> int:
    """NAME's original grid in x, G, at the spec's one size."""
    spec = load_spec(SPEC)
    (size,) = spec.sizes
    return spec.kernels[name].dims(size)[0][0]


def reshape_remarks(remarks: str) -> dict[str, str]:
    """Function symbol -> the text of its LaunchReshaped remark (the YAML's
    string arguments joined)."""
    found = {}
    for block in remarks.split("\n--- !")[1:]:
        if re.search(r"^Name:\s+LaunchReshaped$", block, re.M):
            function = re.search(r"^Function:\s+(\S+)", block, re.M)
            assert function, block
            parts = re.findall(r"^\s+- String:\s+(.*)$", block, re.M)
            found[function[1]] = "".join(p[1:-1].replace("''", "'") if p.startswith("'") else p for p in parts)
    return found


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("flat-variants"), LEVELS, *OPTIONS, "-q")


def schedules(level: int, name: str) -> tuple[Schedule, ...]:
    """The schedules NAME's variant runs under at -O<LEVEL>: all four for
    the flat copies at -O3; forward and reverse for the block loops (the
    form test_grid_variants.py attacks) and at -O0, as the corpus runs -O0
    (all four with COALDA_ADVERSARIAL_O0=full)."""
    return SCHEDULES if level == 3 and name in FLAT[3] or FULL_O0 else (FORWARD, REVERSE)


@pytest.fixture(scope="module")
def checked(optimized: dict) -> dict[int, VariantsChecked]:
    spec = load_spec(SPEC)
    found = {}
    for level in CHECKED_LEVELS:
        out = optimized[level][0]
        run = VariantsChecked()
        names = FLAT[level] | LOOP[level]
        for each in {schedules(level, name) for name in names}:
            part = check_variants(optimize_outputs(out, SOURCE.stem), spec, schedules=each,
                                  kernels={name for name in names if schedules(level, name) == each})
            run.results += part.results
            run.skipped |= part.skipped
        found[level] = run
    return found


def test_pins_are_complete() -> None:
    names = kernel_names()
    assert set(tomllib.loads(SPEC.read_text())["kernels"]) == names and 30 <= len(names) <= 45, len(names)
    for level in LEVELS:
        assert_partition(names, [FLAT[level], LOOP[level], set(REFUSED[level]), NOT_REWRITTEN[level]], level)
        assert BROKEN[level] <= FLAT[level]
    assert len(FLAT_BOTH) >= 15 and len(LOOP_BOTH) >= 6


# The report's per-kernel "launch" objects, the variants the after-IR
# defines (each with one more parameter, i32 %coalda.grid; the flat ones
# with the flat copy's blocks, the others without), and each reshaped
# kernel's remark, which ends with its form's description.
@pytest.mark.parametrize("level", LEVELS)
def test_forms_are_pinned(level: int, optimized: dict) -> None:
    out, report = optimized[level]
    found = {k["name"]: k.get("launch") for k in report["kernels"]}
    assert set(found) == kernel_names() and len(found) == len(report["kernels"])
    forms = {name: launch["form"] for name, launch in found.items() if launch and launch["reshaped"]}
    assert {name for name, form in forms.items() if form == FLAT_FORM} == FLAT[level], (
        sorted({n for n, f in forms.items() if f == FLAT_FORM} ^ FLAT[level]))
    assert {name for name, form in forms.items() if form == LOOP_FORM} == LOOP[level], (
        sorted({n for n, f in forms.items() if f == LOOP_FORM} ^ LOOP[level]))
    assert set(forms.values()) <= {FLAT_FORM, LOOP_FORM}
    refused = {name: launch["reason"] for name, launch in found.items() if launch and not launch["reshaped"]}
    assert set(refused) == set(REFUSED[level])
    for name, reason in REFUSED[level].items():
        assert refused[name].startswith(reason) and "form" not in found[name], found[name]  # type: ignore[operator]
    assert {name for name, launch in found.items() if launch is None} == NOT_REWRITTEN[level]

    syms = symbols(report)
    after = (out / f"{SOURCE.stem}.after.ll").read_text()
    variants = variant_symbols(after)
    assert {name for name, sym in syms.items() if sym in variants} == set(forms)
    remarks = reshape_remarks((out / f"{SOURCE.stem}.remarks.yaml").read_text())
    for name, form in forms.items():
        launch = found[name]
        assert launch is not None and launch["reason"].startswith(TAKEN), launch
        assert launch["variant"] == syms[name] + SUFFIX and launch["does"] == DOES[form], launch
        body = function_text(after, syms[name] + SUFFIX)
        signature = rf"^define [^\n]*@{re.escape(syms[name] + SUFFIX)}\([^\n]*, i32 %coalda\.grid\)"
        assert re.search(signature, body, re.M), name
        flat = "%flat.ok = " in body and "\nflat.orig:" in body and "%flat.gids = " in body
        assert flat == (form == FLAT_FORM), name
        assert f"({DOES[form]}); until measured, the " in remarks[syms[name]], remarks[syms[name]]


# Every variant against its original at every g of variant_blocks(G), in
# the four layouts (and the overlap and alias ones where no pointer is
# __restrict__) under every schedule (-O0: forward and reverse). The BROKEN
# variants differ exactly where the flat copy runs: the aligned layout, at
# every g and schedule, in dst; nowhere else.
@pytest.mark.parametrize("level", CHECKED_LEVELS)
def test_every_variant_computes_the_original_bytes(level: int, checked: dict) -> None:
    run: VariantsChecked = checked[level]
    assert not run.skipped, run.skipped
    assert run.kernels() == FLAT[level] | LOOP[level]
    good = [r for r in run.failures if r.result.kernel not in BROKEN[level]]
    assert not good, run.summary()
    for name in FLAT[level] | LOOP[level]:
        mine = [r for r in run.results if r.result.kernel == name]
        names = {str(s) for s in schedules(level, name)}
        grid = grid_of(name)
        assert {r.grid for r in mine} == {grid} and grid in (7, 8, 11, 32), (name, grid)
        assert {r.blocks for r in mine} == set(variant_blocks(grid)), name
        assert {(r.result.layout, r.result.schedule) for r in mine} >= {
            (layout, schedule) for layout in LAYOUTS for schedule in names}, name
        # nothing compared vacuously: the only unchecked case is the alias
        # layout of element_offset (its original races there)
        unchecked = {(r.result.layout) for r in mine if r.result.verdict is Verdict.UNCHECKED}
        assert unchecked == ({"alias"} if name == "element_offset" else set()), (name, unchecked)
        if name in BROKEN[level]:
            bad = {(r.blocks, r.result.schedule) for r in mine
                   if r.result.verdict is Verdict.MISMATCH and r.result.layout == "aligned"
                   and r.result.detail.startswith("dst:")}
            assert bad == {(g, s) for g in variant_blocks(grid) for s in names}, (name, sorted(bad))
            assert all(r.result.match for r in mine if r.result.layout != "aligned"), name


# The planted edits, at -O3, each into one kernel's variant (one module,
# one comparison run, the forward schedule, no overlap layouts).
def skip_block_loop(body: str) -> str:
    """flat.orig goes straight to vgrid.done: the variant does its flat copy
    or nothing."""
    return re.sub(r"(\nflat\.orig:[^\n]*\n\s*br i1 )%[\w.]+(, label %entry, label %vgrid\.done)", r"\1false\2",
                  body)


def ignore_bound(body: str) -> str:
    """The element count is G * blockDim.x, the bounds' min left out."""
    return re.sub(r"(%[\w.]+) = call i64 @llvm\.[su]min\.i64\(i64 %flat\.gids, i64 %[\w.]+\)",
                  r"\1 = add i64 %flat.gids, 0", body)


def own_grid(body: str) -> str:
    """The element count reads the variant's own grid (nctaid.x) for G."""
    return re.sub(r"(%[\w.]+ = )zext i32 %coalda\.grid to i64", r"\1zext i32 %vgrid.step to i64", body)


def shift_start(body: str) -> str:
    """Each thread's first 16-byte unit is its neighbour's: unit 0 is never
    moved."""
    return re.sub(r"(%[\w.]+) = mul i64 %flat\.gid, 16",
                  r"%flat.gid.next = add i64 %flat.gid, 1\n  \1 = mul i64 %flat.gid.next, 16", body)


def double_stride(body: str) -> str:
    """The grid-stride step of the 16-byte units doubled: every other round
    of units is skipped."""
    return re.sub(r"%flat\.units\.step = mul i64 %flat\.threads, 16", "%flat.units.step = mul i64 %flat.threads, 32",
                  body)


def drop_tail(body: str) -> str:
    """The member-width tail after the last whole unit is not moved."""
    return re.sub(r"icmp ult i64 (%[\w.]+), %flat\.bytes,", r"icmp ult i64 \1, %flat.whole,", body)


# kernel -> (its edit, {g: the layouts that match there} for every g of its
# variant_blocks(G); the others must mismatch)
ALL = set(LAYOUTS)
Expect = dict[int, set[str]]


def at_every_g(grid: int, layouts: set[str]) -> Expect:
    return {g: layouts for g in variant_blocks(grid)}


# The block loop skipped in every other flat variant (the BROKEN ones
# and unsigned_outside_signed, which copies nothing, aside): the flat copy does everything where it runs, and nothing
# elsewhere. It runs where both bases are 16-byte aligned: in the aligned
# layout; for shifted_members, whose region starts 4 bytes into its
# element, at +12 (offset-max); for from_global, whose other base is the
# global, wherever dst (parameter 0) is aligned (the mixed layout too).
FLAT_LAYOUTS = {"shifted_members": {"offset-max"}, "from_global": {"aligned", "mixed"}}
# Planted bugs of the flat copy, caught in the aligned layout (where it
# runs) at the g that expose them, and nowhere else: the count without its
# bound (inclusive: 1024 elements for 999; short_grid's bound, n = 1000, is
# above G * 128 = 896: nothing changes), the count of the variant's own
# grid for G (unguarded: g * 128 elements, all of them only at g = G), each
# thread's first unit its neighbour's (unit 0 never moved), the units'
# stride doubled (struct_assign's 750 units: one round for 896 and 1024
# threads, several for fewer; a halved stride would move every unit twice,
# the same bytes), the member-width tail dropped (constant_bound's 11988
# bytes and char_records' 3000 end in one; element_offset's 12000 bytes are
# whole units: nothing changes).
PLANTED: dict[str, tuple[Callable[[str], str], Expect]] = {
    "inclusive": (ignore_bound, at_every_g(8, ALL - {"aligned"})),
    "short_grid": (ignore_bound, at_every_g(7, ALL)),
    "unguarded": (own_grid, {1: ALL - {"aligned"}, 2: ALL - {"aligned"}, 3: ALL - {"aligned"},
                             6: ALL - {"aligned"}, 7: ALL}),
    "unsigned_bound": (shift_start, at_every_g(8, ALL - {"aligned"})),
    "struct_assign": (double_stride, {1: ALL - {"aligned"}, 2: ALL - {"aligned"}, 3: ALL - {"aligned"},
                                      7: ALL, 8: ALL}),
    "constant_bound": (drop_tail, at_every_g(8, ALL - {"aligned"})),
    "char_records": (drop_tail, at_every_g(11, ALL - {"aligned"})),
    "element_offset": (drop_tail, at_every_g(8, ALL)),
}


def test_flat_path_is_what_runs_and_planted_bugs_are_caught(optimized: dict) -> None:
    """Every planted variant matches exactly in the layouts and at the g
    its edit leaves right, and mismatches everywhere else."""
    out, report = optimized[3]
    syms = symbols(report)
    original = optimize_outputs(out, SOURCE.stem)
    after = original.after_ir
    # (unsigned_outside_signed runs with n = -1: the original copies
    # nothing, so a variant that skips its block loop copies nothing too)
    skipped = FLAT[3] - set(PLANTED) - BROKEN[3] - {"unsigned_outside_signed"}
    assert len(skipped) >= 10 and set(FLAT_LAYOUTS) <= skipped
    plants = {name: (skip_block_loop, at_every_g(grid_of(name), FLAT_LAYOUTS.get(name, {"aligned"})))
              for name in skipped} | PLANTED
    for name, (edit, _) in plants.items():
        new = in_function(after, syms[name] + SUFFIX, edit)
        assert new != after, f"the plant in {name} matched nothing"
        after = new
    planted = Compiled(original.before_ir, after, "", "", original.report)
    run = check_variants(planted, load_spec(SPEC), kernels=set(plants), schedules=(FORWARD,), overlap=False)
    assert not run.skipped and run.kernels() == set(plants), run.skipped
    for name, (_, expect) in plants.items():
        mine = [r for r in run.results if r.result.kernel == name]
        assert {(r.blocks, r.result.layout) for r in mine} == {(g, l) for g in expect for l in LAYOUTS}, name
        matched = {(r.blocks, r.result.layout) for r in mine if r.result.match}
        assert matched == {(g, l) for g, layouts in expect.items() for l in layouts}, (
            name, sorted(matched ^ {(g, l) for g, layouts in expect.items() for l in layouts}))
        assert all(r.result.verdict is Verdict.MISMATCH for r in mine if not r.result.match), name
