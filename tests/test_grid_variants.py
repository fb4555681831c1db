"""Attacks on reshaped launches' grid variants (-coalda-reshape-launches:
a rewritten kernel K of one piece of work per thread gets K__coalda_grid,
which loops over the original grid's blocks; pass/lib/GridVariant.cpp;
testcases/adversarial/grid_variants.cu): gridDim.x in values and indices,
blockIdx.x read several times, early returns before a copy and a staging,
2-D and 3-D blocks on the 1-D grid, shared memory (the kernel's and the
staging's), atomics, a struct by value; and kernels that must be refused.
At -O3 and -O0 through `coalda optimize` with the option on: which kernels
get a variant and why the others do not is pinned from the report's
"launch" objects, and every variant runs against its original on the
emulator (coalda/check/variants.py: the original at (G, 1, 1), the
variant at g = 1, 2, 3, G-1 and G blocks with G as its last argument,
every layout, every schedule at -O3 and forward and reverse at -O0). With
the block loops on (-coalda-reshape-block-loops): the cost rule leaves
only flat copies by default (tests/test_flat_variants.py). Bugs planted into variants' IR (the loop's
step doubled, the trailing barrier dropped) must be caught.

Found by this corpus (the plugin of 2026-12-04, when the option landed):
exit_after_syncwarp and exit_after_shuffle got a variant at -O3 that
faulted on the emulator (barrier divergence, at every g, every layout and
schedule): their upper warps return after a __syncwarp / a shuffle while
the lower warps meet at a __syncthreads and then read the upper warps'
shared slots. The variant's refusal (mayExitBeforeSync) walked from the
divergent branch to the return and stopped at any "sync" intrinsic, warp
ones too, as if it were the block's barrier; now only a barrier of the
whole block stops it, and both kernels are refused (EXIT).

About 10 s on two cores (two builds, the emulator's JIT of both modules
at both levels, about 4,000 comparisons).
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from pathlib import Path

import pytest

from conftest import TESTCASES, assert_partition, global_kernels, in_function, optimize_levels, optimize_outputs

from coalda.check.oracle import Verdict
from coalda.check.run_command import Compiled
from coalda.check.spec import load_spec
from coalda.emulator.schedule import FORWARD, REVERSE, SCHEDULES, Schedule
from coalda.check.variants import SUFFIX, VariantsChecked, check_variants, variant_blocks, variant_symbols

SOURCE = TESTCASES / "adversarial" / "grid_variants.cu"
SPEC = SOURCE.with_suffix(".toml")
LEVELS = (3, 0)
# The block loops too: by default only one-copy kernels get a variant (their
# flat copy; tests/test_flat_variants.py), a cost rule since the GPU's run 3
# (docs/runs/launches/README.md). This corpus attacks the loop over blocks.
OPTIONS = ("--pass-arg=-coalda-reshape-launches", "--pass-arg=-coalda-reshape-block-loops")

# The variant's refusals (GridVariant.cpp, describe()), by what the report says.
LOOPS = "launch kept: each thread loops over its own work"
EXIT = "launch kept: a thread may return while others of its block still synchronize"
SHARED = "launch kept: the kernel shares memory without __syncthreads()"
CALLS = "launch kept: the kernel calls a function"
TAKEN = "launch reshaped where its grid is larger than the device holds"

# Given a variant, at both levels unless said.
VARIANT_BOTH = {
    "control", "grid_in_value", "grid_in_index", "grid_y_linear", "block_index_thrice", "last_block",
    "early_return", "early_return_math", "return_after_sync", "uniform_return", "block_2d", "block_3d",
    "soa_to_aos", "soa_to_aos_2d", "shared_neighbour", "shared_2d", "shared_broadcast", "dynamic_shared",
    "sync_count",
}
VARIANT = {
    3: VARIANT_BOTH | {"grid_half", "byval_args", "atomic_per_block", "shared_atomic", "leader_counts"},
    0: VARIANT_BOTH,
}
# Variants that fault on the emulator: none since the fix in the module's
# docstring (the check that they fault stays, for the next such bug).
BROKEN: dict[int, set[str]] = {3: set(), 0: set()}
# Rewritten, and refused a variant: the reason's start. At -O0 atomicAdd,
# __syncwarp and __shfl_xor_sync are calls of the CUDA headers' wrappers:
# a call (calls_helper at both levels) is refused with its own reason,
# before the rewritten kernel is looked at (a helper may loop).
REFUSED_BOTH = {
    "exit_before_sync": EXIT, "exit_rows_2d": EXIT,
    "runtime_loop": LOOPS, "grid_stride": LOOPS, "wait_previous": LOOPS,
    "calls_helper": CALLS, "shared_no_barrier": SHARED,
}
REFUSED = {
    3: REFUSED_BOTH | {"exit_after_syncwarp": EXIT, "exit_after_shuffle": EXIT},
    0: REFUSED_BOTH | {"atomic_per_block": CALLS, "shared_atomic": CALLS, "leader_counts": CALLS,
                       "exit_after_syncwarp": CALLS, "exit_after_shuffle": CALLS},
}
# Not rewritten at all (no launch decision): spin_lock (the staging's cost
# rule, beside a loop of run-time length), and at -O0 grid_half and
# byval_args.
NOT_REWRITTEN = {3: {"spin_lock"}, 0: {"spin_lock", "grid_half", "byval_args"}}


def kernel_names() -> set[str]:
    return global_kernels(SOURCE)


def launches(report: dict) -> dict[str, dict | None]:
    return {k["name"]: k.get("launch") for k in report["kernels"]}


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("grid-variants"), LEVELS, *OPTIONS)


# -O0's comparisons run in `make test-o0` (COALDA_ADVERSARIAL_O0=full);
# `make test` pins -O0's decisions (CI time: docs/test-speed.md).
CHECKED_LEVELS = LEVELS if os.environ.get("COALDA_ADVERSARIAL_O0") == "full" else (3,)


@pytest.fixture(scope="module")
def checked(optimized: dict) -> dict[int, VariantsChecked]:
    """-O3 under every schedule; -O0 (make test-o0) under every one too."""
    spec = load_spec(SPEC)
    return {level: check_variants(optimize_outputs(optimized[level][0], SOURCE.stem), spec,
                                  schedules=schedules_at(level))
            for level in CHECKED_LEVELS}


def schedules_at(level: int) -> tuple[Schedule, ...]:
    return SCHEDULES if level or os.environ.get("COALDA_ADVERSARIAL_O0") == "full" else (FORWARD, REVERSE)


def test_pins_are_complete() -> None:
    names = kernel_names()
    assert set(tomllib.loads(SPEC.read_text())["kernels"]) == names and 25 <= len(names) <= 40, len(names)
    for level in LEVELS:
        assert_partition(names, [VARIANT[level], set(REFUSED[level]), NOT_REWRITTEN[level]], level)
        assert BROKEN[level] <= VARIANT[level]


def test_variant_blocks() -> None:
    assert variant_blocks(1) == [1]
    assert variant_blocks(2) == [1, 2]
    assert variant_blocks(4) == [1, 2, 3, 4]
    assert variant_blocks(8) == [1, 2, 3, 7, 8]


def test_grids_of_more_dimensions_loop_in_x(optimized: dict) -> None:
    """A grid of several rows (or layers) is reshaped in x alone: each row
    of blocks loops over its own row (LaunchGrid.cpp). The variant at
    (g, Y, Z) against the original at (G, Y, Z): grid_y_linear on two rows
    (blockIdx.y and gridDim.x in its index), control on 2x2 rows (each
    row writes the same elements: equal bytes), soa_to_aos's staging on
    two rows."""
    spec = load_spec(SPEC)
    shapes = {"grid_y_linear": ["cdiv(n, 2 * block)", 2], "control": ["cdiv(n, block)", 2, 2],
              "soa_to_aos": ["cdiv(n, block)", 2]}
    spec.kernels = {name: dataclasses.replace(spec.kernels[name], grid=grid) for name, grid in shapes.items()}
    run = check_variants(optimize_outputs(optimized[3][0], SOURCE.stem), spec)
    assert not run.skipped, run.skipped
    assert run.kernels() == set(shapes)
    assert not run.failures, run.summary()
    assert {r.blocks for r in run.results if r.result.kernel == "grid_y_linear"} == {1, 2, 3, 4}  # G = 4


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_are_pinned(level: int, optimized: dict) -> None:
    out, report = optimized[level]
    found = launches(report)
    made = {name for name, launch in found.items() if launch and launch["reshaped"]}
    assert made == VARIANT[level], (sorted(made - VARIANT[level]), sorted(VARIANT[level] - made))
    for name in VARIANT[level]:
        assert found[name]["reason"].startswith(TAKEN), (name, found[name])  # type: ignore[index]
    refused = {name: launch["reason"] for name, launch in found.items() if launch and not launch["reshaped"]}
    assert set(refused) == set(REFUSED[level]), (sorted(set(refused) ^ set(REFUSED[level])))
    for name, reason in REFUSED[level].items():
        assert refused[name].startswith(reason), (name, refused[name])
        assert not found[name].get("variant"), found[name]  # type: ignore[union-attr]
    assert {name for name, launch in found.items() if launch is None} == NOT_REWRITTEN[level]
    # the after-IR defines exactly the variants the report names, each with
    # one more parameter (i32) than its kernel
    after = (out / f"{SOURCE.stem}.after.ll").read_text()
    symbols = {k["name"]: k["symbol"] for k in report["kernels"]}
    variants = variant_symbols(after)
    assert {name for name, sym in symbols.items() if sym in variants} == VARIANT[level]
    for name in VARIANT[level]:
        assert found[name]["variant"] == symbols[name] + SUFFIX  # type: ignore[index]
        assert re.search(rf"^define [^\n]*@{re.escape(symbols[name] + SUFFIX)}\([^\n]*, i32 %coalda\.grid\)",
                         after, re.M), name


@pytest.mark.parametrize("level", CHECKED_LEVELS)
def test_every_variant_computes_the_original_bytes(level: int, checked: dict) -> None:
    """Every variant at g = 1, 2, 3, 7, 8 (7 blocks for the kernels with no
    guard: 1, 2, 3, 6, 7) against its original at G, every layout and
    schedule; the BROKEN ones fault, everywhere."""
    run: VariantsChecked = checked[level]
    assert not run.skipped, run.skipped
    assert run.kernels() == VARIANT[level]
    good = [r for r in run.failures if r.result.kernel not in BROKEN[level]]
    assert not good, run.summary()
    for name in BROKEN[level]:
        mine = [r for r in run.results if r.result.kernel == name]
        assert mine and all(r.result.verdict is Verdict.FAULT and "barrier divergence" in r.result.detail
                            for r in mine if r.result.layout in ("aligned", "offset", "offset-max", "mixed")), name
    # each kernel ran at every g, under every schedule, in the four layouts
    for name in VARIANT[level]:
        mine = [r for r in run.results if r.result.kernel == name]
        grid = mine[0].grid
        assert grid in (7, 8)
        assert {r.blocks for r in mine} == set(variant_blocks(grid)), name
        assert {(r.result.layout, r.result.schedule) for r in mine} >= {
            (layout, str(schedule)) for layout in ("aligned", "offset", "offset-max", "mixed")
            for schedule in schedules_at(level)}, name


# The planted bugs, at -O3: the loop's step doubled (the variant skips
# every other original block once g < G), and the trailing barrier dropped
# in kernels that read shared memory after their last barrier (the next
# virtual block overwrites a slot before a slower thread has read it):
# dynamic_shared's own, early_return_math's staging tile (written before
# its first barrier: no vote). Where a barrier follows the last read
# (shared_neighbour: the staging's; soa_to_aos: its vote before the tile
# is written) the trailing barrier is not needed, and dropping it changes
# nothing.
def double_step(body: str) -> str:
    return re.sub(r"%vgrid\.after = add nuw i32 %vgrid\.block, %vgrid\.step",
                  "%vgrid.twice = shl i32 %vgrid.step, 1\n  %vgrid.after = add nuw i32 %vgrid.block, %vgrid.twice",
                  body)


def no_trailing_barrier(body: str) -> str:
    return re.sub(r"(vgrid\.next:[^\n]*\n)\s*call void @llvm\.nvvm\.barrier0\(\)[^\n]*\n", r"\1", body)


PLANTED = {  # kernel -> the edit of its variant, or None
    "control": double_step,
    "soa_to_aos": double_step,
    "dynamic_shared": no_trailing_barrier,
    "early_return_math": no_trailing_barrier,
    "block_2d": None,
}


def test_planted_bugs_are_caught(optimized: dict) -> None:
    """The planted kernels fail at g = 1, 2, 3 (the dropped barrier: under
    some schedules at least) and match at g = G; block_2d, planted nothing,
    matches."""
    out, report = optimized[3]
    symbols = {k["name"]: k["symbol"] for k in report["kernels"]}
    original = optimize_outputs(out, SOURCE.stem)
    after = original.after_ir
    for name, edit in PLANTED.items():
        if edit is not None:
            new = in_function(after, symbols[name] + SUFFIX, edit)
            assert new != after, f"the plant in {name} matched nothing"
            after = new
    planted = Compiled(original.before_ir, after, "", "", original.report)
    run = check_variants(planted, load_spec(SPEC), kernels=set(PLANTED), overlap=False)
    failing = {(r.result.kernel, r.blocks) for r in run.failures}
    assert {name for name, _ in failing} == {name for name, edit in PLANTED.items() if edit}, run.summary()
    for name, edit in PLANTED.items():
        if edit is None:
            continue
        grid = next(r.grid for r in run.results if r.result.kernel == name)
        fails = {g for kernel, g in failing if kernel == name}
        # at g = G each block runs once: nothing planted matters; at g = 7
        # of 8, block 0 runs block 7 after block 0, the partial one, which
        # takes early_return_math's unstaged path (no tile)
        assert {1, 2, 3} <= fails and grid not in fails, (name, sorted(fails))
    verdicts = {(r.result.kernel, r.result.verdict) for r in run.failures}
    assert ("control", Verdict.MISMATCH) in verdicts
    assert {verdict for kernel, verdict in verdicts if kernel in ("dynamic_shared", "early_return_math")} <= {
        Verdict.RACE, Verdict.MISMATCH}


def test_transposes_variants_on_their_2d_grids(tmp_path: Path) -> None:
    """testcases/transpose.cu's kernels (a transposed store staged through a
    block's shared tile, 2-D blocks) on their own 2-D grids: each row of
    blocks of the variant loops over its row, the tile reused from one
    virtual block to the next behind the variant's barrier. Issue 40's
    transposes are launched this way until their own form is built."""
    source = TESTCASES / "transpose.cu"
    (out, _), = optimize_levels(source, tmp_path, (3,), *OPTIONS).values()
    spec = load_spec(source.with_suffix(".toml"))
    run = check_variants(optimize_outputs(out, source.stem), spec, sizes=spec.sizes[:2])
    assert run.kernels() == {"transpose_naive", "transpose_scale"} and not run.skipped, run.skipped
    assert not run.failures, run.summary()
    assert all(spec.kernels[name].dims(n)[0][1] > 1 for name in run.kernels() for n in spec.sizes[:2])  # 2-D grids
