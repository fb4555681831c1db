"""Attacks on the chunk window's per-iteration record form, on by default
(testcases/adversarial/records_break.cu; records.cu and windows_cross.cu
cover the rest): overlapping rows, run-time strides (under the 80-byte
rule, 0, negative, an unsigned char), offsets, 8- and 16-byte units, arrays
in turn of two widths, stores around, across and through another pointer
into the record, trip counts, exits, branches, nested and inner loops, two
arrays, barriers and launch shapes, at -O3 and -O0 through `coalda run
--emulate` (every layout; -O3 under all four schedules, -O0 under two),
with each kernel's decision pinned (windowed per iteration, windowed
otherwise, or refused with the reason a user reads): a kernel that is not
windowed the way it is pinned proves nothing about that way. About 11 s.

Found by this corpus (a helper's, written against the flat record moves)
and fixed in the commit that adds it: uchar_stride (the vote sign-extended
an unsigned char atom of the lane stride, so blocks with an extra of 200
moved other rows; -O3 and -O0, hit windows too: the vote now also asks
that every narrow atom be non-negative, as region copies did) and
mixed_widths (arrays in turn of 4- and 8-byte units shared a tile of
44-byte rows: misaligned 8-byte shared accesses; the pitch is now a
multiple of the widest unit).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import (
    ROW, TESTCASES, assert_all_match, compared, differing_kernels, emulate_levels, optimize_levels, plant,
    run_in_process,
)

SOURCE = TESTCASES / "adversarial" / "records_break.cu"
LEVELS = (3, 0)

# Windowed, refilled on every iteration with the record (warp tiles).
PER_ITERATION = {
    3: {"control", "stride_80", "stride_76", "stride_0", "stride_negative", "zero_trips", "block_1000", "block_33",
        "block_2d", "guarded_if", "uchar_stride", "overlap_rows", "negative_offset", "ll_align4", "vector_records",
        "mixed_widths", "write_around", "straddle_stores", "alias_write", "sliding_store", "other_row_gap",
        "neighbour_before", "continue_mid", "divergent_after", "inner_loop", "two_arrays"},
}
# Windowed and refilled when a load leaves the window (block tiles).
HIT_WINDOW = {3: {"record_and_window"}}
# record_and_window's b skips an element of its record: a hit window at
# both levels, beside a's record.
HIT_WINDOW[0] = {"record_and_window"}
PER_ITERATION[0] = PER_ITERATION[3] - HIT_WINDOW[0]
# Refused, with (a part of) the reason the report gives.
REFUSED = {
    "bool_stride": "the chunk length of a is not known before the loops",
    "mid_unit": "do not step in whole elements",
    "ll_odd_stride": "do not step in whole elements",
    "break_last": "its loop may leave before the load runs on every iteration",
    "break_data": {3: "its loop's trip count is not known before the loop",
                   0: "its loop may leave before the load runs on every iteration"},
    "divergent_loads": "its loop may leave before the load runs on every iteration",
    "nested": "it is in a loop nested in another",
    "indexed": "its address does not advance by a constant with the loop",
    "descending": "its address does not advance by a constant with the loop",
    "syncthreads_in_loop": "before a chunk load may order other threads' writes to its chunk",
    "syncwarp_in_loop": "before a chunk load may order other threads' writes to its chunk",
}
# Kernels whose stores into the record must reach the thread's tile row.
WRITE_THROUGH = {"write_around", "straddle_stores", "alias_write", "sliding_store"}


def kernel_names() -> set[str]:
    text = SOURCE.read_text()
    return (set(re.findall(r"^__global__ void (?:__launch_bounds__\(\d+\)\s+)?(\w+)\(", text, re.M))
            | set(re.findall(r"^RECORDS\((\w+)\)", text, re.M)))


def windows(report: dict) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for kernel in report["kernels"]:
        stagings = [s for s in kernel.get("stagings", []) if s["kind"] == "window"]
        assert len(stagings) <= 1, kernel["name"]
        if stagings:
            found[kernel["name"]] = stagings[0]
    return found


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("records-break"), LEVELS)


@pytest.fixture(scope="module")
def emulated(optimized: dict) -> dict:
    return emulate_levels(SOURCE, optimized)


def test_pins_are_complete() -> None:
    names = kernel_names()
    assert 30 <= len(names) <= 45
    for level in LEVELS:
        pinned = PER_ITERATION[level] | HIT_WINDOW[level] | set(REFUSED)
        assert not PER_ITERATION[level] & HIT_WINDOW[level]
        assert pinned == names, f"-O{level}: unpinned {sorted(names - pinned)}, stale {sorted(pinned - names)}"
    assert not [line for line in SOURCE.read_text().splitlines()
                if "__restrict__" in line and not line.startswith("//")], "the alias layout needs no __restrict__"


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_are_pinned(level: int, optimized: dict) -> None:
    found = windows(optimized[level][1])
    assert set(found) == kernel_names()
    got = {}
    for name, staging in found.items():
        if not staging["transformed"]:
            got[name] = "refused"
        elif "on every iteration" in staging["reason"]:
            got[name] = "per iteration"
            assert staging["tile"] == "warp", (name, staging["reason"])
        else:
            got[name] = "hit window"
            assert "loads leave it" in staging["reason"] or "load leaves it" in staging["reason"], name
    want = ({name: "per iteration" for name in PER_ITERATION[level]}
            | {name: "hit window" for name in HIT_WINDOW[level]}
            | {name: "refused" for name in REFUSED})
    assert {k: (got[k], v) for k, v in want.items() if got[k] != v} == {}
    for name, reason in REFUSED.items():
        expected = reason[level] if isinstance(reason, dict) else reason
        assert expected in found[name]["reason"], (name, found[name]["reason"])
    for name in WRITE_THROUGH:
        assert found[name]["write_through"] >= 1, name


def test_what_the_attacks_reach(optimized: dict) -> None:
    """The shapes the attacks need, at -O3 (and the arrays in turn at -O0)."""
    found = windows(optimized[3][1])
    # 32 units of 4 bytes, the most a record takes; __launch_bounds__(256)
    assert found["overlap_rows"]["arrays"][0]["window_bytes"] == 128 and found["overlap_rows"]["threads"] == 256
    # 6 units of 16 bytes under __launch_bounds__(64)
    assert found["vector_records"]["arrays"][0]["window_bytes"] == 96 and found["vector_records"]["threads"] == 64
    # two records in one loop: two tiles, not in turn
    assert len(found["two_arrays"]["arrays"]) == 2 and not found["two_arrays"]["arrays_in_turn"]
    # a record (36 bytes, per iteration) beside a hit window (32) in one block-scope candidate
    mixed = found["record_and_window"]
    assert mixed["tile"] == "block" and [a["window_bytes"] for a in mixed["arrays"]] == [36, 32]
    # arrays in turn of two widths (4-byte ints, 8-byte doubles): one tile
    for level in LEVELS:
        in_turn = windows(optimized[level][1])["mixed_widths"]
        assert in_turn["arrays_in_turn"] and [a["member_width"] for a in in_turn["arrays"]] == [4, 8], level


@pytest.mark.parametrize("level", compared(LEVELS))
def test_every_kernel_computes_the_original_bytes(level: int, emulated: dict) -> None:
    """Every kernel, every layout, -O3 under all four schedules and -O0
    under two."""
    run = emulated[level]
    bad = differing_kernels(run)
    assert not bad, (f"-O{level}: {sorted(bad)} differ\n"
                     + "\n".join(line for line in run.stdout.splitlines() if any(name in line for name in bad))[:4000])
    assert_all_match(run)


@pytest.mark.parametrize("level", compared(LEVELS))
def test_the_alias_layout_checks_the_other_pointer(level: int, emulated: dict) -> None:
    """alias_write stores into its record through another pointer: in the
    alias layout (every buffer at one address, race-free there) the store
    must reach the window's row."""
    rows = {(name, layout): result.strip() for name, _, layout, _, _, result in ROW.findall(emulated[level].stdout)}
    assert rows[("alias_write", "alias")] == "match", rows.get(("alias_write", "alias"))


def test_a_missing_write_through_is_caught(optimized: dict, tmp_path: Path) -> None:
    """With the write-through planted away (no store reaches a tile row), the
    kernels that read their record after storing into it differ, at -O3."""
    out, _ = optimized[3]
    mirror = r"br i1 %[\w.]+, label %(coalda\.window\.mirror\.bytes\d*), label %(coalda\.window\.mirrored\d*)"
    bad = plant(out, tmp_path, lambda text: re.sub(mirror, r"br i1 false, label %\1, label %\2", text), "write-through")
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", "3", "--schedules", "forward", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    # Under one schedule the alias layout cannot tell a racy original (it
    # differs there for every kernel whose out is a's bytes): only
    # alias_write, race-free there, counts in it.
    differ = {name for name, _, layout, _, _, result in ROW.findall(run.stdout)
              if re.search("MISMATCH|RACE|FAULT", result) and (layout != "alias" or name == "alias_write")}
    assert differ == WRITE_THROUGH, run.stdout[-3000:]
