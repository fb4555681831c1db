"""The arrays-in-turn adversary (testcases/adversarial/arrays_in_turn.cu):
written records whose warp tiles do not fit together go through one tile one
array at a time (StagingPlan::ArraysInTurn, issue 39 item 5: lulesh's hgc
writes six 64-byte records per thread, 96 KB of tiles at 256 threads).
Through `coalda run --emulate` at -O3 and -O0 (every layout; every schedule
at -O3), with the decisions pinned: the attacking kernels must stay staged
in turn, the ones that must be refused stay refused. A bug planted in the
staged path (the barrier between one array's row copy and the next array's
values in the tile taken out) is caught in every kernel staged in turn; and
`-coalda-stage-arrays-in-turn=false` stages none of them.

Found while writing it: the GPU (docs/runs/arrays-in-turn/) showed
mixed_strides differ where the emulator did not. Each warp's slice of the
tile moved with the array's stride, so a warp an array ahead of another
wrote into that warp's slice; the emulator ran the warps in step at their
__syncwarps. Now a warp keeps one slice (the largest element's), and the
shuffled schedule starts warps up to three intervals apart. And the random
family (tests/turn_kernels.py) found that a record written in part with
more than 32 units lost units 32 and up in the row copy's 32-bit test of
the mask: wide_partial, staged in one tile of its own, pins it.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from coalda.report import staging_action
from conftest import (
    TESTCASES, assert_all_match, compared, differing_kernels, emulate_levels, optimize_levels, plant, run_in_process,
)

SOURCE = TESTCASES / "adversarial" / "arrays_in_turn.cu"
LEVELS = (3, 0)

# Staged one array at a time, with the threads the tile is sized for: the
# largest record's tile for 512 threads where it fits 48 KB (64-byte records:
# 32 KB), else 256 (128-byte: 32 KB), and __launch_bounds__(128).
IN_TURN = {"six_records": 512, "stored_twice": 512, "branch_values": 512, "partial_units": 256,
           "mixed_strides": 256, "aliased_pair": 256, "read_back": 256, "data_exit": 512, "bounded128": 128,
           "one_side": 256}
# -O0 unrolls the loops of 8 stores but not those of 16 and 32 (the
# kernels whose records are 128 bytes, and stored_twice's second loop):
# their accesses are in a loop there (StagingInLoop), as the staging's
# other kinds are.
IN_TURN_AT = {3: IN_TURN, 0: {k: IN_TURN[k] for k in ("six_records", "branch_values", "partial_units",
                                                      "data_exit", "bounded128")}}
# Staged in one warp tile of its own (it fits alone): a 48-float record
# written in part, whose stored-units mask reaches past unit 32.
SINGLE = {"wide_partial"}
# Refused: a record also read, a largest record whose tile alone does not
# fit, a grid-stride loop (all three: StagingTileTooLarge).
REFUSED = {"also_read", "too_big_alone", "grid_stride"}
# Barriers of the staged path: one before each array's row goes back, one
# between arrays, and one after the last where the thread touches a staged
# array after the region (the conditional store of one_side, the read of
# read_back, and the kernels' own early exits: legality's trailing barrier).
ARRAYS = {"six_records": 6, "stored_twice": 4, "branch_values": 4, "partial_units": 3, "mixed_strides": 4,
          "aliased_pair": 3, "read_back": 3, "data_exit": 6, "bounded128": 8, "one_side": 3}


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-arrays-in-turn"), LEVELS)


@pytest.fixture(scope="module")
def emulated(optimized: dict[int, tuple[Path, dict]]) -> dict[int, subprocess.CompletedProcess[str]]:
    return emulate_levels(SOURCE, optimized, "--sizes", "300")


def in_turn(report: dict) -> dict[str, dict]:
    """Kernel -> its transformed element staging that goes one array at a time."""
    return {k["name"]: s for k in report["kernels"] for s in k.get("stagings", [])
            if s["transformed"] and s.get("arrays_in_turn")}


@pytest.mark.parametrize("level", compared(LEVELS))
def test_every_kernel_computes_the_original_bytes(level: int, emulated: dict) -> None:
    assert_all_match(emulated[level])


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_are_pinned(level: int, optimized: dict) -> None:
    report = optimized[level][1]
    names = {k["name"] for k in report["kernels"]}
    assert names == set(IN_TURN) | REFUSED | SINGLE, "a kernel without a pinned decision"
    got = in_turn(report)
    assert {k: s["threads"] for k, s in got.items()} == IN_TURN_AT[level]
    for name, staging in got.items():
        assert staging["tile"] == "warp", name
        assert len(staging["arrays"]) == ARRAYS[name], name
        largest = max(a["stride"] for a in staging["arrays"])
        assert staging["tile_bytes"] == largest * IN_TURN[name], name
        assert staging["barriers"] in (2 * ARRAYS[name] - 1, 2 * ARRAYS[name]), (name, staging["barriers"])
        assert "one array at a time through one tile" in staging["reason"], name
    refused = {k["name"]: [s.get("missed") for s in k.get("stagings", [])] for k in report["kernels"]
               if k["name"] in REFUSED}
    if level == 3:
        assert refused == {k: ["StagingTileTooLarge"] for k in REFUSED}
        (too_big,) = [s["reason"] for k in report["kernels"] if k["name"] == "too_big_alone"
                      for s in k["stagings"]]
        assert too_big.endswith("nor does the largest element's alone (256 bytes), which one array at a time "
                                "would take"), too_big
    else:  # their loops stay loops
        # also_read's loop reads a (a[i].v[k] += t): a window takes the
        # loads, and its stores say why no store window takes them (the
        # window candidate holds them, so no element staging is tried)
        also_read = refused.pop("also_read")
        assert also_read == [None], also_read
        reasons = {a["left_out"] for k in report["kernels"] if k["name"] == "also_read"
                   for a in k["accesses"] if a["kind"] == "store" and a.get("left_out")}
        assert any("its loop reads the array it writes" in r for r in reasons), reasons
        assert all("StagingInLoop" in missed for missed in refused.values()), refused
    # the stored-units mask, per array: units 0-3 and 6 of 16 doubles (at
    # -O0 the stores of unit 6 lie in the block after the loop, outside the
    # region: units 0-3)
    partial = got["partial_units"]["arrays"]
    assert [a["written_back"] for a in partial] == [40 if level == 3 else 32] * 3
    wide = [s for k in report["kernels"] if k["name"] == "wide_partial" for s in k["stagings"] if s["transformed"]]
    if level == 3:  # -O0 keeps its loop
        assert not wide[0].get("arrays_in_turn") and wide[0]["tile"] == "warp"
        assert wide[0]["arrays"][0]["written_back"] == 38 * 4  # 48 floats but every fifth from the third


def test_missing_barrier_between_arrays_is_caught(optimized: dict, tmp_path: Path) -> None:
    """The barrier between an array's row copy and the next array's values
    in the tile, planted away: a lane then overwrites slots another lane is
    still copying out, which the shuffled and reversed schedules expose in
    every kernel staged in turn."""
    between = re.compile(r"(coalda\.copied\d*:[^\n]*\n)  call void @llvm\.nvvm\.bar\.warp\.sync\(i32 -1\)[^\n]*\n"
                         r"(?=  %\d+ = mul i64 %coalda\.(?:lane|warp))")
    bad = plant(optimized[3][0], tmp_path, lambda text: between.sub(r"\1", text), "the barriers between arrays")
    run = run_in_process("run", SOURCE, "--emulate", "-q", "--sizes", "300", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    caught = differing_kernels(run)
    assert caught == set(IN_TURN), (sorted(set(IN_TURN) - caught), sorted(caught - set(IN_TURN)))


def test_option_off_stages_none_in_turn(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_in_process("optimize", "-q", SOURCE, "-o", out, "--no-ptx", "--pass-arg=-coalda-stage-arrays-in-turn=false")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / f"{SOURCE.stem}.report.json").read_text())
    assert not in_turn(report)
    missed = {k["name"] for k in report["kernels"] for s in k.get("stagings", [])
              if s.get("missed") == "StagingTileTooLarge"}
    assert set(IN_TURN) - {"bounded128"} <= missed


def test_the_finding_says_one_array_at_a_time(optimized: dict) -> None:
    """`coalda analyze`'s findings for a kernel staged in turn say so."""
    report = optimized[3][1]
    (staging,) = [s for k in report["kernels"] if k["name"] == "six_records" for s in k["stagings"]]
    verdict, _ = staging_action(staging)
    assert verdict == "staged through shared memory (warp tiles, one array at a time, 32768 B)"


