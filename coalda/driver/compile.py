"""Compile stages: .cu -> device IR (clang-19), COALDA (opt-19), PTX (llc-19)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import CoaldaError, ToolFailed
from . import ir_cache, pch
from .toolchain import cuda_path, toolchain

# What -O0 runs after clang (-O0 -Xclang -disable-O0-optnone): the design's
# mem2reg, as SROA does it, which also splits a struct assigned whole (a
# memcpy at -O0: `auto p = a[i]; ... a[i] = p;`) into its fields' loads and
# stores, as -O3 does; then the full unroll of loops of a constant trip count
# under LLVM's default size threshold (member loops, neighbour loops), SROA
# again for the arrays the unroll indexes by constants, and DCE of the loads
# SROA leaves unused. Where the source is the same, -O0 and -O3 then decide
# the same (issue 39; docs/programs/opt-levels.md: of the census files 10
# differed, 3 do): without this a struct copy was one call no rewrite takes (nbody, sph)
# and a fixed-trip loop hid its accesses from the element staging (matrixT,
# lulesh's integrateStress).
O0_PASSES = "sroa,loop(loop-unroll-full),sroa,dce"

# clang 19 knows these NVPTX targets.
ARCHES = (
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a",
)


@dataclass(frozen=True)
class CompileOptions:
    arch: str = "sm_90"
    opt_level: int = 3
    includes: tuple[Path, ...] = ()
    defines: tuple[str, ...] = ()
    # further clang flags: a compile_commands.json entry's (-std, -U, -isystem,
    # -include) and then those after `--` on the command line
    extra: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_extra(self.extra)


# Flags after `--` that would change what COALDA's clang command produces,
# rather than how it reads the source.
_OWN_FLAGS = ("-o", "-c", "-S", "-E", "-x", "-emit-llvm", "--cuda-host-only", "--cuda-device-only",
              "--cuda-gpu-arch", "--offload-arch", "--cuda-path", "-fsyntax-only", "-M", "-MM", "-###")


def check_extra(flags: tuple[str, ...]) -> None:
    """Refuse clang flags COALDA sets itself, in one line that says what to use."""
    for flag in flags:
        name = flag.split("=", 1)[0]
        if name in _OWN_FLAGS or name.startswith("-O"):
            hint = {"--cuda-gpu-arch": "use --arch", "--offload-arch": "use --arch", "--cuda-path":
                    "set COALDA_CUDA_PATH"}.get(name, "use -O" if name.startswith("-O") else "drop it")
            raise CoaldaError(f"clang flag {flag} is COALDA's own choice: {hint}")

def run_tool(what: str, cmd: Sequence[str | Path]) -> subprocess.CompletedProcess[str]:
    """Run a tool; on failure raise ToolFailed carrying its stderr and command."""
    argv = [str(c) for c in cmd]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True)
    except OSError as exc:
        raise CoaldaError(f"{what}: cannot run {argv[0]}: {exc.strerror}") from None
    if proc.returncode != 0:
        raise ToolFailed(what, argv, proc.returncode, proc.stderr)
    return proc


def clang_command(source: Path, options: CompileOptions, output: Path, *, variables: bool = False) -> list[str]:
    """clang's device-only compile of SOURCE to IR. Line tables give findings
    their file:line:col; VARIABLES adds the source variables' debug info, from
    which the pass names values as the source does (`i < last`, `dst + 3*gid`;
    clang's value names, `add < sub3`, are never quoted): for device code at
    -O1..3 clang keeps it only with --cuda-noopt-device-debug, which changes
    no IR but the debug info. Such IR must go through line_tables_only
    before llc. Kept value names keep the IR readable."""
    tc = toolchain()
    cmd = [
        str(tc.clang), "-x", "cuda", "--cuda-device-only",
        f"--cuda-gpu-arch={options.arch}", f"--cuda-path={cuda_path()}",
        "-Wno-unknown-cuda-version", "-emit-llvm", "-S",
        *(["-g", "--cuda-noopt-device-debug"] if variables else ["-gline-tables-only"]),
        "-fno-discard-value-names",
    ]
    if options.opt_level == 0:
        cmd += ["-O0", "-Xclang", "-disable-O0-optnone"]
    else:
        cmd += [f"-O{options.opt_level}"]
    for inc in options.includes:
        cmd += ["-I", str(inc)]
    for define in options.defines:
        cmd += ["-D", define]
    cmd += list(options.extra)
    cmd += [str(source), "-o", str(output)]
    return cmd


def compile_to_ir(source: Path, options: CompileOptions, output: Path, *, variables: bool = False) -> None:
    """Device-side IR of SOURCE; at -O0 the seed's flow plus O0_PASSES. With
    VARIABLES, the source variables' debug info too (clang_command). Kept
    in, and taken from, the IR cache (ir_cache) by what the compile reads."""
    tc = toolchain()
    command = clang_command(source, options, output, variables=variables)
    after = ["|", tc.opt.name, O0_PASSES] if options.opt_level == 0 else []
    entry = ir_cache.entry_for([*command, *after], output, [tc.clang, *([tc.opt] if options.opt_level == 0 else [])])
    if entry is not None and entry.fetch(output):
        if options.opt_level == 0:  # opt names its input, this compile's output, as the module
            _rename_module(output)
        return
    with tempfile.TemporaryDirectory(prefix="coalda-deps-") as scratch:
        depfile = Path(scratch) / "module.d"
        _clang(source, command, depfile if entry is not None else None)
        if options.opt_level == 0:
            run_tool(f"opt -passes={O0_PASSES} failed", [tc.opt, f"-passes={O0_PASSES}", "-S", output, "-o", output])
        if entry is not None:
            _keep(entry, output, depfile)


def _clang(source: Path, command: list[str], depfile: Path | None) -> None:
    """Run clang's COMMAND (clang_command's: the source, -o, the output
    last), with the wrapper headers' PCH where there is one (pch.py), and
    writing DEPFILE. A compile that fails with the PCH runs again without
    it, and that run's error is the one reported."""
    what = f"clang could not compile {source}"
    deps = ["-MD", "-MF", str(depfile)] if depfile is not None else []
    flags, target = command[:-3], command[-3:]
    header = pch.header_pch(flags, toolchain().clang)
    if header is not None:
        try:
            run_tool(what, [*flags, "-Xclang", "-include-pch", "-Xclang", str(header), *deps, *target])
            return
        except ToolFailed:
            pass
    run_tool(what, [*flags, *deps, *target])
    if header is not None:
        pch.discard(header)


