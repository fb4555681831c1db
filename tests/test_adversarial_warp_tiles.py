"""The warp-tile adversary (testcases/adversarial/warp_tiles.cu): kernels that
return early on data, so that their element stagings go in warp tiles (a full
warp whose 32 lanes reach the accesses together and pass the checks is staged
on its own, the others run the original code), through `coalda run
--emulate` at -O3 and -O0 (every layout, every schedule: the shuffled one
also runs a warp's lanes apart at the `__activemask()`), with the decisions
pinned: a kernel the pass never stages proves nothing, so the attacking
kernels must stay staged in warp tiles, and the ones it must refuse must stay
refused.

The grid-stride loops with a data-dependent `continue` (grid_continue,
grid_continue_d3: one block walks every element) are staged per iteration
in warp tiles; a warp whose lanes run together in two iterations (the ones
that skipped run ahead) must not be taken for one row.

Also: blocks whose last warp is partial (80 and 48 threads); a bug planted in
the staged path (lanes 16-31 move lanes 0-15's units) shows up in every
warp-staged kernel, so the inputs do stage full warps in each of them; and
`-coalda-stage-warp-tiles=never` stages none of them in warp tiles.

Found while writing it (`shfl_orders`, now refused): a kernel that reads a
neighbour lane's staged member through another pointer after a
`__shfl_xor_sync` in the region (`r[i] = ((float *)a)[3 * (i ^ 1)]`)
differed from the original in warp and in block tiles: the shuffle runs the
lanes in step, so the original reads the neighbour's new value (the emulator
orders memory there; PTX's memory model only promises it at bar.warp.sync
and barriers), and the tile held the store back. A warp collective between
the accesses beside a run-time checked access now refuses the staging.

n = 300 here: two full blocks of 128 and a partial one;
tests/test_adversarial.py runs the spec's sizes (300 and 1000) with the
default options.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import (
    TESTCASES, assert_all_match, compared, differing_kernels, emulate_levels, optimize_levels, plant, plant_lane_bug,
    run_in_process,
)

SOURCE = TESTCASES / "adversarial" / "warp_tiles.cu"
SPEC = TESTCASES / "adversarial" / "warp_tiles.toml"
LEVELS = (3, 0)
SMALL = "--pass-arg=-coalda-stage-small-always"

# Staged in warp tiles at both levels.
WARP_BOTH = {
    "basic", "prologue_view", "epilogue_view", "epilogue_write", "ifelse_reconverge", "two_strides", "elem40",
    "shifted_base", "same_buffer", "exit_after", "switch_before", "goto_before", "helper", "helper_noinline",
    "own_shared", "shfl_inside", "ballot_inside", "stores_only", "write_before_exit", "reaccess_after_exit",
    "syncwarp_before", "block_stride", "param_offset", "bounded100", "read_neighbour", "scatter_own",
    "gather_own", "span_branches", "exit_after_syncwarp", "exit_on_member", "two_exits", "loop_before",
    "helper_twice", "grid_continue", "grid_continue_d3", "gaps",
}
WARP = {
    # -O3: the __syncwarp after the region stays outside it; the struct copy
    # is scalarized; the 192-byte element's loop unrolls; the helper's loop
    # (one or two trips) is peeled, its first call staged; the trap's
    # branch splits the members (y and z after it staged, 8 of 12 bytes
    # written back); the float4s' unchanged members are not stored (8 of 32).
    3: WARP_BOTH | {"syncwarp_after", "struct_assign", "elem192", "helper_in_loop", "trap_inside", "vec32"},
    # -O0: the trap's branch keeps all three members in one control class;
    # SROA scalarizes the struct copy and the float4s, and the 192-byte
    # element's loop is unrolled, as at -O3.
    0: WARP_BOTH | {"trap_inside", "struct_assign", "vec32", "elem192"},
}
# Staged in a block tile: the one early return reads alive[threadIdx.x],
# which the block's vote computes before it.
BLOCK = {"tid_only"}
# Never staged: a shuffle between the accesses beside a read of a
# neighbour's element through another pointer, a __syncwarp between them, a member written on one
# side of a branch, data-dependent offsets and array choices, a reversed
# index, 1- and 2-byte members (cost rule), a
# data-dependent loop between the accesses, the accesses in a loop, index
# forms the address walker does not take apart.
LEFT_BOTH = {"shfl_orders", "syncwarp_inside", "cond_member", "phi_offset", "select_offset", "reversed", "bytes3",
             "shorts3", "pick_array", "span_loop", "warp_lane_index",
             "warp_lane_index2", "lane_only"}
LEFT = {
    3: LEFT_BOTH,
    # -O0: the __syncwarp lands in the region; the helper's loop stays a
    # loop.
    0: LEFT_BOTH | {"syncwarp_after", "helper_in_loop"},
}
# Threads the tiles are sized for where not 512: __launch_bounds__(100),
# 192-byte elements, and 1024 where no element is read-modify-written at 16
# bytes or less (the cost rule's 512).
THREADS = {"bounded100": 100, "two_strides": 1024, "elem40": 1024, "same_buffer": 1024, "stores_only": 1024,
           "read_neighbour": 1024, "two_exits": 1024, "basic": 512}
# __syncwarps: after the loads (read-modify-writes), before the stores, and
# around the region where the thread touches its element through another
# pointer before it (prologue_view, write_before_exit) or after it
# (epilogue_view); stores only: before and after the stores. epilogue_write's
# store through its float view is staged as a second array (4 of its 12
# bytes written back), checked against a's at run time: no barrier after.
BARRIERS = {"basic": 3, "prologue_view": 4, "write_before_exit": 4, "epilogue_view": 4, "epilogue_write": 3,
            "stores_only": 2, "same_buffer": 2}


def _report(out: Path) -> dict:
    return json.loads((out / f"{SOURCE.stem}.report.json").read_text())


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-warp-tiles"), LEVELS, SMALL)


@pytest.fixture(scope="module")
def emulated(optimized: dict[int, tuple[Path, dict]]) -> dict[int, subprocess.CompletedProcess[str]]:
    return emulate_levels(SOURCE, optimized, "--sizes", "300")


def tiles(report: dict) -> dict[str, str]:
    """Kernel -> "warp" / "block" for its transformed element staging."""
    return {k["name"]: s["tile"] for k in report["kernels"] for s in k.get("stagings", [])
            if s["transformed"] and s.get("kind", "element") == "element"}


@pytest.mark.parametrize("level", compared(LEVELS))
def test_every_kernel_computes_the_original_bytes(level: int, emulated: dict) -> None:
    assert_all_match(emulated[level])


@pytest.mark.parametrize("level", LEVELS)
def test_staging_decisions_are_pinned(level: int, optimized: dict) -> None:
    report = optimized[level][1]
    names = {k["name"] for k in report["kernels"]}
    assert WARP[level] | BLOCK | LEFT[level] == names, "a kernel without a pinned decision"
    got = tiles(report)
    assert {k for k, t in got.items() if t == "warp"} == WARP[level]
    assert {k for k, t in got.items() if t == "block"} == BLOCK
    for k in report["kernels"]:
        for s in k.get("stagings", []):
            if s["transformed"] and s["tile"] == "warp":
                where = "on each iteration of the grid-stride loop" if "continue" in k["name"] else "on its own"
                assert f"each full warp {where}" in s["reason"], (k["name"], s["reason"])
    threads = {k["name"]: s["threads"] for k in report["kernels"] for s in k.get("stagings", []) if s["transformed"]}
    assert {k: threads[k] for k in THREADS} == THREADS
    barriers = {k["name"]: s["barriers"] for k in report["kernels"] for s in k.get("stagings", [])
                if s["transformed"]}
    assert {k: barriers[k] for k in BARRIERS} == BARRIERS
    reasons = {k["name"]: s["reason"] for k in report["kernels"] for s in k.get("stagings", [])}
    assert "__syncwarp()" in reasons["syncwarp_inside"]
    assert "under a branch writes bytes" in reasons["cond_member"]
    # every other element: the rows are staged, the gaps not written back
    assert "12 of its bytes written back" in reasons["gaps"]


@pytest.mark.parametrize("block", [80, 48])
def test_partial_warps_run_the_original_code(block: int, optimized: dict, tmp_path: Path) -> None:
    """The last warp of each block is partial (16 lanes): its activemask
    lacks lanes, so it runs the original code beside the staged full warps
    (bounded100 keeps its 100, the exact-grid kernels their blocks)."""
    text = SPEC.read_text().replace("block = 128", f"block = {block}")
    spec = tmp_path / "warp_tiles.toml"
    spec.write_text(text)
    assert_all_match(run_in_process("run", SOURCE, "--emulate", "-q", "--sizes", "300", "--spec", spec, "--from", optimized[3][0]))


def test_every_warp_kernel_stages_full_warps(optimized: dict, tmp_path: Path) -> None:
    """A bug planted in the staged path (the row's lane is tid & 15: lanes
    16-31 move lanes 0-15's units again, the others' stay unmoved) changes
    the bytes of every warp-staged kernel: the inputs give each of them full
    warps that go."""
    bad = plant_lane_bug(optimized[3][0], tmp_path)
    run = run_in_process("run", SOURCE, "--emulate", "-q", "--sizes", "300", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    caught = differing_kernels(run)
    assert caught == WARP[3], (sorted(WARP[3] - caught), sorted(caught - WARP[3]))


def test_a_warp_of_two_iterations_is_not_one_row(optimized: dict, tmp_path: Path) -> None:
    """In the grid-stride loops with a data-dependent continue, lanes that
    skip an iteration run ahead to the next one's activemask and read one
    mask with lanes still in the iteration before: with the row test planted
    away (every lane's row start is lane 0's) such a warp is staged as one
    row, and both loops differ; no other kernel has the test."""
    row = re.compile(r"%coalda\.one\.row = and i1 [^,\n]+, [^,\n]+")
    bad = plant(optimized[3][0], tmp_path, lambda text: row.sub("%coalda.one.row = and i1 true, true", text))
    run = run_in_process("run", SOURCE, "--emulate", "-q", "--sizes", "300", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    assert differing_kernels(run) == {"grid_continue", "grid_continue_d3"}


def test_never_stages_none_in_warp_tiles(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_in_process("optimize", "-q", SOURCE, "-o", out, "--no-ptx", SMALL, "--pass-arg=-coalda-stage-warp-tiles=never")
    assert proc.returncode == 0, proc.stderr
    report = _report(out)
    got = tiles(report)
    assert "warp" not in got.values()
    # the store before the data exit, part of each element, is then staged
    # on its own (the accesses after the exit may not be)
    assert set(got) == BLOCK | {"prologue_view", "write_before_exit"}
    reasons = {k["name"]: s["reason"] for k in report["kernels"] for s in k.get("stagings", [])}
    assert "no barrier may go there" in reasons["basic"]
