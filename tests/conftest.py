"""Shared fixtures: the repo paths, a CLI runner, and the adversarial
corpora's optimize-and-emulate at both -O levels side by side."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import cli_server

from coalda.check.run_command import Compiled
from coalda.driver.pipeline import Artifacts

REPO = Path(__file__).resolve().parent.parent
TESTCASES = REPO / "testcases"


# `make pytest` runs `--dist loadgroup`: the tests of one corpus file of
# tests/test_adversarial.py go to one pytest-xdist worker, since that file's
# build and JIT-compiled executors are cached per process (split over two
# workers, a file was built and compiled twice); so do the tests of a file
# with a module- or session-scoped fixture (its optimize-and-emulate runs,
# the README walkthrough's builds: split, each worker ran the fixture, 150
# CPU s of duplicates in all on 2026-11-28); every other test is scheduled
# alone, as `--dist load` does. (pytest-xdist's own xdist_group marks do not
# group under pytest 9: they rename item._nodeid, which pytest 9 no longer
# reads.)
ADVERSARIAL = "tests/test_adversarial.py::"
SHARED_FIXTURE = re.compile(r"""scope=["'](module|session)["']""")


@functools.cache
def shares_fixtures(path: str) -> bool:
    """Whether the test file PATH (relative to the repository) defines a
    module- or session-scoped fixture."""
    file = REPO / path
    return file.is_file() and SHARED_FIXTURE.search(file.read_text()) is not None


def worker_group(nodeid: str) -> str | None:
    """The group of a test id: its corpus file's stem for
    tests/test_adversarial.py's tests (their ids start with it:
    `[staging-rmw_basic-O3]`, `[staging]`, `[staging-0]`), its file for a
    file with shared fixtures, else None."""
    if nodeid.startswith(ADVERSARIAL):
        if "[" not in nodeid:
            return None
        return "adversarial:" + nodeid.split("[", 1)[1].split("-", 1)[0].rstrip("]")
    path = nodeid.split("::", 1)[0]
    return f"file:{path}" if shares_fixtures(path) else None


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class CorpusFileScheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid) or super()._split_scope(nodeid)

    return CorpusFileScheduling(config, log)


def pytest_configure(config: pytest.Config) -> None:
    """One IR cache (coalda/driver/ir_cache.py) and one directory of the
    wrapper headers' PCHs (coalda/driver/pch.py) for the whole run, fresh
    and shared by the workers: each run starts as a clean clone's would,
    leaves nothing in the user's cache, and compiles a source the tests
    build more than once (about half of clang's runs) once. Set up by the
    controller before it starts the workers, which inherit them; a
    COALDA_IR_CACHE or COALDA_PCH of the caller's own is kept."""
    if hasattr(config, "workerinput"):
        return
    for variable, prefix in (("COALDA_IR_CACHE", "coalda-test-ir-cache-"), ("COALDA_PCH", "coalda-test-pch-")):
        if os.environ.get(variable):
            continue
        directory = tempfile.mkdtemp(prefix=prefix)
        os.environ[variable] = directory
        config.add_cleanup(lambda directory=directory: shutil.rmtree(directory, ignore_errors=True))


# COALDA_TEST_REAL_PROCESSES=1: run_cli starts every `coalda` as a fresh
# interpreter again, as before the fork server (to debug, or to compare).
REAL_PROCESSES = os.environ.get("COALDA_TEST_REAL_PROCESSES") == "1"


def run_cli(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
            fresh: bool = False) -> subprocess.CompletedProcess[str]:
    """Run `coalda` as a user would: a separate process, real exit code and
    streams. The process is forked from this worker's CLI server
    (tests/cli_server.py), which has imported the CLI once, and set up as
    `python -m coalda.cli` starts; where it cannot be (see run_module), and
    with FRESH (a test of what the interpreter's teardown does at exit,
    which a served process skips), it is a fresh interpreter."""
    words = [*map(str, args)]
    served = None if REAL_PROCESSES or fresh else cli_server.run_module("coalda.cli", words, cwd=cwd, env=env)
    if served is not None:
        return served
    return subprocess.run([sys.executable, "-m", "coalda.cli", *words], capture_output=True, text=True,
                          cwd=cwd, env=env)


