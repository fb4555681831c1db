"""Warp tiles (issue 12: where no block barrier may go): kernels that return
early on a value they read are staged one full warp at a time
(testcases/staging_warps.cu), compute the same bytes on the emulator under
every layout and schedule (the shuffled one also runs warps apart, so their
`__activemask()` is partial and they take the original code), with partial
warps and blocks; the oracle catches each bug a warp tile could have,
planted into the emitted IR; `-coalda-stage-warp-tiles=always` stages
block-legal kernels in warp tiles too (the benchmark's variant), and
`never` gives the block's reason back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import TESTCASES, plant, run_in_process
from test_staging import optimize, staged

WARPS = TESTCASES / "staging_warps.cu"
KERNELS = {"d4_alive", "soa_to_aos_alive", "advance_alive"}  # no block barrier may go


@pytest.fixture(scope="module")
def warps_o3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("warps") / "out"
    optimize(WARPS, out)
    return out


@pytest.mark.parametrize("level", [3, 0])
def test_early_returns_on_data_are_staged_in_warp_tiles(level: int, tmp_path: Path) -> None:
    out = tmp_path / "out"
    got = staged(optimize(WARPS, out, level))
    assert set(got) == KERNELS | {"advance"}
    for name in KERNELS | {"advance"}:
        assert (got[name]["tile"], got[name]["go"], got[name]["vote"]) == ("warp", "warp", False), got[name]
    for name in KERNELS:
        assert "no barrier may go where not every thread reaches" in got[name]["reason"], got[name]
    # the same step with no early return: a block tile could go, but the
    # cost rule takes warp tiles for its 24-byte elements
    assert "faster than a block tile for elements of 24 bytes or more" in got["advance"]["reason"]
    # __syncwarp after the loads (the read-modify-writes), before the stores
    # and after them (the alive load outside the region may alias the
    # array, so its thread's later accesses wait for the warp's stores);
    # soa's out is written only; advance's kernel touches nothing else
    assert {name: got[name]["barriers"] for name in KERNELS | {"advance"}} == {
        "d4_alive": 3, "soa_to_aos_alive": 2, "advance_alive": 3, "advance": 2}
    run = run_in_process("run", WARPS, "--emulate", "-O", str(level), "--from", out)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    # 4 kernels x 2 sizes x 4 layouts x 4 schedules + 2 overlap layouts x 2 sizes x 3
    assert "All 140 comparisons match byte for byte." in run.stdout


@pytest.mark.parametrize("block", [80, 48])
def test_partial_warps_run_the_original_code(warps_o3: Path, tmp_path: Path, block: int) -> None:
    """Blocks whose last warp is partial: its activemask lacks lanes, so it
    takes the original code while the full warps are staged. A warp tile
    that took a partial warp would move the row of a missing lane."""
    spec = (TESTCASES / "staging_warps.toml").read_text().replace("block = 128", f"block = {block}")
    (tmp_path / "staging_warps.toml").write_text(spec)
    run = run_in_process("run", WARPS, "--emulate", "--spec", tmp_path / "staging_warps.toml", "--from", warps_o3)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    assert "All 140 comparisons match byte for byte." in run.stdout


def planted(good: Path, tmp_path: Path, edit: str) -> Path:
    return plant(good, tmp_path, lambda text: _plant_warp_tile(text, edit), edit)


def _plant_warp_tile(text: str, edit: str) -> str:
    if edit == "no-load-syncwarp":  # the region reads slots other lanes are still filling
        new = re.sub(r"(\ncoalda\.copied\d*:[^\n]*)\n  call void @llvm\.nvvm\.bar\.warp\.sync\(i32 -1\)[^\n]*",
                     r"\1", text)
    elif edit == "any-lane":  # a warp goes when any lane passes: dead lanes' slots stored
        new = text.replace("%coalda.stage.go = icmp eq i32 %coalda.ballot, -1",
                           "%coalda.stage.go = icmp ne i32 %coalda.ballot, 0")
    elif edit == "block-row":  # the row from the block's first thread, not the warp's
        new = re.sub(r"%coalda\.lane = and i64 %coalda\.tid, 31", "%coalda.lane = and i64 %coalda.tid, 1023", text)
    else:  # half-warp: the warp's units stop short of its row's end
        def half(m: re.Match[str]) -> str:
            return m[1] + str(int(m[2]) // 2) + m[3]
        # a lane's units lane + 32k moved without a loop become lane + 16k
        # (the row's last units never moved); the bound of a guarded unit
        # or of a loop over the units halves
        new = re.sub(r"(%coalda\.u\d* = add nuw nsw i32 )(\d+)(, %coalda\.unit\.lane)", half, text)
        new = re.sub(r"(%coalda\.u\.in\d* = icmp ult i32 %coalda\.unit\.lane, )(\d+)()", half, new)
        new = re.sub(r"(%coalda\.k\d* = phi i(?:32|64) .*\n  %\d+ = icmp ult i(?:32|64) %coalda\.k\d*, )(\d+)()", half, new)
    return new


@pytest.mark.parametrize("edit", ["no-load-syncwarp", "any-lane", "block-row", "half-warp"])
def test_a_planted_warp_tile_bug_is_caught(warps_o3: Path, tmp_path: Path, edit: str) -> None:
    run = run_in_process("run", WARPS, "--emulate", "--sizes", "1000", "--from", planted(warps_o3, tmp_path, edit))
    assert run.returncode == 1, run.stdout[-2000:]
    bad = [line for line in run.stdout.splitlines() if re.search(r"MISMATCH|RACE|FAULT", line)]
    assert bad and all(re.search(r"\b(d4_alive|soa_to_aos_alive|advance_alive|advance)\b", line) for line in bad), bad


def test_always_stages_block_legal_kernels_in_warp_tiles(tmp_path: Path) -> None:
    """The benchmark's variant: staging_loops.cu's kernels in warp tiles (a
    bounds guard every thread reaches; each iteration of a grid-stride
    loop)."""
    out = tmp_path / "out"
    got = staged(optimize(TESTCASES / "staging_loops.cu", out, 3, "-coalda-stage-warp-tiles=always"))
    tiles = {name: entry["tile"] for name, entry in got.items()}
    assert tiles == {"soa_to_aos": "warp", "d4_update": "warp", "axpy3": "warp",
                     "soa_to_aos_grid_stride": "warp", "d4_fill_grid_stride": "warp",
                     "d4_update_grid_stride": "warp", "axpy3_grid_stride": "warp"}
    run = run_in_process("run", TESTCASES / "staging_loops.cu", "--emulate", "--from", out)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    # 7 kernels x 2 sizes x 4 layouts x 4 schedules + 2 overlap layouts x 2
    # sizes for the 4 with two pointers (the soa and axpy forms), + the alias
    # layout's 4 schedules x 2 sizes for the axpy forms: their warp tiles'
    # checks see x and y at one address (the soa forms race there)
    assert "All 256 comparisons match byte for byte." in run.stdout
    assert "4 alias launches were not checked (soa_to_aos, soa_to_aos_grid_stride:" in " ".join(run.stdout.split())


def test_never_gives_the_block_reason(tmp_path: Path) -> None:
    """Without warp tiles: the block's reason (soa's stores, copies of ix,
    iy, iz, then say why as a copy, which the report does not repeat)."""
    report = optimize(WARPS, tmp_path / "out", 3, "-coalda-stage-warp-tiles=never")
    assert set(staged(report)) == {"advance"}
    assert staged(report)["advance"]["tile"] == "block"
    reasons = {k["name"]: k["stagings"][0]["reason"] for k in report["kernels"] if k.get("stagings")}
    assert set(reasons) == {"d4_alive", "advance_alive", "advance"}
    reasons.pop("advance")  # block-legal: staged, in a block tile
    assert all("no barrier may go there" in r for r in reasons.values()), reasons
