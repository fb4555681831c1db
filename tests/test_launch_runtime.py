"""The run-time choice of reshaped launches (pass/runtime/LaunchGrid.cpp),
built against a simulated CUDA runtime (tests/launch_runtime/mock_cudart.cpp)
whose kernels take the times the environment gives: which kernel each
launch runs, on which grid, with which extra argument, and when the choice
is made. No GPU; the GPU runs are docs/runs/launches/."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from coalda.driver.toolchain import find_clang

from conftest import REPO

RUNTIME = REPO / "pass" / "runtime" / "LaunchGrid.cpp"
MOCK = REPO / "tests" / "launch_runtime" / "mock_cudart.cpp"
# 132 SMs x 8 blocks (the mock's occupancy) of the variant at once.
RESIDENT = 1056


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Path:
    exe = tmp_path_factory.mktemp("launch") / "mock_launch"
    subprocess.run([str(find_clang()), "-O1", "-std=c++17", "-Wall", "-Werror", str(RUNTIME), str(MOCK),
                    "-o", str(exe)], check=True, capture_output=True, text=True)
    return exe


def launches(mock: Path, n: int, grid: tuple[int, int], block: int = 256, *extra: str,
             **env: str) -> tuple[list[str], str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("COALDA_LAUNCH", "MOCK_")) and k != "CUDA_INJECTION64_PATH"}
    proc = subprocess.run([str(mock), str(n), str(grid[0]), str(grid[1]), str(block), *extra],
                          capture_output=True, text=True, env={**clean, **env}, check=True)
    return proc.stdout.splitlines(), proc.stderr


def kinds(lines: list[str]) -> str:
    """O for the original, V for the variant, per launch."""
    return "".join("V" if " variant " in ln else "O" for ln in lines if ln.startswith("launch"))


def test_alternates_then_keeps_the_faster(mock: Path) -> None:
    """Three timed launches of each, alternating, then the faster for good;
    the variant on the resident grid with the original grid's x size last."""
    lines, said = launches(mock, 12, (5000, 1), MOCK_VAR_MS="0.5", COALDA_LAUNCH_REPORT="1")
    assert kinds(lines) == "OVVOVOOV" + "VVVV"
    assert lines[1] == f"launch variant grid {RESIDENT},1 block 256 G 5000 n 1"
    assert said.splitlines() == [
        "coalda: _Z1kPfi: grid 5000 x 1 x 1, 256 threads a block: reshaped, measured faster (original 1.0000 ms, "
        f"reshaped onto {RESIDENT} x 1 x 1 blocks 0.5000 ms, the median of 4 launches each)"]
    slower, _ = launches(mock, 12, (5000, 1), MOCK_VAR_MS="1.5")
    assert kinds(slower) == "OVVOVOOV" + "OOOO"


@pytest.mark.parametrize("first", ["0.1", "9"])
def test_one_unlike_launch_does_not_decide(mock: Path, first: str) -> None:
    """The program's first launch (the original's first trial) runs unlike
    the later ones, much faster or much slower: the choice goes by each
    code's median, so it still takes the variant, which is faster in every
    other trial. (With each code's fastest trial, as before runs 12-14, an
    unlike fast first launch decided for the original: it does here with
    MOCK_FIRST_MS=0.1 on the runtime before that change.)"""
    lines, said = launches(mock, 10, (5000, 1), MOCK_VAR_MS="0.8", MOCK_FIRST_MS=first, COALDA_LAUNCH_REPORT="1")
    assert kinds(lines) == "OVVOVOOV" + "VV", said
    assert "reshaped, measured faster (original 1.0000 ms" in said, said


def test_original_until_the_events_complete(mock: Path) -> None:
    """Events read without blocking: while the timed launches' events are not
    done, the static decision (the original) launches."""
    lines, _ = launches(mock, 40, (5000, 1), MOCK_VAR_MS="0.5", MOCK_DELAY="2")
    order = kinds(lines)
    assert order.startswith("OVVOVOOV" + "O")
    decided = order.index("V", 8)
    assert set(order[8:decided]) == {"O"} and set(order[decided:]) == {"V"}, order


