"""The adversarial corpus (testcases/adversarial/*.cu): every kernel of every
file, at -O0 and -O3, through the differential oracle (every layout, every
schedule, the overlap and alias layouts where no pointer is __restrict__), and the
rewrite decision of the kernels that must stay rewritten.

Each .cu says above every kernel what it attacks and what the pass does with
it. Known miscompiles are listed in MISCOMPILES and run as strict xfails: when
the pass is fixed, the xfail turns into an XPASS failure and the entry must
be removed (and, if the kernel is then rewritten correctly, added to
MUST_REWRITE).
"""

from __future__ import annotations

import functools
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from coalda.driver.compile import CompileOptions
from coalda.check.run_command import may_overlap
from coalda.emulator.emulate import EmulatorExecutor
from coalda.ir import noalias_params
from coalda.driver.pipeline import Artifacts, build
from coalda.check.oracle import Verdict, check
from coalda.check.spec import Spec, load_spec
from coalda.emulator.schedule import FORWARD, REVERSE, SCHEDULES, Schedule
from conftest import TESTCASES

CORPUS = TESTCASES / "adversarial"
# windows.cu, read_only_windows.cu, real_shapes.cu and arrays_in_turn.cu
# run in test_adversarial_windows.py, test_adversarial_read_only.py,
# test_adversarial_real_shapes.py and test_adversarial_arrays_in_turn.py,
# through `coalda run` with their decisions pinned (here they would run a
# second time).
# records_break.cu and store_windows.cu run in
# test_adversarial_records_break.py and test_adversarial_store_windows.py,
# at -O3 and -O0 with their decisions pinned, the same way.
# private_pointers.cu is analysis only (no launch spec): its report is pinned
# in test_private_pointers.py. grid_variants.cu runs in test_grid_variants.py:
# each rewritten kernel's variant against the original, at -O3 and -O0, the
# variant at g = G blocks being the rewritten kernel, block after block;
# flat_variants.cu and tile_variants.cu in test_flat_variants.py and
# test_tile_variants.py, the same way.
# aliases.cu runs in test_adversarial_aliases.py, built as here, through
# `coalda run` at -O3 (every size under every schedule, the alias layout
# included) with its decisions pinned at both levels.
OWN_TESTS = {"windows", "read_only_windows", "real_shapes", "arrays_in_turn", "private_pointers",
             "records_break", "store_windows", "grid_variants", "flat_variants", "tile_variants", "aliases"}
SOURCES = sorted(p for p in CORPUS.glob("*.cu") if p.stem not in OWN_TESTS)
OPT_LEVELS = (0, 3)

# (file stem, kernel, -O level) -> what goes wrong. Each fails the oracle today.
MISCOMPILES: dict[tuple[str, str, int], str] = {
    # None open at ca91baf; add (stem, kernel, opt): "what goes wrong" here.
}

# Fixed in 5f0774f, now ordinary must-match cases (and left alone):
# loops/test_after_copy (-O0, -O3), loops/next_test_before_copy (-O0),
# flat/preheader_side_effect (-O3), narrowing/trunc* (-O0), aliasing/readback_*
# and src_written_* (-O0, -O3), shared/scratch_select and extern_alias (-O0,
# -O3), reach/divergent_exit_uniform_cond (-O0), runtime_stride/zext_stride
# (-O0, -O3) and bool_stride (-O0).
# Fixed in the working tree after fe5ac07 (run-time no-wrap check of the
# guard's lane side; irreducible cycles left alone): narrowing/
# unsigned_wrap_guard (-O0), signed_cmp_unsigned_add and signed_diff_unsigned
# (-O0, -O3), reach/irreducible_cycle (-O0, -O3).
# Fixed in the working tree after 5eaa1fc (the loop index must step up by a
# positive multiple of the grid's dimensions): loops/down_loop (-O0, -O3).
# Fixed in ca91baf (the grid-stride index must step up by special registers
# and not wrap): narrowing/loop_wrap (-O0, -O3).
# Fixed on 2026-11-26 (a grid-stride loop's bound must not change between
# iterations): loop_bounds/loop_varying_bound (-O0).

