"""The wrapper headers' PCH (coalda/driver/pch.py): a compile with it gives
the IR a compile without it gives, the PCH is built once per set of flags
and shared, and a PCH that clang refuses costs only time."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

from coalda.driver import pch
from coalda.driver.cc import embedded_images
from coalda.driver.compile import CompileOptions, compile_to_ir
from coalda.driver.toolchain import toolchain
from coalda.errors import ToolFailed
from conftest import run_cli

KERNEL = """__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = sqrtf(x[i]) * FACTOR;
}
"""

# clang, writing each run's arguments to $COALDA_TEST_RUNS (one line each)
COUNTING_CLANG = """#!/bin/sh
echo "$*" >> "$COALDA_TEST_RUNS"
exec {clang} "$@"
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A kernel, a PCH directory of its own, no IR cache (every compile runs
    clang) and a clang that logs its runs (tmp_path/runs)."""
    (tmp_path / "scale.cu").write_text(KERNEL)
    clang = tmp_path / "clang"
    clang.write_text(COUNTING_CLANG.format(clang=toolchain().clang))
    clang.chmod(0o755)
    monkeypatch.setenv("COALDA_CLANG", str(clang))
    monkeypatch.setenv("COALDA_TEST_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("COALDA_IR_CACHE", "off")
    monkeypatch.setenv("COALDA_PCH", str(tmp_path / "pch"))
    monkeypatch.chdir(tmp_path)
    toolchain.cache_clear()
    yield tmp_path
    toolchain.cache_clear()


def runs(project: Path) -> list[str]:
    path = project / "runs"
    return path.read_text().splitlines() if path.exists() else []


def builds(project: Path) -> int:
    return sum("-emit-pch" in run for run in runs(project))


def compile_once(project: Path, name: str, *, factor: str = "2.0f", opt_level: int = 3,
                 variables: bool = False) -> str:
    out = project / name
    compile_to_ir(project / "scale.cu", CompileOptions(opt_level=opt_level, defines=(f"FACTOR={factor}",)), out,
                  variables=variables)
    return out.read_text()


def without_module_id(ir: str) -> str:
    return "\n".join(line for line in ir.splitlines() if not line.startswith("; ModuleID"))


def without_debug_info(project: Path, name: str) -> str:
    """NAME's IR as opt --strip-debug writes it: no debug metadata, the
    rest numbered again."""
    stripped = project / f"{name}.stripped"
    subprocess.run([toolchain().opt, "--strip-debug", "-S", project / name, "-o", stripped], check=True)
    return without_module_id(stripped.read_text())


@pytest.mark.parametrize("opt_level", [0, 3])
def test_the_ir_is_the_ir_without_it(project: Path, opt_level: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Line tables only: the same IR, byte for byte (but the output's
    name)."""
    with_pch = compile_once(project, "a.ll", opt_level=opt_level)
    assert builds(project) == 1 and any("-include-pch" in run for run in runs(project))
    monkeypatch.setenv("COALDA_PCH", "off")
    assert without_module_id(with_pch) == without_module_id(compile_once(project, "b.ll", opt_level=opt_level))
    assert "2.000000e+00" in with_pch and "sqrt" in with_pch


