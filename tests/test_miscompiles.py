"""Differential regressions of the five miscompiles of issue 9.

Each test compiles the defect's kernel (as the issue states it) at -O0 and
-O3, with and without `__restrict__`, runs the original and the rewritten
module through the oracle (`coalda.check.oracle.check`: every default layout,
misaligned bases included, and every schedule), and asserts byte equality
AND the pass's decision as the report states it. Before the fixes these
fail: 1, 2, 3 and 5 with differing bytes (or a decision that cannot be
right), 4 with opt aborting on invalid IR.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from coalda.check import oracle
from coalda.driver.compile import CompileOptions, run_coalda, run_tool
from coalda.emulator.emulate import EmulatorExecutor
from coalda.driver.pipeline import Artifacts, build
from coalda.check.spec import KernelSpec, Param
from coalda.driver.toolchain import toolchain
from test_fuzz import race_free_decision

LEVELS = (0, 3)


@dataclass
class Built:
    """A compiled module: the pass's report per kernel name, both executors."""

    source: str
    kernels: dict[str, dict[str, Any]]
    original: EmulatorExecutor
    optimized: EmulatorExecutor

    def groups(self, name: str) -> list[dict[str, Any]]:
        return self.kernels[name]["groups"]

    def decisions(self, name: str) -> str:
        return "; ".join(f"{g['expr']}: {g['reason']}" for g in self.groups(name)) or "no copy group"


def build_cuda(source: str, level: int, pass_args: tuple[str, ...] = ()) -> Built:
    """`coalda optimize`'s pipeline (clang, compile.O0_PASSES at -O0, the pass, the verifier)."""
    with tempfile.TemporaryDirectory() as tmp:
        cu = Path(tmp) / "defect.cu"
        cu.write_text(source)
        art = Artifacts(Path(tmp), "defect")
        result = build(cu, CompileOptions(opt_level=level), art, ptx=False, pass_args=pass_args)
        return Built(source, {k["name"]: k for k in result.report["kernels"]},
                     EmulatorExecutor(art.before.read_text()), EmulatorExecutor(art.after.read_text()))


def build_ir(module: str, level: int) -> Built:
    """An IR kernel as written (-O0) or after `opt -O3`, then the pass."""
    with tempfile.TemporaryDirectory() as tmp:
        written, before, after, report = (Path(tmp) / f for f in ("k.ll", "before.ll", "after.ll", "report.json"))
        written.write_text(module)
        if level:
            run_tool("opt -O3 failed", [toolchain().opt, f"-passes=default<O{level}>", "-S", written, "-o", before])
        else:
            before.write_text(module)
        run_coalda(before, after, report)
        kernels = json.loads(report.read_text())["kernels"]
        return Built(module, {k["name"]: k for k in kernels},
                     EmulatorExecutor(before.read_text()), EmulatorExecutor(after.read_text()))


def mismatches(built: Built, spec: KernelSpec, restrict: bool, seed: int = 0) -> list[str]:
    """Every layout x schedule case (and, without restrict, the overlapping
    layouts where the oracle has them) whose bytes differ."""
    symbol = built.kernels[spec.name]["symbol"]
    extra = {"overlap": True} if not restrict else {}
    results = oracle.check(spec, lambda _: symbol, built.original, built.optimized, 0,
                           np.random.default_rng(seed), **extra)
    assert results, "the oracle ran no case"
    return [f"{r.layout}/{getattr(r, 'schedule', '')}: {r.detail}" for r in results if not r.match]


def explain(built: Built, name: str, what: str) -> str:
    return f"{what}\npass decided: {built.decisions(name)}\n{built.source}"


def restrict_kw(on: bool) -> str:
    return "__restrict__ " if on else ""


# ---------------------------------------------------------------------------
# 1. `(unsigned)i < (unsigned)n` on i = gid - 5 taken for a prefix guard.

PIXEL = "struct Pixel { unsigned char r, g, b; };\n"
BLOCK, BLOCKS, N = 32, 2, 50  # 64 threads, n not a multiple of the block