# (file stem, -O level) -> kernels whose copy must be rewritten (at least one
# group transformed; the others are the kernel's helper accesses): a later
# change must not quietly refuse them.
MUST_REWRITE: dict[tuple[str, int], tuple[str, ...]] = {
    ("param_structs", 3): ("copy3",),  # its stagings: test_adversarial_param_structs.py
    **{
        ("guards", o): ("less_equal", "swapped", "unsigned_minus", "signed_minus", "per_row_offset", "wide_index",
                        "unsigned_vs_negative", "early_returns", "guard_on_y", "guard_flat_2d",
                        "uniform_phi_bound", "shifted_copy", "and_le", "diff_and_lt", "nested",
                        "ret_then_lt", "not_ge", "or_false", "le_max", "ule_max")
        for o in (0, 3)
    },
    ("loops", 0): ("grid_stride", "guarded_do_while", "block_stride", "odd_start_step", "uniform_loop",
                   "after_divergent_loop"),
    ("loops", 3): ("grid_stride", "guarded_do_while", "block_stride", "odd_start_step",
                   "after_divergent_loop"),
    ("flat", 0): ("flag_before_loop", "flag_goto_loop", "shifted_elements", "unsigned_loop",
                  "bound_minus_one", "negative_bound"),
    ("flat", 3): ("flag_before_loop", "shifted_elements", "unsigned_loop", "bound_minus_one",
                  "negative_bound"),
    ("aliasing", 0): ("same_copy_twice_regions",),
    ("aliasing", 3): ("same_copy_twice_regions",),
    ("shared", 0): ("tile_plain", "tile_dynamic", "tile_2d", "src_written_after_barrier"),
    ("shared", 3): ("tile_plain", "tile_dynamic", "tile_2d", "src_written_after_barrier"),
    ("runtime_stride", 0): ("sext_stride", "stride_ntid_y", "stride_with_gap", "stride_guarded"),
    ("runtime_stride", 3): ("sext_stride", "stride_ntid_y", "stride_with_gap", "stride_guarded"),
    ("loop_bounds", 0): ("loop_le", "loop_ule", "loop_le_minus1", "loop_le_neg", "loop_ule_zero"),
    ("loop_bounds", 3): ("loop_le", "loop_ule", "loop_diff", "loop_le_minus1", "loop_ge_rev",
                         "loop_two_bounds", "loop_le_neg", "loop_ule_zero"),
    **{
        ("transfers", o): ("f3_assign", "f3_assign_guarded", "p3_assign", "p7_assign", "px_memmove",
                           "two_halves", "memcpy_plus_store", "memcpy_two_elems", "f3_grid_stride",
                           "tile_assign")
        for o in (0, 3)
    },
    **{
        ("uniform_loads", o): ("flag_in_memory", "flag_per_block", "bound_in_memory", "bound_in_shared",
                               "stride_in_memory")
        for o in (0, 3)
    },
    ("helpers", 0): ("helper_copy", "helper_fill_barrier", "helper_twice"),
    ("helpers", 3): ("helper_copy", "helper_fill_barrier", "helper_twice", "helper_recursive"),
    ("reach", 0): ("after_uniform_loop", "rejoin_before_copy"),
    ("reach", 3): ("after_uniform_loop", "rejoin_before_copy", "uniform_switch"),
    **{
        ("members", o): ("packed_csi", "packed_dc", "packed_scs_scrambled", "char3_copy", "short3_copy",
                         "packed_int2", "packed_mixed", "bools_as_bytes", "csi_bytes_1023", "wide_members",
                         "three_doubles", "double_float_float", "int4_triple", "float3_assign", "float4_pair")
        for o in (0, 3)
    },
    **{
        ("shapes", o): ("guarded", "guarded_b1", "guarded_b33", "guarded_b1023", "rows_2d", "rows_3d",
                        "rows_interleaved", "rows_interleaved_flat", "rows_and_bounds", "rows_reversed",
                        "grid_2d_stride")
        for o in (0, 3)
    },
}

