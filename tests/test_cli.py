"""The CLI contract of `coalda optimize` / `analyze` / `diff`, and bad inputs."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import TESTCASES, run_cli

FILES = ("rgb.before.ll", "rgb.after.ll", "rgb.diff", "rgb.after.ptx", "rgb.report.json")


def test_optimize_writes_the_five_files_and_a_table(tmp_path: Path, rgb: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("optimize", rgb, "-o", out)
    assert proc.returncode == 0, proc.stderr
    for name in FILES:
        assert (out / name).stat().st_size > 0, name
    assert "copy_naive" in proc.stdout and "copy_coalesced" in proc.stdout
    assert "already coalesced" in proc.stdout
    assert "3*gid+1" in proc.stdout
    ptx = (out / "rgb.after.ptx").read_text()
    assert ".target sm_90" in ptx and ".visible .entry _Z10copy_naiveP5PixelPKS_" in ptx
    assert "ld.global.v4.u32" in ptx or "ld.v4.u32" in ptx  # the widened 16-byte unit
    diff = (out / "rgb.diff").read_text()
    assert diff.startswith("--- rgb.before.ll\n+++ rgb.after.ll\n")
    assert "+coalda.copy16:" in diff


def test_report_schema(tmp_path: Path, rgb: Path) -> None:
    proc = run_cli("optimize", rgb, "-o", tmp_path / "o")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "o" / "rgb.report.json").read_text())
    assert report["source"] == str(rgb) and report["arch"] == "sm_90"
    kernels = {k["name"]: k for k in report["kernels"]}
    assert set(kernels) == {"copy_naive", "copy_naive_guarded", "copy_coalesced"}
    [guarded] = kernels["copy_naive_guarded"]["groups"]
    assert guarded["transformed"] and guarded["guard"] == "bounds"
    naive = kernels["copy_naive"]
    assert naive["symbol"] == "_Z10copy_naiveP5PixelPKS_"
    access_keys = {"kind", "line", "column", "stride", "offset", "width", "lane", "coalesced"}
    for access in naive["accesses"]:
        assert access_keys <= access.keys()
    # r, g, b: a load and a store each, at lane stride 3 of the global index.
    assert sorted((a["kind"], a["offset"]) for a in naive["accesses"]) == sorted(
        (k, o) for k in ("load", "store") for o in (0, 1, 2)
    )
    assert {(a["stride"], a["width"], a["lane"], a["coalesced"]) for a in naive["accesses"]} == {(3, 1, "gid", False)}
    lines = (TESTCASES / "rgb.cu").read_text().splitlines()
    for access in naive["accesses"]:
        assert "src[i]" in lines[access["line"] - 1]
    [group] = naive["groups"]
    assert group == group | {"base": "dst", "stride": 3, "members": 3, "transformed": True}
    assert isinstance(group["reason"], str)
    coalesced = kernels["copy_coalesced"]
    assert all(a["coalesced"] and a["stride"] == 1 for a in coalesced["accesses"])
    assert not any(g["transformed"] for g in coalesced["groups"])
    assert all(g["reason"].startswith("already coalesced") for g in coalesced["groups"])


def test_O0_flow_is_the_seeds(tmp_path: Path, rgb: Path) -> None:
    proc = run_cli("optimize", rgb, "-O", "0", "-o", tmp_path / "o")
    assert proc.returncode == 0, proc.stderr
    before = (tmp_path / "o" / "rgb.before.ll").read_text()
    assert "alloca" not in before  # SROA (-O0's mem2reg) ran
    report = json.loads((tmp_path / "o" / "rgb.report.json").read_text())
    assert report["opt_level"] == 0
    assert any(g["transformed"] for k in report["kernels"] for g in k["groups"])


def test_include_and_define_reach_clang(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "pixel.h").write_text("struct Pixel { unsigned char c[CHANNELS]; };\n")
    src = tmp_path / "k.cu"
    src.write_text(
        '#include "pixel.h"\n'
        "__global__ void k(Pixel *d, const Pixel *s) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  for (int c = 0; c < CHANNELS; c++) d[i].c[c] = s[i].c[c];\n"
        "}\n"
    )
    proc = run_cli("analyze", src, "--json", "-I", tmp_path / "inc", "-D", "CHANNELS=4")
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)["reports"]
    [kernel] = report["kernels"]
    assert {a["stride"] for a in kernel["accesses"]} == {4}


def test_diff_command_shows_the_rewrite(rgb: Path) -> None:
    proc = run_cli("diff", rgb)
    assert proc.returncode == 0, proc.stderr
    assert "coalda.copy16" in proc.stdout


def test_help_on_every_command() -> None:
    for args in ([], ["optimize"], ["analyze"], ["diff"]):
        proc = run_cli(*args, "--help")
        assert proc.returncode == 0 and "Usage:" in proc.stdout


# ---- bad input: one clear line, non-zero exit, no traceback, no OUTDIR


def assert_clean_failure(proc, *needles: str, code: int | None = None) -> None:
    assert proc.returncode != 0
    if code is not None:
        assert proc.returncode == code
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


def test_missing_file(tmp_path: Path) -> None:
    proc = run_cli("optimize", tmp_path / "nope.cu", "-o", tmp_path / "out")
    assert_clean_failure(proc, "nope.cu", "does not exist", code=2)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("coalda: error:")
    assert not (tmp_path / "out").exists()


def test_syntax_error_shows_clang_then_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(int *p) { p[threadIdx.x] = ; }\n")
    proc = run_cli("optimize", bad, "-o", tmp_path / "out")
    assert_clean_failure(proc, "error: expected expression", code=1)
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("coalda: error: clang could not compile") and "reproduce with:" in last
    assert not (tmp_path / "out").exists()
    assert list(tmp_path.iterdir()) == [bad]  # no staging directory left behind


def test_unknown_arch(tmp_path: Path, rgb: Path) -> None:
    proc = run_cli("optimize", rgb, "--arch", "sm_999", "-o", tmp_path / "out")
    assert_clean_failure(proc, "sm_999", code=2)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("coalda: error:")
    assert not (tmp_path / "out").exists()


def test_unknown_flag(rgb: Path) -> None:
    proc = run_cli("optimize", rgb, "--frobnicate")
    assert_clean_failure(proc, "No such option", code=2)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("coalda: error:")


def test_pass_arg_must_be_the_pass_option(tmp_path: Path, rgb: Path) -> None:
    """--pass-arg takes only -coalda-* switches (anything else would reach
    opt as its own option); an unknown value is opt's error, then one line
    with the command to reproduce it."""
    proc = run_cli("optimize", rgb, "--pass-arg=-O3", "-o", tmp_path / "out")
    assert_clean_failure(proc, "'-O3' is not an option of the COALDA pass", code=2)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("coalda: error:")
    proc = run_cli("optimize", rgb, "--pass-arg=-coalda-window-read-only=bogus", "-o", tmp_path / "out")
    assert_clean_failure(proc, "Cannot find option named 'bogus'", code=1)
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("coalda: error: the COALDA pass failed") and "-coalda-window-read-only=bogus" in last
    assert not (tmp_path / "out").exists()


def test_pass_arg_reaches_the_pass(tmp_path: Path, rgb: Path) -> None:
    """A pass switch changes what the pass does: rgb.cu's copies are
    rewritten by default and none is with -coalda-analyze-only."""
    rewritten = []
    for args in ((), ("--pass-arg=-coalda-analyze-only",)):
        out = tmp_path / f"out{len(args)}"
        proc = run_cli("optimize", rgb, "-o", out, *args)
        assert proc.returncode == 0, proc.stderr
        report = json.loads((out / f"{rgb.stem}.report.json").read_text())
        rewritten.append([g["expr"] for k in report["kernels"] for g in k.get("groups", []) if g["transformed"]])
    assert rewritten[0] and not rewritten[1], rewritten


def test_missing_toolchain(tmp_path: Path, rgb: Path) -> None:
    env = dict(os.environ, COALDA_OPT=str(tmp_path / "no-opt-here"))
    proc = run_cli("optimize", rgb, "-o", tmp_path / "out", env=env)
    assert_clean_failure(proc, "opt-19 not found", "COALDA_OPT", code=1)
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_missing_plugin_says_how_to_build(tmp_path: Path, rgb: Path) -> None:
    env = dict(os.environ, COALDA_PLUGIN=str(tmp_path / "libCoalda.so"))
    assert_clean_failure(run_cli("optimize", rgb, "-o", tmp_path / "out", env=env), "libCoalda.so not found", code=1)


def test_unwritable_outdir(tmp_path: Path, rgb: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    proc = run_cli("optimize", rgb, "-o", blocker / "out")
    assert_clean_failure(proc, "cannot write to", code=1)
    assert len(proc.stderr.strip().splitlines()) == 1
    assert blocker.read_text() == "not a directory"


def test_failed_run_keeps_the_previous_outdir(tmp_path: Path, rgb: Path) -> None:
    out = tmp_path / "out"
    assert run_cli("optimize", rgb, "-o", out).returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bad = tmp_path / "rgb.cu"
    bad.write_text("this is not CUDA\n")
    assert run_cli("optimize", bad, "-o", out).returncode == 1
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


# ---- defects a new user hit (issue: a tool for real projects)


def test_analyze_says_what_optimize_would_do(tmp_path: Path, rgb: Path) -> None:
    """analyze used to report every group as 'analysis only'."""
    [report] = json.loads(run_cli("analyze", rgb, "--json").stdout)["reports"]
    assert run_cli("optimize", rgb, "-o", tmp_path / "out").returncode == 0
    optimized = json.loads((tmp_path / "out" / "rgb.report.json").read_text())
    decisions = lambda r: [(g["transformed"], g["reason"]) for k in r["kernels"] for g in k["groups"]]  # noqa: E731
    assert decisions(report) == decisions(optimized) and any(t for t, _ in decisions(report))
    table = run_cli("analyze", rgb).stdout
    done = sum(t for t, _ in decisions(report))
    assert f"{done} of {len(decisions(report))} copy groups would be rewritten coalesced." in table


def test_a_file_without_kernels_says_so_and_writes_nothing(tmp_path: Path) -> None:
    for name, text in [("empty.cu", ""), ("host.cu", "int twice(int x) { return 2 * x; }\n"),
                       ("device.cpp", "__device__ int twice(int x) { return 2 * x; }\n")]:
        source = tmp_path / name
        source.write_text(text)
        proc = run_cli("optimize", source, "-o", tmp_path / "out")
        assert_clean_failure(proc, "defines no CUDA kernel", code=1)
        assert not (tmp_path / "out").exists()


def test_diff_of_an_unchanged_file_says_no_change(tmp_path: Path) -> None:
    source = tmp_path / "plain.cu"
    source.write_text("__global__ void k(int *p) { p[threadIdx.x] = 1; }\n")
    proc = run_cli("diff", source)
    assert proc.returncode == 0 and proc.stdout.startswith("no change")


def test_diff_to_a_file_keeps_whole_lines_and_no_scratch_paths(tmp_path: Path, rgb: Path) -> None:
    proc = run_cli("diff", rgb)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == "--- rgb.before.ll" and max(map(len, lines)) > 120  # not cut at 80 columns
    assert "ModuleID" not in proc.stdout and "coalda-" not in proc.stdout
    assert run_cli("optimize", rgb, "-o", tmp_path / "out").returncode == 0
    saved = (tmp_path / "out" / "rgb.diff").read_text()
    assert ".out." not in saved and "ModuleID" not in saved


def test_run_from_a_stale_outdir_is_refused(tmp_path: Path, rgb: Path) -> None:
    source = tmp_path / "rgb.cu"
    source.write_text(rgb.read_text())
    (tmp_path / "rgb.toml").write_text((rgb.parent / "rgb.toml").read_text())
    assert run_cli("optimize", source, "-o", tmp_path / "out").returncode == 0
    assert run_cli("run", source, "--emulate", "--from", tmp_path / "out", "--sizes", "256").returncode == 0
    source.write_text(rgb.read_text() + "\n// edited\n")
    proc = run_cli("run", source, "--emulate", "--from", tmp_path / "out", "--sizes", "256")
    assert_clean_failure(proc, "was made from another version", "coalda optimize", code=1)
    proc = run_cli("run", rgb, "--emulate", "--from", tmp_path / "out", "-O", "0", "--sizes", "256")
    assert_clean_failure(proc, "with other options", code=1)
    # clang flags passed through with `--` are options too
    source.write_text(rgb.read_text())
    assert run_cli("optimize", source, "-o", tmp_path / "out2", "--", "-DUNUSED=1").returncode == 0
    proc = run_cli("run", source, "--emulate", "--from", tmp_path / "out2", "--sizes", "256")
    assert_clean_failure(proc, "with other options", code=1)


def test_the_reproduce_line_reads_files_that_still_exist(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(int *p) { p[threadIdx.x] = ; }\n")
    proc = run_cli("optimize", bad, "-o", tmp_path / "out")
    command = proc.stderr.strip().splitlines()[-1].split("reproduce with: ", 1)[1]
    assert str(bad) in command and "-o /dev/null" in command


def test_outdir_has_the_usual_mode(tmp_path: Path, rgb: Path) -> None:
    assert run_cli("optimize", rgb, "-o", tmp_path / "out").returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o777 & ~umask


# ---- output hygiene: progress, template names, launch-spec messages, --help


def _with_stderr_on_a_terminal(*args: str | Path) -> tuple[int, str]:
    """Run coalda with stderr on a pseudo-terminal (stdout a pipe): (exit code, what the terminal got)."""
    import pty
    import subprocess
    import sys
    import threading

    master, slave = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    proc = subprocess.run([sys.executable, "-m", "coalda.cli", *map(str, args)], stdout=subprocess.PIPE,
                          stderr=slave, env=dict(os.environ, TERM="xterm"))
    os.close(slave)
    reader.join(timeout=10)
    os.close(master)
    return proc.returncode, b"".join(chunks).decode(errors="replace")


def test_long_runs_show_progress_on_a_terminal_and_quiet_silences_it(rgb: Path) -> None:
    stencil = TESTCASES / "analysis" / "stencil.cu"
    code, terminal = _with_stderr_on_a_terminal("analyze", rgb, stencil, "--format", "text")
    assert code == 0
    assert "analyzing" in terminal and "stencil.cu" in terminal and "/2" in terminal  # the bar's count
    code, terminal = _with_stderr_on_a_terminal("analyze", rgb, stencil, "--format", "text", "--quiet")
    assert code == 0 and "analyzing" not in terminal
    piped = run_cli("analyze", rgb, stencil, "--format", "text")
    assert piped.returncode == 0 and piped.stderr == ""  # a log gets no progress


TEMPLATE = """namespace img { struct Rgb { unsigned char r, g, b; }; }
template <typename T, int N>
__global__ void copy_members(T *dst, const T *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r;  dst[i].g = src[i].g;  dst[i].b = src[i].b;
}
template __global__ void copy_members<img::Rgb, 3>(img::Rgb *, const img::Rgb *);
__global__ void two(float *d, const float *s, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[3 * i] = s[3 * i] + m;
}
"""
TEMPLATE_NAME = "copy_members<img::Rgb, 3>"


def test_template_kernel_names_are_never_cut(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from coalda.report import print_findings

    source = tmp_path / "tmpl.cu"
    source.write_text(TEMPLATE)
    proc = run_cli("analyze", source, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)["reports"]
    for width in (80, 100, 160):
        out = io.StringIO()
        print_findings(report, Console(file=out, width=width, color_system=None))
        table = out.getvalue()
        assert "…" not in table and max(map(len, table.splitlines())) <= width
        kernel_cells = [line.split("│")[1].strip() for line in table.splitlines() if line.startswith("│")]
        if width >= 100:  # room for the whole name on one line
            assert TEMPLATE_NAME in kernel_cells
        else:  # folded onto two lines, every character kept
            joined = "".join(kernel_cells)
            assert TEMPLATE_NAME.replace(" ", "") in joined.replace(" ", "")


def test_a_wrong_argument_count_names_the_kernel_as_the_source_does(tmp_path: Path) -> None:
    source = tmp_path / "tmpl.cu"
    source.write_text(TEMPLATE)
    (tmp_path / "tmpl.toml").write_text(
        f'[kernels."{TEMPLATE_NAME}"]\nblock = 32\ngrid = "n // block"\nparams = [{{ name = "dst", out = "3*n" }}]\n'
    )
    proc = run_cli("run", source, "--emulate", "--sizes", "64")
    assert_clean_failure(proc, f"kernel {TEMPLATE_NAME} takes 2 argument(s) (dst, src), the spec lists 1 (dst)",
                         "one params entry per argument", code=1)
    assert "_Z" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    (tmp_path / "tmpl.toml").write_text(
        f'[kernels."{TEMPLATE_NAME}"]\nblock = 32\ngrid = "n // block"\n'
        'params = [{ name = "dst", out = "3*n" }, { name = "src", value = "n" }]\n'
    )
    proc = run_cli("run", source, "--emulate", "--sizes", "64")
    assert_clean_failure(proc, "argument 2 (src) is a pointer", "must be a buffer", code=1)


def test_two_scalars_say_how_to_write_the_launch_spec(tmp_path: Path) -> None:
    import re
    import tomllib

    source = tmp_path / "tmpl.cu"
    source.write_text(TEMPLATE)
    proc = run_cli("run", source, "--emulate", "--sizes", "64")
    assert_clean_failure(proc, "kernel two has 2 scalar parameters (n, m)", f"write a launch spec {tmp_path / 'tmpl.toml'}",
                         "[kernels.two]", "testcases/rgb.toml", "coalda run --help", code=1)
    assert len(proc.stderr.strip().splitlines()) == 1
    # the suggested params list is TOML that load_spec takes, one entry per argument
    params = re.search(r"params = (\[.*?\]):", proc.stderr).group(1)  # type: ignore[union-attr]
    entries = tomllib.loads(f"params = {params}")["params"]
    assert [(e["name"], next(k for k in e if k != "name")) for e in entries] == [
        ("d", "out"), ("s", "in"), ("n", "value"), ("m", "value")]
    assert entries[0]["out"] == "12*n"
    # and `coalda run --help` shows the format it points to
    help_text = run_cli("run", "--help").stdout
    assert "params = [" in help_text and '[kernels."copy<float, 3>"]' in help_text


def test_help_of_every_command_fits_100_columns() -> None:
    from click.testing import CliRunner

    from coalda.cli import cli

    commands = [[]] + [[name] for name in cli.commands]
    assert len(commands) >= 6
    for columns in ("100", "250"):  # a wide terminal as well
        runner = CliRunner(env={"COLUMNS": columns})
        for args in commands:
            result = runner.invoke(cli, [*args, "--help"])
            assert result.exit_code == 0, (args, result.output)
            widest = max(result.output.splitlines(), key=len)
            assert len(widest) <= 100, (args, widest)


def test_run_passes_pass_args_to_the_pass(tmp_path: Path, rgb: Path) -> None:
    """`coalda run --pass-arg` compiles with the pass's option, as `coalda
    optimize --pass-arg` does: an unknown one fails with opt's own message
    and the command to reproduce it; one that changes the result reaches
    the pass (nothing rewritten under -coalda-analyze-only). With --from the
    OUTDIR is already compiled, so the option would be silently ignored:
    refused in one line."""
    from coalda.driver.compile import CompileOptions
    from coalda.check.run_command import compile_or_reuse

    options = CompileOptions()

    def rewritten(args: tuple[str, ...]) -> bool:
        report = compile_or_reuse(rgb, options, None, ptx=False, pass_args=args).report
        return any(g["transformed"] for k in report["kernels"] for g in k["groups"])

    assert rewritten(()) and not rewritten(("-coalda-analyze-only",))
    proc = run_cli("run", rgb, "--emulate", "--sizes", "256", "--pass-arg=-coalda-no-such-option")
    assert_clean_failure(proc, "no-such-option", code=1)
    proc = run_cli("run", rgb, "--emulate", "--sizes", "256", "--pass-arg=-coalda-analyze-only")
    assert proc.returncode == 0 and "comparisons match" in proc.stdout
    assert run_cli("optimize", rgb, "-o", tmp_path / "out").returncode == 0
    proc = run_cli("run", rgb, "--emulate", "--from", tmp_path / "out", "--pass-arg=-coalda-analyze-only")
    assert_clean_failure(proc, "--pass-arg applies when COALDA compiles", code=1)
    proc = run_cli("bench", rgb, "--from", tmp_path / "out", "--pass-arg=-coalda-analyze-only")
    assert_clean_failure(proc, "--pass-arg applies when COALDA compiles", code=1)  # before looking for a GPU


def test_optimize_names_every_file_it_wrote_on_one_line_in_a_pipe(tmp_path: Path) -> None:
    """issue 36, item 10: 'Wrote' did not list before.ptx and remarks.yaml,
    and in a pipe optimize wrapped at 80 columns where analyze uses 200."""
    proc = run_cli("optimize", TESTCASES / "rgb.cu", "-o", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    wrote = [line for line in proc.stdout.splitlines() if line.startswith("Wrote ")]
    assert wrote == [f"Wrote {tmp_path / 'out'}/rgb.{{before.ll,after.ll,diff,before.ptx,after.ptx,report.json,"
                     "remarks.yaml}"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        f"rgb.{s}" for s in ("before.ll", "after.ll", "diff", "before.ptx", "after.ptx", "report.json", "remarks.yaml"))
    assert max(map(len, proc.stdout.splitlines())) > 80  # the table is not cut to 80 columns


def test_optimize_no_ptx_writes_the_ir_alone_and_the_gpu_asks_for_ptx(tmp_path: Path) -> None:
    """--no-ptx: IR, diff and findings (no llc, no ptxas); an earlier run's
    PTX in OUTDIR goes, since it is not this IR's. `run --from` emulates
    from it; a GPU run from it says in one line what is missing."""
    from coalda.check.run_command import compile_or_reuse
    from coalda.driver.compile import CompileOptions
    from coalda.errors import CoaldaError
    out = tmp_path / "out"
    assert run_cli("optimize", TESTCASES / "rgb.cu", "-o", out, "-q").returncode == 0
    assert (out / "rgb.after.ptx").is_file()
    proc = run_cli("optimize", TESTCASES / "rgb.cu", "-o", out, "-q", "--no-ptx")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"Wrote {out}/rgb.{{before.ll,after.ll,diff,report.json,remarks.yaml}}"
    assert not list(out.glob("*.ptx"))
    run = run_cli("run", TESTCASES / "rgb.cu", "--emulate", "-q", "--from", out)
    assert run.returncode == 0 and "comparisons match byte for byte" in run.stdout, run.stdout + run.stderr
    try:
        compile_or_reuse(TESTCASES / "rgb.cu", CompileOptions(), out, ptx=True)
    except CoaldaError as exc:
        assert "has no PTX (made by `coalda optimize --no-ptx`)" in str(exc)
    else:
        raise AssertionError("a GPU run from an OUTDIR without PTX went on")


def test_run_schedules_chooses_the_emulators_thread_orders() -> None:
    """--schedules: the kernels run under those orders only (rgb: 120
    comparisons, against all four orders' 210); an unknown order, or the
    flag on the GPU, is one line and exit 2."""
    two = run_cli("run", TESTCASES / "rgb.cu", "--emulate", "--schedules", "forward,reverse")
    four = run_cli("run", TESTCASES / "rgb.cu", "--emulate")
    assert "All 120 comparisons match" in two.stdout and "All 210 comparisons match" in four.stdout, two.stdout
    for args in (("--emulate", "--schedules", "sideways"), ("--schedules", "forward")):
        bad = run_cli("run", TESTCASES / "rgb.cu", *args)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--schedules" in bad.stderr, bad.stderr


def test_coalda_alone_prints_its_help_not_an_error() -> None:
    """issue 36, item 10: `coalda` with no arguments printed its usage as an error."""
    proc = run_cli()
    assert proc.returncode == 0 and not proc.stderr
    assert proc.stdout.startswith("Usage: ") and "analyze" in proc.stdout and "cc" in proc.stdout


def test_optimize_quiet_and_analyze_pass_args(tmp_path: Path) -> None:
    """issue 36, item 10: optimize had no -q, analyze no --pass-arg."""
    quiet = run_cli("optimize", TESTCASES / "rgb.cu", "-o", tmp_path / "out", "-q")
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout.startswith("Wrote ") and len(quiet.stdout.splitlines()) == 1
    staged = run_cli("analyze", TESTCASES / "staging.cu", "--format", "json", "-q")
    only = run_cli("analyze", TESTCASES / "staging.cu", "--format", "json", "-q", "--pass-arg=-coalda-analyze-only")
    assert staged.returncode == only.returncode == 0, only.stderr

    def done(proc) -> int:
        return sum(s["transformed"] for k in json.loads(proc.stdout)["reports"][0]["kernels"] for s in k.get("stagings", []))
    assert done(staged) > 0 and done(only) == 0
