"""`-p DIR` (compile_commands.json) and `--` (clang flags passed through):
the translation of nvcc's and clang's commands, and the CLI on a project."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from coalda.driver.compile import CompileOptions, clang_command
from coalda.errors import CoaldaError
from coalda.driver.project import load, select, translate
from conftest import run_cli

# What CMake 3.2x writes for a CUDA target built by nvcc.
NVCC = ("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 -D BAR -Iinc "
        "-isystem /opt/sys/include -O3 -DNDEBUG -std=c++17 "
        '"--generate-code=arch=compute_80,code=[compute_80,sm_80]" -Xcompiler -fPIC '
        "-Xcompiler -DHOST_ONLY --expt-relaxed-constexpr -x cu -c /src/a.cu -o CMakeFiles/a.dir/a.cu.o "
        "-MD -MT CMakeFiles/a.dir/a.cu.o -MF CMakeFiles/a.dir/a.cu.o.d")


def test_nvcc_command_keeps_includes_macros_and_std() -> None:
    includes, defines, flags, dropped = translate(shlex.split(NVCC)[1:], Path("/build"))
    assert includes == [Path("/build/inc")]  # relative to the entry's directory
    assert defines == ["FOO=1", "BAR", "NDEBUG"]
    assert flags == ["-isystem", "/opt/sys/include", "-std=c++17"]
    # nvcc-only options and COALDA's own choices are dropped with their values
    for word in ("-forward-unknown-to-host-compiler", "-O3", "--expt-relaxed-constexpr", "-Xcompiler", "-fPIC",
                 "-x", "cu", "-c", "/src/a.cu", "-o", "-MF", "-MD"):
        assert word in dropped, word
    assert "HOST_ONLY" not in " ".join(defines)  # an -Xcompiler value is the host compiler's


def test_clang_and_nvcc_long_spellings() -> None:
    args = ["-x", "cuda", "--cuda-gpu-arch=sm_80", "-std=c++20", "-I", "a", "-Ib", "-UDEBUG", "-U", "X",
            "-include", "pre.h", "--include-path=c", "--define-macro=Y=2", "--define-macro", "Z",
            "--std", "c++14", "--pre-include=q.h", "-iquote", "q", "-Wall", "-Werror", "-Id"]
    includes, defines, flags, dropped = translate(args, Path("/p"))
    assert includes == [Path("/p/a"), Path("/p/b"), Path("/p/c"), Path("/p/d")]
    assert defines == ["Y=2", "Z"]
    assert flags == ["-std=c++20", "-U", "DEBUG", "-U", "X", "-include", "/p/pre.h", "-std=c++14",
                     "-include", "/p/q.h", "-iquote", "/p/q"]
    assert dropped == ["-x", "cuda", "--cuda-gpu-arch=sm_80", "-Wall", "-Werror"]


def test_response_files_are_read(tmp_path: Path) -> None:
    (tmp_path / "includes.rsp").write_text('-I"dir with space" -DFROM_RSP\n')
    (tmp_path / "more.rsp").write_text("-Imore\n")
    includes, defines, _, _ = translate(["--options-file", "includes.rsp", "@more.rsp"], tmp_path)
    assert includes == [tmp_path / "dir with space", tmp_path / "more"]
    assert defines == ["FROM_RSP"]
    with pytest.raises(CoaldaError, match="cannot read options file"):
        translate(["@missing.rsp"], tmp_path)
    with pytest.raises(CoaldaError, match="has no value"):
        translate(["-I"], tmp_path)


def _database(build: Path, entries: list[dict[str, object]]) -> None:
    build.mkdir(parents=True, exist_ok=True)
    (build / "compile_commands.json").write_text(json.dumps(entries))


def test_load_takes_the_cu_entries_once(tmp_path: Path) -> None:
    _database(tmp_path / "build", [
        {"directory": str(tmp_path / "build"), "file": "../src/a.cu", "command": "nvcc -DA -c ../src/a.cu"},
        {"directory": str(tmp_path / "build"), "file": str(tmp_path / "src/a.cu"), "arguments": ["nvcc", "-DAGAIN"]},
        {"directory": str(tmp_path / "build"), "file": "../src/host.cpp", "command": "c++ -c ../src/host.cpp"},
        {"directory": str(tmp_path / "build"), "file": "../src/b.cu", "arguments": ["clang++", "-DB", "-Iinc"]},
    ])
    entries = load(tmp_path / "build")
    assert [e.file.name for e in entries] == ["a.cu", "b.cu"]
    assert entries[0].defines == ("A",)  # the first entry of a file compiled twice
    assert entries[1].includes == (tmp_path / "build" / "inc",)
    assert select(entries, [], tmp_path) == entries
    assert select(entries, [tmp_path / "src" / "b.cu"], tmp_path) == [entries[1]]
    with pytest.raises(CoaldaError, match="is not a .cu entry"):
        select(entries, [tmp_path / "src" / "c.cu"], tmp_path)


@pytest.mark.parametrize(("text", "message"), [
    (None, "CMAKE_EXPORT_COMPILE_COMMANDS"),
    ("{not json", "is not valid JSON"),
    ('{"file": "a.cu"}', "JSON list"),
    ('[{"file": "a.cu"}]', "needs `directory` and `file`"),
    ('[{"file": "a.cu", "directory": "/"}]', "needs `arguments`"),
])
def test_a_bad_database_is_one_clear_error(tmp_path: Path, text: str | None, message: str) -> None:
    if text is not None:
        (tmp_path / "compile_commands.json").write_text(text)
    with pytest.raises(CoaldaError, match=message):
        load(tmp_path)


def test_flags_after_double_dash_reach_clang_after_coaldas() -> None:
    cmd = clang_command(Path("k.cu"), CompileOptions(extra=("-std=c++20", "-Wall")), Path("k.ll"))
    assert cmd[-5:] == ["-std=c++20", "-Wall", "k.cu", "-o", "k.ll"]
    for own in ("-o", "-O2", "--cuda-gpu-arch=sm_80", "-c", "--cuda-host-only"):
        with pytest.raises(CoaldaError, match="COALDA's own choice"):
            CompileOptions(extra=(own,))


# ---- the CLI on a small project: two kernels that need the database's flags

KERNEL = """#include "pixel.h"
consteval int channels() { return CHANNELS; }  // C++20: needs the database's -std
__global__ void NAME(Pixel *d, const Pixel *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < channels(); c++) d[i].c[c] = s[i].c[c];
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "pixel.h").write_text("struct Pixel { unsigned char c[CHANNELS]; };\n")
    (tmp_path / "src").mkdir()
    for name in ("a", "b"):
        (tmp_path / "src" / f"{name}.cu").write_text(KERNEL.replace("NAME", f"copy_{name}"))
    build = tmp_path / "build"
    entries = []
    for name, channels in (("a", 3), ("b", 4)):
        # nvcc-only flags that clang-19 would refuse: they must be dropped
        command = (f"/usr/local/cuda/bin/nvcc -I../inc -DCHANNELS={channels} -std=c++20 --expt-relaxed-constexpr "
                   "-Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 -x cu "
                   f"-c ../src/{name}.cu -o {name}.o")
        entries.append({"directory": str(build), "file": f"../src/{name}.cu", "command": command})
    _database(build, entries)
    return tmp_path


