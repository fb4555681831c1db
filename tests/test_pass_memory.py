"""The pass under valgrind's memcheck: no read of freed or uninitialized
memory on the lit inputs that delete what they rewrite while still holding
AccessExprs to it. Two such reads were found this way (2026-11-26), both
invisible to every other test because the freed memory usually still held
the old bytes:

- `eraseMembers` read the address of a struct assignment's memcpy after
  erasing it (a transfer is both a store and a load of its group);
- the chunk window's refill read the alignment of sites already replaced
  by earlier sites (the emitted alignment could change from run to run).

The inputs: every lit input (131), as `make memcheck` runs them; in one
process they cost hardly more than the 15 that erase several accesses of
one group or array did, each in its own.
Skipped where valgrind is not installed (scripts/setup.sh installs it).

All the inputs run in one valgrind process, through `coalda-opt-many`
(pass/tools/OptMany.cpp, built next to the plugin), which does for each
what `opt-19 -load-pass-plugin=... -passes=coalda -disable-output` does:
opt's start under valgrind (2.7 s of its 3.9 s a lit input) is paid once,
not once an input. The tool frames each input on stderr (`coalda-opt-many:
begin X` ... `coalda-opt-many: end X ok valgrind-errors=N`); each input is
judged on its own frame, in a subtest named by the input: valgrind printed
something there or counted errors there (it prints an error only at the
first input whose run had its stack, so a later input repeating it shows
only in the count), the tool failed on it, or the tool died in it or before
it (a crash or the timeout; valgrind's report of the signal is in the
frame it died in).
Subtests, not parametrized tests, because pytest-xdist spreads parametrized
tests over its workers, and each worker would run the whole batch.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from coalda.driver.toolchain import toolchain

LIT = Path(__file__).resolve().parent.parent / "pass" / "test"
INPUTS = sorted(LIT.glob("*/*.ll"))
VALGRIND = shutil.which("valgrind")
TIMEOUT_S = 1200
BEGIN = "coalda-opt-many: begin "
END = re.compile(r"^coalda-opt-many: end (?P<input>.*) (?P<status>ok|failed)(?: valgrind-errors=(?P<errors>\d+))?$")
VALGRIND_LINE = re.compile(r"^==\d+==")


@dataclass
class Frame:
    """What one input printed between its begin and end lines; `status` is
    the end line's "ok" or "failed", None where the tool never got there;
    `errors` valgrind's count of errors during it (None where the tool was
    built without <valgrind/valgrind.h>)."""

    lines: list[str] = field(default_factory=list)
    status: str | None = None
    errors: int | None = None


@dataclass
class Batch:
    returncode: int | None  # None: killed at the timeout
    frames: dict[str, Frame]  # by input, as given to the tool
    outside: list[str]  # lines before the first begin, between an end and the next begin, after the last end
    order: list[str]  # the inputs in the order they began

    def died_in(self) -> str | None:
        """The input the tool was in when it stopped, if it stopped in one."""
        last = self.order[-1] if self.order else None
        return last if last is not None and self.frames[last].status is None else None


def parse(stderr: str, returncode: int | None) -> Batch:
    frames: dict[str, Frame] = {}
    outside: list[str] = []
    order: list[str] = []
    current: Frame | None = None
    for line in stderr.splitlines():
        if line.startswith(BEGIN):
            name = line.removeprefix(BEGIN)
            current = frames[name] = Frame()
            order.append(name)
        elif current is not None and (end := END.match(line)):
            current.status = end["status"]
            current.errors = int(end["errors"]) if end["errors"] else None
            current = None
        elif current is not None:
            current.lines.append(line)
        else:
            outside.append(line)
    return Batch(returncode, frames, outside, order)


def run_batch(tool: Path, plugin: Path, inputs: list[Path]) -> Batch:
    # with reshaped launches' variants made of every rewritten kernel
    # (GridVariant.cpp clones and rewires what the other rewrites emitted),
    # the loops over blocks too, which the cost rule refuses by default
    cmd = [VALGRIND, "--error-exitcode=9", "-q", str(tool), f"-load-pass-plugin={plugin}", "-passes=coalda",
           "-coalda-reshape-launches", "-coalda-reshape-block-loops", *map(str, inputs)]
    try:
        run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as timeout:
        partial = timeout.stderr or b""
        return parse(partial.decode(errors="replace") if isinstance(partial, bytes) else partial, None)
    return parse(run.stderr, run.returncode)


def exit_status(batch: Batch) -> str:
    if batch.returncode is None:
        return f"killed at the {TIMEOUT_S}-s timeout"
    if batch.returncode < 0:
        return f"killed by signal {-batch.returncode}"
    return f"exit status {batch.returncode}"


def clip(text: str, head: int = 3000, tail: int = 1500) -> str:
    return text if len(text) <= head + tail else f"{text[:head]}\n[...]\n{text[-tail:]}"


def shown(name: str) -> str:
    path = Path(name)
    return str(path.relative_to(LIT)) if path.is_relative_to(LIT) else name


def problem(batch: Batch, ll: Path) -> str | None:
    """Why the batch's run of `ll` fails, or None."""
    frame = batch.frames.get(str(ll))
    if frame is None:
        died_in = batch.died_in()
        if died_in:
            return f"not run: coalda-opt-many died in {shown(died_in)} ({exit_status(batch)})"
        return f"not run: coalda-opt-many stopped before it ({exit_status(batch)}):\n" + clip("\n".join(batch.outside))
    text = "\n".join(frame.lines)
    if frame.status is None:
        return f"coalda-opt-many died in this input ({exit_status(batch)}):\n{clip(text)}"
    if frame.status != "ok":
        return f"coalda-opt-many failed on this input:\n{clip(text)}"
    if any(VALGRIND_LINE.match(line) for line in frame.lines):
        counted = "" if frame.errors is None else f" ({frame.errors} error{'s' * (frame.errors != 1)} counted)"
        return f"valgrind{counted}:\n{clip(text)}"
    if frame.errors:
        first = next((shown(name) for name in batch.order if batch.frames[name].errors), "?")
        return (f"valgrind counted {frame.errors} errors in this input and printed none: it prints an error once, "
                f"at the first input whose run had its stack (the first input with errors: {first})")
    return None


def test_the_inputs_are_there() -> None:
    assert len(INPUTS) >= 130, INPUTS


@pytest.mark.skipif(VALGRIND is None, reason="valgrind is not installed")
def test_the_pass_reads_no_freed_memory(subtests: pytest.Subtests) -> None:
    tools = toolchain()
    tool = tools.plugin.parent / "coalda-opt-many"
    assert tool.is_file(), f"{tool} is missing: build it with `make build` (pass/CMakeLists.txt)"
    batch = run_batch(tool, tools.plugin, INPUTS)
    failed = 0
    for ll in INPUTS:
        with subtests.test(msg=str(ll.relative_to(LIT))):
            why = problem(batch, ll)
            if why is not None:
                failed += 1
                pytest.fail(why, pytrace=False)
    # what no input accounts for: valgrind's reports outside every frame
    # (start, plugin loading, exit), or a failing exit with every input clean
    stray = [line for line in batch.outside if VALGRIND_LINE.match(line)]
    assert not stray, "valgrind, outside every input:\n" + "\n".join(stray)[-4000:]
    assert failed or batch.returncode == 0, f"{exit_status(batch)}, every input clean:\n" + "\n".join(batch.outside)[-4000:]
