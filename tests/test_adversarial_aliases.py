"""The alias adversary (testcases/adversarial/aliases.cu): kernels that are
race-free with every pointer argument at one address (each thread touches
only its own bytes, through every pointer, or bytes nobody writes), which
the emulator's alias layout (coalda/check/oracle.py, ALIAS_LAYOUT) runs with the
whole grid under every schedule. There the rewrites' fast paths (block and
warp tiles, grid-stride iterations, chunk windows, transposes, the region
copy) face a real overlap: their run-time checks must send the overlapping
blocks to the original code, and what they let through (a neighbour's
padding or skipped member, the next iteration's element) must not be
reordered.

Pinned here: at -O3 and -O0, what each kernel becomes (so that the attacks
keep reaching the paths they attack); at -O3, that the alias layout checks
every kernel (none is "not checked": the corpus is race-free there) and that
all of it matches, and that checks planted away are caught by the alias
layout (three of the four there alone). `make test-o0` compares -O0's bytes
too; tests/test_adversarial.py leaves this corpus to this file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import (
    ROW, TESTCASES, assert_all_match, differing_kernels, emulate_levels, in_function, optimize_levels, plant,
    rewrite_kinds, run_in_process,
)

SOURCE = TESTCASES / "adversarial" / "aliases.cu"
LEVELS = (3, 0)
PASS_ARGS = ("--pass-arg=-coalda-stage-small-always",)

# kernel -> what it becomes: "block" / "warp" (an element staging through
# block or warp tiles), "window" (a chunk window), "transposed", "copy" (the
# region copy of a copy group), or None (left alone).
BOTH: dict[str, str | None] = {
    "axpy": "block", "read_after_write": "block", "float_view": "block", "float_view_shifted": "block",
    "axpy_z_third": "block", "two_written_arrays": "block", "view_store_own": "block",
    "padding_neighbour": "block", "skipped_member_neighbour": "block", "bound_from_alias": "block",
    "vote_mixed": "block", "z_after_region": "block", "z_before_region": "block",
    "early_return_alias": "warp", "warp_axpy": "warp", "warp_read_after_write": "warp", "warp_z_third": "warp",
    "warp_neighbour_member": "warp",
    "gs_axpy": "block", "gs_prev_iteration": "block", "gs_next_iteration": "block", "gs_alternating": "block",
    "gs_z_next_after": "block", "gs_warp_prev": "warp", "gs_skip": "warp", "gs_warp_z_next": "warp",
    "copy_self": "copy", "copy_swizzle": "block", "copy_then_z": "block", "copy_z_between": "block",
    "chunk_byte_store": "window", "len_inplace": "window", "len_store_ahead": "window", "len_reverse": "window",
    # the one staging is the final store to the row's first float (out, write-only, warp tiles)
    "rowsum_into_input": "warp", "rowsum_store_midway": "warp",
    "transpose_rmw_own": "transposed", "transpose_readback": "transposed", "transpose_store_then_rmw": "transposed",
    "transpose_rmw_store_between": "transposed",
}
KINDS: dict[int, dict[str, str | None]] = {
    # -O3 unrolls the constant 24- and 32-float chunk loops: their elements
    # are staged in warp tiles; the in-loop store through z of the next
    # element is staged in warp tiles; the 8-byte straddling load is a plain
    # load
    3: BOTH | {"chunk_inplace": "warp", "chunk_store_ahead": "warp", "chunk_pair_store": "warp",
               "rowsum_written_before": "warp", "wide_straddle": "block"},
    # -O0: the chunk loops stay loops (windows); the reduction reads through a
    # window; gs_warp_z_next's blocks are not one region; the straddling
    # P2's struct copy is split by SROA as at -O3
    0: BOTH | {"chunk_inplace": "window", "chunk_store_ahead": "window", "chunk_pair_store": "window",
               "rowsum_written_before": "window", "wide_straddle": "block"},
}
# Overlap checks of the element stagings that the attacks rely on (the
# thread's accesses through the other pointers, checked against its own
# element).
CHECKS = {
    3: {"axpy": 3, "read_after_write": 2, "float_view": 4, "axpy_z_third": 4, "two_written_arrays": 1,
        "padding_neighbour": 1, "skipped_member_neighbour": 1, "wide_straddle": 2, "vote_mixed": 1,
        "warp_z_third": 5, "gs_alternating": 1, "transpose_readback": 2, "transpose_store_then_rmw": 1,
        "transpose_rmw_store_between": 1, "transpose_rmw_own": 0},
    0: {"axpy": 3, "read_after_write": 3, "float_view": 4, "axpy_z_third": 4, "two_written_arrays": 1,
        "padding_neighbour": 1, "skipped_member_neighbour": 1, "vote_mixed": 2,
        "warp_z_third": 5, "gs_alternating": 1, "transpose_readback": 2, "transpose_store_then_rmw": 1,
        "transpose_rmw_store_between": 1, "transpose_rmw_own": 0},
}
# The block decides by a vote where the checks differ between its threads
# (vote_mixed: only even threads read their own element; gs_alternating:
# the x index is not the lane form).
VOTES = {"vote_mixed", "gs_alternating", "padding_neighbour", "skipped_member_neighbour"}


def kernel_names() -> set[str]:
    return {line.split("(")[0].split()[-1] for line in SOURCE.read_text().splitlines()
            if line.startswith("__global__ void")}


def staging(report: dict, name: str) -> dict:
    (kernel,) = [k for k in report["kernels"] if k["name"] == name]
    (s,) = [s for s in kernel["stagings"] if s["transformed"]]
    return s


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-aliases"), LEVELS, *PASS_ARGS)


@pytest.fixture(scope="module")
def emulated(built: dict) -> dict:
    # -O3 in `make test`, both levels in `make test-o0` (emulate_levels);
    # tests/test_adversarial.py leaves this corpus to this file
    return emulate_levels(SOURCE, built)


def test_pins_are_complete() -> None:
    names = kernel_names()
    assert 25 <= len(names) <= 45
    for level in LEVELS:
        assert set(KINDS[level]) == names, (f"-O{level}: unpinned {sorted(names - set(KINDS[level]))}, "
                                            f"stale {sorted(set(KINDS[level]) - names)}")
        assert set(CHECKS[level]) <= names
    assert VOTES <= names
    assert not [line for line in SOURCE.read_text().splitlines()
                if "__restrict__" in line and not line.startswith("//")], "the alias layout runs only where no pointer is __restrict__"


@pytest.mark.parametrize("level", LEVELS)
def test_rewritten_how(level: int, built: dict) -> None:
    _, report = built[level]
    got = rewrite_kinds(report)
    wrong = {k: (got.get(k), want) for k, want in KINDS[level].items() if got.get(k) != want}
    assert not wrong, f"-O{level}: kernel: (got, pinned) {wrong}"


@pytest.mark.parametrize("level", LEVELS)
def test_overlap_checks(level: int, built: dict) -> None:
    _, report = built[level]
    got = {name: staging(report, name)["overlap_checks"] for name in CHECKS[level]}
    assert got == CHECKS[level]
    votes = {name for name in VOTES if KINDS[level][name] == "block"}
    assert {name for name in votes if staging(report, name)["go"] != "vote"} == set()


def test_the_alias_layout_checks_every_kernel(emulated: dict) -> None:
    """Every kernel, at both sizes, runs in the alias layout under all four
    schedules and matches at -O3: none is "not checked" (the corpus is
    race-free with every buffer at one address), and nothing else differs."""
    for level_run in emulated.values():  # -O0 too in `make test-o0`
        assert_all_match(level_run)
    run = emulated[3]
    assert "not checked" not in run.stdout, run.stdout[-3000:]
    alias = {}
    for name, n, layout, schedule, _, result in ROW.findall(run.stdout):
        if layout == "alias":
            alias.setdefault(name, set()).add((n, schedule.strip(), result.strip()))
    assert set(alias) == kernel_names()
    assert {k: v for k, v in alias.items() if v != {("256", "all 4", "match"), ("300", "all 4", "match")}} == {}


# One kernel of each path whose fast path, with its overlap checks planted
# away, reads a stale value where its pointers meet: x.x read after y.x was
# written (block and warp tiles), the own element on odd grid-stride
# iterations, in read back after the deferred transposed store.
PLANTED = {
    "read_after_write": "_Z16read_after_write",             # block tile
    "warp_read_after_write": "_Z21warp_read_after_write",   # warp tile
    "gs_alternating": "_Z14gs_alternating",                 # grid-stride iteration, by a vote
    "transpose_readback": "_Z18transpose_readback",         # read after the deferred store
}
# The block tile also runs in the one-thread overlap launches (a row of one
# thread is full), where x is y + 1 or y - 1 byte; warp tiles need 32 lanes,
# transposes more than a warp, and the grid-stride kernel reads its own
# element only on odd iterations: those three differ in the alias layout alone.
ALSO_ELSEWHERE = {"read_after_write"}


@pytest.mark.parametrize("level", [3])  # -O0's paths are the same kinds (test_rewritten_how)
def test_missing_overlap_checks_are_caught_by_the_alias_layout(level: int, built: dict, tmp_path: Path) -> None:
    """The overlap checks of four kernels (block tile, warp tile, grid-stride
    iteration, transpose) planted away (`coalda.apart = or i1 true, true`):
    each then differs in the alias layout, and three of them there alone
    (the other layouts keep the buffers apart or run one thread)."""
    out, _ = built[level]

    def no_checks(body: str) -> str:
        new, n = re.subn(r"(%coalda\.apart\d* = or i1) %[\w.]+, %[\w.]+", r"\1 true, true", body)
        assert n, body[:120]
        return new

    def planted(text: str) -> str:
        for symbol in PLANTED.values():
            text = in_function(text, symbol, no_checks)
        return text

    bad = plant(out, tmp_path, planted, "the overlap checks")
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", str(level), "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    assert differing_kernels(run) == set(PLANTED), run.stdout[-3000:]
    rows = [(name, layout) for name, _, layout, _, _, result in ROW.findall(run.stdout)
            if re.search("MISMATCH|RACE|FAULT", result)]
    assert {name for name, layout in rows if layout == "alias"} == set(PLANTED), run.stdout[-3000:]
    assert {name for name, layout in rows if layout != "alias"} == ALSO_ELSEWHERE, run.stdout[-3000:]
