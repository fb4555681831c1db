"""Every reason the pass gives for leaving a candidate alone is a name listed
once in pass/lib/MissedReason.def (issue 38), and the tests pin names, not
prose: each name below is produced by the lit input named beside it, and the
names no lit input reaches yet are listed, so that neither list drifts."""

from __future__ import annotations

import json
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from coalda.driver.toolchain import toolchain

ROOT = Path(__file__).resolve().parent.parent
DEF = ROOT / "pass" / "lib" / "MissedReason.def"

# a name -> one lit input whose report has it
PINNED = {
    "AccessBetween": "Missed/between-O3.ll",
    "ActiveThreads": "Guards/copy-after-libdevice.ll",
    "AlreadyCoalesced": "Analysis/lane-exact-O3.ll",
    "CallMayTouch": "Staging/missed-reasons.ll",
    "ComputedValue": "Analysis/lane-exact-O3.ll",
    "DestinationAccessed": "Miscompile/chained-copies-O0.ll",
    "IterationStride": "Missed/iteration-stride-O0.ll",
    "LoadReused": "Missed/readback-O3.ll",
    "NegativeStride": "Staging/grid-stride.ll",
    "NoBarrier": "Missed/shared-nobarrier-O0.ll",
    "PartialCopy": "Analysis/devicefn.ll",
    "PromotionConditionalStore": "Transform/promote-loop-O3.ll",
    "PromotionLoopShape": "Transform/promote-loop-O3.ll",
    "PromotionUnanalyzable": "Transform/promote-loop-O3.ll",
    "SameBuffer": "Missed/samebuf-O3.ll",
    "SourceStride": "Staging/cost-small-elements.ll",
    "SourceWritten": "Miscompile/chained-copies-O0.ll",
    "StagingAccessBetween": "Staging/access-between-loop-O0.ll",
    "StagingCostRule": "Budget/recursive-helper.ll",
    "StagingInLoop": "CostRules/window-short-rows.ll",
    "StagingPartialElement": "Staging/multi-block-region.ll",
    "StagingSeveralElements": "Staging/several-elements-O3.ll",
    "SuffixGuard": "Guards/guards-O0.ll",
    "Swizzle": "Missed/swizzle-O3.ll",
    "VectorizedElement": "Analysis/int2-O0-mem2reg.ll",
    "VolatileOrAtomic": "Staging/missed.ll",
}
# -coalda-analyze-only on an input with a legal candidate
ANALYSIS_ONLY = "Plugin/analyze-only.ll"
# names no lit input produces today (the Python tests' kernels may): a lit
# test that reaches one moves it to PINNED
NOT_YET_IN_LIT = {
    "AddressSpaces", "DifferentBlocks", "GuardUnavailable", "MembersOverlap",
    "NoRuntimeChecks", "OverlapInLoop", "PastStride", "PromotionNotHoisted", "RolledBack", "SharedFillGuarded", "SingleMember",
    "SourceNotGlobal", "SourceRegions", "StagingGuard", "StagingOnePerKernel",
    "StagingTileTooLarge", "StrideLimit", "TileBeforeBarrier",
}


def defined_names() -> list[str]:
    return re.findall(r"^COALDA_MISSED\((\w+),", DEF.read_text(), re.M)


def missed_names(ll: Path, tmp: Path, *extra: str) -> set[str]:
    report = tmp / (ll.parent.name + "-" + ll.stem + ".json")
    subprocess.run([str(toolchain().opt), f"-load-pass-plugin={toolchain().plugin}", "-passes=coalda", *extra,
                    f"-coalda-report={report}", "-disable-output", str(ll)],
                   check=True, capture_output=True, timeout=120)
    names: set[str] = set()
    if not report.exists():  # a module the pass leaves alone (not NVPTX) writes none
        return names
    for kernel in json.loads(report.read_text()).get("kernels", []):
        for candidate in kernel.get("groups", []) + kernel.get("stagings", []) + kernel.get("promotions", []):
            if candidate.get("missed"):
                names.add(candidate["missed"])
    return names


@pytest.fixture(scope="module")
def produced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    tmp = tmp_path_factory.mktemp("missed")
    inputs = sorted((ROOT / "pass" / "test").glob("*/*.ll"))
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = pool.map(lambda ll: missed_names(ll, tmp), inputs)
    return {f"{ll.parent.name}/{ll.name}": names for ll, names in zip(inputs, found)}


def test_the_definition_lists_each_name_once() -> None:
    names = defined_names()
    assert len(names) == len(set(names)) >= 40
    assert set(PINNED) | NOT_YET_IN_LIT | {"AnalysisOnly"} == set(names)
    assert not set(PINNED) & NOT_YET_IN_LIT


def test_every_reported_name_is_defined(produced: dict[str, set[str]]) -> None:
    known = set(defined_names())
    for source, names in produced.items():
        assert names <= known, f"{source}: {names - known} not in MissedReason.def"


@pytest.mark.parametrize("name", sorted(PINNED))
def test_each_pinned_name_is_produced_by_its_input(produced: dict[str, set[str]], name: str) -> None:
    assert name in produced[PINNED[name]], f"{PINNED[name]} no longer produces {name}: {produced[PINNED[name]]}"


def test_no_lit_input_reaches_the_unlisted_names(produced: dict[str, set[str]]) -> None:
    reached = set().union(*produced.values())
    assert not reached & NOT_YET_IN_LIT, f"now reached by a lit input, move to PINNED: {reached & NOT_YET_IN_LIT}"


def test_analysis_only_is_a_name_too(tmp_path: Path) -> None:
    assert "AnalysisOnly" in missed_names(ROOT / "pass" / "test" / ANALYSIS_ONLY, tmp_path, "-coalda-analyze-only")
