"""A fork server for conftest.run_cli: `python -m coalda.cli ARGS` in a
process forked from one that has already imported what the CLI imports.

A fresh interpreter spends about 0.3 CPU-s starting and importing click,
rich, numpy, llvmlite and coalda before `coalda` does anything, and the
CLI's own tests start hundreds of them. The server, started once per
pytest worker, imports all that once and then, for each request, forks a
child that is set up as `subprocess.run([sys.executable, "-m", MODULE,
*ARGS], capture_output=True, cwd=CWD, env=ENV)` would start it: its cwd
and environment, stdin /dev/null, fd 1 and 2 fresh pipes, sys.argv,
sys.path[0] and SIGINT as `python -m` sets them; it runs MODULE as
`__main__` through runpy as `python -m` does (so coalda/cli.py's module
body, its rich Consoles included, runs in the child, in the child's
environment) and exits as the interpreter would (SystemExit codes, an
uncaught exception's traceback, KeyboardInterrupt's SIGINT, threads,
atexit, flushing). The test still gets a separate process with real file
descriptors, exit status and streams.

What a fresh interpreter would read at start-up or import time and the
fork cannot change afterwards is not served (the caller runs a real
process instead): an environment that differs from the server's in the
variables read at start-up or import (PYTHON*, locale, TZ, the dynamic
loader, numpy's and OpenBLAS's), a relative PYTHONPATH entry with another
cwd, and a cwd holding a module that `python -m`'s sys.path[0] would put
in front of one the server imported. What the imports set up that depends
on the cwd is set again in the child (rich's _IMPORT_CWD); tempfile's
cached directory is unset.

What a served process does not do: the interpreter's teardown after the
atexit callbacks (module globals cleared, their __del__ methods and
finalizers run); coalda does nothing there (its temporary files are
context managers), tests of what a program does then use run_cli's
fresh=True. Its stdin is /dev/null, where a real process inherits the
worker's (/dev/null too under pytest-xdist).

Requests and replies are marshal'ed dicts with an 8-byte length, over a
socketpair. The client half (CliServer, run_module) runs in the pytest
worker; the server half (serve) in the server process, which this module's
BOOT starts. The server exits when the worker closes its socket (at the
end of the session, or when the worker dies), killing a child still
running.
"""

from __future__ import annotations

import atexit
import ctypes
import importlib
import importlib.machinery
import io
import marshal
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import types
import warnings
from collections.abc import Mapping, Sequence
from typing import NoReturn

THIS_FILE = os.path.abspath(__file__)

# What the server imports before it serves: what `python -m coalda.cli`
# imports before it parses its arguments, and what its commands import
# when they run (numpy, llvmlite and the emulator for `coalda run`).
PRELOAD = (
    "coalda.cli", "coalda.entry", "coalda.driver.project", "coalda.findings.diagnostics",
    "coalda.findings.html_report", "coalda.ir", "coalda.report", "coalda.check.spec",
    "coalda.check.run_command", "coalda.check.bench", "coalda.check.gpu",
)

# Variables a fresh interpreter reads while it starts or imports PRELOAD,
# before the child could set them: the interpreter's own (PYTHON*), the
# locale (stdio and file-system encodings), the time zone (the time
# module), the dynamic loader's, HOME (site's user directory), numpy's
# and its OpenBLAS's, llvmlite's. A request whose environment differs from
# the server's in one of them runs as a real process.
STARTUP_VARIABLES = re.compile(
    r"PYTHON|LC_|LANG$|LANGUAGE$|TZ$|HOME$|LD_|OPENBLAS_|GOTO_|OMP_|MKL_|NPY_|NUMPY_|LLVMLITE_")

