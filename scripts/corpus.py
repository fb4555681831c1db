#!/usr/bin/env -S .venv/bin/python
"""The program corpus, end to end (corpus/README.md).

    scripts/corpus.py build [--only NAME,...] [--out build/corpus] [--corpus corpus] [--lineinfo]
        builds every recipe's program twice (coalda cc, and coalda cc
        -fno-coalda), records which kernels COALDA rewrote (coalda analyze),
        and packs OUT, self-contained, into OUT.tar.gz for the GPU machine.
        --lineinfo gives the device code a line table (nvcc's -lineinfo, for
        ptxas too) so that Nsight Compute can tell each instruction's source
        line (scripts/corpus_sectors.py); build it into its own --out, e.g.
        build/corpus-lineinfo: the timed runs' builds have none.
    python3 scripts/corpus_gpu.py DIR ...   (on the GPU machine) runs them.
    scripts/corpus.py report RUN.json [RUN2.json ...] [--gpu NAME] [--docs docs]
        merges the runs' results into docs/programs/results.json and
        docs/programs.md.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import click

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_gpu  # noqa: E402 -- the GPU script's verify and compare rules (stdlib only)
from corpus_census import CensusError, split_flags  # noqa: E402 -- the census reads flags the same way

ROOT = Path(__file__).resolve().parent.parent
COALDA = ROOT / ".venv" / "bin" / "coalda"
REQUIRED = {"dir": str, "sources": list, "args": list, "verify": str, "compare": str}
OPTIONAL = {"flags": list, "sanitize_args": list, "fail": str, "mask": str, "outputs": list,
            "setup": str, "note": str, "run": bool}
COMPARE_RULES = ("stdout", "files", "none")
MAX_JOBS = 2
STRIP_ABOVE = 40 * 1000 * 1000
BUILDS = ("coalda", "plain")
SKIP_SUFFIXES = (".o", ".a", ".so", ".obj", ".ptx", ".cubin", ".fatbin")


class RecipeError(Exception):
    """A recipe that cannot be used: one line naming it."""


# ---------------------------------------------------------------- recipes

def load_recipe(path: Path, corpus: Path) -> dict[str, Any]:
    """A recipe's fields, checked against corpus/README.md's schema."""
    try:
        recipe = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RecipeError(f"{path}: {exc}") from None
    for key, kind in REQUIRED.items():
        if not isinstance(recipe.get(key), kind):
            raise RecipeError(f"{path}: `{key}` must be a {kind.__name__}")
    for key, kind in OPTIONAL.items():
        if key in recipe and not isinstance(recipe[key], kind):
            raise RecipeError(f"{path}: `{key}` must be a {kind.__name__}")
    unknown = sorted(set(recipe) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise RecipeError(f"{path}: unknown keys {', '.join(unknown)}")
    if recipe["compare"] not in COMPARE_RULES:
        raise RecipeError(f"{path}: `compare` must be one of {', '.join(COMPARE_RULES)}")
    if not (corpus / recipe["dir"]).is_dir():
        raise RecipeError(f"{path}: program directory {corpus / recipe['dir']} not found")
    return recipe


def recipe_names(corpus: Path) -> list[str]:
    return sorted(p.stem for p in (corpus / "recipes").glob("*.toml"))


# ---------------------------------------------------------------- analysis

def analyze_args(flags: list[str], prog_dir: Path) -> list[str]:
    """A recipe's cc flags as `coalda analyze` options, as the census reads
    them (corpus_census.split_flags): -I made absolute from the program's
    directory, -D and -O as its own, link flags dropped, the rest after --."""
    try:
        own, clang = split_flags(tuple(flags), prog_dir.resolve())
    except CensusError as exc:
        raise RecipeError(str(exc)) from None
    return own + (["--", *clang] if clang else [])


def kernel_kinds(kernel: dict[str, Any]) -> list[str]:
    """What COALDA did to a kernel: "copy" for a rewritten group, the
    staging's kind ("element", "transposed", "window") and its tile
    ("element/warp") for a staging, "promotion" for a loop whose element it
    keeps in registers."""
    kinds = set()
    if any(g.get("transformed") for g in kernel.get("groups", [])):
        kinds.add("copy")
    for staging in kernel.get("stagings", []):
        if staging.get("transformed"):
            tile = staging.get("tile")
            kinds.add(f"{staging.get('kind', '?')}/{tile}" if tile else staging.get("kind", "?"))
    if any(p.get("transformed") for p in kernel.get("promotions", [])):
        kinds.add("promotion")
    return sorted(kinds)


def rewritten_kernels(report: dict[str, Any], source: str) -> list[dict[str, Any]]:
    """The kernels of one `coalda analyze` report that COALDA rewrote."""
    found = []
    for kernel in report.get("kernels", []):
        kinds = kernel_kinds(kernel)
        if kinds:
            found.append({"name": kernel["name"], "symbol": kernel["symbol"], "source": source, "kinds": kinds})
    return found


def analyze_program(recipe: dict[str, Any], prog_dir: Path, pass_args: tuple[str, ...] = (),
                    reports: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The rewritten kernels of every .cu source, one file at a time; a
    host-only file (no __global__ function) has none. PASS_ARGS go to the
    pass; each report is appended to REPORTS when given."""
    found: list[dict[str, Any]] = []
    for source in recipe["sources"]:
        if not source.endswith(".cu"):
            continue
        cmd = [str(COALDA), "analyze", source, "--format", "json", "-q",
               *(f"--pass-arg={a}" for a in pass_args), *analyze_args(recipe.get("flags", []), prog_dir)]
        proc = subprocess.run(cmd, cwd=prog_dir, capture_output=True, text=True)
        if proc.returncode == 1 and "defines no CUDA kernel" in proc.stderr:
            continue
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
            raise RecipeError(f"analyze failed ({last}): cd {prog_dir} && {shlex.join(cmd)}")
        (report,) = json.loads(proc.stdout)["reports"]  # one file: one report
        found += rewritten_kernels(report, source)
        if reports is not None:
            reports.append(report)
    return found


