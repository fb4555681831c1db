"""The per-iteration record windows (testcases/adversarial/records.cu): a
chunk loop that reads a whole record of each row per iteration (dslash's
72-byte matrices) refilled once per iteration with it by each warp, alone
and with the arrays of loops apart in one tile in turn, through `coalda run
--emulate` (every layout and schedule) at -O3, with the decisions pinned: a
kernel that is not windowed per iteration proves nothing about them. The
records are on by default (dslash 1.26x with the flat moves, 1.19x with
a request a row: docs/runs/records-flat/); -coalda-window-scope
picks who refills the other windows (the block or each warp), so both
scopes run, and records are refilled by warps under either.

Found by this corpus and fixed before it was committed: the idle lanes of
a record refill (lanes from 32 / P * P on, when a request moved whole rows)
stored into rows past their warp's, which a tile sized for the block's
threads does not have (a segfault in the emulator, a failed dslash run at
256-thread tiles on the GPU). Planted bugs in the flat moves' loads (a
unit past its row's record read from its own row instead of the next; a
lane's row dropped) are caught. A missing __syncwarp is not: the emulator
runs a warp's lanes in step, and on the GPU neither the results nor
racecheck show it (docs/runs/records-flat/).
"""

from __future__ import annotations

import pytest

import re
from pathlib import Path

from conftest import TESTCASES, assert_all_match, emulate_levels, optimize_levels, plant, run_in_process

SOURCE = TESTCASES / "adversarial" / "records.cu"
OPTIONS = ("--pass-arg=-coalda-window-threads=256",)

# kernel -> how its window is refilled with the options
PER_ITERATION = {"arms", "four_in_turn", "offset_records"}
ON_LEAVING = {"store_into", "gap", "wide"}  # a store or a gap in the record, or wider than a warp's request
REFUSED = {"early_leave"}


def windows(report: dict) -> dict[str, dict]:
    return {k["name"]: s for k in report["kernels"] for s in k.get("stagings", []) if s["kind"] == "window"}


@pytest.fixture(scope="module", params=("warp", "block"))
def optimized(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict]:
    scope = request.param
    return scope, optimize_levels(SOURCE, tmp_path_factory.mktemp(f"records-{scope}"), (3,),
                                  f"--pass-arg=-coalda-window-scope={scope}", *OPTIONS)


def test_decisions_are_pinned(optimized: tuple[str, dict]) -> None:
    scope, levels = optimized
    found = windows(levels[3][1])
    assert set(found) == PER_ITERATION | ON_LEAVING | REFUSED
    for name, staging in found.items():
        if name in REFUSED:
            assert not staging["transformed"], name
            continue
        assert staging["transformed"], (name, staging["reason"])
        every_iteration = "on every iteration" in staging["reason"]
        assert every_iteration == (name in PER_ITERATION), (name, staging["reason"])
        # records are refilled by warps, whatever refills the others
        assert staging["tile"] == ("warp" if every_iteration else scope), name
    # dslash's four arrays, a loop each: one tile in turn, a row of 76 bytes
    in_turn = found["four_in_turn"]
    assert in_turn["arrays_in_turn"] and in_turn["tile_bytes"] == 76 * 256


def test_every_kernel_computes_the_original_bytes(optimized: tuple[str, dict]) -> None:
    _, levels = optimized
    assert_all_match(emulate_levels(SOURCE, levels)[3])


# Planted where only the loads' addresses change (the tile slots stay
# right): a planted store past the tile would corrupt the emulator's heap.
PLANTED = {
    # a unit past its row's record read from its own row, not the next's
    "no-wrap": (r"(%coalda\.window\.from\.wrap\d* = select i1 %[\w.]+, i64) [-\w.%]+, i64 0", r"\1 0, i64 0"),
    # every lane reads the warp's row of its own lane's group 0 (the
    # lane's row l / P dropped): lanes 18-31 of 18-unit records read row 0
    "row-dropped": (r"(%coalda\.window\.from\.row\d* = sub i64) %\d+, (%coalda\.window\.lane)", r"\1 0, \2"),
}


@pytest.mark.parametrize("edit", sorted(PLANTED))
def test_a_planted_record_bug_is_caught(optimized: tuple[str, dict], tmp_path: Path, edit: str) -> None:
    """Each planted bug of the flat moves makes the emulator report a
    mismatch in a kernel refilled per iteration, and only there."""
    scope, levels = optimized
    if scope != "warp":
        pytest.skip("records are refilled by warps under either scope: one is enough")
    old, new = PLANTED[edit]
    bad = plant(levels[3][0], tmp_path, lambda text: re.sub(old, new, text), edit)
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", "3", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    bad_rows = [line for line in run.stdout.splitlines() if "MISMATCH" in line]
    assert bad_rows and all(any(name in line for name in PER_ITERATION) for line in bad_rows), bad_rows
