"""A content-addressed cache of clang's device IR (`compile_to_ir`'s output).

clang spends about 0.3 s of CPU on every compile parsing the CUDA headers,
and a project's CI, an editor's `coalda analyze` on save, `coalda optimize`
then `coalda run` of the same file, all compile the same translation unit
again and again. The IR only depends on what clang reads, so it is kept by
what clang reads:

- the key: the clang command with its output path taken out (it names the
  source as given, every flag, the CUDA tree), the working directory (the
  debug info's directory, and where relative paths resolve), the environment
  variables clang's header search reads, and the identity (path, size,
  modification time) of clang and, at -O0, of the opt that runs SROA (and
  its passes, compile.O0_PASSES);
- the entry, one file: every file the compile read (clang's own dependency list,
  `-MD`: the source and each header, CUDA's and the project's) with the
  SHA-256 of its contents, and the IR. A lookup compares each file's hash
  with today's contents, as ccache's direct mode does: an edited header
  misses, a touched one does not.

A compile that fails is never kept. Entries are written to a temporary name
and renamed, so concurrent `coalda` processes (pytest's workers, `make -j`)
share the cache safely; the last writer of an entry wins. The cache keeps at
most `LIMIT_BYTES`, the least recently used entries going first.

Where: `$COALDA_IR_CACHE` if set (`off` turns the cache off), else `ir/` in
COALDA's cache directory (`$COALDA_CACHE`, else `$XDG_CACHE_HOME/coalda` or
`~/.cache/coalda`). What it cannot see: `__DATE__`, `__TIME__` and
`__COUNTER__`-style values differ between two compiles of the same bytes;
the cached IR keeps the first compile's.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .toolchain import cache_dir

LIMIT_BYTES = 512 << 20
# environment variables that change what clang's header search finds
CLANG_ENV = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "SDKROOT")
# one store in this many prunes the cache back under LIMIT_BYTES
PRUNE_EVERY = 64

# (path, size, mtime_ns) -> SHA-256 of the contents: a process hashes each
# CUDA header once, however many sources it compiles
_digests: dict[tuple[str, int, int], str] = {}


def chosen_directory(variable: str, name: str) -> Path | None:
    """$VARIABLE if set (None if it says `off`), else NAME in COALDA's cache
    directory: where a cache of compiles lives (this one, pch.py's)."""
    chosen = os.environ.get(variable)
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    return cache_dir() / name


def cache_root() -> Path | None:
    """The cache's directory, or None when it is turned off."""
    return chosen_directory("COALDA_IR_CACHE", "ir")


def compile_key(command: Sequence[str], directory: str, tools: Sequence[Path]) -> str:
    """The SHA-256 of a compile's COMMAND, the working DIRECTORY it depends
    on, the environment of clang's header search and TOOLS' identity."""
    key = hashlib.sha256()
    for part in (*command, directory, *(f"{name}={os.environ.get(name, '')}" for name in CLANG_ENV),
                 *(tool_identity(t) for t in tools)):
        key.update(part.encode() + b"\0")
    return key.hexdigest()


def file_digest(path: Path) -> str | None:
    """The SHA-256 of PATH's contents (None when it cannot be read)."""
    try:
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key not in _digests:
            _digests[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        return _digests[key]
    except OSError:
        return None


def tool_identity(tool: Path) -> str:
    """Which binary TOOL is: its resolved path, size and modification time."""
    real = Path(os.path.realpath(tool))
    stat = real.stat()
    return f"{real}:{stat.st_size}:{stat.st_mtime_ns}"


def parse_depfile(text: str, cwd: Path) -> list[Path]:
    """The prerequisites of a Makefile rule clang wrote with -MD (`out: a.cu
    b.h \\` with backslash continuations, `\\ ` for a space in a name), as
    absolute paths."""
    joined = text.replace("\\\n", " ")
    _, _, prerequisites = joined.partition(": ")
    names, current, escaped = [], [], False
    for char in prerequisites:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char.isspace():
            if current:
                names.append("".join(current))
                current = []
        else:
            current.append(char)
    if current:
        names.append("".join(current))
    return [cwd / name.replace("$$", "$") for name in names]


@dataclass(frozen=True)
class Entry:
    """One compile's place in the cache: KEY names it. Its one file,
    `entry`, holds a line of JSON (file -> SHA-256 of what the compile
    read) and then the IR, written at once: two processes storing the same
    key with different headers leave one whole entry, never one's IR with
    the other's list."""

    root: Path
    key: str

    @property
    def path(self) -> Path:
        return self.root / self.key[:2] / self.key

    def fetch(self, output: Path) -> bool:
        """Write the cached IR to OUTPUT when every file the compile read is
        unchanged; whether it did."""
        try:
            with open(self.path, "rb") as entry:
                deps = json.loads(entry.readline())
                if not isinstance(deps, dict) or any(file_digest(Path(p)) != d for p, d in deps.items()):
                    return False
                with open(output, "wb") as out:
                    shutil.copyfileobj(entry, out)
            os.utime(self.path)  # recently used: pruned last
        except (OSError, ValueError):
            return False
        return True

    def store(self, module: Path, depfile: Path, cwd: Path) -> None:
        """Keep MODULE with the digests of what the compile read (DEPFILE).
        A file that can no longer be read keeps nothing: it could not be
        checked on a lookup."""
        deps = {}
        for path in parse_depfile(depfile.read_text(), cwd):
            digest = file_digest(path)
            if digest is None:
                return
            deps[str(path)] = digest
        self.path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(self.path, json.dumps(deps).encode() + b"\n" + module.read_bytes())


def _write_atomically(path: Path, data: bytes) -> None:
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def entry_for(command: Sequence[str], output: Path, tools: Sequence[Path]) -> Entry | None:
    """The cache entry of a compile (COMMAND writes OUTPUT; TOOLS are the
    binaries that make it), or None when the cache is off."""
    root = cache_root()
    if root is None:
        return None
    command = ["<output>" if arg == str(output) else arg for arg in command]
    return Entry(root, compile_key(command, os.getcwd(), tools))


def prune(root: Path, limit: int = LIMIT_BYTES) -> None:
    """Remove the least recently used entries until ROOT holds at most LIMIT
    bytes."""
    prune_files(root.glob("*/*"), limit)


def prune_files(paths: Iterable[Path], limit: int) -> None:
    """Remove the least recently used of PATHS until they hold at most
    LIMIT bytes."""
    entries = []
    for path in paths:
        try:
            stat = path.stat()
            entries.append((stat.st_mtime_ns, stat.st_size, path))
        except OSError:
            continue
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        path.unlink(missing_ok=True)
        total -= size
