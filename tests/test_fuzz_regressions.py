"""Kernels the differential fuzzer once failed on, kept as regressions.

- The fuzzer expected a rewrite of a `__restrict__` copy of four chars at
  stride 4; clang -O3 merges them into one coalesced i32 access, so "already
  coalesced" is right and the fuzzer's expectation was fixed.
- With a run-time stride, clang -O3 merged two `__restrict__` chars into
  one 2-byte member: coalesced when the stride is 2, so left alone.
- Emulating many batches crashed: every MCJIT engine shared one target
  machine, which the first engine to be freed destroyed.
- While the five defects of issue 9 were being fixed, a uniform loop
  without `__restrict__` stopped being rewritten (at -O3, unrolled, "the
  destination may also be read elsewhere"; at -O0 "the copy is in a
  loop"), and the fuzzer flagged it. It is the rule now (0718775): one
  iteration's overlap check covers its own regions only; a later
  iteration may read what this one wrote, which the rewrite would have
  another thread write. The oracle's overlapping layouts run one thread,
  so only the decision shows a regression: these stay left alone.
"""

from __future__ import annotations

import gc
from collections import Counter

import numpy as np

from coalda.emulator import emulate
from fuzz_kernels import (
    Element, FuzzKernel, IrreducibleKernel, LoopKernel, PreheaderKernel, RotatedKernel, SelectKernel, SharedKernel,
    StrideKernel,
)
from test_fuzz import STATS, differential

RESTRICT_CHARS = FuzzKernel(
    members=("char",) * 4, array=True, statements=((2, 2), (1, 1), (0, 0), (3, 3)),
    index="gid", restrict=True, block=32, blocks=2,
)


def test_restrict_chars_merged_at_O3_are_already_coalesced() -> None:
    assert differential([RESTRICT_CHARS], 3, seed=1) == []


def test_restrict_chars_at_O0_are_rewritten_and_equal() -> None:
    assert differential([RESTRICT_CHARS], 0, seed=2) == []


RUNTIME_STRIDE_CHARS = [
    FuzzKernel(members=("char",) * 2, array=True, statements=((0, 0), (1, 1)), index="gid", restrict=True,
               block=32, blocks=1, runtime_stride=True, stride_extra=extra)
    for extra in (0, 1)
]


def test_merged_members_with_a_run_time_stride_are_left_alone_and_equal() -> None:
    assert differential(RUNTIME_STRIDE_CHARS, 3, seed=3) == []
    assert differential(RUNTIME_STRIDE_CHARS, 0, seed=4) == []


KERNEL = """
target triple = "nvptx64-nvidia-cuda"
define void @k{i}(ptr %p) {{
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = zext i32 %t to i64
  %a = getelementptr i32, ptr %p, i64 %e
  store i32 {i}, ptr %a
  ret void
}}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{{!0}}
!0 = !{{ptr @k{i}, !"kernel", i32 1}}
"""


def test_modules_jitted_after_others_were_freed_still_run() -> None:
    """With one shared target machine, freeing an engine freed it, and the
    next module was compiled with a dangling one."""
    for round_ in range(3):
        modules = [emulate.EmulatedModule(KERNEL.format(i=i)) for i in range(3)]
        del modules
        gc.collect()
    fresh = emulate.EmulatedModule(KERNEL.format(i=7))
    out = np.zeros(8, dtype=np.int32)
    fresh.launch("k7", (1, 1, 1), (8, 1, 1), [out])
    assert (out == 7).all()


UNIFORM_LOOPS = [
    FuzzKernel(members=("char",) * 5, array=True, statements=((1, 1), (3, 3), (0, 0), (2, 2), (4, 4)),
               index="uniform_loop", restrict=False, block=96, blocks=1, tail=25),
    FuzzKernel(members=("long long", "double"), array=False, statements=((1, 1), (0, 0)),
               index="uniform_loop", restrict=False, block=36, blocks=2, tail=13),
]


def test_uniform_loops_without_restrict_keep_their_per_iteration_code() -> None:
    assert differential(UNIFORM_LOOPS, 3, seed=5) == []
    assert differential(UNIFORM_LOOPS, 0, seed=6) == []


