"""The rewrite form of the run-time choice (pass/lib/RewriteChoice.cpp,
-coalda-choose-rewrites, which `coalda cc -fcoalda-reshape` passes): a
rewritten kernel K with no grid variant keeps its code as written, and its
rewrite becomes `K__coalda_grid`, launched on K's own grid with K's own
arguments. testcases/staging_loops.cu (one-element stagings and grid-stride
loops, seven kernels, none of one copy) and gaussian.cu's Fan2 (a 2-D
transposed staging) at -O3 through `coalda optimize` with both options:
- each rewritten kernel gets the rewrite form, says so in the report, and
  its kernel is byte for byte the kernel of a build without the pass;
- every variant runs against its original on the emulator
  (coalda/check/variants.py's RewriteLaunch), every layout and schedule;
- a bug planted into the variants (the warp tiles' lane taken from 4 bits
  of the thread index) is caught.
The PTX of a `coalda cc` build (the variant is the default build's rewrite,
instruction for instruction) is tests/test_cc_launches.py's; the choice
itself, tests/test_launch_runtime.py's and docs/runs/launches/ (run 10)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import TESTCASES, function_text, global_kernels, in_function, optimize_levels, optimize_outputs

from coalda.check.oracle import Verdict
from coalda.check.run_command import Compiled
from coalda.check.spec import load_spec
from coalda.check.variants import SUFFIX, check_variants, rewrite_kernels, variant_symbols
from coalda.emulator.schedule import FORWARD

SOURCES = (TESTCASES / "staging_loops.cu", TESTCASES / "gaussian.cu")
OPTIONS = ("--pass-arg=-coalda-reshape-launches", "--pass-arg=-coalda-choose-rewrites")


@pytest.fixture(scope="module")
def optimized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    root = tmp_path_factory.mktemp("rewrite-choice")
    return {source.stem: optimize_levels(source, root / source.stem, (3,), *OPTIONS)[3] for source in SOURCES}


def rewritten(report: dict) -> dict[str, str]:
    """Spec name -> symbol of each kernel the pass rewrote."""
    return {k["name"]: k["symbol"] for k in report["kernels"]
            if any(x["transformed"] for x in [*k.get("groups", []), *k.get("stagings", [])])}


def code(module: str, symbol: str) -> str:
    """SYMBOL's instructions in MODULE, without its debug locations (the
    kept original's are its own subprogram's copies) and with metadata
    numbers left out (they follow the module's order)."""
    body = re.sub(r",? !dbg !\d+", "", function_text(module, symbol).split("{", 1)[1])
    return re.sub(r"!\d+", "!N", body)


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.stem)
def test_each_rewrite_keeps_its_original_beside_it(source: Path, optimized: dict) -> None:
    """The report's launch says "chosen at run time" with the rewrite form
    and why there is no grid variant; the after-IR marks and defines each
    variant; K's definition is the before-IR's, unchanged."""
    out, report = optimized[source.stem]
    compiled = optimize_outputs(out, source.stem)
    done = rewritten(report)
    assert set(done) == global_kernels(source), sorted(global_kernels(source) - set(done))
    marked = rewrite_kernels(compiled.after_ir)
    assert marked == set(done.values()) == set(variant_symbols(compiled.after_ir))
    for kernel in report["kernels"]:
        launch = kernel["launch"]
        assert launch["form"] == "rewrite" and not launch["reshaped"], launch
        assert launch["reason"].startswith("chosen at run time by measurement"), launch
        assert launch["kept"].startswith("launch kept: "), launch
        assert launch["variant"] == kernel["symbol"] + SUFFIX and launch["until_measured"] == "variant"
        body = code(compiled.after_ir, kernel["symbol"])
        assert body == code(compiled.before_ir, kernel["symbol"]) and "coalda" not in body, kernel["name"]
        assert "coalda" in function_text(compiled.after_ir, kernel["symbol"] + SUFFIX).split("{", 1)[1]


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.stem)
def test_every_rewrite_computes_the_original_bytes(source: Path, optimized: dict) -> None:
    out, report = optimized[source.stem]
    run = check_variants(optimize_outputs(out, source.stem), load_spec(source.with_suffix(".toml")))
    assert not run.skipped, run.skipped
    assert run.kernels() == set(rewritten(report))
    assert not run.failures, run.summary()
    assert {r.blocks for r in run.results} == {r.grid for r in run.results}  # the original's grid


def test_a_bug_planted_in_the_rewrites_is_caught(optimized: dict) -> None:
    """The warp tiles' lane from 4 bits of the thread index: lanes 16-31
    move lanes 0-15's units again, theirs stay unmoved, in each variant that
    stages through warp tiles; a MISMATCH in some layout at every size."""
    out, report = optimized["staging_loops"]
    compiled = optimize_outputs(out, "staging_loops")
    lane = "%coalda.lane = and i64 %coalda.tid, 31"
    after, planted = compiled.after_ir, set()
    for name, symbol in rewritten(report).items():
        if lane in function_text(after, symbol + SUFFIX):
            after = in_function(after, symbol + SUFFIX, lambda body: body.replace(lane, lane[:-2] + "15"))
            planted.add(name)
    assert len(planted) >= 2, planted
    run = check_variants(Compiled(compiled.before_ir, after, "", "", compiled.report),
                         load_spec(TESTCASES / "staging_loops.toml"), kernels=planted, schedules=(FORWARD,),
                         overlap=False)
    assert run.kernels() == planted
    for name in planted:
        mine = [r for r in run.results if r.result.kernel == name]
        for n in {r.result.n for r in mine}:
            assert any(r.result.verdict is Verdict.MISMATCH for r in mine if r.result.n == n), (name, n)
