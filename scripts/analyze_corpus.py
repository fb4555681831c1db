#!/usr/bin/env -S .venv/bin/python
"""Run `coalda analyze` over every .cu file of a source tree (Rodinia, the
CUDA samples) and count what it finds.

    scripts/analyze_corpus.py DIR [--include DIR]... [--json out.json]

Each file is compiled with its own directory (and every --include) on the
include path. A file that does not compile with clang-19 is counted apart
(it may be a fragment #included by another file); a crash of the pass is a
COALDA bug and makes the script exit 1. The corpus itself is not part of
the repository.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COALDA = ROOT / ".venv" / "bin" / "coalda"
CLASSES = ("coalesced", "uncoalesced", "uniform", "unknown")


def analyze(cu: Path, includes: list[Path]) -> tuple[str, dict | None, str]:
    """('ok' | 'no kernel' | 'no compile' | 'crash', report, first line of
    stderr). A file without a __global__ function compiles, but `coalda
    analyze` refuses it (nothing to analyze)."""
    args = [str(COALDA), "analyze", str(cu), "--json", "-I", str(cu.parent)]
    for inc in includes:
        args += ["-I", str(inc)]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if proc.returncode == 0:
        (report,) = json.loads(proc.stdout)["reports"]  # one file: one report
        return "ok", report, ""
    err = proc.stderr.strip().splitlines()
    last = err[-1] if err else f"exit {proc.returncode}"
    if "COALDA pass failed" in proc.stderr or "Traceback" in proc.stderr:
        kind = "crash"
    elif "defines no CUDA kernel" in last:
        kind = "no kernel"
    else:
        kind = "no compile"
    return kind, None, last


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("tree", type=Path)
    ap.add_argument("--include", type=Path, action="append", default=[])
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    files = sorted(args.tree.rglob("*.cu"))
    outcome: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    rewrites: Counter[str] = Counter()  # what optimize would do
    kernels = 0
    rows = []
    for cu in files:
        kind, report, why = analyze(cu, args.include)
        outcome[kind] += 1
        row = {"file": str(cu.relative_to(args.tree)), "outcome": kind}
        if report:
            counts: Counter[str] = Counter(a.get("class", "?") for k in report["kernels"] for a in k["accesses"])
            classes.update(counts)
            kernels += len(report["kernels"])
            reasons.update(a["reason"].split(" (")[0] for k in report["kernels"] for a in k["accesses"]
                           if a.get("class") == "unknown")
            row.update(kernels=len(report["kernels"]), **{c: counts.get(c, 0) for c in CLASSES})
            for k in report["kernels"]:
                for g in k["groups"]:
                    rewrites["copy groups rewritten" if g["transformed"] else "copy groups left alone"] += 1
                for st in k.get("stagings", []):
                    rewrites["blocks staged" if st["transformed"] else f"not staged: {st['missed']}"] += 1
                    if st["transformed"]:
                        row.setdefault("staged", []).append(k["name"])
        else:
            row["error"] = why
        rows.append(row)
        print(f"{kind:10} {row['file']}" + (f"  ({why})" if why else ""), file=sys.stderr)
    summary = {
        "files": len(files), "outcomes": dict(outcome), "kernels": kernels,
        "accesses": dict(classes), "rewrites": dict(rewrites.most_common()),
        "unknown_reasons": dict(reasons.most_common()), "rows": rows,
    }
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=2))
    return 1 if outcome["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