def test_a_preferred_variant_launches_until_measured(mock: Path) -> None:
    """A variant the device code marks preferred (a flat copy of small
    elements) is the static decision: it launches while the events are not
    done and in a captured stream; the measurement still decides, either
    way."""
    lines, _ = launches(mock, 40, (5000, 1), MOCK_VAR_MS="1.5", MOCK_DELAY="2", MOCK_PREFERRED="1")
    order = kinds(lines)
    assert order.startswith("OVVOVOOV" + "V")
    decided = order.index("O", 8)
    assert set(order[8:decided]) == {"V"} and set(order[decided:]) == {"O"}, order
    assert kinds(launches(mock, 8, (5000, 1), 256, "capture", MOCK_PREFERRED="1")[0]) == "V" * 8
    # a grid the variant cannot shrink launches the original all the same
    assert kinds(launches(mock, 4, (100, 1), MOCK_PREFERRED="1")[0]) == "O" * 4
    assert kinds(launches(mock, 4, (5000, 1), COALDA_LAUNCH="original", MOCK_PREFERRED="1")[0]) == "O" * 4


def test_under_an_injected_profiler_the_static_decision_stands(mock: Path) -> None:
    """ncu and nsys inject themselves (CUDA_INJECTION64_PATH) and serialize
    launches, so events would time the tool: no launch is timed, and the
    static decision launches; COALDA_LAUNCH still pins."""
    tool = {"CUDA_INJECTION64_PATH": "/opt/tool/libinjection.so"}
    assert kinds(launches(mock, 10, (5000, 1), MOCK_VAR_MS="0.1", **tool)[0]) == "O" * 10
    assert kinds(launches(mock, 10, (5000, 1), MOCK_VAR_MS="9", MOCK_PREFERRED="1", **tool)[0]) == "V" * 10
    assert kinds(launches(mock, 3, (5000, 1), COALDA_LAUNCH="reshaped", **tool)[0]) == "VVV"
    assert kinds(launches(mock, 10, (5000, 1), MOCK_VAR_MS="0.5", CUDA_INJECTION64_PATH="")[0]) == "OVVOVOOV" + "VV"