def shifted_source(restrict: bool, back: int) -> str:
    """The defect's kernel: `i = gid - 5`, an unsigned range check, a copy of
    element i + back (back = 0: dst[i]; back = 5: dst[gid])."""
    r = restrict_kw(restrict)
    at = f"i + {back}" if back else "i"
    return PIXEL + (
        f"__global__ void shifted(Pixel *{r}dst, const Pixel *{r}src, int n) {{\n"
        "  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x) - 5;\n"
        "  if ((unsigned)i < (unsigned)n) {\n"
        f"    dst[{at}].r = src[{at}].r;\n    dst[{at}].g = src[{at}].g;\n    dst[{at}].b = src[{at}].b;\n"
        "  }\n}\n"
    )


def pixel_spec(name: str, elements: int, *values: Param) -> KernelSpec:
    bytes_ = 3 * elements
    return KernelSpec(name, (Param("dst", "out", bytes_), Param("src", "in", bytes_), *values), grid=BLOCKS, block=BLOCK)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("restrict,runtime_checks", [(False, True), (True, True), (True, False)])
@pytest.mark.parametrize("back", [0, 5])
def test_unsigned_range_check_on_a_negative_index_is_not_a_prefix(
    level: int, restrict: bool, runtime_checks: bool, back: int
) -> None:
    """Block 0's active threads are 5..31, a suffix: a rewrite that takes
    them for a prefix stores before dst and skips the row's start. Left
    alone with a reason naming the guard, or rewritten correctly."""
    source = shifted_source(restrict, back)
    args = () if runtime_checks else ("-coalda-runtime-checks=false",)
    built = build_cuda(source, level, args)
    bad = mismatches(built, pixel_spec("shifted", N + back, Param("n", "value", N)), restrict)
    assert not bad, explain(built, "shifted", "bytes differ: " + "; ".join(bad[:6]))
    for g in built.groups("shifted"):
        assert g["transformed"] or "guard" in g["reason"], explain(
            built, "shifted", "left alone for a reason other than the guard")


@pytest.mark.parametrize("level", LEVELS)
def test_signed_bounds_guard_stays_a_prefix(level: int) -> None:
    """The fix must not lose the README's case: `if (i < n)` on the global
    index is a prefix of every row and is rewritten."""
    source = PIXEL + (
        "__global__ void guarded(Pixel *dst, const Pixel *src, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) {\n    dst[i].r = src[i].r;\n    dst[i].g = src[i].g;\n    dst[i].b = src[i].b;\n  }\n}\n"
    )
    built = build_cuda(source, level)
    bad = mismatches(built, pixel_spec("guarded", N, Param("n", "value", N)), False)
    assert not bad, explain(built, "guarded", "bytes differ: " + "; ".join(bad[:6]))
    assert any(g["transformed"] for g in built.groups("guarded")), explain(built, "guarded", "not rewritten")


# ---------------------------------------------------------------------------
# 2. Members whose common width is not a power of two (<3 x i16>: 6-byte units).

IR_KERNEL = """target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @odd(ptr {na}%dst, ptr {na}%src) {{
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = mul i32 %ctaid, %ntid
  %gid = add i32 %row, %tid
  %i = sext i32 %gid to i64
  %e = mul nsw i64 %i, {stride}
{body}  ret void
}}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{{!0}}
!0 = !{{ptr @odd, !"kernel", i32 1}}
"""
# IR type -> store size
ODD = {"<3 x i16>": 6, "<3 x i8>": 3, "i24": 3, "i16": 2}


def odd_module(members: tuple[str, ...], noalias: bool) -> tuple[str, int]:
    """A whole copy of packed members of these types; (module, stride)."""
    body, offset = [], 0
    # an element with an odd-width member is only byte-aligned (odd_spec's
    # layouts offset it by 1): no member may claim more
    align = 2 if all(ODD[t] % 2 == 0 for t in members) else 1
    for k, ty in enumerate(members):
        body += [
            f"  %o{k} = add nsw i64 %e, {offset}",
            f"  %s{k} = getelementptr inbounds i8, ptr %src, i64 %o{k}",
            f"  %d{k} = getelementptr inbounds i8, ptr %dst, i64 %o{k}",
            f"  %v{k} = load {ty}, ptr %s{k}, align {align}",
            f"  store {ty} %v{k}, ptr %d{k}, align {align}",
        ]
        offset += ODD[ty]
    na = "noalias " if noalias else ""
    return IR_KERNEL.format(na=na, stride=offset, body="\n".join(body) + "\n"), offset


