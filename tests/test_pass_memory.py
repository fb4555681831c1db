"""The pass under valgrind's memcheck: no read of freed or uninitialized
memory on the lit inputs that delete what they rewrite while still holding
AccessExprs to it. Two such reads were found this way (2026-11-26), both
invisible to every other test because the freed memory usually still held
the old bytes:

- `eraseMembers` read the address of a struct assignment's memcpy after
  erasing it (a transfer is both a store and a load of its group);
- the chunk window's refill read the alignment of sites already replaced
  by earlier sites (the emitted alignment could change from run to run).

The inputs: every lit test of the kinds that erase several accesses of one
group or array (struct assignments, chunk windows, stagings and their early
loads, flat copies, guards). `make memcheck` runs every lit input (about 6 minutes on 2 cores).
Skipped where valgrind is not installed (scripts/setup.sh installs it).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from coalda.driver.toolchain import toolchain

LIT = Path(__file__).resolve().parent.parent / "pass" / "test"
INPUTS = sorted(
    p for pattern in ("Transform/struct-assign-*.ll", "Staging/window-*.ll", "Staging/partial-element.ll",
                      "Staging/warp-tile.ll", "Staging/early-loads.ll", "Transform/flat-*.ll", "Guards/*.ll")
    for p in LIT.glob(pattern)
)
VALGRIND = shutil.which("valgrind")


def test_the_inputs_are_there() -> None:
    assert len(INPUTS) >= 12, INPUTS


@pytest.mark.skipif(VALGRIND is None, reason="valgrind is not installed")
@pytest.mark.parametrize("ll", INPUTS, ids=lambda p: str(p.relative_to(LIT)))
def test_the_pass_reads_no_freed_memory(ll: Path) -> None:
    tools = toolchain()
    cmd = [VALGRIND, "--error-exitcode=9", "-q", str(tools.opt), f"-load-pass-plugin={tools.plugin}",
           "-passes=coalda", "-disable-output", str(ll)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
