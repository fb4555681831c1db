"""`coalda cc`: a drop-in CUDA compiler — clang++-19 with the COALDA plugin on
the device side, the CUDA 12 tree and -O3 — that builds objects and executables.

clang-19's own whole-program CUDA flow ends in NVIDIA's `fatbinary`, which the
CUDA 12 wheels do not ship (CUDA 13's rejects clang-19's options), and its new
offload driver (clang-linker-wrapper) calls the same `fatbinary`. So `coalda cc`
drives clang in its documented steps and writes the fat binary itself:

1. device: for each --cuda-gpu-arch, `clang++-19 --cuda-device-only -S` with
   `-fpass-plugin=libCoalda.so` gives PTX; the wheel's `ptxas` assembles it to
   a cubin;
2. the cubins and PTX go into one fat binary container (`fatbin()`, the layout
   NVIDIA's `fatbinary --compress=false` writes; tests compare it byte for byte
   where a `fatbinary` is installed);
3. host: `clang++-19 --cuda-host-only -Xclang -fcuda-include-gpubinary FATBIN -c`
   embeds it and registers the kernels with the CUDA runtime, the way clang's own
   flow does;
4. link: `clang++-19` with the CUDA 12 runtime (`libcudart.so.12` from the
   nvidia-cuda-runtime-cu12 wheel, which ships no static cudart), run-path set
   to the wheel's directory.

Flags are clang's: everything that is not an input, `-o`, `-x`, a mode (`-c`),
an architecture, a dependency-file flag or a link-only flag is passed to every
compile step; the link step gets the link flags in their original order.
`-fno-coalda` builds the same way without the plugin (the baseline);
the launches of flat copies and transposes are reshaped where that pays
(launches.py), `-fcoalda-reshape` adds the run-time choice of every other
rewrite against its code as written, `-fno-coalda-reshape` keeps every
launch as written;
`-Wcoalda` prints what the pass did to each file's kernels, a line per
rewrite and per refusal with its reason, and a count. nvcc's
common spellings are translated first (`nvcc_to_clang`): `-use_fast_math`,
`-Xcompiler`, `-Xptxas`, `-gencode`, `-lineinfo`, `-maxrregcount`, and the
lambda and constexpr switches clang needs none of; `-G` and `-ccbin` are
refused in one line that names the replacement.

CMake's CUDA language takes `coalda-cc` for Clang (`--version`) and passes
the root of the toolkit whose nvcc it found as `--cuda-path=` and that
toolkit's runtime as `-lcudadevrt -lcudart_static`: a tree of a CUDA clang-19
cannot compile with (13 and later) gives way to coalda's CUDA 12 tree, and
the runtime libraries to the CUDA 12 runtime coalda cc links.
`--print-cuda-path` prints the tree, which holds a stand-in nvcc for
CMake's `-DCUDAToolkit_ROOT=` (coalda/driver/toolchain.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import click

from . import launches, pch, registers
from .compile import ARCHES
from ..errors import CoaldaError, ToolFailed, ToolNotFound
from ..report import launch_said
from .toolchain import cuda_path, cuda_version, find_clang, find_plugin

DEFAULT_ARCH = "sm_90"

# clang options whose value is the next argument.
_SEPARATE_VALUE = frozenset({
    "-o", "-x", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote",
    "-isysroot", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-cxx-isystem", "-MF", "-MT",
    "-MQ", "-L", "-l", "-Xclang", "-Xlinker", "-mllvm", "-target", "-arch", "-Xcuda-ptxas",
    "-Xarch_device", "-Xarch_host", "-Xpreprocessor", "-Xassembler", "-z", "-u", "-T", "-F",
    "--sysroot", "-include-pch", "-ivfsoverlay", "--param", "-Xcuda-fatbinary",
})
# Options that only the final link uses.
_LINK_ONLY_SEPARATE = frozenset({"-L", "-l", "-Xlinker", "-z", "-u", "-T"})
_LINK_ONLY_FLAGS = frozenset({
    "-shared", "-static", "-rdynamic", "-pie", "-no-pie", "-nostdlib", "-nodefaultlibs",
    "-nostartfiles", "-s", "-static-libstdc++", "-static-libgcc", "-shared-libgcc",
})
_LINK_ONLY_PREFIXES = ("-L", "-l", "-Wl,", "-fuse-ld=", "--ld-path=")
# Dependency-file options: the host compile of a CUDA source writes the .d file.
_DEP_FLAGS = frozenset({"-MD", "-MMD", "-MP", "-MG"})
_DEP_SEPARATE = frozenset({"-MF", "-MT", "-MQ"})
# Anything else than "compile to an object" or "link": clang does it alone.
_OTHER_MODES = frozenset({
    "-E", "-S", "-M", "-MM", "-fsyntax-only", "--cuda-device-only", "--cuda-host-only",
    "-emit-llvm", "-###", "--precompile", "--analyze",
})
_UNSUPPORTED = {
    "-fgpu-rdc": "relocatable device code needs NVIDIA's nvlink, which coalda cc does not use",
    "-fcuda-rdc": "relocatable device code needs NVIDIA's nvlink, which coalda cc does not use",
    "--offload-new-driver": "clang's new offload driver calls NVIDIA's fatbinary; coalda cc writes the fat binary itself",
    "-Xcuda-fatbinary": "coalda cc writes the fat binary itself, without NVIDIA's fatbinary",
}
# CMake's CUDA_RUNTIME_LIBRARY for a Clang CUDA compiler (-lcudadevrt
# -lcudart_static by default, -lcudart for Shared), from the toolkit of the
# nvcc CMake found: coalda cc links the CUDA 12 runtime that matches the tree
# it compiled with itself (Tools.link_flags), and a CUDA 13 toolkit's
# libcudart_static.a would otherwise serve every call, a runtime other than
# the headers'. cudadevrt is relocatable device code's, which is refused.
_CUDA_RUNTIME_LIBS = frozenset({"cudart", "cudart_static", "cudadevrt"})
# The newest CUDA clang-19 compiles with: 12 (12.5 fully, up to 12.9 with
# -Wno-unknown-cuda-version). CUDA 13 removed headers that clang-19's CUDA
# wrapper includes ('texture_fetch_functions.h' file not found).
NEWEST_CUDA_MAJOR = 12
CUDA_SUFFIXES = frozenset({".cu"})
SOURCE_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".cp", ".C", ".i", ".ii", ".s", ".S", ".m", ".mm"})

Mode = Literal["link", "compile", "clang"]


@dataclass
class Input:
    """A file on the command line: a source (CUDA or other) or a link input."""

    path: str
    language: str | None  # the -x in force, None when the suffix decides

    @property
    def is_cuda(self) -> bool:
        return self.language == "cuda" or (self.language is None and Path(self.path).suffix in CUDA_SUFFIXES)

    @property
    def is_source(self) -> bool:
        return self.is_cuda or self.language is not None or Path(self.path).suffix in SOURCE_SUFFIXES


@dataclass
class Invocation:
    """A `coalda cc` command line, sorted into what each step needs."""

    argv: list[str]
    mode: Mode = "link"
    output: str | None = None
    arches: list[str] = field(default_factory=list)
    cuda_path: str | None = None
    # A --cuda-path too new for clang-19, given in its place: CMake's CUDA
    # language passes the root of the toolkit whose nvcc it found (CUDA 13's
    # on a machine with that nvcc); coalda cc compiles with its own tree.
    ignored_cuda_path: str | None = None
    coalda: bool = True
    # the launches the build takes over (launches.py): grid variants and the
    # register limit's twins by default; -fcoalda-reshape adds the run-time
    # choice of every other rewrite, -fno-coalda-reshape none
    launch_control: launches.LaunchControl = launches.LaunchControl.GRID_VARIANTS
    print_cuda_path: bool = False  # --print-cuda-path: the tree, for CMake's CUDAToolkit_ROOT
    verbose: bool = False
    opt_level: str | None = None  # the last -O given, None for the default -O3
    compile_flags: list[str] = field(default_factory=list)  # every compile step
    dep_flags: list[str] = field(default_factory=list)  # the host compile (the .d file)
    device_flags: list[str] = field(default_factory=list)  # the device compile only (-mllvm -coalda-*, -Xarch_device)
    ptxas_flags: list[str] = field(default_factory=list)
    summary: bool = False  # -Wcoalda: a line per rewrite and refusal, on stderr
    # The link line in order: ("input", index into inputs) or ("flag", text).
    link_items: list[tuple[str, str | int]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    # For the modes clang runs alone: the arguments with -arch translated and
    # -f[no-]coalda removed.
    clang_args: list[str] = field(default_factory=list)


def expand_response_files(argv: Sequence[str]) -> list[str]:
    """@FILE arguments (CMake uses them for long lines) read as shell words."""
    out: list[str] = []
    for arg in argv:
        if arg.startswith("@") and len(arg) > 1:
            path = Path(arg[1:])
            try:
                text = path.read_text()
            except OSError as exc:
                raise CoaldaError(f"cannot read response file {path}: {exc.strerror}") from None
            out += expand_response_files(shlex.split(text))
        else:
            out.append(arg)
    return out


# nvcc's spellings, as Makefiles and CMake's CUDA rules pass them, in clang's
# words. Passed on as they are, clang would read some as something else:
# `-use_fast_math` as `-u se_fast_math` (a linker symbol), a silently
# different build.
_FAST_MATH = ["-ffast-math", "-fgpu-approx-transcendentals", "-Xarch_device", "-fgpu-flush-denormals-to-zero"]
_NVCC_FLAGS: dict[str, list[str]] = {
    "-use_fast_math": _FAST_MATH, "--use_fast_math": _FAST_MATH,
    # clang: constexpr functions are host and device already, lambdas too
    "--expt-relaxed-constexpr": [], "-expt-relaxed-constexpr": [],
    "--extended-lambda": [], "-extended-lambda": [], "--expt-extended-lambda": [], "-expt-extended-lambda": [],
    "-lineinfo": ["-gline-tables-only"], "--generate-line-info": ["-gline-tables-only"],
}
_NVCC_REFUSED = {
    "-G": "nvcc's -G (device debugging) has no clang equivalent here: use -g -O0",
    "--device-debug": "nvcc's --device-debug has no clang equivalent here: use -g -O0",
    "-ccbin": "clang++-19 compiles the host side: drop -ccbin",
    "--compiler-bindir": "clang++-19 compiles the host side: drop --compiler-bindir",
}
# nvcc options whose value is a comma-separated list for another tool.
_NVCC_LISTS = {"-Xcompiler": "-Xarch_host", "--compiler-options": "-Xarch_host",
               "-Xptxas": "-Xcuda-ptxas", "--ptxas-options": "-Xcuda-ptxas"}
_NVCC_GENCODE = ("-gencode", "--generate-code")
_NVCC_MAXRREG = ("-maxrregcount", "--maxrregcount")


def _gencode_arches(value: str) -> list[str]:
    """`arch=compute_90,code=[sm_90,compute_90]` -> ["sm_90"]: the GPUs its
    code= names (a compute_XX is PTX for sm_XX)."""
    m = re.search(r"code=\[?([\w,]+)\]?", value) or re.search(r"arch=(\w+)", value)
    if not m:
        raise CoaldaError(f"cannot read -gencode {value!r}; expected arch=compute_XX,code=sm_XX")
    arches = [re.sub(r"^compute_", "sm_", c) for c in m[1].split(",") if c]
    return list(dict.fromkeys(_arch(a) for a in arches))


def nvcc_to_clang(args: Sequence[str]) -> list[str]:
    """ARGS with nvcc's options in clang's spelling; one line for those that
    have no equivalent."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, joined = arg.partition("=")
        takes_value = name in _NVCC_LISTS or name in _NVCC_GENCODE or name in _NVCC_MAXRREG or name == "-ccbin"
        value = joined if eq else (args[i + 1] if takes_value and i + 1 < len(args) else None)
        i += 1 if eq or not takes_value else 2
        if takes_value and value is None:
            raise CoaldaError(f"argument to {arg!r} is missing (expected 1 value)")
        if name in _NVCC_REFUSED:
            raise CoaldaError(f"{name} is not supported: {_NVCC_REFUSED[name]}")
        if arg in _NVCC_FLAGS:
            out += _NVCC_FLAGS[arg]
        elif name in _NVCC_LISTS:
            for item in filter(None, str(value).split(",")):
                # clang forwards no -O through -Xarch_host: coalda cc's one -O
                # serves both sides
                out += [item] if item.startswith("-O") else [_NVCC_LISTS[name], item]
        elif name in _NVCC_GENCODE:
            out += [f"--cuda-gpu-arch={a}" for a in _gencode_arches(str(value))]
        elif name in _NVCC_MAXRREG:
            out += ["-Xcuda-ptxas", f"--maxrregcount={value}"]
        else:
            out.append(arg)
    return out


