#!/usr/bin/env -S .venv/bin/python
"""Where -O0 and -O3 decide differently on the corpus (issue 39): `coalda
analyze` of every census file at both levels, and for each file the source
accesses (kernel, file, line, load/store) COALDA rewrites at one level and
not at the other, with what the other level says about them.

    .venv/bin/python scripts/opt_levels.py [--only NAME,...] [--jobs N]
        [--check docs/programs/opt-levels.json] [--update]

A source access is rewritten at a level when one of its IR accesses is (a
transformed copy group, staging or loop promotion). --update writes
docs/programs/opt-levels.json and opt-levels.md; --check compares the set of
differing files with the pinned one and prints each difference. Exit status:
0, or 1 when --check finds a difference, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_census as census  # noqa: E402

PINNED = census.ROOT / "docs" / "programs" / "opt-levels.json"
LEVELS = ("0", "3")
Key = tuple[str, str, int, str]  # kernel, file name, line, kind


def at_level(job: census.Job, level: str) -> census.Job:
    """JOB's analyze command at -O LEVEL (the recipe's own -O dropped)."""
    argv, skip = [], False
    for arg in job.argv:
        if skip:
            skip = False
        elif arg == "-O":
            skip = True
        else:
            argv.append(arg)
    at = argv.index("-q") + 1
    return census.Job(job.program, f"{job.source}@O{level}", argv[:at] + ["-O", level] + argv[at:], job.program_dir)


@dataclass
class Decisions:
    """One file's report at one level, as the comparison reads it."""
    rewritten: set[Key] = field(default_factory=set)
    # why each source access left alone is left (the first IR access's, in
    # the census's words)
    said: dict[Key, str] = field(default_factory=dict)
    # source accesses rewritten by a loop promotion only -> (the loop's
    # line, the buffer)
    promoted_from: dict[Key, tuple[int, str]] = field(default_factory=dict)
    # kernel -> (loop line, buffer) of every global access inside a loop
    in_loops: dict[str, set[tuple[int, str]]] = field(default_factory=dict)


def decisions(report: dict[str, Any] | None) -> Decisions:
    out = Decisions()
    for kernel in (report or {}).get("kernels", []):
        loops = out.in_loops.setdefault(kernel["name"], set())
        for access in kernel["accesses"]:
            if access.get("space", "global") != "global":
                continue
            if access.get("loop_line"):
                loops.add((access["loop_line"], access.get("base", "?")))
            key = (kernel["name"], Path(access.get("file") or "?").name, access["line"], access["kind"])
            if census.rewritten(access, kernel):
                out.rewritten.add(key)
                if isinstance(access.get("promotion"), int) and "staging" not in access and "group" not in access:
                    out.promoted_from.setdefault(
                        key, (kernel["promotions"][access["promotion"]]["line"], access.get("base", "?")))
            else:
                out.said.setdefault(key, census.why_not_rewritten(access, kernel))
    return out


def same_in_effect(key: Key, at: Decisions, other: Decisions) -> int | None:
    """The loop's line where KEY is rewritten at one level only by a loop
    promotion and the other level's code reads and writes nothing of that
    buffer inside a loop of that line (LLVM's own LICM or unrolling took the
    accesses out of it, or merged them with ones outside it): the element
    is out of the loop either way. None otherwise."""
    promoted = at.promoted_from.get(key)
    if promoted is None or promoted in other.in_loops.get(key[0], set()):
        return None
    return promoted[0]


