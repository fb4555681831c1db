"""Ctrl-C ends `coalda` and `coalda-cc` with one line on stderr and exit
status 130, no traceback and no temporary directory left (issue 36, item
10): while the CLI's modules are imported, and while a tool (clang) runs.

The commands run as their console scripts do: the entry point pyproject.toml
declares, imported and called in a fresh interpreter."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from conftest import REPO, TESTCASES

SCRIPTS = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
# The console script's wrapper (what pip writes into bin/), with an import
# hook that sends this process SIGINT when the CLI first imports MODULE.
WRAPPER = """
import importlib, os, signal, sys
interrupt_on, (module, _, function) = sys.argv[1], sys.argv[2].partition(":")
class InterruptOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == interrupt_on:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None
if interrupt_on:
    sys.meta_path.insert(0, InterruptOnImport())
sys.argv = [sys.argv[3], *sys.argv[4:]]
sys.exit(getattr(importlib.import_module(module), function)())
"""


def _default_sigint() -> None:
    """The child starts with SIGINT's default action, as under a terminal: a
    test runner started in the background (CI, `make test &`) ignores
    SIGINT, and its children would inherit that (which entry.py keeps)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _script(prog: str, args: list[str], interrupt_on_import: str = "") -> list[str]:
    return [sys.executable, "-c", WRAPPER, interrupt_on_import, SCRIPTS[prog], prog, *args]


def _assert_interrupted(proc: subprocess.CompletedProcess[str] | subprocess.Popen[str], prog: str,
                        stdout: str, stderr: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert stderr == f"{prog}: error: interrupted\n", stderr
    assert proc.returncode == 130, (proc.returncode, stderr)
    assert stdout == ""


@pytest.mark.parametrize("prog, args, module", [
    ("coalda", ["analyze", str(TESTCASES / "rgb.cu")], "rich.console"),
    ("coalda", ["analyze", str(TESTCASES / "rgb.cu")], "coalda.driver.pipeline"),
    ("coalda-cc", ["-c", str(TESTCASES / "rgb.cu"), "-o", "rgb.o"], "coalda.driver.toolchain"),
])
def test_ctrl_c_while_the_cli_is_imported(tmp_path: Path, prog: str, args: list[str], module: str) -> None:
    proc = subprocess.run(_script(prog, args, module), capture_output=True, text=True, cwd=tmp_path,
                          preexec_fn=_default_sigint)
    _assert_interrupted(proc, prog, proc.stdout, proc.stderr)
    assert not (tmp_path / "rgb.o").exists()


SLOW_CLANG = """#!/bin/sh
echo $$ > "$COALDA_TEST_STARTED.tmp" && mv "$COALDA_TEST_STARTED.tmp" "$COALDA_TEST_STARTED"
exec sleep 60
"""


@pytest.mark.parametrize("prog, args, group", [
    ("coalda", ["analyze", str(TESTCASES / "rgb.cu"), "--format", "text"], True),
    ("coalda", ["analyze", str(TESTCASES / "rgb.cu"), "--format", "text"], False),
    ("coalda", ["optimize", str(TESTCASES / "rgb.cu"), "-o", "out"], True),
    ("coalda-cc", ["-c", str(TESTCASES / "rgb.cu"), "-o", "rgb.o"], True),
], ids=["analyze-terminal", "analyze-kill", "optimize", "coalda-cc"])
def test_ctrl_c_while_clang_runs(tmp_path: Path, prog: str, args: list[str], group: bool) -> None:
    """SIGINT to the process group (a terminal's Ctrl-C: clang gets it too),
    or to coalda alone (`kill -INT`): clang is ended with it."""
    clang = tmp_path / "slow-clang"
    clang.write_text(SLOW_CLANG)
    clang.chmod(0o755)
    started, scratch, work = tmp_path / "started", tmp_path / "tmp", tmp_path / "work"
    scratch.mkdir()
    work.mkdir()
    env = dict(os.environ, COALDA_CLANG=str(clang), COALDA_TEST_STARTED=str(started), TMPDIR=str(scratch))
    proc = subprocess.Popen(_script(prog, args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=work, env=env, start_new_session=True, preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + 60
        while not started.exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.02)
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    _assert_interrupted(proc, prog, stdout, stderr)
    with pytest.raises(ProcessLookupError):  # clang was ended and reaped, not left running
        os.kill(int(started.read_text()), 0)
    assert list(scratch.iterdir()) == []  # coalda's temporary directories are gone
    assert list(work.iterdir()) == []  # no partial output: no out/, no rgb.o


def test_interrupt_while_the_cuda_tree_is_linked_leaves_no_staging(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first run links the CUDA wheels into the cache: a Ctrl-C half way
    leaves no half-made tree behind."""
    from coalda.driver import toolchain

    monkeypatch.setenv("COALDA_CACHE", str(tmp_path))
    monkeypatch.delenv("COALDA_CUDA_PATH", raising=False)
    monkeypatch.setattr(toolchain, "_stamp", lambda: "test-stamp")
    walked: list[str] = []

    def interrupted_walk(root: object) -> object:
        walked.append(str(root))
        raise KeyboardInterrupt

    monkeypatch.setattr(toolchain.os, "walk", interrupted_walk)
    toolchain.cuda_path.cache_clear()
    try:
        with pytest.raises(KeyboardInterrupt):
            toolchain.cuda_path()
    finally:
        toolchain.cuda_path.cache_clear()
    assert walked
    assert [p.name for p in tmp_path.iterdir()] == ["cuda-12.lock"]  # no tree, no staging: only the makers' lock