def _arch(value: str) -> str:
    if value not in ARCHES:
        raise CoaldaError(f"unknown GPU architecture {value!r}; use one of {', '.join(ARCHES)}")
    return value


def parse_args(argv: Sequence[str]) -> Invocation:
    """Sort clang-style arguments into an Invocation; refuse what cannot be built."""
    args = nvcc_to_clang(expand_response_files(argv))
    inv = Invocation(argv=list(args))
    language: str | None = None
    saw_other_mode = False
    i = 0
    while i < len(args):
        arg = args[i]
        value: str | None = None
        if arg in _SEPARATE_VALUE:
            if i + 1 >= len(args):
                raise CoaldaError(f"argument to {arg!r} is missing (expected 1 value)")
            value = args[i + 1]
            i += 2
        else:
            i += 1
        name = arg.split("=", 1)[0]
        if arg == "-arch" or name == "-arch":
            inv.clang_args.append(f"--cuda-gpu-arch={value if arg == '-arch' else arg.split('=', 1)[1]}")
        elif arg not in ("-fcoalda", "-fno-coalda", "-fcoalda-reshape", "-fno-coalda-reshape", "-Wcoalda",
                         "--print-cuda-path") and name != "--cuda-path":
            # (_passthrough gives clang the --cuda-path coalda cc uses)
            inv.clang_args += [arg] + ([value] if value is not None else [])
        if name in _UNSUPPORTED or arg in ("-rdc=true", "--relocatable-device-code=true"):
            raise CoaldaError(f"{arg} is not supported: {_UNSUPPORTED.get(name, _UNSUPPORTED['-fgpu-rdc'])}")
        if not arg.startswith("-") or arg == "-":
            if arg == "-":
                raise CoaldaError("reading a source from standard input is not supported; name a file")
            inv.inputs.append(Input(arg, language))
            inv.link_items.append(("input", len(inv.inputs) - 1))
        elif arg == "-o":
            inv.output = value
        elif arg.startswith("-o") and len(arg) > 2:
            inv.output = arg[2:]
        elif arg == "-x":
            language = None if value == "none" else value
        elif arg.startswith("-x") and len(arg) > 2:
            language = None if arg[2:] == "none" else arg[2:]
        elif arg == "-c":
            inv.mode = "compile"
        elif arg in _OTHER_MODES:
            saw_other_mode = True
        elif arg == "-arch":
            inv.arches.append(_arch(str(value)))
        elif name in ("-arch", "--cuda-gpu-arch", "--offload-arch", "--gpu-architecture"):
            inv.arches += [_arch(a) for a in arg.split("=", 1)[1].split(",") if a]
        elif name == "--cuda-path":
            given = arg.split("=", 1)[1]
            version = cuda_version(Path(given))
            if version is not None and version // 1000 > NEWEST_CUDA_MAJOR:
                inv.cuda_path, inv.ignored_cuda_path = None, given
            else:
                inv.cuda_path, inv.ignored_cuda_path = given, None
        elif arg == "--print-cuda-path":
            inv.print_cuda_path = True
        elif arg == "-fno-coalda":
            inv.coalda = False
        elif arg == "-fcoalda":
            inv.coalda = True
        elif arg in ("-fcoalda-reshape", "-fno-coalda-reshape"):
            inv.launch_control = (launches.LaunchControl.CHOICE if arg == "-fcoalda-reshape"
                                  else launches.LaunchControl.OFF)
        elif arg == "-Wcoalda":
            inv.summary = True
        elif arg == "-v":
            inv.verbose = True
            inv.compile_flags.append(arg)
            inv.link_items.append(("flag", arg))
        elif arg.startswith("-O"):
            inv.opt_level = arg
        elif arg == "-Xcuda-ptxas":
            inv.ptxas_flags.append(str(value))
        elif arg == "-Xarch_device":  # the device compile alone (the host would warn it unused)
            inv.device_flags.append(str(value))
        elif arg == "-Xarch_host":  # the host compile; its link takes the flag itself (-fopenmp)
            inv.compile_flags += [arg, str(value)]
            inv.link_items.append(("flag", str(value)))
        elif arg == "-mllvm" and str(value).startswith("-coalda"):
            inv.device_flags += [arg, str(value)]
        elif arg in _DEP_FLAGS or arg in _DEP_SEPARATE or arg[:3] in _DEP_SEPARATE:
            inv.dep_flags += [arg] + ([str(value)] if value is not None else [])
        elif (arg == "-l" and value in _CUDA_RUNTIME_LIBS) or (arg.startswith("-l") and arg[2:] in _CUDA_RUNTIME_LIBS):
            pass  # coalda cc links its own CUDA runtime (_CUDA_RUNTIME_LIBS says why)
        elif arg in _LINK_ONLY_SEPARATE or arg in _LINK_ONLY_FLAGS or arg.startswith(_LINK_ONLY_PREFIXES):
            inv.link_items += [("flag", arg)] + ([("flag", str(value))] if value is not None else [])
        else:  # a compile flag, which the link step gets too (-pthread, -fopenmp, --target)
            pair = [arg] + ([str(value)] if value is not None else [])
            inv.compile_flags += pair
            inv.link_items += [("flag", p) for p in pair]
    if saw_other_mode or not inv.inputs:
        inv.mode = "clang"
    if not inv.arches:
        inv.arches = [DEFAULT_ARCH]
    inv.arches = list(dict.fromkeys(inv.arches))
    if inv.mode == "compile":
        sources = [inp for inp in inv.inputs if inp.is_source]
        if inv.output and len(sources) > 1:
            raise CoaldaError("cannot specify -o with -c and several source files")
    for inp in inv.inputs:
        if not Path(inp.path).is_file():
            raise CoaldaError(f"no such file: {inp.path}")
    return inv