# ---------------------------------------------------------------- building

# nvcc's spelling (coalda cc: -gline-tables-only for clang), and ptxas's own
# -lineinfo, which keeps the line table in the cubin for Nsight Compute.
LINEINFO_FLAGS = ["-lineinfo", "-Xptxas", "-lineinfo"]


def cc_command(recipe: dict[str, Any], out: Path, plain: bool, lineinfo: bool = False,
               reshape: bool = False) -> list[str]:
    coalda = ["-fno-coalda"] if plain else (["-fcoalda-reshape"] if reshape else [])
    return [str(COALDA), "cc", "-arch", "sm_90", *coalda,
            *(LINEINFO_FLAGS if lineinfo else []), *recipe.get("flags", []), *recipe["sources"], "-o", str(out)]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_build_output(path: Path) -> bool:
    """An object, library or executable left by a build: not copied."""
    if path.suffix in SKIP_SUFFIXES:
        return True
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def copy_source(prog_dir: Path, dest: Path) -> None:
    def ignore(directory: str, names: list[str]) -> list[str]:
        return [n for n in names if n == "__pycache__" or
                ((Path(directory) / n).is_file() and is_build_output(Path(directory) / n))]
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(prog_dir, dest, ignore=ignore, symlinks=True)


def compile_one(name: str, build: str, recipe: dict[str, Any], corpus: Path, out: Path,
                lineinfo: bool = False, reshape: bool = False) -> tuple[float, str | None]:
    """One build of one program into OUT/NAME/BUILD: (seconds, the failure
    line naming the program and the command to reproduce it, or None)."""
    prog_dir = (corpus / recipe["dir"]).resolve()
    cmd = cc_command(recipe, (out / name / build).resolve(), plain=build == "plain", lineinfo=lineinfo,
                     reshape=reshape)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=prog_dir, capture_output=True, text=True)
    seconds = round(time.monotonic() - start, 2)
    if proc.returncode == 0:
        return seconds, None
    last = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    return seconds, f"{name}: {build} build failed ({last[:200]}): cd {prog_dir} && {shlex.join(cmd)}"


