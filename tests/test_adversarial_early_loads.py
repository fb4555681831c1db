"""The early-loads adversary (testcases/adversarial/early_loads.cu): which
staged kernels issue loads of other memory in front of the row copies
(-coalda-stage-early-loads), pinned per -O level.

A staged region's first block may load other memory (not the tiles) before
it writes anything but a tile; those loads are cloned in front of the load
phase's row copies, under the guard's condition, in a `coalda.early` block
(or at the end of the load block when there is no guard) that joins at
`coalda.early.done`. The corpus tries to make such a load read other bytes
than in its place (views of the staged array, stores, user barriers and
__shared__ memory, staged indices, grid-stride loops, warp tiles, the limit
of eight); tests/test_adversarial.py runs every kernel through the
differential oracle at -O0 and -O3. Here the decisions are pinned, so that
the kernels that attack the early loads keep them, and the ones where the
scan must stop (a store to other memory first, an address computed from a
tile or from an early load's value, the limit) stay stopped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import TESTCASES, differing_kernels, in_function, optimize_levels, plant, run_in_process

SOURCE = TESTCASES / "adversarial" / "early_loads.cu"
LEVELS = (3, 0)

# Staged with early loads at both levels.
EARLY_BOTH = {
    "axpy", "axpy_restrict", "axpy_return", "axpy_else", "view_own", "view_neighbour_z", "param_next",
    "load_after_store", "same_address_store", "shared_before", "shared_generic", "shared_helper",
    "index_from_staged", "index_from_other", "many_loads", "narrow_members", "warp_axpy", "wide_neighbour",
    "grid_stride", "grid_stride_prev", "grid_stride_prev_prologue", "grid_stride_prev_param",
    "warp_grid_stride_prev", "after_user_barrier", "local_written", "data_guard", "neighbour_bytes",
    "neighbour_z_store", "two_returns", "local_array", "view_store_then_load", "partner_z_prologue",
    "partner_z_epilogue", "struct_load",
}
EARLY = {
    # -O3: one guard for the flag and the bound; the device array's select
    # is a plain address
    3: EARLY_BOTH | {"conditional_load", "device_array", "two_conditions"},
    # -O0: the prologue's store to w is before the region; the flag's
    # branch is an inner guard, behind which the loads go early too
    0: EARLY_BOTH | {"prologue_other", "two_conditions"},
}
# Staged, nothing early: the first write of other memory comes before any
# load of it (store_first, shared_written_in_region; prologue_other at -O3,
# where the prologue is in the region), the views at a constant offset are
# the staged array's own accesses (view_own_shifted, warp_view_own).
STAGED_BOTH = {"view_own_shifted", "store_first", "shared_written_in_region", "warp_view_own"}
STAGED = {3: STAGED_BOTH | {"prologue_other"}, 0: STAGED_BOTH}
# Not staged: 1-byte members (the cost rule); an atomic, volatile access or
# fence in the region; at -O0 a branch's store not every thread makes, an
# address computed from memory in the region. (The struct copy of
# struct_load is three loads at both levels: SROA scalarizes it at -O0 too.)
NOT_STAGED_BOTH = {"view_own_byte", "load_after_atomic", "load_after_volatile", "volatile_load", "load_after_fence"}
NOT_STAGED = {3: NOT_STAGED_BOTH, 0: NOT_STAGED_BOTH | {"conditional_load", "device_array"}}

# How many loads go early where the scan must stop short of the first
# block's end: the limit (many_loads: 8 of 12); a store to the loaded slot
# (load_after_store, same_address_store: the read back stays); a load whose
# address is a tile's value (index_from_staged: only v's) or an early load's
# (index_from_other: only idx's); a store to the local array
# (local_array: the read after it stays).
COUNTS = {"many_loads": 8, "load_after_store": 1, "same_address_store": 1, "index_from_staged": 1,
          "index_from_other": 1, "local_array": 2}

EARLY_LOAD = re.compile(r"^\s*%[\w.]*early[\w.]* = load ", re.M)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[dict, dict[str, str]]]:
    """-O level -> (report, kernel name -> its function in the .after.ll).
    Small elements are staged anyway, as tests/test_adversarial.py does."""
    out = optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-early-loads"), LEVELS,
                          "--pass-arg=-coalda-stage-small-always")
    result = {}
    for level, (directory, report) in out.items():
        text = (directory / f"{SOURCE.stem}.after.ll").read_text()
        functions = {m.group(1): m.group(0)
                     for m in re.finditer(r"^define [^@]*@([^(\s]+)\(.*?^}", text, re.S | re.M)}
        bodies = {k["name"]: functions[k["symbol"]] for k in report["kernels"]}
        result[level] = (report, bodies)
    return result


def staged(report: dict) -> set[str]:
    return {k["name"] for k in report["kernels"] if any(s["transformed"] for s in k.get("stagings", []))}


def test_pins_are_disjoint_and_complete() -> None:
    names = {line.split("(")[0].split()[-1] for line in SOURCE.read_text().splitlines()
             if line.startswith("__global__ void")}
    for level in LEVELS:
        sets = [EARLY[level], STAGED[level], NOT_STAGED[level]]
        assert sum(map(len, sets)) == len(set().union(*sets)), f"-O{level}: a kernel pinned twice"
        pinned = set().union(*sets)
        assert pinned == names, f"-O{level}: unpinned {sorted(names - pinned)}, stale {sorted(pinned - names)}"
    assert set(COUNTS) <= EARLY[3] & EARLY[0]


@pytest.mark.parametrize("level", LEVELS)
def test_staged_or_not(level: int, built: dict) -> None:
    report, _ = built[level]
    got = staged(report)
    must = EARLY[level] | STAGED[level]
    assert not must - got, f"-O{level}: no longer staged: {sorted(must - got)}"
    assert not NOT_STAGED[level] & got, f"-O{level}: now staged: {sorted(NOT_STAGED[level] & got)}"


@pytest.mark.parametrize("level", LEVELS)
def test_early_loads(level: int, built: dict) -> None:
    _, bodies = built[level]
    has = {name for name, body in bodies.items() if "\ncoalda.early.done:" in body}
    lost = sorted(EARLY[level] - has)
    gained = sorted((STAGED[level] | NOT_STAGED[level]) & has)
    assert not lost and not gained, f"-O{level}: early loads lost in {lost}, gained in {gained}"
    # every early block holds at least one load, and no kernel without one
    # has a clone named early that loads
    empty = sorted(name for name in has if not EARLY_LOAD.search(bodies[name]))
    assert not empty, f"-O{level}: coalda.early.done without an early load: {empty}"


@pytest.mark.parametrize("level", LEVELS)
def test_the_scan_stops_where_it_must(level: int, built: dict) -> None:
    _, bodies = built[level]
    counts = {name: len(EARLY_LOAD.findall(bodies[name])) for name in COUNTS}
    assert counts == COUNTS, f"-O{level}: early loads per kernel"


def test_a_load_moved_above_a_store_to_its_address_is_caught(tmp_path: Path) -> None:
    """The bug the scan's stop at a store prevents, planted at -O0 in
    same_address_store: the read back of w[i] after the store to w[i] takes
    the early load's value (w[i] before the store), as it would if the scan
    had moved it too. The oracle sees it, in that kernel only."""
    (out, _), = optimize_levels(SOURCE, tmp_path / "out", (0,), "--pass-arg=-coalda-stage-small-always").values()

    def planted(body: str) -> str:
        stored = re.search(r"store float %\w+, ptr (%arrayidx\d+)", body)
        assert stored, "the store to w[i] is gone from the staged region"
        after = body[stored.end():]
        new = re.sub(r"  (%\d+) = load float, ptr %arrayidx\d+, align 4",
                     r"  \1 = fadd float %coalda.early.v, 0.000000e+00", after, count=1)
        return body[:stored.end()] + new

    bad = plant(out, tmp_path, lambda text: in_function(text, "_Z18same_address_store", planted),
                "the read back of w[i]")
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", "0", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    assert differing_kernels(run) == {"same_address_store"}, run.stdout[-3000:]