ODD_ELEMENTS = [
    ("<3 x i16>", "<3 x i16>"),  # the issue's: 12 bytes, common width 6
    ("<3 x i8>", "<3 x i8>"),  # 6 bytes, common width 3
    ("i24", "i24", "i16"),  # 8 bytes, widths 3 and 2
]


def odd_spec(stride: int, members: tuple[str, ...]) -> KernelSpec:
    bytes_ = stride * BLOCK * BLOCKS
    align = 2 if all(ODD[t] % 2 == 0 for t in members) else 1
    return KernelSpec("odd", (Param("dst", "out", bytes_), Param("src", "in", bytes_)),
                      grid=BLOCKS, block=BLOCK, align=align)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("noalias", [False, True])
@pytest.mark.parametrize("members", ODD_ELEMENTS, ids=lambda m: "+".join(m).replace(" ", ""))
def test_members_of_a_width_that_is_not_a_power_of_two(level: int, noalias: bool, members: tuple[str, ...]) -> None:
    """Misaligned bases take the member-width path: its units must tile the
    row (a shift by log2(6) = 2 left a third of each row uncopied)."""
    module, stride = odd_module(members, noalias)
    built = build_ir(module, level)
    bad = mismatches(built, odd_spec(stride, members), noalias)
    assert not bad, explain(built, "odd", "bytes differ: " + "; ".join(bad[:6]))


@pytest.mark.parametrize("level", LEVELS)
def test_members_of_a_width_that_is_not_a_power_of_two_are_still_rewritten(level: int) -> None:
    """The element is a whole pure copy: the fix belongs in the unit
    arithmetic; refusing it would lose the optimization, not fix it."""
    module, _ = odd_module(ODD_ELEMENTS[0], True)
    built = build_ir(module, level)
    assert any(g["transformed"] for g in built.groups("odd")), explain(built, "odd", "no longer rewritten")


# ---------------------------------------------------------------------------
# 3. A control-dependent value (a phi of constants) taken as row-uniform.

CONTROL = {
    "ternary": "int k = threadIdx.x < 16 ? 0 : 1;",
    "if-else": "int k;\n  if (threadIdx.x < 16)\n    k = 0;\n  else\n    k = 1;",
}


def control_source(restrict: bool, form: str) -> str:
    r = restrict_kw(restrict)
    return PIXEL + (
        f"__global__ void split(Pixel *{r}dst, const Pixel *{r}src) {{\n"
        f"  {CONTROL[form]}\n"
        "  int i = threadIdx.x + k * blockDim.x;\n"
        "  dst[i].r = src[i].r;\n  dst[i].g = src[i].g;\n  dst[i].b = src[i].b;\n}\n"
    )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("restrict", [False, True])
@pytest.mark.parametrize("form", sorted(CONTROL))
def test_control_dependent_index_is_not_row_uniform(level: int, restrict: bool, form: str) -> None:
    """Threads 0..15 copy elements 0..15, the others ntid+16..: no one region
    per row exists, so the copy must be left alone."""
    built = build_cuda(control_source(restrict, form), level)
    spec = KernelSpec("split", (Param("dst", "out", 3 * 2 * BLOCK), Param("src", "in", 3 * 2 * BLOCK)), grid=1, block=BLOCK)
    bad = mismatches(built, spec, restrict)
    assert not bad, explain(built, "split", "bytes differ: " + "; ".join(bad[:6]))
    assert not any(g["transformed"] for g in built.groups("split")), explain(
        built, "split", "rewritten although k differs across the row")


# ---------------------------------------------------------------------------
# 4. `i < n - 1` in a grid-stride loop at -O0: opt aborted on invalid IR.


def loop_source(restrict: bool) -> str:
    r = restrict_kw(restrict)
    return PIXEL + (
        f"__global__ void stride_loop(Pixel *{r}dst, const Pixel *{r}src, int n) {{\n"
        "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n - 1; i += blockDim.x * gridDim.x) {\n"
        "    dst[i].r = src[i].r;\n    dst[i].g = src[i].g;\n    dst[i].b = src[i].b;\n  }\n}\n"
    )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("restrict", [False, True])