def finish_program(name: str, recipe: dict[str, Any], corpus: Path, out: Path, stamp: dict[str, Any],
                   builds: dict[str, tuple[float, str | None]]) -> dict[str, Any]:
    """The manifest entry of a program whose builds are done: its rewritten
    kernels and sources (with `error`, the one line to print, on failure)."""
    prog_dir = (corpus / recipe["dir"]).resolve()
    entry: dict[str, Any] = {"recipe": recipe, "built": False, **stamp}
    errors = [e for _, e in builds.values() if e]
    if errors:
        entry["error"] = errors[0]
        return entry
    try:
        entry["rewritten_kernels"] = analyze_program(recipe, prog_dir)
    except RecipeError as exc:
        entry["error"] = f"{name}: {exc}"
        return entry
    dest = out / name
    copy_source(prog_dir, dest / "src")
    entry.update(built=True, build_s={b: s for b, (s, _) in builds.items()}, src=f"{name}/src",
                 binaries={b: {"path": f"{name}/{b}", "sha256": sha256(dest / b)} for b in BUILDS})
    return entry


def git_commit() -> str:
    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    commit = git("rev-parse", "HEAD").stdout.strip() or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return commit + ("-dirty" if dirty else "")


def build_stamp() -> dict[str, Any]:
    from coalda.driver.toolchain import find_plugin
    plugin = find_plugin()
    return {"commit": git_commit(), "plugin_sha256": sha256(plugin)}


def copy_cudart(out: Path) -> None:
    from coalda.driver.cc import find_cudart
    from coalda.driver.toolchain import cuda_path
    (out / "lib").mkdir(parents=True, exist_ok=True)
    shutil.copy2(find_cudart(cuda_path()), out / "lib" / "libcudart.so.12", follow_symlinks=True)


def pack(out: Path) -> Path:
    tar = out.parent / f"{out.name}.tar.gz"
    with tarfile.open(tar, "w:gz") as f:
        f.add(out, arcname=out.name)
    return tar


def strip_binaries(out: Path, manifest: dict[str, Any]) -> None:
    for entry in manifest["programs"].values():
        for info in entry.get("binaries", {}).values():
            subprocess.run(["strip", str(out / info["path"])], check=True)
            info["sha256"] = sha256(out / info["path"])
            info["stripped"] = True


def merged_programs(out: Path, available: set[str], attempted: set[str], fresh: dict[str, Any]) -> dict[str, Any]:
    """This build's entries, and the previous manifest's entries for programs
    not attempted now whose recipe still exists and whose directory is there
    (so that --only rebuilds a few programs of a full corpus)."""
    old_path = out / "manifest.json"
    old = json.loads(old_path.read_text()).get("programs", {}) if old_path.is_file() else {}
    kept = {n: e for n, e in old.items() if n not in attempted and n in available and (out / n).is_dir()}
    return dict(sorted({**kept, **fresh}.items()))


# ---------------------------------------------------------------- report

