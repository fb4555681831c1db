#!/usr/bin/env python3
"""Run the corpus built by `scripts/corpus.py build` on a GPU machine.

    tar xzf build/corpus.tar.gz -C /tmp
    python3 scripts/corpus_gpu.py /tmp/corpus --repeat 3 [--only A,B]
        [--phase time|sanitize|all] [--shard K/N] [--budget SECONDS] [--no-ncu]
        [--tools memcheck,racecheck,synccheck] --out corpus-run.json

Standard library only (Python 3.10+): the GPU machine has nvcc, ncu and
compute-sanitizer but no clang and no .venv. The CUDA 12 runtime the
binaries link comes from DIR/lib (LD_LIBRARY_PATH).

time: each program's two builds run alternately (plain, coalda, coalda,
plain, plain, coalda, ...), REPEAT times each, from fresh copies of its
directory. A program with rewritten kernels runs under ncu, which times only
those kernels (gpu__time_duration.sum of up to 50 launches, matched by their
mangled symbols); the program's stdout stays its own. A program without one
runs once per build, uninstrumented (verification and wall time only), and
so does every program with --no-ncu (a reshaped build's run-time choice
times its launches with events, which ncu's serialized launches distort:
its choices are read in such a run, its kernels' times under ncu with the
choice pinned, COALDA_LAUNCH=original or reshaped).
sanitize: the coalda build of each program with rewritten kernels, once
under each compute-sanitizer tool of --tools (memcheck and racecheck by
default; synccheck may be added), on sanitize_args.

The JSON is rewritten after every program, so a run killed at its time limit
keeps what it finished.
"""

from __future__ import annotations

import argparse
import csv
import glob
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_MASK = r"(?i)time|throughput|GB/s|us\b|ms\b|sec"
LAUNCH_COUNT = 50
TAIL_LINES = 200
BUILDS = ("plain", "coalda")
# ncu's time units, in milliseconds
UNIT_MS = {"nsecond": 1e-6, "ns": 1e-6, "usecond": 1e-3, "us": 1e-3,
           "msecond": 1.0, "ms": 1.0, "second": 1e3, "s": 1e3}


# ---------------------------------------------------------------- pure parts

def run_order(repeat: int) -> list[str]:
    """The builds in the order they run: plain, coalda, coalda, plain, plain,
    coalda, ... so that neither build always runs first (warm-up, clocks)."""
    order: list[str] = []
    for i in range(repeat):
        order += list(BUILDS) if i % 2 == 0 else list(reversed(BUILDS))
    return order


# A reshaped launch (a coalda cc build's) runs the kernel or its grid
# variant, K + this suffix (pass/lib/GridVariant.h): both are timed as K.
VARIANT_SUFFIX = "__coalda_grid"


def kernel_regex(symbols: list[str]) -> str:
    """ncu's --kernel-name filter for exactly these mangled symbols and
    their grid variants."""
    names = sorted({n for s in symbols for n in (s, s + VARIANT_SUFFIX)})
    return "regex:^(" + "|".join(re.escape(s) for s in names) + ")$"


def parse_number(text: str) -> float:
    """An ncu CSV value: thousands separators dropped ("1,234.5")."""
    return float(text.replace(",", "").strip())


def parse_ncu_csv(text: str) -> dict[str, dict[str, float]]:
    """ncu --csv log (with its ==PROF== lines) -> kernel name -> {"ms": total
    gpu__time_duration over its profiled launches, "launches": count}."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    if not lines:
        return {}
    totals: dict[str, dict[str, float]] = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        unit = (row.get("Metric Unit") or "nsecond").strip()
        if unit not in UNIT_MS:
            raise ValueError(f"unknown ncu time unit {unit!r}")
        name = row["Kernel Name"].removesuffix(VARIANT_SUFFIX)  # a reshaped launch counts as its kernel's
        entry = totals.setdefault(name, {"ms": 0.0, "launches": 0})
        entry["ms"] += parse_number(row["Metric Value"]) * UNIT_MS[unit]
        entry["launches"] += 1
    return totals


def masked(stdout: str, mask: str) -> list[str]:
    """stdout's lines, without those the mask matches (timings)."""
    pattern = re.compile(mask or DEFAULT_MASK)
    return [ln for ln in stdout.splitlines() if not pattern.search(ln)]


