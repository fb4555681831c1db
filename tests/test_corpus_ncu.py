"""scripts/corpus_ncu.py: Nsight Compute's metrics of the corpus kernels,
parsed from ncu's CSV details page and rendered as docs/programs.md's
diagnosis table (no GPU)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import corpus_ncu  # noqa: E402

# ncu --csv --log-file: its ==PROF== lines, then one row per launch and metric.
LOG = '''==PROF== Connected to process 4242 (/tmp/corpus-x/src/md)
==PROF== Profiling "_Z2mdP6float4S0_PKiiff": 0%....50%....100% - 9 passes
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","md","127.0.0.1","_Z2mdP6float4S0_PKiiff","1","7","(256, 1, 1)","(48, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","nsecond","64,416"
"0","4242","md","127.0.0.1","_Z2mdP6float4S0_PKiiff","1","7","(256, 1, 1)","(48, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_sector_hit_rate.pct","%","77.70"
"0","4242","md","127.0.0.1","_Z2mdP6float4S0_PKiiff","1","7","(256, 1, 1)","(48, 1, 1)","0","9.0","Command line profiler metrics","launch__shared_mem_per_block_static","byte","32,768"
"1","4242","md","127.0.0.1","_Z2mdP6float4S0_PKiiff","1","7","(256, 1, 1)","(48, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","nsecond","66,000"
"1","4242","md","127.0.0.1","_Z2mdP6float4S0_PKiiff","1","7","(256, 1, 1)","(48, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_sector_hit_rate.pct","%","64.40"
"2","4242","md","127.0.0.1","_Z2mdP6float4S0_PKiiff","1","7","(256, 1, 1)","(48, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","nsecond","65,000"
==PROF== Disconnected from process 4242
'''


def test_parse_metrics_keeps_every_launch_per_kernel_and_metric() -> None:
    got = corpus_ncu.parse_metrics(LOG)
    md = got["_Z2mdP6float4S0_PKiiff"]
    assert md["gpu__time_duration.sum"] == [64416.0, 66000.0, 65000.0]
    assert md["l1tex__t_sector_hit_rate.pct"] == [77.7, 64.4]
    assert md["launch__shared_mem_per_block_static"] == [32768.0]


def test_parse_metrics_of_a_log_without_rows_is_empty() -> None:
    assert corpus_ncu.parse_metrics("==PROF== Disconnected from process 1\n") == {}


def test_render_writes_one_row_per_program_kernel_and_build() -> None:
    result = {"programs": {"md": {
        "symbols": ["_Z2md"],
        "plain": {"_Z2md": {"gpu__time_duration.sum": 64416.0, "l1tex__t_sector_hit_rate.pct": 77.7,
                            "launch__grid_size": 48.0, "launch__block_size": 256.0}},
        "old": {"_Z2md": {"gpu__time_duration.sum": 67700.0, "launch__shared_mem_per_block_static": 32768.0}},
    }}}
    rows = corpus_ncu.render(result).splitlines()
    assert rows[0].startswith("| program | kernel | build | time us |")
    assert rows[2].startswith("| md | `_Z2md` | plain | 64.4 |")
    assert "| 77.7 |" in rows[2] and rows[2].endswith("| 48 x 256 |")
    assert rows[3].startswith("| md | `_Z2md` | old | 67.7 |") and "| 32.0 |" in rows[3]
    assert len(rows) == 4
