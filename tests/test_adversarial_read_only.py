"""The read-only chunk-window adversary (testcases/adversarial/read_only_windows.cu):
loops that only read their chunks (reductions), by default and with
-coalda-window-read-only=runtime, at -O3 and -O0. Every build must optimize,
compute the original bytes under `coalda run --emulate` (every layout, every
schedule), and keep its window decisions (pinned as sets per level and mode).

The attacks on the run-time test "Fits" (row lengths that differ per warp or
per thread: from a data table, a thread-dependent select, a per-thread load,
an atomic's result) are refused before any tile: the chunk's lane stride is
not a block-uniform expression, so no window candidate is made (no window
entry in the report). Per-block lengths, threadIdx.y-scaled lengths (Fits
demands a 1-D block) and 1024-thread / 2-D launches take the window and run
the original loop where Fits fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import TESTCASES, run_in_process

SOURCE = TESTCASES / "adversarial" / "read_only_windows.cu"
RUNTIME = "--pass-arg=-coalda-window-read-only=runtime"
BUILDS = [(3, False), (3, True), (0, False), (0, True)]

# Compile-time rows a multiple of 128 bytes apart (or a loop that also stores):
# windowed in every mode.
CONST_BOTH = {
    "bounded1024_const", "bounded128_const", "block_2d_const", "two_const_strides",
    "step2_from1_const", "float_math_const", "store_then_reduce",
}
# Rows of a run-time length: windowed only with the switch.
RUNTIME_ONLY = {
    "block_len", "block_table_len", "tid_y_len", "len_block_1024", "bounded64_len",
    "guard_if_len", "unroll4_len", "do_while_len", "header_load_ro", "double_math_len",
}
WINDOWED = {
    # -O3 unrolls double_256's 32 loads whole (an element staging) and
    # two_mixed_strides' 24-iteration loop (no chunk loop left)
    (3, False): CONST_BOTH,
    (3, True): CONST_BOTH | RUNTIME_ONLY,
    # -O0 keeps float4_256's loop, whose float4 copies SROA splits into
    # member loads: a window of 16-byte rows
    (0, False): CONST_BOTH | {"double_256", "float4_256"},
    (0, True): CONST_BOTH | RUNTIME_ONLY | {"double_256", "two_mixed_strides", "float4_256"},
}
# Never windowed: strides that differ between threads of a block, a guard
# on data, rows not a multiple of 128 bytes, 2-byte loads.
NEVER = {
    "warp_len_table", "warp_len_split", "thread_select_len", "thread_loaded_len", "atomic_len",
    "guard_data_const", "const_124", "const_132", "short_128",
}
# No window candidate at all: the lane stride is per-thread.
NO_CANDIDATE = {"warp_len_table", "warp_len_split", "thread_select_len", "thread_loaded_len", "atomic_len"}
REASONS = {
    (0, "const_124"): "rows are 124 bytes apart, not a multiple of 128",
    (0, "const_132"): "rows are 132 bytes apart, not a multiple of 128",
    (3, "guard_data_const"): "may split the block",
    (0, "guard_data_const"): "may split the block",
    (3, "short_128"): "2 bytes wide",
    (0, "short_128"): "2 bytes wide",
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, bool], tuple[Path, dict]]:
    root = tmp_path_factory.mktemp("adv-read-only")

    def one(build: tuple[int, bool]) -> tuple[Path, dict]:
        level, runtime = build
        out = root / f"O{level}{'-runtime' if runtime else ''}"
        proc = run_in_process("optimize", "-q", SOURCE, "-O", str(level), "-o", out, "--no-ptx", *([RUNTIME] if runtime else []))
        assert proc.returncode == 0, proc.stderr
        return out, json.loads((out / f"{SOURCE.stem}.report.json").read_text())

    return {build: one(build) for build in BUILDS}


@pytest.fixture(scope="module")
def emulated(builds: dict) -> dict:
    def one(build: tuple[int, bool]):
        return run_in_process("run", SOURCE, "--emulate", "-q", "-O", str(build[0]), "--from", builds[build][0])

    return {build: one(build) for build in BUILDS}


def windowed(report: dict) -> set[str]:
    return {k["name"] for k in report["kernels"]
            if any(s["transformed"] and s.get("kind") == "window" for s in k.get("stagings", []))}


def _id(build: tuple[int, bool]) -> str:
    return f"O{build[0]}-{'runtime' if build[1] else 'default'}"


@pytest.mark.parametrize("build", BUILDS, ids=_id)
def test_every_kernel_computes_the_original_bytes(build: tuple[int, bool], emulated: dict) -> None:
    run = emulated[build]
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    # 29 kernels x 4 layouts x 4 schedules + 2 overlap layouts for each
    # kernel without __restrict__ (all): 29 * 18
    assert re.search(r"All 522 comparisons match byte for byte\.", run.stdout), run.stdout[-2000:]


@pytest.mark.parametrize("build", BUILDS, ids=_id)
def test_window_decisions_are_pinned(build: tuple[int, bool], builds: dict) -> None:
    level, runtime = build
    report = builds[build][1]
    names = {k["name"] for k in report["kernels"]}
    got = windowed(report)
    assert len(names) == 29
    assert not WINDOWED[build] & NEVER
    assert WINDOWED[build] | NEVER <= names
    assert got == WINDOWED[build], (sorted(got - WINDOWED[build]), sorted(WINDOWED[build] - got))
    stagings = {k["name"]: [s for s in k.get("stagings", []) if s.get("kind") == "window"]
                for k in report["kernels"]}
    for name in NO_CANDIDATE:
        assert not stagings[name], (name, stagings[name])
    reasons = {n: " ".join(s["reason"] for s in ss if not s["transformed"]) for n, ss in stagings.items()}
    for (lv, name), why in REASONS.items():
        if lv == level:
            assert why in reasons[name], (name, reasons[name])
    if not runtime:
        for name in RUNTIME_ONLY:
            if stagings[name]:
                assert "row length is known only at run time" in reasons[name], (name, reasons[name])
    # the tiles: __launch_bounds__(64) sizes a 64-thread tile, 1024 and
    # (none) 512
    entries = {n: next(s for s in ss if s["transformed"]) for n, ss in stagings.items() if n in got}
    assert entries["bounded1024_const"]["threads"] == 512
    assert entries["bounded128_const"]["threads"] == 128
    if runtime:
        assert entries["bounded64_len"]["threads"] == 64