def _rename_module(module: Path) -> None:
    """The ModuleID opt -S writes for MODULE read from MODULE, in place of
    the cached compile's own output path."""
    text = module.read_text()
    if text.startswith("; ModuleID = "):
        module.write_text(f"; ModuleID = '{module}'" + text[text.index("\n"):])


def _keep(entry: ir_cache.Entry, module: Path, depfile: Path) -> None:
    """Store a compile in the cache; a cache that cannot be written (full
    disk, read-only home) costs the next compile its time, not this one."""
    try:
        entry.store(module, depfile, Path.cwd())
        if int(entry.key[:8], 16) % ir_cache.PRUNE_EVERY == 0:
            ir_cache.prune(entry.root)
    except OSError:
        pass


def line_tables_only(module: Path, opt_level: int) -> None:
    """MODULE's debug info cut back, once the pass has read its variables, to
    what clang's -gline-tables-only gives device code by itself: line tables
    at -O0, line directives alone at -O1..3. With variables or line tables
    llc marks the PTX `.target sm_90, debug`, which ptxas -O3 refuses
    ("Optimized debugging not supported"), and the .ll files a reader opens
    grow tenfold. The code, the header lines and every !dbg location stay."""
    tc = toolchain()
    head = re.findall(r"^(?:; ModuleID|source_filename) = .*$", module.read_text(), re.M)
    run_tool("opt -passes=strip-nonlinetable-debuginfo failed",
             [tc.opt, "-passes=strip-nonlinetable-debuginfo", "-S", module, "-o", module])
    _line_tables_text(module, opt_level, head)


def _line_tables_text(module: Path, opt_level: int, head: Sequence[str]) -> None:
    """line_tables_only's text part, on a module already stripped: the
    emission kind, and the header lines HEAD as they were."""
    text = module.read_text()
    if opt_level > 0:
        text = text.replace("emissionKind: LineTablesOnly", "emissionKind: DebugDirectivesOnly")
    for line in head:
        key = line.split(" = ", 1)[0]
        text = re.sub(rf"^{re.escape(key)} = .*$", lambda _: line, text, count=1, flags=re.M)
    module.write_text(text)


def run_coalda(
    before: Path,
    after: Path,
    report: Path,
    remarks: Path | None = None,
    *,
    analyze_only: bool = False,
    extra: Sequence[str] = (),
    line_tables: int | None = None,
) -> str:
    """Run the COALDA pass (verifier on); returns opt's stderr (remarks).
    With LINE_TABLES (an -O level), AFTER comes out as line_tables_only
    makes it, in the same opt run (one process fewer per build): the pass
    has read the variables' debug info by then."""
    tc = toolchain()
    head = re.findall(r"^(?:; ModuleID|source_filename) = .*$", before.read_text(), re.M) if line_tables is not None else []
    passes = "coalda,verify" + (",strip-nonlinetable-debuginfo" if line_tables is not None else "")
    cmd: list[str | Path] = [
        tc.opt, f"-load-pass-plugin={tc.plugin}", f"-passes={passes}",
        f"-coalda-report={report}", "-pass-remarks=coalda",
        "-pass-remarks-missed=coalda", "-S", before, "-o", after,
    ]
    if remarks is not None:
        cmd.append(f"-pass-remarks-output={remarks}")
    if analyze_only:
        cmd.append("-coalda-analyze-only")
    cmd += list(extra)
    stderr = run_tool("the COALDA pass failed", cmd).stderr
    if line_tables is not None:
        _line_tables_text(after, line_tables, head)
    return stderr


def emit_ptx(module: Path, arch: str, output: Path) -> None:
    tc = toolchain()
    run_tool("llc could not emit PTX", [tc.llc, "-march=nvptx64", f"-mcpu={arch}", module, "-o", output])
