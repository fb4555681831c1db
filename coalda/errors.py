"""Errors that the CLI reports as one line on stderr (no traceback)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence


class CoaldaError(Exception):
    """A failure the user can act on; str() is the one-line message."""


class DeviceLost(CoaldaError):
    """A failure that leaves the GPU's context unusable (a kernel's fault):
    the CLI prints its line and then nothing more, not the CUDA library's
    warnings as the exiting process frees what it held on the device."""


class NoKernel(CoaldaError):
    """A source that defines no __global__ function: nothing to analyze. Among
    several files (a project's host-only .cu files) a note, not an error."""


class ToolNotFound(CoaldaError):
    """A required external tool is missing."""

    def __init__(self, tool: str, looked: Sequence[str], install: str) -> None:
        where = ", ".join(looked) if looked else "nowhere"
        super().__init__(f"{tool} not found (looked in: {where}); {install}")
        self.tool = tool


class ToolFailed(CoaldaError):
    """An external tool exited non-zero; carries its stderr and the command."""

    def __init__(self, what: str, cmd: Sequence[str], returncode: int, stderr: str) -> None:
        self.cmd = list(cmd)
        self.stderr = stderr
        self.returncode = returncode
        super().__init__(
            f"{what} (exit {returncode}); reproduce with: {shlex.join(self.cmd)}"
        )