# The server's `python -c`: note the modules the interpreter imported at
# start-up (python -m's sys.path[0] cannot shadow those), drop -c's
# sys.path[0] (the server's cwd: each child puts its own there), load this
# file and serve on the socket.
BOOT = (
    "import sys; startup = set(sys.modules); sys.flags.safe_path or sys.path.pop(0); "
    "import importlib.util as u; spec = u.spec_from_file_location('coalda_cli_server', sys.argv[1]); "
    "server = u.module_from_spec(spec); sys.modules[spec.name] = server; spec.loader.exec_module(server); "
    "server.serve(int(sys.argv[2]), startup)"
)

HELLO_TIMEOUT_S = 120  # the imports take a second on a loaded machine; a server that hangs is given up
KILL_REPLY_TIMEOUT_S = 30  # after the client kills a child, the server's reply (it reaps it)
MAX_STARTS = 4  # servers started per worker before run_module stops trying


# --- the wire ----------------------------------------------------------------------------------

def _send(sock: socket.socket, message: object) -> None:
    data = marshal.dumps(message)
    sock.sendall(len(data).to_bytes(8, "little") + data)


def _receive_exactly(sock: socket.socket, size: int) -> bytes | None:
    """SIZE bytes, or None at end of file before the first of them."""
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            if data:
                raise ConnectionError("the CLI server's socket closed in the middle of a message")
            return None
        data += chunk
    return bytes(data)


def _readable(sock: socket.socket, timeout: float | None) -> bool:
    """Whether a message (or the end of file) arrives within TIMEOUT
    seconds. The socket itself stays blocking: a message is sent whole, so
    once it starts it is read to its end, and a timeout never leaves half
    of one read."""
    return bool(select.select([sock], [], [], timeout)[0])


def _receive(sock: socket.socket) -> dict | None:
    """The next message, or None when the other end has closed the socket."""
    header = _receive_exactly(sock, 8)
    if header is None:
        return None
    body = _receive_exactly(sock, int.from_bytes(header, "little"))
    if body is None:
        raise ConnectionError("the CLI server's socket closed in the middle of a message")
    message = marshal.loads(body)
    assert isinstance(message, dict)
    return message


# --- the server ---------------------------------------------------------------------------------

class _Server:
    """What every child needs from the server: its socket, SIGINT's
    disposition at start-up and sys.path without -c's entry, and what
    the cwd must not shadow."""

    def __init__(self, sock: socket.socket, sigint: object, startup: set[str]) -> None:
        self.sock = sock
        self.sigint = sigint
        self.path = list(sys.path)
        self.origins = _shadowable(startup)


def serve(sock_fd: int, startup: set[str]) -> None:
    """The server's main loop (BOOT calls it): import PRELOAD, say hello,
    then serve one request at a time until the client closes the socket."""
    sock = socket.socket(fileno=sock_fd)
    sigint = signal.getsignal(signal.SIGINT)
    # A terminal's Ctrl-C reaches the worker's whole process group: it is
    # for the child running the CLI (which gets SIGINT's start-up
    # disposition back), not for the server, which ends with its socket.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _preload()
        _settle_threads()
        server = _Server(sock, sigint, startup)
    except Exception as exc:
        _send(sock, {"ok": False, "error": f"{type(exc).__name__}: {exc}"})
        return
    sys.stdout.flush()
    sys.stderr.flush()
    _send(sock, {"ok": True, "pid": os.getpid()})
    while (request := _receive(sock)) is not None:
        if not _serve_one(server, request):
            return


def _preload() -> None:
    """Import PRELOAD, then forget coalda.cli: `python -m` runs
    coalda/cli.py as __main__, not as coalda.cli, and each child does so
    too, so that what its module body sets up (rich Consoles, which read
    TERM, COLUMNS, NO_COLOR and friends when made) comes from the child's
    own environment."""
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            if name == "coalda.cli":
                raise
            # an optional command's module: the child imports it (and fails) as a fresh process would
    sys.modules.pop("coalda.cli", None)
    package = sys.modules["coalda"]
    if "cli" in vars(package):
        delattr(package, "cli")