# Kernels with a rewritten grid-stride loop that must also get the flat copy.
MUST_BE_FLAT: dict[tuple[str, int], tuple[str, ...]] = {
    ("loop_bounds", 0): ("loop_le", "loop_ule", "loop_le_minus1", "loop_le_neg", "loop_ule_zero"),
    ("loop_bounds", 3): ("loop_le", "loop_ule", "loop_diff", "loop_le_minus1", "loop_ge_rev",
                         "loop_le_neg", "loop_ule_zero"),
    ("transfers", 0): ("f3_grid_stride",),
    ("transfers", 3): ("f3_grid_stride",),
    ("loops", 0): ("grid_stride",),
    ("loops", 3): ("grid_stride", "guarded_do_while"),
    ("flat", 0): ("side_effect_before_guard", "side_effect_after_loop", "shifted_elements",
                  "unsigned_loop", "bound_minus_one", "negative_bound"),
    ("flat", 3): ("side_effect_before_guard", "side_effect_after_loop", "shifted_elements",
                  "unsigned_loop", "bound_minus_one", "negative_bound"),
}


@dataclass
class Built:
    spec: Spec
    report: dict
    before: str
    after: str

    @functools.cached_property
    def executors(self) -> tuple[EmulatorExecutor, EmulatorExecutor]:
        return EmulatorExecutor(self.before), EmulatorExecutor(self.after)

    @functools.cached_property
    def noalias(self) -> dict[str, frozenset[int]]:
        """The original module's `__restrict__` parameters, parsed once per
        module (not once per kernel: parsing a module takes 0.1 s)."""
        return noalias_params(self.before)

    @functools.cached_property
    def definitions(self) -> tuple[dict[str, str], dict[str, str]]:
        """The functions and globals of the original and of the rewritten
        module, by name (module_definitions)."""
        return module_definitions(self.before), module_definitions(self.after)

    def unchanged(self, name: str) -> bool:
        """Whether kernel NAME, every function it reaches and every global
        they name read the same in both modules (metadata aside): the pass
        left it as it was, and both modules run the same code for it."""
        before, after = self.definitions
        todo, seen = [self.symbol(name)], set()
        while todo:
            symbol = todo.pop()
            if symbol in seen:
                continue
            seen.add(symbol)
            if symbol not in before or before[symbol] != after.get(symbol):
                return False  # a name this reading does not know (a quoted one) is a change
            todo += _NAMED.findall(before[symbol])
        return True

    def kernel(self, name: str) -> dict:
        [kernel] = [k for k in self.report["kernels"] if k["name"] == name]
        return kernel

    def symbol(self, name: str) -> str:
        return self.kernel(name)["symbol"]


_DEFINITION = re.compile(r"^(?:define [^@\n]*@([\w.$]+)\(.*?^}$|@([\w.$]+) = [^\n]*$|declare [^@\n]*@([\w.$]+)\([^\n]*$)",
                         re.M | re.S)
_NAMED = re.compile(r"@([\w.$]+)")
_METADATA = re.compile(r",? !(?!\{)[\w.]+ !\d+")


def module_definitions(module: str) -> dict[str, str]:
    """Each function definition, declaration and global of MODULE's text,
    by name, less its metadata attachments (`!dbg !12`, `!tbaa !7`: their
    numbers move when the pass adds metadata elsewhere in the module)."""
    return {m.group(1) or m.group(2) or m.group(3): _METADATA.sub("", m.group(0))
            for m in _DEFINITION.finditer(module)}


