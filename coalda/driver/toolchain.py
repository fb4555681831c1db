"""Locate LLVM 19, the COALDA plugin and a CUDA tree once, with env overrides.

Overrides: COALDA_CLANG, COALDA_OPT, COALDA_LLC, COALDA_FILECHECK, COALDA_PLUGIN,
COALDA_CUDA_PATH. The CUDA tree defaults to the NVIDIA CUDA 12 wheels installed
with this package, merged (by symlinks) into COALDA_CACHE (default
~/.cache/coalda) on first use: no network access at run time.
"""

from __future__ import annotations

import fcntl
import functools
import importlib.metadata
import importlib.util
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import ToolNotFound

LLVM_BIN = Path("/usr/lib/llvm-19/bin")
REPO_ROOT = Path(__file__).resolve().parents[2]  # coalda/driver/toolchain.py
INSTALL_LLVM = "install LLVM 19 with `apt-get install clang-19 llvm-19-dev llvm-19-tools` (or run `make setup`)"
CUDA_WHEELS = ("cuda_runtime", "cuda_nvcc", "cuda_cccl", "curand")
CUDA_DISTS = (
    "nvidia-cuda-runtime-cu12",
    "nvidia-cuda-nvcc-cu12",
    "nvidia-cuda-cccl-cu12",
    "nvidia-curand-cu12",
)


@dataclass(frozen=True)
class Toolchain:
    clang: Path
    opt: Path
    llc: Path
    plugin: Path


def _find(tool: str, env: str, names: tuple[str, ...], install: str) -> Path:
    override = os.environ.get(env)
    if override:
        path = Path(override)
        if path.is_file() and os.access(path, os.X_OK):
            return path
        raise ToolNotFound(tool, [f"${env}={override}"], f"fix ${env} or unset it")
    looked: list[str] = []
    for name in names:
        found = shutil.which(name)
        looked.append(f"PATH:{name}")
        if found:
            return Path(found)
    for name in names:
        candidate = LLVM_BIN / name.removesuffix("-19")
        looked.append(str(candidate))
        if candidate.is_file():
            return candidate
    raise ToolNotFound(tool, looked, install)


def find_nvcc() -> Path | None:
    """nvcc, only to time `nvcc -O3` as a baseline in `coalda bench` (on the
    GPU machine); None where it is not installed. COALDA_NVCC overrides."""
    override = os.environ.get("COALDA_NVCC")
    if override:
        path = Path(override)
        if path.is_file() and os.access(path, os.X_OK):
            return path
        raise ToolNotFound("nvcc", [f"$COALDA_NVCC={override}"], "fix $COALDA_NVCC or unset it")
    found = shutil.which("nvcc")
    return Path(found) if found else None


def find_clang() -> Path:
    return _find("clang++-19", "COALDA_CLANG", ("clang++-19",), INSTALL_LLVM)


def find_opt() -> Path:
    return _find("opt-19", "COALDA_OPT", ("opt-19",), INSTALL_LLVM)


def find_llc() -> Path:
    return _find("llc-19", "COALDA_LLC", ("llc-19",), INSTALL_LLVM)


def find_filecheck() -> Path:
    return _find("FileCheck", "COALDA_FILECHECK", ("FileCheck-19",), INSTALL_LLVM)


def find_ptxas() -> Path:
    """The CUDA 12 tree's ptxas (cuda_path(): $COALDA_CUDA_PATH or the wheels)."""
    ptxas = cuda_path() / "bin" / "ptxas"
    if not ptxas.is_file():
        raise ToolNotFound("ptxas", [str(ptxas)], "install the CUDA 12 wheels with `pip install -e .` or fix "
                           "$COALDA_CUDA_PATH")
    return ptxas


def find_plugin() -> Path:
    override = os.environ.get("COALDA_PLUGIN")
    if override:
        if Path(override).is_file():
            return Path(override)
        raise ToolNotFound("libCoalda.so", [f"$COALDA_PLUGIN={override}"], "fix $COALDA_PLUGIN or unset it")
    built = REPO_ROOT / "build" / "libCoalda.so"
    if built.is_file():
        return built
    raise ToolNotFound("libCoalda.so", [str(built)], "build it with `make build`")


@functools.cache
def toolchain() -> Toolchain:
    """The tools, looked up once per process."""
    return Toolchain(clang=find_clang(), opt=find_opt(), llc=find_llc(), plugin=find_plugin())