def test_with_the_variables_the_code_is_the_code_without_it(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the variables' debug info (`-g`): the same code; the debug info
    lacks the C++ headers' `using` declarations (pch.py)."""
    compile_once(project, "a.ll", variables=True)
    monkeypatch.setenv("COALDA_PCH", "off")
    compile_once(project, "b.ll", variables=True)
    assert builds(project) == 1
    assert without_debug_info(project, "a.ll") == without_debug_info(project, "b.ll")


def test_built_once_per_set_of_flags(project: Path) -> None:
    """The second compile with the same flags reads the first one's PCH; a
    new -D is a new set of flags, and a new PCH."""
    first = compile_once(project, "a.ll")
    compile_once(project, "b.ll")
    assert builds(project) == 1 and len(runs(project)) == 3
    assert "3.000000e+00" in compile_once(project, "c.ll", factor="3.0f") and "2.000000e+00" in first
    assert builds(project) == 2
    assert len(list((project / "pch").glob("*.pch"))) == 2


def test_one_pch_serves_every_directory_but_for_relative_paths(project: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The same flags from another directory read the same PCH; a relative
    -I names another directory's headers there, and gets a PCH of its own."""
    compile_once(project, "a.ll")
    (project / "elsewhere" / "inc").mkdir(parents=True)
    monkeypatch.chdir(project / "elsewhere")
    compile_once(project, "b.ll")
    assert builds(project) == 1
    for directory in (project / "elsewhere", project):
        monkeypatch.chdir(directory)
        compile_to_ir(project / "scale.cu", CompileOptions(includes=(Path("inc"),), defines=("FACTOR=2.0f",)),
                      project / "c.ll")
    assert builds(project) == 3


def test_off_turns_it_off(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COALDA_PCH", "off")
    compile_once(project, "a.ll")
    compile_once(project, "b.ll")
    assert len(runs(project)) == 2 and builds(project) == 0
    assert not (project / "pch").exists()


def test_a_damaged_pch_falls_back_and_is_built_again(project: Path) -> None:
    """clang refuses a truncated PCH: the compile runs again without it, its
    IR is the IR, and the next compile builds a good one."""
    good = compile_once(project, "a.ll")
    [built] = (project / "pch").glob("*.pch")
    built.write_bytes(built.read_bytes()[:4096])
    assert without_module_id(compile_once(project, "b.ll")) == without_module_id(good)
    assert not built.exists()
    compile_once(project, "c.ll")
    assert builds(project) == 2 and built.stat().st_size > 4096
    assert len(runs(project)) == 1 + 1 + 2 + 1 + 1  # build, compile; refused, plain; build, compile


def test_a_users_error_is_reported_as_without_it(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A source that does not compile: the error and the command to
    reproduce it are those of the compile without the PCH, and the PCH,
    which was not at fault, stays."""
    (project / "scale.cu").write_text(KERNEL.replace("x[i] =", "x[i] = undeclared +"))
    with pytest.raises(ToolFailed) as with_pch:
        compile_once(project, "a.ll")
    assert list((project / "pch").glob("*.pch"))
    monkeypatch.setenv("COALDA_PCH", "off")
    with pytest.raises(ToolFailed) as plain:
        compile_once(project, "b.ll")
    assert with_pch.value.stderr == plain.value.stderr
    assert with_pch.value.stderr.count("undeclared identifier 'undeclared'") == 1
    assert "-include-pch" not in with_pch.value.cmd and str(with_pch.value) == str(plain.value).replace("b.ll", "a.ll")


def test_concurrent_compiles_build_it_once(project: Path) -> None:
    """Four compiles at once with the same flags: one builds the PCH, the
    others wait for it under the lock and read it."""
    errors: list[BaseException] = []

    def compile_in_thread(name: str) -> None:
        try:
            compile_once(project, name)
        except BaseException as exc:  # noqa: BLE001 - reported by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=compile_in_thread, args=(f"{n}.ll",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert builds(project) == 1 and sum("-include-pch" in run for run in runs(project)) == 4


def test_a_directory_that_cannot_be_written_costs_only_time(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "file").write_text("")
    monkeypatch.setenv("COALDA_PCH", str(project / "file" / "pch"))
    assert without_module_id(compile_once(project, "a.ll")) == without_module_id(compile_once(project, "b.ll"))
    assert len(runs(project)) == 2


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    for age, name in enumerate(["old", "mid", "new"]):
        entry = tmp_path / f"{name}.pch"
        entry.write_bytes(b"x" * 100)
        os.utime(entry, ns=(age * 10**9, age * 10**9))
    (tmp_path / "old.lock").write_text("")
    pch.prune(tmp_path, limit=250)
    assert sorted(p.name for p in tmp_path.glob("*.pch")) == ["mid.pch", "new.pch"]


def test_coalda_cc_device_code_is_the_code_without_it(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`coalda cc`'s device and host compiles read PCHs as well: one per
    set of flags (the -Wcoalda report's path, each compile's own, is not in
    the key), and the object, its device code included, is byte for byte
    the object of a build without them, with the same findings."""
    (project / "other.cu").write_text(KERNEL.replace("scale", "shift"))
    with_pch = {}
    for name in ("scale", "other"):
        proc = run_cli("cc", "-Wcoalda", "-DFACTOR=2.0f", "-c", project / f"{name}.cu", "-o", project / f"{name}.o",
                       env=dict(os.environ))
        assert proc.returncode == 0, proc.stderr
        with_pch[name] = proc.stderr
    assert builds(project) == 2  # the device compile's, the host compile's
    assert sum("-include-pch" in run for run in runs(project)) == 4
    monkeypatch.setenv("COALDA_PCH", "off")
    plain = run_cli("cc", "-Wcoalda", "-DFACTOR=2.0f", "-c", project / "scale.cu", "-o", project / "plain.o",
                    env=dict(os.environ))
    assert plain.returncode == 0, plain.stderr
    assert plain.stderr == with_pch["scale"] and "coalda" in plain.stderr
    assert embedded_images(project / "scale.o") == embedded_images(project / "plain.o") != []
    assert (project / "scale.o").read_bytes() == (project / "plain.o").read_bytes()


def test_coalda_cc_shows_a_device_error_once(project: Path) -> None:
    """A device compile that fails with the PCH runs again without it, and
    the user reads clang's error once."""
    (project / "bad.cu").write_text("__global__ void k(float *x) { x[0] = undefined_name; }\n")
    proc = run_cli("cc", "-c", project / "bad.cu", "-o", project / "bad.o", env=dict(os.environ))
    assert proc.returncode != 0
    assert proc.stderr.count("use of undeclared identifier 'undefined_name'") == 1, proc.stderr
    assert builds(project) == 1 and not (project / "bad.o").exists()


def test_coalda_cc_keeps_dependency_files_and_debug_info_as_they_were(project: Path) -> None:
    """A host compile that writes a dependency file takes no PCH (the file
    would name the PCH's header, in COALDA's cache, for `make` to look
    for); nor does any compile of a build with debug info (it would lack
    the C++ headers' `using` declarations)."""
    proc = run_cli("cc", "-DFACTOR=2.0f", "-MD", "-MF", project / "scale.d", "-c", project / "scale.cu",
                   "-o", project / "scale.o", env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr
    assert str(project / "pch") not in (project / "scale.d").read_text()
    assert [("--cuda-host-only" in run, "-include-pch" in run) for run in runs(project) if "-emit-pch" not in run] \
        == [(False, True), (True, False)]
    (project / "runs").unlink()
    proc = run_cli("cc", "-g", "-DFACTOR=2.0f", "-c", project / "scale.cu", "-o", project / "debug.o",
                   env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr
    assert len(runs(project)) == 2 and not any("-pch" in run for run in runs(project))