def stagings_by_kernel(report: dict) -> dict[str, list[dict]]:
    """Kernel name -> its staging candidates in a report."""
    return {k["name"]: k.get("stagings", []) for k in report["kernels"]}


# The corpora attack the staged code: small elements, which the cost rule
# leaves alone where staging them measured slower, are staged all the same.
CORPUS_PASS_ARGS = ("-coalda-stage-small-always",)


@functools.lru_cache(maxsize=None)
def built(stem: str, opt: int, pass_args: tuple[str, ...] = CORPUS_PASS_ARGS) -> Built:
    source = CORPUS / f"{stem}.cu"
    with tempfile.TemporaryDirectory(prefix="coalda-adv-") as scratch:
        art = Artifacts(Path(scratch), stem)
        result = build(source, CompileOptions(opt_level=opt), art, ptx=False, pass_args=pass_args)
        return Built(load_spec(source.with_suffix(".toml")), result.report,
                     art.before.read_text(), art.after.read_text())


def _cases() -> list:
    cases = []
    for source in SOURCES:
        spec = load_spec(source.with_suffix(".toml"))
        for kernel in spec.kernels:
            for opt in COMPARED_LEVELS:
                key = (source.stem, kernel, opt)
                marks = [pytest.mark.xfail(strict=True, reason=MISCOMPILES[key])] if key in MISCOMPILES else []
                cases.append(pytest.param(*key, id=f"{source.stem}-{kernel}-O{opt}", marks=marks))
    return cases


# `make test` checks, every layout:
# - -O3 at every size, the largest under every schedule, the others under
#   forward and reverse (not one alone: one schedule cannot tell a racy
#   original in the alias layout, oracle.check; tried on 2026-12-04, 77
#   cases then differed there);
# - -O0's decisions (test_rewrite_decisions_are_pinned), not its bytes
#   (since 2026-12-04, for CI time); the emitters are the same at both
#   levels, and what -O0 adds is the analysis of unoptimized IR, whose
#   decisions are pinned;
# - a kernel the pass left as it was (Built.unchanged: the same code in
#   both modules, which can compute nothing different) once, at the
#   largest size under the forward schedule: that it runs (275 of the 1394
#   cases on 2026-12-03).
# `make test-o0` (COALDA_ADVERSARIAL_O0=full) checks both levels and every
# kernel at every size under every schedule (for CI time: docs/test-speed.md,
# "2026-12-02, second", "2026-12-03" and "2026-12-04").
O0_FULL = os.environ.get("COALDA_ADVERSARIAL_O0") == "full"
# -O0's comparisons run in `make test-o0` only; `make test` builds -O0 and
# pins its decisions (test_rewrite_decisions_are_pinned, the launch specs).
# For CI time (docs/test-speed.md, "2026-12-04, stop 59's CI at 442 s"):
# they were 30 of the file's 90 CPU s.
COMPARED_LEVELS = OPT_LEVELS if O0_FULL else (3,)


def matrix(b: Built, kernel: str, opt: int) -> list[tuple[int, tuple[Schedule, ...]]]:
    """The sizes a kernel of B at -O OPT is checked at, each with its
    schedules."""
    largest = max(b.spec.sizes)
    if O0_FULL:
        return [(n, SCHEDULES) for n in b.spec.sizes]
    if b.unchanged(kernel):
        return [(largest, (FORWARD,))]
    if opt:
        return [(n, SCHEDULES if n == largest else (FORWARD, REVERSE)) for n in b.spec.sizes]
    return [(largest, (FORWARD, REVERSE))]


