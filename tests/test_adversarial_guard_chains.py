"""The guard-chain adversary (testcases/adversarial/guard_chains.cu): early
loads behind a chain of early returns (`if (c >= w) return; if (r >= h)
return;`, legality's InnerGuards), pinned per -O level.

The early loads of a region behind a chain run in a `coalda.early` block
under every test of the chain, each later one only where the ones before it
hold (`select i1 %first, i1 %second, i1 false`). tests/test_adversarial.py
runs every kernel through the differential oracle at -O0 and -O3; here the
decisions are pinned (which kernels load early behind the chain, with how
many tests and loads), and planted bugs show what the corpus sees:

- a load moved to another address: every kernel with early loads differs
  (their staged path runs), chain2_rows (blocks of two rows) does not;
- the chain's last test with its polarity inverted (an inner guard's active
  edge taken for the other one): every chained kernel differs;
- the tests dropped (the loads issued unconditionally, or under the first
  test alone): nothing differs, and cannot: the staged path is only taken
  by blocks (warps) whose every thread passes the whole chain (the vote, or
  the uniform go, takes all its tests), so the early block's test is always
  true there. The test pins that: a change that lets a thread the chain
  stops onto the staged path makes it fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import TESTCASES, assert_all_match, differing_kernels, emulate_levels, optimize_levels, plant, run_in_process

SOURCE = TESTCASES / "adversarial" / "guard_chains.cu"
LEVELS = (3, 0)
SMALL = "--pass-arg=-coalda-stage-small-always"

# Early loads under the chain's tests (a select in front of coalda.early).
# -O0 keeps each `return` a block of its own that only branches to the
# function's return block: a chain as at -O3 (legality's leadsStraightTo),
# but nested_ifs' inner `if` is not an early return there.
CHAINED = {
    3: {"chain2", "chain2_rows", "chain2_swapped", "chain3_z", "chain4", "nested_ifs", "negated", "mixed_polarity",
        "else_chain", "and_chain", "and3_chain", "shift_chain", "size_t_chain", "signed_unsigned", "pointer_chain",
        "tight_other", "alias_store_first", "view_next_row", "shared_behind", "globals_behind", "store_stops",
        "chain_values"},
}
CHAINED[0] = CHAINED[3] - {"nested_ifs"}
# Early loads with no chain in front (warp tiles, whose region starts after
# the chain; the grid-stride loop's iterations; at -O0 the region after
# nested_ifs' inner branch).
UNCHAINED_BOTH = {"grid_stride_chain", "warp_chain", "warp_chain_lim"}
UNCHAINED = {3: UNCHAINED_BOTH, 0: UNCHAINED_BOTH | {"nested_ifs"}}
# Staged, nothing early: none at either level.
STAGED: dict[int, set[str]] = {3: set(), 0: set()}
# Not staged: an address computed from memory (or a division that only the
# chain makes safe) in the region, whose overlap cannot be checked at the
# chain's first test. (Before 2026-12-02 -O0 staged them in warp tiles over
# the body after the last return, not seeing the chain.)
NOT_STAGED = {level: {"pointer_from_memory", "division_address", "loop_after"} for level in (3, 0)}

# -O3: (tests in the chain's condition, early loads) of each chained kernel:
# the third and fourth tests (z, the flat bound, the shift) are there, and
# the scan stops where it must (a store to o; a __shared__ or __constant__
# load is not moved; alias_store_first's first x load is after the tile
# store of .x, its y load is the tile's).
SHAPE_O3 = {
    **{k: (2, 3) for k in CHAINED[3]},
    "chain3_z": (3, 3), "chain4": (3, 3), "and3_chain": (3, 3), "shift_chain": (3, 3),
    "tight_other": (2, 1), "alias_store_first": (2, 2), "shared_behind": (2, 2), "globals_behind": (2, 2),
    "store_stops": (2, 1),
}
# -O0: the same, but chain4's four returns stay four tests (-O3 folds two)
SHAPE_O0 = {**{k: v for k, v in SHAPE_O3.items() if k in CHAINED[0]}, "chain4": (4, 3)}

EARLY_LOAD = re.compile(r"^\s*%[\w.]*early[\w.]* = load ", re.M)
CHAIN_TEST = re.compile(r"= select i1 %[\w.]+, i1 %[\w.]+, i1 false.*\n\s+br i1 %[\w.]+, label %coalda\.early,")


def bodies_of(directory: Path, report: dict) -> dict[str, str]:
    text = (directory / f"{SOURCE.stem}.after.ll").read_text()
    functions = {m.group(1): m.group(0) for m in re.finditer(r"^define [^@]*@([^(\s]+)\(.*?^}", text, re.S | re.M)}
    return {k["name"]: functions[k["symbol"]] for k in report["kernels"]}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict, dict[str, str]]]:
    out = optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-guard-chains"), LEVELS, SMALL)
    return {level: (d, report, bodies_of(d, report)) for level, (d, report) in out.items()}


def staged(report: dict) -> set[str]:
    return {k["name"] for k in report["kernels"] if any(s["transformed"] for s in k.get("stagings", []))}


def shape(body: str) -> tuple[int, int]:
    """(tests the early block runs under, early loads)."""
    if "\ncoalda.early.done:" not in body:
        return (0, 0)
    tests = body[body.index("\ncoalda.stage.load:"):body.index("\ncoalda.early.done:")]
    selects = len(re.findall(r"= select i1 %[\w.]+, i1 %[\w.]+, i1 false", tests))
    guarded = "label %coalda.early," in tests
    return (selects + 1 if guarded else 0, len(EARLY_LOAD.findall(body)))


def test_pins_are_disjoint_and_complete() -> None:
    names = {line.split("(")[0].split()[-1] for line in SOURCE.read_text().splitlines()
             if line.startswith("__global__ void")}
    for level in LEVELS:
        sets = [CHAINED[level], UNCHAINED[level], STAGED[level], NOT_STAGED[level]]
        assert sum(map(len, sets)) == len(set().union(*sets)), f"-O{level}: a kernel pinned twice"
        pinned = set().union(*sets)
        assert pinned == names, f"-O{level}: unpinned {sorted(names - pinned)}, stale {sorted(pinned - names)}"
    assert set(SHAPE_O3) == CHAINED[3] and set(SHAPE_O0) == CHAINED[0]


@pytest.mark.parametrize("level", LEVELS)
def test_decisions(level: int, built: dict) -> None:
    _, report, bodies = built[level]
    got = staged(report)
    must = CHAINED[level] | UNCHAINED[level] | STAGED[level]
    assert not must - got, f"-O{level}: no longer staged: {sorted(must - got)}"
    assert not NOT_STAGED[level] & got, f"-O{level}: now staged: {sorted(NOT_STAGED[level] & got)}"
    shapes = {name: shape(body) for name, body in bodies.items()}
    chained = {name for name, (tests, _) in shapes.items() if tests >= 2}
    early = {name for name, (_, loads) in shapes.items() if loads}
    assert chained == CHAINED[level], f"-O{level}: chained lost {sorted(CHAINED[level] - chained)}, " \
                                      f"gained {sorted(chained - CHAINED[level])}"
    assert early - chained == UNCHAINED[level], f"-O{level}: early, unchained: {sorted(early - chained)}"


@pytest.mark.parametrize("level", LEVELS)
def test_tests_and_loads_per_kernel(level: int, built: dict) -> None:
    _, _, bodies = built[level]
    want = SHAPE_O3 if level == 3 else SHAPE_O0
    assert {name: shape(bodies[name]) for name in want} == want


def emulate_planted(built: dict, tmp_path: Path, edit, what: str) -> dict[int, object]:
    """EDIT planted in the after.ll of both levels, run at n = 300 alone
    (full blocks and a partial one in every row of blocks)."""
    bad = {level: (plant(built[level][0], tmp_path / f"O{level}", edit, what), built[level][1]) for level in LEVELS}
    return emulate_levels(SOURCE, bad, "--sizes", "300")


def test_every_early_kernel_runs_its_staged_path(built: dict, tmp_path: Path) -> None:
    """Each early load reads y's first bytes instead of its own: the oracle
    sees every kernel with early loads, so their staged paths run; not
    chain2_rows, whose blocks of two rows run the original code."""
    runs = emulate_planted(built, tmp_path, lambda text: re.sub(
        r"(%coalda\.early\.ld\d* = load \w+, ptr )%[\w.]+", r"\1%y", text), "an early load")
    for level, run in runs.items():
        assert run.returncode == 1, run.stdout[-2000:]
        want = (CHAINED[level] | UNCHAINED[level]) - {"chain2_rows"}
        assert differing_kernels(run) == want, f"-O{level}"


def test_an_inverted_chain_test_is_caught(built: dict, tmp_path: Path) -> None:
    """The chain's last test inverted (as if an inner guard's active edge
    were the other one): the staged path skips the loads and uses the
    phi's poison. Every chained kernel differs, nothing else."""
    def flip(text: str) -> str:
        return re.sub(r"^(\s+)(%[\w.]+) = select i1 (%[\w.]+), i1 (%[\w.]+), i1 false(.*\n\s+br i1 \2, label %coalda\.early,)",
                      lambda m: f"{m[1]}%planted.{m[2][1:]} = xor i1 {m[4]}, true\n"
                                f"{m[1]}{m[2]} = select i1 {m[3]}, i1 %planted.{m[2][1:]}, i1 false{m[5]}",
                      text, flags=re.M)
    for level, run in emulate_planted(built, tmp_path, flip, "the chain's select").items():
        assert run.returncode == 1, run.stdout[-2000:]
        assert differing_kernels(run) == CHAINED[level] - {"chain2_rows"}, f"-O{level}"