def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def merge_runs(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per program, the last time result and the last sanitize result found
    in RUNS (given in order: a later run wins)."""
    merged: dict[str, dict[str, Any]] = {}
    for run in runs:
        for name, record in run.get("programs", {}).items():
            target = merged.setdefault(name, {})
            target["rewritten_kernels"] = record.get("rewritten_kernels", [])
            for phase in ("time", "sanitize"):
                if phase in record:
                    target[phase] = record[phase]
    return merged


def rounded(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def rechecked(name: str, timed: dict[str, Any], corpus: Path) -> dict[str, Any]:
    """TIMED's verdicts again, from its recorded runs and NAME's current
    recipe, where every run's stdout was kept whole (a recipe's regex or mask
    fixed after the GPU run: the outputs are the run's, only the reading is
    new). `rechecked` says whether it was done."""
    runs = timed.get("runs") or []
    path = corpus / "recipes" / f"{name}.toml"
    whole = runs and all(r.get("stdout_lines", 0) <= len(r["stdout"].splitlines()) for r in runs)
    if not whole or not path.is_file():
        return {**timed, "rechecked": False}
    recipe = load_recipe(path, corpus)
    return {**timed, "rechecked": True,
            "verified": all(corpus_gpu.run_verified(r, recipe) for r in runs),
            "equal": corpus_gpu.all_equal(runs, recipe)}


def program_result(name: str, record: dict[str, Any]) -> dict[str, Any]:
    timed = record.get("time") or {}
    per_kernel = timed.get("kernels", {})
    kernels = []
    for k in record.get("rewritten_kernels", []):
        t = per_kernel.get(k["symbol"], {})
        kernels.append({"name": k["name"], "symbol": k["symbol"], "kinds": k["kinds"],
                        "plain_ms": rounded(t.get("plain_ms")), "coalda_ms": rounded(t.get("coalda_ms")),
                        "speedup": rounded(t.get("speedup"))})
    sanitized = record.get("sanitize") or {}
    return {
        "name": name, "rewritten_kernels": kernels,
        "verified": timed.get("verified"), "equal": timed.get("equal"),
        "plain_ms": rounded(timed.get("plain_ms")), "coalda_ms": rounded(timed.get("coalda_ms")),
        "speedup": rounded(timed.get("speedup")),
        "sanitizer": {"memcheck_errors": (sanitized.get("memcheck") or {}).get("count"),
                      "racecheck_hazards": (sanitized.get("racecheck") or {}).get("count")},
        "rechecked": timed.get("rechecked", False),
    }


def report_data(runs: list[dict[str, Any]], gpu: str | None, command: str,
                corpus: Path | None = None) -> dict[str, Any]:
    merged = merge_runs(runs)
    if corpus:
        for name, record in merged.items():
            if record.get("time"):
                record["time"] = rechecked(name, record["time"], corpus)
    programs = [program_result(n, r) for n, r in sorted(merged.items())]
    speedups = [k["speedup"] for p in programs for k in p["rewritten_kernels"] if k["speedup"]]
    timed = [r for r in runs if r.get("phase") in ("time", "all")] or runs
    commits = sorted({(r.get("build") or {}).get("commit") or "unknown" for r in runs})
    return {
        "gpu": gpu or (timed[0].get("gpu", "unknown").split(",")[0].strip() if timed else "unknown"),
        # every run's day, in order: a program re-run later says so
        "date": ", ".join(sorted({r.get("date", "")[:10] for r in timed if r.get("date")})),
        "command": command,
        "commit": ", ".join(commits),
        "programs": programs,
        "geomean_speedup_rewritten_kernels": rounded(geomean(speedups)),
    }


def cell(value: Any, fmt: str = "{:.3f}") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "**no**"
    return fmt.format(value) if isinstance(value, float) else str(value)


def sanitizer_cell(s: dict[str, Any]) -> str:
    if s["memcheck_errors"] is None and s["racecheck_hazards"] is None:
        return "-"
    return f"{cell(s['memcheck_errors'])} errors / {cell(s['racecheck_hazards'])} hazards"


def markdown(data: dict[str, Any]) -> str:
    lines = [
        "# COALDA on real programs", "",
        f"GPU: {data['gpu']}. Date: {data['date']}. Commit: {data['commit']}.", "",
        "Each program is built twice by `coalda cc -arch sm_90` (with the COALDA plugin, and with "
        "`-fno-coalda`), run alternately from fresh copies of its directory, and timed by ncu over the "
        "kernels COALDA rewrote (gpu__time_duration.sum, medians over the runs; speedup = plain / coalda). "
        "verified: every run exited 0 and passed the recipe's own check; equal: the two builds' outputs "
        "agree (corpus/README.md). Sanitizer: the coalda build under compute-sanitizer memcheck and "
        "racecheck.", "",
        "Reproduce:", "", "```", *data["command"].split("\n"), "```", "",
        "| program | rewritten kernels | verified | equal | plain ms | coalda ms | speedup | sanitizer |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for p in data["programs"]:
        rewrites = "; ".join(f"{k['name']} ({', '.join(k['kinds'])})" for k in p["rewritten_kernels"]) or "none"
        lines.append(f"| {p['name']} | {rewrites} | {cell(p['verified'])} | {cell(p['equal'])} | "
                     f"{cell(p['plain_ms'])} | {cell(p['coalda_ms'])} | {cell(p['speedup'], '{:.2f}x')} | "
                     f"{sanitizer_cell(p['sanitizer'])} |")
    kernels = [(p["name"], k) for p in data["programs"] for k in p["rewritten_kernels"]]
    lines += ["", "| program | kernel | kinds | plain ms | coalda ms | speedup |", "|---|---|---|---|---|---|"]
    lines += [f"| {n} | {k['name']} | {', '.join(k['kinds'])} | {cell(k['plain_ms'])} | {cell(k['coalda_ms'])} | "
              f"{cell(k['speedup'], '{:.2f}x')} |" for n, k in kernels]
    slow = [f"{n}: {k['name']} ({k['speedup']:.2f}x)" for n, k in kernels if k["speedup"] and k["speedup"] < 0.98]
    lines += ["", f"Geometric mean speedup over the {sum(1 for _, k in kernels if k['speedup'])} timed rewritten "
              f"kernels: {cell(data['geomean_speedup_rewritten_kernels'], '{:.3f}x')}.", "",
              "Kernels below 0.98x: " + ("none." if not slow else ""), *[f"- {s}" for s in slow], ""]
    notes = ROOT / "docs" / "programs" / "notes.md"
    if notes.is_file():  # what the tables cannot say (hand-written, kept across reports)
        lines += [notes.read_text().rstrip(), ""]
    return "\n".join(lines)


def shown_path(path: Path) -> str:
    """PATH relative to the repository when it lies inside it."""
    resolved = path.resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(path)


def reproduce_command(runs: list[dict[str, Any]], paths: list[Path], gpu: str | None) -> str:
    gpu_cmds = sorted({r.get("command", "") for r in runs if r.get("command")})
    builds = sorted({(r.get("build") or {}).get("command") or "scripts/corpus.py build" for r in runs})
    report = "scripts/corpus.py report " + " ".join(shlex.quote(shown_path(p)) for p in paths)
    if gpu:
        report += f" --gpu {shlex.quote(gpu)}"
    return "\n".join([*builds,
                      "# on the GPU machine:", "tar xzf build/corpus.tar.gz -C /tmp", *gpu_cmds,
                      "# here:", report])


# ---------------------------------------------------------------- CLI

def die(message: str) -> None:
    click.echo(f"corpus: error: {message}", err=True)
    sys.exit(2)


@click.group()
def cli() -> None:
    """Build, and report on, the program corpus (corpus/README.md)."""


@cli.command()
@click.option("--only", default="", help="Comma-separated recipe names (default: all).")
@click.option("--out", type=click.Path(path_type=Path), default=ROOT / "build" / "corpus", show_default=True)
@click.option("--corpus", "corpus", type=click.Path(path_type=Path), default=ROOT / "corpus", show_default=True,
              help="The corpus directory (recipes/ and the programs).")
@click.option("--jobs", type=click.IntRange(1, MAX_JOBS), default=MAX_JOBS, show_default=True)
@click.option("--lineinfo", is_flag=True,
              help="Device code with a line table (-lineinfo, for ptxas too), for Nsight Compute's "
                   "source view; use its own --out.")
@click.option("--reshape", is_flag=True,
              help="The coalda build with the run-time choice of every rewrite against its code as "
                   "written too (coalda cc -fcoalda-reshape, issue 40; grid variants are in every "
                   "coalda build); use its own --out.")
def build(only: str, out: Path, corpus: Path, jobs: int, lineinfo: bool, reshape: bool) -> None:
    """Build every program with and without COALDA, record its rewritten
    kernels, and pack OUT into OUT.tar.gz."""
    if not COALDA.is_file():
        die(f"{COALDA} not found; run make setup")
    available = recipe_names(corpus)
    names = [n for n in only.split(",") if n] or available
    missing = [n for n in names if n not in available]
    if missing:
        die(f"no recipe {', '.join(missing)} in {corpus / 'recipes'}")
    if not names:
        die(f"no recipes in {corpus / 'recipes'}")
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    stamp = build_stamp()
    failures: list[str] = []
    recipes: dict[str, dict[str, Any]] = {}
    for name in names:
        try:
            recipe = load_recipe(corpus / "recipes" / f"{name}.toml", corpus)
        except RecipeError as exc:
            failures.append(f"{name}: {exc}")
            continue
        if recipe.get("run", True):
            recipes[name] = recipe
        else:  # census only: its note says why it is not built and run
            click.echo(f"{name}: census only, not built (run = false)")
    start = time.monotonic()
    for name in recipes:
        shutil.rmtree(out / name, ignore_errors=True)
        (out / name).mkdir(parents=True)
    jobs_list = [(name, b) for name in recipes for b in BUILDS]

    def compile_job(job: tuple[str, str]) -> tuple[float, str | None]:
        return compile_one(*job[:2], recipes[job[0]], corpus, out, lineinfo, reshape)

    def finish(name: str, builds: dict[str, tuple[float, str | None]]) -> dict[str, Any]:
        entry = finish_program(name, recipes[name], corpus, out, stamp, builds)
        status = entry.get("error") or (f"{name}: built in {sum(entry['build_s'].values()):.1f} s, rewrote "
                                        f"{', '.join(k['name'] for k in entry['rewritten_kernels']) or 'nothing'}")
        click.echo(status, err="error" in entry)
        return entry

    with ThreadPoolExecutor(jobs) as pool:
        compiled = dict(zip(jobs_list, pool.map(compile_job, jobs_list)))
        names_built = list(recipes)
        fresh = dict(zip(names_built, pool.map(
            lambda n: finish(n, {b: compiled[(n, b)] for b in BUILDS}), names_built)))
    failures += [e["error"] for e in fresh.values() if "error" in e]
    copy_cudart(out)
    programs = merged_programs(out, set(available), set(names), fresh)
    partial = set(programs) <= set(names) and only
    command = "scripts/corpus.py build" + (f" --only {only}" if partial else "")
    if lineinfo or reshape:
        command += (" --lineinfo" if lineinfo else "") + (" --reshape" if reshape else "") + \
            f" --out {shown_path(out)}"
    manifest = {**stamp, "built": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "command": command, **({"lineinfo": True} if lineinfo else {}),
                **({"reshape": True} if reshape else {}),
                "build_s": round(time.monotonic() - start, 1), "programs": programs}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    tar = pack(out)
    if tar.stat().st_size > STRIP_ABOVE:
        strip_binaries(out, manifest)
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        tar = pack(out)
    built = sum(1 for e in manifest["programs"].values() if e.get("built"))
    click.echo(f"{tar}: {tar.stat().st_size / 1e6:.1f} MB, {built} programs built")
    if failures:
        click.echo(f"{len(failures)} failed:", err=True)
        for line in failures:
            click.echo(line, err=True)
        sys.exit(1)


@cli.command()
@click.option("--corpus", "corpus", type=click.Path(path_type=Path), default=ROOT / "corpus", show_default=True)
def launches(corpus: Path) -> None:
    """Which rewritten kernels of the built programs get a grid variant
    in a `coalda cc` build (issue 40), and why the others do
    not: `coalda analyze --pass-arg=-coalda-reshape-launches` over every
    source with its recipe's flags. No GPU."""
    names = recipe_names(corpus)
    if not names:
        die(f"no recipes in {corpus / 'recipes'}")
    taken = kept = 0
    for name in names:
        try:
            recipe = load_recipe(corpus / "recipes" / f"{name}.toml", corpus)
            if not recipe.get("run", True):
                continue
            reports: list[dict[str, Any]] = []
            analyze_program(recipe, (corpus / recipe["dir"]).resolve(), ("-coalda-reshape-launches",), reports)
        except RecipeError as exc:
            die(f"{name}: {exc}")
        for kernel in (k for r in reports for k in r.get("kernels", []) if k.get("launch")):
            launch = kernel["launch"]
            taken += launch["reshaped"]
            kept += not launch["reshaped"]
            form = f" [{launch['form']}]" if launch.get("form") else ""
            click.echo(f"{name}: {kernel['name']}: {launch['reason']}{form}")
    click.echo(f"{taken} rewritten kernels get a variant, {kept} keep their launch")


