"""`coalda optimize`: .cu -> before/after IR, diff, PTX and report, published atomically."""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import registers
from .compile import CompileOptions, compile_to_ir, emit_ptx, line_tables_only, run_coalda
from ..errors import CoaldaError, NoKernel, ToolFailed
from .toolchain import find_ptxas
from ..report import Report, build_report


@dataclass(frozen=True)
class Artifacts:
    """The files of one `coalda optimize` run, named after the source's stem."""

    directory: Path
    stem: str

    def path(self, suffix: str) -> Path:
        return self.directory / f"{self.stem}.{suffix}"

    @property
    def before(self) -> Path:
        return self.path("before.ll")

    @property
    def after(self) -> Path:
        return self.path("after.ll")

    @property
    def diff(self) -> Path:
        return self.path("diff")

    @property
    def ptx(self) -> Path:
        return self.path("after.ptx")

    @property
    def before_ptx(self) -> Path:
        return self.path("before.ptx")

    @property
    def report(self) -> Path:
        return self.path("report.json")

    @property
    def remarks(self) -> Path:
        return self.path("remarks.yaml")


@dataclass
class OptimizeResult:
    artifacts: Artifacts
    report: Report
    remarks: str


def unified_diff(before: Path, after: Path) -> str:
    return "".join(
        difflib.unified_diff(
            before.read_text().splitlines(keepends=True),
            after.read_text().splitlines(keepends=True),
            fromfile=before.name,
            tofile=after.name,
        )
    )


def _io_error(outdir: Path, exc: OSError) -> CoaldaError:
    return CoaldaError(f"cannot write to {outdir}: {exc.strerror or exc}")


