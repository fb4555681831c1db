"""A precompiled header of clang's CUDA runtime wrapper, per set of flags.

Every device compile starts by parsing `__clang_cuda_runtime_wrapper.h`,
which the clang driver includes before the source: the CUDA runtime
headers, libstdc++'s <cmath> and <cstdlib>, libdevice's declarations. That
is 0.3-0.4 s of CPU on every compile, most of a small kernel's compile. The
same headers parsed once into a PCH (`-Xclang -emit-pch` of an empty file
under the compile's own flags) and read back with `-Xclang -include-pch`
take a compile of a small kernel from 0.42 to 0.12 s; the driver's own
`-include` of the wrapper then stops at its include guard.

What it changes in the IR: nothing in the code (the same functions,
instructions, attributes and TBAA); the debug info of a `-g` compile lacks
the `DIImportedEntity` nodes of the `using` declarations in the C++
headers, which clang emits only for declarations it parsed, not for those
it reads back. `line_tables_only` drops them anyway before llc.

- The key: the compile's command less its source and output, the working
  directory where the command names a relative path (`-I inc`), the
  environment of clang's header search and clang's identity. Flags that
  could change what the wrapper expands to (`-D`, `-I`, `-std`, `-O`,
  `--cuda-gpu-arch`, `-g`) are all in the command.
- Built on a compile's first use of its key, under a lock (the other
  processes of a parallel build wait for it rather than build it too), to
  a temporary name then renamed.
- clang checks a PCH against the files it was built from (size and
  modification time) and against the compile's language options, and stops
  with an error when they differ. A compile that fails with a PCH is run
  again without it (`compile.compile_to_ir`): a user's own error is
  reported from that run, as without a PCH; one that only the PCH made
  removes it, and the next compile builds it again.

Where: `$COALDA_PCH` if set (`off` turns it off), else `pch/` in COALDA's
cache directory. About 7 MB a key; the least recently used go first past
`LIMIT_BYTES`.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .ir_cache import chosen_directory, compile_key, prune_files

LIMIT_BYTES = 256 << 20
# Options whose value is a path a header search or an include reads.
_PATH_OPTIONS = ("-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "--sysroot", "-isysroot")


def pch_root() -> Path | None:
    """The PCH directory, or None when PCHs are turned off."""
    return chosen_directory("COALDA_PCH", "pch")


def _relative_paths(flags: Sequence[str]) -> bool:
    """Whether FLAGS name a path relative to the working directory (`-I inc`,
    `-Iinc`, `-include x.h`, ...): only then is the directory part of the
    key (the tests run their compiles from a directory of their own each,
    with absolute paths: one PCH serves them all)."""
    for k, flag in enumerate(flags[1:], start=1):
        for option in _PATH_OPTIONS:
            if flag == option and k + 1 < len(flags):
                path = flags[k + 1]
            elif flag.startswith(option) and flag != option:
                path = flag[len(option):].removeprefix("=")
            else:
                continue
            if not os.path.isabs(path):
                return True
    return any(flag.startswith("--cuda-path=") and not os.path.isabs(flag.split("=", 1)[1]) for flag in flags)


def _key(flags: Sequence[str], clang: Path) -> str:
    return compile_key(flags, os.getcwd() if _relative_paths(flags) else "", [clang])


def _build(flags: Sequence[str], pch: Path, header: Path) -> bool:
    """The PCH of FLAGS' wrapper at PCH, from the empty HEADER; whether it
    was built. A PCH that clang cannot build (a flag it refuses with
    -emit-pch) leaves the compile as it was."""
    if not header.exists():  # kept as it was: the PCHs built from it record its time
        header.write_bytes(b"")
    fd, scratch = tempfile.mkstemp(dir=pch.parent, prefix=f".{pch.name}.")
    os.close(fd)
    try:
        done = subprocess.run([*flags, "-Xclang", "-emit-pch", str(header), "-o", scratch],
                              capture_output=True).returncode == 0
        if done:
            os.replace(scratch, pch)
        return done
    finally:
        Path(scratch).unlink(missing_ok=True)


def prune(root: Path, limit: int = LIMIT_BYTES) -> None:
    """Remove the least recently used PCHs until ROOT holds at most LIMIT
    bytes."""
    prune_files(root.glob("*.pch"), limit)


def header_pch(flags: Sequence[str], clang: Path) -> Path | None:
    """The PCH for a compile whose command, less its source and output, is
    FLAGS (a clang driver command of `-x cuda --cuda-device-only`); built
    here on first use. None when PCHs are off or it cannot be built."""
    root = pch_root()
    if root is None:
        return None
    key = _key(flags, clang)
    pch = root / f"{key}.pch"
    try:
        root.mkdir(parents=True, exist_ok=True)
        if pch.exists():
            os.utime(pch)  # recently used: pruned last
            return pch
        with open(root / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not pch.exists():
                if not _build(flags, pch, root / f"{key}.cuh"):
                    return None
                prune(root)
        return pch
    except OSError:
        return None


def discard(pch: Path) -> None:
    """PCH made a compile fail that succeeds without it: the next compile
    builds it again."""
    pch.unlink(missing_ok=True)
