"""The code people write: struct assignment (testcases/assign.cu: clang's
llvm.memcpy per element) and copies in __device__ helpers
(testcases/helpers.cu: calls at -O0, inlined at -O3) are rewritten alike at
-O0 and -O3, and every kernel computes the same bytes before and after under
every layout and schedule of the emulator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import TESTCASES, run_cli

ASSIGN = {"assign_pixels", "assign_vec3", "assign_float3", "assign_particles", "assign_through_helper"}
HELPERS = {"via_helper", "via_reference", "nested_helpers"}

# (testcase, comparisons coalda run makes) -> kernels rewritten at -O0 and -O3
CASES = {("assign", 160): ASSIGN, ("helpers", 128): HELPERS}


@pytest.mark.parametrize("level", [0, 3])
@pytest.mark.parametrize(("stem", "comparisons"), sorted(CASES))
def test_rewritten_alike_at_O0_and_O3_and_the_same_bytes(stem: str, comparisons: int, level: int, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("optimize", TESTCASES / f"{stem}.cu", "-O", str(level), "-o", out, "--no-ptx")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / f"{stem}.report.json").read_text())
    rewritten = {k["name"] for k in report["kernels"] if any(g["transformed"] for g in k["groups"])}
    assert rewritten == CASES[(stem, comparisons)]
    run = run_cli("run", TESTCASES / f"{stem}.cu", "--emulate", "-O", str(level), "--from", out)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    assert f"All {comparisons} comparisons match byte for byte." in run.stdout


def test_findings_of_a_helper_are_at_the_helpers_lines(tmp_path: Path) -> None:
    """At -O0 the copy in copy_pixel (lines 11-13) is reported, and rewritten,
    in via_helper's context."""
    out = tmp_path / "out"
    assert run_cli("optimize", TESTCASES / "helpers.cu", "-O", "0", "-o", out, "--no-ptx").returncode == 0
    report = json.loads((out / "helpers.report.json").read_text())
    (kernel,) = [k for k in report["kernels"] if k["name"] == "via_helper"]
    lines = {(Path(a["file"]).name, a["line"]) for a in kernel["accesses"] if a["kind"] == "store"}
    assert lines == {("helpers.cu", 11), ("helpers.cu", 12), ("helpers.cu", 13)}


def test_a_kernel_whose_helper_is_not_rewritten_keeps_its_call(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_cli("optimize", TESTCASES / "helpers.cu", "-O", "0", "-o", out, "--no-ptx").returncode == 0
    after = (out / "helpers.after.ll").read_text()
    body = after[after.index("@_Z17helper_not_a_copy"):]
    body = body[: body.index("\n}\n")]
    assert "call noundef i32 @_Z11clamp_indexii" in body
