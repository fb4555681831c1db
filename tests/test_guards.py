"""Bounds-guard forms (testcases/guards.cu): the same decision at -O0 and -O3,
the documented table is current, and every kernel computes the same bytes
before and after under every layout and schedule of the emulator."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO as ROOT, TESTCASES, run_cli

sys.path.insert(0, str(ROOT / "scripts"))
import guard_table  # noqa: E402

PREFIX_FORMS = {
    "less_than", "early_return", "greater_than", "at_most_n_minus_1", "difference_positive",
    "unsigned_less", "with_flag", "nested", "both_bounds", "below_min", "bound_in_memory",
    "bound_per_block", "grid_stride_at_most",
    # not a prefix in block 0, where the index wraps: the rewrite's run-time
    # check sends that row to the original code
    "negative_start",
}
NOT_PREFIXES = {"suffix": "SuffixGuard", "hole": "ActiveThreads"}


@pytest.fixture(scope="module")
def decisions() -> dict[int, dict[str, tuple[str, str]]]:
    return {level: guard_table.decisions(level) for level in guard_table.LEVELS}


def test_every_form_is_decided_alike_at_O0_and_O3(decisions: dict[int, dict[str, tuple[str, str]]]) -> None:
    o0, o3 = decisions[0], decisions[3]
    assert set(o0) == set(o3) == PREFIX_FORMS | set(NOT_PREFIXES)
    assert {k: v[0] for k, v in o0.items()} == {k: v[0] for k, v in o3.items()}


def test_prefix_guards_are_rewritten_and_the_others_say_why(decisions: dict[int, dict[str, tuple[str, str]]]) -> None:
    for level, by_kernel in decisions.items():
        for kernel in PREFIX_FORMS:
            assert by_kernel[kernel][0] == "rewritten", (level, kernel, by_kernel[kernel])
        for kernel, reason in NOT_PREFIXES.items():
            assert by_kernel[kernel][0] == f"left alone ({reason})", (level, kernel, by_kernel[kernel])


def test_the_documented_table_is_current() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "guard_table.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("level", ["0", "3"])
def test_every_guard_form_computes_the_same_bytes(level: str) -> None:
    proc = run_cli("run", TESTCASES / "guards.cu", "--emulate", "-O", level)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "All 512 comparisons match byte for byte." in proc.stdout