def test_analyze_p_takes_each_files_flags(project: Path) -> None:
    proc = run_cli("analyze", "-p", project / "build", "--format", "json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    reports = json.loads(proc.stdout)["reports"]
    strides = {r["source"]: {a["stride"] for k in r["kernels"] for a in k["accesses"]} for r in reports}
    assert strides == {"src/a.cu": {3}, "src/b.cu": {4}}  # each entry's own -DCHANNELS, paths from the cwd
    sarif = json.loads(run_cli("analyze", "-p", "build", "--format", "sarif", cwd=project).stdout)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris == {"src/a.cu", "src/b.cu"}  # relative, as code scanning wants them
    # the files named on the command line, among the database's
    one = run_cli("analyze", "-p", project / "build", project / "src" / "b.cu", "--format", "json")
    assert one.returncode == 0, one.stderr
    [report] = json.loads(one.stdout)["reports"]
    assert Path(report["source"]).name == "b.cu"


def test_analyze_p_refuses_a_file_the_database_lacks(project: Path) -> None:
    other = project / "other.cu"
    other.write_text("__global__ void k(int *p) { p[threadIdx.x] = 0; }\n")
    proc = run_cli("analyze", "-p", project / "build", other)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("coalda: error:") and "is not a .cu entry of" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    nothing = run_cli("analyze", "-p", project / "src")
    assert nothing.returncode == 1 and "compile_commands.json not found" in nothing.stderr
    assert len(nothing.stderr.strip().splitlines()) == 1
    (project / "src" / "b.cu").unlink()  # an entry whose file is gone
    gone = run_cli("analyze", "-p", project / "build" / "compile_commands.json")
    assert gone.returncode == 1 and "b.cu (named in" in gone.stderr and "does not exist" in gone.stderr
    assert len(gone.stderr.strip().splitlines()) == 1


def test_analyze_needs_files_or_a_project() -> None:
    proc = run_cli("analyze")
    assert proc.returncode == 2 and proc.stderr.startswith("coalda: error:") and "-p DIR" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_optimize_p(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_cli("optimize", "-p", project / "build", project / "src" / "a.cu", "-o", out)
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "a.report.json").read_text())
    assert {a["stride"] for k in report["kernels"] for a in k["accesses"]} == {3}