def test_loop_bound_computed_in_the_header_compiles_and_copies(level: int, restrict: bool) -> None:
    """The compile must succeed (`build` runs the pass and the verifier;
    an abort raises), and the loop's copy must keep its bytes (n = 200
    over 64 threads: several iterations, a partial last one)."""
    built = build_cuda(loop_source(restrict), level)
    n = 200
    bad = mismatches(built, pixel_spec("stride_loop", n, Param("n", "value", n)), restrict)
    assert not bad, explain(built, "stride_loop", "bytes differ: " + "; ".join(bad[:6]))


# ---------------------------------------------------------------------------
# 5. b = a; c = b with __restrict__: the first group rewritten, the second
# reads b[i] that another thread now writes.

CHAINS = {
    # the issue's: b[i] = a[i]; c[i] = b[i]
    "b=a;c=b": ("copy(b, a)\ncopy(c, b)", "Pixel *{r}c, Pixel *{r}b, const Pixel *{r}a"),
    # read b before it is overwritten (the other order of the same hazard)
    "c=b;b=a": ("copy(c, b)\ncopy(b, a)", "Pixel *{r}c, Pixel *{r}b, const Pixel *{r}a"),
    # back into the first source
    "b=a;a=b": ("copy(b, a)\ncopy(a, b)", "const Pixel *{r}c, Pixel *{r}b, Pixel *{r}a"),
}


def chain_source(restrict: bool, shape: str) -> str:
    r = restrict_kw(restrict)
    statements, params = CHAINS[shape]
    body = []
    for stmt in statements.splitlines():
        dst, src = stmt[5:-1].split(", ")
        body += [f"  {dst}[i].{m} = {src}[i].{m};" for m in "rgb"]
    return PIXEL + (
        f"__global__ void chain({params.format(r=r)}) {{\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + "\n".join(body) + "\n}\n"
    )


def chain_spec(*values: Param) -> KernelSpec:
    bytes_ = 3 * BLOCK * BLOCKS
    return KernelSpec("chain", (Param("c", "inout", bytes_), Param("b", "inout", bytes_), Param("a", "inout", bytes_), *values),
                      grid=BLOCKS, block=BLOCK)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("restrict", [False, True])
@pytest.mark.parametrize("shape", sorted(CHAINS))
def test_chained_groups_do_not_race(level: int, restrict: bool, shape: str) -> None:
    """A rewritten group's buffers may be touched elsewhere only by groups
    rewritten too; the schedules (reverse, shuffled) see the race."""
    built = build_cuda(chain_source(restrict, shape), level)
    bad = mismatches(built, chain_spec(), restrict)
    assert not bad, explain(built, "chain", "bytes differ: " + "; ".join(bad[:6]))
    races = race_free_decision(built.kernels["chain"])
    assert not races, explain(built, "chain", "; ".join(races))


def twice_source(restrict: bool) -> str:
    r = restrict_kw(restrict)
    body = [f"  dst[i].{m} = a[i].{m};" for m in "rgb"] + ["  if (flag) {"] + [
        f"    dst[i].{m} = b[i].{m};" for m in "rgb"] + ["  }"]
    return PIXEL + (
        f"__global__ void twice(Pixel *{r}dst, const Pixel *{r}a, const Pixel *{r}b, int flag) {{\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + "\n".join(body) + "\n}\n"
    )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("restrict", [False, True])
@pytest.mark.parametrize("flag", [0, 1])
def test_one_destination_from_two_sources_under_a_uniform_condition(level: int, restrict: bool, flag: int) -> None:
    """`dst[i] = a[i]; if (flag) dst[i] = b[i];` (found by the fuzzer's
    chain family on the unfixed pass): both copies must stay correct."""
    built = build_cuda(twice_source(restrict), level)
    bytes_ = 3 * BLOCK * BLOCKS
    spec = KernelSpec("twice", (Param("dst", "out", bytes_), Param("a", "in", bytes_), Param("b", "in", bytes_),
                                Param("flag", "value", flag)), grid=BLOCKS, block=BLOCK)
    bad = mismatches(built, spec, restrict)
    assert not bad, explain(built, "twice", "bytes differ: " + "; ".join(bad[:6]))
    races = race_free_decision(built.kernels["twice"])
    assert not races, explain(built, "twice", "; ".join(races))