def _settle_threads() -> None:
    """Leave the server with one thread, so that forking it is safe:
    numpy's OpenBLAS starts a thread pool when imported and stops it
    before a fork (its pthread_atfork handler), so one throw-away fork
    stops it (children start their own pool when they need one)."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    if os.path.isdir("/proc/self/task") and (threads := len(os.listdir("/proc/self/task"))) != 1:
        raise RuntimeError(f"{threads} threads after the imports: forking would not be safe")


def _shadowable(startup: set[str]) -> dict[str, str | None]:
    """Top-level module -> its file (None for a namespace package), of the
    modules imported since start-up: a module of that name in a child's
    cwd, at the head of `python -m`'s sys.path, would be imported instead."""
    origins: dict[str, str | None] = {}
    for name, module in list(sys.modules.items()):
        if "." in name or name in startup or module is None:
            continue
        spec = getattr(module, "__spec__", None)
        if spec is None or spec.origin in ("built-in", "frozen"):
            continue
        origins[name] = os.path.realpath(spec.origin) if spec.has_location and spec.origin else None
    return origins


def _shadowed(server: _Server, cwd: str) -> str | None:
    """Why CWD cannot be served, if a module there would shadow one the
    server imported (another file than the one imported), else None."""
    suffixes = importlib.machinery.all_suffixes()
    try:
        entries = os.listdir(cwd)
    except OSError:
        return None  # the child's chdir fails and says why
    for entry in entries:
        path = os.path.join(cwd, entry)
        name, candidate = entry, os.path.join(path, "__init__.py")
        for suffix in suffixes:
            if entry.endswith(suffix):
                name, candidate = entry[: -len(suffix)], path
                break
        if name not in server.origins or not os.path.isfile(candidate):
            continue
        if os.path.realpath(candidate) != server.origins[name]:
            return f"{path} would be imported as {name}"
    return None


def _serve_one(server: _Server, request: dict) -> bool:
    """Run REQUEST in a child and reply; False when the client went away."""
    reason = _shadowed(server, request["cwd"])
    if reason is not None:
        _send(server.sock, {"fallback": reason})
        return True
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    sys.stdout.flush()  # nothing buffered may be written twice
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(out_r)
        os.close(err_r)
        _child(server, request, out_w, err_w)
    os.close(out_w)
    os.close(err_w)
    _send(server.sock, {"pid": pid})
    collected = _collect(server.sock, pid, out_r, err_r)
    if collected is None:
        return False
    status, out, err = collected
    _send(server.sock, {"returncode": os.waitstatus_to_exitcode(status), "stdout": out, "stderr": err})
    return True


def _collect(sock: socket.socket, pid: int, out_r: int, err_r: int) -> tuple[int, bytes, bytes] | None:
    """Both streams to their end and the child's wait status, as
    subprocess.run's communicate() and wait() (the streams end when every
    process holding them has closed them). The socket is watched too: a
    "kill" message (the client's timeout or Ctrl-C) kills the child; the
    client closing it kills and reaps the child and returns None."""
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    poller = select.poll()
    for fd in (out_r, err_r, sock.fileno()):
        poller.register(fd, select.POLLIN)
    pidfd = _pidfd(pid)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    streams, status = {out_r, err_r}, None
    while streams or status is None:
        if not streams and pidfd is None:
            status = os.waitpid(pid, 0)[1]
            break
        for fd, _ in poller.poll():
            if fd == sock.fileno():
                if _receive(sock) is None:
                    _kill_and_reap(pid, status)
                    return None
                if status is None:  # "kill"; after the reaping the pid is no longer the child's
                    os.kill(pid, signal.SIGKILL)
            elif fd == pidfd:
                poller.unregister(pidfd)
                os.close(pidfd)
                pidfd, status = None, os.waitpid(pid, 0)[1]
            elif data := os.read(fd, 1 << 16):
                chunks[fd].append(data)
            else:
                poller.unregister(fd)
                os.close(fd)
                streams.discard(fd)
    for fd in streams:
        os.close(fd)
    return status, b"".join(chunks[out_r]), b"".join(chunks[err_r])


