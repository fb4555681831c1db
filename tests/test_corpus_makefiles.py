"""Corpus programs built by their own HeCBench Makefiles with CC=coalda-cc
(issue 36's acceptance): the Makefiles pass nvcc's flags (`-Xcompiler -Wall`,
`-arch=sm_XX`, `--use_fast_math`), which coalda cc translates. `make test`
builds two of them; `make corpus-makefiles` (COALDA_CORPUS_MAKE=all) six."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from coalda.driver import registers
from coalda.driver.cc import embedded_images
from coalda.driver.toolchain import find_ptxas
from conftest import REPO

ALL = ["matrixT", "softmax", "s8n", "md", "scan2", "nbody"]
# softmax: plain nvcc flags and --use_fast_math (matrixT's own build is in
# test_corpus_driver.py; `make corpus-makefiles` builds all six)
SAMPLE = ["softmax"]
PROGRAMS = ALL if os.environ.get("COALDA_CORPUS_MAKE") == "all" else SAMPLE


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_programs_own_makefile_builds_with_coalda_cc(name: str, tmp_path: Path) -> None:
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    work = tmp_path / f"{name}-cuda"
    shutil.copytree(REPO / "corpus" / "hecbench" / f"{name}-cuda", work)
    env = {**os.environ, "PATH": f"{REPO / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["make", "CC=coalda-cc", "ARCH=sm_90", "EXTRA_CFLAGS=-Wcoalda"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "coalda-cc " in proc.stdout and "-Xcompiler -Wall" in proc.stdout  # nvcc's spelling went in
    assert "warning: argument unused" not in proc.stderr  # and came out as clang's, used
    assert (work / "main").is_file() and os.access(work / "main", os.X_OK)
    if name == "softmax":
        softmax_keeps_the_register_budget(work / "main", proc.stderr)


def softmax_keeps_the_register_budget(program: Path, stderr: str) -> None:
    """softMax takes 28 registers before the pass and 80 after it (72 before
    its stores took a store window): coalda cc
    gives it `.maxnreg 64`, says so under -Wcoalda, and the PTX the program
    carries assembles within 64 (tests/test_register_budget.py;
    coalda/driver/registers.py)."""
    assert re.search(r"kernel _Z7softMax\w*: limited to 64 registers \(\.maxnreg\): it took [78]\d after", stderr), \
        stderr[-3000:]
    [ptx] = [img.data for img in embedded_images(program) if img.kind == "ptx"]
    assert re.search(rb"\.entry _Z7softMax\w*\([^)]*\)\s*\.maxnreg 64\s*\{", ptx)
    # its twin without the limit, which its stub launches where the block
    # fits (the bounded form of pass/runtime/LaunchGrid.cpp)
    assert re.search(rb"\.entry _Z7softMax\w*__coalda_grid\([^)]*\)\s*\{", ptx)
    assert "its stub launches it without the limit where the launch's block allows" in stderr
    # (the runtime, linked in and internal, may be inlined into the stub:
    # its calls into the CUDA runtime show it)
    nm = subprocess.run(["nm", str(program)], capture_output=True, text=True).stdout
    assert re.search(r" U cudaOccupancyMaxActiveBlocksPerMultiprocessor\b", nm), "no launch through the runtime"
    text = program.parent / "embedded.ptx"
    text.write_bytes(ptx.rstrip(b"\0"))
    usage = registers.assemble(find_ptxas(), text, "sm_90", "/dev/null")
    assert [u.registers <= 64 for k, u in usage.items() if k.startswith("_Z7softMax") and "__coalda" not in k] == [True]
    assert [u.registers > 64 for k, u in usage.items() if k.endswith("__coalda_grid")] == [True]