# --- the fat binary container ---------------------------------------------

FATBIN_MAGIC = 0xBA55ED50
_ENTRY_VERSION = 0x0101
_KIND = {"ptx": 1, "elf": 2}
_KIND_NAME = {1: "ptx", 2: "elf"}
_FLAGS_64BIT_LINUX = 0x11  # 64-bit code (0x1) for a Linux host (0x10)
_FLAG_ARCH_SPECIFIC = 0x100000  # an sm_XXa image
_FLAG_COMPRESSED = 0x2000
_ELF_VERSION_FIELD = 0x00010007  # what NVIDIA's fatbinary writes for every cubin


@dataclass(frozen=True)
class FatbinImage:
    """One image of a fat binary: a cubin (`elf`) or PTX text for one SM."""

    kind: Literal["elf", "ptx"]
    sm: int
    data: bytes
    arch_specific: bool = False  # sm_90a: code for that one architecture

    @classmethod
    def for_arch(cls, kind: Literal["elf", "ptx"], arch: str, data: bytes) -> FatbinImage:
        return cls(kind, sm_number(arch), data, arch.endswith("a"))


def sm_number(arch: str) -> int:
    """sm_90 -> 90, sm_90a -> 90."""
    match = re.fullmatch(r"(?:sm|compute)_(\d+)a?", arch)
    if not match:
        raise CoaldaError(f"unknown GPU architecture {arch!r}")
    return int(match.group(1))