def _pidfd(pid: int) -> int | None:
    """A descriptor that polls readable when PID exits (Linux 5.3), else
    None (then the child is waited for once its streams end)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _kill_and_reap(pid: int, status: int | None) -> None:
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


# --- the child ----------------------------------------------------------------------------------

def _child(server: _Server, request: dict, out_w: int, err_w: int) -> NoReturn:
    """Become the process `python -m MODULE ARGS` would be, run it, exit;
    never returns to the server's loop."""
    try:
        os.close(server.sock.detach())
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.close(out_w)
        os.close(err_w)
        _fresh_process(server, request)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        sys.stderr.flush()
        os._exit(1)
    _run_as_main(request["module"])


def _fresh_process(server: _Server, request: dict) -> None:
    """The process state `python -m MODULE ARGS` starts with, where the
    server's differs."""
    signal.signal(signal.SIGINT, server.sigint)  # coalda.entry installs its handler only over the default one
    os.umask(request["umask"])
    os.chdir(request["cwd"])
    os.environ.clear()  # in place: os.environb and rich's Console._environ are views of it
    os.environ.update(request["env"])
    module, args = request["module"], request["args"]
    sys.argv = ["-m", *args]  # runpy puts the module's file in argv[0], as `python -m` does
    sys.orig_argv = [sys.executable, "-m", module, *args]
    sys.path[:] = server.path if sys.flags.safe_path else [os.getcwd(), *server.path]
    importlib.invalidate_caches()
    _fresh_main_module()
    _reread_import_time_state()


FRESH_MAIN = ("__name__", "__doc__", "__package__", "__loader__", "__spec__", "__annotations__", "__builtins__")


def _fresh_main_module() -> None:
    """__main__ as the interpreter makes it, without BOOT's names."""
    main = vars(sys.modules["__main__"])
    for name in [name for name in main if name not in FRESH_MAIN]:
        del main[name]


def _reread_import_time_state() -> None:
    """What PRELOAD's modules computed at import from the cwd or the
    environment, computed again in the child: rich notes the cwd it was
    imported in (rich.traceback shows paths relative to it); tempfile
    caches $TMPDIR at first use, which the server never makes."""
    rich = sys.modules.get("rich")
    if rich is not None and hasattr(rich, "_IMPORT_CWD"):
        rich._IMPORT_CWD = os.path.abspath(os.getcwd())
    tempfile = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile.tempdir = None


def _run_as_main(module: str) -> NoReturn:
    """runpy's _run_module_as_main (what `python -m` calls), then the
    interpreter's exit: SystemExit's code, an uncaught exception's
    traceback and exit 1, KeyboardInterrupt's death by SIGINT."""
    import runpy

    interrupted = False
    try:
        runpy._run_module_as_main(module)  # type: ignore[attr-defined]
        code = 0
    except SystemExit as exc:
        code = _system_exit_code(exc)
    except BaseException as exc:  # noqa: B036 -- the interpreter prints whatever escapes
        _print_uncaught(exc)
        code, interrupted = 1, isinstance(exc, KeyboardInterrupt)
    _exit(code, interrupted)


def _system_exit_code(exc: SystemExit) -> int:
    """The exit status of an uncaught SystemExit (CPython's
    _Py_HandleSystemExit): None is 0, an int itself (a C long: an
    overflow is -1), anything else is printed on stderr and is 1."""
    value = exc.code
    if value is None:
        return 0
    if isinstance(value, int):
        return value if -(1 << 63) <= value < (1 << 63) else -1
    stream = sys.stderr if sys.stderr is not None else sys.__stderr__
    stream.write(str(value))
    stream.write("\n")
    return 1


