"""tests/cli_server.py, the fork server behind conftest.run_cli: what it
serves is what a fresh `python -m MODULE` gives (exit status, stdout,
stderr, byte for byte), it falls back to a real process where it cannot
be, survives its own death, and leaves no zombie or descriptor behind.
The real entry points (`python -m coalda.cli` and the `coalda` console
script) are run here as real processes too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import cli_server
from conftest import TESTCASES, run_cli

# A module run with `python -m probe WHAT`: what a process sees of its
# start-up, then one way to end.
PROBE = r'''
import atexit, os, signal, sys, threading, time
print("argv", sys.argv, "orig", sys.orig_argv[1:])
print("cwd", os.getcwd(), "path0", sys.path[0], "PROBE", os.environ.get("PROBE"), "env", len(os.environ))
print("fds", sorted(os.listdir("/proc/self/fd")), "stdin", os.readlink("/proc/self/fd/0"))
print("main", sorted(vars(sys.modules["__main__"])), __name__, __package__, __spec__.name)
print("stdio", sys.stdout.line_buffering, sys.stderr.line_buffering, sys.stdout.encoding, sys.stdout.errors,
      sys.stderr.errors, sys.stdout.seekable(), sys.stdout.isatty())
print("signals", signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGPIPE), "umask", oct(os.umask(0)))
what = sys.argv[1]
sys.stderr.write("to stderr\n")
if what == "raise":
    raise ValueError("bad input")
if what == "chained":
    try:
        {}["missing"]
    except KeyError as exc:
        raise RuntimeError("while looking") from exc
if what == "exit-none":
    sys.exit()
if what == "exit-str":
    sys.exit("a message")
if what == "exit-big":
    sys.exit(300)
if what == "exit-negative":
    sys.exit(-1)
if what == "sigterm":
    os.kill(os.getpid(), signal.SIGTERM)
if what == "interrupt":
    raise KeyboardInterrupt
if what == "thread":
    threading.Thread(target=lambda: (time.sleep(0.2), print("thread done"))).start()
if what == "atexit":
    atexit.register(print, "at exit")
if what == "unflushed":
    sys.stdout.write("no newline, not flushed")
if what == "sleep":
    time.sleep(60)
'''

ENDINGS = ["plain", "raise", "chained", "exit-none", "exit-str", "exit-big", "exit-negative", "sigterm", "interrupt",
           "thread", "atexit", "unflushed"]


@pytest.fixture(scope="module")
def server() -> Iterator[cli_server.CliServer]:
    """A server of this module's own (the worker's run_cli one is left alone)."""
    served = cli_server.CliServer()
    yield served
    served.close()


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    (tmp_path / "probe.py").write_text(PROBE)
    return tmp_path


def real(module: str, args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, bytes, bytes]:
    proc = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, cwd=cwd, env=env)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("ending", ENDINGS)
def test_a_child_is_what_a_fresh_interpreter_is(server: cli_server.CliServer, probe: Path, ending: str) -> None:
    env = dict(os.environ, PROBE=f"probe {ending}")
    expected = real("probe", [ending], probe, env)
    assert server.run("probe", [ending], str(probe), env) == expected
    assert (b"Traceback" in expected[2]) == (ending in ("raise", "chained", "interrupt"))


EXIT_STATUSES = {"plain": 0, "raise": 1, "exit-none": 0, "exit-str": 1, "exit-big": 300 & 0xFF, "exit-negative": 255,
                 "sigterm": -signal.SIGTERM, "interrupt": -signal.SIGINT}


def test_exit_statuses_are_the_interpreters(server: cli_server.CliServer, probe: Path) -> None:
    codes = {ending: server.run("probe", [ending], str(probe), dict(os.environ))[0] for ending in EXIT_STATUSES}
    assert codes == EXIT_STATUSES


def test_the_cli_reads_its_environment_in_the_child(server: cli_server.CliServer, tmp_path: Path) -> None:
    """coalda/cli.py's rich Consoles are made when the module runs: in the
    child, with the request's FORCE_COLOR (colours on a pipe) and COLUMNS,
    not the server's."""
    for extra in ({"FORCE_COLOR": "1"}, {"COLUMNS": "40", "TERM": "dumb"}):
        env = {**os.environ, **extra}
        for args in (["analyze", "--bogus"], ["--help"]):
            expected = real("coalda.cli", args, tmp_path, env)
            assert server.run("coalda.cli", args, str(tmp_path), env) == expected, (extra, args)
    colored = server.run("coalda.cli", ["analyze", "--bogus"], str(tmp_path), {**os.environ, "FORCE_COLOR": "1"})
    assert b"\x1b[" in colored[2]