def test_double_dash_passes_clang_flags_through(project: Path) -> None:
    source = project / "src" / "a.cu"
    without = run_cli("analyze", source, "--format", "json")
    assert without.returncode == 1  # no -I, -D or -std: clang refuses
    proc = run_cli("analyze", source, "--format", "json", "--", "-std=c++20", "-DCHANNELS=4", f"-I{project / 'inc'}")
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)["reports"]
    assert {a["stride"] for k in report["kernels"] for a in k["accesses"]} == {4}
    # after -p's flags: the command line's -D comes later and wins
    both = run_cli("analyze", "-p", project / "build", source, "--format", "json", "--", "-UCHANNELS",
                   "-DCHANNELS=2")
    assert both.returncode == 0, both.stderr
    [report] = json.loads(both.stdout)["reports"]
    assert {a["stride"] for k in report["kernels"] for a in k["accesses"]} == {2}
    refused = run_cli("analyze", source, "--", "-o", "x.ll")
    assert refused.returncode == 1 and "clang flag -o is COALDA's own choice" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    usage = run_cli("analyze", "--help").stdout
    assert "[-- CLANG_FLAG...]" in usage


def test_run_and_diff_take_a_project_and_clang_flags(project: Path) -> None:
    """`run`, `bench` and `diff` compile like `analyze`: -p's entry and the
    flags after `--` (a source that needs both its -I and its -D)."""
    source = project / "src" / "b.cu"
    ran = run_cli("run", "--emulate", "--sizes", "64", "-q", "-p", project / "build", source)
    assert ran.returncode == 0, ran.stderr
    assert "copy_b" in ran.stdout and "match byte for byte" in ran.stdout
    passed = run_cli("run", "--emulate", "--sizes", "64", "-q", source, "--", "-std=c++20", "-DCHANNELS=4",
                     f"-I{project / 'inc'}")
    assert passed.returncode == 0, passed.stderr
    without = run_cli("run", "--emulate", "--sizes", "64", "-q", source)
    assert without.returncode == 1 and "Traceback" not in without.stderr  # clang needs them
    diff = run_cli("diff", "-p", project / "build", source)
    assert diff.returncode == 0, diff.stderr
    assert "+" in diff.stdout and "coalda" in diff.stdout
    for command in ("run", "bench", "diff"):
        usage = run_cli(command, "--help").stdout
        assert "[-- CLANG_FLAG...]" in usage and "-p, --project DIR" in usage
