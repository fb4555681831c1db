#!/usr/bin/env python3
"""Nsight Compute's view of the corpus kernels COALDA rewrites (or rewrote):
why a rewrite wins or loses on a real program. Runs ON THE GPU MACHINE, with
the standard library only, like scripts/corpus_gpu.py, over one or several
corpus builds (scripts/corpus.py build), e.g. the current one and one built
with an older plugin (`COALDA_PLUGIN=old/libCoalda.so scripts/corpus.py build
--out build/corpus-old`):

    python3 scripts/corpus_ncu.py --out ncu.json NAME=DIR [NAME=DIR ...] [--only A,B]
    python3 scripts/corpus_ncu.py --render ncu.json     (here: the markdown table)

For each program that a build's manifest says has rewritten kernels, the
plain build and each build's `coalda` binary run once under ncu, profiling
the third to fifth launches of those kernels (the first ones warm the caches
and the clocks) with the metrics below; the JSON holds, per program, build
and kernel, the median of each metric over the profiled launches.
docs/programs.md's diagnosis table is read from it.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_gpu import find_tool, fresh_copy, gpu_name, kernel_regex, parse_number  # noqa: E402

# What decides a rewrite on a real program (issue 35): time, occupancy lost
# to the tiles, the L1 and L2 hit rates, instructions, barrier stalls.
METRICS = (
    "gpu__time_duration.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "launch__occupancy_limit_shared_mem",
    "launch__registers_per_thread",
    "launch__shared_mem_per_block_static",
    "launch__grid_size",
    "launch__block_size",
    "l1tex__t_sector_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    "smsp__inst_executed.sum",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "dram__bytes.sum",
)
MISSING_METRIC = re.compile(r"Failed to find metric ([\w.]+)")


def parse_metrics(text: str) -> dict[str, dict[str, list[float]]]:
    """ncu's --csv details page (one row per kernel launch and metric) ->
    {kernel symbol: {metric: [values]}}."""
    rows = [ln for ln in text.splitlines() if ln.startswith('"')]  # not ==PROF== lines
    out: dict[str, dict[str, list[float]]] = {}
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        name, metric, value = row.get("Kernel Name"), row.get("Metric Name"), row.get("Metric Value")
        if not (name and metric and value):
            continue
        try:
            number = parse_number(value)
        except ValueError:  # a metric ncu gives as text
            continue
        out.setdefault(name, {}).setdefault(metric, []).append(number)
    return out


def profile(ncu: str, binary: Path, cwd: Path, args: list[str], symbols: list[str],
            env: dict[str, str], log: Path) -> dict[str, dict[str, float]]:
    metrics = list(METRICS)
    while True:
        cmd = [ncu, "--metrics", ",".join(metrics), "--cache-control", "none", "--clock-control", "none",
               "--kernel-name-base", "mangled", "--print-kernel-base", "mangled",
               "--kernel-name", kernel_regex(symbols),
               "--launch-skip", "2", "--launch-count", "3", "--csv", "--log-file", str(log),
               str(binary), *args]
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        text = log.read_text(errors="replace") if log.exists() else ""
        missing = MISSING_METRIC.findall(text + proc.stdout + proc.stderr)
        if missing and set(missing) & set(metrics):
            metrics = [m for m in metrics if m not in missing]
            continue
        per_kernel = parse_metrics(text)
        return {k: {m: statistics.median(v) for m, v in ms.items()} for k, ms in per_kernel.items()}


COLUMNS = (  # (heading, metric, format)
    ("time us", "gpu__time_duration.sum", lambda v: f"{v / 1000:.1f}"),
    ("occupancy %", "sm__warps_active.avg.pct_of_peak_sustained_active", lambda v: f"{v:.0f}"),
    ("regs", "launch__registers_per_thread", lambda v: f"{v:.0f}"),
    ("static smem KB", "launch__shared_mem_per_block_static", lambda v: f"{v / 1024:.1f}"),
    ("L1 hit %", "l1tex__t_sector_hit_rate.pct", lambda v: f"{v:.1f}"),
    ("L2 hit %", "lts__t_sector_hit_rate.pct", lambda v: f"{v:.1f}"),
    ("inst (M)", "smsp__inst_executed.sum", lambda v: f"{v / 1e6:.2f}"),
    ("barrier stall", "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", lambda v: f"{v:.2f}"),
    ("grid x block", "launch__grid_size", None),
)


def render(result: dict[str, Any]) -> str:
    """A markdown table: per program, kernel and build, the metrics that
    decide (docs/programs.md, "What Nsight Compute shows")."""
    head = "| program | kernel | build | " + " | ".join(h for h, _, _ in COLUMNS) + " |"
    lines = [head, "|" + "---|" * (3 + len(COLUMNS))]
    for name, prog in sorted(result["programs"].items()):
        for symbol in prog["symbols"]:
            for label, per_kernel in prog.items():
                if label == "symbols" or not isinstance(per_kernel, dict) or symbol not in per_kernel:
                    continue
                m = per_kernel[symbol]
                cells = []
                for _, metric, fmt in COLUMNS:
                    if fmt is None:
                        grid, block = m.get("launch__grid_size"), m.get("launch__block_size")
                        cells.append(f"{grid:.0f} x {block:.0f}" if grid and block else "-")
                    else:
                        cells.append(fmt(m[metric]) if metric in m else "-")
                lines.append(f"| {name} | `{symbol}` | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--render"]:
        print(render(json.loads(Path(argv[1]).read_text())), end="")
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+", help="NAME=DIR: an unpacked corpus build (with manifest.json)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", default="")
    a = ap.parse_args(argv)
    ncu = find_tool("ncu")
    if not ncu:
        print("corpus_ncu: error: ncu not found", file=sys.stderr)
        return 1
    builds = dict(b.split("=", 1) for b in a.builds)
    only = {n for n in a.only.split(",") if n}
    result: dict[str, Any] = {"gpu": gpu_name(), "metrics": list(METRICS), "programs": {}}
    first = Path(next(iter(builds.values())))
    wanted: dict[str, dict[str, tuple[Path, dict[str, Any]]]] = {}  # program -> build -> its entry
    for label, root in builds.items():
        manifest = json.loads((Path(root) / "manifest.json").read_text())
        for name, entry in manifest["programs"].items():
            symbols = [k["symbol"] for k in entry.get("rewritten_kernels", [])]
            if symbols and (not only or name in only):
                wanted.setdefault(name, {})[label] = (Path(root), entry)
    env = dict(os.environ, LD_LIBRARY_PATH=f"{first / 'lib'}:{os.environ.get('LD_LIBRARY_PATH', '')}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, entries in wanted.items():
            symbols = sorted({k["symbol"] for _, e in entries.values() for k in e["rewritten_kernels"]})
            prog: dict[str, Any] = result["programs"].setdefault(name, {"symbols": symbols})
            root0, entry0 = next(iter(entries.values()))
            runs = [("plain", root0, entry0)] + [(label, root, entry) for label, (root, entry) in entries.items()]
            for label, root, entry in runs:
                recipe = entry["recipe"]
                binary = root / entry["binaries"]["plain" if label == "plain" else "coalda"]["path"]
                cwd, failure = fresh_copy(root / entry["src"], recipe.get("setup", ""), env)
                if failure:
                    prog[label] = {"error": "setup failed"}
                    continue
                try:
                    prog[label] = profile(ncu, binary, cwd, recipe.get("args", []), symbols, env,
                                          Path(tmp) / f"{name}-{label}.csv")
                except subprocess.TimeoutExpired:
                    prog[label] = {"error": "timed out"}
                finally:
                    shutil.rmtree(cwd, ignore_errors=True)
                print(f"{name} {label}: {len(prog[label])} kernels", flush=True)
            a.out.write_text(json.dumps(result, indent=1, sort_keys=True))
    a.out.write_text(json.dumps(result, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
