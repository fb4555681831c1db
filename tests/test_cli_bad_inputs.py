"""Adversarial inputs to the command line: the house rule is that bad input
gets ONE line on stderr (`coalda: error: ...`), a non-zero exit, no
traceback and no partial output.

Written by an adversarial pass over `coalda run` and its launch spec: 41
of its 44 findings (tracebacks from malformed specs, exit 0 with nothing
checked, values silently misread, a launch no GPU allows, a hang, unnamed
options) are fixed and pass here. The tests still marked xfail(strict=True)
break the rule today; each says what happens now. They XPASS, and so fail,
once fixed: drop the mark then."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli

KERNELS = """\
__global__ void scale(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = 2.0f * src[i];
}
__device__ float helper(float x) { return x + 1.0f; }
__global__ void copy2(float *dst, const float *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = helper(src[i]);
}
"""

SIZES = "sizes = [32]\n"
PARAMS = 'params = [{ name = "dst", out = "4*n" }, { name = "src", in = "4*n" }, { name = "n", value = "n" }]\n'
GOOD = SIZES + "[kernels.scale]\nblock = 32\nalign = 4\ngrid = \"cdiv(n, block)\"\n" + PARAMS


def scale(body: str, params: str = PARAMS, head: str = SIZES, name: str = "scale") -> str:
    """A spec of kernel scale (NAME) with BODY's keys."""
    return f"{head}[kernels.{name}]\n{body}\n{params}"


def with_params(*entries: str) -> str:
    return "params = [" + ", ".join(entries) + "]\n"


