"""The parameter-struct adversary (testcases/adversarial/param_structs.cu):
kernels that read their pointers from a struct taken by value, rewritten
since the pass reads such a pointer as a base like a parameter (issue 37).
test_adversarial.py runs every kernel at -O3 and -O0 through the oracle (all
layouts and schedules; the struct's pointer fields get buffers of their own,
whose addresses the oracle writes into the struct).

Pinned here: what each kernel becomes at each level, that the rewritten IR
verifies and reads the struct's fields at the kernel's start, that a planted
bug in a staged kernel and in the region copy is caught through the fields'
buffers, and the launch spec's struct syntax and its refusals."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from coalda.check.spec import SpecError, load_spec
from conftest import (TESTCASES, differing_kernels, emulate_levels, in_function, optimize_levels, plant, rewrite_kinds,
                      run_in_process)

SOURCE = TESTCASES / "adversarial" / "param_structs.cu"
LEVELS = (3, 0)

# -O0 copies each struct into a local first, so its fields are loaded from
# the thread's stack: not a base the pass rewrites from.
# The plain-pointer twins are rewritten at both levels; the grid-stride
# twin's copy is the flat copy of its loop, which starts at the parameters
# themselves (the struct's grid-stride copy is staged instead).
TWINS = {"copy3_args": "copy", "update_records_args": "block", "copy3_grid_stride_args": "copy"}
KINDS: dict[int, dict[str, str | None]] = {
    3: {"copy3": "copy", "update_records": "block", "twin_swap": None, "chosen_by_thread": None,
        "copy3_grid_stride": "block", **TWINS},
    0: {"copy3": None, "update_records": None, "twin_swap": None, "chosen_by_thread": None,
        "copy3_grid_stride": None, **TWINS},
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-params"), LEVELS, ptx=True)


@pytest.mark.parametrize("level", LEVELS)
def test_rewritten_how(level: int, built: dict) -> None:
    assert rewrite_kinds(built[level][1]) == KINDS[level]


def test_fields_are_read_at_the_start(built: dict) -> None:
    """The rewritten IR verifies, and in each rewritten kernel the loads of
    the struct's fields come first in the entry block, where the rewrite's
    code (a staging's check point, a region copy's overlap check) uses them."""
    (after,) = built[3][0].glob("*.after.ll")
    proc = subprocess.run(["opt-19", "-passes=verify", "-disable-output", str(after)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = after.read_text()
    for kernel in ("copy3", "update_records", "copy3_grid_stride"):
        body = re.search(rf"define [^\n]*@_Z\d+{kernel}\w*\([^\n]*\n(.*?)\n}}\n", text, re.S)
        assert body, kernel
        entry = body[1].split("\n\n")[0]
        first = [line for line in entry.splitlines()[1:] if line.strip() and "#dbg" not in line]
        # before any other instruction: the fields' addresses and loads only
        head = first[:next(i for i, line in enumerate(first) if not re.search(r"= (getelementptr inbounds i8, ptr %p,|load )", line))]
        assert sum("load ptr" in line for line in head) >= 2, (kernel, first[:6])


def test_the_struct_stays_a_parameter(built: dict) -> None:
    """No rewrite takes the struct's own address (an overlap check of p.rec's
    element against p, p.s or &p.w would): ptxas would copy the parameter to
    local memory in every thread. That made update_records 0.75x on an H200
    (docs/runs/param-structs/); its plain-pointer twin gained 1.18x."""
    (before,) = built[3][0].glob("*.before.ptx")
    (after,) = built[3][0].glob("*.after.ptx")
    assert "__local_depot" not in before.read_text()
    assert "__local_depot" not in after.read_text()
    (ir,) = built[3][0].glob("*.after.ll")
    assert not re.search(r"ptrtoint ptr %p\b", ir.read_text())


def test_planted_bugs_are_caught_through_the_fields(built: dict, tmp_path: Path) -> None:
    """Shared stores planted to store zero break the two staged kernels, and
    the region copy's 16-byte units planted to store zero break copy3: each
    shows in the comparison of the struct's field buffers."""
    def zero_shared(text: str) -> str:
        return re.sub(r"store ((?:<\d+ x )?(?:i\d+|float|double|ptr)>?) %[\w.]+, ptr addrspace\(3\)",
                      r"store \1 zeroinitializer, ptr addrspace(3)", text)

    def zero_units(text: str) -> str:
        return in_function(text, "_Z5copy3", lambda body: re.sub(
            r"store <4 x i32> %[\w.]+, ptr", "store <4 x i32> zeroinitializer, ptr", body))

    for name, edit, want in (("shared", zero_shared, {"update_records", "copy3_grid_stride", "update_records_args"}),
                             ("units", zero_units, {"copy3"})):
        planted = plant(built[3][0], tmp_path / name, lambda t: edit(t), name)
        run = emulate_levels(SOURCE, {3: (planted, None)})[3]
        assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
        assert differing_kernels(run) == want, run.stdout[-3000:]
        assert re.search(r"p\.(rec|dst): \d+ bytes differ", run.stdout), run.stdout[-2000:]


