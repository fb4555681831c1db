"""Shared fixtures: the repo paths and a CLI runner."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTCASES = REPO / "testcases"


def run_cli(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run `coalda` as a user would: a separate process, real exit code and streams."""
    return subprocess.run(
        [sys.executable, "-m", "coalda.cli", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, env=env,
    )


@pytest.fixture
def rgb() -> Path:
    return TESTCASES / "rgb.cu"