def test_run_cli_passes_the_tests_environment_and_cwd(probe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """env=None is the worker's environment at the call (tests monkeypatch
    os.environ), cwd=None its cwd at the call."""
    monkeypatch.setenv("PROBE", "set by the test")
    monkeypatch.chdir(probe)
    served = cli_server.run_module("probe", ["plain"])
    assert served is not None
    assert f"cwd {probe} path0 {probe} PROBE set by the test" in served.stdout
    fresh = subprocess.run([sys.executable, "-m", "probe", "plain"], capture_output=True, text=True)
    assert (served.args, served.returncode, served.stdout, served.stderr) == (
        fresh.args, fresh.returncode, fresh.stdout, fresh.stderr)


def test_what_the_fork_cannot_set_up_runs_as_a_real_process(probe: Path, tmp_path: Path) -> None:
    env = dict(os.environ)
    assert cli_server.run_module("probe", ["plain"], cwd=probe, env=env) is not None
    # start-up variables: the hash seed, the locale, the path
    for name, value in (("PYTHONHASHSEED", "7"), ("LC_ALL", "C"), ("PYTHONPATH", str(tmp_path))):
        assert cli_server.run_module("probe", ["plain"], cwd=probe, env={**env, name: value}) is None, name
    # a module of the cwd would be imported instead of the server's
    (probe / "click.py").write_text("")
    assert cli_server.run_module("probe", ["plain"], cwd=probe, env=env) is None
    # subprocess.run would raise: run_cli's real process does
    assert cli_server.run_module("probe", ["plain"], cwd=tmp_path / "missing", env=env) is None
    with pytest.raises(FileNotFoundError):
        run_cli("--version", cwd=tmp_path / "missing")
    assert run_cli("--version", env={**env, "PYTHONHASHSEED": "7"}).stdout.startswith("coalda, version")


def test_run_cli_starts_another_server_when_its_server_died(probe: Path) -> None:
    assert cli_server.run_module("probe", ["plain"], cwd=probe) is not None
    first = cli_server._server
    assert first is not None
    first.proc.kill()
    first.proc.wait()
    served = cli_server.run_module("probe", ["exit-str"], cwd=probe)
    assert served is not None and served.returncode == 1 and served.stderr.endswith("a message\n")
    assert cli_server._server is not None and cli_server._server is not first


def _children(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def test_no_zombie_or_descriptor_is_left(server: cli_server.CliServer, probe: Path) -> None:
    fds = sorted(os.listdir(f"/proc/{server.pid}/fd"))
    for ending in ENDINGS:
        server.run("probe", [ending], str(probe), dict(os.environ))
    assert _children(server.pid) == []
    assert sorted(os.listdir(f"/proc/{server.pid}/fd")) == fds


def test_a_timeout_kills_the_child_and_the_server_serves_on(server: cli_server.CliServer, probe: Path) -> None:
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as timeout:
        server.run("probe", ["sleep"], str(probe), dict(os.environ), timeout=1)
    assert time.monotonic() - started < 30
    assert b"to stderr" in timeout.value.stderr
    assert _children(server.pid) == []
    assert server.run("probe", ["exit-big"], str(probe), dict(os.environ))[0] == 300 & 0xFF


def test_the_server_ends_with_its_socket_and_kills_its_child(probe: Path) -> None:
    own = cli_server.CliServer()
    cli_server._send(own.sock, {"module": "probe", "args": ["sleep"], "cwd": str(probe), "env": dict(os.environ),
                                "umask": 0o022})
    started = cli_server._receive(own.sock)
    assert started is not None
    assert own.close() == "exit status 0"
    with pytest.raises(ProcessLookupError):  # killed and reaped by the server before it exited
        os.kill(started["pid"], 0)


# --- the real entry points, as real processes -------------------------------------------------------

def test_python_m_coalda_cli_as_a_real_process(tmp_path: Path) -> None:
    """`python -m coalda.cli`, started for real, and run_cli's served
    process say the same."""
    for args, code in ((["--help"], 0), (["analyze", "--bogus"], 2)):
        fresh = subprocess.run([sys.executable, "-m", "coalda.cli", *args], capture_output=True, text=True,
                               cwd=tmp_path)
        assert fresh.returncode == code
        served = run_cli(*args, cwd=tmp_path)
        assert (served.returncode, served.stdout, served.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert fresh.stderr == "coalda: error: No such option '--bogus'. (see `python -m coalda.cli analyze --help`)\n"


def test_the_coalda_console_script_as_a_real_process(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "coalda"
    if not script.is_file():
        pytest.skip(f"{script} is not installed (pip install -e .)")
    help_ = subprocess.run([script, "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert help_.returncode == 0 and help_.stdout.startswith("Usage: coalda ")
    bad = subprocess.run([script, "analyze", TESTCASES / "rgb.cu", "--format", "yaml"], capture_output=True, text=True,
                         cwd=tmp_path)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.startswith("coalda: error: Invalid value for '--format'") and bad.stderr.count("\n") == 1
    assert "Traceback" not in bad.stderr
