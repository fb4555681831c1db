"""The rewrite form of the run-time choice (pass/lib/RewriteChoice.cpp,
-coalda-choose-rewrites, which `coalda cc -fcoalda-reshape` passes): a
rewritten kernel K with no grid variant is rewritten as in any build, and
its code as written is kept as `K__coalda_grid`, launched on K's own grid
with K's own arguments. testcases/staging_loops.cu (one-element stagings
and grid-stride loops, seven kernels, none of one copy) and gaussian.cu's
Fan2 (a 2-D transposed staging) at -O3 through `coalda optimize` with both
options, and without them:
- each rewritten kernel gets the rewrite form and says so in the report;
  K is, instruction for instruction, the build without the options' K
  (whose bytes tests/test_staging.py and test_transpose.py compare on the
  emulator), and the variant the before-IR's K;
- every variant runs against its original on the emulator
  (coalda/check/variants.py's RewriteLaunch), every layout and schedule;
- a variant with its first store dropped is caught at every size.
The PTX of a `coalda cc` build is tests/test_cc_launches.py's; the choice
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


@pytest.fixture(scope="module")
def default(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Compiled]:
    root = tmp_path_factory.mktemp("rewrite-default")
    return {source.stem: optimize_outputs(optimize_levels(source, root / source.stem, (3,))[3][0], source.stem)
            for source in SOURCES}


def rewritten(report: dict) -> dict[str, str]:
    """Spec name -> symbol of each kernel the pass rewrote."""
    return {k["name"]: k["symbol"] for k in report["kernels"]
            if any(x["transformed"] for x in [*k.get("groups", []), *k.get("stagings", [])])}


def code(module: str, symbol: str) -> str:
    """SYMBOL's instructions in MODULE, without its debug locations (the
    kept original's are its own subprogram's copies) and with metadata
    numbers and the numbers that make the pass's shared tiles' names unique
    left out (they follow the module's order)."""
    body = re.sub(r",? !dbg !\d+", "", function_text(module, symbol).split("{", 1)[1])
    return re.sub(r"(@coalda[\w.]*?)\d+\b", r"\1N", re.sub(r"!\d+", "!N", body))


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.stem)
def test_each_rewrite_keeps_its_original_beside_it(source: Path, optimized: dict, default: dict) -> None:
    """The report's launch says "chosen at run time" with the rewrite form
    and why there is no grid variant; the after-IR marks each kernel; K is
    the default build's rewrite and its variant the code as written."""
    out, report = optimized[source.stem]
    compiled = optimize_outputs(out, source.stem)
    done = rewritten(report)
    assert set(done) == global_kernels(source), sorted(global_kernels(source) - set(done))
    marked = rewrite_kernels(compiled.after_ir)
    assert marked == set(done.values()) == set(variant_symbols(compiled.after_ir))
    for kernel in report["kernels"]:
        launch, symbol = kernel["launch"], kernel["symbol"]
        assert launch["form"] == "rewrite" and not launch["reshaped"], launch
        assert launch["reason"].startswith("chosen at run time by measurement"), launch
        assert launch["kept"].startswith("launch kept: "), launch
        assert launch["variant"] == symbol + SUFFIX and launch["until_measured"] == "rewrite", launch
        assert code(compiled.after_ir, symbol) == code(default[source.stem].after_ir, symbol), kernel["name"]
        kept = code(compiled.after_ir, symbol + SUFFIX)
        assert kept == code(compiled.before_ir, symbol) and "coalda" not in kept, kernel["name"]


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.stem)
def test_every_rewrite_computes_the_original_bytes(source: Path, optimized: dict) -> None:
    out, report = optimized[source.stem]
    run = check_variants(optimize_outputs(out, source.stem), load_spec(source.with_suffix(".toml")))
    assert not run.skipped, run.skipped
    assert run.kernels() == set(rewritten(report))
    assert not run.failures, run.summary()
    assert {r.blocks for r in run.results} == {r.grid for r in run.results}  # the original's grid


def test_a_bug_planted_in_the_variants_is_caught(optimized: dict) -> None:
    """Each variant with its first store dropped: the comparison runs the
    variant, not the original again, and finds a MISMATCH at every size."""
    out, report = optimized["staging_loops"]
    compiled = optimize_outputs(out, "staging_loops")
    after = compiled.after_ir
    for symbol in rewritten(report).values():
        after = in_function(after, symbol + SUFFIX, lambda body: re.sub(r"\n +store [^\n]*", "", body, count=1))
    assert after.count("\n  store ") < compiled.after_ir.count("\n  store ")
    run = check_variants(Compiled(compiled.before_ir, after, "", "", compiled.report),
                         load_spec(TESTCASES / "staging_loops.toml"), schedules=(FORWARD,), overlap=False)
    assert run.kernels() == set(rewritten(report))
    for name in run.kernels():
        mine = [r for r in run.results if r.result.kernel == name]
        for n in {r.result.n for r in mine}:
            assert any(r.result.verdict is Verdict.MISMATCH for r in mine if r.result.n == n), (name, n)
