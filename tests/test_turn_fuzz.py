"""Random kernels for arrays staged in turn (tests/turn_kernels.py): the same
bytes before and after at -O3 (and -O0 at campaign sizes) under every layout
and schedule, and the family exercises the rewrite (a batch in which no
kernel is staged in turn means the generator broke). COALDA_TURN_FUZZ kernels (default 12, one
batch; `make fuzz` runs 480).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import O0_SCHEDULES, run_in_process
from turn_kernels import random_kernels

FUZZ = int(os.environ.get("COALDA_TURN_FUZZ", "12"))
BATCH = 12
# -O0 too at campaign sizes (`make fuzz`); `make test`'s one batch runs -O3
# (adversarial/arrays_in_turn.cu runs both levels there)
LEVELS = (3, 0) if FUZZ > BATCH else (3,)


@pytest.mark.parametrize("batch", range(max(1, FUZZ // BATCH)))
def test_random_kernels_staged_in_turn(batch: int, tmp_path: Path) -> None:
    kernels = random_kernels(batch, BATCH)
    source = tmp_path / "turn.cu"
    source.write_text("".join(k.source() for k in kernels))
    (tmp_path / "turn.toml").write_text("sizes = [290]\n\n" + "\n".join(k.spec() for k in kernels))
    for level in LEVELS:
        out = tmp_path / f"out{level}"
        proc = run_in_process("optimize", "-q", source, "-O", str(level), "-o", out, "--no-ptx")
        assert proc.returncode == 0, proc.stderr
        report = json.loads((out / "turn.report.json").read_text())
        in_turn = {k["name"] for k in report["kernels"] for s in k.get("stagings", [])
                   if s["transformed"] and s.get("arrays_in_turn")}
        if level == 3:
            # A record whose tile alone does not fit is never staged in turn;
            # half or more of the others are (the cost rules and the
            # run-time-length checks decide the rest).
            for k in kernels:
                if not k.fits_alone():
                    assert k.name not in in_turn, k.source()
            candidates = [k for k in kernels if k.fits_alone()]
            assert len(in_turn) >= len(candidates) // 2, (sorted(in_turn), [k.name for k in candidates])
        run = run_in_process("run", source, "--emulate", "-q", "-O", str(level),
                             *(O0_SCHEDULES if level == 0 else ()), "--from", out)
        assert run.returncode == 0, source.read_text() + run.stdout[-3000:] + run.stderr