def cache_dir() -> Path:
    """COALDA's cache directory: $COALDA_CACHE, else $XDG_CACHE_HOME/coalda or
    ~/.cache/coalda (the merged CUDA tree, the IR cache)."""
    if os.environ.get("COALDA_CACHE"):
        return Path(os.environ["COALDA_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "coalda"


def _wheel_dirs() -> list[Path]:
    dirs = []
    for name in CUDA_WHEELS:
        try:
            spec = importlib.util.find_spec(f"nvidia.{name}")
        except ModuleNotFoundError:  # no nvidia.* wheel at all
            spec = None
        if spec is None or not spec.submodule_search_locations:
            raise ToolNotFound(
                f"CUDA 12 headers (nvidia.{name})",
                ["the Python environment"],
                "install them with `pip install -e .` (or run `make setup`), or set COALDA_CUDA_PATH",
            )
        dirs.append(Path(list(spec.submodule_search_locations)[0]))
    return dirs


def cuda_version(tree: Path) -> int | None:
    """TREE's CUDA_VERSION (12050 for 12.5) from its include/cuda.h; None
    where there is none to read."""
    try:
        text = (tree / "include" / "cuda.h").read_text(errors="replace")
    except OSError:
        return None
    match = re.search(r"^#define\s+CUDA_VERSION\s+(\d+)", text, re.MULTILINE)
    return int(match.group(1)) if match else None


# CMake's CUDA language with a Clang compiler (coalda-cc) takes its CUDA
# toolkit from an nvcc, CUDAToolkit_ROOT's bin/nvcc first: it runs `nvcc -v
# __cmake_determine_cuda` for the `#$ TOP=` root and `nvcc --version` for the
# toolkit's version, and stops unless the root has a lib64/ (or lib/). The
# wheels ship no nvcc, so the merged tree gets this stand-in, which answers
# those two questions about the tree and compiles nothing. lib64/ stays
# empty: coalda cc links the runtime wheel's libcudart.so.12 itself, with the
# run-path pointing at the wheel.
_NVCC_STAND_IN = """#!/bin/sh
# coalda's stand-in for nvcc in its CUDA 12 tree (NVIDIA's wheels ship none):
# it answers CMake's toolkit questions when CUDAToolkit_ROOT names this tree.
top=$(cd "$(dirname "$0")/.." && pwd)
case "$1" in
  --version|-V)
    echo "coalda's stand-in for nvcc in the CUDA tree $top; compile with coalda-cc"
    echo "Cuda compilation tools, release {release}, V{version}"
    exit 0 ;;
  -v)
    echo "#\\$ TOP=$top"
    echo "#\\$ NVVMIR_LIBRARY_DIR=$top/nvvm/libdevice" ;;
esac
echo "nvcc: coalda's stand-in for CMake's toolkit questions, not a compiler: compile with coalda-cc" >&2
exit 1
"""


def _add_cmake_toolkit_files(tree: Path) -> None:
    """The stand-in nvcc and the lib64/ CMake needs of a toolkit root (above)."""
    try:  # 12.5.82: the release whose ptxas and libdevice the tree holds
        version = importlib.metadata.version("nvidia-cuda-nvcc-cu12")
    except importlib.metadata.PackageNotFoundError:
        number = cuda_version(tree) or 0
        version = f"{number // 1000}.{number % 1000 // 10}.0"
    release = ".".join(version.split(".")[:2])
    nvcc = tree / "bin" / "nvcc"
    nvcc.parent.mkdir(parents=True, exist_ok=True)
    # written aside and renamed: other processes may be reading this tree
    fd, tmp = tempfile.mkstemp(prefix=".nvcc-", dir=nvcc.parent)
    with os.fdopen(fd, "w") as out:
        out.write(_NVCC_STAND_IN.replace("{release}", release).replace("{version}", version))
    os.chmod(tmp, 0o755)
    os.replace(tmp, nvcc)
    (tree / "lib64").mkdir(exist_ok=True)


def _stamp() -> str:
    versions = []
    for dist in CUDA_DISTS:
        try:
            versions.append(f"{dist}=={importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{dist}==?")
    return "\n".join(versions) + "\n"


def _link_tree(sources: list[Path], staging: Path) -> None:
    """Link the include, bin and nvvm files of SOURCES (the wheels) into STAGING."""
    for source in sources:
        for sub in ("include", "bin", "nvvm"):
            root = source / sub
            if not root.is_dir():
                continue
            for dirpath, _dirnames, filenames in os.walk(root):
                rel = Path(dirpath).relative_to(source)
                (staging / rel).mkdir(parents=True, exist_ok=True)
                for filename in filenames:
                    link = staging / rel / filename
                    if not link.exists():
                        link.symlink_to(Path(dirpath) / filename)


@functools.cache
def cuda_path() -> Path:
    """A --cuda-path tree: $COALDA_CUDA_PATH, else the merged CUDA 12 wheels."""
    override = os.environ.get("COALDA_CUDA_PATH")
    if override:
        path = Path(override)
        if (path / "include" / "cuda.h").is_file():
            return path
        raise ToolNotFound("CUDA headers", [f"$COALDA_CUDA_PATH={override}/include/cuda.h"], "fix $COALDA_CUDA_PATH or unset it")
    sources = _wheel_dirs()
    target = cache_dir() / "cuda-12"
    stamp = _stamp()
    if _current(target, stamp):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # One maker at a time: a second process that found no tree waits here and
    # then takes the first one's. A tree with the current stamp is never
    # removed, so a process that found it current (without the lock) may use it
    # while another runs.
    with open(target.parent / "cuda-12.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _current(target, stamp):
            _make_tree(sources, target, stamp)
    return target


def _current(target: Path, stamp: str) -> bool:
    stamp_file = target / ".coalda-stamp"
    if not (stamp_file.is_file() and stamp_file.read_text() == stamp):
        return False
    if not (target / "bin" / "nvcc").is_file():  # a tree made before the stand-in: added in place
        _add_cmake_toolkit_files(target)
    return True


def _make_tree(sources: list[Path], target: Path, stamp: str) -> None:
    staging = Path(tempfile.mkdtemp(prefix=".cuda-", dir=target.parent))
    try:
        _link_tree(sources, staging)
        _add_cmake_toolkit_files(staging)
        (staging / ".coalda-stamp").write_text(stamp)
    except BaseException:  # an error or Ctrl-C: no half-made tree left in the cache
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if target.exists():  # a stale tree (other wheels): nobody may use it now
        shutil.rmtree(target)
    staging.rename(target)