def _ptx_version(ptx: bytes) -> int:
    match = re.search(rb"^\s*\.version\s+(\d+)\.(\d+)", ptx, re.MULTILINE)
    if not match:
        raise CoaldaError("the PTX has no .version directive")
    return (int(match.group(1)) << 16) | int(match.group(2))


def _pad8(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 8)


def fatbin(images: Sequence[FatbinImage]) -> bytes:
    """An uncompressed fat binary holding IMAGES, laid out as NVIDIA's
    `fatbinary --compress=false` lays it out: a 16-byte container header, then
    per image a 64-byte (cubin) or 80-byte (PTX) header and the payload padded
    to 8 bytes (PTX with its terminating NUL)."""
    entries = []
    for image in images:
        flags = _FLAGS_64BIT_LINUX | (_FLAG_ARCH_SPECIFIC if image.arch_specific else 0)
        if image.kind == "elf":
            if image.data[:4] != b"\x7fELF":
                raise CoaldaError("a cubin image must be an ELF file")
            payload = _pad8(image.data)
            header = struct.pack(
                "<HHIQIIIIIIQQQ", _KIND["elf"], _ENTRY_VERSION, 64, len(payload), 0, 0,
                _ELF_VERSION_FIELD, image.sm, 0, 0, flags, 0, 0,
            )
        else:
            text = image.data.rstrip(b"\0")
            payload = _pad8(text + b"\0")
            # bytes 64..79: the (empty) ptxas options, at offset 72 of the header
            header = struct.pack(
                "<HHIQIIIIIIQQQIIQ", _KIND["ptx"], _ENTRY_VERSION, 80, len(payload), 0, 64,
                _ptx_version(text), image.sm, 0, 0, flags, 0, 0, 72, 0, 0,
            )
        entries.append(header + payload)
    body = b"".join(entries)
    return struct.pack("<IHHQ", FATBIN_MAGIC, 1, 16, len(body)) + body


