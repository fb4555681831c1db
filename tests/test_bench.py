"""`coalda bench` pieces that need no GPU: byte accounting, the chart, and
the one-line refusal without a GPU. (Timings live in docs/benchmarks.md.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from coalda.check.bench import (
    COALDA, MEMCPY, NVCC, BenchResult, Measurement, bench_table, failures, load_result, moved_bytes, plot,
)
from coalda.check.oracle import HostBuffer, nan_payloads_only
from coalda.check.spec import KernelSpec, Param, load_spec
from conftest import REPO, TESTCASES, run_cli


def test_moved_bytes_count_reads_and_writes() -> None:
    spec = load_spec(TESTCASES / "copies.toml")
    assert moved_bytes(spec.kernels["rgb"], 1000) == 2 * 3 * 1000
    assert moved_bytes(spec.kernels["float3_copy"], 10) == 2 * 12 * 10


def test_committed_results_load_and_redraw(tmp_path: Path) -> None:
    """docs/bench/bench.json is what docs/benchmarks.md reports: it loads,
    every output matched, and the chart can be redrawn from it."""
    result = load_result(REPO / "docs" / "bench" / "bench.json")
    assert result.gpu.startswith("NVIDIA") and result.repeat >= 20
    assert result.rows and all(r.match for r in result.rows)
    assert {r.block for r in result.rows} == {128, 256, 512, 1024}
    assert {r.variant for r in result.rows} >= {COALDA, MEMCPY, "clang -O3"}
    pytest.importorskip("matplotlib")
    out = tmp_path / "chart.png"
    plot(result, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_marks_mismatches() -> None:
    rows = [
        Measurement("k", 1, 256, "clang -O3", 1.0, 1.0, 1.0, 10.0, 1.0, 0.5),
        Measurement("k", 1, 256, COALDA, 0.5, 0.5, 0.5, 20.0, 2.0, 1.0, match=False, detail="dst: 1 bytes differ"),
    ]
    from rich.console import Console

    console = Console(record=True, width=200)
    console.print(bench_table(BenchResult("GPU", "13.0", "cmd", 20, rows)))
    text = console.export_text()
    assert "MISMATCH dst: 1 bytes differ" in text and "2.00x" in text


def test_another_compilers_rounding_is_shown_not_failed() -> None:
    """nvcc's kernel may round floats differently from clang's (its own
    libdevice, fma contraction: staging_math.cu's polar): its row says it
    differs, and bench fails only on the rows that must match."""
    clang = Measurement("k", 1, 256, "clang -O3", 1.0, 1.0, 1.0, 10.0, 1.0, 0.5)
    nvcc = Measurement("k", 1, 256, NVCC, 1.0, 1.0, 1.0, 10.0, 1.0, 0.5, match=False, detail="out: 8 bytes differ")
    coalda = Measurement("k", 1, 256, COALDA, 0.5, 0.5, 0.5, 20.0, 2.0, 1.0)
    result = BenchResult("GPU", "13.0", "cmd", 20, [clang, nvcc, coalda])
    from rich.console import Console

    console = Console(record=True, width=200)
    console.print(bench_table(result))
    text = console.export_text()
    assert "differs out: 8 bytes differ (another compiler's rounding)" in text and "MISMATCH" not in text
    assert failures(result) == []
    coalda.match, coalda.detail = False, "dst: 1 bytes differ"
    assert failures(result) == [coalda]


def test_double_nan_payloads_are_shown_not_failed() -> None:
    """Bytes that differ only inside doubles that are NaN on both sides (the
    GPU keeps one NaN operand's payload or the other's as ptxas orders
    them: d4_three on an H200) are shown, not failed; a NaN against a
    number, a differing float word or a byte outside the buffer's whole
    doubles still fails."""
    spec = KernelSpec("k", (Param("a", "inout", 32),))

    def buffer(words: list[int]) -> HostBuffer:
        storage = np.zeros(48, dtype=np.uint8)
        storage[8:40] = np.array(words, dtype="<u8").view(np.uint8)
        return HostBuffer(storage, 8, 32)

    nan_a, nan_b, one = 0x7FF8000000001234, 0xFFFD631AFB9ACBE3, 0x3FF0000000000000
    base = buffer([one, nan_a, one, one])
    assert nan_payloads_only(spec, [base], [buffer([one, nan_b, one, one])])
    assert not nan_payloads_only(spec, [base], [buffer([one, one, one, one])])  # NaN against 1.0
    assert not nan_payloads_only(spec, [base], [buffer([one, nan_a, one, one])])  # nothing differs
    assert not nan_payloads_only(spec, [base], [buffer([one, nan_a | 1 << 63, 2 * one, one])])
    clang = Measurement("k", 1, 256, "clang -O3", 1.0, 1.0, 1.0, 10.0, 1.0, 0.5)
    coalda = Measurement("k", 1, 256, COALDA, 0.5, 0.5, 0.5, 20.0, 2.0, 1.0, match=False,
                         detail="a: 3 bytes differ, first at byte 8", nan_payloads=True)
    result = BenchResult("GPU", "13.0", "cmd", 20, [clang, coalda])
    from rich.console import Console

    console = Console(record=True, width=200)
    console.print(bench_table(result))
    text = console.export_text()
    assert "all in double NaNs" in text and "MISMATCH" not in text
    assert failures(result) == []


def test_bench_without_gpu_says_so_in_one_line() -> None:
    if shutil.which("nvidia-smi"):
        pytest.skip("this machine has a GPU")
    proc = run_cli("bench", TESTCASES / "copies.cu")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_bench_rejects_bad_variant() -> None:
    proc = run_cli("bench", TESTCASES / "copies.cu", "--variant", "nofile")
    assert proc.returncode == 2 and "LABEL=PTX" in proc.stderr and "Traceback" not in proc.stderr


def test_bench_defaults_to_a_2d_specs_own_block() -> None:
    """issue 36, item 11: without --blocks, a spec whose block is 2-D (a
    32x8 transpose) ran at 1-D blocks of 128..1024 threads, where the
    hand-tiled kernel faulted."""
    square = load_spec(TESTCASES / "bench" / "transpose_square.toml")
    assert square.kernels["transpose_naive"].bench_blocks(64) == [(32, 8)]
    rgb = load_spec(TESTCASES / "rgb.toml")
    assert all(k.bench_blocks(1000) == [128, 256, 512, 1024] for k in rgb.kernels.values())
