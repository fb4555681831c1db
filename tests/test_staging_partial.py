"""Records written in part (testcases/staging_partial.cu): the staging
rewrite moves their rows through shared memory and its store phase writes
back only the members every thread's stores write, so a byte the kernel
never writes stays as it is in global memory (another thread may write it:
sph_neighbour writes its neighbour's density). Pinned here: which kernels
are staged and how many bytes of each element go back, the cost rule's
refusals, the same bytes before and after on the emulator (as emitted, with
the refusals forced, and in block tiles), and a store phase planted to
write back whole elements caught on the kernels where that is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import TESTCASES, assert_all_match, compared, differing_kernels, plant, run_in_process, staging_reasons
from test_staging import optimize, staged

SOURCE = TESTCASES / "staging_partial.cu"
# kernel -> (tile, bytes of each element written back) at -O3 and -O0
STAGED = {
    "nbody_update": ("warp", 24), "nbody_mass": ("warp", 24), "sph_integrate": ("warp", 24),
    "d4_three": ("warp", 24), "xyz_write": ("block", 12), "e64_half": ("warp", 32),
    "sph_neighbour": ("warp", 24), "both_arms": ("warp", 20),
    # two 4-byte members of a 40-byte record: not small for the cost rule
    # (narrower than a third of the element; 21% of cudaMemcpy unstaged)
    "flag_bounce": ("warp", 8),
    # 64-byte records a quarter and a sixteenth of which is updated: the
    # rows move sectors no access touches, and measured faster all the same
    "e64_quarter": ("warp", 16), "e64_one": ("warp", 4),
}
# the cost rule: a 16-byte element of 3 member accesses whose loads all
# come first
LEFT = {"rgb_scale": "no load waits behind their stores"}
# -coalda-stage-partial-gap=32: a run of 32 bytes or more of each row that
# no access touches
GAP_LEFT = {"e64_one": "leave 60 bytes of its 64-byte elements in a row untouched",
            "e64_quarter": "leave 48 bytes of its 64-byte elements in a row untouched"}


@pytest.fixture(scope="module")
def emitted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("partial") / "out"
    return out, optimize(SOURCE, out)


def test_records_written_in_part_are_staged_as_measured(emitted: tuple[Path, dict]) -> None:
    report = emitted[1]
    got = staged(report)
    assert set(got) == set(STAGED), sorted(set(got) ^ set(STAGED))
    for name, (tile, written) in STAGED.items():
        assert got[name]["tile"] == tile, (name, got[name])
        assert f"{written} of its bytes written back" in got[name]["reason"], (name, got[name]["reason"])
        assert [a.get("written_back") for a in got[name]["arrays"] if a["written"]] == [written], got[name]
    reasons = staging_reasons(report)
    for name, why in LEFT.items():
        assert why in reasons[name], (name, reasons[name])


def test_the_gap_option_leaves_sparse_records_alone(tmp_path: Path) -> None:
    report = optimize(SOURCE, tmp_path / "out", 3, "-coalda-stage-partial-gap=32")
    assert set(staged(report)) == set(STAGED) - set(GAP_LEFT)
    reasons = staging_reasons(report)
    for name, why in GAP_LEFT.items():
        assert why in reasons[name], (name, reasons[name])


def test_the_same_bytes_at_o0(tmp_path: Path) -> None:
    out = tmp_path / "out"
    got = staged(optimize(SOURCE, out, 0))
    elements = {k for k, s in got.items() if s.get("kind", "element") == "element"}
    # -O0 unrolls the 64-byte records' member loops whole, as -O3 does
    # (compile.O0_PASSES): every record is an element staging there too
    assert elements == set(STAGED)
    assert not {k for k, s in got.items() if s.get("kind") == "window"}
    assert "20 of its bytes" not in got["both_arms"]["reason"]
    if compared((0,)):  # -O0's bytes in `make test-o0` (conftest.compared)
        assert_all_match(run_in_process("run", SOURCE, "--emulate", "-q", "-O", "0", "--from", out))


@pytest.mark.parametrize("variant", ["emitted", "forced", "block"])
def test_the_same_bytes_before_and_after(emitted: tuple[Path, dict], tmp_path: Path, variant: str) -> None:
    """As emitted; with the cost rule's refusal staged too (the colour: the
    measured `forced` variant, which also set the gap option to 0, now its
    default); in block tiles wherever a block barrier may go (the `block`
    variant)."""
    out = emitted[0]
    if variant != "emitted":
        out = tmp_path / "out"
        args = (["-coalda-stage-small-always"] if variant == "forced"
                else ["-coalda-stage-warp-tiles=fallback"])
        got = staged(optimize(SOURCE, out, 3, *args))
        assert set(got) >= set(STAGED)
        if variant == "forced":
            assert set(LEFT) <= set(got)
        else:  # behind a test of data no block barrier may go
            assert {k for k, s in got.items() if s["tile"] == "warp"} == {"both_arms", "flag_bounce"}
    assert_all_match(run_in_process("run", SOURCE, "--emulate", "-q", "--from", out))


def test_a_store_phase_that_writes_back_whole_elements_is_caught(emitted: tuple[Path, dict], tmp_path: Path) -> None:
    """Every unit of the row written back (the mask planted away): the
    records only written get whatever the tile held in their unwritten
    bytes (xyz_write's padding), and the neighbour's density that
    sph_neighbour stores between the phases is overwritten with the value
    the tile was filled with. The read-modify-writes write back the bytes
    they read and cannot show it."""
    stored = re.compile(r"%coalda\.stored(\d*) = icmp ne i(32|64) %\w+, 0")
    bad = plant(emitted[0], tmp_path, lambda text: stored.sub(r"%coalda.stored\1 = icmp eq i\2 0, 0", text))
    run = run_in_process("run", SOURCE, "--emulate", "-q", "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:]
    caught = differing_kernels(run)
    assert caught == {"xyz_write", "sph_neighbour"}, caught
