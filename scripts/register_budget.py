#!/usr/bin/env -S .venv/bin/python
"""Registers and spills of the rewritten kernels, before and after the pass,
under the two register-limit rules (coalda/driver/registers.py,
pass/lib/RegisterBudget.cpp).

    .venv/bin/python scripts/register_budget.py [--corpus] [--adversaries]
        [--levels 0,3] [--jobs N] [--json OUT] [--markdown docs/programs/registers.md]

--corpus: every corpus file the pinned census (docs/programs/census.json)
lists a rewrite in, built at its recipe's flags. --adversaries: every
testcases/adversarial/*.cu with a launch spec, with
-coalda-stage-small-always, at each level of --levels. Each file is
optimized three times, and ptxas -v (sm_90, the CUDA 12 wheel's) assembles
the PTX before the pass and each PTX after it:

- unlimited: COALDA_REGISTER_LIMIT=off, the PTX as ptxas sizes it;
- limited: `coalda optimize` as it ships, `.maxnreg 64` on the kernels that
  cross 64 registers (at most 64 before the pass, more after, no launch
  bounds of their own);
- blanket: the pass's -coalda-max-registers=64 on every rewritten kernel
  without launch bounds (what a clang that loads the plugin itself can ask
  for), the crossing rule off.

A kernel is listed when the pass rewrote it. Exit status 0, or 1 when a
limited kernel still crosses 64 registers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_census import COALDA, ROOT, load_recipes, split_flags  # noqa: E402

from coalda.driver import registers  # noqa: E402
from coalda.driver.pipeline import rewritten_symbols  # noqa: E402
from coalda.driver.toolchain import find_ptxas  # noqa: E402

SMALL = "-coalda-stage-small-always"
Usage = registers.Usage
# build -> (pass arguments, environment)
BUILDS = {
    "unlimited": ([], {"COALDA_REGISTER_LIMIT": "off"}),
    "limited": ([], {}),
    "blanket": (["-coalda-max-registers=64"], {"COALDA_REGISTER_LIMIT": "off"}),
}


@dataclass(frozen=True)
class Row:
    file: str
    level: str
    kernel: str
    before: Usage
    unlimited: Usage
    limited: Usage
    blanket: Usage
    own_bounds: bool  # the kernel declares launch bounds of its own

    @property
    def crosses(self) -> bool:
        """Launched at 1024 threads before the pass and not after it without
        a limit (a kernel with launch bounds of its own is sized for them)."""
        return not self.own_bounds and self.before.registers <= registers.LIMIT < self.unlimited.registers

    def still_crosses(self) -> bool:
        return not self.own_bounds and self.before.registers <= registers.LIMIT < self.limited.registers


Job = tuple[str, str, list[str], list[str], list[str]]  # label, level, source + own flags, clang flags, pass args


def optimize(source_and_own: list[str], clang: list[str], out: Path, extra: list[str],
             env: dict[str, str]) -> tuple[Path, Path, dict]:
    """coalda optimize into OUT; (the PTX before the pass, after it, the report)."""
    source, *own = source_and_own
    argv = [str(COALDA), "optimize", source, "-o", str(out), "-q", *own,
            *[f"--pass-arg={a}" for a in extra]] + (["--", *clang] if clang else [])
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={**os.environ, **env})
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {proc.stderr[-1000:]}")
    stem = Path(source).stem
    return out / f"{stem}.before.ptx", out / f"{stem}.after.ptx", json.loads((out / f"{stem}.report.json").read_text())


def usage(ptx: Path) -> dict[str, Usage]:
    return registers.assemble(find_ptxas(), ptx, "sm_90", "/dev/null")


def measure(label: str, level: str, own: list[str], clang: list[str], extra: list[str]) -> list[Row]:
    """The rewritten kernels of one file, under each build."""
    after: dict[str, dict[str, Usage]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for build, (args, env) in BUILDS.items():
            before_ptx, after_ptx, report = optimize(own, clang, Path(tmp) / build, extra + args, env)
            after[build] = usage(after_ptx)
        before = usage(before_ptx)
        bounded = registers.own_bounds(before_ptx.read_text())
    rewritten = rewritten_symbols(report)
    return [Row(label, level, k["name"], before[s], after["unlimited"][s], after["limited"][s], after["blanket"][s],
                s in bounded)
            for k in report["kernels"] if (s := k.get("symbol")) in rewritten and s in before]


def corpus_jobs() -> list[Job]:
    census = json.loads((ROOT / "docs" / "programs" / "census.json").read_text())
    files = {r.split(":")[0] for r in census["rewrites"]}
    jobs = []
    for recipe in load_recipes(None):
        for source in recipe.sources:
            if f"{recipe.name}/{source}" in files:
                own, clang = split_flags(recipe.flags, recipe.dir)
                jobs.append((f"{recipe.name}/{source}", "recipe", [str(recipe.dir / source), *own], clang, []))
    return jobs


def adversary_jobs(levels: list[str]) -> list[Job]:
    # those with a launch spec: private_pointers.cu is analysis only (its PTX is not assembled)
    files = sorted(f for f in (ROOT / "testcases" / "adversarial").glob("*.cu") if f.with_suffix(".toml").is_file())
    return [(f"adversarial/{f.name}", level, [str(f.relative_to(ROOT)), "-O", level], [], [SMALL])
            for level in levels for f in files]


def _cell(u: Usage) -> str:
    return f"{u.registers}" + (f" ({u.spill_bytes} B spilled)" if u.spill_bytes else "")


def _level_row(level: str, rows: list[Row]) -> str:
    crossing = [r for r in rows if r.crosses]
    return (f"| {level} | {len(rows)} | {len(crossing)} | "
            f"{sum(r.limited.spill_bytes > r.unlimited.spill_bytes for r in crossing)} | "
            f"{sum(not r.own_bounds and r.blanket.registers > r.unlimited.registers for r in rows)} | "
            f"{sum(r.blanket.spill_bytes > r.unlimited.spill_bytes for r in rows)} |")


def markdown(rows: list[Row], command: str) -> str:
    crossing = [r for r in rows if r.crosses]
    spilled = [r for r in crossing if r.limited.spill_bytes > r.unlimited.spill_bytes]
    blanket_more = [r for r in rows if not r.own_bounds and r.blanket.registers > r.unlimited.registers]
    blanket_spills = [r for r in rows if r.blanket.spill_bytes > r.unlimited.spill_bytes]
    lines = [
        "# Registers of the rewritten kernels", "",
        f"`{command}` (ptxas -v, sm_90; coalda/driver/registers.py).", "",
        f"{len(rows)} rewritten kernels. **{len(crossing)} cross 64 registers** (at most 64 before the pass, "
        "more after it, no launch bounds of their own: they launched with 1024 threads before and do not "
        f"after). `coalda optimize` and `coalda cc` give those `.maxnreg 64`: {len(spilled)} of them then "
        f"spill; {sum(r.still_crosses() for r in rows)} still cross.", "",
        f"The blanket rule (`-coalda-max-registers=64` on every rewritten kernel without launch bounds) would "
        f"give {len(blanket_more)} kernels more registers than they take without it (ptxas takes registers up "
        f"to a limit: fewer warps per SM) and make {len(blanket_spills)} spill more.", "",
        "| -O | rewritten kernels | cross 64 | of those, spill when limited | blanket: more registers | "
        "blanket: more spills |",
        "|---|---:|---:|---:|---:|---:|",
        *[_level_row(level, [r for r in rows if r.level == level]) for level in dict.fromkeys(r.level for r in rows)],
        "",
        "| file | -O | kernel | before | unlimited | limited | blanket |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        mark = " **crosses**" if r.crosses else (" (own bounds)" if r.own_bounds else "")
        lines.append(f"| {r.file} | {r.level} | `{r.kernel}`{mark} | {_cell(r.before)} | {_cell(r.unlimited)} | "
                     f"{_cell(r.limited)} | {_cell(r.blanket)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="store_true")
    parser.add_argument("--adversaries", action="store_true")
    parser.add_argument("--levels", default="0,3")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args()
    jobs = (corpus_jobs() if args.corpus else []) + (adversary_jobs(args.levels.split(",")) if args.adversaries else [])
    if not jobs:
        print("register_budget.py: give --corpus, --adversaries or both", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = [row for rs in pool.map(lambda j: measure(*j), jobs) for row in rs]
    command = "scripts/register_budget.py " + " ".join(sys.argv[1:])
    text = markdown(rows, command)
    print("\n\n".join(text.split("\n\n")[2:4]))
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1) + "\n")
    return 1 if any(r.still_crosses() for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
