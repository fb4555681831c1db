"""Builds what docs/runs/launches/run.sh's variant check runs on the GPU
(into .device/launches/variants/): each adversary named on the command line
(default grid_variants; run 3 adds flat_variants, run 6 tile_variants), testcases/adversarial/STEM.cu
through `coalda optimize -O3 --pass-arg=-coalda-reshape-launches
--pass-arg=-coalda-reshape-block-loops` (the block loops too, off by default
since run 3; IR, PTX, report) and the kernels' signatures, read here where llvmlite's IR parser
runs on the same IR as the emulator's check (tests/test_grid_variants.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from coalda.ir import signatures

REPO = Path(__file__).resolve().parents[3]
OUT = REPO / ".device" / "launches" / "variants"
OUT.mkdir(parents=True, exist_ok=True)
for stem in sys.argv[1:] or ["grid_variants"]:
    subprocess.run([sys.executable, "-m", "coalda.cli", "optimize", "-q", "-O", "3", "-o", str(OUT),
                    "--pass-arg=-coalda-reshape-launches", "--pass-arg=-coalda-reshape-block-loops", str(REPO / "testcases" / "adversarial" / f"{stem}.cu")],
                   check=True, cwd=REPO)
    sigs = {which: signatures((OUT / f"{stem}.{which}.ll").read_text()) for which in ("before", "after")}
    (OUT / f"{stem}.sigs.json").write_text(json.dumps(sigs))
