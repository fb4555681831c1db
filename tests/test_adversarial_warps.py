"""The warp adversary (testcases/adversarial/warps.cu): rewritten kernels
that also shuffle, vote and reduce across the warp. tests/test_adversarial.py
runs every kernel through the oracle at -O0 and -O3 (every layout, every
schedule: the emulator's warp collectives wait for every lane of their
mask); here the decisions are pinned, so that the kernels whose rewrite sits
next to (or around) warp collectives stay rewritten, and the one with a
__syncwarp inside the staged region says why it is left alone.
"""

from __future__ import annotations

import pytest

from test_adversarial import built

STEM = "warps"
STAGED = {"rmw_then_warp_sum", "transpose_broadcast", "swap_pairs", "swap_pairs_divergent"}
# The chunk loop is unrolled (-O3, and -O0's full unroll of constant trip
# counts): one element staging
CHUNK = {3: ["element"], 0: ["element"]}
COPIED = {"copy_and_ballot"}


@pytest.mark.parametrize("opt", [3, 0])
def test_warp_kernels_stay_rewritten(opt: int) -> None:
    b = built(STEM, opt)
    stagings = {k["name"]: k.get("stagings", []) for k in b.report["kernels"]}
    for name in STAGED:
        assert any(s["transformed"] for s in stagings[name]), (name, [s["reason"] for s in stagings[name]])
    assert [s["kind"] for s in stagings["chunk_then_warp_max"] if s["transformed"]] == CHUNK[opt]
    for name in COPIED:
        assert any(g["transformed"] for g in b.kernel(name)["groups"]), name
    for collective in ("shfl.sync.down", "vote.ballot.sync", "redux.sync.max", "shfl.sync.idx"):
        assert f"@llvm.nvvm.{collective}" in b.after, collective


@pytest.mark.parametrize("opt", [3, 0])
def test_a_syncwarp_inside_the_region_is_left_alone(opt: int) -> None:
    stagings = built(STEM, opt).kernel("syncwarp_inside")["stagings"]
    assert stagings and not any(s["transformed"] for s in stagings)
    assert any("a call between the accesses" in s["reason"] for s in stagings)