# The corpus families of tests/fuzz_kernels.py generate the shapes that broke
# the pass (testcases/adversarial/, fixed in 5f0774f and f03b8de): each
# family's old miscompile as the family spells it, and a neighbour of it that
# the pass rewrites (the family reaches the rewrite it once broke). Offline,
# with the plugin built from b56b60b (before 5f0774f) or 4f2ce55 (before
# f03b8de), 60 kernels of each family found the old miscompiles (wrong bytes
# or, for the stride trap, writes before dst).
PIXEL = Element(("char", "char", "char"), (0, 1, 2))
PIX5 = Element(("int",) * 5, (0, 1, 2, 3, 4))

CORPUS_SHAPES = {
    # aliasing.cu readback_select: p = flag ? (int *)dst : other, out[i] = p[5*i]
    "selptr": (SelectKernel(PIX5, "dst", "select", "read_after", 0, True, True, 1, 32, 2),
               SelectKernel(PIX5, "other", "select", "read_after", 0, True, True, 1, 32, 2)),
    # shared.cu extern_alias: scratch through a second extern array, then the fill
    "dynshared": (SharedKernel(PIXEL, "two_extern", "before", 0, False, 0, True, 1, 64, 2),
                  SharedKernel(PIXEL, "one", "none", 0, False, 0, True, 1, 64, 2)),
    # reach.cu irreducible_cycle: entered at B when flag, copy in A, exit k >= tid % 3
    "irreducible": (IrreducibleKernel(PIXEL, "flag", "tid", "a", False, False, 0, 2, 32, 2),
                    IrreducibleKernel(PIXEL, "flag", "tid", "after", True, False, 0, 2, 32, 2)),
    # runtime_stride.cu zext_stride: unsigned short s = 65535, t = -3 on 3 ints
    "stride": (StrideKernel("int", 3, "unsigned short", "st", "trap", "tid", False, 2, 1),
               StrideKernel("int", 3, "short", "st", "match", "gid", False, 32, 2)),
    # flat.cu preheader_side_effect: seen[] written after the i < n test, before a do-while
    "preheader": (PreheaderKernel(PIXEL, "guard_do", "seen", True, 1, 32, 2, 100),
                  PreheaderKernel(PIXEL, "before_for", "seen", True, 1, 32, 2, 100)),
    # loops.cu test_after_copy: the exit test on i after the copy
    "rotated": (RotatedKernel(PIXEL, "break_after", False, 64, 3, 100, 0),
                RotatedKernel(PIXEL, "guarded_do", True, 64, 3, 100, 0)),
}


def test_corpus_families_generate_their_miscompile_and_a_rewritten_neighbour() -> None:
    assert set(CORPUS_SHAPES) == {"selptr", "dynshared", "irreducible", "stride", "preheader", "rotated"}
    batch = [k for pair in CORPUS_SHAPES.values() for k in pair]
    assert all(k.family == f for f, pair in CORPUS_SHAPES.items() for k in pair)
    for level in (0, 3):
        before = Counter(STATS)
        assert differential(batch, level, seed=11 + level) == []
        rewritten = {f: STATS[f"rewritten:{f}"] - before[f"rewritten:{f}"] for f in CORPUS_SHAPES}
        missing = [f for f, r in rewritten.items() if r < 1]
        assert not missing, f"-O{level}: no kernel of {missing} rewritten"


# A grid-stride loop whose bound changes between iterations (loop_bounds.cu
# varying_bound): at -O0 the header tests `i < bound(r)` and the copy
# rewrite took the threads below the current bound for those still in the
# loop, so after a low bound let the middle row's upper threads leave, a
# high one had their elements copied anyway (found by hand while staging
# grid-stride loops; the loop family's "varying" form generates it). Left
# alone now at both levels.
VARYING_BOUNDS = [
    LoopKernel(PIXEL, "varying", c, True, 32, 2, tail, 0) for c, tail in ((0, 0), (1, 5), (3, 17))
]


def test_a_loop_bound_that_changes_between_iterations_is_left_alone() -> None:
    for level in (0, 3):
        assert differential(VARYING_BOUNDS, level, seed=21 + level) == []