def pytest_unconfigure(config: pytest.Config) -> None:
    cli_server.shutdown()  # reaped by the worker: its children's CPU time counts in the session's


def run_in_process(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """`coalda ARGS` inside this process, for tests of what the pass and the
    oracle decide rather than of the CLI (those use run_cli): the exit code
    and both streams as run_cli gives them (neither is a terminal), without
    a new interpreter's imports (0.3 s) and with the JIT-compiled modules of
    earlier runs (emulate.load's cache: a planted module's original is
    compiled once). Not thread-safe: it swaps sys.stdout, sys.stderr and
    sys.argv."""
    from coalda import cli

    assert threading.current_thread() is threading.main_thread(), "run_in_process swaps sys.stdout: main thread only"
    out, err = io.StringIO(), io.StringIO()
    argv = ["coalda", *map(str, args)]
    saved = sys.argv
    code: object = 0
    try:
        sys.argv = argv
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main()
    except SystemExit as exit_:
        code = exit_.code
    finally:
        sys.argv = saved
    returncode = code if isinstance(code, int) else 0 if code is None else 1
    return subprocess.CompletedProcess(argv, returncode, out.getvalue(), err.getvalue())


def optimize_levels(source: Path, root: Path, levels: Sequence[int],
                    *args: str, ptx: bool = False) -> dict[int, tuple[Path, dict]]:
    """`coalda optimize SOURCE -O level ARGS...` for each level (run_in_process):
    level -> (its output directory, its report). With --no-ptx unless PTX
    (llc's, and ptxas's register check) is asked for: the emulator reads
    the IR."""
    def one(level: int) -> tuple[Path, dict]:
        out = root / f"O{level}"
        proc = run_in_process("optimize", "-q", source, "-O", str(level), "-o", out, *args, *([] if ptx else ["--no-ptx"]))
        assert proc.returncode == 0, proc.stderr
        return out, json.loads((out / f"{source.stem}.report.json").read_text())

    return {level: one(level) for level in levels}


# The adversarial corpora compare bytes at -O3 under all four schedules in
# `make test`, and pin -O0's decisions; COALDA_ADVERSARIAL_O0=full (`make
# test-o0`) compares -O0's bytes too, under every schedule. The emitters are
# the same at both levels, and what -O0 adds is the analysis of unoptimized
# IR, whose decisions `make test` pins (-O0's comparisons left `make test`
# on 2026-12-04 for CI time: docs/test-speed.md).
O0_FULL = os.environ.get("COALDA_ADVERSARIAL_O0") == "full"
# The random families' -O0 runs: under the forward and reverse schedules (a
# missing barrier shows in one of the two directions); all four when full.
O0_SCHEDULES = () if O0_FULL else ("--schedules", "forward,reverse")


def compared(levels: Sequence[int]) -> tuple[int, ...]:
    """The levels of LEVELS whose bytes this run compares: -O0 only under
    COALDA_ADVERSARIAL_O0=full."""
    return tuple(level for level in levels if level or O0_FULL)


def emulate_levels(source: Path, optimized: dict[int, tuple[Path, dict]],
                   *args: str) -> dict[int, subprocess.CompletedProcess[str]]:
    """`coalda run SOURCE --emulate -q -O level ARGS... --from OUT` for each
    level of OPTIMIZED that this run compares (compared; run_in_process)."""
    return {level: run_in_process("run", source, "--emulate", "-q", "-O", str(level), *args, "--from", out)
            for level, (out, _) in optimized.items() if level in compared(optimized)}


def assert_all_match(run: subprocess.CompletedProcess[str]) -> None:
    """`coalda run` exited 0 and says every comparison matched."""
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert re.search(r"All \d+ comparisons match byte for byte\.", run.stdout), run.stdout[-2000:]


def plant(out: Path, tmp_path: Path, edit: Callable[[str], str], what: str = "") -> Path:
    """A copy of the `coalda optimize` OUTDIR OUT whose after.ll is EDIT of
    it (a bug planted by hand), in TMP_PATH/planted; the edit must change
    the text (WHAT names it when it does not)."""
    bad = tmp_path / "planted"
    shutil.copytree(out, bad)
    (after,) = bad.glob("*.after.ll")
    text = after.read_text()
    new = edit(text)
    assert new != text, what or "the planted edit matched nothing"
    after.write_text(new)
    return bad


def global_kernels(source: Path) -> set[str]:
    """The `__global__ void NAME(` kernels SOURCE defines at a line's start."""
    return set(re.findall(r"^__global__ void (\w+)\(", source.read_text(), re.M))


def assert_partition(names: set[str], parts: Sequence[set[str]], level: int) -> None:
    """PARTS (the pinned outcomes at -O LEVEL) are disjoint and cover NAMES."""
    assert sum(map(len, parts)) == len(set().union(*parts)), f"-O{level}: a kernel pinned twice"
    assert set().union(*parts) == names, f"-O{level}: unpinned {sorted(names - set().union(*parts))}"


def optimize_outputs(out: Path, stem: str) -> Compiled:
    """What `coalda optimize STEM.cu -o OUT --no-ptx` wrote, as the checks
    read it: the IR before and after, and the report."""
    art = Artifacts(out, stem)
    return Compiled(art.before.read_text(), art.after.read_text(), "", "", json.loads(art.report.read_text()))


def function_text(module: str, symbol: str) -> str:
    """The definition of SYMBOL in MODULE (its IR), from `define` to its
    last instruction."""
    start = module.rindex("\ndefine", 0, module.index(f"@{symbol}("))
    return module[start:module.index("\n}\n", start)]


def in_function(text: str, symbol: str, edit: Callable[[str], str]) -> str:
    """TEXT (a module's IR) with EDIT applied to the body of the first
    function defined with a name that starts with SYMBOL, alone."""
    start = text.rindex("\ndefine", 0, text.index(f"@{symbol}"))
    end = text.index("\n}\n", start)
    return text[:start] + edit(text[start:end]) + text[end:]


def plant_lane_bug(out: Path, tmp_path: Path) -> Path:
    """OUT with a lane bug planted in the warp tiles' path: the row's lane is
    tid & 15, so lanes 16-31 move lanes 0-15's units again and theirs stay
    unmoved."""
    return plant(out, tmp_path, lambda text: text.replace("%coalda.lane = and i64 %coalda.tid, 31",
                                                          "%coalda.lane = and i64 %coalda.tid, 15"))


# A row of `coalda run`'s table: kernel, n, layout, schedule, what ran, result.
ROW = re.compile(r"│ (\w+)\s+│\s+(\d+) │ ([\w-]+)\s+│ ([\w ]+?)\s+│ (\w+)\s+│ ([^│]+?)\s+│")


def differing_kernels(run: subprocess.CompletedProcess[str]) -> set[str]:
    """The kernels of a `coalda run` table with a row that differs (mismatch,
    race or fault)."""
    return {m[1] for m in re.finditer(r"│ ([\w<>]+)\s+│[^\n]*(?:MISMATCH|RACE|FAULT)", run.stdout)}


def staging_reasons(report: dict) -> dict[str, str]:
    """Kernel -> the reasons of all its staging candidates, joined by ' / '."""
    return {k["name"]: " / ".join(s["reason"] for s in k.get("stagings", [])) for k in report["kernels"]}


@pytest.fixture
def rgb() -> Path:
    return TESTCASES / "rgb.cu"


def rewrite_kinds(report: dict) -> dict[str, str | None]:
    """What each kernel of a report became: "block" / "warp" (an element
    staged through block or warp tiles), "window" (a chunk window),
    "transposed", "copy" (the region copy of a copy group), or None (left
    alone); at most one each."""
    out: dict[str, str | None] = {}
    for k in report["kernels"]:
        got = [("window" if s["kind"] == "window" else "transposed" if s["kind"] == "transposed" else s["tile"])
               for s in k.get("stagings", []) if s["transformed"]]
        if any(g["transformed"] for g in k.get("groups", [])):
            got.append("copy")
        assert len(got) <= 1, f"{k['name']}: several rewrites {got}"
        out[k["name"]] = got[0] if got else None
    return out
