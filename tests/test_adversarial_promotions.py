"""The promotion adversary (testcases/adversarial/promotions.cu): loops that
accumulate into their thread's uncoalesced global element, which the pass
keeps in registers behind run-time overlap checks (pass/lib/LoopPromotion.cpp),
and loops it must leave alone, each with its reason.

Pinned here, at -O3: which loops are promoted and why the others are not;
that the promoted loops lose every global access (the element is loaded
before the loop and stored after it); that the oracle, with the alias layout
giving dest and src one buffer, matches everywhere; and that the overlap
checks planted away are caught there. tests/test_adversarial.py runs the
corpus through the oracle at -O0 and -O3 too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import (
    ROW, TESTCASES, assert_all_match, differing_kernels, emulate_levels, in_function, optimize_levels, plant,
    run_in_process,
)

SOURCE = TESTCASES / "adversarial" / "promotions.cu"

# kernel -> the outcome of each of its loop candidates at -O3 (clang unrolls
# the loops by two and keeps a remainder loop: two candidates a kernel),
# "promoted" or the missed name
OUTCOMES: dict[int, dict[str, list[str]]] = {
    3: {
        "accumulate": ["promoted", "promoted"],
        "maybe_empty": ["promoted", "promoted"],
        "shifted_view": ["promoted", "promoted"],
        "with_table": ["promoted", "promoted"],
        # unrolled by two, the odd iteration's store runs on every pass of
        # the main loop; the remainder loop's does not
        "odd_iterations": ["promoted", "PromotionConditionalStore"],
        "with_barrier": ["PromotionUnanalyzable"],
        "gathered": ["PromotionUnanalyzable", "PromotionUnanalyzable"],
        "two_loops": ["promoted", "promoted"],
        "shuffled": ["PromotionUnanalyzable"],
        "tried_then_staged": ["PromotionNotHoisted", "PromotionNotHoisted"],
    },
    # -O0: one loop each, rotated by the promotion
    0: {
        "accumulate": ["promoted"],
        "maybe_empty": ["promoted"],
        "shifted_view": ["promoted"],
        "with_table": ["promoted"],
        "odd_iterations": ["PromotionConditionalStore"],
        "with_barrier": ["PromotionUnanalyzable"],
        "gathered": ["PromotionUnanalyzable"],
        "two_loops": ["promoted", "promoted"],
        "shuffled": ["PromotionUnanalyzable"],
        "tried_then_staged": ["PromotionNotHoisted"],
    },
}
# kernels whose fast path, with the checks planted away, reads its own
# element through the other pointer in the alias layout: dest and src (or a)
# at one address
PLANTED = {"accumulate": "_Z10accumulate", "maybe_empty": "_Z11maybe_empty", "two_loops": "_Z9two_loops",
           "shifted_view": "_Z12shifted_view"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-promotions"), (3, 0))


def outcomes(report: dict) -> dict[str, list[str]]:
    return {k["name"]: ["promoted" if p["transformed"] else p["missed"] for p in k.get("promotions", [])]
            for k in report["kernels"]}


@pytest.mark.parametrize("level", [3, 0])
def test_outcomes_are_pinned(level: int, built: dict) -> None:
    _, report = built[level]
    assert outcomes(report) == OUTCOMES[level]


def test_every_refusal_says_why_in_words(built: dict) -> None:
    _, report = built[3]
    for kernel in report["kernels"]:
        for p in kernel.get("promotions", []):
            assert p["reason"] and "%" not in p["reason"], p
            if not p["transformed"]:
                assert p["overlap_checks"] >= 0 and p["missed"].startswith("Promotion"), p


def loop_bodies(ir: str, symbol: str) -> list[str]:
    """The blocks of SYMBOL that branch back to themselves (the loops'
    single-block bodies), with their instructions."""
    body = ir[ir.index(f"define dso_local void @{symbol}"):]
    body = body[:body.index("\n}\n")]
    blocks = [b.strip() for b in re.split(r"\n(?=[\w.-]+:)", body)]
    return [b for b in blocks if re.search(rf"label %{re.escape(b.split(':')[0])}[,\s]", b.split("\n")[-1])]


def test_promoted_loops_have_no_global_access(built: dict) -> None:
    """The fast loop of each promoted kernel touches no memory; the original
    loop (run when the checks fail) still does."""
    out, _ = built[3]
    after = next(out.glob("*.after.ll")).read_text()
    for name, symbol in PLANTED.items():
        full = re.search(rf"define dso_local void @({symbol}\w*)\(", after).group(1)
        loops = loop_bodies(after, full)
        fast = [b for b in loops if not b.split(":")[0].endswith(".orig")]
        slow = [b for b in loops if b.split(":")[0].endswith(".orig")]
        assert fast and slow, name
        assert not any(re.search(r"\b(load|store) ", b) for b in fast), (name, fast)
        assert all(re.search(r"\bstore ", b) for b in slow), name


@pytest.fixture(scope="module")
def emulated(built: dict) -> dict:
    # -O3 here; tests/test_adversarial.py runs both levels through the oracle
    return emulate_levels(SOURCE, {3: built[3]})


def test_the_alias_layout_checks_the_promoted_kernels(emulated: dict) -> None:
    run = emulated[3]
    assert_all_match(run)
    alias = {name for name, _, layout, _, _, result in ROW.findall(run.stdout)
             if layout == "alias" and result.strip() == "match"}
    assert set(PLANTED) <= alias, run.stdout[-3000:]


def test_missing_overlap_checks_are_caught(built: dict, tmp_path: Path) -> None:
    """The versioning's branch planted to always take the fast loop: with
    dest and src (a and src) one buffer, the promoted kernels then differ."""
    out, _ = built[3]

    def no_checks(body: str) -> str:
        new, n = re.subn(r"br i1 %coalda\.promote\.apart\d*, ", "br i1 true, ", body)
        assert n, body[:200]
        return new

    def planted(text: str) -> str:
        for symbol in PLANTED.values():
            full = re.search(rf"define dso_local void @({symbol}\w*)\(", text).group(1)
            text = in_function(text, full, no_checks)
        return text

    bad = plant(out, tmp_path, planted, "the promotion's overlap checks")
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", "3", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    assert differing_kernels(run) == set(PLANTED), run.stdout[-3000:]


ATTACKS = TESTCASES / "adversarial" / "promotion_attacks.cu"
# Conditional reads whose byte index steps by 2^62 - 1: their range over the
# loop wraps past the top of the address space. Promoted with the wrapped
# range, the fast loop ran where the read met the element (a helper's
# attack, 2026-12-02); such ranges are refused now, and a range whose end
# wrapped fails the run-time check.
# (-O3 unrolls wrap_around and wrap_around_down by four: their main loop's
# read then steps by -4 bytes, a range that does not wrap, and is promoted;
# tests/test_adversarial.py checks its bytes.)
WRAPPING = {0: ("wrap_around", "wrap_around_down", "wrap_around_rolled"), 3: ("wrap_around_rolled",)}


@pytest.mark.parametrize("level", [3, 0])
def test_wrapping_ranges_are_not_promoted(level: int, tmp_path: Path) -> None:
    (_, report), = optimize_levels(ATTACKS, tmp_path, (level,)).values()
    for name in WRAPPING[level]:
        (kernel,) = [k for k in report["kernels"] if k["name"] == name]
        promotions = kernel.get("promotions", [])
        assert promotions and not any(p["transformed"] for p in promotions), (name, promotions)
        assert all(p["missed"] == "PromotionUnanalyzable" for p in promotions), promotions


def test_findings_say_kept_in_registers() -> None:
    """The text findings of a promoted access say what COALDA does with it,
    those of a refused loop why not."""
    run = run_in_process("analyze", SOURCE, "--format", "text", "-q")
    assert "note: COALDA keeps it in registers (coalda optimize): kept in registers for the loop at line 21" \
        in run.stdout, run.stdout[:2000]
    assert "not kept in registers for its loop: the element is stored on some iterations only" in run.stdout, \
        run.stdout[:3000]


def test_a_promotion_that_fails_leaves_the_other_rewrites(tmp_path: Path) -> None:
    """LICM keeps tried_then_staged's two elements in the loop: the kernel
    gets its body back (no versioned loop) and is staged like any other
    (its small element under -coalda-stage-small-always, as the adversarial
    corpus runs)."""
    (out, report), = optimize_levels(SOURCE, tmp_path, (3,), "--pass-arg=-coalda-stage-small-always").values()
    (kernel,) = [k for k in report["kernels"] if k["name"] == "tried_then_staged"]
    assert [p["missed"] for p in kernel["promotions"]] == ["PromotionNotHoisted", "PromotionNotHoisted"]
    assert [s["arrays"][0]["base"] for s in kernel["stagings"] if s["transformed"]] == ["out"]
    after = next(out.glob("*.after.ll")).read_text()
    body = after[after.index("@_Z17tried_then_staged"):]
    body = body[:body.index("\n}\n")]
    assert "coalda.promote" not in body and ".orig" in body  # the staging's fallback, not a loop's
