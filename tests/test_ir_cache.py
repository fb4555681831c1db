"""The IR cache (coalda/driver/ir_cache.py): a compile is taken from it only
when clang would read the same bytes with the same command, in the same
directory, with the same tools; anything else compiles again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from coalda.driver import ir_cache
from coalda.driver.compile import CompileOptions, compile_to_ir
from coalda.driver.toolchain import toolchain
from coalda.errors import ToolFailed

KERNEL = """#include "scale.h"
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= FACTOR;
}
"""

# clang, counting its compiles in $COALDA_TEST_RUNS (one line each; the
# builds of the wrapper headers' PCH, test_pch.py's, are not compiles)
COUNTING_CLANG = """#!/bin/sh
case "$*" in *-emit-pch*) ;; *) echo run >> "$COALDA_TEST_RUNS";; esac
exec {clang} "$@"
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A source with a project header, a cache of its own, and a clang that
    counts its runs (tmp_path/runs)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "scale.cu").write_text(KERNEL)
    (tmp_path / "src" / "scale.h").write_text("#define FACTOR 2.0f\n")
    clang = tmp_path / "clang"
    clang.write_text(COUNTING_CLANG.format(clang=toolchain().clang))
    clang.chmod(0o755)
    monkeypatch.setenv("COALDA_CLANG", str(clang))
    monkeypatch.setenv("COALDA_TEST_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("COALDA_IR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("COALDA_PCH", str(tmp_path / "pch"))
    monkeypatch.chdir(tmp_path)
    toolchain.cache_clear()
    yield tmp_path
    toolchain.cache_clear()


def runs(project: Path) -> int:
    path = project / "runs"
    return len(path.read_text().splitlines()) if path.exists() else 0


def compile_once(project: Path, name: str, opt_level: int = 3) -> str:
    out = project / name
    compile_to_ir(project / "src" / "scale.cu", CompileOptions(opt_level=opt_level, includes=(project / "src",)), out,
                  variables=True)
    return out.read_text()


@pytest.mark.parametrize("opt_level", [0, 3])
def test_the_same_compile_is_taken_from_the_cache(project: Path, opt_level: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The second compile runs no clang and gives the bytes clang (and at
    -O0 compile.O0_PASSES) would have written there."""
    compile_once(project, "a.ll", opt_level)
    hit = compile_once(project, "b.ll", opt_level)
    assert runs(project) == 1
    monkeypatch.setenv("COALDA_IR_CACHE", "off")
    assert hit == compile_once(project, "b.ll", opt_level)
    assert runs(project) == 2
    assert "2.000000e+00" in hit


def test_an_edited_header_compiles_again(project: Path) -> None:
    """A header the source includes is part of what the entry checks: its
    new contents give new IR."""
    compile_once(project, "a.ll")
    (project / "src" / "scale.h").write_text("#define FACTOR 3.0f\n")
    ir = compile_once(project, "b.ll")
    assert runs(project) == 2
    assert "3.000000e+00" in ir


def test_a_touched_file_with_the_same_bytes_is_a_hit(project: Path) -> None:
    compile_once(project, "a.ll")
    header = project / "src" / "scale.h"
    later = header.stat().st_mtime_ns + 5_000_000_000
    os.utime(header, ns=(later, later))
    compile_once(project, "b.ll")
    assert runs(project) == 1


def test_the_command_the_directory_and_the_tools_are_part_of_the_key(project: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Another -O level, another working directory (the debug info's), the
    same clang rebuilt (another modification time): each compiles again."""
    compile_once(project, "a.ll")
    compile_once(project, "b.ll", opt_level=2)
    assert runs(project) == 2
    (project / "elsewhere").mkdir()
    monkeypatch.chdir(project / "elsewhere")
    compile_once(project, "c.ll")
    assert runs(project) == 3
    clang = project / "clang"
    os.utime(clang, ns=(clang.stat().st_mtime_ns + 10**9,) * 2)
    compile_once(project, "d.ll")
    assert runs(project) == 4


def test_the_o0_passes_are_part_of_the_key(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """-O0's IR is clang's output after compile.O0_PASSES: an entry made by
    other passes (an older COALDA's mem2reg) is not taken."""
    from coalda.driver import compile as compile_module
    compile_once(project, "a.ll", 0)
    monkeypatch.setattr(compile_module, "O0_PASSES", "mem2reg")
    compile_once(project, "b.ll", 0)
    assert runs(project) == 2


def test_a_failing_compile_is_not_kept(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COALDA_PCH", "off")  # one clang run per compile, not two
    (project / "src" / "scale.h").write_text("#define FACTOR )\n")
    for name in ("a.ll", "b.ll"):
        with pytest.raises(ToolFailed):
            compile_once(project, name)
    assert runs(project) == 2
    assert not list((project / "cache").glob("*/*"))


def test_off_turns_it_off(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COALDA_IR_CACHE", "off")
    compile_once(project, "a.ll")
    compile_once(project, "b.ll")
    assert runs(project) == 2
    assert not (project / "cache").exists()


def test_a_cache_that_cannot_be_written_costs_only_time(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache path under a regular file: no entry can be made, and every
    compile still succeeds."""
    (project / "file").write_text("")
    monkeypatch.setenv("COALDA_IR_CACHE", str(project / "file" / "cache"))
    assert compile_once(project, "a.ll") == compile_once(project, "b.ll")
    assert runs(project) == 2


def test_a_damaged_entry_is_a_miss(project: Path) -> None:
    """An entry whose dependency list is not JSON (a disk error, an entry
    of another version) compiles again and is replaced."""
    compile_once(project, "a.ll")
    [entry] = (project / "cache").glob("*/*")
    entry.write_text("{\n; not IR")
    compile_once(project, "b.ll")
    compile_once(project, "c.ll")
    assert runs(project) == 2


def test_the_dependency_list_is_read_as_make_writes_it(tmp_path: Path) -> None:
    text = "out.ll: a.cu /abs/b.h \\\n  dir\\ with\\ spaces/c.h \\\n  d$$.h\n"
    assert ir_cache.parse_depfile(text, tmp_path) == [
        tmp_path / "a.cu", Path("/abs/b.h"), tmp_path / "dir with spaces" / "c.h", tmp_path / "d$.h"]


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    (tmp_path / "ab").mkdir()
    for age, name in enumerate(["old", "mid", "new"]):
        entry = tmp_path / "ab" / name
        entry.write_bytes(b"x" * 100)
        os.utime(entry, ns=(age * 10**9, age * 10**9))
    ir_cache.prune(tmp_path, limit=250)
    assert sorted(p.name for p in (tmp_path / "ab").iterdir()) == ["mid", "new"]


def test_a_hit_at_o0_names_its_own_output_as_opt_does(project: Path) -> None:
    """At -O0 mem2reg's opt writes its input's path as the ModuleID: a hit
    says this compile's output, not the cached compile's."""
    compile_once(project, "a.ll", 0)
    hit = compile_once(project, "b.ll", 0)
    assert runs(project) == 1
    assert hit.splitlines()[0] == f"; ModuleID = '{project / 'b.ll'}'"