@cli.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--gpu", default=None, help="The GPU's name (default: as the first run recorded it).")
@click.option("--docs", type=click.Path(path_type=Path), default=ROOT / "docs", show_default=True)
@click.option("--recheck/--no-recheck", default=True, show_default=True,
              help="Verify and compare the recorded outputs again with the current recipes.")
def report(runs: tuple[Path, ...], gpu: str | None, docs: Path, recheck: bool) -> None:
    """Merge corpus_gpu.py's RUNS (time and sanitize) into
    DOCS/programs/results.json and DOCS/programs.md."""
    data = []
    for path in runs:
        try:
            loaded = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            die(f"{path}: not a readable run JSON ({exc})")
        if not isinstance(loaded, dict) or not isinstance(loaded.get("programs"), dict):
            die(f"{path}: not a corpus_gpu.py result (no programs)")
        data.append(loaded)
    result = report_data(data, gpu, reproduce_command(data, list(runs), gpu), ROOT / "corpus" if recheck else None)
    (docs / "programs").mkdir(parents=True, exist_ok=True)
    (docs / "programs" / "results.json").write_text(json.dumps(result, indent=1) + "\n")
    (docs / "programs.md").write_text(markdown(result))
    click.echo(f"{docs / 'programs.md'}: {len(result['programs'])} programs, geomean "
               f"{cell(result['geomean_speedup_rewritten_kernels'], '{:.3f}x')}")


if __name__ == "__main__":
    cli()
