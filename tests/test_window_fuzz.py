"""Random chunk-window kernels (tests/window_kernels.py): the same bytes
before and after at -O3 and -O0 on the emulator (every layout, every
schedule, the overlap layouts where pointers may alias), and every kernel
windowed at -O3 (its loop stores: the cost rule takes it; a kernel that is
not windowed proves nothing about windows).

COALDA_WINDOW_FUZZ random kernels (default 16, in batches of 8).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import run_cli
from window_kernels import random_kernels

FUZZ = int(os.environ.get("COALDA_WINDOW_FUZZ", "16"))
BATCH = 8


def windowed(report: dict) -> set[str]:
    return {k["name"] for k in report["kernels"] for s in k.get("stagings", [])
            if s["transformed"] and s.get("kind") == "window"}


@pytest.mark.parametrize("batch", range(max(1, FUZZ // BATCH)))
def test_random_window_kernels(batch: int, tmp_path: Path) -> None:
    kernels = random_kernels(batch, BATCH)
    source = tmp_path / "window.cu"
    source.write_text("".join(k.source() for k in kernels))
    # 330 threads: 3 to 11 blocks, the last partial where a guard allows
    (tmp_path / "window.toml").write_text("sizes = [330]\n\n" + "\n".join(k.spec() for k in kernels))
    for level in (3, 0):
        out = tmp_path / f"out{level}"
        proc = run_cli("optimize", source, "-O", str(level), "-o", out)
        assert proc.returncode == 0, proc.stderr
        report = json.loads((out / "window.report.json").read_text())
        if level == 3:
            missing = {k.name for k in kernels if k.promise()} - windowed(report)
            reasons = {k["name"]: [s["reason"] for s in k.get("stagings", [])] for k in report["kernels"]}
            assert not missing, (source.read_text(), {m: reasons.get(m) for m in missing})
        run = run_cli("run", source, "--emulate", "-O", str(level), "--from", out)
        assert run.returncode == 0, source.read_text() + run.stdout[-3000:] + run.stderr
