"""Read-only chunk windows and read-only elements (testcases/reductions.cu):
the cost rules' decisions at -O3 and -O0, by default and with
-coalda-window-read-only=runtime, and every kernel's bytes before and after
through the emulator (layouts, schedules, overlap layouts, partial last
blocks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import TESTCASES, run_cli

SOURCE = TESTCASES / "reductions.cu"
RUNTIME = "--pass-arg=-coalda-window-read-only=runtime"
# (level, runtime switch) -> kernels windowed
WINDOWED = {
    (3, False): {"row_sums64", "row_fsum64"},
    (0, False): {"row_sums64", "row_fsum64", "row_max32"},
    (3, True): {"row_sums64", "row_fsum64", "row_sums_len"},
    (0, True): {"row_sums64", "row_fsum64", "row_max32", "row_sums_len"},
}
# -O3 unrolls row_max32's 32 loads whole (a 128-byte element, staged; in
# its grid-stride loop on each full iteration: at -O0 the chunk loop nested
# in it is refused); particle_energy's 16-byte aligned record the backend
# reads in 16-byte loads
ELEMENTS = {3: {"row_max32", "row_max32_grid_stride"}, 0: set()}
REASONS = {
    "row_sums100": "rows are 400 bytes apart, not a multiple of 128",
    "row_sums_len": "row length is known only at run time",
}
ELEMENT_REASONS = {3: {"wide_sums": "do not fit the 32 KB a block that only reads may take",
                       "particle_energy": "in loads the backend makes 16 bytes wide"},
                   # -O0 unrolls wide_sums' 48 loads too (the full unroll
                   # of constant trip counts): an element, as at -O3
                   0: {"wide_sums": "do not fit the 32 KB a block that only reads may take"}}


def decisions(report: dict, kind: str = "window") -> tuple[set[str], dict[str, str]]:
    staged = {k["name"] for k in report["kernels"]
              if any(s["transformed"] and s.get("kind") == kind for s in k.get("stagings", []))}
    reasons = {k["name"]: s["reason"] for k in report["kernels"] for s in k.get("stagings", [])
               if not s["transformed"]}
    return staged, reasons


@pytest.mark.parametrize("runtime", [False, True])
@pytest.mark.parametrize("level", [3, 0])
def test_read_only_windows(level: int, runtime: bool, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("optimize", SOURCE, "-O", str(level), "-o", out, "--no-ptx", *([RUNTIME] if runtime else []))
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "reductions.report.json").read_text())
    windowed, reasons = decisions(report)
    assert windowed == WINDOWED[level, runtime]
    for name, why in REASONS.items():
        if name not in windowed:
            assert why in reasons[name], (name, reasons.get(name))
    elements, _ = decisions(report, "element")
    assert elements == ELEMENTS[level]
    for name, why in ELEMENT_REASONS[level].items():
        assert why in reasons[name], (name, reasons.get(name))
    # the 256-byte rows' tile: 36 bytes per thread (a 32-byte window and a
    # padding element) for 512 threads
    [entry] = [s for k in report["kernels"] if k["name"] == "row_sums64" for s in k["stagings"]]
    assert entry["tile_bytes"] == 36 * 512
    run = run_cli("run", SOURCE, "--emulate", "-O", str(level), "--from", out)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    # 8 kernels x 2 sizes x 4 layouts x 4 schedules + 2 overlap layouts x 2
    # sizes for the 7 without __restrict__, + row_max32_grid_stride against
    # row_max32 under 4 layouts x 2 sizes
    assert "All 292 comparisons match byte for byte." in run.stdout