@pytest.mark.parametrize("grid", [(RESIDENT, 1), (100, 1), (RESIDENT // 2, 2)])
def test_grids_the_variant_cannot_shrink_launch_the_original(mock: Path, grid: tuple[int, int]) -> None:
    """Rows no longer than the device holds of them at once."""
    lines, _ = launches(mock, 8, grid, MOCK_VAR_MS="0.1")
    assert kinds(lines) == "O" * 8
    assert lines[0] == f"launch original grid {grid[0]},{grid[1]} block 256 n 0"


@pytest.mark.parametrize("grid,rows", [((5000, 2), RESIDENT // 2), ((5000, 2000), 1)])
def test_rows_of_a_grid_share_the_device(mock: Path, grid: tuple[int, int], rows: int) -> None:
    """A grid of several rows keeps them; each loops over its own row, on
    the blocks the device holds at once shared by the rows (one at least)."""
    lines, _ = launches(mock, 2, grid, COALDA_LAUNCH="reshaped")
    assert lines == [f"launch variant grid {rows},{grid[1]} block 256 G {grid[0]} n {k}" for k in range(2)]


def test_pins_and_capture(mock: Path) -> None:
    """COALDA_LAUNCH pins the choice; a stream being captured into a graph
    gets the current choice (the original until one is made) and no events."""
    assert kinds(launches(mock, 8, (5000, 1), COALDA_LAUNCH="original", MOCK_VAR_MS="0.1")[0]) == "O" * 8
    assert kinds(launches(mock, 3, (5000, 1), COALDA_LAUNCH="reshaped", MOCK_VAR_MS="9")[0]) == "VVV"
    assert kinds(launches(mock, 8, (5000, 1), 256, "capture", MOCK_VAR_MS="0.1")[0]) == "O" * 8


def test_a_variant_the_device_cannot_run_launches_the_original(mock: Path) -> None:
    """The occupancy query fails: the original, and the query's error is
    cleared so that the program's own cudaGetLastError() does not see it."""
    lines, _ = launches(mock, 3, (5000, 1), MOCK_PER_SM="0")
    assert lines == ["cleared an error", *(f"launch original grid 5000,1 block 256 n {k}" for k in range(3))]


@pytest.mark.parametrize("block,grid,tiles", [
    ((32, 8), (256, 1024), (256, 256)),   # 4 virtual blocks down a tile
    ((16, 16), (512, 512), (256, 256)),   # 2 x 2
    ((8, 32), (9, 7), (3, 7)),            # 4 across, partial tiles at the edge
    ((16, 16), (3, 5), (2, 3)),           # partial at both edges
])
def test_tiles_launch_on_a_grid_of_32x32_tiles(mock: Path, block: tuple[int, int], grid: tuple[int, int],
                                              tiles: tuple[int, int]) -> None:
    """The tile form (GridVariantTile.cpp): each block of the variant runs
    32/x by 32/y original blocks, on a grid of as many fewer blocks, with
    the original grid's x and y sizes appended."""
    lines, _ = launches(mock, 2, grid, block[0], COALDA_LAUNCH="reshaped", MOCK_FORM="1", MOCK_BLOCK_Y=str(block[1]))
    shape = f"{block[0]}" + (f"x{block[1]}" if block[1] != 1 else "")
    assert lines == [f"launch variant grid {tiles[0]},{tiles[1]} block {shape} G {grid[0]},{grid[1]} n {k}"
                     for k in range(2)]


@pytest.mark.parametrize("block", [(32, 32), (32, 4), (64, 4), (24, 8), (32, 3), (1, 1)])
def test_blocks_that_do_not_fit_the_tiles_launch_the_original(mock: Path, block: tuple[int, int]) -> None:
    """The variant is unrolled for 256 threads (four virtual blocks each):
    other block sizes, and an x or y that is not a power of two up to 32,
    launch the original, even when pinned to the variant."""
    lines, _ = launches(mock, 3, (256, 1024), block[0], COALDA_LAUNCH="reshaped", MOCK_FORM="1",
                        MOCK_BLOCK_Y=str(block[1]))
    assert kinds(lines) == "OOO"


def test_tile_choices_are_per_block_shape(mock: Path) -> None:
    """32x8 and 16x16 have as many threads, not the same tiles: each shape
    is measured on its own. Launches alternating between the two run each
    shape's trials in turn, O V V O for the first four of each (one
    configuration would run O V V O V O O V and decide)."""
    lines, _ = launches(mock, 8, (256, 1024), 32, MOCK_BLOCK_Y="8", MOCK_OTHER_BLOCK="16,16", MOCK_FORM="1",
                        MOCK_VAR_MS="0.5")
    assert kinds(lines) == "OOVVVVOO"
    assert lines[2] == "launch variant grid 256,256 block 32x8 G 256,1024 n 2"
    assert lines[3] == "launch variant grid 128,512 block 16x16 G 256,1024 n 3"


def test_a_rewrite_is_chosen_on_the_launch_own_grid(mock: Path) -> None:
    """The rewrite form (RewriteChoice.cpp): the kernel is the rewrite and
    the variant the kernel as written, launched on the original grid with
    the original arguments and measured against it like the other forms,
    also where the grid is smaller than the device holds (it is not
    reshaped). Until measured, the kernel (the rewrite); COALDA_LAUNCH
    pins the code as written (original: the variant) or the rewrite."""
    lines, said = launches(mock, 10, (5000, 1), MOCK_FORM="2", MOCK_VAR_MS="1.5", COALDA_LAUNCH_REPORT="1")
    assert kinds(lines) == "OVVOVOOV" + "OO"
    assert lines[1] == "launch variant grid 5000,1 block 256 args 2 n 1"
    assert said.splitlines() == [
        "coalda: _Z1kPfi: grid 5000 x 1 x 1, 256 threads a block: rewritten, measured faster (original 1.5000 ms, "
        "rewritten 1.0000 ms, the median of 4 launches each)"]
    small, said = launches(mock, 10, (10, 1), MOCK_FORM="2", MOCK_VAR_MS="0.5", COALDA_LAUNCH_REPORT="1")
    assert kinds(small) == "OVVOVOOV" + "VV"
    assert small[1] == "launch variant grid 10,1 block 256 args 2 n 1"
    assert "original, measured faster (original 0.5000 ms, rewritten 1.0000 ms" in said
    assert kinds(launches(mock, 3, (10, 1), MOCK_FORM="2", COALDA_LAUNCH="original")[0]) == "VVV"
    for pin in ("rewritten", "reshaped"):
        assert kinds(launches(mock, 3, (10, 1), MOCK_FORM="2", MOCK_VAR_MS="0.5", COALDA_LAUNCH=pin)[0]) == "OOO"
    unable, _ = launches(mock, 2, (10, 1), MOCK_FORM="2", MOCK_PER_SM="0")
    assert unable == ["cleared an error", "launch original grid 10,1 block 256 n 0", "launch original grid 10,1 block 256 n 1"]


def test_a_stream_being_captured_reads_no_events(mock: Path) -> None:
    """The timed launches' events are still pending when the launches'
    own stream starts being captured into a graph: its launches take the
    static decision and read no event (an event read in a capture is an
    unsafe call, which fails and invalidates the capture: found on an H200
    by docs/probe/launch_concurrency.cu's graph phase)."""
    lines, _ = launches(mock, 12, (5000, 1), 256, "capture", MOCK_DELAY="2", MOCK_CAPTURE_FROM="8")
    assert "unsafe call in a capture" not in lines
    assert kinds(lines) == "OVVOVOOV" + "OOOO"


def test_another_threads_capture_does_not_stop_the_measurement(mock: Path) -> None:
    """Another thread captures in the global mode, in which every thread's
    unsafe calls fail: the events are read in the relaxed capture mode, and
    the choice is made as without it."""
    lines, _ = launches(mock, 12, (5000, 1), MOCK_VAR_MS="0.5", MOCK_CAPTURE_FROM="8")
    assert "unsafe call in a capture" not in lines
    assert kinds(lines) == "OVVOVOOV" + "VVVV"


def test_a_trial_another_thread_is_launching_is_waited_for(mock: Path) -> None:
    """A launch reads the events while the last timed launch, reserved by
    another thread, has not been launched yet: that trial is waited for,
    not taken for a failed one, and the choice is made on four launches of
    each (it was made on three)."""
    lines, said = launches(mock, 11, (5000, 1), MOCK_VAR_MS="0.5", MOCK_NESTED="7", COALDA_LAUNCH_REPORT="1")
    assert lines[7].startswith("nested launch original"), lines  # undecided: the static decision
    assert kinds(lines) == "OVVOVOOV" + "VVV"  # the nested launch aside
    assert said.strip().endswith("the median of 4 launches each)"), said


@pytest.mark.parametrize("seed", range(1, 9))
def test_random_captures_and_nested_launches(mock: Path, seed: int) -> None:
    """A generator of the two bugs above: each launch draws whether a
    global capture is under way (of its own stream or of another thread's)
    and whether another launch starts inside it. No event is ever read
    unsafely in a capture, and the choice is made on four launches of
    each, for good (the runtime before 5292ec5 fails 7 of these 8 seeds)."""
    lines, said = launches(mock, 60, (5000, 1), MOCK_VAR_MS="0.5", MOCK_SEED=str(seed), COALDA_LAUNCH_REPORT="1")
    assert "unsafe call in a capture" not in "\n".join(lines)
    assert said.strip().endswith("the median of 4 launches each)"), said
    # decided for good (which one depends on the nested launches' times,
    # which the mock's stream adds to the trials they start inside)
    assert len(set(kinds(lines)[-10:])) == 1, kinds(lines)


@pytest.mark.parametrize("form", ["0", "1", "2"])
@pytest.mark.parametrize("grid,block", [((5000, 0), 256), ((0, 1), 256), ((5000, 1), 0)])
def test_an_empty_grid_or_block_launches_as_written(mock: Path, form: str, grid: tuple[int, int],
                                                    block: int) -> None:
    """A launch with a zero-sized grid or block (an empty input's grid, say)
    is the program's own error, which cudaLaunchKernel reports as in a plain
    build: the kernel launches as given, and the runtime computes no variant
    grid (the rows form divided by the grid's y size: such a launch ended
    the program with SIGFPE)."""
    lines, _ = launches(mock, 10, grid, block, MOCK_FORM=form, MOCK_VAR_MS="0.5")
    assert kinds(lines) == "O" * 10
    assert all(f"grid {grid[0]},{grid[1]} block {block}" in ln for ln in lines if ln.startswith("launch")), lines


def test_each_device_is_measured_on_its_own(mock: Path) -> None:
    """Two devices, the launches alternating between them: each device's
    configuration has its own trials and decision. One device: the runtime
    does not ask which (cudaGetDevice on every launch was most of the
    choice's cost, run 16), so the same launches share one entry."""
    two, _ = launches(mock, 20, (5000, 1), MOCK_VAR_MS="0.5", MOCK_DEVICES="2", MOCK_ASKED="1")
    trials = "OVVOVOOV"
    assert kinds(two) == "".join(a + b for a, b in zip(trials, trials)) + "VVVV"
    assert two[-1] == "device asked 20"
    one, _ = launches(mock, 20, (5000, 1), MOCK_VAR_MS="0.5", MOCK_ASKED="1")
    assert kinds(one) == trials + "V" * 12 and one[-1] == "device asked 0"


def test_the_bounded_form_launches_the_unlimited_kernel_where_it_fits(mock: Path) -> None:
    """The bounded form (registers.py's twin: K limited to 64 registers so
    that 1024 threads launch, the variant the same code without the limit)
    is not measured: every launch runs the variant, on the launch's own grid
    with its own arguments, wherever the device holds a block of it (its
    occupancy; a failed query, as for a variant the device cannot load, is
    cleared), else K; no events are made; the choice is said once.
    COALDA_LAUNCH=original launches K."""
    lines, said = launches(mock, 6, (5000, 1), MOCK_FORM="3", COALDA_LAUNCH_REPORT="1", MOCK_EVENTS="1")
    assert kinds(lines) == "VVVVVV" and lines[0] == "launch variant grid 5000,1 block 256 args 2 n 0"
    assert lines[-1] == "events created 0"
    assert said.splitlines() == [
        "coalda: _Z1kPfi: grid 5000 x 1 x 1, 256 threads a block: without its register limit (a block of it fits)"]
    full, said = launches(mock, 6, (5000, 1), 1024, MOCK_FORM="3", MOCK_PER_SM="0", COALDA_LAUNCH_REPORT="1")
    assert kinds(full) == "OOOOOO" and full[:2] == ["cleared an error", "launch original grid 5000,1 block 1024 n 0"]
    assert "with its register limit (a block of it without the limit does not fit)" in said
    pinned, _ = launches(mock, 6, (5000, 1), MOCK_FORM="3", COALDA_LAUNCH="original")
    assert kinds(pinned) == "OOOOOO"


def test_the_bounded_form_asks_once_whatever_the_grid(mock: Path) -> None:
    """The bounded form's decision is the block's: launches on 20 grid sizes
    share one entry, asked the variant's occupancy once, and all run the
    variant on their own grid. (Per grid size class, as the measured forms
    keep them, a program of many sizes filled the table, and its later
    configurations ran the kernel with its register limit.)"""
    lines, _ = launches(mock, 40, (3, 1), MOCK_FORM="3", MOCK_GRIDS="1", MOCK_OCCUPANCY="1")
    assert kinds(lines) == "V" * 40 and lines[-1] == "occupancy asked 1"
    assert lines[19].startswith(f"launch variant grid {3 << 19},1 ")