def read_fatbin(data: bytes) -> list[FatbinImage]:
    """The images of one or more concatenated (8-byte aligned) fat binaries,
    such as an executable's .nv_fatbin section; compressed images are refused."""
    images: list[FatbinImage] = []
    offset = 0
    while offset + 16 <= len(data):
        magic, _version, header_size, size = struct.unpack_from("<IHHQ", data, offset)
        if magic != FATBIN_MAGIC:
            if data[offset:offset + 8] == b"\0" * 8:  # alignment padding
                offset += 8
                continue
            raise CoaldaError(f"not a fat binary at offset {offset}")
        end = offset + header_size + size
        entry = offset + header_size
        while entry < end:
            kind, _ev, entry_header, payload_size = struct.unpack_from("<HHIQ", data, entry)
            (sm,) = struct.unpack_from("<I", data, entry + 28)
            (flags,) = struct.unpack_from("<Q", data, entry + 40)
            if flags & _FLAG_COMPRESSED:
                raise CoaldaError("compressed fat binary images are not supported")
            payload = data[entry + entry_header:entry + entry_header + payload_size]
            if kind not in _KIND_NAME:
                raise CoaldaError(f"unknown fat binary image kind {kind}")
            name = _KIND_NAME[kind]
            content = payload.rstrip(b"\0") if name == "ptx" else payload
            images.append(FatbinImage(name, sm, content, bool(flags & _FLAG_ARCH_SPECIFIC)))  # type: ignore[arg-type]
            entry += entry_header + payload_size
        offset = end + (-end % 8)
    return images


