"""The `coalda` command line."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax

from . import __version__
from .driver.compile import ARCHES, CompileOptions
from .errors import CoaldaError, DeviceLost, NoKernel, ToolFailed
from .driver.pipeline import Artifacts, build, optimize
from .report import Report, print_findings

stdout = Console()
stderr = Console(stderr=True, highlight=False)


class CoaldaGroup(click.Group):
    """Turns CoaldaError into one line on stderr and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ToolFailed as exc:
            if exc.stderr.strip():
                sys.stderr.write(exc.stderr if exc.stderr.endswith("\n") else exc.stderr + "\n")
            _fail(str(exc))
        except CoaldaError as exc:
            _fail(str(exc), silence_after=isinstance(exc, DeviceLost))
        except KeyboardInterrupt:
            _fail("interrupted", code=130)


def _error(message: str) -> None:
    stderr.print(f"[bold red]coalda: error:[/] {escape(message)}", markup=True, soft_wrap=True)


def _note(message: str) -> None:
    stderr.print(f"[bold]coalda: note:[/] {escape(message)}", markup=True, soft_wrap=True)


def _fail(message: str, code: int = 1, silence_after: bool = False) -> None:
    _error(message)
    if silence_after:
        _silence_stderr()
    sys.exit(code)


def _silence_stderr() -> None:
    """What the process writes to stderr from now on, as it exits, goes
    nowhere: after a kernel's fault, cuda-core's warnings as it frees buffers
    of the lost context (`Warning: cuMemFreeAsync failed during resource
    destruction (CUDA error 700)`), which would follow the one line."""
    sys.stderr.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)


SOURCE = click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
CLANG_ARGS = "coalda.clang_args"


class ClangArgsCommand(click.Command):
    """A command whose words after `--` are clang flags, passed through to
    clang-19 after COALDA's own (`coalda analyze f.cu -- -std=c++17 -DN=4`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            at = args.index("--")
            ctx.meta[CLANG_ARGS] = tuple(args[at + 1:])
            args = args[:at]
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return super().collect_usage_pieces(ctx) + ["[-- CLANG_FLAG...]"]


def _clang_args() -> tuple[str, ...]:
    return tuple(click.get_current_context().meta.get(CLANG_ARGS, ()))


PROJECT = click.option(
    "-p", "--project", type=click.Path(exists=True, path_type=Path), metavar="DIR",
    help="Build directory with a compile_commands.json: take each .cu file's -I, -D and -std from it.",
)
QUIET = click.option("-q", "--quiet", is_flag=True, help="No progress display on stderr.")


@contextmanager
def _progress(total: int, quiet: bool) -> Iterator[Callable[[str], None]]:
    """Rich progress on stderr while a long run works (only when stderr is a
    terminal, and not with --quiet); yields `step(what)`, called before each
    of `total` steps."""
    if quiet or not stderr.is_terminal:
        yield lambda _what: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = [SpinnerColumn(), TextColumn("{task.description}")]
    if total > 1:
        columns += [BarColumn(), MofNCompleteColumn()]
    with Progress(*columns, TimeElapsedColumn(), console=stderr, transient=True) as progress:
        task = progress.add_task("", total=total)
        started = [False]

        def step(what: str) -> None:
            if started[0]:
                progress.advance(task)
            started[0] = True
            progress.update(task, description=escape(what))
            progress.refresh()

        yield step


def compile_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--arch, -O, -I, -D shared by the commands that compile a .cu."""
    f = click.option("-D", "defines", multiple=True, metavar="NAME[=VAL]", help="Preprocessor definition.")(f)
    f = click.option(
        "-I", "includes", multiple=True, metavar="DIR",
        type=click.Path(file_okay=False, path_type=Path), help="Include directory.",
    )(f)
    f = click.option(
        "-O", "opt_level", type=click.IntRange(0, 3), default=3, show_default=True,
        help="Optimization level; 0 is the design's -O0 -Xclang -disable-O0-optnone + SROA and the full unroll of constant trip counts.",
    )(f)
    f = click.option(
        "--arch", type=click.Choice(ARCHES), default="sm_90", show_default=True, metavar="ARCH",
        help=f"GPU architecture, {ARCHES[0]} to {ARCHES[-1]}.",
    )(f)
    return f


def _options(arch: str, opt_level: int, includes: tuple[Path, ...], defines: tuple[str, ...]) -> CompileOptions:
    return CompileOptions(arch=arch, opt_level=opt_level, includes=includes, defines=defines, extra=_clang_args())


