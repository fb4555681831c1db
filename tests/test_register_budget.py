"""A rewritten kernel must launch wherever its original launched: with no
__launch_bounds__, a block of 1024 threads needs at most 64 registers per
thread (65536 per SM). ptxas (the CUDA 12 wheels') counts each kernel's
registers in the PTX `coalda optimize` writes, before and after the pass.

Found on an H200 on 2026-12-02 (docs/runs/o0/README.md): at -O0 the chunk
windows' kernels take 65-109 registers where the originals take 15-26, and
`coalda run` could not launch windows.cu's block_1024 (1024 threads) after
the pass: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES. At -O3 four window kernels
cross the line too (read_only_windows' float_math_const and
two_const_strides, real_shapes' row_softmax, windows' bounded_big_shared).
An element staging crosses it too (staging.cu's contract_both_sides at -O0:
25 -> 70; not run here, for CI time). The windows are pinned as strict
xfails until the rewrites keep the register budget."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from coalda.driver.toolchain import cuda_path
from conftest import TESTCASES, optimize_levels

SMALL = "--pass-arg=-coalda-stage-small-always"
BUDGET = 64  # registers per thread that let a block of 1024 threads launch


def registers(ptx: Path) -> dict[str, int]:
    """Kernel symbol -> the registers ptxas gives it (sm_90)."""
    ptxas = cuda_path() / "bin" / "ptxas"
    proc = subprocess.run([str(ptxas), "-arch", "sm_90", "-v", str(ptx), "-o", "/dev/null"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out, current = {}, None
    for line in proc.stderr.splitlines():
        if m := re.search(r"Compiling entry function '([^']+)'", line):
            current = m.group(1)
        elif (m := re.search(r"Used (\d+) registers", line)) and current:
            out[current], current = int(m.group(1)), None
    return out


def over_budget(stem: str, level: int, tmp_path: Path) -> list[str]:
    """The kernels of testcases/adversarial/STEM.cu that launch at 1024
    threads before the pass and cannot after it."""
    ((out, _),) = optimize_levels(TESTCASES / "adversarial" / f"{stem}.cu", tmp_path, (level,), SMALL).values()
    before, after = registers(out / f"{stem}.before.ptx"), registers(out / f"{stem}.after.ptx")
    assert before.keys() == after.keys() and before
    return [f"{k}: {before[k]} -> {after[k]}" for k in sorted(after) if before[k] <= BUDGET < after[k]]


OVER = pytest.mark.xfail(strict=True, reason="rewritten kernels over 64 registers (docs/runs/o0/README.md)")


@pytest.mark.parametrize("stem,level", [
    ("staging", 3),
    pytest.param("windows", 0, marks=OVER),
    pytest.param("read_only_windows", 3, marks=OVER),
])
def test_rewritten_kernels_keep_the_register_budget(stem: str, level: int, tmp_path: Path) -> None:
    assert over_budget(stem, level, tmp_path) == []
