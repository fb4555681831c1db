"""`-p DIR`: the compile flags of a project's .cu files, from DIR/compile_commands.json.

Each entry's command (nvcc's or clang's, as CMake, Bear or a hand-written
database give it) is translated into what `clang-19 --cuda-device-only`
understands, by one rule: what changes the *meaning* of the source is taken
over, everything else is dropped.

Taken over (the separate and the joined spelling, nvcc's long names too):

- include directories: `-I`, `-isystem`, `-iquote`, `-idirafter`,
  `--include-path`, `--system-include`; relative ones against the entry's
  `directory`;
- macros: `-D`, `-U`, `--define-macro`, `--undefine-macro`;
- the language standard: `-std=c++17`, `-std c++17`, `--std`;
- forced includes: `-include`, `--pre-include`;
- response files: `@FILE` and nvcc's `--options-file FILE` are read and
  translated the same way.

Dropped, with the argument of those that take one: COALDA's own choices
(`-O*`, `-g`, `-arch`/`-gencode`/`--cuda-gpu-arch` (use `--arch`), `-x`,
`-c`, `-o`, `-M*` dependency output), warnings (`-W*`), the host compiler's
and nvcc-only options (`-Xcompiler`, `-Xptxas`, `-ccbin`, `-rdc`,
`--expt-relaxed-constexpr`, `--use_fast_math`, ...), the source file and
anything else. `Entry.dropped` lists them.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import CoaldaError

DATABASE = "compile_commands.json"
CUDA_SUFFIXES = (".cu",)

# option -> canonical clang spelling, for the options taken over that take a value
_INCLUDE = {"-I": "-I", "--include-path": "-I"}
_SYSTEM = {"-isystem": "-isystem", "--system-include": "-isystem", "-iquote": "-iquote", "-idirafter": "-idirafter"}
_DEFINE = {"-D": "-D", "--define-macro": "-D"}
_UNDEFINE = {"-U": "-U", "--undefine-macro": "-U"}
_STD = {"-std": "-std", "--std": "-std"}
_FORCED = {"-include": "-include", "--pre-include": "-include"}
_OPTIONS_FILE = ("--options-file", "-optf")

# dropped options whose value is the next word (when not joined with `=`)
_DROPPED_WITH_VALUE = frozenset({
    "-o", "--output-file", "-x", "--x", "-MF", "-MT", "-MQ", "-MJ", "--dependency-output",
    "-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code",
    "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xlinker", "--linker-options",
    "-Xnvlink", "--nvlink-options", "-Xarchive", "--archive-options", "-Xfatbin", "--fatbin-options",
    "-Xcudafe", "-Xclang", "-Xarch_device", "-Xarch_host", "-ccbin", "--compiler-bindir",
    "-rdc", "--relocatable-device-code", "-maxrregcount", "--maxrregcount", "-t", "--threads",
    "-odir", "--output-directory", "-l", "--library", "-L", "--library-path", "-target", "--target",
    "-split-compile", "--split-compile", "-ftz", "-prec-div", "-prec-sqrt", "-fmad",
    "--ftz", "--prec-div", "--prec-sqrt", "--fmad", "-diag-suppress", "-mllvm", "-Xcuda-ptxas",
    "-Xcuda-fatbinary", "-include-pch", "-isysroot", "--sysroot",
    "--diag-suppress", "-keep-dir", "--keep-dir", "-cudart", "--cudart", "-cudadevrt", "--cudadevrt",
})


@dataclass(frozen=True)
class Entry:
    """One translation unit of the database, with the flags COALDA takes over."""

    file: Path
    directory: Path
    includes: tuple[Path, ...] = ()
    defines: tuple[str, ...] = ()
    # further clang flags taken over (-std, -U, -isystem, -include, ...), in order
    flags: tuple[str, ...] = ()
    # what was dropped, for --verbose or a curious reader
    dropped: tuple[str, ...] = ()


def _split_joined(word: str, options: Iterable[str]) -> tuple[str, str] | None:
    """(option, value) of `-Ifoo`, `-I=foo`, `--include-path=foo`; None if word is not one of them."""
    for option in sorted(options, key=len, reverse=True):
        if word.startswith(option + "="):
            return option, word[len(option) + 1:]
        if len(option) == 2 and word.startswith(option) and len(word) > 2:  # -Idir, -DNAME, -UNAME
            return option, word[len(option):]
    return None


def translate(args: Sequence[str], directory: Path, *, _depth: int = 0) -> tuple[
        list[Path], list[str], list[str], list[str]]:
    """(includes, defines, flags, dropped) of a compiler's arguments (without argv[0])."""
    includes: list[Path] = []
    defines: list[str] = []
    flags: list[str] = []
    dropped: list[str] = []

    def where(value: str) -> Path:
        path = Path(value).expanduser()
        return path if path.is_absolute() else directory / path

    def options_file(value: str) -> None:
        if _depth > 8:
            raise CoaldaError(f"options file {value} includes itself")
        path = where(value)
        try:
            words = shlex.split(path.read_text())
        except OSError as exc:
            raise CoaldaError(f"cannot read options file {path} named in {DATABASE}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise CoaldaError(f"cannot read options file {path} named in {DATABASE}: {exc}") from None
        more = translate(words, directory, _depth=_depth + 1)
        includes.extend(more[0])
        defines.extend(more[1])
        flags.extend(more[2])
        dropped.extend(more[3])

    def take(option: str, value: str) -> None:
        if option in _INCLUDE:
            includes.append(where(value))
        elif option in _SYSTEM:
            flags.extend([_SYSTEM[option], str(where(value))])
        elif option in _DEFINE:
            defines.append(value)
        elif option in _UNDEFINE:
            flags.extend(["-U", value])
        elif option in _STD:
            flags.append(f"-std={value}")
        elif option in _FORCED:
            flags.extend(["-include", str(where(value))])
        elif option in _OPTIONS_FILE:
            options_file(value)

    valued = {**_INCLUDE, **_SYSTEM, **_DEFINE, **_UNDEFINE, **_STD, **_FORCED, **{o: o for o in _OPTIONS_FILE}}
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word.startswith("@") and len(word) > 1:
            options_file(word[1:])
            continue
        if word in valued:
            if i >= len(args):
                raise CoaldaError(f"{word} at the end of a command in {DATABASE} has no value")
            take(word, args[i])
            i += 1
            continue
        joined = _split_joined(word, valued)
        if joined is not None:
            take(*joined)
            continue
        dropped.append(word)
        if word in _DROPPED_WITH_VALUE and i < len(args):
            dropped.append(args[i])
            i += 1
    return includes, defines, flags, dropped


def _arguments(raw: dict[str, object], where: str) -> list[str]:
    if isinstance(raw.get("arguments"), list) and all(isinstance(a, str) for a in raw["arguments"]):  # type: ignore[union-attr]
        return list(raw["arguments"])  # type: ignore[arg-type]
    if isinstance(raw.get("command"), str):
        try:
            return shlex.split(raw["command"])  # type: ignore[arg-type]
        except ValueError as exc:
            raise CoaldaError(f"{where}: cannot split its command: {exc}") from None
    raise CoaldaError(f"{where}: needs `arguments` (a list of strings) or `command` (a string)")


def load(directory: Path) -> list[Entry]:
    """The .cu entries of DIRECTORY/compile_commands.json (DIRECTORY may be the
    file itself), one per file: the first entry of a file compiled twice."""
    path = directory / DATABASE if directory.is_dir() else directory
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise CoaldaError(f"{path} not found: -p takes a build directory with a {DATABASE} "
                          "(CMake writes one with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)") from None
    except OSError as exc:
        raise CoaldaError(f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise CoaldaError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, list):
        raise CoaldaError(f"{path} must hold a JSON list of compile commands")
    entries: dict[Path, Entry] = {}
    for index, raw in enumerate(data):
        where = f"{path}: entry {index}"
        if not isinstance(raw, dict) or not isinstance(raw.get("file"), str) or not isinstance(raw.get("directory"), str):
            raise CoaldaError(f"{where}: needs `directory` and `file` strings")
        base = Path(raw["directory"])
        if not base.is_absolute():
            base = path.parent / base
        file = Path(raw["file"])
        file = file if file.is_absolute() else base / file
        if file.suffix not in CUDA_SUFFIXES:
            continue
        file = Path(_normal(file))
        if file in entries:
            continue
        args = _arguments(raw, where)
        includes, defines, flags, dropped = translate(args[1:], base)
        entries[file] = Entry(file, base, tuple(includes), tuple(defines), tuple(flags), tuple(dropped))
    return list(entries.values())


def _normal(path: Path) -> str:
    return str(path.resolve())


def select(entries: Sequence[Entry], files: Sequence[Path], database: Path) -> list[Entry]:
    """The entries of FILES (all of them when none is named); a named file
    that the database lacks is an error."""
    if not files:
        if not entries:
            raise CoaldaError(f"{database} names no .cu file")
        return list(entries)
    by_path = {_normal(e.file): e for e in entries}
    chosen = []
    for file in files:
        entry = by_path.get(_normal(file))
        if entry is None:
            raise CoaldaError(f"{file} is not a .cu entry of {database}; analyze it without -p, "
                              "or re-run the build's configure step to add it")
        chosen.append(entry)
    return chosen
