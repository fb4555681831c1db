"""The per-iteration record windows (testcases/adversarial/records.cu): a
chunk loop that reads a whole record of each row per iteration (dslash's
72-byte matrices) refilled once per iteration with it, alone and with the
arrays of loops apart in one tile in turn, by the block and by warps
(-coalda-window-scope), through `coalda run --emulate` (every layout and
schedule) at -O3, with the decisions pinned: a kernel the options do not
window per iteration proves nothing about them.

The options stay off by default: dslash measured 0.79x with records per
iteration by warps and 0.67x with warp-refilled 32-byte windows
(docs/runs/records/). Found by this corpus and fixed before it was
committed: the idle lanes of a record refill (lanes from 32 / P * P on)
stored into rows past their warp's, which a tile sized for the block's
threads does not have (a segfault in the emulator, a failed dslash run at
256-thread tiles on the GPU).
"""

from __future__ import annotations

import pytest

from conftest import TESTCASES, assert_all_match, emulate_levels, optimize_levels

SOURCE = TESTCASES / "adversarial" / "records.cu"
OPTIONS = ("--pass-arg=-coalda-window-iteration-bytes=32", "--pass-arg=-coalda-window-threads=256")

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
    # Block refills keep a tile per array: dslash's four do not fit.
    refused = REFUSED | ({"four_in_turn"} if scope == "block" else set())
    for name, staging in found.items():
        if name in refused:
            assert not staging["transformed"], name
            continue
        assert staging["transformed"], (name, staging["reason"])
        assert staging["tile"] == scope, name
        every_iteration = "on every iteration" in staging["reason"]
        assert every_iteration == (name in PER_ITERATION), (name, staging["reason"])
    # dslash's four arrays, a loop each: one tile in turn, a row of 76 bytes
    if scope == "warp":
        in_turn = found["four_in_turn"]
        assert in_turn["arrays_in_turn"] and in_turn["tile_bytes"] == 76 * 256


def test_every_kernel_computes_the_original_bytes(optimized: tuple[str, dict]) -> None:
    _, levels = optimized
    assert_all_match(emulate_levels(SOURCE, levels)[3])
