"""`coalda run` on the GPU: bytes that differ only inside doubles that are
NaN on both sides are a match it names (Verdict.NAN_PAYLOADS), as in
`coalda bench`; anything else that differs still fails, and the emulator's
runs never use the rule."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Sequence

import numpy as np
from rich.console import Console

from coalda.check.oracle import HostBuffer, Verdict, check
from coalda.report import run_failure, run_success, run_table
from coalda.check.spec import KernelSpec, Param

NAN_A, NAN_B, ONE = 0x7FF8000000001234, 0xFFFD631AFB9ACBE3, 0x3FF0000000000000


class Writes:
    """An executor that writes the given doubles over the buffer."""

    def __init__(self, words: list[int]) -> None:
        self.words = np.array(words, dtype="<u8").view(np.uint8)

    def run(self, kernel: str, grid: Any, block: Any, args: Sequence[Any], schedule: Any = None) -> None:
        buffer = args[0]
        assert isinstance(buffer, HostBuffer)
        buffer.storage[buffer.offset : buffer.offset + buffer.size] = self.words


def results(optimized: list[int], nan_payloads: bool) -> list[Any]:
    spec = KernelSpec("k", (Param("a", "inout", 32),))
    original = Writes([ONE, NAN_A, ONE, ONE])
    return check(spec, lambda name: name, original, Writes(optimized), 4, np.random.default_rng(0),
                 schedules=["forward"], nan_payloads=nan_payloads)


def test_nan_payloads_match_on_the_gpu_and_say_so() -> None:
    found = results([ONE, NAN_B, ONE, ONE], nan_payloads=True)
    assert found and all(r.match and r.verdict is Verdict.NAN_PAYLOADS for r in found)
    assert all("NaN on both sides" in r.detail and "bytes differ" in r.detail for r in found)
    rows = [SimpleNamespace(result=r, ms_original=None, ms_optimized=None) for r in found]
    assert run_failure(rows) == ""
    assert "except inside doubles that are NaN on both sides" in run_success(rows)
    console = Console(record=True, width=200)
    console.print(run_table(rows, "t", timed=True))
    assert "match but for NaN payloads" in console.export_text()


def test_other_differences_still_fail() -> None:
    # a NaN against a number, and a payload difference beside a differing number
    for words in ([ONE, ONE, ONE, ONE], [ONE, NAN_B, 2 * ONE, ONE]):
        found = results(words, nan_payloads=True)
        assert found and all(not r.match and r.verdict is Verdict.MISMATCH for r in found)
        rows = [SimpleNamespace(result=r) for r in found]
        assert "comparisons differ (mismatch" in run_failure(rows)


def test_the_emulator_keeps_payload_differences_mismatches() -> None:
    found = results([ONE, NAN_B, ONE, ONE], nan_payloads=False)
    assert found and all(r.verdict is Verdict.MISMATCH for r in found)
    same = results([ONE, NAN_A, ONE, ONE], nan_payloads=False)
    assert all(r.verdict is Verdict.MATCH for r in same)
    assert run_success([SimpleNamespace(result=r) for r in same]).endswith("match byte for byte.")
