"""Chunk windows against writes by other threads that a barrier orders
before the owner's read (testcases/adversarial/windows_cross.cu): every
kernel at -O3 and -O0 through `coalda run --emulate`, and the decisions
pinned. Found by this corpus and fixed: a barrier in a `pure` helper five
calls deep (left as a call by the inliner, memory(read)) was taken for a
call that writes nothing; the window's last refill, made before the
neighbour's write, was read after it.
"""

from __future__ import annotations

import pytest

from conftest import TESTCASES, assert_all_match, emulate_levels, optimize_levels

SOURCE = TESTCASES / "adversarial" / "windows_cross.cu"
WINDOWED = {"cross_control", "barrier_then_unrolled_tail"}


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("windows-cross"), (3, 0))


@pytest.mark.parametrize("level", (3, 0))
def test_only_the_barrier_free_kernels_are_windowed(level: int, optimized: dict) -> None:
    report = optimized[level][1]
    windowed = {k["name"] for k in report["kernels"] for s in k.get("stagings", [])
                if s["kind"] == "window" and s["transformed"]}
    assert windowed == WINDOWED
    reasons = {k["name"]: s["reason"] for k in report["kernels"] for s in k.get("stagings", [])
               if s["kind"] == "window" and not s["transformed"]}
    assert "wait at a barrier" in reasons["deep_pure_between_loops"]


def test_every_kernel_computes_the_original_bytes(optimized: dict) -> None:
    for run in emulate_levels(SOURCE, optimized).values():
        assert_all_match(run)