def _jobs(files: tuple[Path, ...], project: Path | None, base: CompileOptions) -> list[tuple[Path, CompileOptions]]:
    """What to compile, with which options: FILES with the command line's, or
    with -p the database's entries (those of FILES, or all .cu ones), each
    with its own flags and the command line's after them."""
    if project is None:
        if not files:
            raise click.UsageError("give one or more FILE.cu, or -p DIR with a compile_commands.json")
        return [(f, base) for f in files]
    from .driver.project import DATABASE, load, select

    database = project / DATABASE if project.is_dir() else project
    here = Path.cwd().resolve()
    jobs = []
    for entry in select(load(project), files, database):
        if not entry.file.is_file():
            raise CoaldaError(f"{entry.file} (named in {database}) does not exist; rebuild the project or drop -p")
        # findings name files as the user would (src/a.cu from the project's root): SARIF wants relative paths
        shown = entry.file.relative_to(here) if entry.file.is_relative_to(here) else entry.file
        options = CompileOptions(
            arch=base.arch, opt_level=base.opt_level, includes=base.includes + entry.includes,
            defines=entry.defines + base.defines, extra=entry.flags + base.extra,
        )
        jobs.append((shown, options))
    return jobs


def _check_pass_args(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """Only the pass's own switches: anything else would reach opt as its option."""
    for arg in value:
        if not re.fullmatch(r"-coalda-[a-z0-9-]+(=[^\s]*)?", arg):
            raise click.BadParameter(f"{arg!r} is not an option of the COALDA pass (-coalda-NAME[=VALUE])")
    return value


@click.group(cls=CoaldaGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(__version__, prog_name="coalda")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """COALDA finds uncoalesced global-memory accesses in CUDA kernels and
    rewrites strided copies into coalesced, wide form."""
    if ctx.invoked_subcommand is None:  # plain `coalda`: the help, not an error
        click.echo(ctx.get_help())


PASS_ARG = click.option(
    "--pass-arg", "pass_arg", multiple=True, metavar="-coalda-OPTION[=VALUE]", callback=_check_pass_args,
    help="An option of the COALDA pass (`opt-19 -load-pass-plugin=libCoalda.so --help-hidden` lists them), "
         "e.g. --pass-arg=-coalda-window-read-only=runtime. Repeatable.",
)


def _no_pass_args_with_outdir(pass_arg: tuple[str, ...], from_dir: Path | None) -> None:
    if pass_arg and from_dir is not None:
        raise CoaldaError("--pass-arg applies when COALDA compiles FILE; --from reads an OUTDIR that "
                          "`coalda optimize` already compiled (give it the --pass-arg there)")


@cli.command("optimize", cls=ClangArgsCommand)
@SOURCE
@click.option(
    "-o", "--outdir", type=click.Path(path_type=Path), default=Path("coalda-out"), show_default=True,
    help="Directory for STEM.before.ll, .after.ll, .diff, .after.ptx, .report.json.",
)
@compile_options
@PROJECT
@click.option("--no-runtime-checks", is_flag=True, help="Never version a copy on a run-time overlap check.")
@PASS_ARG
@click.option("--no-ptx", is_flag=True, help="IR, diff and findings only: no PTX (no llc, no ptxas; `coalda run "
              "--from` then emulates only).")
@click.option("-q", "--quiet", is_flag=True, help="No findings table: only the 'Wrote' line (and errors).")
def optimize_cmd(
    file: Path, outdir: Path, arch: str, opt_level: int, includes: tuple[Path, ...],
    defines: tuple[str, ...], project: Path | None, no_runtime_checks: bool, pass_arg: tuple[str, ...],
    no_ptx: bool, quiet: bool,
) -> None:
    """Compile FILE's device code, run the COALDA pass, write IR, diff, PTX and findings.
    Clang flags after `--` are passed through."""
    pass_args = (["-coalda-runtime-checks=false"] if no_runtime_checks else []) + list(pass_arg)
    [(file, options)] = _jobs((file,), project, _options(arch, opt_level, includes, defines))
    result = optimize(file, options, outdir, pass_args=pass_args, ptx=not no_ptx)
    if not quiet:  # logs and pipes get the whole table, as analyze gives it
        print_findings(result.report, stdout if stdout.is_terminal else Console(width=200))
    # every file optimize writes, read from what is there
    art = result.artifacts
    written = [p.name.removeprefix(f"{art.stem}.") for p in
               (art.before, art.after, art.diff, art.before_ptx, art.ptx, art.report, art.remarks) if p.is_file()]
    stdout.print(f"Wrote {art.directory}/{art.stem}.{{{','.join(written)}}}", soft_wrap=True)


@cli.command("analyze", cls=ClangArgsCommand)
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@compile_options
@PROJECT
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (the same as --format json).")
@click.option(
    "--format", "fmt", type=click.Choice(["table", "text", "json", "sarif"]), default="table", show_default=True,
    help="table: the findings; text: compiler-style warnings with their cost, worst first; "
    "json: the report; sarif: SARIF 2.1.0 for code scanning.",
)
@click.option(
    "--fail-on", type=click.Choice(["uncoalesced", "unknown", "bank-conflict", "never"]), default="never",
    show_default=True,
    help="Exit 3 when an access of this class is found (unknown: uncoalesced ones too; bank-conflict: "
    "shared-memory bank conflicts alone, which no other class gates).",
)
@click.option("--max", "max_count", type=click.IntRange(0, None), help="With --fail-on: tolerate this many.")
@click.option("--system-headers", is_flag=True,
              help="Also show (and gate on) findings in system headers: the CUDA tree, thrust, CUB.")
@click.option("--baseline", "baseline", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="OLD.sarif",
              help="Show and gate on only the findings this earlier SARIF log does not have.")
@click.option("--show", type=click.Choice(["all", "uncoalesced", "unknown", "bank-conflict"]), default="all",
              show_default=True,
              help="The findings to show and gate on (text and SARIF). A line that says `coalda: ignore` has none.")
@click.option(
    "--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), metavar="OUT.html",
    help="Also write a self-contained HTML report: the source with the findings at their lines, "
    "a cost heat per line and the IR before and after each rewrite.",
)
@QUIET
@PASS_ARG
def analyze_cmd(
    files: tuple[Path, ...], arch: str, opt_level: int, includes: tuple[Path, ...], defines: tuple[str, ...],
    project: Path | None, as_json: bool, fmt: str, fail_on: str, max_count: int | None,
    html_path: Path | None, quiet: bool, system_headers: bool, show: str, baseline: Path | None,
    pass_arg: tuple[str, ...],
) -> None:
    """Report every access of FILES' kernels (or of the .cu files of -p DIR),
    and what `optimize` would rewrite; writes nothing but --html. Clang flags
    after `--` are passed through. Of several files, one without a kernel is
    a note and one that does not compile an error (exit 1); the others are
    reported all the same."""
    from .findings.diagnostics import counts, diagnostics, json_log, new_since, sarif, select, text

    fmt = "json" if as_json else fmt
    if max_count is not None and fail_on == "never":
        raise click.UsageError("--max counts what --fail-on gates: give --fail-on uncoalesced or unknown too")
    jobs = _jobs(files, project, _options(arch, opt_level, includes, defines))
    # a file named twice (a.cu ./a.cu) with the same options is analyzed once
    jobs = list({(source.resolve(), repr(options)): (source, options) for source, options in jobs}.values())
    reports: list[Report] = []
    irs: list[tuple[str, str, str]] = []
    notes: list[str] = []
    errors: list[str] = []
    with _progress(len(jobs), quiet) as step:
        for source, options in jobs:
            step(f"analyzing {source}")
            with tempfile.TemporaryDirectory(prefix="coalda-") as scratch:
                art = Artifacts(Path(scratch), source.stem)
                try:
                    reports.append(build(source, options, art, ptx=False, pass_args=pass_arg).report)
                except CoaldaError as exc:
                    if len(jobs) == 1:
                        raise
                    # one file of several: the others are still reported,
                    # a compile error with the compiler's own words
                    if isinstance(exc, ToolFailed) and exc.stderr.strip():
                        sys.stderr.write(exc.stderr if exc.stderr.endswith("\n") else exc.stderr + "\n")
                    (notes if isinstance(exc, NoKernel) else errors).append(str(exc))
                    continue
                if html_path is not None:
                    irs.append((art.before.read_text(), art.after.read_text(), art.diff.read_text()))
    for message in notes:
        _note(message)
    for message in errors:
        _error(message)
    if not reports:
        _fail(f"none of the {len(jobs)} files could be analyzed")
    diags = select([d for r in reports for d in diagnostics(r)], system_headers, show)
    if baseline is not None:
        try:
            diags = new_since(diags, baseline.read_text(errors="replace"))
        except ValueError as exc:
            _fail(f"--baseline {baseline}: {exc}")
    if html_path is not None:
        from .findings.html_report import FileResult, write_html

        write_html(html_path, [FileResult(r, *ir) for r, ir in zip(reports, irs)])
        if not quiet:
            stderr.print(f"Wrote {escape(str(html_path))}", soft_wrap=True)
    if fmt == "json":
        click.echo(json.dumps(json_log(reports), indent=2))
    elif fmt == "sarif":
        click.echo(sarif(diags), nl=False)
    elif fmt == "text":
        click.echo(text(diags), nl=False)
    else:
        for report in reports:
            print_findings(report, stdout if stdout.is_terminal else Console(width=200), would=True)
    if errors:
        sys.exit(1)
    found = counts(diags)
    bad = {"uncoalesced": found["uncoalesced"], "unknown": found["uncoalesced"] + found["unknown"],
           "bank-conflict": found["bank-conflict"], "never": 0}[fail_on]
    if bad > (max_count or 0):
        _fail(f"{bad} {fail_on} accesses found (--fail-on {fail_on}"
              + (f", --max {max_count})" if max_count is not None else ")"), code=3)


def _blocks(value: str) -> list[int | tuple[int, int]]:
    """`--blocks 128,256` (threads per block) or `32x8,16x16` (2-D blocks)."""
    blocks: list[int | tuple[int, int]] = []
    for item in (v.strip() for v in value.split(",") if v.strip()):
        x, sep, y = item.partition("x")
        try:
            shape = (int(x), int(y)) if sep else int(x)
        except ValueError:
            raise click.BadParameter(f"expected threads per block (256) or XxY (32x8), got {item!r}",
                                     param_hint="--blocks") from None
        if min(shape if isinstance(shape, tuple) else (shape,)) < 1:
            raise click.BadParameter("block sizes must be positive", param_hint="--blocks")
        blocks.append(shape)
    if not blocks:
        raise click.BadParameter("expected at least one block size", param_hint="--blocks")
    return blocks


def _sizes(value: str | None) -> list[int] | None:
    if value is None:
        return None
    try:
        sizes = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise click.BadParameter("expected comma-separated integers, e.g. 32,1000,1048576",
                                 param_hint="'--sizes'") from None
    if not sizes:
        raise click.BadParameter("give one or more sizes, e.g. 32,1000", param_hint="'--sizes'")
    if min(sizes) < 1:
        raise click.BadParameter("sizes must be positive", param_hint="'--sizes'")
    return sizes


def _schedules(names: str | None, emulate: bool) -> tuple | None:
    """--schedules: the emulator's SCHEDULES of those names, in their order."""
    if names is None:
        return None
    if not emulate:
        raise click.BadParameter("the GPU runs threads in its own order: --schedules needs --emulate",
                                 param_hint="--schedules")
    from .emulator.schedule import SCHEDULES
    known = {s.name: s for s in SCHEDULES}
    wanted = [w.strip() for w in names.split(",") if w.strip()]
    unknown = [w for w in wanted if w not in known]
    if unknown or not wanted:
        raise click.BadParameter(f"expected some of {', '.join(known)}, got {names!r}", param_hint="--schedules")
    return tuple(known[w] for w in dict.fromkeys(wanted))


@cli.command("run", cls=ClangArgsCommand)
@SOURCE
@compile_options
@PROJECT
@click.option("--emulate", is_flag=True, help="Run on the CPU emulator instead of the GPU.")
@click.option("--sizes", help="Comma-separated problem sizes n (default: the spec's).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the random inputs.")
@click.option("--spec", "spec_file", type=click.Path(dir_okay=False, path_type=Path), help="Launch spec (default: FILE.toml, else inferred from the IR).")
@click.option("--from", "from_dir", type=click.Path(file_okay=False, path_type=Path), help="Use the IR/PTX in this `coalda optimize` OUTDIR.")
@click.option("--schedules", "schedule_names", metavar="ORDER,...",
              help="With --emulate: the thread orders to run under (forward, reverse, shuffled, strided; "
                   "default: all four).")
@PASS_ARG
@QUIET
def run_cmd(
    file: Path, arch: str, opt_level: int, includes: tuple[Path, ...], defines: tuple[str, ...],
    project: Path | None, emulate: bool, sizes: str | None, seed: int, spec_file: Path | None,
    from_dir: Path | None, schedule_names: str | None, pass_arg: tuple[str, ...], quiet: bool,
) -> None:
    """Run FILE's original and optimized kernels on the same random inputs and
    compare every output byte (guard zones included) under several buffer
    layouts and, with --emulate, several schedules; exit 1 on a mismatch, a
    race in the rewritten kernel, or an original whose result depends on the
    schedule (a racy test).

    The launch comes from a spec, FILE.toml beside FILE (or --spec), one table
    per kernel with one params entry per argument, in order; sizes in bytes
    and launch dimensions are expressions of n (testcases/rgb.toml is one):

    \b
      sizes = [32, 1000, 65536]
      [kernels.copy_naive_guarded]    # a template: [kernels."copy<float, 3>"]
      block = 256
      grid = "cdiv(n, block)"
      params = [{ name = "dst", out = "3*n" }, { name = "src", in = "3*n" },
                { name = "n", value = "n" }]

    Without one, it is inferred when every pointer is indexed at one stride of
    the global index and at most one scalar (n) is passed. Clang flags after
    `--` are passed through."""
    from .ir import signatures
    from .check.run_command import choose_spec, compile_or_reuse, run
    from .report import run_failure, run_success, run_table
    from .check.spec import check_spec

    size_list = _sizes(sizes)
    schedules = _schedules(schedule_names, emulate)
    _no_pass_args_with_outdir(pass_arg, from_dir)
    [(file, options)] = _jobs((file,), project, _options(arch, opt_level, includes, defines))
    if not emulate:
        from .check.gpu import device, gpu_name

        device()  # fail early, in one line, when there is no GPU
    where = "CPU emulator" if emulate else gpu_name()
    with _progress(2, quiet) as step:
        step(f"compiling {file}")
        compiled = compile_or_reuse(file, options, from_dir, ptx=not emulate, pass_args=pass_arg)
        spec = choose_spec(file, spec_file, compiled)
        check_spec(spec, compiled.report, signatures(compiled.before_ir))
        step(f"running {len(spec.kernels)} kernel(s) on the {where}")
        checked = run(compiled, spec, size_list, seed, gpu=not emulate, schedules=schedules)
    rows = checked.rows
    if rows:  # none when the emulator could run no kernel the spec names
        table = run_table(rows, f"{file} on the {where} (seed {seed})", timed=not emulate)
        # Logs and pipes get the whole table, not one cropped to 80 columns.
        (stdout if stdout.is_terminal else Console(width=160)).print(table)
    failure = run_failure(rows)
    if rows and not failure:
        unchecked = f" {len(checked.refused)} not checked, below." if checked.refused else ""
        stdout.print(run_success(rows) + unchecked)
    # one line per kernel that was not checked, then the failure; exit 1
    # if any: something the spec asks for was not shown to match
    problems = [*checked.refused, *([failure] if failure else [])]
    for line in problems[:-1]:
        _error(line)
    if problems:
        _fail(problems[-1])


@cli.command("bench", cls=ClangArgsCommand)
@SOURCE
@compile_options
@PROJECT
@click.option("--sizes", help="Comma-separated problem sizes n (default: the spec's largest GPU size).")
@click.option("--blocks", default=None, help="Threads per block to run each case at (XxY: 2-D blocks); "
              "default: the spec's own block where it is 2-D, else 128,256,512,1024.")
@click.option("--repeat", type=click.IntRange(1, None), default=20, show_default=True, help="Timed launches per variant (after a warm-up).")
@click.option("--kernels", help="Comma-separated kernels to bench (default: all but the references).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--spec", "spec_file", type=click.Path(dir_okay=False, path_type=Path), help="Launch spec (default: FILE.toml).")
@click.option("--from", "from_dir", type=click.Path(file_okay=False, path_type=Path), help="Use the IR/PTX in this `coalda optimize` OUTDIR.")
@click.option("--variant", "variants", multiple=True, metavar="LABEL=PTX", help="Also time the kernels of this PTX file.")
@click.option("--no-nvcc", is_flag=True, help="Do not time nvcc -O3 even if nvcc is installed.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), help="Write a bar chart (PNG).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="Write every measurement as JSON.")
@PASS_ARG
@QUIET
def bench_cmd(
    file: Path, arch: str, opt_level: int, includes: tuple[Path, ...], defines: tuple[str, ...],
    project: Path | None, sizes: str | None, blocks: str, repeat: int, kernels: str | None, seed: int, spec_file: Path | None,
    from_dir: Path | None, variants: tuple[str, ...], no_nvcc: bool, plot_path: Path | None, json_path: Path | None,
    pass_arg: tuple[str, ...], quiet: bool,
) -> None:
    """Time FILE's kernels before and after COALDA against cudaMemcpy on the GPU.
    Clang flags after `--` are passed through (not to the nvcc baseline)."""
    from .check.bench import bench_table, failures, nvcc_ptx, plot, run_bench
    from .ir import signatures
    from .check.run_command import choose_spec, compile_or_reuse
    from .check.gpu import device
    from .check.spec import check_spec

    size_list = _sizes(sizes)
    block_list = _blocks(blocks) if blocks is not None else None
    _no_pass_args_with_outdir(pass_arg, from_dir)
    [(file, options)] = _jobs((file,), project, _options(arch, opt_level, includes, defines))
    extra = {}
    for v in variants:
        label, sep, path = v.partition("=")
        if not sep or not Path(path).is_file():
            raise click.BadParameter(f"expected LABEL=PTX with an existing file, got {v!r}", param_hint="--variant")
        extra[label] = Path(path).read_text()
    device()
    with _progress(3, quiet) as step:
        step(f"compiling {file}")
        compiled = compile_or_reuse(file, options, from_dir, pass_args=pass_arg)
        spec = choose_spec(file, spec_file, compiled)
        check_spec(spec, compiled.report, signatures(compiled.before_ir))
        step("compiling the nvcc -O3 baseline")
        nvcc = None if no_nvcc else nvcc_ptx(file, arch, options.includes, options.defines)
        command = "coalda bench " + " ".join(sys.argv[2:])
        shapes = f"{len(block_list)} block size(s)" if block_list else "their block sizes"
        step(f"timing {len(spec.kernels)} kernel(s) at {shapes}, {repeat} launches each")
        result = run_bench(
            compiled, spec, size_list or [max(spec.gpu_sizes)], block_list, repeat, seed, nvcc, extra,
            kernels.split(",") if kernels else None, command,
        )
    # logs and pipes get the whole table, not one cropped to 80 columns
    (stdout if stdout.is_terminal else Console(width=200)).print(bench_table(result))
    if json_path:
        json_path.write_text(result.to_json() + "\n")
    if plot_path:
        plot(result, plot_path)
    if failures(result):
        _fail("some outputs differ from the unoptimized kernel's")


@cli.command("diff", cls=ClangArgsCommand)
@SOURCE
@compile_options
@PROJECT
def diff_cmd(file: Path, arch: str, opt_level: int, includes: tuple[Path, ...], defines: tuple[str, ...],
             project: Path | None) -> None:
    """Show the device IR before and after COALDA as a coloured unified diff.
    Clang flags after `--` are passed through."""
    [(file, options)] = _jobs((file,), project, _options(arch, opt_level, includes, defines))
    with tempfile.TemporaryDirectory(prefix="coalda-") as scratch:
        result = build(file, options, Artifacts(Path(scratch), file.stem), ptx=False)
        text = result.artifacts.diff.read_text()
    # every kind of rewrite: copy groups, element stagings, transposes, windows
    rewritten = any(r["transformed"] for k in result.report["kernels"]
                    for r in [*k["groups"], *k.get("stagings", [])])
    if not rewritten:
        stdout.print("no change: COALDA rewrote nothing in this file (`coalda analyze` says why).")
        return
    if stdout.is_terminal:
        stdout.print(Syntax(text, "diff", theme="ansi_dark", background_color="default"))
    else:  # a pipe or a file gets the plain diff, whole lines
        click.echo(text, nl=False)

from .driver.cc import cc_command; cli.add_command(cc_command)  # noqa: E402,E702 -- `coalda cc` (coalda/driver/cc.py)


def main() -> None:
    """Entry point: click's usage errors (unknown flag, bad value, missing
    file) become the same one-line `coalda: error:` as every other failure,
    with click's exit code 2."""
    try:
        code = cli.main(standalone_mode=False)
    except click.UsageError as exc:
        hint = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx else ""
        _fail(exc.format_message() + hint, code=exc.exit_code)
    except click.ClickException as exc:
        _fail(exc.format_message(), code=exc.exit_code)
    except click.Abort:
        _fail("interrupted", code=130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # python -m coalda.cli: as the console script
    from coalda.entry import run

    run("coalda", lambda: main)