def verify_stdout(stdout: str, verify: str, fail: str) -> bool:
    """`verify` matches a line (when non-empty) and `fail` matches none."""
    lines = stdout.splitlines()
    if verify and not any(re.search(verify, ln) for ln in lines):
        return False
    if fail and any(re.search(fail, ln) for ln in lines):
        return False
    return True


def run_verified(run: dict[str, Any], recipe: dict[str, Any]) -> bool:
    return run["exit"] == 0 and verify_stdout(run["stdout"], recipe.get("verify", ""), recipe.get("fail", ""))


def runs_equal(a: dict[str, Any], b: dict[str, Any], recipe: dict[str, Any]) -> bool:
    """The recipe's compare rule between two runs: stdout with mask lines
    dropped, the output files' hashes, or nothing ("none")."""
    rule = recipe.get("compare", "stdout")
    if rule == "none":
        return True
    if rule == "files":
        return a.get("outputs") == b.get("outputs") and None not in (a.get("outputs") or {}).values()
    if rule == "stdout":
        mask = recipe.get("mask", DEFAULT_MASK)
        return masked(a["stdout"], mask) == masked(b["stdout"], mask)
    raise ValueError(f"unknown compare rule {rule!r}")


def all_equal(runs: list[dict[str, Any]], recipe: dict[str, Any]) -> bool:
    """Every plain run agrees with every coalda run."""
    plain = [r for r in runs if r["build"] == "plain"]
    coalda = [r for r in runs if r["build"] == "coalda"]
    return bool(plain and coalda) and all(runs_equal(p, c, recipe) for p in plain for c in coalda)


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def ratio(plain: float | None, coalda: float | None) -> float | None:
    """plain / coalda, or None when either is missing or coalda is zero."""
    if plain is None or not coalda:
        return None
    return plain / coalda


def summarize(runs: list[dict[str, Any]], symbols: list[str], recipe: dict[str, Any]) -> dict[str, Any]:
    """A program's verdicts and, per rewritten kernel, the median time of each
    build over its runs and the speedup; the program's times are the sums of
    its kernels' medians. A run where a kernel has no profiled launch adds
    nothing to its median."""
    kernels: dict[str, dict[str, Any]] = {}
    for sym in symbols:
        per = {b: [r["kernels"][sym]["ms"] for r in runs
                   if r["build"] == b and r.get("kernels", {}).get(sym, {}).get("launches")] for b in BUILDS}
        plain, coalda = median(per["plain"]), median(per["coalda"])
        kernels[sym] = {"plain_ms": plain, "coalda_ms": coalda, "speedup": ratio(plain, coalda)}
    # the program's time: the sum of its kernels' medians (each run may
    # profile one kernel only)
    def total(key: str) -> float | None:
        values = [k[key] for k in kernels.values()]
        return sum(values) if values and None not in values else None
    plain, coalda = total("plain_ms"), total("coalda_ms")
    return {
        "verified": bool(runs) and all(run_verified(r, recipe) for r in runs),
        "equal": all_equal(runs, recipe),
        "kernels": kernels,
        "plain_ms": plain if symbols else None,
        "coalda_ms": coalda if symbols else None,
        "speedup": ratio(plain, coalda) if symbols else None,
        "wall_s": {b: median([r["wall_s"] for r in runs if r["build"] == b]) for b in BUILDS},
    }


def sanitizer_count(text: str, tool: str) -> int | None:
    """The count in compute-sanitizer's summary line: memcheck's "ERROR
    SUMMARY: N errors", racecheck's "RACECHECK SUMMARY: N hazards displayed"
    (None when the line is missing: the tool did not finish)."""
    pattern = (r"RACECHECK SUMMARY:\s*([\d,]+)\s+hazard" if tool == "racecheck"
               else r"ERROR SUMMARY:\s*([\d,]+)\s+error")
    found = re.findall(pattern, text)
    return int(found[-1].replace(",", "")) if found else None