def compare(reports: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """LEVEL -> report, for one file: each differing source access with the
    level that rewrites it and what the other says; the accesses a loop
    promotion takes out of a loop at one level and LLVM at the other are
    listed apart (same in effect)."""
    d0, d3 = decisions(reports["0"]), decisions(reports["3"])
    rows, alike = [], []
    for key in sorted(d0.rewritten ^ d3.rewritten):
        only = "0" if key in d0.rewritten else "3"
        at, other = (d0, d3) if only == "0" else (d3, d0)
        row = {"kernel": key[0], "file": key[1], "line": key[2], "kind": key[3], "rewritten_at": f"-O{only}",
               "other_level": other.said.get(key, "no access at this line (the compiler moved or merged it)")}
        loop = same_in_effect(key, at, other)
        if loop is None:
            rows.append(row)
        else:
            alike.append({**row, "loop_line": loop})
    return {"differ": bool(rows), "accesses": rows, "same_in_effect": alike}


def run(recipes: list[census.Recipe], jobs: int) -> dict[str, Any]:
    todo = [at_level(job, level) for job in census.jobs_for(recipes) for level in LEVELS]
    outcomes = census.run_all(todo, jobs, show=False)
    files: dict[str, dict[str, Any]] = defaultdict(dict)
    for (program, source), outcome in outcomes.items():
        name, level = source.rsplit("@O", 1)
        files[f"{program}/{name}"][level] = outcome.report
    return {name: compare(reports) for name, reports in sorted(files.items())
            if any(reports.get(level) for level in LEVELS)}


def markdown(data: dict[str, Any]) -> str:
    differ = {name: entry for name, entry in data.items() if entry["differ"]}
    out = ["# -O0 against -O3 on the corpus", "",
           "`coalda analyze` of every census file at -O0 (the design's: clang -O0 without optnone, then",
           "SROA and the full unroll of constant trip counts: `coalda.driver.compile.O0_PASSES`) and at -O3:",
           "the source accesses (kernel, line, load/store) COALDA rewrites at one level",
           "and not at the other, with what the other level says of them. Generated by",
           "`scripts/opt_levels.py --update`; do not edit.", "",
           f"- files analyzed at both levels: {len(data)}; **deciding differently: {len(differ)}**", ""]
    for name, entry in differ.items():
        out += [f"## `{name}`", "", "| kernel | line | kind | rewritten at | the other level |", "|---|---:|---|---|---|"]
        out += [f"| `{a['kernel']}` | {a['file']}:{a['line']} | {a['kind']} | {a['rewritten_at']} | {a['other_level']} |"
                for a in entry["accesses"]]
        out.append("")
    alike = {name: entry["same_in_effect"] for name, entry in data.items() if entry.get("same_in_effect")}
    if alike:
        out += ["# Same in effect", "",
                "Accesses COALDA's loop promotion keeps out of a loop at one level, where the other level's",
                "code touches nothing of that buffer inside that loop (LLVM's LICM or unrolling took the",
                "accesses out): not counted above.", ""]
        for name, rows in alike.items():
            out += [f"## `{name}`", "", "| kernel | line | kind | promoted at | loop | the other level |",
                    "|---|---:|---|---|---:|---|"]
            out += [f"| `{a['kernel']}` | {a['file']}:{a['line']} | {a['kind']} | {a['rewritten_at']} | "
                    f"{a['loop_line']} | {a['other_level']} |" for a in rows]
            out.append("")
    return "\n".join(out)


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated recipe names")
    ap.add_argument("--jobs", type=int, default=max(1, census.os.cpu_count() or 1))
    ap.add_argument("--check", type=Path, help="compare the differing files with this pinned JSON")
    ap.add_argument("--update", action="store_true", help=f"write {PINNED.name} and its .md")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        recipes = census.load_recipes([n for n in (args.only or "").split(",") if n] or None)
    except census.CensusError as exc:
        print(f"opt_levels: {exc}", file=sys.stderr)
        return 2
    data = run(recipes, args.jobs)
    differ = sorted(name for name, entry in data.items() if entry["differ"])
    print(f"{len(data)} files at both levels; {len(differ)} decide differently: {', '.join(differ)}")
    if args.update:
        PINNED.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        PINNED.with_suffix(".md").write_text(markdown(data) + "\n", encoding="utf-8")
        print(f"wrote {PINNED} and {PINNED.with_suffix('.md')}")
    if args.check:
        pinned = json.loads(args.check.read_text())
        was = sorted(name for name, entry in pinned.items() if entry["differ"] and name in data)
        for name in sorted(set(was) ^ set(differ)):
            print(f"{'now differs' if name in differ else 'now agrees'}: {name}")
        return int(was != differ)
    return 0


if __name__ == "__main__":
    sys.exit(main())