def _slices_by_stride(text: str) -> str:
    """mixed_strides's after.ll with each array's warp slice at its own
    stride (32 x S from the warp's first slot) instead of the largest's: the
    race the first GPU run showed."""
    out, inside, stride = [], False, None
    for line in text.splitlines(keepends=True):
        if line.startswith("define "):
            inside = "mixed_strides" in line
        if inside:
            if m := re.search(r"= mul i64 %coalda\.lane, (\d+)", line):
                stride = m[1]
            if stride and "= mul i64 %coalda.warp, 128" in line:
                line = line.replace("%coalda.warp, 128", f"%coalda.warp, {stride}")
        out.append(line)
    return "".join(out)


def test_warps_apart_catch_slices_that_move_with_the_stride(optimized: dict, tmp_path: Path) -> None:
    """The shuffled schedule runs warps apart (one up to three __syncwarps
    ahead of another): with each array's slice at its own stride, a warp an
    array ahead writes into the slice of a warp still writing back an array
    of another stride. The warps in step (forward, reverse, strided) miss it,
    as the emulator did before the GPU showed it."""
    bad = plant(optimized[3][0], tmp_path, _slices_by_stride, "the slices of mixed_strides")
    caught = run_in_process("run", SOURCE, "--emulate", "-q", "--sizes", "300", "--from", bad)
    assert caught.returncode == 1, caught.stdout[-2000:]
    assert differing_kernels(caught) == {"mixed_strides"}
    in_step = run_in_process("run", SOURCE, "--emulate", "-q", "--sizes", "300", "--schedules",
                             "forward,reverse,strided", "--from", bad)
    assert "mixed_strides" not in differing_kernels(in_step)