def test_the_chain_test_is_implied_by_the_vote(built: dict, tmp_path: Path) -> None:
    """The early loads issued unconditionally (the tests dropped): every
    kernel still matches, including the tight and past-the-end ones
    (tight_other, chain4, pointer_chain, and3_chain), because only blocks
    whose every thread passes the chain take the staged path. If that stops
    holding (a thread the chain stops on the staged path), this fails."""
    runs = emulate_planted(built, tmp_path, lambda text: re.sub(
        r"br i1 %[\w.]+, label %coalda\.early, label %coalda\.early\.done",
        "br i1 true, label %coalda.early, label %coalda.early.done", text), "the early block's branch")
    for run in runs.values():
        assert_all_match(run)


def test_block_tiles_of_wide_elements_behind_a_chain(tmp_path: Path) -> None:
    """With warp tiles off, the 24-byte kernels take block tiles behind
    the chain (warp tiles start after it) and still match."""
    (out, report), = optimize_levels(SOURCE, tmp_path, (3,), SMALL, "--pass-arg=-coalda-stage-warp-tiles=never").values()
    bodies = bodies_of(out, report)
    assert {k: shape(bodies[k]) for k in ("warp_chain", "warp_chain_lim")} == {"warp_chain": (2, 3),
                                                                                "warp_chain_lim": (3, 3)}
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", "3", "--from", out)
    assert_all_match(run)
