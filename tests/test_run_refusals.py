"""What `coalda run` does with kernels it cannot check, and with names a
launch spec cannot use, without giving up on the rest of the file.

- A kernel the CPU emulator cannot run (inline PTX, an NVVM intrinsic it
  has no model for: atomicInc's), in its own body or in a device function
  it calls, is named in one line, with the chain of calls that reaches the
  construct; the other kernels of the module are still checked, their
  table printed, and the exit code is 1 (something asked for was not
  checked). Such a kernel never gets a row: it is never shown as matching.
- Overloaded kernels refuse a spec only where it names the overloaded
  name; the message says how to name one overload: by its symbol.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import assert_all_match, run_cli
from coalda.emulator import emulate

PASS_ARGS = ("--pass-arg=-coalda-stage-small-always",)
LAUNCH = 'block = 128\ngrid = "cdiv(n, block)"\n'
RECORDS = 'align = 4\nparams = [{ name = "y", inout = "12*n" }, { name = "n", value = "n" }]\n'

MIXED_SOURCE = """\
#include <cuda_fp16.h>
struct F3 { float x, y, z; };
struct H2 { __half2 a; __half2 b; float c; };
// a helper whose inline PTX (__hadd2's add.f16x2) the emulator cannot run
__device__ __noinline__ __half2 twice(__half2 v) { return __hadd2(v, v); }
__global__ void half2_twice(H2 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i].a = twice(y[i].a); y[i].c = y[i].c + 1.f; }
}
// atomicInc: llvm.nvvm.atomic.load.inc.32, which the emulator has no model for
__global__ void count_up(unsigned *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicInc(c + i % 4, 1000u);
}
// plain C++: checked as usual
__global__ void scale3(F3 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i].x = y[i].x * 2.f; y[i].y = y[i].y + y[i].x; y[i].z = y[i].z - 1.f; }
}
// scale3 again, with an (empty) inline asm statement in it
__global__ void scale3_asm(F3 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("");
  if (i < n) { y[i].x = y[i].x * 2.f; y[i].y = y[i].y + y[i].x; y[i].z = y[i].z - 1.f; }
}
"""
MIXED_SPEC = ("sizes = [256]\n"
              f"[kernels.half2_twice]\n{LAUNCH}{RECORDS}"
              f'[kernels.count_up]\n{LAUNCH}align = 4\nparams = [{{ name = "c", inout = "16" }}, {{ name = "n", value = "n" }}]\n'
              f"[kernels.scale3]\n{LAUNCH}{RECORDS}")
# per -O level: at -O0 __hadd2 and atomicInc are functions of their own
MIXED_REFUSALS = {
    3: ["coalda: error: kernel half2_twice calls twice, which uses inline PTX assembly (asm); "
        "the CPU emulator cannot run it, so half2_twice was not checked",
        "coalda: error: kernel count_up uses llvm.nvvm.atomic.load.inc.32.p0; "
        "the CPU emulator cannot run it, so count_up was not checked"],
    0: ["coalda: error: kernel half2_twice calls twice, which calls __hadd2, which uses inline PTX assembly (asm); "
        "the CPU emulator cannot run it, so half2_twice was not checked",
        "coalda: error: kernel count_up calls atomicInc, which uses llvm.nvvm.atomic.load.inc.32.p0; "
        "the CPU emulator cannot run it, so count_up was not checked"],
}


def table_kernels(stdout: str) -> set[str]:
    """The kernels that have a row in a `coalda run` table."""
    return {m[1] for m in re.finditer(r"^│ (\S+)\s+│", stdout, re.M)}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("mixed") / "mixed.cu"
    source.write_text(MIXED_SOURCE)
    source.with_suffix(".toml").write_text(MIXED_SPEC)
    return source


def run(source: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    proc = run_cli("run", source, "--emulate", "-q", *PASS_ARGS, *args)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return proc


@pytest.mark.parametrize("level", [3, 0])
def test_kernels_the_emulator_cannot_run_are_named_and_the_others_checked(mixed: Path, level: int) -> None:
    proc = run(mixed, "-O", str(level))
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == MIXED_REFUSALS[level]
    assert table_kernels(proc.stdout) == {"scale3"}  # the refused kernels have no row
    # the closing line says that something was not checked
    refused = len(MIXED_REFUSALS[level])
    assert f"All 16 comparisons match byte for byte. {refused} not checked, below." in proc.stdout


def test_a_spec_of_runnable_kernels_passes(mixed: Path, tmp_path: Path) -> None:
    """The same module, a spec that names only the kernel the emulator can
    run: nothing asked for is left unchecked."""
    spec = tmp_path / "plain.toml"
    spec.write_text(f"sizes = [256]\n[kernels.scale3]\n{LAUNCH}{RECORDS}")
    proc = run(mixed, "--spec", spec)
    assert_all_match(proc)
    assert proc.stderr == ""


def test_only_refused_kernels_print_no_table(mixed: Path, tmp_path: Path) -> None:
    spec = tmp_path / "atomic.toml"
    spec.write_text('sizes = [256]\n[kernels.count_up]\n'
                    f'{LAUNCH}align = 4\nparams = [{{ name = "c", inout = "16" }}, {{ name = "n", value = "n" }}]\n')
    proc = run(mixed, "--spec", spec)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == MIXED_REFUSALS[3][1:]


def test_a_refused_reference_leaves_the_comparison_with_the_original(mixed: Path, tmp_path: Path) -> None:
    """scale3 with same_as its asm twin: scale3 is still compared with its
    original, the comparison with the reference is named as not made."""
    spec = tmp_path / "reference.toml"
    spec.write_text(f'sizes = [256]\n[kernels.scale3]\nsame_as = "scale3_asm"\n{LAUNCH}{RECORDS}'
                    f"[kernels.scale3_asm]\n{LAUNCH}{RECORDS}")
    proc = run(mixed, "--spec", spec)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "coalda: error: kernel scale3 was not compared with its reference scale3_asm: scale3_asm uses "
        "inline PTX assembly (asm); the CPU emulator cannot run it",
        "coalda: error: kernel scale3_asm uses inline PTX assembly (asm); the CPU emulator cannot run it, "
        "so scale3_asm was not checked",
    ]
    assert table_kernels(proc.stdout) == {"scale3"}
    assert " scale3_asm " not in proc.stdout  # no row against the reference
    assert "All 16 comparisons match byte for byte. 2 not checked, below." in proc.stdout


# ---------------------------------------------------------------- the emulator's API, on hand-written IR

HAND_IR = """\
target triple = "nvptx64-nvidia-cuda"
%pair = type { float, float }
@table = global [1 x ptr] [ptr @by_pointer]
@alias = alias i32 (), ptr @leaf
define i32 @leaf() {
  %s = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 1)
  ret i32 %s
}
define %pair @middle() {
  %v = call i32 @leaf()
  %f = sitofp i32 %v to float
  %p = insertvalue %pair poison, float %f, 0
  ret %pair %p
}
define ptr @by_pointer(ptr %p) {
  %s = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 2)
  store i32 %s, ptr %p
  ret ptr %p
}
define void @deep(ptr %p) {
  %v = call %pair @middle()
  %f = extractvalue %pair %v, 0
  store float %f, ptr %p
  ret void
}
define void @indirect(ptr %p) {
  %f = load ptr, ptr @table
  %r = call ptr %f(ptr %p)
  ret void
}
define void @aliased(ptr %p) {
  %v = call i32 @alias()
  store i32 %v, ptr %p
  ret void
}
define void @ok(ptr %p) {
  store i32 7, ptr %p
  ret void
}
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @deep, !"kernel", i32 1}
!1 = !{ptr @indirect, !"kernel", i32 1}
!2 = !{ptr @aliased, !"kernel", i32 1}
!3 = !{ptr @ok, !"kernel", i32 1}
"""
CANNOT = "; the CPU emulator cannot run it"


def test_the_emulator_refuses_each_kernel_by_what_it_reaches() -> None:
    """Direct calls (the shortest chain named), an indirect call where a
    function the host cannot run has its address taken; a call the
    analysis cannot follow (an alias) reaches the stub and is refused after
    its launch; the kernel that reaches none runs."""
    module = emulate.load(HAND_IR, partial=True)
    assert module.refused == {
        "deep": f"calls middle, which calls leaf, which uses llvm.nvvm.match.any.sync.i32{CANNOT}",
        # the alias takes leaf's address too
        "indirect": f"makes an indirect call that may reach leaf or by_pointer, which use "
                    f"llvm.nvvm.match.any.sync.i32{CANNOT}",
    }
    out = np.zeros(1, np.int32)
    module.launch("ok", (1, 1, 1), (4, 1, 1), [out])
    assert out[0] == 7
    with pytest.raises(emulate.EmulationRefused) as refused:
        module.launch("deep", (1, 1, 1), (1, 1, 1), [out])
    assert str(refused.value) == f"kernel deep {module.refused['deep']}"
    with pytest.raises(emulate.EmulationRefused) as refused:
        module.launch("aliased", (1, 1, 1), (1, 1, 1), [out])
    assert refused.value.kernel == "aliased"
    assert refused.value.reason == f"reached leaf, which uses llvm.nvvm.match.any.sync.i32{CANNOT}"
    module.launch("ok", (1, 1, 1), (1, 1, 1), [out])  # the next launch starts clean


def test_the_emulator_refuses_the_module_unless_asked_for_part_of_it() -> None:
    """Without partial=True a refused kernel refuses its module, naming it
    and the others."""
    with pytest.raises(emulate.EmulationRefused) as refused:
        emulate.load(HAND_IR)
    assert str(refused.value) == (f"kernel deep calls middle, which calls leaf, which uses "
                                  f"llvm.nvvm.match.any.sync.i32{CANNOT} (1 other kernel(s) cannot run either: indirect)")


# ---------------------------------------------------------------- overloaded kernel names

OVERLOADS = """\
struct F3 { float x, y, z; };
struct D3 { double x, y, z; };
__global__ void scale(F3 *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i].x *= 2.f; y[i].y += y[i].x; y[i].z -= 1.f; } }
__global__ void scale(D3 *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i].x *= 2.0; y[i].y += y[i].x; y[i].z -= 1.0; } }
__global__ void bump(F3 *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i].x += 1.f; y[i].y += y[i].x; y[i].z += y[i].y; } }
"""
F3_SCALE, D3_SCALE = "_Z5scaleP2F3i", "_Z5scaleP2D3i"
DOUBLES = 'align = 8\nparams = [{ name = "y", inout = "24*n" }, { name = "n", value = "n" }]\n'
OVERLOADED = (f"coalda: error: the launch spec names kernel scale, which is overloaded (2 kernels have that name); "
              f"name one overload by its symbol instead: [kernels.{F3_SCALE}] or [kernels.{D3_SCALE}]")


@pytest.fixture
def overloads(tmp_path: Path) -> Path:
    source = tmp_path / "overloads.cu"
    source.write_text(OVERLOADS)
    return source


def test_a_spec_that_does_not_name_an_overloaded_kernel_runs(overloads: Path) -> None:
    overloads.with_suffix(".toml").write_text(f"sizes = [256]\n[kernels.bump]\n{LAUNCH}{RECORDS}")
    proc = run(overloads)
    assert_all_match(proc)
    assert table_kernels(proc.stdout) == {"bump"}


def test_a_spec_that_names_an_overloaded_kernel_is_refused_saying_how_to_name_one(overloads: Path) -> None:
    overloads.with_suffix(".toml").write_text(f"sizes = [256]\n[kernels.bump]\n{LAUNCH}{RECORDS}"
                                              f"[kernels.scale]\n{LAUNCH}{DOUBLES}")
    proc = run(overloads)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == OVERLOADED


def test_overloads_named_by_symbol_are_each_checked(overloads: Path) -> None:
    overloads.with_suffix(".toml").write_text(f"sizes = [256]\n[kernels.{F3_SCALE}]\n{LAUNCH}{RECORDS}"
                                              f"[kernels.{D3_SCALE}]\n{LAUNCH}{DOUBLES}"
                                              f"[kernels.bump]\n{LAUNCH}{RECORDS}")
    proc = run(overloads)
    assert_all_match(proc)
    assert table_kernels(proc.stdout) == {F3_SCALE, D3_SCALE, "bump"}


def test_an_inferred_spec_names_overloads_by_symbol(overloads: Path) -> None:
    """Without a spec, each overload is inferred under its symbol."""
    proc = run(overloads, "--sizes", "256")
    assert_all_match(proc)
    assert table_kernels(proc.stdout) == {F3_SCALE, D3_SCALE, "bump"}