def _print_uncaught(exc: BaseException) -> None:
    """The traceback the interpreter prints, from runpy's frame on: the
    server's frames above it are not the program's."""
    tb = exc.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) == THIS_FILE:
        tb = tb.tb_next
    exc.__traceback__ = tb
    sys.excepthook(type(exc), exc, tb)


def _exit(code: int, interrupted: bool) -> NoReturn:
    """Py_FinalizeEx's steps that a program can see (waiting for its
    non-daemon threads, atexit callbacks, flushing stdout and stderr: a
    failed flush makes the status 120), then the exit; after an uncaught
    KeyboardInterrupt the interpreter kills itself with SIGINT."""
    threading_module = sys.modules.get("threading")
    if threading_module is not None:
        threading_module._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    if not _flush_std_files():
        code = 120
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code & 0xFF)


def _flush_std_files() -> bool:
    """CPython's flush_std_files: stdout's failure is reported as
    unraisable, stderr's is not; False if either failed."""
    ok = True
    for stream, report in ((getattr(sys, "stdout", None), True), (getattr(sys, "stderr", None), False)):
        if stream is None or getattr(stream, "closed", False):
            continue
        try:
            stream.flush()
        except Exception as exc:  # noqa: BLE001 -- any failure, as the interpreter's check
            ok = False
            if report:
                sys.unraisablehook(types.SimpleNamespace(  # type: ignore[arg-type]
                    exc_type=type(exc), exc_value=exc, exc_traceback=exc.__traceback__, err_msg=None, object=stream))
    return ok


# --- the client ---------------------------------------------------------------------------------

class ServerDied(RuntimeError):
    """The server ended while it served a request. BEFORE_FORK: before it
    started the child, so the request can be sent to another server."""

    def __init__(self, message: str, before_fork: bool) -> None:
        super().__init__(message)
        self.before_fork = before_fork


