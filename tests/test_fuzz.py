"""Differential fuzzing: random copy kernels through `coalda optimize`'s
pipeline, emulated before and after on random inputs under every layout,
must compute byte-identical outputs (guard zones included); kernels that
are whole, pure copies must also actually be rewritten.

CI runs COALDA_FUZZ_EXAMPLES kernels (default 200); `make fuzz` runs 2000.
A failure is shrunk by hypothesis to its smallest batch; keep it as a
regression in tests/test_fuzz_regressions.py.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coalda.compile import CompileOptions
from coalda.emulate import EmulatorExecutor
from coalda.pipeline import Artifacts, build
from coalda.runner import check
from fuzz_kernels import FuzzKernel, fuzz_kernels

BATCH = 20
KERNELS = int(os.environ.get("COALDA_FUZZ_EXAMPLES", "200"))


STATS = {"kernels": 0, "rewritten": 0}


def differential(batch: list[FuzzKernel], opt_level: int, seed: int) -> list[str]:
    """Compile the batch as one module; return a line per problem found."""
    names = [f"k{i}" for i in range(len(batch))]
    source = "".join(k.source(n) for k, n in zip(batch, names))
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        cu = Path(tmp) / "fuzz.cu"
        cu.write_text(source)
        art = Artifacts(Path(tmp), "fuzz")
        result = build(cu, CompileOptions(opt_level=opt_level), art, ptx=False)
        original = EmulatorExecutor(art.before.read_text())
        optimized = EmulatorExecutor(art.after.read_text())
    by_name = {k["name"]: k for k in result.report["kernels"]}
    rng = np.random.default_rng(seed)
    for kernel, name in zip(batch, names):
        spec, n = kernel.spec(name)
        for r in check(spec, lambda _: by_name[name]["symbol"], original, optimized, n, rng):
            if not r.match:
                problems.append(f"{name} ({r.layout}): {r.detail}\n{kernel.source(name)}")
        rewritten = any(g["transformed"] for g in by_name[name]["groups"])
        STATS["kernels"] += 1
        STATS["rewritten"] += rewritten
        # -O3 may merge a whole element into one access (e.g. 4 chars into an
        # i32 with __restrict__): that access is coalesced (with a run-time
        # stride: when the stride is its width), nothing to rewrite.
        merged = all(
            g["reason"].startswith(("already coalesced", "run-time lane stride over a single member"))
            for g in by_name[name]["groups"]
        )
        if kernel.expect_rewrite and not rewritten and not merged:
            reasons = "; ".join(g["reason"] for g in by_name[name]["groups"]) or "no group"
            problems.append(f"{name}: expected a rewrite at -O{opt_level}, got: {reasons}\n{kernel.source(name)}")
        if rewritten and not kernel.expect_rewrite:
            problems.append(f"{name}: rewritten although it is not a whole pure copy\n{kernel.source(name)}")
    return problems


@settings(
    max_examples=max(1, KERNELS // BATCH), deadline=None, derandomize=os.environ.get("CI") == "true",
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    # Fixed-size batches: the count of kernels is exact; a failure names the
    # kernel (with its source) and hypothesis shrinks its parameters.
    batch=st.lists(fuzz_kernels(), min_size=BATCH, max_size=BATCH),
    opt_level=st.sampled_from([0, 3]),
    seed=st.integers(0, 2**32 - 1),
)
def test_rewrite_preserves_every_byte(batch: list[FuzzKernel], opt_level: int, seed: int) -> None:
    problems = differential(batch, opt_level, seed)
    assert not problems, "\n".join(problems)


def test_fuzzer_ran_enough_kernels() -> None:
    """Runs after the fuzz test (file order): the budget was really spent and
    a fair share of the kernels was really rewritten."""
    assert STATS["kernels"] >= KERNELS
    assert STATS["rewritten"] >= STATS["kernels"] // 8, STATS  # observed: 17-24%