def _spec(tmp_path: Path, params: str) -> Path:
    path = tmp_path / "k.toml"
    path.write_text(f'[kernels.k]\nparams = [{params}]\n')
    return path


def test_struct_spec(tmp_path: Path) -> None:
    spec = load_spec(_spec(tmp_path, '{ name = "p", struct = 16, fields = [{ at = 0, name = "a", in = "4*n" }, '
                                     '{ at = 8, name = "n", int32 = "n" }] }'))
    (p,) = spec.kernels["k"].params
    assert (p.kind, p.expr, [f.name for f in p.fields]) == ("in", 16, ["a", "n"])
    assert p.fields[0].buffer is not None and p.fields[0].buffer.expr == "4*n"


@pytest.mark.parametrize("params, says", [
    ('{ name = "p", struct = 16, fields = [{ at = 4, name = "a", in = "4*n" }] }', "aligned, inside"),
    ('{ name = "p", struct = 16, fields = [{ at = 12, name = "a", in = "4*n" }] }', "aligned, inside"),
    ('{ name = "p", struct = 16, fields = [{ at = 0, name = "a", in = "4*n" }, { at = 4, name = "n", int32 = 1 }] }',
     "two fields overlap"),
    ('{ name = "p", struct = 16, fields = [{ at = 0, name = "a" }] }', "exactly one of"),
    ('{ name = "p", struct = 16 }', "a struct is"),
])
def test_struct_spec_refusals(tmp_path: Path, params: str, says: str) -> None:
    with pytest.raises(SpecError, match=says):
        load_spec(_spec(tmp_path, params))


def test_a_struct_taken_by_pointer_is_refused_in_one_line(tmp_path: Path) -> None:
    """A `struct` entry for a kernel that takes a pointer to the struct: the
    oracle would write the fields' addresses into bytes it then compares, so
    `coalda run` refuses it in one line, naming the parameter."""
    source = tmp_path / "byptr.cu"
    source.write_text("struct Copy { const float *src; float *dst; int n; };\n"
                      "__global__ void byptr(const Copy *p) { int i = threadIdx.x; if (i < p->n) p->dst[i] = p->src[i]; }\n")
    source.with_suffix(".toml").write_text(
        '[kernels.byptr]\nblock = 32\ngrid = 1\nparams = [{ name = "p", struct = 24, fields = [\n'
        '  { at = 0, name = "src", in = "4*n" }, { at = 8, name = "dst", out = "4*n" }, { at = 16, name = "n", int32 = "n" }] }]\n')
    run = run_in_process("run", source, "--emulate", "--sizes", "32")
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "parameter p is a `struct`" in lines[0] and "does not take it by value" in lines[0], run.stderr