def shard(names: list[str], rewritten: set[str], spec: str) -> list[str]:
    """Part K of N ("K/N") of the programs: dealt round-robin, those with
    rewritten kernels (the ones timed under ncu) first, so that each part
    gets its share of the slow ones."""
    match = re.fullmatch(r"(\d+)/(\d+)", spec)
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise ValueError(f"--shard must be K/N with 1 <= K <= N, not {spec!r}")
    k, n = int(match[1]), int(match[2])
    ordered = sorted(names, key=lambda name: (name not in rewritten, name))
    return sorted(ordered[k - 1::n])


def tail(text: str, n: int = TAIL_LINES) -> str:
    return "\n".join(text.splitlines()[-n:])


# ---------------------------------------------------------------- the machine

def find_tool(name: str) -> str | None:
    """A CUDA tool on PATH, else under /usr/local/cuda*/bin or /opt/nvidia."""
    found = shutil.which(name)
    if found:
        return found
    patterns = [f"/usr/local/cuda/bin/{name}", f"/usr/local/cuda-*/bin/{name}",
                f"/opt/nvidia/nsight-compute/*/{name}", f"/usr/local/cuda*/nsight-compute*/{name}"]
    for pattern in patterns:
        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[-1]
    return None


def gpu_name() -> str:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.splitlines()[0] if out else "unknown"


def fresh_copy(src: Path, setup: str, env: dict[str, str]) -> tuple[Path, dict[str, Any] | None]:
    """A temp copy of the program's directory, with `setup` run in it once;
    (its path, the setup's failure or None)."""
    work = Path(tempfile.mkdtemp(prefix="corpus-"))
    dest = work / "src"
    shutil.copytree(src, dest, symlinks=True)
    if not setup:
        return dest, None
    proc = subprocess.run(setup, shell=True, cwd=dest, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        return dest, {"exit": proc.returncode, "tail": tail(proc.stdout + proc.stderr)}
    return dest, None


def file_hashes(cwd: Path, outputs: list[str]) -> dict[str, str | None]:
    hashes: dict[str, str | None] = {}
    for rel in outputs:
        path = cwd / rel
        hashes[rel] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    return hashes


def run_once(build: str, binary: Path, cwd: Path, args: list[str], recipe: dict[str, Any],
             symbols: list[str], ncu: str | None, env: dict[str, str], timeout: float,
             keep: Path | None = None) -> dict[str, Any]:
    """One run of one build (under ncu when symbols are given; its log
    copied to KEEP when given)."""
    outputs = list(recipe.get("outputs", []))
    for rel in outputs:
        (cwd / rel).unlink(missing_ok=True)
    log = cwd.parent / f"ncu-{build}.csv"
    log.unlink(missing_ok=True)
    cmd = [str(binary), *args]
    if symbols and ncu:
        cmd = [ncu, "--metrics", "gpu__time_duration.sum", "--cache-control", "none",
               "--clock-control", "none", "--kernel-name-base", "mangled", "--print-kernel-base", "mangled",
               "--kernel-name", kernel_regex(symbols), "--launch-count", str(LAUNCH_COUNT),
               "--csv", "--log-file", str(log), *cmd]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                              errors="replace", timeout=timeout)
        code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        code = 124
        stdout = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        stderr = f"timed out after {timeout} s"
    wall = time.monotonic() - start
    run: dict[str, Any] = {"build": build, "exit": code, "wall_s": round(wall, 4), "stdout": stdout,
                           "stderr_tail": tail(stderr, 40)}
    if outputs:
        run["outputs"] = file_hashes(cwd, outputs)
    if symbols and ncu:
        text = log.read_text(errors="replace") if log.is_file() else ""
        if keep:
            keep.write_text(text)
        try:
            found = parse_ncu_csv(text)
        except (ValueError, KeyError) as exc:
            found, run["ncu_error"] = {}, str(exc)
        run["kernels"] = {s: found.get(s, {"ms": 0.0, "launches": 0}) for s in symbols}
        unexpected = sorted(set(found) - set(symbols))
        if unexpected:
            run["ncu_other_kernels"] = unexpected
        if not found:
            run["ncu_log_tail"] = tail(text, 40)
    return run


def progress(name: str, run: dict[str, Any], index: int, total: int) -> None:
    times = ", ".join(f"{s[:40]} {k['ms']:.3f} ms/{k['launches']}" for s, k in run.get("kernels", {}).items())
    print(f"{name} {index}/{total} {run['build']}: exit {run['exit']}, {run['wall_s']:.2f} s"
          + (f"; {times}" if times else ""), flush=True)