def elf_section(path: Path, name: str) -> bytes | None:
    """The contents of section NAME of a 64-bit little-endian ELF file."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise CoaldaError(f"{path} is not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(index: int) -> tuple[int, int, int, int]:
        sh_name, sh_type, _flags, _addr, sh_offset, sh_size = struct.unpack_from("<IIQQQQ", data, shoff + index * shentsize)
        return sh_name, sh_type, sh_offset, sh_size

    _n, _t, str_offset, _s = header(shstrndx)
    for index in range(shnum):
        sh_name, sh_type, sh_offset, sh_size = header(index)
        end = data.index(b"\0", str_offset + sh_name)
        if data[str_offset + sh_name:end].decode() == name:
            return b"" if sh_type == 8 else data[sh_offset:sh_offset + sh_size]  # SHT_NOBITS
    return None


def embedded_images(path: Path) -> list[FatbinImage]:
    """The device images an executable or object built by `coalda cc` carries."""
    section = elf_section(path, ".nv_fatbin")
    return read_fatbin(section) if section else []


# --- the build ---------------------------------------------------------------


@dataclass(frozen=True)
class Tools:
    clang: Path
    plugin: Path | None
    cuda: Path
    ptxas: Path
    cudart: Path  # libcudart.so.12

    @property
    def link_flags(self) -> list[str]:
        lib = self.cudart.parent
        return ["-L", str(lib), "-Wl,--push-state,--as-needed", f"-l:{self.cudart.name}", "-Wl,--pop-state",
                f"-Wl,-rpath,{lib}"]


def find_cudart(cuda: Path) -> Path:
    """libcudart.so.12: the CUDA tree's lib64/ or lib/, else the runtime wheel's lib/."""
    looked = []
    for sub in ("lib64", "lib"):
        for name in ("libcudart.so.12", "libcudart.so"):
            candidate = cuda / sub / name
            looked.append(str(candidate))
            if candidate.is_file():
                return candidate
    try:
        spec = importlib.util.find_spec("nvidia.cuda_runtime")
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        candidate = Path(list(spec.submodule_search_locations)[0]) / "lib" / "libcudart.so.12"
        looked.append(str(candidate))
        if candidate.is_file():
            return candidate
    raise ToolNotFound("libcudart.so.12", looked, "install the CUDA runtime wheel with `pip install -e .`")


def cuda_tree(inv: Invocation) -> Path:
    """The CUDA tree to compile with: --cuda-path's, else coalda's CUDA 12
    tree (also in place of a --cuda-path too new for clang-19, which -v
    names)."""
    cuda = Path(inv.cuda_path) if inv.cuda_path else cuda_path()
    if inv.ignored_cuda_path and inv.verbose:
        version = cuda_version(Path(inv.ignored_cuda_path)) or 0
        print(f"coalda cc: --cuda-path={inv.ignored_cuda_path} is CUDA {version // 1000}.{version % 1000 // 10}, "
              f"which clang-19 cannot compile with; using {cuda}", file=sys.stderr, flush=True)
    return cuda


def tools_for(inv: Invocation) -> Tools:
    cuda = cuda_tree(inv)
    ptxas = cuda / "bin" / "ptxas"
    if not ptxas.is_file():
        raise ToolNotFound("ptxas", [str(ptxas)], "install the CUDA 12 wheels with `pip install -e .` or fix --cuda-path")
    return Tools(
        clang=find_clang(), plugin=find_plugin() if inv.coalda else None, cuda=cuda, ptxas=ptxas,
        cudart=find_cudart(cuda),
    )


def _run(cmd: Sequence[str | Path], what: str, verbose: bool) -> None:
    argv = [str(c) for c in cmd]
    if verbose:
        print("coalda cc: " + shlex.join(argv), file=sys.stderr, flush=True)
    try:
        code = subprocess.run(argv).returncode
    except OSError as exc:
        raise CoaldaError(f"{what}: cannot run {argv[0]}: {exc.strerror}") from None
    if code != 0:
        raise CoaldaError(f"{what} (exit {code}); see the diagnostics above")


def _common(inv: Invocation, tools: Tools) -> list[str]:
    return [f"--cuda-path={tools.cuda}", "-Wno-unknown-cuda-version", inv.opt_level or "-O3"]


def _without_host_only(flags: list[str]) -> list[str]:
    """FLAGS less the `-Xarch_host X` pairs (nvcc's -Xcompiler), which the
    device compile would only warn about as unused."""
    out: list[str] = []
    skip = False
    for flag in flags:
        if skip:
            skip = False
        elif flag == "-Xarch_host":
            skip = True
        else:
            out.append(flag)
    return out


def assemble_device(inv: Invocation, tools: Tools, source: Input, arch: str, ptx: Path, cubin: Path,
                    flags: list[str], device: list[str | Path], twins: bool = False) -> list[registers.Limited]:
    """PTX to CUBIN. A rewritten kernel that ptxas gives more than 64
    registers is compared with its original, compiled without the plugin
    (DEVICE, the plugin's flags left out): where the original takes at most
    64, it gets `.maxnreg 64` so that it still launches with 1024 threads
    (registers.py), and with TWINS a twin without the limit, which K's stub
    launches where a block of it fits (the bounded form of
    pass/runtime/LaunchGrid.cpp). Returns the limited kernels."""
    what = f"ptxas could not assemble the device code of {source.path} for {arch}"
    if inv.verbose:
        print("coalda cc: " + shlex.join(registers.ptxas_argv(tools.ptxas, ptx, arch, cubin, flags)),
              file=sys.stderr, flush=True)
    try:
        usage = registers.assemble(tools.ptxas, ptx, arch, cubin, flags)
        # at -O0 the plugin does not run (clang's pipeline has no place for it)
        if (tools.plugin is None or inv.opt_level == "-O0" or not registers.wanted(flags)
                or registers.within_limit(usage, arch)):
            return []
        original = ptx.with_suffix(".original.ptx")
        _run([*_without_plugin(device), "-S", source.path, "-o", original],
             f"clang++-19 could not compile the device code of {source.path} for {arch} without the plugin",
             inv.verbose)
        limited = registers.limit_crossings(tools.ptxas, original, ptx, arch, cubin, flags, usage,
                                            launches.SUFFIX if twins else "")
    except ToolFailed as exc:
        sys.stderr.write(exc.stderr)
        raise CoaldaError(f"{what} (exit {exc.returncode}); see the diagnostics above") from None
    if inv.summary:
        for x in limited:
            twin = ("; its stub launches it without the limit where the launch's block allows"
                    + (" (in place of its run-time choice)"
                       if inv.launch_control is launches.LaunchControl.CHOICE else "") if twins else "")
            print(f"{source.path}: coalda: kernel {x.symbol}: limited to {x.limit} registers (.maxnreg): "
                  f"it took {x.after} after the rewrite and {x.before} before, and would no longer launch with "
                  f"1024 threads{twin}", file=sys.stderr)
    return limited


def _without_plugin(device: list[str | Path]) -> list[str | Path]:
    """A device compile's command less the plugin's flags."""
    out: list[str | Path] = []
    skip = 0
    for k, arg in enumerate(device):
        if skip:
            skip -= 1
            continue
        text = str(arg)
        if text.startswith("-fpass-plugin="):
            continue
        if text == "-Xclang" and k + 3 < len(device) and str(device[k + 1]) == "-load":
            skip = 3  # -Xclang -load -Xclang PLUGIN
            continue
        if text == "-mllvm" and k + 1 < len(device) and str(device[k + 1]).startswith("-coalda"):
            skip = 1
            continue
        out.append(arg)
    return out


def _without_report(device: Sequence[str | Path]) -> list[str]:
    """A device compile's command less `-mllvm -coalda-report=PATH`, which
    names a file of this compile's own."""
    argv = [str(arg) for arg in device]
    out: list[str] = []
    for k, arg in enumerate(argv):
        if arg == "-mllvm" and k + 1 < len(argv) and argv[k + 1].startswith("-coalda-report="):
            continue
        if arg.startswith("-coalda-report=") and k > 0 and argv[k - 1] == "-mllvm":
            continue
        out.append(arg)
    return out


def _compile_with_pch(inv: Invocation, command: list[str | Path], target: list[str], what: str,
                      key: list[str] | None) -> None:
    """COMMAND + TARGET (a clang driver compile), with the PCH of clang's
    CUDA wrapper built from the flags KEY (pch.py) where there is one, or
    plain where KEY is None. A compile that fails with the PCH runs again
    without it, and only that run's diagnostics are shown; one that
    succeeds shows its own."""
    header = pch.header_pch(key, Path(command[0])) if key is not None else None
    if header is not None:
        argv = [*map(str, command), "-Xclang", "-include-pch", "-Xclang", str(header), *target]
        if inv.verbose:
            print("coalda cc: " + shlex.join(argv), file=sys.stderr, flush=True)
        try:
            proc = subprocess.run(argv, capture_output=True)
        except OSError:
            proc = None
        if proc is not None and proc.returncode == 0:
            sys.stdout.write(proc.stdout.decode(errors="replace"))
            sys.stderr.write(proc.stderr.decode(errors="replace"))
            return
    _run([*command, *target], what, inv.verbose)
    if header is not None:
        pch.discard(header)


def _debug_info(inv: Invocation) -> bool:
    """The user asks for debug info: a compile with a PCH would lack the
    `using` declarations of the C++ headers, which clang emits only for
    what it parsed (pch.py). No PCH then."""
    return any(str(flag).startswith(("-g", "-G")) and flag != "-gline-tables-only" for flag in inv.compile_flags)


def _host_pch_key(inv: Invocation, host: list[str | Path]) -> list[str] | None:
    """The flags of the host compile's PCH, or None where it takes none:
    with debug info, or a dependency file (it would name the PCH's header,
    in COALDA's cache, which a later `make` would look for)."""
    if inv.dep_flags or _debug_info(inv):
        return None
    return [*map(str, host), "-c"]


def _without_coalda_options(flags: list[str]) -> list[str]:
    """flags less each `-mllvm -coalda-*`: without the plugin (-fno-coalda)
    clang knows no such option, and a build that adds -fno-coalda to the
    same flags (the baseline of a comparison) must still compile."""
    kept: list[str] = []
    for flag in flags:
        if flag.startswith("-coalda") and kept and kept[-1] == "-mllvm":
            kept.pop()
        else:
            kept.append(flag)
    return kept


def compile_cuda(inv: Invocation, tools: Tools, source: Input, obj: Path, scratch: Path) -> None:
    """A .cu source to a host object that carries its device code."""
    images: list[FatbinImage] = []
    ptxas_opt = "-O0" if inv.opt_level == "-O0" else "-O3"
    control = inv.launch_control if tools.plugin is not None else launches.LaunchControl.OFF
    reshape = control is not launches.LaunchControl.OFF
    seen = launches.VariantsSeen()
    for arch in inv.arches:
        ptx = scratch / f"{Path(source.path).stem}.{arch}.ptx"
        cubin = ptx.with_suffix(".cubin")
        device = [
            tools.clang, "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={arch}", *_common(inv, tools),
            *_without_host_only(inv.compile_flags),
            *launches.device_flags(control),
            *(inv.device_flags if tools.plugin is not None else _without_coalda_options(inv.device_flags)),
        ]
        report = scratch / f"{Path(source.path).stem}.{arch}.coalda.json"
        if tools.plugin is not None:
            summary = inv.summary and arch == inv.arches[0]
            if reshape or any(f.startswith("-coalda") for f in inv.device_flags) or summary:
                # -mllvm -coalda-* are read before -fpass-plugin loads the
                # plugin: load it first, so that its options exist
                device += ["-Xclang", "-load", "-Xclang", str(tools.plugin)]
            device.append(f"-fpass-plugin={tools.plugin}")
            if summary:  # the source's names and lines in the reasons, not arg0
                device += ["-fno-discard-value-names", "-gline-tables-only", "-mllvm", f"-coalda-report={report}"]
        # the key: -S builds it by the device-only pipeline with no
        # assembler step; the report's path is this compile's own
        _compile_with_pch(inv, device, ["-S", source.path, "-o", str(ptx)],
                          f"clang++-19 could not compile the device code of {source.path} for {arch}",
                          None if _debug_info(inv) else [*_without_report(device), "-S"])
        if report.is_file():
            print_summary(source.path, json.loads(report.read_text()))
        elif inv.summary and arch == inv.arches[0] and tools.plugin is not None and inv.opt_level == "-O0":
            # the plugin joins clang's pipeline at -O1 and above only: at -O0
            # (optnone kernels, a debug build) it does not run, which
            # -Wcoalda says rather than printing nothing
            print(f"{source.path}: coalda: -O0 leaves the kernels as written (a debug build; the pass runs at "
                  f"-O1 and above, and `coalda analyze -O0 {source.path}` shows what it would rewrite)",
                  file=sys.stderr)
        seen.add_arch(ptx.read_text(errors="replace") if reshape else "")
        twins = reshape and launches.bounded_launches_wanted()
        limited = assemble_device(inv, tools, source, arch, ptx, cubin, [ptxas_opt, *inv.ptxas_flags], device,
                                  twins=twins)
        if twins:
            seen.add_twins({x.symbol for x in limited})
        images.append(FatbinImage.for_arch("elf", arch, cubin.read_bytes()))
        images.append(FatbinImage.for_arch("ptx", arch, ptx.read_bytes()))
    blob = scratch / f"{Path(source.path).stem}.fatbin"
    blob.write_bytes(fatbin(images))
    host: list[str | Path] = [
        tools.clang, "-x", "cuda", "--cuda-host-only", *[f"--cuda-gpu-arch={a}" for a in inv.arches],
        *_common(inv, tools), *inv.compile_flags,
    ]
    # the plugin's launch pass on the host side, outside the PCH's key (it
    # changes no declaration)
    relaunch = seen.host_flags(tools.plugin) if tools.plugin is not None else []
    _compile_with_pch(inv, [*host, *inv.dep_flags, *relaunch, "-Xclang", "-fcuda-include-gpubinary", "-Xclang", blob],
                      ["-c", source.path, "-o", str(obj)], f"clang++-19 could not compile the host code of {source.path}",
                      _host_pch_key(inv, host))


def summary_lines(path: str, pass_report: dict) -> list[str]:
    """-Wcoalda: what the pass did to PATH's kernels, a line per rewrite and
    per refusal with its reason (as -Rpass would), then a count."""
    lines: list[str] = []
    done = left = 0
    for kernel in pass_report.get("kernels", []):
        for item in [*kernel.get("groups", []), *kernel.get("stagings", [])]:
            verdict = "rewrote" if item["transformed"] else "left alone"
            done += item["transformed"]
            left += not item["transformed"]
            where = f"{path}:{item['line']}" if item.get("line") else path
            lines.append(f"{where}: coalda: {kernel['name']}: {verdict}: {item['reason']}")
        if kernel.get("launch"):
            lines.append(f"{path}: coalda: {kernel['name']}: {launch_said(kernel['launch'])}")
    kernels = len(pass_report.get("kernels", []))
    lines.append(f"{path}: coalda: {done} rewritten, {left} left alone, in {kernels} kernel{'s' if kernels != 1 else ''}")
    return lines


def print_summary(path: str, pass_report: dict) -> None:
    for line in summary_lines(path, pass_report):
        print(line, file=sys.stderr)


def compile_other(inv: Invocation, tools: Tools, source: Input, obj: Path) -> None:
    """A C/C++ (or assembly) source to an object, with clang++-19."""
    lang = ["-x", source.language] if source.language else []
    cmd = [tools.clang, inv.opt_level or "-O3", *inv.compile_flags, *inv.dep_flags, *lang, "-c", source.path, "-o", obj]
    _run(cmd, f"clang++-19 could not compile {source.path}", inv.verbose)


def build(inv: Invocation) -> None:
    """Run the steps of INV: compile its sources, and link unless -c."""
    if inv.print_cuda_path:
        print(cuda_tree(inv))
        return
    if inv.mode == "clang":
        _passthrough(inv)
        return
    tools = tools_for(inv)
    with tempfile.TemporaryDirectory(prefix="coalda-cc-") as tmp:
        scratch = Path(tmp)
        objects: dict[int, Path] = {}
        for index, source in enumerate(inv.inputs):
            if not source.is_source:
                continue
            if inv.mode == "compile":
                obj = Path(inv.output) if inv.output else Path(Path(source.path).stem + ".o")
            else:
                obj = scratch / f"{index}-{Path(source.path).stem}.o"
            if source.is_cuda:
                compile_cuda(inv, tools, source, obj, scratch)
            else:
                compile_other(inv, tools, source, obj)
            objects[index] = obj
        if inv.mode == "compile":
            return
        link: list[str | Path] = [tools.clang, "-Qunused-arguments"]
        for kind, item in inv.link_items:
            if kind == "input":
                assert isinstance(item, int)
                link.append(objects.get(item, inv.inputs[item].path))
            else:
                link.append(str(item))
        link += [*tools.link_flags, "-o", inv.output or "a.out"]
        _run(link, "clang++-19 could not link " + (inv.output or "a.out"), inv.verbose)


def _passthrough(inv: Invocation) -> None:
    """Preprocessing, -S, --version, ...: clang++-19 alone, with the CUDA tree,
    -O3 and the plugin added, and its exit code kept."""
    clang = find_clang()
    extra: list[str] = []
    if inv.inputs:
        cuda = cuda_tree(inv)
        extra = [f"--cuda-path={cuda}", "-Wno-unknown-cuda-version", "-O3"]
        if inv.coalda:
            extra.append(f"-fpass-plugin={find_plugin()}")
    argv = [str(clang), *extra, *inv.clang_args]
    if inv.verbose:
        print("coalda cc: " + shlex.join(argv), file=sys.stderr, flush=True)
    try:
        code = subprocess.run(argv).returncode
    except OSError as exc:
        raise CoaldaError(f"cannot run {clang}: {exc.strerror}") from None
    if code:
        sys.exit(code)


@click.command(
    "cc",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False, "help_option_names": ["--help"]},
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def cc_command(args: tuple[str, ...]) -> None:
    """Compile and link CUDA programs: clang++-19 with the COALDA plugin on the
    device side, the CUDA 12 tree and -O3 (a later -O wins). Takes clang's
    flags: `coalda cc main.cu -o app`, `coalda cc -c k.cu -o k.o -I inc
    -DN=4 -std=c++17 --cuda-gpu-arch=sm_80`, `coalda cc main.o k.o -o app`.
    -arch sm_XX is accepted too (default sm_90); -fno-coalda builds without
    the plugin; launches of flat copies and transposes are reshaped (a
    grid-stride or tiled variant, chosen at run time by measurement),
    -fcoalda-reshape also chooses every other rewrite against its code as
    written, -fno-coalda-reshape launches every kernel as written; --print-cuda-path prints the CUDA tree (CMake's
    CUDAToolkit_ROOT for CMAKE_CUDA_COMPILER=coalda-cc). Executables link
    the CUDA 12 runtime (libcudart.so.12 from the nvidia-cuda-runtime-cu12
    wheel, found through the run-path)."""
    build(parse_args(args))


def main() -> None:
    """The `coalda-cc` console script (for CMAKE_CXX_COMPILER and make's CXX)."""
    try:
        build(parse_args(sys.argv[1:]))
    except CoaldaError as exc:
        print(f"coalda-cc: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("coalda-cc: error: interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
