"""`coalda analyze` over several files, as a project has them (issue 36, 1):
a host-only .cu file is a note, a file that does not compile is an error,
and neither loses the other files' findings. Before, the first such file
stopped the run with exit 1 and no findings at all."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import run_cli

KERNEL = "__global__ void k(float *p, const float *q) {\n" \
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  p[3 * i] = q[3 * i];\n}\n"
HOST = "int twice(int x) { return 2 * x; }\n"
BROKEN = "__global__ void k2(int *p) { p[threadIdx.x] = undefined_name; }\n"


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    for name, text in (("a.cu", KERNEL), ("host.cu", HOST), ("bad.cu", BROKEN)):
        (tmp_path / name).write_text(text)
    return tmp_path


def stderr_lines(proc) -> list[str]:
    assert "Traceback" not in proc.stderr, proc.stderr
    return [ln for ln in proc.stderr.splitlines() if ln.startswith("coalda: ")]


def test_a_host_only_file_is_a_note_and_the_others_are_reported(project: Path) -> None:
    proc = run_cli("analyze", "a.cu", "host.cu", "--format", "json", "-q", cwd=project)
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)["reports"]  # host.cu has none
    assert report["source"] == "a.cu" and [k["name"] for k in report["kernels"]] == ["k"]
    assert any(a["class"] == "uncoalesced" for a in report["kernels"][0]["accesses"])
    assert stderr_lines(proc) == ["coalda: note: host.cu defines no CUDA kernel (__global__ function): "
                                  "nothing to analyze"]


def test_a_file_that_does_not_compile_is_an_error_with_the_compilers_words(project: Path) -> None:
    proc = run_cli("analyze", "host.cu", "a.cu", "bad.cu", "--format", "text", "-q", cwd=project)
    assert proc.returncode == 1
    assert "a.cu:3:" in proc.stdout and "warning:" in proc.stdout  # a.cu's finding, still printed
    lines = stderr_lines(proc)
    assert lines[0].startswith("coalda: note: host.cu defines no CUDA kernel")
    assert lines[1].startswith("coalda: error: clang could not compile bad.cu") and len(lines) == 2
    assert "use of undeclared identifier 'undefined_name'" in proc.stderr


def test_the_gate_counts_the_files_that_were_analyzed(project: Path) -> None:
    proc = run_cli("analyze", "a.cu", "host.cu", "-q", "--format", "text", "--fail-on", "uncoalesced", cwd=project)
    assert proc.returncode == 3, proc.stderr
    assert stderr_lines(proc)[-1].startswith("coalda: error: ") and "uncoalesced accesses found" in proc.stderr


def test_no_file_analyzed_is_one_error_at_the_end(project: Path) -> None:
    proc = run_cli("analyze", "host.cu", "bad.cu", "-q", cwd=project)
    assert proc.returncode == 1 and not proc.stdout.strip()
    assert stderr_lines(proc)[-1] == "coalda: error: none of the 2 files could be analyzed"


def test_a_file_named_twice_is_reported_once(project: Path) -> None:
    """issue 36, item 10: `analyze a.cu a.cu` reported everything twice."""
    once = run_cli("analyze", "a.cu", "--format", "text", "-q", cwd=project)
    twice = run_cli("analyze", "a.cu", "./a.cu", "--format", "text", "-q", cwd=project)
    assert once.returncode == twice.returncode == 0, twice.stderr
    assert twice.stdout == once.stdout and once.stdout.count("warning:") >= 1


def test_max_without_fail_on_is_refused(project: Path) -> None:
    """issue 36, item 10: --max without --fail-on was silently ignored."""
    proc = run_cli("analyze", "a.cu", "--max", "3", cwd=project)
    assert proc.returncode == 2 and not proc.stdout
    assert stderr_lines(proc) == [line for line in proc.stderr.splitlines() if line.strip()]
    assert "--max counts what --fail-on gates" in proc.stderr


def test_a_failed_compile_leaves_no_directory_behind(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """issue 36, item 10: a failed compile left an empty coalda-failed-*
    directory in the temporary directory."""
    tmp = tmp_path_factory.mktemp("tmpdir")
    proc = run_cli("analyze", "bad.cu", cwd=project, env={**os.environ, "TMPDIR": str(tmp)})
    assert proc.returncode == 1 and "clang could not compile bad.cu" in proc.stderr
    assert list(tmp.iterdir()) == []
