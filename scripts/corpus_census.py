#!/usr/bin/env -S .venv/bin/python
"""The corpus census: `coalda analyze` over every .cu source of every corpus
recipe (corpus/recipes/*.toml), counted, with no GPU.

    .venv/bin/python scripts/corpus_census.py [--only NAME,...] [--jobs N]
        [--json OUT] [--check docs/programs/census.json] [--update]

Each file is analyzed from the repository root in its own process, with the
recipe's -I (relative to the program's directory), -D and -O flags and its
other flags after `--`, N at a time (default: the cores). Each file's wall
time and peak memory (its process tree's, from wait4) are measured; a file
over 60 s or 2 GB is over budget, and so a failure of the census, as is a
crash of the pass. A file is killed after 300 s, and runs under an address
space limit of 4 GB, so that one file cannot hang the census.

The rewrite set is the sorted list of "program/file:kernel:kind:line" for
every copy group (kind "copy") and every staging (kind element, transposed or
window) the pass transforms. --check compares it, and which files crashed or
ran over budget, with a pinned census and prints each difference; timings are
never compared. --update writes the pinned census (JSON and a Markdown summary
beside it); with --only it replaces only those programs' part.

Each file is ok, host-only (no kernel), compile-error, refused (coalda's
one-line refusal of the command, e.g. a flag it sets itself), crash (of the
pass or a traceback), timeout or out-of-memory (both over budget).

Exit status: 0 when every file ran within budget, none crashed and --check
found no difference; 1 otherwise; 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
RECIPES = CORPUS / "recipes"
COALDA = ROOT / ".venv" / "bin" / "coalda"
PINNED = ROOT / "docs" / "programs" / "census.json"

BUDGET_S = 60.0  # a file's analyze over this is a census failure
BUDGET_MB = 2048.0
TIMEOUT_S = 300.0  # then it is killed
ADDRESS_SPACE = 4 << 30  # RLIMIT_AS of each analyze

CLASSES = ("coalesced", "uncoalesced", "uniform", "unknown")
GATHER = "data-dependent index"  # the one reason no analysis of the address can remove
OK, HOST_ONLY, COMPILE_ERROR, REFUSED, CRASH, TIMEOUT, OUT_OF_MEMORY = (
    "ok", "host-only", "compile-error", "refused", "crash", "timeout", "out-of-memory")
OOM_SIGNS = re.compile(r"out of memory|bad_alloc|MemoryError|Cannot allocate memory|failed to map segment")

Counts = dict[str, Any]  # nested dicts whose leaves are ints


class CensusError(Exception):
    """Bad input: printed as one line, exit 2."""


@dataclass(frozen=True)
class Recipe:
    name: str
    dir: Path  # relative to the repository root
    sources: tuple[str, ...]
    flags: tuple[str, ...]


@dataclass
class Job:
    program: str
    source: str  # relative to the program's directory
    argv: list[str]
    program_dir: Path
    out: Any = None
    err: Any = None
    pid: int = 0
    started: float = 0.0
    killed: bool = False


@dataclass
class Outcome:
    status: str
    seconds: float
    peak_mb: float
    report: dict[str, Any] | None = None
    message: str = ""
    exit_code: int = 0


@dataclass
class FileCount:
    counts: Counts = field(default_factory=dict)
    rewrites: list[str] = field(default_factory=list)
    kernels: int = 0


# --- recipes ---------------------------------------------------------------

def load_recipe(path: Path) -> Recipe:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CensusError(f"{path.relative_to(ROOT)}: cannot read the recipe: {exc}") from None
    where = path.relative_to(ROOT)
    directory, sources, flags = data.get("dir"), data.get("sources"), data.get("flags", [])
    if not isinstance(directory, str) or not directory:
        raise CensusError(f"{where}: 'dir' must be a non-empty string")
    if not isinstance(sources, list) or not sources or not all(isinstance(s, str) for s in sources):
        raise CensusError(f"{where}: 'sources' must be a non-empty list of strings")
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise CensusError(f"{where}: 'flags' must be a list of strings")
    program_dir = CORPUS / directory
    if not program_dir.is_dir():
        raise CensusError(f"{where}: no directory corpus/{directory}")
    for source in sources:
        if not (program_dir / source).is_file():
            raise CensusError(f"{where}: no source corpus/{directory}/{source}")
    return Recipe(path.stem, program_dir.relative_to(ROOT), tuple(sources), tuple(flags))


def load_recipes(only: list[str] | None, skip: list[str] | None = None) -> list[Recipe]:
    paths = sorted(RECIPES.glob("*.toml")) if RECIPES.is_dir() else []
    names = {p.stem for p in paths}
    for option, chosen in (("--only", only), ("--skip", skip)):
        missing = [n for n in chosen or [] if n not in names]
        if missing:
            raise CensusError(f"{option}: no recipe corpus/recipes/{missing[0]}.toml")
    if only is not None:
        paths = [p for p in paths if p.stem in set(only)]
    paths = [p for p in paths if p.stem not in set(skip or [])]
    if not paths:
        raise CensusError("no recipes in corpus/recipes/")
    return [load_recipe(p) for p in paths]


# --- the analyze command ---------------------------------------------------

_PATH_FLAGS = ("-isystem", "-iquote", "-idirafter", "-include")
_LINK_FLAGS = ("-l", "-L", "-Wl,")
_OPT_LEVELS = {"-O": "2", "-O0": "0", "-O1": "1", "-O2": "2", "-O3": "3", "-Ofast": "3", "-Os": "2", "-Oz": "2"}


def _rel(program_dir: Path, path: str) -> str:
    """PATH of a recipe flag, relative to the program's directory, as seen
    from the repository root."""
    return path if os.path.isabs(path) else os.path.normpath(program_dir / path)


def split_flags(flags: tuple[str, ...], program_dir: Path) -> tuple[list[str], list[str]]:
    """(coalda's own options, clang flags after `--`) for a recipe's flags."""
    own: list[str] = []
    clang: list[str] = []
    items = list(flags)
    i = 0
    while i < len(items):
        flag = items[i]
        i += 1
        if flag in ("-I", "-D") + _PATH_FLAGS:
            if i == len(items):
                raise CensusError(f"flag {flag} has no value")
            value = items[i]
            i += 1
        elif flag.startswith(("-I", "-D")):
            flag, value = flag[:2], flag[2:]
        elif flag == "-mllvm" and i < len(items) and items[i].startswith("-coalda"):
            own += ["--pass-arg", items[i]]  # the pass runs in opt, not in clang
            i += 1
            continue
        elif flag in _OPT_LEVELS:
            own += ["-O", _OPT_LEVELS[flag]]
            continue
        elif flag.startswith(_LINK_FLAGS) or flag.startswith("-O"):
            continue  # link flags; an -O clang spells otherwise
        else:
            clang.append(flag)
            continue
        if flag == "-I":
            own += ["-I", _rel(program_dir, value)]
        elif flag == "-D":
            own += ["-D", value]
        else:
            clang += [flag, _rel(program_dir, value)]
    return own, clang


def analyze_argv(recipe: Recipe, source: str) -> list[str]:
    own, clang = split_flags(recipe.flags, recipe.dir)
    argv = [str(COALDA), "analyze", str(recipe.dir / source), "--format", "json", "-q", *own]
    return argv + (["--", *clang] if clang else [])


def jobs_for(recipes: list[Recipe]) -> list[Job]:
    return [Job(r.name, s, analyze_argv(r, s), r.dir) for r in recipes for s in r.sources if s.endswith(".cu")]


# --- running, N at a time ---------------------------------------------------

def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def start(job: Job) -> None:
    job.out = tempfile.TemporaryFile()
    job.err = tempfile.TemporaryFile()
    job.started = time.monotonic()
    # the IR cache off: the census's times are what analyzing the file costs
    env = {**os.environ, "COALDA_IR_CACHE": "off"}
    proc = subprocess.Popen(job.argv, cwd=ROOT, stdout=job.out, stderr=job.err, stdin=subprocess.DEVNULL,
                            start_new_session=True, preexec_fn=_limit_memory, env=env)
    job.pid = proc.pid
    proc.returncode = 0  # reaped by os.wait4 below, never by Popen


def _read(stream: Any) -> str:
    stream.seek(0)
    text = stream.read().decode("utf-8", "replace")
    stream.close()
    return str(text)


def classify(code: int, stdout: str, stderr: str, killed: bool) -> tuple[str, str, dict[str, Any] | None]:
    """(status, one-line message, report) of a finished analyze."""
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
    last = lines[-1] if lines else f"exit {code}"
    if killed:
        return TIMEOUT, f"killed after {TIMEOUT_S:.0f} s", None
    if code != 0 and OOM_SIGNS.search(stderr):
        return OUT_OF_MEMORY, f"out of memory under a {ADDRESS_SPACE >> 30} GB address space: {last}", None
    if code == 0:
        try:
            (report,) = json.loads(stdout)["reports"]  # one file: one report
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            return CRASH, "exit 0 without a JSON report", None
        return OK, "", report
    if "Traceback" in stderr or code < 0 or "COALDA pass failed" in stderr:
        return CRASH, _crash_message(code, lines, last), None
    if "defines no CUDA kernel" in stderr:
        return HOST_ONLY, "", None
    if "could not compile" in stderr:
        first = next((ln for ln in lines if "error:" in ln), last)
        return COMPILE_ERROR, first, None
    if len(lines) == 1 and lines[0].startswith("coalda: error:") and code in (1, 2):
        return REFUSED, last, None  # coalda's one line on its command (a flag it sets itself)
    return CRASH, last, None


def _crash_message(code: int, lines: list[str], last: str) -> str:
    """The pass's or Python's own words (an assertion, an LLVM ERROR, the
    exception) before coalda's last line, which has the command to reproduce."""
    cause = next((ln.strip() for ln in lines if re.search(r"Assertion|LLVM ERROR|Error:|Exception|Segmentation", ln)
                  and not ln.startswith("coalda: error")), "")
    text = (f"killed by signal {-code}: " if code < 0 else "") + (f"{cause} | " if cause else "") + last
    return text[:400]


def finish(job: Job, status: int, usage: resource.struct_rusage) -> Outcome:
    seconds = time.monotonic() - job.started
    code = os.waitstatus_to_exitcode(status)
    kind, message, report = classify(code, _read(job.out), _read(job.err), job.killed)
    return Outcome(kind, round(seconds, 2), round(usage.ru_maxrss / 1024, 1), report, message, code)


def run_all(jobs: list[Job], n: int, show: bool = True) -> dict[tuple[str, str], Outcome]:
    """Run every job, N at a time; each job's Outcome by (program, source)."""
    pending = list(jobs)
    running: dict[int, Job] = {}
    done: dict[tuple[str, str], Outcome] = {}
    try:
        while pending or running:
            while pending and len(running) < n:
                job = pending.pop(0)
                start(job)
                running[job.pid] = job
            reaped = False
            for pid in list(running):  # our own children only, not any other
                got, status, usage = os.wait4(pid, os.WNOHANG)
                if got == 0:
                    continue
                job = running.pop(pid)
                outcome = finish(job, status, usage)
                done[(job.program, job.source)] = outcome
                reaped = True
                if show:
                    _progress(job, outcome, len(done), len(jobs))
            if not reaped:
                _kill_late(running)
                time.sleep(0.05)
    finally:  # an interrupted census leaves no analyze behind (each runs in its own session)
        for job in running.values():
            _kill(job)
    return done


def _kill(job: Job) -> None:
    job.killed = True
    try:
        os.killpg(job.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _kill_late(running: dict[int, Job]) -> None:
    now = time.monotonic()
    for job in running.values():
        if not job.killed and now - job.started > TIMEOUT_S:
            _kill(job)


def over_budget(outcome: Outcome) -> bool:
    return outcome.status in (TIMEOUT, OUT_OF_MEMORY) or outcome.seconds > BUDGET_S or outcome.peak_mb > BUDGET_MB


def _progress(job: Job, outcome: Outcome, k: int, total: int) -> None:
    flag = "  OVER BUDGET" if over_budget(outcome) else ""
    note = f"  ({outcome.message})" if outcome.message else ""
    print(f"[{k}/{total}] {outcome.status:13} {outcome.seconds:7.1f} s {outcome.peak_mb:7.0f} MB  "
          f"{job.program}/{job.source}{flag}{note}", file=sys.stderr, flush=True)


# --- counting ---------------------------------------------------------------

def add(into: Counts, *keys: str, n: int = 1) -> None:
    """into[k0][k1]...[kn] += n."""
    for key in keys[:-1]:
        into = into.setdefault(key, {})
    into[keys[-1]] = into.get(keys[-1], 0) + n


def merge(into: Counts, more: Counts) -> Counts:
    """Add nested counts MORE into INTO; returns INTO."""
    for key, value in more.items():
        if isinstance(value, dict):
            merge(into.setdefault(key, {}), value)
        else:
            into[key] = into.get(key, 0) + value
    return into


def reason_words(reason: str, words: int = 8) -> str:
    """The first words of an unknown access's reason, without the names and
    details that differ between programs (what follows '(', ':', 'among', a
    callee's name or the buffers' names)."""
    head = re.split(r" \(|:| among | to `|(?<=between the buffers) ", reason, maxsplit=1)[0]
    return " ".join(head.split()[:words]) or "?"


def is_own(path: str | None, program_dir: Path) -> bool:
    """Whether an access's `file` lies in the program's directory (a file
    without a path is the program's)."""
    if not path:
        return True
    full = os.path.normpath(path if os.path.isabs(path) else ROOT / path)
    return full.startswith(os.path.normpath(ROOT / program_dir) + os.sep)


def rewritten(access: dict[str, Any], kernel: dict[str, Any]) -> bool:
    """Whether a transformed group, staging or loop promotion rewrites this
    access."""
    groups, stagings = kernel.get("groups", []), kernel.get("stagings", [])
    g = access.get("group")
    if isinstance(g, int) and 0 <= g < len(groups) and groups[g].get("transformed"):
        return True
    s = access.get("staging")
    if (isinstance(s, int) and 0 <= s < len(stagings) and bool(stagings[s].get("transformed"))
            and "left_out" not in access):
        return True
    promotions, p = kernel.get("promotions", []), access.get("promotion")
    return isinstance(p, int) and 0 <= p < len(promotions) and bool(promotions[p].get("transformed"))


# The missed names that are measured cost rules (docs/benchmarks.md,
# docs/programs.md); every other name is a reason the rewrite cannot take
# the access.
COST_RULES = ("StagingCostRule", "VectorizedElement")


def why_not_rewritten(access: dict[str, Any], kernel: dict[str, Any]) -> str:
    """Why an uncoalesced access no rewrite takes is left alone, in a few
    words: "cost rule: ..." (measured), "reason: ..." (a missed name or the
    reason it is left out of a staging, or the collectors' rule that passes
    it by: the report's `uncollected`), or "no candidate: SHAPE" (no
    rewrite collects it, for no rule the pass names)."""
    left_out = access.get("left_out")
    if left_out:
        rule = "cost rule" if re.search(r"measured|L1|coalesced already", left_out) else "reason"
        # the array's name and sizes differ between programs: X, N
        general = re.sub(r"\b(?!which\b)[A-Za-z_]\w*(?='s\b| has\b)|(?<=the stores to )\w+", "X", left_out)
        general = re.sub(r"\b\d+-byte\b", "N-byte", general)
        return f"{rule}: left out of a staging: {reason_words(general, 12)}"
    for key, field in (("promotion", "promotions"), ("staging", "stagings"), ("group", "groups")):
        index = access.get(key)
        entries = kernel.get(field, [])
        if isinstance(index, int) and 0 <= index < len(entries) and entries[index].get("missed"):
            if key == "group" and entries[index]["missed"] == "ComputedValue" and access.get("shape"):
                break  # not a copy: what matters is why no staging takes it
            missed = entries[index]["missed"]
            return f"{'cost rule' if missed in COST_RULES else 'reason'}: {field[:-1]} {missed}"
    if any(p.get("transformed") for p in kernel.get("promotions", [])):
        return "reason: its kernel's loop is promoted (no other rewrite in that kernel)"
    if access.get("uncollected"):  # the collectors' rule that passes it by
        return f"reason: {reason_words(access['uncollected'], 12)}"
    return f"no candidate: {access.get('shape') or 'no shape'}"


def count_kernel(kernel: dict[str, Any], program_dir: Path, prefix: str, into: FileCount) -> None:
    counts = into.counts
    if kernel.get("skipped"):  # over the pass's analysis budget (-coalda-max-function-size)
        add(counts, "refused", "kernel", "skipped: over the analysis budget")
    for access in kernel.get("accesses", []):
        origin = "own" if is_own(access.get("file"), program_dir) else "header"
        space, klass = access.get("space", "global"), access.get("class", "unknown")
        add(counts, "accesses", origin, space, klass)
        if klass == "unknown":
            add(counts, "refused", "unknown access", reason_words(access.get("reason", "")))
            if origin == "own":
                add(counts, "own_unknown", space, reason_words(access.get("reason", ""), 12))
        if origin == "own" and space == "global" and klass == "uncoalesced":
            done = rewritten(access, kernel)
            add(counts, "own_uncoalesced_global", "total")
            add(counts, "own_uncoalesced_global", "rewritten", n=int(done))
            if not done:
                add(counts, "own_uncoalesced_why", why_not_rewritten(access, kernel))
    name = kernel.get("name", "?")
    # (the report's list, the rewrite's name in the counts, its tag in the
    # rewrite list, the refusal's name)
    for key, rewrite, tag, refusal in (("groups", "copy", "copy", "copy group"),
                                       ("promotions", "loop promotion", "promotion", "loop promotion")):
        for outcome in kernel.get(key, []):
            if outcome.get("transformed"):
                add(counts, "rewrites", rewrite)
                into.rewrites.append(f"{prefix}:{name}:{tag}:{outcome.get('line', 0)}")
            else:
                add(counts, "refused", refusal, outcome.get("missed") or "?")
    for staging in kernel.get("stagings", []):
        kind = staging.get("kind", "element")
        if staging.get("transformed"):
            add(counts, "rewrites", f"{kind} {staging.get('tile', 'block')}")
            into.rewrites.append(f"{prefix}:{name}:{kind}:{staging.get('line', 0)}")
        else:
            add(counts, "refused", f"{kind} staging", staging.get("missed") or "?")


def count_report(report: dict[str, Any], program_dir: Path, prefix: str) -> FileCount:
    """The counts, kernels and rewrites of one analyze report; PREFIX is
    "program/file"."""
    result = FileCount()
    for kernel in report.get("kernels", []):
        result.kernels += 1
        count_kernel(kernel, program_dir, prefix, result)
    result.rewrites.sort()
    return result


# --- the census --------------------------------------------------------------

def row_for(program: str, source: str, program_dir: Path, outcome: Outcome) -> tuple[dict[str, Any], list[str]]:
    prefix = f"{program}/{source}"
    fc = count_report(outcome.report, program_dir, prefix) if outcome.report else FileCount()
    row: dict[str, Any] = {"file": prefix, "status": outcome.status, "kernels": fc.kernels,
                           "seconds": outcome.seconds, "peak_mb": outcome.peak_mb,
                           "over_budget": over_budget(outcome), "counts": fc.counts}
    if outcome.message:
        row["message"] = outcome.message
    return row, fc.rewrites


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    status = Counter(r["status"] for r in rows)
    counts: Counts = {}
    for r in rows:
        merge(counts, r["counts"])
    return {
        "programs": len({r["file"].split("/", 1)[0] for r in rows}),
        "files": len(rows),
        "status": dict(sorted(status.items())),
        "over_budget": sum(r["over_budget"] for r in rows),
        "kernels": sum(r["kernels"] for r in rows),
        "seconds": round(sum(r["seconds"] for r in rows), 1),
        "counts": _sorted(counts),
    }


def _sorted(counts: Counts) -> Counts:
    """Nested counts with every level's keys sorted, largest count first at the leaves."""
    leaves = all(not isinstance(v, dict) for v in counts.values())
    if leaves:
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return {k: _sorted(v) if isinstance(v, dict) else v for k, v in sorted(counts.items())}


def census(rows: list[dict[str, Any]], rewrites: list[str], wall: float | None) -> dict[str, Any]:
    rows = sorted(rows, key=lambda r: r["file"])
    failures = {
        "crash": sorted(r["file"] for r in rows if r["status"] == CRASH),
        "over_budget": sorted(r["file"] for r in rows if r["over_budget"]),
    }
    result = {"totals": totals(rows), "failures": failures, "rewrites": sorted(rewrites), "rows": rows}
    if wall is not None:
        result["totals"]["wall_seconds"] = round(wall, 1)
    return result


def program_of(entry: str) -> str:
    return entry.split("/", 1)[0]


def restrict(data: dict[str, Any], programs: set[str]) -> dict[str, Any]:
    """The part of a census that concerns PROGRAMS."""
    rows = [r for r in data.get("rows", []) if program_of(r["file"]) in programs]
    return census(rows, [e for e in data.get("rewrites", []) if program_of(e) in programs], None)


def merged(pinned: dict[str, Any], fresh: dict[str, Any], programs: set[str], kept: set[str]) -> dict[str, Any]:
    """PINNED with PROGRAMS' part replaced by FRESH's; of the others, only
    those in KEPT (that still have a recipe) stay."""
    def stays(program: str) -> bool:
        return program not in programs and program in kept

    rows = [r for r in pinned.get("rows", []) if stays(program_of(r["file"]))] + fresh["rows"]
    rewrites = [e for e in pinned.get("rewrites", []) if stays(program_of(e))] + fresh["rewrites"]
    return census(rows, rewrites, None)  # the wall time of a part is not the census's


def differences(pinned: dict[str, Any], fresh: dict[str, Any]) -> list[str]:
    """Each rewrite gained or lost, each file whose own uncoalesced global
    accesses are rewritten more or fewer (a rewrite set can stay while the
    accesses it takes change: softmax's stores joined its window), and each
    file that newly crashes or runs over budget (or no longer does), between
    two censuses of the same programs."""
    lines: list[str] = []
    old, new = Counter(pinned.get("rewrites", [])), Counter(fresh["rewrites"])
    unmeasured = {r["file"] for r in fresh["rows"] if r["status"] in (CRASH, TIMEOUT, OUT_OF_MEMORY)}
    for entry in sorted((old - new).elements()):
        file = entry.split(":", 1)[0]
        lines.append(f"lost:   {entry}" + ("  (the file did not finish)" if file in unmeasured else ""))
    lines += [f"gained: {entry}" for entry in sorted((new - old).elements())]
    def rewritten(data: dict[str, Any]) -> dict[str, int]:
        return {r["file"]: r.get("counts", {}).get("own_uncoalesced_global", {}).get("rewritten", 0)
                for r in data.get("rows", [])}
    before_n, now_n = rewritten(pinned), rewritten(fresh)
    lines += [f"own accesses rewritten: {f} {before_n[f]} -> {now_n[f]}"
              for f in sorted(before_n.keys() & now_n.keys()) if before_n[f] != now_n[f]]
    for what in ("crash", "over_budget"):
        before, now = set(pinned.get("failures", {}).get(what, [])), set(fresh["failures"][what])
        label = what.replace("_", " ")
        lines += [f"newly {label}: {f}" for f in sorted(now - before)]
        lines += [f"no longer {label}: {f}" for f in sorted(before - now)]
    return lines


# --- the Markdown summary -----------------------------------------------------

def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def _class_table(accesses: Counts) -> list[str]:
    lines = ["| accesses | " + " | ".join(CLASSES) + " | all |", "|---|" + "---:|" * (len(CLASSES) + 1)]
    for origin in ("own", "header"):
        for space in ("global", "shared"):
            cells = accesses.get(origin, {}).get(space, {})
            if cells:
                values = [cells.get(c, 0) for c in CLASSES]
                lines.append(f"| {origin} {space} | " + " | ".join(map(str, values)) + f" | {sum(values)} |")
    return lines


def _leaf_total(counts: Counts) -> int:
    return sum(_leaf_total(v) if isinstance(v, dict) else v for v in counts.values())


def _program_rows(data: dict[str, Any]) -> list[str]:
    by: dict[str, list[dict[str, Any]]] = {}
    for r in data["rows"]:
        by.setdefault(program_of(r["file"]), []).append(r)
    rewrites = Counter(program_of(e) for e in data["rewrites"])
    lines = []
    for program, rows in sorted(by.items()):
        counts: Counts = {}
        for r in rows:
            merge(counts, r["counts"])
        own = counts.get("accesses", {}).get("own", {})
        klass = Counter[str]()
        for space in own.values():
            klass.update(space)
        failed = [r["status"] for r in rows if r["status"] not in (OK, HOST_ONLY)]
        lines.append(f"| {program}{' (' + ', '.join(failed) + ')' if failed else ''} | {len(rows)} | "
                     f"{sum(r['kernels'] for r in rows)} | {sum(klass.values())} | {klass['uncoalesced']} | "
                     f"{klass['unknown']} | {rewrites[program]} | {round(sum(r['seconds'] for r in rows), 1)} |")
    return lines


def markdown(data: dict[str, Any], top: int = 12) -> str:
    t, counts = data["totals"], data["totals"]["counts"]
    accesses = counts.get("accesses", {})
    own = accesses.get("own", {})
    own_all = _leaf_total(own)
    own_unknown = sum(space.get("unknown", 0) for space in own.values())
    ucg = counts.get("own_uncoalesced_global", {})
    own_why = counts.get("own_unknown", {})
    gathers = sum(n for reasons in own_why.values() for why, n in reasons.items() if why.startswith(GATHER))
    status = ", ".join(f"{n} {s}" for s, n in t["status"].items())
    out = [
        "# The corpus census",
        "",
        "`coalda analyze` over every .cu source of every corpus recipe, with no GPU",
        "(`scripts/corpus_census.py`; regenerate with",
        "`.venv/bin/python scripts/corpus_census.py --update`). Generated; do not edit.",
        "",
        f"- {t['programs']} programs, {t['files']} .cu files ({status}), {t['kernels']} kernels",
        f"- analyze time {t['seconds']} s summed over files"
        + (f", census wall time {t['wall_seconds']} s" if "wall_seconds" in t else ""),
        f"- unknown share of own-code accesses: {own_unknown} of {own_all} ({_pct(own_unknown, own_all)}); "
        f"data-dependent gathers among them: {gathers}",
        f"- own-code uncoalesced global accesses rewritten: {ucg.get('rewritten', 0)} of {ucg.get('total', 0)} "
        f"({_pct(ucg.get('rewritten', 0), ucg.get('total', 0))})",
        f"- rewrites: {len(data['rewrites'])} ("
        + ", ".join(f"{n} {k}" for k, n in counts.get("rewrites", {}).items()) + ")",
        f"- kernels the pass skipped (over its analysis budget): "
        f"{counts.get('refused', {}).get('kernel', {}).get('skipped: over the analysis budget', 0)}",
        f"- crashes: {len(data['failures']['crash'])}; over budget (>{BUDGET_S:.0f} s or >{BUDGET_MB:.0f} MB): "
        + (", ".join(data["failures"]["over_budget"]) or "none"),
        "",
        *_class_table(accesses),
        "",
        "## Top refusal reasons",
        "",
        "| what | reason | count |",
        "|---|---|---:|",
    ]
    refusals = [(n, what, why) for what, reasons in counts.get("refused", {}).items() for why, n in reasons.items()
                if why != "AlreadyCoalesced"]  # a copy group with nothing to do
    out += [f"| {what} | {why} | {n} |" for n, what, why in sorted(refusals, key=lambda x: (-x[0], x[1], x[2]))[:top]]
    out += ["", "## Why the programs' own accesses are unknown", "",
            f"Every reason but a data-dependent gather (`{GATHER}`) is pinned in a test.", "",
            "| space | reason | count |", "|---|---|---:|"]
    out += [f"| {space} | {why} | {n} |" for n, space, why in
            sorted(((n, sp, why) for sp, reasons in own_why.items() for why, n in reasons.items()),
                   key=lambda x: (-x[0], x[1], x[2]))]
    why = counts.get("own_uncoalesced_why", {})
    by_kind = Counter[str]()
    for reason, n in why.items():
        by_kind[reason.split(":", 1)[0]] += n
    out += ["", "## Why the programs' own uncoalesced accesses are not rewritten", "",
            f"The {ucg.get('total', 0) - ucg.get('rewritten', 0)} own-code uncoalesced global accesses no rewrite "
            f"takes: {by_kind['cost rule']} by a measured cost rule, {by_kind['reason']} for a named reason, "
            f"{by_kind['no candidate']} collected by no rewrite (their shape).", "",
            "| why | count |", "|---|---:|"]
    out += [f"| {reason} | {n} |" for reason, n in sorted(why.items(), key=lambda x: (-x[1], x[0]))]
    out += ["", "## Programs", "",
            "| program | files | kernels | own accesses | uncoalesced | unknown | rewrites | seconds |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    out += _program_rows(data)
    out += ["", "## Slowest files", "", "| file | status | kernels | seconds | peak MB |", "|---|---|---:|---:|---:|"]
    slow = sorted(data["rows"], key=lambda r: -r["seconds"])[:top]
    out += [f"| {r['file']} | {r['status']}{' (over budget)' if r['over_budget'] else ''} | {r['kernels']} | "
            f"{r['seconds']} | {r['peak_mb']} |" for r in slow]
    problems = [r for r in data["rows"] if r["status"] not in (OK, HOST_ONLY)]
    if problems:
        out += ["", "## Files not analyzed", "", "| file | status | message |", "|---|---|---|"]
        out += [f"| {r['file']} | {r['status']} | {r.get('message', '').replace('|', '/')[:160]} |" for r in problems]
    return "\n".join(out) + "\n"


# --- the command line -----------------------------------------------------------

def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated recipe names (default: every recipe)")
    ap.add_argument("--skip", help="comma-separated recipe names to leave out (an --update keeps their pinned part)")
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), help="files analyzed at once")
    ap.add_argument("--json", type=Path, help="write this run's census here")
    ap.add_argument("--check", type=Path, help="compare the rewrite set with this pinned census")
    ap.add_argument("--update", action="store_true",
                    help="write the pinned census (--check's file, default docs/programs/census.json) and its .md")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    return args


def _names(option: str | None) -> list[str] | None:
    return [n.strip() for n in option.split(",") if n.strip()] if option is not None else None


def read_pinned(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CensusError(f"cannot read the pinned census {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("rewrites"), list) or not isinstance(data.get("rows"), list):
        raise CensusError(f"{path} is not a census (no 'rewrites' and 'rows' lists)")
    return data


def run_census(recipes: list[Recipe], jobs: int) -> dict[str, Any]:
    began = time.monotonic()
    todo = jobs_for(recipes)
    outcomes = run_all(todo, jobs)
    rows, rewrites = [], []
    for job in todo:
        row, found = row_for(job.program, job.source, job.program_dir, outcomes[(job.program, job.source)])
        rows.append(row)
        rewrites += found
    return census(rows, rewrites, time.monotonic() - began)


def write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def report_failures(data: dict[str, Any]) -> bool:
    """Print the crashes and files over budget; whether there were any."""
    rows = {r["file"]: r for r in data["rows"]}
    for file in data["failures"]["crash"]:
        print(f"crash: {file}: {rows[file].get('message', '')}", file=sys.stderr)
    for file in data["failures"]["over_budget"]:
        r = rows[file]
        print(f"over budget: {file}: {r['status']}, {r['seconds']} s, {r['peak_mb']} MB", file=sys.stderr)
    return bool(data["failures"]["crash"] or data["failures"]["over_budget"])


def _interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _interrupted)  # so that run_all's cleanup runs
    only, skip = _names(args.only), _names(args.skip)
    pinned_path = args.check or PINNED
    try:
        recipes = load_recipes(only, skip)
        pinned = read_pinned(pinned_path) if args.check or (args.update and pinned_path.exists()) else None
        data = run_census(recipes, args.jobs)
    except CensusError as exc:
        print(f"corpus_census: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("corpus_census: interrupted", file=sys.stderr)
        return 130
    programs = {r.name for r in recipes}
    if args.json:
        write(args.json, data)
    t = data["totals"]
    print(f"{t['programs']} programs, {t['files']} files {t['status']}, {t['kernels']} kernels, "
          f"{len(data['rewrites'])} rewrites, {t['seconds']} s analyze, {t['wall_seconds']} s wall")
    failed = report_failures(data)
    if pinned is not None:
        # a whole census also loses the rewrites of a program whose recipe is gone
        diff = differences(restrict(pinned, programs) if only or skip else pinned, data)
        for line in diff:
            print(line)
        if diff and not args.update:
            print(f"the census differs from {pinned_path}: review the lines above, then rerun with --update",
                  file=sys.stderr)
            failed = True
    if args.update:
        existing = {p.stem for p in RECIPES.glob("*.toml")}
        full = merged(pinned, data, programs, existing) if (only or skip) and pinned is not None else data
        write(pinned_path, full)
        pinned_path.with_suffix(".md").write_text(markdown(full), encoding="utf-8")
        print(f"wrote {pinned_path} and {pinned_path.with_suffix('.md')}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