@contextmanager
def staged_output(outdir: Path) -> Iterator[Path]:
    """A staging directory beside OUTDIR; moved into place only on success."""
    try:
        outdir.parent.mkdir(parents=True, exist_ok=True)
        if outdir.exists() and not outdir.is_dir():
            raise CoaldaError(f"cannot write to {outdir}: it is not a directory")
        staging = Path(tempfile.mkdtemp(prefix=f".{outdir.name}.", dir=outdir.parent))
        # mkdtemp makes it 0700; OUTDIR gets the usual mode
        umask = os.umask(0)
        os.umask(umask)
        staging.chmod(0o777 & ~umask)
    except OSError as exc:
        raise _io_error(outdir, exc) from None
    try:
        yield staging
        try:
            if outdir.is_dir():
                for item in staging.iterdir():
                    os.replace(item, outdir / item.name)
                staging.rmdir()
            else:
                staging.rename(outdir)
        except OSError as exc:
            raise _io_error(outdir, exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def inputs_digest(source: Path, options: CompileOptions) -> str:
    """A fingerprint of what an OUTDIR was built from: the source's bytes and
    every compile option."""
    try:
        text = source.read_bytes()
    except OSError as exc:
        raise CoaldaError(f"cannot read {source}: {exc.strerror or exc}") from None
    what = repr((options.arch, options.opt_level, tuple(map(str, options.includes)), tuple(options.defines),
                 tuple(options.extra)))
    return hashlib.sha256(text + b"\0" + what.encode()).hexdigest()


def _keep_for_reproduction(exc: ToolFailed, artifacts: Artifacts, scratch: Path) -> ToolFailed:
    """The failing command, rewritten to read a kept copy of the device IR
    (the scratch directory goes away) and to write nothing."""
    keep: Path | None = None  # made only when there is IR to keep (a failed compile has none)
    cmd = []
    for arg in exc.cmd:
        if arg == str(artifacts.before) and artifacts.before.is_file():
            keep = keep or Path(tempfile.mkdtemp(prefix=f"coalda-failed-{artifacts.stem}-"))
            kept = keep / artifacts.before.name
            shutil.copyfile(artifacts.before, kept)
            arg = str(kept)
        elif str(artifacts.directory) in arg or str(scratch) in arg:
            flag, sep, _ = arg.partition("=")
            arg = f"{flag}=/dev/null" if sep else "/dev/null"
        cmd.append(arg)
    what = str(exc).split(" (exit ")[0]
    return ToolFailed(what, cmd, exc.returncode, exc.stderr)


def _same_module_id(before: Path, after: Path) -> None:
    """opt names the module after the file it read (a scratch path): the
    after.ll gets the before.ll's ModuleID and source_filename back, so the
    diff shows only what COALDA changed."""
    head = {m.group(1): m.group(0) for m in re.finditer(r"^(; ModuleID|source_filename) = .*$",
                                                         before.read_text(), re.M)}
    text = after.read_text()
    for key, line in head.items():
        text = re.sub(rf"^{re.escape(key)} = .*$", lambda _: line, text, count=1, flags=re.M)
    after.write_text(text)


def rewritten_symbols(report: dict) -> set[str]:
    """The symbols of REPORT's kernels with a rewrite."""
    return {k["symbol"] for k in report["kernels"] if "symbol" in k and any(
        x.get("transformed") for key in ("groups", "stagings", "promotions") for x in k.get(key, []))}


def note_register_limits(report: dict, limited: list[registers.Limited]) -> None:
    """REPORT's kernels that the PTX gives `.maxnreg` (registers.py) say so."""
    for kernel in report["kernels"]:
        for x in limited:
            if kernel.get("symbol") == x.symbol:
                kernel["register_limit"] = {"limit": x.limit, "before": x.before, "unlimited": x.after}


def build(
    source: Path,
    options: CompileOptions,
    artifacts: Artifacts,
    *,
    analyze_only: bool = False,
    pass_args: Sequence[str] = (),
    ptx: bool = True,
) -> OptimizeResult:
    """Compile, run COALDA, emit PTX, diff and report into artifacts.directory."""
    with tempfile.TemporaryDirectory(prefix="coalda-") as scratch:
        raw = Path(scratch) / "pass-report.json"
        try:
            # The pass reads the variables' debug info for its names; the
            # .ll files keep the line tables alone, as clang writes them.
            compile_to_ir(source, options, artifacts.before, variables=True)
            remarks = run_coalda(
                artifacts.before, artifacts.after, raw, artifacts.remarks,
                analyze_only=analyze_only, extra=pass_args, line_tables=options.opt_level,
            )
            line_tables_only(artifacts.before, options.opt_level)
        except ToolFailed as exc:
            raise _keep_for_reproduction(exc, artifacts, Path(scratch)) from None
        report = build_report(raw, source, options.arch, options.opt_level,
                              inputs_digest(source, options))
    if not report["kernels"]:
        raise NoKernel(f"{source} defines no CUDA kernel (__global__ function): nothing to analyze")
    _same_module_id(artifacts.before, artifacts.after)
    if ptx and not analyze_only:
        emit_ptx(artifacts.before, options.arch, artifacts.before_ptx)
        emit_ptx(artifacts.after, options.arch, artifacts.ptx)
        note_register_limits(report, registers.limit_rewritten(
            find_ptxas(), artifacts.before_ptx, artifacts.ptx, options.arch, rewritten_symbols(report)))
    artifacts.diff.write_text(unified_diff(artifacts.before, artifacts.after))
    artifacts.report.write_text(json.dumps(report, indent=2) + "\n")
    return OptimizeResult(artifacts, report, remarks)


def optimize(
    source: Path, options: CompileOptions, outdir: Path, *, pass_args: Sequence[str] = (), ptx: bool = True
) -> OptimizeResult:
    """`coalda optimize`: all files appear in OUTDIR together, or none do."""
    stem = source.stem
    with staged_output(outdir) as staging:
        result = build(source, options, Artifacts(staging, stem), pass_args=pass_args, ptx=ptx)
    result.artifacts = Artifacts(outdir, stem)
    if not ptx:  # an earlier run's PTX would not be this IR's
        for stale in (result.artifacts.before_ptx, result.artifacts.ptx):
            stale.unlink(missing_ok=True)
    return result


def analyze(source: Path, options: CompileOptions) -> Report:
    """`coalda analyze`: the findings and what `optimize` would rewrite,
    nothing written."""
    with tempfile.TemporaryDirectory(prefix="coalda-") as scratch:
        return build(source, options, Artifacts(Path(scratch), source.stem), ptx=False).report