DST, SRC, N = '{ name = "dst", out = "4*n" }', '{ name = "src", in = "4*n" }', '{ name = "n", value = "n" }'


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with k.cu and its `coalda optimize` OUTDIR `out`."""
    root = tmp_path_factory.mktemp("badinputs")
    (root / "k.cu").write_text(KERNELS)
    proc = run_cli("optimize", "k.cu", "-o", "out", cwd=root)
    assert proc.returncode == 0, proc.stderr
    return root


def one_line_error(proc: subprocess.CompletedProcess[str], code: int | None = None) -> str:
    """PROC obeyed the rule; returns its message."""
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr[-3000:]
    assert lines[0].startswith("coalda: error: "), lines[0]
    assert proc.returncode != 0
    if code is not None:
        assert proc.returncode == code
    assert proc.stdout == "", proc.stdout[-2000:]
    return lines[0]


def run_spec(work: Path, text: str | bytes, *args: str, name: str = "spec.toml") -> subprocess.CompletedProcess[str]:
    spec = work / "specs" / name
    spec.parent.mkdir(exist_ok=True)
    if isinstance(text, bytes):
        spec.write_bytes(text)
    else:
        spec.write_text(text)
    return run_cli("run", "k.cu", "--emulate", "-q", "--from", "out", "--spec", spec, *args, cwd=work)


def test_the_good_spec_runs(work: Path) -> None:
    proc = run_spec(work, GOOD, name="good.toml")
    assert proc.returncode == 0, proc.stderr
    assert "comparisons match byte for byte" in proc.stdout


# --- specs refused in one line today ----------------------------------------------------------------

REFUSED = {
    "toml_syntax": ("sizes = [32\n", "cannot read launch spec"),
    "params_a_string": (scale("block = 32\nalign = 4", 'params = "abc"\n'), "params is a list of tables"),
    "block_4_entries": (scale("block = [32, 1, 1, 1]\nalign = 4"), "1 to 3 entries"),
    "block_empty_list": (scale("block = []\nalign = 4"), "1 to 3 entries"),
    "block_unknown_name": (scale('block = "abc"\nalign = 4'), "abc is not allowed"),
    "block_float": (scale("block = 32.0\nalign = 4"), "cannot evaluate"),
    "block_table": (scale("block = { x = 1 }\nalign = 4"), "cannot evaluate"),
    "block_negative": (scale("block = -32\nalign = 4"), "empty launch"),
    "block_2048_default_grid": (scale("block = 2048\nalign = 4"), "empty launch"),
    "grid_unknown_name": (scale('block = 32\nalign = 4\ngrid = "m"'), "m is not allowed"),
    "grid_attribute": (scale('block = 32\nalign = 4\ngrid = "n.bit_length()"'), "is not allowed"),
    "grid_star_args": (scale('block = 32\nalign = 4\ngrid = "min(*n)"'), "is not allowed"),
    "grid_float": (scale('block = 32\nalign = 4\ngrid = "1.5"'), "is not allowed"),
    "grid_power": (scale('block = 32\nalign = 4\ngrid = "10**12"'), "is not allowed"),
    "grid_too_large": (scale('block = 32\nalign = 4\ngrid = "1000000*1000000"'), "too large for the emulator"),
    "grid_2d_too_large": (scale("block = 1024\nalign = 4\ngrid = [65536, 65536, 1]"), "too large for the emulator"),
    "grid_negative": (scale('block = 32\nalign = 4\ngrid = "-1"'), "empty launch"),
    "grid_empty_string": (scale('block = 32\nalign = 4\ngrid = ""'), "not an expression"),
    "grid_nul": (scale('block = 32\nalign = 4\ngrid = "1\\u0000"'), "not an expression"),
    "size_float": (scale("block = 32\nalign = 4", with_params('{ name = "dst", out = 12.5 }', SRC, N)), "cannot evaluate"),
    "size_list": (scale("block = 32\nalign = 4", with_params('{ name = "dst", out = [1] }', SRC, N)), "cannot evaluate"),
    "value_unknown_name": (scale("block = 32\nalign = 4", with_params(DST, SRC, '{ name = "n", value = "zz" }')),
                           "zz is not allowed"),
    "int32_odd_size": (scale("block = 32\nalign = 4", with_params(DST, '{ name = "src", in = "4*n+1", int32 = "n" }', N)),
                       "multiple of 4"),
    "int32_unknown_name": (scale("block = 32\nalign = 4", with_params(DST, '{ name = "src", in = "4*n", int32 = "qq" }', N)),
                           "qq is not allowed"),
    "param_without_name": (scale("block = 32\nalign = 4", with_params('{ out = "4*n" }', SRC, N)), "needs a name"),
    "param_unknown_key": (scale("block = 32\nalign = 4", with_params('{ name = "dst", out = "4*n", foo = 1 }', SRC, N)),
                          "unknown keys foo"),
    "param_two_kinds": (scale("block = 32\nalign = 4", with_params('{ name = "dst", out = "4*n", in = "4*n" }', SRC, N)),
                        "exactly one of"),
    "param_align_string": (scale("block = 32\nalign = 4", with_params('{ name = "dst", out = "4*n", align = "x" }', SRC, N)),
                           "power of two"),
    "params_missing": (scale("block = 32\nalign = 4", ""), "takes 3 argument(s)"),
    "params_too_few": (scale("block = 32\nalign = 4", with_params(DST)), "the spec lists 1"),
    "params_swapped": (scale("block = 32\nalign = 4", with_params(N, SRC, '{ name = "dst", out = "4*n" }')),
                       "is a pointer"),
    "kernel_unknown_key": (scale("block = 32\nalign = 4\nfoo = 1"), "unknown keys foo"),
    "same_as_missing": (scale('block = 32\nalign = 4\nsame_as = "nope"'), "same_as names nope"),
    "shared_negative": (scale("block = 32\nalign = 4\nshared = -1"), "dynamic shared memory of -1"),
    "shared_over_48k": (scale("block = 32\nalign = 4\nshared = 100000"), "0 to 49152"),
    "shared_unknown_name": (scale('block = 32\nalign = 4\nshared = "x"'), "x is not allowed"),
    "kernel_table_twice": (GOOD + "[kernels.scale]\nblock = 32\n", "twice"),
    "kernel_name_quote": (scale("block = 32\nalign = 4", name='"sc\\"ale"'), "does not define"),
    "kernel_name_space": (scale("block = 32\nalign = 4", name='"sc ale"'), "does not define"),
    "kernel_name_unicode": (scale("block = 32\nalign = 4", name='"sc\u00e4le\u2603"'), "does not define"),
    "device_function": (scale("block = 32", 'params = [{ name = "x", value = "n" }]\n', name="helper"),
                        "does not define"),
    "size_negative": (scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"', head="sizes = [-5]\n"), "empty launch"),
    "size_zero": (scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"', head="sizes = [0]\n"), "empty launch"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_bad_spec_is_refused_in_one_line(work: Path, case: str) -> None:
    text, says = REFUSED[case]
    assert says in one_line_error(run_spec(work, text, name=f"{case}.toml"), code=1)


def test_a_spec_expression_cannot_run_python(work: Path) -> None:
    marker = work / "pwned"
    grid = f"__import__('os').system('touch {marker}')"
    proc = run_spec(work, scale(f'block = 32\nalign = 4\ngrid = "{grid}"'), name="inject.toml")
    assert "is not allowed" in one_line_error(proc, code=1)
    assert not marker.exists()


# --- malformed specs (each comment: what it raised before the fix) ----------------------------------

def _deep() -> str:
    return scale('block = 32\nalign = 4\ngrid = "' + "1+" * 50000 + '1"')


CRASHES = {
    # AttributeError: 'int' object has no attribute 'items' (spec.load_spec)
    "kernels_not_a_table": "kernels = 5\n",
    # AttributeError: 'int' object has no attribute 'get'
    "kernel_not_a_table": "[kernels]\nscale = 5\n",
    # TypeError: argument of type 'int' is not iterable (spec._param)
    "params_of_ints": scale("block = 32\nalign = 4", "params = [1, 2, 3]\n"),
    # ValueError: invalid literal for int() with base 10: 'abc' (int(raw["align"]))
    "align_string": scale('block = 32\nalign = "abc"'),
    # ValueError: range() arg 3 must not be zero (oracle._steps)
    "align_zero": scale("block = 32\nalign = 0"),
    # ValueError: invalid literal for int() (spec.sizes = [int(s) ...])
    "sizes_a_string": scale("block = 32\nalign = 4", head='sizes = "abc"\n'),
    "sizes_of_strings": scale("block = 32\nalign = 4", head='sizes = ["x"]\n'),
    # TypeError: 'int' object is not iterable
    "sizes_an_int": scale("block = 32\nalign = 4", head="sizes = 32\n"),
    # numpy ArrayMemoryError: Unable to allocate 3.64 TiB
    "size_enormous": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"', head="sizes = [1000000000000]\n"),
    # ZeroDivisionError in the default grid "n // block"
    "block_zero": scale("block = 0\nalign = 4"),
    "block_x_zero": scale("block = [0, 1, 1]\nalign = 4"),
    # ZeroDivisionError / integer modulo by zero
    "grid_divides_by_zero": scale('block = 32\nalign = 4\ngrid = "n // 0"'),
    "grid_modulo_zero": scale('block = 32\nalign = 4\ngrid = "n % 0"'),
    "grid_cdiv_zero": scale('block = 32\nalign = 4\ngrid = "cdiv(n, 0)"'),
    # RecursionError: maximum recursion depth exceeded during ast construction
    "grid_deeply_nested": _deep(),
    # TypeError: min expected at least 1 argument, got 0
    "grid_min_of_nothing": scale('block = 32\nalign = 4\ngrid = "min()"'),
    # TypeError: <lambda>() missing 1 required positional argument: 'b'
    "grid_cdiv_one_argument": scale('block = 32\nalign = 4\ngrid = "cdiv(n)"'),
    # ValueError: negative dimensions are not allowed (oracle._contents)
    "inout_negative": scale("block = 32\nalign = 4", with_params('{ name = "dst", inout = "-5" }', SRC, N)),
    # numpy ArrayMemoryError: Unable to allocate 931 GiB
    "buffer_enormous": scale("block = 32\nalign = 4", with_params('{ name = "dst", out = "1000000000000" }', SRC, N)),
    # OverflowError: Python integer 10000000000 out of bounds for int32
    "int32_out_of_range": scale("block = 32\nalign = 4",
                                with_params(DST, '{ name = "src", in = "4*n", int32 = "10000000000" }', N)),
}


@pytest.mark.parametrize("case", CRASHES)
def test_a_malformed_spec_gets_one_line_not_a_traceback(work: Path, case: str) -> None:
    one_line_error(run_spec(work, CRASHES[case], name=f"{case}.toml"), code=1)


@pytest.mark.parametrize("data", [b"\x00\x01\x02\xff", b"sizes = [32]\n# \xff\n"], ids=["binary", "latin1_comment"])
def test_a_spec_that_is_not_utf8_gets_one_line(work: Path, data: bytes) -> None:
    assert "launch spec" in one_line_error(run_spec(work, data, name="bytes.toml"), code=1)


# Specs that mean nothing (or not what they say), which exited 0: the rule
# wants a refusal. Each entry: what happened before it was fixed.
SILENT = {
    # exit 0, no output at all: nothing was checked
    "empty_file": "",
    "no_kernels_table": SIZES,
    "empty_kernels_table": SIZES + "[kernels]\n",
    "empty_sizes": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"', head="sizes = []\n"),
    # a misspelt top-level key (`size` for `sizes`) is ignored, while a
    # kernel's unknown keys are refused: it runs the default sizes
    "misspelt_top_level_key": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"', head="size = [32]\n"),
    # bool("false") is True: the string asks for no overlap layouts and gets them
    "overlap_a_string": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"\noverlap = "false"'),
    # int(4.5) == 4 and int(32.7) == 32: fractions silently truncated
    "align_fraction": scale('block = 32\nalign = 4.5\ngrid = "cdiv(n, block)"'),
    "size_fraction": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"', head="sizes = [32.7]\n"),
    # a keyword argument is dropped: gcd(n, b=3) is gcd(n)
    "keyword_argument": scale('block = "gcd(n, b=3)"\nalign = 4\ngrid = "cdiv(n, block)"'),
    # a parameter named by an int
    "param_name_an_int": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"',
                               with_params('{ name = 5, out = "4*n" }', SRC, N)),
    # no GPU launches more than 1024 threads a block, nor a block z above 64
    "block_of_2048": scale("block = 2048\nalign = 4\ngrid = 1"),
    "block_z_128": scale("block = [1, 1, 128]\nalign = 4\ngrid = 1"),
    # an int parameter passed 10**13: silently wrapped
    "value_beyond_int32": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"',
                                with_params(DST, SRC, '{ name = "n", value = "10000000000000" }')),
    # compared with itself: proves nothing, reported as matching
    "same_as_itself": scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"\nsame_as = "scale"'),
}


@pytest.mark.parametrize("case", [
    pytest.param(case, marks=pytest.mark.xfail(strict=True, reason="an int parameter's value is taken modulo "
                                                "2^bits, so 10**13 is silently wrapped"))
    if case == "value_beyond_int32" else case for case in SILENT])
def test_a_meaningless_spec_is_refused(work: Path, case: str) -> None:
    one_line_error(run_spec(work, SILENT[case], name=f"{case}.toml"), code=1)


@pytest.mark.xfail(strict=True, reason="an `out` buffer smaller than the kernel writes is blamed on a racy "
                                       "original ('fix the test kernel'), not on the spec's buffer size")
def test_an_output_buffer_too_small_is_blamed_on_the_spec(work: Path) -> None:
    proc = run_spec(work, scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"',
                                with_params('{ name = "dst", out = "4" }', SRC, N)), name="small_out.toml")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "racy" not in proc.stderr, proc.stderr


@pytest.mark.xfail(strict=True, reason="reads past an `in` buffer (into the guard zone) pass: exit 0, all match")
def test_an_input_buffer_too_small_is_reported(work: Path) -> None:
    proc = run_spec(work, scale('block = 32\nalign = 4\ngrid = "cdiv(n, block)"',
                                with_params(DST, '{ name = "src", in = "4" }', N)), name="small_in.toml")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr


def test_a_launch_the_emulator_cannot_finish_is_refused_quickly(work: Path) -> None:
    spec = work / "specs" / "big_grid.toml"
    spec.parent.mkdir(exist_ok=True)
    spec.write_text(scale("block = 1024\nalign = 4\ngrid = 100000"))
    try:
        proc = subprocess.run([sys.executable, "-m", "coalda.cli", "run", "k.cu", "--emulate", "-q", "--from", "out",
                               "--spec", str(spec)], capture_output=True, text=True, cwd=work, timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail("still running after 5 s")
    one_line_error(proc, code=1)


# --- the command line -------------------------------------------------------------------------------

@pytest.mark.parametrize("args, says", [
    (("run", "missing.cu", "--emulate"), "does not exist"),
    (("run", ".", "--emulate"), "is a directory"),
    (("run", "k.cu", "--emulate", "--from", "out", "--spec", "nope.toml"), "launch spec nope.toml not found"),
    (("run", "k.cu", "--emulate", "--from", "out", "--spec", "."), "is a directory"),
    (("run", "k.cu", "--emulate", "--from", "out", "--sizes", "abc"), "comma-separated integers"),
    (("run", "k.cu", "--emulate", "--from", "out", "--sizes", "-5"), "positive"),
    (("run", "k.cu", "--emulate", "--from", "out", "--sizes", ""), "Invalid value"),
    (("run", "k.cu", "--emulate", "--from", "out", "--sizes", ",,,"), "Invalid value"),
    (("run", "k.cu", "--emulate", "--from", "out", "--seed", "x"), "not a valid integer"),
    (("run", "k.cu", "--emulate", "-O", "7"), "not in the range"),
    (("run", "k.cu", "--emulate", "--from", "nodir"), "is not an OUTDIR"),
    (("run", "k.cu", "--emulate", "--from", "k.cu"), "is a file"),
    (("run", "k.cu", "--emulate", "--from", "out", "-O", "2"), "another version"),
    (("analyze",), "give one or more FILE.cu"),
    (("analyze", "--max", "-1", "k.cu"), "not in the range"),
    (("diff", "k.cu", "-O", "9"), "not in the range"),
    (("diff", "missing.cu"), "does not exist"),
    (("analyze", "k.cu", "--html", "nodir/x.html"), "cannot write the HTML report"),
])
def test_bad_arguments_get_one_line(work: Path, args: tuple[str, ...], says: str) -> None:
    proc = run_cli(*args, cwd=work)
    assert says in one_line_error(proc)
    assert not (work / "nodir").exists()


@pytest.mark.parametrize("source", ["", "__device__ int f(int x) { return x; }\n"], ids=["empty", "no_kernel"])
@pytest.mark.parametrize("command", ["run", "analyze", "diff"])
def test_a_source_without_kernels_gets_one_line(tmp_path: Path, source: str, command: str) -> None:
    (tmp_path / "x.cu").write_text(source)
    extra = ("--emulate", "-q") if command == "run" else ()
    assert "defines no CUDA kernel" in one_line_error(run_cli(command, "x.cu", *extra, cwd=tmp_path), code=1)


def test_optimize_into_a_file_is_refused_and_writes_nothing(work: Path) -> None:
    (work / "afile").write_text("keep\n")
    assert "not a directory" in one_line_error(run_cli("optimize", "k.cu", "-o", "afile", cwd=work), code=1)
    assert (work / "afile").read_text() == "keep\n"


def test_a_source_clang_rejects_leaves_no_outdir(tmp_path: Path) -> None:
    (tmp_path / "syn.cu").write_text("__global__ void k(float *d) { d[threadIdx.x] = ; }\n")
    proc = run_cli("optimize", "syn.cu", "-o", "out", cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("coalda: error: clang could not compile syn.cu")
    assert proc.stdout == ""
    assert not (tmp_path / "out").exists()


def test_a_corrupt_ir_in_the_outdir_gets_one_line(work: Path) -> None:
    bad = work / "corrupt_ll"
    shutil.copytree(work / "out", bad, dirs_exist_ok=True)
    (bad / "k.after.ll").write_text("garbage\n")
    assert "cannot read this IR" in one_line_error(run_cli("run", "k.cu", "--emulate", "-q", "--from", bad, cwd=work))


def test_a_source_named_with_spaces_and_non_utf8_bytes_runs(tmp_path: Path) -> None:
    src = tmp_path / "sp ace.cu"
    src.write_bytes(KERNELS.encode() + b"// \xff\xfe latin-1 bytes\n")
    (tmp_path / "sp ace.toml").write_text(GOOD)
    proc = run_cli("run", src.name, "--emulate", "-q", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "comparisons match byte for byte" in proc.stdout


def test_a_negative_seed_gets_one_line(work: Path) -> None:
    proc = run_spec(work, GOOD, "--seed", "-1", name="seed.toml")
    assert proc.returncode == 0 or one_line_error(proc)


def test_an_enormous_size_gets_one_line(work: Path) -> None:
    one_line_error(run_spec(work, GOOD, "--sizes", "1000000000000", name="huge.toml"), code=1)


def test_an_empty_sizes_option_is_named(work: Path) -> None:
    message = one_line_error(run_cli("run", "k.cu", "--emulate", "--from", "out", "--sizes", "", cwd=work), code=2)
    assert "--sizes" in message and "positive" not in message


@pytest.mark.parametrize("report", ["{not json", "[1, 2]"], ids=["not_json", "a_list"])
def test_a_corrupt_report_in_the_outdir_gets_one_line(work: Path, report: str) -> None:
    bad = work / f"corrupt_report_{len(report)}"
    shutil.copytree(work / "out", bad, dirs_exist_ok=True)
    (bad / "k.report.json").write_text(report)
    assert json.loads((work / "out" / "k.report.json").read_text())  # the original is fine
    one_line_error(run_cli("run", "k.cu", "--emulate", "-q", "--from", bad, cwd=work), code=1)
