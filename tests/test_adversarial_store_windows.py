"""Attacks on store windows (-coalda-window-stores: the stores of a chunk
that a windowed loop writes go into the thread's tile row, each warp writes
its 32 rows back; testcases/adversarial/store_windows.cu): partial final
windows of 4-, 8- and 16-byte units, records of several stores, stores
under branches, the stored array read back or overlapping the loaded one
(the run-time range check), a second stored array, data-dependent stores,
the write-back's ordering with what comes before and after the loop, load
windows of the same array in other loops, launch shapes; at -O3 and -O0
through `coalda run --emulate` with the option on (every layout; -O3 under
all four schedules, -O0 under two), with each kernel's decision pinned
(store-windowed or not, and why not) and bugs planted into the rewritten
IR to show that the emulator sees what the attacks aim at.

The planted bugs (at -O0, the planted kernels alone): the final
write-back dropped, a partial write-back one unit too wide a row, the range
check forced to pass; the kernels whose check fails at run time must not
run what is planted in them. About 12 s.

Found by this corpus (the plugin of 2026-12-04, when the option landed):
two_restrict -- two store windows in one loop (two __restrict__ outputs)
-- crashes the pass (SIGSEGV in SplitEdge from
WindowEmitter::emitStoreExit: each store window of the loop splits the
loop's one exit edge, the second an edge the first has already split) at
-O3, and at -O0 in this module.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from conftest import (
    ROW, TESTCASES, assert_all_match, compared, differing_kernels, emulate_levels, in_function, optimize_levels, plant,
    run_in_process,
)

SOURCE = TESTCASES / "adversarial" / "store_windows.cu"
LEVELS = (3, 0)
OPTION = "--pass-arg=-coalda-window-stores"

# Store-windowed at compile time (a transformed window staging with a
# written array), at both levels unless said.
STORE_WINDOWED_BOTH = {
    "softmax", "control", "restrict_control", "control_float4", "record_pairs",
    "int_trip0", "int_trip9", "int4_trip3",
    "float3_reverse", "dest_packed_rows", "dest_reversed_rows", "start_offset",
    "ll_align4_stores", "double3_records", "store_twice", "store_before", "after_loop_own_row",
    "read_after_neighbour", "syncthreads_after", "two_loops_same_dest", "window_store_window",
    "store_then_window", "block_96", "block_48", "partial_block", "two_restrict",
}
STORE_WINDOWED = {
    # -O3 merges the two arms' stores into one; its 64-bit row index of a
    # 2*blockIdx row lets the range be expanded before the loops
    3: STORE_WINDOWED_BOTH | {"both_arms_store", "read_prev"},
    # -O0 keeps the header store in the header and reads int4_to_scalars'
    # loads with a block tile (-O3: per iteration, no store windows)
    0: STORE_WINDOWED_BOTH | {"int4_to_scalars", "header_store"},
}
# The loop reads, through its load window, the array it stores (in place,
# at a shift of the same pointer, or other rows of it: next_block_rows,
# a rewrite missed): refused at compile time, where the range check could
# not pass or is not tried.
READS_WHAT_IT_WRITES = {"in_place", "shift_1", "record_shift", "next_block_rows"}
# Two store windows in one loop (its two arrays), and at -O3 the control's
# unrolled loop and its remainder loop, one each.
TWO_STORE_WINDOWS = {3: {"restrict_control", "two_loops_same_dest"},
                     0: {"two_restrict", "two_loops_same_dest"}}
# Four: two_restrict's two arrays in -O3's unrolled loop and in its
# remainder loop (their exit edges split once a loop).
FOUR_STORE_WINDOWS = {3: {"two_restrict"}, 0: set()}
# Not store-windowed: (part of) the reason a left-out store gives, by level
# where the levels differ; None: no store window is considered (the loads
# go through records refilled per iteration).
REFUSED = {
    "overlapping_record": "does not advance by them",
    "gap_step": "writes 4 bytes of each row per iteration but does not advance by them",
    "branch_store": "does not run on every iteration",
    "second_store_array": "in its loop may read or write d",
    "shared_atomic": "an atomic add on count",
    "indexed_store": "differ in width or in their position in the row",
    "mixed_width_record": "differ in width or in their position in the row",
    "records_store_record": None,
    "both_arms_store": {0: "does not run on every iteration"},
    # -O3 keeps the value read back in a register: no load of dest
    "read_prev": {0: "its loop reads the array it writes"},
    "header_store": {3: "a load of src at line"},
    "int4_to_scalars": {3: None},
    **{name: "its loop reads the array it writes" for name in READS_WHAT_IT_WRITES},
}


def kernel_names() -> set[str]:
    text = SOURCE.read_text()
    return (set(re.findall(r"^__global__ void (?:LB )?(\w+)\(", text, re.M))
            | set(re.findall(r"^(?:ROWS|SHIFT)\((\w+)\)", text, re.M)))


def refused_at(level: int) -> dict[str, str | None]:
    out = {}
    for name, reason in REFUSED.items():
        if isinstance(reason, dict):
            if level in reason:
                out[name] = reason[level]
        else:
            out[name] = reason
    return out


def store_windows(report: dict) -> dict[str, list[dict]]:
    """Kernel -> the written arrays of its transformed window staging."""
    found: dict[str, list[dict]] = {}
    for kernel in report["kernels"]:
        for staging in kernel.get("stagings", []):
            if staging["kind"] == "window" and staging["transformed"]:
                written = [a for a in staging["arrays"] if a.get("written") and a.get("window_bytes")]
                if written:
                    found[kernel["name"]] = written
    return found


def left_out(report: dict) -> dict[str, list[str]]:
    """Kernel -> the reasons its uncoalesced stores give for staying out of a
    store window."""
    return {k["name"]: [a["left_out"] for a in k["accesses"]
                        if a["kind"] == "store" and a.get("left_out")] for k in report["kernels"]}


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("store-windows"), LEVELS, OPTION)


@pytest.fixture(scope="module")
def emulated(optimized: dict) -> dict:
    return emulate_levels(SOURCE, optimized)


def test_pins_are_complete() -> None:
    names = kernel_names()
    spec = set(tomllib.loads(SOURCE.with_suffix(".toml").read_text())["kernels"])
    assert spec == names and 35 <= len(names) <= 45, len(names)
    for level in LEVELS:
        pinned = STORE_WINDOWED[level] | set(refused_at(level))
        assert not STORE_WINDOWED[level] & set(refused_at(level)), level
        assert pinned == names, f"-O{level}: unpinned {sorted(names - pinned)}, stale {sorted(pinned - names)}"
    assert READS_WHAT_IT_WRITES <= set(refused_at(3)) & set(refused_at(0))


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_are_pinned(level: int, optimized: dict) -> None:
    report = optimized[level][1]
    found = store_windows(report)
    assert set(found) == STORE_WINDOWED[level], (sorted(set(found) - STORE_WINDOWED[level]),
                                                 sorted(STORE_WINDOWED[level] - set(found)))
    assert {name for name, arrays in found.items() if len(arrays) == 2} == TWO_STORE_WINDOWS[level]
    assert {name for name, arrays in found.items() if len(arrays) == 4} == FOUR_STORE_WINDOWS[level]
    assert all(len(arrays) in (1, 2, 4) for arrays in found.values())
    for arrays in found.values():
        for array in arrays:
            # a window of at least 32 bytes, a multiple of the unit
            assert array["window_bytes"] >= 32 and array["window_bytes"] % array["member_width"] == 0, array
    reasons = left_out(report)
    for name, reason in refused_at(level).items():
        if reason is None:
            assert reasons[name] == [], (name, reasons[name])
        else:
            assert any(reason in r for r in reasons[name]), (name, reasons[name])


def test_what_the_attacks_reach(optimized: dict) -> None:
    """The window shapes the attacks need."""
    for level, windows in ((3, {"float3_reverse": 48, "double3_records": 96, "control_float4": 64}),
                           (0, {"float3_reverse": 36, "double3_records": 48, "control_float4": 32,
                                "int4_trip3": 32, "start_offset": 32})):
        found = store_windows(optimized[level][1])
        got = {name: found[name][0]["window_bytes"] for name in windows}
        assert got == windows, level


@pytest.mark.parametrize("level", compared(LEVELS))
def test_every_kernel_computes_the_original_bytes(level: int, emulated: dict) -> None:
    """Every kernel, every layout, -O3 under all four schedules and -O0
    under two."""
    run = emulated[level]
    bad = differing_kernels(run)
    assert not bad, (f"-O{level}: {sorted(bad)} differ\n"
                     + "\n".join(line for line in run.stdout.splitlines() if any(name in line for name in bad))[:4000])
    assert_all_match(run)


# The planted bugs, at -O0 (no remainder loop stores after the window's
# last write-back, as -O3's does): the final write-back dropped, a partial
# write-back of one unit too many a row.
def no_final_write_back(body: str) -> str:
    exit_branch = (r"(coalda\.window\.loop\.exit\d*:[^\n]*\n[^\n]*\n\s*br i1 )%[\w.]+"
                   r"(, label %coalda\.window\.write\.back)")
    return re.sub(exit_branch, r"\1false\2", body)


def one_unit_too_many(body: str) -> str:
    return re.sub(r"(coalda\.window\.write\.part\d*:[^\n]*\n[^\n]*\n\s*)%([\w.]+) = udiv i64 ([^,]+), (\d+)",
                  r"\1%coalda.planted.\2 = udiv i64 \3, \4\n  %\2 = add i64 %coalda.planted.\2, 1", body)


PLANTED = {  # kernel -> (its symbol, the edit or None, whether it must differ)
    "control": ("_Z7control", no_final_write_back, True),
    "store_before": ("_Z12store_before", one_unit_too_many, True),
    "int_trip9": ("_Z9int_trip9", None, False),
}


def test_planted_bugs_are_caught(optimized: dict, tmp_path: Path) -> None:
    """At -O0, one schedule, the planted kernels alone: the write-back
    dropped or one unit too wide differ; int_trip9, planted nothing, runs
    beside them and does not."""
    out, _ = optimized[0]

    def edit(text: str) -> str:
        for name, (symbol, change, _) in PLANTED.items():
            if change is not None:
                new = in_function(text, symbol, change)
                assert new != text, f"the plant in {name} matched nothing"
                text = new
        return text

    bad = plant(out, tmp_path, edit)
    tables = {m[1]: m[0] for m in re.finditer(r"^\[kernels\.(\w+)\]\n(?:[^\n]+\n)+",
                                              SOURCE.with_suffix(".toml").read_text(), re.M)}
    spec = tmp_path / "planted.toml"
    spec.write_text("sizes = [128]\n\n" + "\n".join(tables[name] for name in PLANTED))
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", "0", "--schedules", "forward", "--spec", spec,
                         "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    differ = {name for name, _, layout, _, _, result in ROW.findall(run.stdout)
              if re.search("MISMATCH|RACE|FAULT", result) and layout != "alias"}
    assert differ == {name for name, (_, _, must) in PLANTED.items() if must}, run.stdout[-3000:]
