"""The console scripts `coalda` and `coalda-cc`: Ctrl-C ends them with one
line on stderr and exit status 130 (128 + SIGINT, as a shell reports it),
wherever it arrives: while a tool (clang, opt) runs, while the CLI's modules
are still being imported (a fifth of a second of every run, most of a short
`coalda-cc -c` in a make -j), or while the first interrupt's cleanup runs.

This module imports nothing of COALDA's (nor typing) at module level, so that
the interrupt handling is in place before the CLI's imports start; what is
left uncovered is the interpreter's own start-up.
"""

from __future__ import annotations

import signal
import sys

TYPE_CHECKING = False  # not typing's: importing typing is itself a few milliseconds of the window
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType
    from typing import NoReturn

INTERRUPTED = 130


def _first_interrupt(signum: int, frame: FrameType | None) -> None:
    """Raise KeyboardInterrupt once: a second Ctrl-C must not cut short the
    cleanup the first one started (temporary directories, killing a child)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def interrupted(prog: str) -> NoReturn:
    """The one line and exit status of an interrupted run."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        sys.stderr.write(f"{prog}: error: interrupted\n")
        sys.stderr.flush()
    except OSError:  # stderr already closed (a pipe whose reader went away)
        pass
    sys.exit(INTERRUPTED)


def run(prog: str, main: Callable[[], Callable[[], object]]) -> None:
    """Load the command's entry point with MAIN and call it, turning an
    interrupt in either step into `PROG: error: interrupted` and exit 130.
    A SIGINT the process started with ignored (a background job of a
    non-interactive shell) stays ignored."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _first_interrupt)
    try:
        main()()
    except KeyboardInterrupt:
        interrupted(prog)


def _cli() -> Callable[[], None]:
    from .cli import main

    return main


def _cc() -> Callable[[], None]:
    from .driver.cc import main

    return main


def coalda() -> None:
    """The `coalda` console script."""
    run("coalda", _cli)


def coalda_cc() -> None:
    """The `coalda-cc` console script."""
    run("coalda-cc", _cc)
