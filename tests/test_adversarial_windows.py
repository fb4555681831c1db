"""The chunk-window adversary (testcases/adversarial/windows.cu): every kernel
at -O3 and -O0 through `coalda run --emulate` (every layout, every schedule,
the overlap layouts where no pointer is __restrict__), and the window
decisions pinned: a kernel the pass never windows proves nothing about
windows, so the kernels that attack the windowed code must stay windowed
(transformed) and the ones the pass must refuse must stay refused.

Found by this corpus and fixed (the kernels now run their triggering
launch in the corpus spec): a chunk load in the loop's header before its
exit test (`for (k = 0; (v = in[p*len + k], k < len); k++)`, -O0's shape of
such a loop, and -O3's where the header is too big to rotate) runs once
more than the body, but the window bounded the chunk by the body's last
iteration: the extra load (k = len) found 0 bytes left, the refill moved
nothing into the tile and the load read another row's stale bytes (with a
step of two elements the length wrapped and the refill read past the
chunk). And windows ignored __launch_bounds__ under LLVM 19 (clang writes
`maxntidx` into nvvm.annotations, not the `nvvm.maxntid` attribute): the
tile was always sized for 512 threads.

The two -O levels run side by side (two processes), at n = 300 (two full
blocks of 128, windowed at run time, and a partial one, the original).
The corpus is optimized with -coalda-window-read-only=runtime, so that the
reductions whose row length is an argument take the window too (each block
tests its rows before the vote), and with -coalda-window-arms, so that the
loads in a branch's arms do (arms_cover, arms_differ: the default's cost
rule leaves them out, dslash's loop having measured 0.66x); the default's
decisions differ only there (test_read_only_default).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from coalda.report import action
from conftest import TESTCASES, assert_all_match, compared, emulate_levels, optimize_levels, run_in_process

SOURCE = TESTCASES / "adversarial" / "windows.cu"
LEVELS = (3, 0)

# Windowed (a transformed "window" staging) at both levels.
WINDOW_BOTH = {
    "basic", "sizet_float", "from_one", "negative_offset", "from_arg", "step_two", "step_two_even",
    "index_times_two", "two_chunks", "longs", "doubles", "struct_members", "vec16", "two_vec16",
    "int4_members", "pair_align4",
    # the outer loop of `nested` (2 passes) is unrolled (at -O0 too: the
    # full unroll of constant trip counts)
    "nested",
    # the cost rule decides at run time: 5 and 19 ints run the original loop
    "len_5", "len_19", "len_20", "len_33", "len_200",
    # the launch shape decides at run time: 1024 threads and 2-D blocks run the original loop
    "block_1", "block_32", "block_100", "block_512", "block_1024", "block_2d", "bounded_64",
    "restricted", "loaded_length", "prefix_sum", "write_far_ahead", "divergent_store", "alias_store",
    "alias_wide_store", "two_loops", "alternatives", "neighbour_too", "window_apart", "unsigned_index",
    "header_load", "header_load_big", "header_load_step_two", "header_and_body", "do_while", "own_shared", "interleaved", "overlapping_chunks",
    "per_block_stride", "stores_around", "barrier_before", "sum_after", "two_rates", "two_views",
    "byte_store", "int4_ahead", "local_array", "barrier_after", "shared_length", "store_then_load",
    # __launch_bounds__(128): a 128-thread tile fits beside its 36 KB
    "bounded_big_shared",
    # loops that only read, rows of run-time length (-coalda-window-read-only=runtime):
    # the window for 128-byte rows, decided per block before the vote
    # (96-byte rows and 2-D blocks skip it)
    "reduction", "reduction_96", "reduction_2d",
    # 256-byte rows of a compile-time length (every mode but never)
    "reduction_const",
    # uniform arms that read the same elements (dslash's shape), arms that
    # read different ones (only the shared load), a short-row array beside a
    # long-row one (left out alone)
    "arms_cover", "arms_differ", "short_and_long",
}
RUNTIME_READ_ONLY = {"reduction", "reduction_96", "reduction_2d"}
PASS_ARG = "--pass-arg=-coalda-window-read-only=runtime"
# the arms of a branch (arms_cover, arms_differ): off by default (the cost
# rule: dslash measured 0.66x), on here so that the windowed code is attacked
ARMS_ARG = "--pass-arg=-coalda-window-arms"
ARMS = {"arms_cover", "arms_differ"}
MUST_WINDOW = {
    # -O3: the uniform break's second exit folded into the trip count. (int4 and 4-aligned
    # 8-byte struct elements are member loads at both levels: SROA.)
    3: WINDOW_BOTH | {"uniform_break"},
    # -O0: the load before the uniform `continue` stays on every iteration;
    # write_ahead's load is not forwarded from the previous store; the
    # do-while's preheader is the vote's block (-O3's runtime unroll splits
    # it into two loops whose common dominator is the entry).
    0: WINDOW_BOTH | {"uniform_continue", "write_ahead", "do_while_noguard"},
}
# Never windowed: a break (on data or uniform), a per-thread trip count, a
# nested loop, a grid-stride loop, a barrier / an atomic in the loop, a
# falling or run-time step, a guard on per-thread data, a loop that only
# reads (cost rule), no room in shared memory, dynamic shared memory, a copy
# the copy rewrite takes in the kernel, a short loop counter.
NEVER_BOTH = {
    "data_break", "per_thread_trip", "grid_stride", "barrier_inside", "backwards", "step_arg", "guard_on_data",
    "atomic_inside", "big_shared", "dynamic_shared", "copy_and_window", "short_counter",
    # a read-only loop whose rows are 400 bytes apart (not a multiple of 128)
    "reduction_const_400",
    # a pointer induction (-O3) / a pointer phi the automaton does not read: no candidate
    "pointer_walk",
}
NEVER_WINDOW = {
    # -O3: write_ahead's load is forwarded from the previous iteration's
    # store (no chunk load in the loop); the load after `continue` is sunk
    # into the branch; see MUST_WINDOW for do_while_noguard.
    3: NEVER_BOTH | {"write_ahead", "uniform_continue", "do_while_noguard"},
    0: NEVER_BOTH | {"uniform_break"},
}
# Why the pass refuses, at both levels (a fragment of the reason).
REASONS = {
    "grid_stride": "nested in another",
    "barrier_inside": "__syncthreads()",
    "backwards": "does not advance by a constant",
    "step_arg": "does not advance by a constant",
    "guard_on_data": "may split the block",
    "atomic_inside": "atomic add",
    "big_shared": "do not fit the 48 KB",
    "dynamic_shared": "dynamic shared memory",
    "copy_and_window": "copy rewrite",
    "data_break": "may leave before the load",
    "reduction_const_400": "rows are 400 bytes apart, not a multiple of 128",
}


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-windows"), LEVELS, PASS_ARG, ARMS_ARG)


@pytest.mark.parametrize("level", LEVELS)
def test_read_only_default(level: int, optimized: dict, tmp_path: Path) -> None:
    """Without the switches, the reductions whose row length is an argument
    are refused with the cost rule's reason (their tile would take L1 from
    the original loop at every length), and so are the arrays read in a
    branch's arms (dslash's loop measured 0.66x); nothing else changes."""
    proc = run_in_process("optimize", "-q", SOURCE, "-O", str(level), "-o", tmp_path, "--no-ptx")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / f"{SOURCE.stem}.report.json").read_text())
    assert windowed(report) == windowed(optimized[level][1]) - RUNTIME_READ_ONLY - ARMS
    reasons = {k["name"]: s["reason"] for k in report["kernels"] for s in k.get("stagings", [])
               if s.get("kind") == "window"}
    for name in RUNTIME_READ_ONLY:
        assert "row length is known only at run time" in reasons[name], (name, reasons[name])
    # the loads in a branch's arms: the cost rule names the array and dslash
    for name in ARMS:
        assert "in's loads sit in the arms of a branch" in reasons[name] and "0.66x" in reasons[name], reasons[name]


@pytest.fixture(scope="module")
def emulated(optimized: dict[int, tuple[Path, dict]]) -> dict[int, subprocess.CompletedProcess[str]]:
    return emulate_levels(SOURCE, optimized, "--sizes", "300")


def windowed(report: dict) -> set[str]:
    return {k["name"] for k in report["kernels"]
            if any(s["transformed"] and s.get("kind") == "window" for s in k.get("stagings", []))}


@pytest.mark.parametrize("level", compared(LEVELS))
def test_every_kernel_computes_the_original_bytes(level: int, emulated: dict) -> None:
    assert_all_match(emulated[level])


@pytest.mark.parametrize("level", LEVELS)
def test_window_decisions_are_pinned(level: int, optimized: dict) -> None:
    report = optimized[level][1]
    got = windowed(report)
    names = {k["name"] for k in report["kernels"]}
    assert not MUST_WINDOW[level] & NEVER_WINDOW[level]
    assert MUST_WINDOW[level] | NEVER_WINDOW[level] == names, "a kernel without a pinned decision"
    assert not MUST_WINDOW[level] - got, f"no longer windowed: {sorted(MUST_WINDOW[level] - got)}"
    assert not NEVER_WINDOW[level] & got, f"now windowed: {sorted(NEVER_WINDOW[level] & got)}"
    # no other staging kind takes a kernel of this corpus
    other = {k["name"] for k in report["kernels"]
             for s in k.get("stagings", []) if s["transformed"] and s.get("kind") != "window"}
    assert not other, other
    reasons = {k["name"]: s["reason"] for k in report["kernels"] for s in k.get("stagings", [])
               if s.get("kind") == "window"}
    for name, why in REASONS.items():
        assert why in reasons.get(name, ""), (name, reasons.get(name))
    # tiles: 36 bytes per row (a 32-byte window padded by a 4-byte element)
    # for 512 threads, 64 under __launch_bounds__(64); two 16-byte arrays
    # fill the 48 KB
    entries = {k["name"]: s for k in report["kernels"] for s in k.get("stagings", [])
               if s.get("kind") == "window" and s["transformed"]}
    assert entries["basic"]["threads"] == 512 and entries["basic"]["tile_bytes"] == 36 * 512
    assert entries["vec16"]["tile_bytes"] == 48 * 512
    assert entries["two_vec16"]["tile_bytes"] == 48 * 1024
    # stores that may write the chunk are written through; __restrict__
    # pointers' are not
    assert entries["restricted"].get("write_through", 0) == 0
    for name in ("prefix_sum", "alias_store", "alias_wide_store", "two_views", "byte_store", "int4_ahead"):
        assert entries[name].get("write_through", 0) >= 1, name


def left_out(report: dict, kernel: str) -> list[tuple[int, str]]:
    """(line, reason) of each access of kernel that its window leaves out."""
    (k,) = [k for k in report["kernels"] if k["name"] == kernel]
    return sorted((a["line"], a["left_out"]) for a in k["accesses"] if "left_out" in a)


def source_line(fragment: str) -> int:
    (line,) = [i for i, text in enumerate(SOURCE.read_text().splitlines(), 1) if fragment in text]
    return line


@pytest.mark.parametrize("level", LEVELS)
def test_arms_window_what_every_iteration_reads(level: int, optimized: dict) -> None:
    """A load in an arm of a uniform branch is windowed when every way
    through an iteration reads its element (arms_cover: all twelve), and
    left out, with the reason, when only one arm does (arms_differ: all but
    the a[3] both arms read)."""
    report = optimized[level][1]
    assert left_out(report, "arms_cover") == []
    (kernel,) = [k for k in report["kernels"] if k["name"] == "arms_cover"]
    staged = [a for a in kernel["accesses"] if "staging" in a]
    assert len(staged) == 12 and kernel["stagings"][0]["transformed"], staged
    first_arm = source_line("a[18] * 13")
    other_arm = source_line("s += a[5] - 2 * a[4] + 3 * a[3];")
    loose = left_out(report, "arms_differ")
    # seven loads in the first arm, three in the other: a[3] of each stays
    assert [line for line, _ in loose] == [first_arm] * 6 + [other_arm] * 2, loose
    assert all("may leave before the load runs on every iteration" in why for _, why in loose)


@pytest.mark.parametrize("level", LEVELS)
def test_short_rows_are_left_out_alone(level: int, optimized: dict) -> None:
    """An array whose rows are under the cost rule's 80 bytes is left out
    with the rule's reason, naming it; the long rows beside it keep their
    window."""
    loose = left_out(optimized[level][1], "short_and_long")
    assert loose and all("idx's rows are 16 bytes apart, under 80" in why for _, why in loose), loose


def test_left_out_reasons_survive_a_refused_window() -> None:
    """An array left out of a window says why, also where the window of the
    arrays that remain was refused for a reason of theirs: dslash's
    matrices, left out by the arms rule, had their findings name the index
    rows' short-row rule, which refused what was left."""
    stagings = [{"kind": "window", "transformed": False,
                 "reason": "d_fwd's rows are 32 bytes apart, under 80"}]
    access = {"staging": 0, "left_out": "d_fat's loads sit in the arms of a branch in its loop",
              "lane": "x", "class": "uncoalesced", "coalesced": False}
    assert action(access, [], stagings) == ("not staged: d_fat's loads sit in the arms of a branch in its loop",
                                            "yellow")
    del access["left_out"]
    assert action(access, [], stagings) == ("not staged: d_fwd's rows are 32 bytes apart, under 80", "yellow")


@pytest.mark.parametrize("level", LEVELS)
def test_launch_bounds_size_the_tile(level: int, optimized: dict) -> None:
    report = optimized[level][1]
    entries = {k["name"]: s for k in report["kernels"] for s in k.get("stagings", [])
               if s.get("kind") == "window" and s["transformed"]}
    assert entries["bounded_64"]["threads"] == 64 and entries["bounded_64"]["tile_bytes"] == 36 * 64
    assert entries["bounded_big_shared"]["threads"] == 128