def time_program(root: Path, name: str, entry: dict[str, Any], repeat: int, ncu: str | None,
                 env: dict[str, str], timeout: float, keep_logs: Path | None) -> dict[str, Any]:
    recipe = entry["recipe"]
    symbols = [k["symbol"] for k in entry.get("rewritten_kernels", [])]
    order = run_order(repeat) if symbols else list(BUILDS)
    dirs: dict[str, Path] = {}
    for build in BUILDS:
        dirs[build], failed = fresh_copy(root / name / "src", recipe.get("setup", ""), env)
        if failed:
            return {"error": f"setup failed in the {build} copy", "setup": failed}
    # ncu's --launch-count counts the launches of every kernel it matches:
    # with several rewritten kernels the first one would take them all, so
    # each run then profiles one kernel (a run per kernel and build slot).
    groups = [[s] for s in symbols] if len(symbols) > 1 else [symbols]
    runs = []
    for i, build in enumerate(order, 1):
        for j, group in enumerate(groups):
            slot = f"{i}.{j}" if len(groups) > 1 else str(i)
            keep = keep_logs / f"{name}-{slot}-{build}.ncu.csv" if keep_logs else None
            run = run_once(build, (root / name / build).resolve(), dirs[build], list(recipe["args"]), recipe,
                           group, ncu, env, timeout, keep)
            progress(name, run, i, len(order))
            runs.append(run)
    for d in dirs.values():
        shutil.rmtree(d.parent, ignore_errors=True)
    result = summarize(runs, symbols, recipe)
    result["order"] = order
    result["runs"] = [trimmed(r) for r in runs]
    return result


def trimmed(run: dict[str, Any], keep: int = 60) -> dict[str, Any]:
    """A run as the JSON keeps it: stdout's last KEEP lines, its line count
    and hash (compared already, in full)."""
    stdout = run["stdout"]
    return {**run, "stdout": tail(stdout, keep), "stdout_lines": len(stdout.splitlines()),
            "stdout_sha256": hashlib.sha256(stdout.encode()).hexdigest()}


SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck")


def sanitize_program(root: Path, name: str, entry: dict[str, Any], sanitizer: str, env: dict[str, str],
                     timeout: float, keep_logs: Path | None,
                     tools: tuple[str, ...] = ("memcheck", "racecheck")) -> dict[str, Any]:
    recipe = entry["recipe"]
    args = list(recipe.get("sanitize_args") or recipe["args"])
    result: dict[str, Any] = {}
    for tool in tools:
        cwd, failed = fresh_copy(root / name / "src", recipe.get("setup", ""), env)
        if failed:
            return {"error": f"setup failed before {tool}", "setup": failed}
        log = cwd.parent / f"{tool}.log"
        cmd = [sanitizer, "--tool", tool, "--log-file", str(log), str((root / name / "coalda").resolve()), *args]
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, errors="replace",
                                  timeout=timeout)
            code, stdout = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            code, stdout = 124, f"timed out after {timeout} s"
        text = log.read_text(errors="replace") if log.is_file() else ""
        count = sanitizer_count(text, tool)
        if keep_logs:
            (keep_logs / f"{name}-{tool}.log").write_text(text)
        entry_out: dict[str, Any] = {"exit": code, "count": count, "wall_s": round(time.monotonic() - start, 3),
                                     "verified": code == 0 and verify_stdout(stdout, recipe.get("verify", ""),
                                                                             recipe.get("fail", ""))}
        if code != 0 or count != 0:
            entry_out["tail"] = tail(text + "\n--- program output ---\n" + stdout)
        result[tool] = entry_out
        print(f"{name} {tool}: exit {code}, {count} {'hazards' if tool == 'racecheck' else 'errors'}, "
              f"{entry_out['wall_s']:.1f} s", flush=True)
        shutil.rmtree(cwd.parent, ignore_errors=True)
    return result


