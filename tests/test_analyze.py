"""`coalda analyze` on programs in the style of well-known CUDA benchmarks:
the findings (file:line, stride, verdict) are pinned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import TESTCASES, run_cli

ANALYSIS = TESTCASES / "analysis"

# (kernel, file, line, kind, stride, coalesced); stride None = run-time value.
EXPECTED = {
    "particles.cu": {
        ("weigh", "particles.h", 14, "load", 16, False),  # p[i].weight, in the header
        ("weigh", "particles.h", 14, "load", 16, False),  # p[i].x
        ("weigh", "particles.cu", 8, "store", 4, True),
        ("kinetic", "particles.cu", 14, "load", 32, False),  # b[i].mass
        ("kinetic", "particles.cu", 14, "load", 8, True),
        ("kinetic", "particles.cu", 14, "store", 8, True),
    },
    "columns.cu": {
        ("fan1", "columns.cu", 7, "load", None, False),  # a[Size*(tid+t+1)+t]
        ("fan1", "columns.cu", 7, "load", 0, True),  # a[Size*t+t]: the same for all threads
        ("fan1", "columns.cu", 7, "store", None, False),
        ("invert_mapping", "columns.cu", 14, "load", None, False),  # input[point*nfeatures+i]
        ("invert_mapping", "columns.cu", 14, "store", 4, True),  # output[point+npoints*i]
    },
    "chunks.cu": {("scale_chunks", "chunks.cu", 9, kind, 32, False) for kind in ("load", "store")},
    "stencil.cu": {
        ("smooth", "stencil.cu", 6, "load", 4, True),  # in[i-1], in[i], in[i+1]: shifted, coalesced
        ("smooth", "stencil.cu", 6, "store", 4, True),
    },
}


def analyze(path: Path, *args: str) -> dict:
    proc = run_cli("analyze", path, "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_findings_are_pinned(name: str) -> None:
    report = analyze(ANALYSIS / name)
    found = {
        (k["name"], Path(a["file"]).name, a["line"], a["kind"], a["stride"], a["coalesced"])
        for k in report["kernels"]
        for a in k["accesses"]
    }
    assert found == EXPECTED[name]
    for kernel in report["kernels"]:
        for access in kernel["accesses"]:
            assert access["column"] > 0
        # analyze never transforms
        assert not any(g["transformed"] for g in kernel["groups"])


def test_header_locations_point_at_the_access() -> None:
    report = analyze(ANALYSIS / "particles.cu")
    [weigh] = [k for k in report["kernels"] if k["name"] == "weigh"]
    header = (ANALYSIS / "particles.h").read_text().splitlines()
    cols = sorted(a["column"] for a in weigh["accesses"] if a["file"].endswith("particles.h"))
    line = header[13]
    # clang locates a member access at the member's name
    assert line[cols[0] - 1 :].startswith("weight * p[i].x") and line[cols[1] - 1 :].startswith("x;")


def test_analyze_at_O0_inlines_forceinline_helpers() -> None:
    report = analyze(ANALYSIS / "particles.cu", "-O", "0")
    files = {Path(a["file"]).name for k in report["kernels"] for a in k["accesses"]}
    assert "particles.h" in files


def test_analyze_table_names_header_lines() -> None:
    proc = run_cli("analyze", ANALYSIS / "particles.cu")
    assert proc.returncode == 0 and "particles.h:14" in proc.stdout
