"""The C++-features adversary (testcases/adversarial/cpp_features.cu): the
shapes COALDA rewrites (AoS read-modify-writes staged through block and warp
tiles, region copies, chunk windows, grid-stride loops, transposes) written
with real-world C++ and CUDA features: unions, bit fields, alignas/packed
records, ext_vector_type(3) and __half2/__nv_bfloat162 members, templates
over element types, functors, pointers to data members and
__launch_bounds__, lambdas (one instantiating a kernel from a host launch),
placement new, user-defined assignment and operators, __noinline__ chains,
an anonymous namespace, __ldg, volatile, atomics, __threadfence before a
last-block ticket, __syncwarp and shuffles, printf and assert, an indirect
call, a pointer laundered through an integer, memcpy into a local,
__grid_constant__, __umul24 and 16-bit indices, a 2-D block indexed by its
linear thread number.

No miscompile was found: tests/test_adversarial.py runs every kernel at -O3
and -O0 through the oracle (all layouts and schedules) and all of it matches.

Pinned here: what each kernel becomes at -O3 and -O0 (so that the attacks
keep reaching the rewrites), the reasons of the refusals, and, with every
store into shared memory planted to store zero, exactly which kernels' staged
paths run at all (two are rewritten but never take the staged path: the 2-D
block and the integer-laundered pointer); the one-line refusals of what the
emulator cannot run (inline PTX from cuda_fp16.h and cooperative_groups,
whose kernels the pass still rewrites into valid IR; overloaded kernel
names) and of a failing assert in the corpus.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import TESTCASES, emulate_levels, optimize_levels, plant, rewrite_kinds, run_in_process

SOURCE = TESTCASES / "adversarial" / "cpp_features.cu"
SPEC = SOURCE.with_suffix(".toml")
LEVELS = (3, 0)
PASS_ARGS = ("--pass-arg=-coalda-stage-small-always",)
APPLY = "apply<launch_all(F3*, int)::'lambda'(F3&)>"

# kernel -> what it becomes: "block" / "warp" (element staged through block
# or warp tiles), "window" (a chunk window), "transposed", "copy" (the region
# copy of a copy group), or None (left alone).
BOTH: dict[str, str | None] = {
    "union_pun": "block", "bitfield_rmw": "block", "padded_array": "warp", "half_bits": "block",
    "small_members_assign": "copy", "bitfield48": "block", "ext_vec3_pair": "warp",
    "tmpl_functor<float>": "block", "tmpl_functor<double>": "warp", "tmpl_op_ref<Swizzle, float>": "block",
    "bump_member<&F3::y>": "block", APPLY: "block", "noinline_chain": "block",
    "(anonymous namespace)::placement_anon": "block", "ldg_axpy": "block", "fence_ticket": "block",
    "int_laundered": "block", "syncwarp_shfl_after": "block", "swap_members": "block", "user_assign": "block",
    "tmpl_bounds<64>": "block", "rank_2d": "block", "mul24_index": "block", "gridconst_scalars": "block",
    "gs_functor": "block", "gs_lambda": "warp", "tmpl_transpose<float>": "transposed",
    # left alone at both levels (reasons in REASONS)
    "packed_rmw": None, "volatile_member": None, "atomic_own_member": None, "fnptr_table": None,
    "printf_after": None, "assert_inside": None, "memcpy_local": None, "idx_type<short>": None,
    # a struct copied whole into a local and back: scalarized at both levels
    "local_copy_back": "warp",
    # the member-pointer table's loop is unrolled at both levels (-O0's full
    # unroll of constant trip counts) and its offsets folded
    "member_pointers": "warp",
}
KINDS: dict[int, dict[str, str | None]] = {
    # -O3: the lambdas' captures are registers, the member-pointer table and
    # the 24-float row loops are folded and unrolled, struct copies scalarized
    3: BOTH | {"lambda_ref": "block", "lambda_member_ref": "warp",
               "range_for_row": "warp", "tmpl_chunk<24>": "warp", "op_overload": "block"},
    # -O0: captures and member offsets are loaded from memory, the range-for
    # steps a pointer; the row loop is a window (struct copies are scalarized
    # by -O0's SROA as by -O3's: local_copy_back is in BOTH)
    0: BOTH | {"lambda_ref": None, "lambda_member_ref": None,
               "range_for_row": None, "tmpl_chunk<24>": "window", "op_overload": None},
}
# Why the kernels left alone are: a substring of the joined reasons of their
# staging candidates (None: no staging candidate at all).
REASONS_BOTH: dict[str, str | None] = {
    "packed_rmw": "y has 1-byte members",
    "volatile_member": "an access to y is volatile or atomic",
    "atomic_own_member": "an atomic access or fence between the accesses: an atomic fadd on y",
    "fnptr_table": "a call between the accesses may touch the staged elements: an indirect call",
    "printf_after": "a call to vprintf",
    "assert_inside": "a call to __assertfail",
    # reach gap: the index truncated to 16 bits is not taken for the lane index
    "idx_type<short>": None,
    # memcpy into a local: SROA (-O3's, and -O0's) leaves 1-byte-aligned
    # member loads and stores (memcpy's pointers are void *), which the cost
    # rule names
    "memcpy_local": "y's accesses are only 1-byte aligned (a packed struct, or a copy through memcpy or void *)",
}
REASONS: dict[int, dict[str, str | None]] = {
    3: REASONS_BOTH,
    0: REASONS_BOTH | {"lambda_ref": "is computed from memory",
                       "lambda_member_ref": None, "range_for_row": None},
}
# Rewritten, but the staged path never runs: a 2-D block (ntid.y > 1)
# always takes the original code, and the laundered pointer's overlap check
# against the thread's own element (which it lies inside) always fails.
NEVER_STAGED = {"rank_2d", "int_laundered"}
# At -O0 member_pointers' warps never take the staged path either: its member
# offsets are loads from the constant table (-O0 does not fold them), so the
# three members are three views of y at unknown offsets, and their overlap
# check (24 bytes apart) fails on every thread. Correct, but no faster.
NEVER_STAGED_AT = {3: NEVER_STAGED, 0: NEVER_STAGED | {"member_pointers"}}


def staging_reasons(report: dict) -> dict[str, str | None]:
    return {k["name"]: " / ".join(s["reason"] for s in k["stagings"]) if k.get("stagings") else None
            for k in report["kernels"]}


def rows(stdout: str) -> list[tuple[str, str]]:
    """(kernel, result) of each row of a `coalda run` table (kernel names
    may hold spaces, parentheses, quotes and &)."""
    out = []
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) >= 8 and cells[2].isdigit():
            out.append((cells[1], cells[6]))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-cpp"), LEVELS, *PASS_ARGS)


def test_pins_are_complete(built: dict) -> None:
    spec = set(re.findall(r'^\[kernels\.(?:"((?:[^"\\]|\\.)*)"|([\w-]+))\]$', SPEC.read_text(), re.M))
    spec_names = {a or b for a, b in spec}
    assert 30 <= len(spec_names) <= 45
    for level in LEVELS:
        names = {k["name"] for k in built[level][1]["kernels"]}
        assert names == spec_names, f"spec-less {names - spec_names}, stale {spec_names - names}"
        assert set(KINDS[level]) == names, (f"-O{level}: unpinned {sorted(names - set(KINDS[level]))}, "
                                            f"stale {sorted(set(KINDS[level]) - names)}")


@pytest.mark.parametrize("level", LEVELS)
def test_rewritten_how(level: int, built: dict) -> None:
    got = rewrite_kinds(built[level][1])
    wrong = {k: (got.get(k), want) for k, want in KINDS[level].items() if got.get(k) != want}
    assert not wrong, f"-O{level}: kernel: (got, pinned) {wrong}"


@pytest.mark.parametrize("level", LEVELS)
def test_refusal_reasons(level: int, built: dict) -> None:
    got = staging_reasons(built[level][1])
    wrong = {}
    for name, want in REASONS[level].items():
        if want is None and got[name] is not None or want is not None and (got[name] is None or want not in got[name]):
            wrong[name] = (got[name], want)
    assert not wrong, f"-O{level}: kernel: (got, pinned) {wrong}"


def test_after_ir_verifies(built: dict) -> None:
    """opt-19's verifier takes both levels' rewritten modules (the pass
    verifies each kernel too; this checks the module as written)."""
    for level in LEVELS:
        (after,) = built[level][0].glob("*.after.ll")
        proc = subprocess.run(["opt-19", "-passes=verify", "-disable-output", str(after)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]


def test_zeroed_tiles_show_where_the_staged_paths_run(built: dict, tmp_path: Path) -> None:
    """Every store into shared memory planted to store zero: exactly the
    rewritten kernels whose staged path runs differ (all but the region
    copy, which uses no shared memory, and NEVER_STAGED), at both levels;
    the others still match."""
    def zero(text: str) -> str:
        return re.sub(r"store ((?:<\d+ x )?(?:i\d+|float|double|ptr)>?) %[\w.]+, ptr addrspace\(3\)",
                      r"store \1 zeroinitializer, ptr addrspace(3)", text)

    planted = {level: (plant(built[level][0], tmp_path / f"O{level}", zero, "shared stores"), None) for level in LEVELS}
    runs = emulate_levels(SOURCE, planted)
    for level, run in runs.items():
        assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
        assert "Traceback" not in run.stderr
        table = rows(run.stdout)
        assert {name for name, _ in table} == set(KINDS[level]), run.stdout[-2000:]
        differ = {name for name, result in table if re.search("MISMATCH|RACE|FAULT", result)}
        want = {k for k, v in KINDS[level].items() if v not in (None, "copy")} - NEVER_STAGED_AT[level]
        assert differ == want, f"-O{level}: unexpected {sorted(differ - want)}, missing {sorted(want - differ)}"


def test_failing_assert_is_one_line(built: dict, tmp_path: Path) -> None:
    """assert_inside with lim below n: the original faults at the assert,
    which `coalda run` says in one line (no traceback)."""
    spec = tmp_path / "assert.toml"
    spec.write_text('sizes = [256]\n[kernels.assert_inside]\nblock = 128\ngrid = "cdiv(n, block)"\nalign = 4\n'
                    'params = [{ name = "y", inout = "12*n" }, { name = "lim", value = "100" }, '
                    '{ name = "n", value = "n" }]\n')
    run = run_in_process("run", SOURCE, "--emulate", "-q", "--spec", spec, "--from", built[3][0])
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert re.search(r"^coalda: error: .*assert_inside.*assertion `lim > i` failed at .*cpp_features\.cu:\d+ "
                     r"\(on the GPU: cudaErrorAssert\)$", run.stderr.strip(), re.M), run.stderr[-2000:]


# ---------------------------------------------------------------- what the emulator cannot run

ASM_SOURCE = """\
#include <cooperative_groups.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;
struct F3 { float x, y, z; };
// cooperative_groups: the thread block's rank and size index the records,
// b.sync() after the region (the headers' inline PTX reads a reserved
// shared-memory offset)
__global__ void cg_rank(F3 *y, int n) {
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * b.size() + b.thread_rank();
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + y[i].x;
    y[i].z = y[i].z * y[i].y;
  }
  b.sync();
}
// __half2 arithmetic (inline PTX add.f16x2 / mul.f16x2) between the accesses
struct H2 { __half2 a; __half2 b; float c; };
__global__ void half2_math(H2 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i].a = __hadd2(y[i].a, y[i].b);
    y[i].b = __hmul2(y[i].b, y[i].b);
    y[i].c = y[i].c + 1.f;
  }
}
"""
ASM_SPEC = """\
sizes = [256]
[kernels.cg_rank]
block = 128
grid = "cdiv(n, block)"
align = 4
params = [{ name = "y", inout = "12*n" }, { name = "n", value = "n" }]
[kernels.half2_math]
block = 128
grid = "cdiv(n, block)"
align = 4
params = [{ name = "y", inout = "12*n" }, { name = "n", value = "n" }]
"""
# -O3: both staged (the inline PTX of __hadd2/__hmul2 touches no memory);
# -O0: cg's member calls hide the index, __half2's copies are memcpys.
ASM_KINDS = {3: {"cg_rank": "block", "half2_math": "block"}, 0: {"cg_rank": None, "half2_math": None}}


@pytest.fixture(scope="module")
def asm_built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, tuple[Path, dict]]]:
    root = tmp_path_factory.mktemp("adv-cpp-asm")
    source = root / "asm_features.cu"
    source.write_text(ASM_SOURCE)
    source.with_suffix(".toml").write_text(ASM_SPEC)
    return source, optimize_levels(source, root, LEVELS, *PASS_ARGS)


def test_inline_ptx_kernels_are_rewritten_into_valid_ir(asm_built: tuple) -> None:
    _, out = asm_built
    for level in LEVELS:
        assert rewrite_kinds(out[level][1]) == ASM_KINDS[level]
        (after,) = out[level][0].glob("*.after.ll")
        assert " asm " in after.read_text()
        proc = subprocess.run(["opt-19", "-passes=verify", "-disable-output", str(after)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]


def test_inline_ptx_is_refused_in_one_line(asm_built: tuple) -> None:
    """The emulator refuses each kernel that reaches inline PTX in one line
    that names it (and at -O0 the helper that holds the asm, __hadd2),
    without a traceback; both kernels of the module do, so nothing was
    checked: no table, exit 1 (tests/test_run_refusals.py: a module whose
    other kernels are still checked)."""
    source, out = asm_built
    runs = emulate_levels(source, out)
    half2 = {3: "uses", 0: "calls __hadd2, which uses"}  # at -O3 __hadd2 is inlined
    for level, run in runs.items():
        assert run.returncode == 1
        assert "Traceback" not in run.stderr
        assert run.stdout == ""
        assert run.stderr.strip().splitlines() == [
            "coalda: error: kernel cg_rank uses inline PTX assembly (asm); the CPU emulator cannot run it, "
            "so cg_rank was not checked",
            f"coalda: error: kernel half2_math {half2[level]} inline PTX assembly (asm); the CPU emulator cannot "
            "run it, so half2_math was not checked",
        ], run.stderr[-2000:]


def test_overloaded_kernels_are_refused_in_one_line(tmp_path: Path) -> None:
    """Two kernels named `scale` (overloads on the element type): `coalda
    run` refuses a spec that names `scale` in one line that lists the
    overloads' symbols; a spec that names them by symbol checks both."""
    source = tmp_path / "overloads.cu"
    source.write_text("struct F3 { float x, y, z; };\nstruct D3 { double x, y, z; };\n"
                      "__global__ void scale(F3 *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
                      " if (i < n) { y[i].x *= 2.f; y[i].y += y[i].x; y[i].z -= 1.f; } }\n"
                      "__global__ void scale(D3 *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
                      " if (i < n) { y[i].x *= 2.0; y[i].y += y[i].x; y[i].z -= 1.0; } }\n")
    source.with_suffix(".toml").write_text('sizes = [64]\n[kernels.scale]\nblock = 64\ngrid = 1\nalign = 8\n'
                                           'params = [{ name = "y", inout = "24*n" }, { name = "n", value = "n" }]\n')
    opt = run_in_process("optimize", "-q", source, "-o", tmp_path / "out", "--no-ptx", *PASS_ARGS)
    assert opt.returncode == 0, opt.stderr
    report = json.loads((tmp_path / "out" / "overloads.report.json").read_text())
    # both are rewritten: the 12-byte records in block tiles, the 24-byte in warp tiles
    assert [(k["name"], k["symbol"], [s["tile"] for s in k["stagings"] if s["transformed"]])
            for k in report["kernels"]] == [("scale", "_Z5scaleP2F3i", ["block"]), ("scale", "_Z5scaleP2D3i", ["warp"])]
    run = run_in_process("run", source, "--emulate", "-q", "--from", tmp_path / "out")
    assert run.returncode == 1 and run.stdout == ""
    assert "Traceback" not in run.stderr
    assert run.stderr.strip() == ("coalda: error: the launch spec names kernel scale, which is overloaded (2 kernels "
                                  "have that name); name one overload by its symbol instead: "
                                  "[kernels._Z5scaleP2F3i] or [kernels._Z5scaleP2D3i]")
    by_symbol = tmp_path / "by_symbol.toml"
    by_symbol.write_text('sizes = [64]\n[kernels._Z5scaleP2F3i]\nblock = 64\ngrid = 1\nalign = 4\n'
                         'params = [{ name = "y", inout = "12*n" }, { name = "n", value = "n" }]\n'
                         '[kernels._Z5scaleP2D3i]\nblock = 64\ngrid = 1\nalign = 8\n'
                         'params = [{ name = "y", inout = "24*n" }, { name = "n", value = "n" }]\n')
    run = run_in_process("run", source, "--emulate", "-q", "--from", tmp_path / "out", "--spec", by_symbol)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert re.search(r"All \d+ comparisons match byte for byte\.", run.stdout), run.stdout[-2000:]
    assert {m[1] for m in re.finditer(r"^│ (\S+)\s+│", run.stdout, re.M)} == {"_Z5scaleP2F3i", "_Z5scaleP2D3i"}