def write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path, help="the unpacked corpus (with manifest.json)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each build (default 3)")
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--phase", choices=("time", "sanitize", "all"), default="time")
    ap.add_argument("--out", type=Path, required=True, help="the results JSON")
    ap.add_argument("--shard", default="", help="K/N: only part K of N of the programs (for runs under a time limit)")
    ap.add_argument("--budget", type=float, default=0, help="start no program after this many seconds")
    ap.add_argument("--keep-logs", type=Path, default=None, help="copy every ncu and sanitizer log here")
    ap.add_argument("--run-timeout", type=float, default=300, help="seconds one run may take (default 300)")
    ap.add_argument("--tools", default="memcheck,racecheck",
                    help="comma-separated compute-sanitizer tools of the sanitize phase (default memcheck,racecheck; "
                         "synccheck may be added)")
    ap.add_argument("--no-ncu", action="store_true",
                    help="time phase without ncu: verification, wall time and stderr only (a reshaped build's "
                         "run-time choices, which ncu's serialized launches would distort)")
    return ap.parse_args(argv)


def fail(message: str) -> int:
    print(f"corpus_gpu: error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    opts = parse_args(argv)
    manifest_path = opts.dir / "manifest.json"
    if not manifest_path.is_file():
        return fail(f"{manifest_path} not found (unpack build/corpus.tar.gz first)")
    if opts.repeat < 1:
        return fail("--repeat must be at least 1")
    tools = tuple(t for t in opts.tools.split(",") if t)
    unknown = [t for t in tools if t not in SANITIZER_TOOLS]
    if unknown or not tools:
        return fail(f"--tools takes {', '.join(SANITIZER_TOOLS)}, not {opts.tools!r}")
    try:
        manifest = json.loads(manifest_path.read_text())
        programs = {n: e for n, e in manifest["programs"].items() if e.get("built")}
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return fail(f"{manifest_path}: not a corpus manifest ({type(exc).__name__}: {exc})")
    only = [n for n in opts.only.split(",") if n]
    unknown = [n for n in only if n not in programs]
    if unknown:
        return fail(f"not in the built corpus: {', '.join(unknown)}")
    names = only or sorted(programs)
    if opts.shard:
        try:
            names = shard(names, {n for n in names if programs[n].get("rewritten_kernels")}, opts.shard)
        except ValueError as exc:
            return fail(str(exc))
    ncu = None if opts.no_ncu else find_tool("ncu")
    sanitizer = find_tool("compute-sanitizer")
    if opts.phase in ("time", "all") and not ncu and not opts.no_ncu:
        return fail("ncu not found on PATH or under /usr/local/cuda*/bin")
    if opts.phase in ("sanitize", "all") and not sanitizer:
        return fail("compute-sanitizer not found on PATH or under /usr/local/cuda*/bin")
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [str((opts.dir / "lib").resolve()),
                                                           env.get("LD_LIBRARY_PATH", "")]))
    if opts.keep_logs:
        opts.keep_logs.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    out: dict[str, Any] = {
        "gpu": gpu_name(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": "python3 scripts/corpus_gpu.py " + shlex.join(argv), "phase": opts.phase,
        "repeat": opts.repeat, "ncu": ncu, "compute_sanitizer": sanitizer,
        "build": {k: manifest.get(k) for k in ("commit", "plugin_sha256", "built", "command")},
        "programs": {}, "skipped": [],
    }
    print(f"GPU: {out['gpu']}; ncu {ncu}; compute-sanitizer {sanitizer}", flush=True)
    for name in names:
        if opts.budget and time.monotonic() - started > opts.budget:
            out["skipped"].append(name)
            continue
        entry = programs[name]
        record: dict[str, Any] = {"rewritten_kernels": entry.get("rewritten_kernels", []),
                                  "recipe": entry["recipe"]}
        if opts.phase in ("time", "all"):
            record["time"] = time_program(opts.dir, name, entry, opts.repeat, ncu, env, opts.run_timeout,
                                         opts.keep_logs)
        if opts.phase in ("sanitize", "all") and entry.get("rewritten_kernels"):
            record["sanitize"] = sanitize_program(opts.dir, name, entry, str(sanitizer), env, opts.run_timeout,
                                                 opts.keep_logs, tools)
        out["programs"][name] = record
        write_json(opts.out, out)
    out["elapsed_s"] = round(time.monotonic() - started, 1)
    write_json(opts.out, out)
    if out["skipped"]:
        print(f"budget spent: skipped {', '.join(out['skipped'])}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