class CliServer:
    """One server process and the worker's end of its socket."""

    def __init__(self) -> None:
        self.env = inherited_environment()
        self.cwd = os.getcwd()
        self.closed: str | None = None  # close()'s answer, once closed
        ours, theirs = socket.socketpair()
        try:
            # stdout and stderr are pipes, as the children's: the server's
            # sys.stdout and sys.stderr, which the children inherit, are
            # set up for a pipe (not a terminal, not seekable).
            self.proc = subprocess.Popen(
                [sys.executable, "-c", BOOT, THIS_FILE, str(theirs.fileno())],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(theirs.fileno(),), env=self.env)
        finally:
            theirs.close()
        self.sock = ours
        self._hello()

    def _hello(self) -> None:
        if _readable(self.sock, HELLO_TIMEOUT_S):
            hello = _receive(self.sock)
        else:
            hello = {"ok": False, "error": f"no answer in {HELLO_TIMEOUT_S} s"}
        if hello is None or not hello["ok"]:
            said = self.close(kill=True)
            raise RuntimeError(f"the CLI server did not start: {said if hello is None else hello['error']}")
        self.pid = hello["pid"]
        said = self._said()
        if said:  # an import printed something or warned: a fresh process would show it, a child would not
            self.close(kill=True)
            raise RuntimeError(f"the CLI server's imports wrote {said!r}")

    def _said(self) -> str:
        """What the server wrote on its stdout and stderr so far."""
        out = b""
        for stream in (self.proc.stdout, self.proc.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
            out += stream.read() or b""
        return out.decode(errors="replace")

    def alive(self) -> bool:
        return self.closed is None and self.proc.poll() is None

    def unserved(self, cwd: str, env: Mapping[str, str]) -> str | None:
        """Why a request with this CWD and ENV must run as a real process."""
        changed = sorted(name for name in {*env, *self.env}
                         if STARTUP_VARIABLES.match(name) and env.get(name) != self.env.get(name))
        if changed:
            return f"start-up variables differ: {', '.join(changed)}"
        relative = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if not os.path.isabs(p)]
        if "PYTHONPATH" in env and relative and cwd != self.cwd:
            return "a relative PYTHONPATH entry, another cwd"
        return None

    def run(self, module: str, args: Sequence[str], cwd: str, env: Mapping[str, str],
            timeout: float | None = None) -> tuple[int, bytes, bytes] | str:
        """`python -m MODULE ARGS` in a child: (exit status, stdout, stderr),
        or why it was not served. TIMEOUT as subprocess.run's: the child
        is killed and subprocess.TimeoutExpired raised."""
        umask = os.umask(0o022)
        os.umask(umask)
        try:
            _send(self.sock, {"module": module, "args": list(args), "cwd": cwd, "env": dict(env), "umask": umask})
            started = _receive(self.sock)
        except OSError as exc:
            raise ServerDied(f"the CLI server went away: {exc}; {self.close(kill=True)}", before_fork=True) from exc
        if started is None:
            raise ServerDied(f"the CLI server went away: {self.close(kill=True)}", before_fork=True)
        if "fallback" in started:
            return started["fallback"]
        reply = self._reply(module, args, timeout)
        return reply["returncode"], reply["stdout"], reply["stderr"]

    def _reply(self, module: str, args: Sequence[str], timeout: float | None) -> dict:
        """The result of the request being served. On a timeout or an
        interrupt (Ctrl-C) the child is killed first, as subprocess.run
        kills its process; an interrupt in the middle of the reply leaves
        the socket unusable, and the server is closed."""
        try:
            ready = _readable(self.sock, timeout)
        except BaseException:  # nothing of the reply read yet: the server serves on
            self._kill_child()
            raise
        if not ready:
            reply = self._kill_child()
            raise subprocess.TimeoutExpired([sys.executable, "-m", module, *args], timeout or 0,
                                            output=reply["stdout"], stderr=reply["stderr"])
        try:
            reply = _receive(self.sock)
        except BaseException:
            self.close()
            raise
        if reply is None:
            raise ServerDied(f"the CLI server died while serving a request: {self.close(kill=True)}",
                             before_fork=False)
        return reply

    def _kill_child(self) -> dict:
        """Have the server kill the running child; its reply. A server
        that does not answer is closed (which kills the child too)."""
        try:
            _send(self.sock, {"kill": True})
            reply = _receive(self.sock) if _readable(self.sock, KILL_REPLY_TIMEOUT_S) else None
        except OSError:
            reply = None
        except BaseException:
            self.close()
            raise
        if reply is None:
            self.close()
            return {"stdout": b"", "stderr": b""}
        return reply

    def close(self, kill: bool = False) -> str:
        """End the server and reap it: closing its socket ends it (it kills
        and reaps a child still running first); KILL for a server that
        cannot answer. What it wrote on stdout and stderr."""
        if self.closed is not None:
            return self.closed
        self.sock.close()
        if kill:
            self.proc.kill()
        try:
            self.proc.wait(timeout=KILL_REPLY_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        said = self._said()
        for stream in (self.proc.stdout, self.proc.stderr):
            assert stream is not None
            stream.close()
        self.closed = said or f"exit status {self.proc.returncode}"
        return self.closed


_server: CliServer | None = None
_starts = 0
_disabled: str | None = None
_lock = threading.Lock()


def run_module(module: str, args: Sequence[str], cwd: str | os.PathLike[str] | None = None,
               env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str] | None:
    """`subprocess.run([sys.executable, "-m", MODULE, *ARGS],
    capture_output=True, text=True, cwd=CWD, env=ENV)` served by this
    worker's fork server, or None where it must run as a real process
    (the caller runs it): a request the fork cannot set up as a fresh
    interpreter would start, one subprocess.run would refuse, a call from
    a second thread while the server is busy, a server that cannot start."""
    if not _lock.acquire(blocking=False):
        return None
    try:
        return _run_module_locked(module, args, cwd, env)
    finally:
        _lock.release()


def _run_module_locked(module: str, args: Sequence[str], cwd: str | os.PathLike[str] | None,
                       env: Mapping[str, str] | None) -> subprocess.CompletedProcess[str] | None:
    request = _request(args, cwd, env)
    if request is None:
        return None
    cwd_, env_ = request
    for _attempt in range(2):
        server = _get_server()
        if server is None or server.unserved(cwd_, env_) is not None:
            return None
        try:
            result = server.run(module, args, cwd_, env_)
        except ServerDied as exc:
            _forget_server()
            if not exc.before_fork:
                raise
            continue
        if isinstance(result, str):
            return None
        returncode, out, err = result
        return subprocess.CompletedProcess([sys.executable, "-m", module, *args], returncode,
                                           _text(out), _text(err))
    return None


def _request(args: Sequence[str], cwd: str | os.PathLike[str] | None,
             env: Mapping[str, str] | None) -> tuple[str, dict[str, str]] | None:
    """The absolute cwd and the whole environment of a request, or None
    where subprocess.run would raise (a missing cwd, an argument or a
    variable it cannot pass): a real process raises the same."""
    try:
        here = os.getcwd()
    except OSError:
        return None
    directory = here if cwd is None else os.path.join(here, os.fspath(cwd))
    environment = inherited_environment() if env is None else dict(env)
    if not os.path.isdir(directory):
        return None
    words = [*args, *environment.keys(), *environment.values()]
    if not all(isinstance(word, str) and "\0" not in word for word in words):
        return None
    if not all(name and "=" not in name for name in environment):
        return None
    try:
        for word in words:
            os.fsencode(word)
    except UnicodeError:
        return None
    return directory, environment


def inherited_environment() -> dict[str, str]:
    """The environment a child process inherits (subprocess's env=None):
    the C library's `environ`, which is os.environ and what C code set
    itself (readline sets LINES and COLUMNS when imported, under a
    terminal), in its order; the first of a repeated name, as the
    interpreter reads it."""
    try:
        entries = ctypes.POINTER(ctypes.c_char_p).in_dll(ctypes.CDLL(None), "environ")
    except (OSError, ValueError):
        return dict(os.environ)
    environment: dict[str, str] = {}
    index = 0
    while (entry := entries[index]) is not None:
        name, equals, value = entry.partition(b"=")
        if equals:
            environment.setdefault(os.fsdecode(name), os.fsdecode(value))
        index += 1
    return environment


def _get_server() -> CliServer | None:
    """This worker's server, started or started again when needed; None
    when servers cannot be had (it says why once, as a warning)."""
    global _server, _starts, _disabled
    if _server is not None and not _server.alive():
        _forget_server()
    if _server is None and _disabled is None:
        if _starts >= MAX_STARTS:
            _disabled = f"{_starts} CLI servers started in this worker: running real processes from now on"
        else:
            _starts += 1
            try:
                _server = CliServer()
            except (OSError, RuntimeError) as exc:
                _disabled = str(exc)
        if _disabled is not None:
            warnings.warn(f"tests/cli_server.py: {_disabled}", RuntimeWarning, stacklevel=4)
    return _server


def _forget_server() -> None:
    global _server
    if _server is not None:
        _server.close(kill=True)
        _server = None


def shutdown() -> None:
    """End this worker's server and reap it (its children's CPU time is
    then counted in the worker's)."""
    global _server
    with _lock:
        if _server is not None:
            _server.close()
            _server = None


def _text(data: bytes) -> str:
    """DATA as subprocess.run(text=True) decodes a stream: the locale's
    encoding, strict, universal newlines."""
    wrapper = io.TextIOWrapper(io.BytesIO())
    text = data.decode(wrapper.encoding, wrapper.errors)
    return text.replace("\r\n", "\n").replace("\r", "\n")
