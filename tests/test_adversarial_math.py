"""The math adversary (testcases/adversarial/math.cu): rewritten kernels that
compute with CUDA's math library. tests/test_adversarial.py runs every kernel
through the oracle at -O0 and -O3 (every layout, every schedule); here the
decisions are pinned, so that the kernels that prove the emulator can check a
rewrite around libdevice stay rewritten, including those whose accesses
libdevice's full-precision functions split over several blocks.
"""

from __future__ import annotations

import pytest

from test_adversarial import built, stagings_by_kernel

STEM = "math"
STAGED = {"normalize", "bodies", "quantize", "transpose_exp"}
# libdevice's branches (and sinf's slow-path loop) between the guard and the
# accesses, or between the accesses: one region over several blocks
ACROSS_BRANCHES = {"polar", "decay", "bodies_precise"}
# The chunk loop is unrolled into one element (-O3, and -O0's full unroll
# of constant trip counts)
CHUNK = {3: ["element"], 0: ["element"]}
COPIED = {"copy_and_length"}


@pytest.mark.parametrize("opt", [3, 0])
def test_math_kernels_stay_rewritten(opt: int) -> None:
    b = built(STEM, opt)
    stagings = stagings_by_kernel(b.report)
    for name in STAGED:
        assert any(s["transformed"] for s in stagings[name]), (name, [s["reason"] for s in stagings[name]])
    chunk = [s for s in stagings["chunk_sqrt"] if s["transformed"]]
    assert [s["kind"] for s in chunk] == CHUNK[opt]
    for name in COPIED:
        assert any(g["transformed"] for g in b.kernel(name)["groups"]), name
    # the emulator must be able to run what it checks: every kernel calls
    # the math library, none is refused (tests/test_adversarial.py runs them)
    assert "@llvm.nvvm.sqrt" in b.after or "@llvm.sqrt" in b.after
    assert " asm " in b.before  # libdevice's inline PTX is in the corpus


@pytest.mark.parametrize("opt", [3, 0])
def test_branchy_math_between_the_accesses_is_staged(opt: int) -> None:
    b = built(STEM, opt)
    stagings = stagings_by_kernel(b.report)
    for name in ACROSS_BRANCHES:
        assert any(s["transformed"] and s["kind"] == "element" for s in stagings[name]), (
            name, [s["reason"] for s in stagings[name]])
    # the slow path's reduction (a loop over libdevice's table) is in the
    # staged region and in the original's clone
    assert b.after.count("@__cudart_i2opi_f") > b.before.count("@__cudart_i2opi_f")