@pytest.mark.parametrize(("stem", "kernel", "opt"), _cases())
def test_adversarial_kernel_computes_the_original_bytes(stem: str, kernel: str, opt: int) -> None:
    b = built(stem, opt)
    kspec = b.spec.kernels[kernel]
    original, optimized = b.executors
    symbol = b.symbol(kernel)
    overlap = may_overlap(kspec, b.noalias.get(symbol, frozenset()))
    bad = []
    for n, schedules in matrix(b, kernel, opt):
        for r in check(kspec, lambda name: b.symbol(name), original, optimized, n,
                       np.random.default_rng(n), overlap=overlap, alias=True, schedules=schedules):
            assert r.verdict is not Verdict.RACY_ORIGINAL, f"the test kernel itself is racy: {r.detail}"
            if not r.match:
                bad.append(f"n={r.n} {r.layout} {r.schedule}: {r.verdict.value}: {r.detail}")
    assert not bad, f"{len(bad)} comparisons differ; first: " + "; ".join(bad[:3])


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_every_kernel_has_a_launch_spec(source: Path) -> None:
    """No kernel of the corpus goes untested for want of a spec entry."""
    spec = load_spec(source.with_suffix(".toml"))
    names = {k["name"] for k in built(source.stem, 0).report["kernels"]}
    assert names == set(spec.kernels), f"spec-less: {names - set(spec.kernels)}, stale: {set(spec.kernels) - names}"


@pytest.mark.parametrize(("stem", "opt"), sorted(MUST_REWRITE), ids=lambda v: str(v))
def test_rewrite_decisions_are_pinned(stem: str, opt: int) -> None:
    b = built(stem, opt)
    refused = []
    for name in MUST_REWRITE[(stem, opt)]:
        groups = b.kernel(name)["groups"]
        if not any(g["transformed"] for g in groups):
            refused.append(f"{name}: {[g['reason'] for g in groups]}")
        elif b.unchanged(name):  # which matrix() would check once only
            refused.append(f"{name}: rewritten, yet its code reads as the original's")
    for name in MUST_BE_FLAT.get((stem, opt), ()):
        if not any(g.get("flat") for g in b.kernel(name)["groups"]):
            refused.append(f"{name}: no flat copy")
    assert not refused, "\n".join(refused)


UNCHANGED_BEFORE = """declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define void @k(ptr %p) !dbg !4 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @helper(ptr %p), !dbg !7
  ret void, !dbg !8
}
define internal void @helper(ptr %p) {
  %v = load i32, ptr addrspace(3) @tile, align 4, !tbaa !9
  store i32 %v, ptr %p, align 4
  ret void
}
@tile = internal addrspace(3) global [32 x i32] undef, align 4
"""


@pytest.mark.parametrize(("edit", "unchanged"), [
    (lambda m: m, True),
    (lambda m: m.replace("!dbg !7", "!dbg !17").replace("!tbaa !9", "!tbaa !19"), True),
    (lambda m: m.replace("store i32 %v", "store volatile i32 %v"), False),  # in a callee
    (lambda m: m.replace("[32 x i32]", "[64 x i32]"), False),  # a global a callee names
    (lambda m: m.replace("align 4\n  ret", "align 8\n  ret"), False),
    (lambda m: m.replace("@helper", '@"helper"'), False),  # a quoted name
], ids=["same", "metadata", "callee", "global", "alignment", "quoted"])
def test_unchanged_compares_the_code_a_kernel_reaches(edit, unchanged: bool) -> None:
    b = Built(Spec({}), {"kernels": [{"name": "k", "symbol": "k"}]}, UNCHANGED_BEFORE, edit(UNCHANGED_BEFORE))
    assert b.unchanged("k") is unchanged


def test_known_miscompiles_are_rewritten_today() -> None:
    """Each listed miscompile is a rewrite (not a refusal the oracle cannot
    see): if the pass starts refusing one, its xfail flips and says so; this
    keeps the list honest in the other direction."""
    missing = [key for key in MISCOMPILES if not any(g["transformed"] for g in built(key[0], key[2]).kernel(key[1])["groups"])]
    assert not missing, f"no longer rewritten (remove from MISCOMPILES): {missing}"
