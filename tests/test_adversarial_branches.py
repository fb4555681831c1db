"""The branches adversary (testcases/adversarial/branches.cu): staged regions
that span several blocks. tests/test_adversarial.py runs every kernel through
the oracle at -O0 and -O3 (every layout, every schedule, the overlap layouts
where no pointer is __restrict__); here the decisions are pinned: the
kernels whose member accesses every thread passing the guard runs (with
loops, divergent arms and libdevice's slow paths between them) stay staged,
a read under a branch of its own joins the tile, a copy after sinf is
widened, the stores after an exit are staged on their own, and the kernels
where a store is under a branch of its own, or where __ldg may read the
staged element, say why they are left alone.
"""

from __future__ import annotations

import pytest

from test_adversarial import built, stagings_by_kernel

STEM = "branches"
STAGED = {"loop_between", "arms_then_store", "no_guard_sinf", "read_in_branch"}
# a member stored under a branch not every thread takes: no one set of
# bytes to write back
PARTIAL = {"store_in_both_arms"}
# a member-wise copy after sinf's branches: the copy rewrite finds its
# threads through the control class of its block
COPIED = {"copy_after_sinf"}


@pytest.mark.parametrize("opt", [3, 0])
def test_regions_across_blocks_are_staged(opt: int) -> None:
    b = built(STEM, opt)
    stagings = stagings_by_kernel(b.report)
    for name in STAGED:
        assert [s["kind"] for s in stagings[name] if s["transformed"]] == ["element"], (
            name, [s["reason"] for s in stagings[name]])
    # the conditional read of p[i].z joins the staged array: no candidate of
    # its own, and no run-time check that would always send the block to the
    # original code
    assert len(stagings["read_in_branch"]) == 1
    assert stagings["read_in_branch"][0]["go"] == "uniform"
    assert [s["kind"] for s in stagings["transpose_sinf"] if s["transformed"]] == ["transposed"]
    for name in COPIED:
        groups = b.kernel(name)["groups"]
        assert any(g["transformed"] and g["guard"] == "bounds" for g in groups), (name, groups)


@pytest.mark.parametrize("opt", [3, 0])
def test_stores_not_every_thread_reaches_are_left_alone(opt: int) -> None:
    stagings = stagings_by_kernel(built(STEM, opt).report)
    for name in PARTIAL:
        assert stagings[name] and not any(s["transformed"] for s in stagings[name]), name
        assert any("under a branch writes bytes" in s["reason"] for s in stagings[name]), name
    # an exit between the stores: the stores after it (y and z, which every
    # thread past the exit runs) are staged in warp tiles, only their 8
    # bytes written back; x's store before it is the other candidate
    done = [s for s in stagings["exit_between"] if s["transformed"]]
    assert len(done) == 1 and done[0]["tile"] == "warp", stagings["exit_between"]
    assert "8 of its bytes written back" in done[0]["reason"]
    alias = stagings["ldg_may_alias"]
    assert alias and not any(s["transformed"] for s in alias)
    assert any("llvm.nvvm.ldg" in s["reason"] for s in alias)


def test_the_cost_rule_leaves_small_elements_with_math_alone() -> None:
    """Without -coalda-stage-small-always (the corpus's setting), the float3
    kernels with branches between their accesses are left alone by the cost
    rule (measured 0.42-0.94x); the transpose is not an element staging."""
    stagings = stagings_by_kernel(built(STEM, 3, ()).report)
    for name in STAGED:
        assert not any(s["transformed"] for s in stagings[name]), name
        assert any("with branches between the accesses" in s["reason"] for s in stagings[name]), name
    assert any(s["transformed"] for s in stagings["transpose_sinf"])
