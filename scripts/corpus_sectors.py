#!/usr/bin/env python3
"""COALDA's sector estimate against Nsight Compute on the program corpus:
every global access of the corpus kernels the programs launch, the 32-byte
sectors per warp request `coalda analyze --format json` estimates (linear
accesses: coalda/findings/diagnostics.py; accesses read lane by lane, `lane` "warp":
the pass's own `sectors`) against the sectors per request ncu measured on
the plain build (`memory_l2_theoretical_sectors_global` over `inst_executed`
per source line, loads and stores apart: what scripts/ncu_validate.py
measures on the testcases, read by its code).

Three steps, on two machines:

    # here: both builds of every program, with a line table in the device code,
    # and the probe programs (PROBES: the lane forms the corpus lacks)
    .venv/bin/python scripts/corpus.py build --lineinfo --out build/corpus-lineinfo
    .venv/bin/python scripts/corpus_sectors.py probes            # -> build/ncu-probes

    # on the GPU machine (python3, ncu; standard library and ncu's own
    # ncu_report module only), carrying both .tar.gz:
    tar xzf build/corpus-lineinfo.tar.gz -C /tmp; tar xzf build/ncu-probes.tar.gz -C /tmp
    python3 scripts/corpus_sectors.py measure /tmp/corpus-lineinfo OUT1 [--only A,B] [--budget S]
    python3 scripts/corpus_sectors.py measure /tmp/ncu-probes OUT2

    # here, OUT1 and OUT2 copied back (measured.csv, kernels.csv, meta.json):
    .venv/bin/python scripts/corpus_sectors.py merge OUT1 OUT2 --into docs/runs/ncu-corpus
    .venv/bin/python scripts/corpus_sectors.py table          # -> estimates.json, docs/cost-validation-corpus.md
    .venv/bin/python scripts/corpus_sectors.py table --reuse  # the doc again from the committed estimates.json

`measure` runs each program's plain build (no COALDA rewrite) once, on its
recipe's small `sanitize_args` (`--full-args`: the timed `args`), under
`ncu --section SourceCounters --kernel-id :::1`: the first launch of every
kernel the program launches is profiled. The report is read per SASS
instruction with ncu_report (scripts/ncu_validate.py's reader; where that
module cannot be imported, from the source page's CSV and nvdisasm's line
table of the binary's cubins) and summed per (kernel, file, line, load/store).

`table` runs `coalda analyze --format json` over every .cu source of the
measured programs, with each recipe's flags as the census reads them
(scripts/corpus_census.py), keeps the global accesses of the measured
kernels in docs/runs/ncu-corpus/estimates.json, and joins them with the
measurement by kernel symbol, file name and line, as ncu_validate's `table`
does. tests/test_cost_validation_corpus.py checks that the committed doc is
what the committed CSV and estimates give, and, on a sample of files, that
the estimates are today's `coalda analyze`.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ncu_validate as nv  # noqa: E402 -- the reading of SourceCounters and the table's rows
from corpus_gpu import find_tool, fresh_copy, tail, verify_stdout  # noqa: E402 -- stdlib only

REPO = Path(__file__).resolve().parent.parent
RUNS = REPO / "docs" / "runs" / "ncu-corpus"
DOC = REPO / "docs" / "cost-validation-corpus.md"
ESTIMATES = "estimates.json"
PROBE_BUILD = REPO / "build" / "ncu-probes"
# Programs of our own beside the corpus: the accesses the corpus lacks in
# global memory (its kernels have no lane-exact global access). Built like
# a corpus program (`probes`), measured and tabled apart from it.
PROBES: dict[str, dict[str, Any]] = {
    "probe-lane-exact": {"dir": "testcases/ncu", "sources": ["lane_exact.cu"], "flags": ["-O3"], "args": [],
                         "verify": "^PASS$", "compare": "none",
                         "note": "bitwise lane forms (t & 31, t >> 2, t ^ 1, t % 4, t | 1, selects, a parameter "
                                 "struct's pointers), full warps"},
}
KERNEL_ID = ":::1"  # context:stream:name:invocation -- every kernel's first launch
NCU_FLAGS = ["--section", "SourceCounters", "--metrics", ",".join(nv.KERNEL_METRICS),
             "--clock-control", "none", "--cache-control", "none"]
KERNEL_CSV_FIELDS = ["program", "kernel", "symbol", *nv.KERNEL_METRICS]
# The access keys an estimate and the table's cells need (estimates.json).
ACCESS_KEYS = ("file", "line", "column", "kind", "width", "piece", "stride", "stride_expr", "offset", "expr", "lane",
               "lane_offsets", "class", "space", "coalesced", "sectors", "ideal_sectors", "sector_aligned", "requests",
               "vector")
FULL_WARP = nv.WARP - 0.05


def log(msg: str) -> None:
    print(msg, flush=True)


# --------------------------------------------------------------------------
# measure (on the GPU machine): standard library, ncu and ncu_report only
# --------------------------------------------------------------------------

def program_args(recipe: dict[str, Any], full: bool) -> list[str]:
    """The recipe's small run (`sanitize_args`) where it has one, else its timed run."""
    return list(recipe["args"] if full or "sanitize_args" not in recipe else recipe["sanitize_args"])


def corpus_relative(path: str) -> str:
    """A line table's file name from the `corpus/` directory on (where the
    program was built does not matter), else as given."""
    path = path.replace("\\", "/")
    m = re.search(r"(?:^|/)(corpus/.*)$", path)
    return m.group(1) if m else path


def relative_sums(sums: nv.LineSums) -> nv.LineSums:
    """SUMS with each file named by corpus_relative (rows that then coincide summed)."""
    out = nv.LineSums()
    for (symbol, file, line, kind), row in sums.rows.items():
        key = (symbol, corpus_relative(file), line, kind)
        if key not in out.rows:
            out.rows[key] = row
            continue
        into = out.rows[key]
        into["instructions"] += row["instructions"]
        into["detail"] += row["detail"]
        into["sass"] += [op for op in row["sass"] if op not in into["sass"]]
        for k in nv.PC_METRICS:
            into[k] += row[k]
    return out


def run_group(cmd: list[str], logf: Any, timeout: int, **kw: Any) -> subprocess.CompletedProcess[str]:
    """ncu_validate._run, but ncu and the program it runs in a session of
    their own, ended together when the time is up."""
    logf.write("$ " + " ".join(cmd) + "\n")
    logf.flush()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        logf.write(f"timed out after {timeout} s\n")
        return subprocess.CompletedProcess(cmd, 124, out, (err or "") + f"\ntimed out after {timeout} s")
    logf.write(err[-4000:] + "\n")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _import_ncu_report(ncu: str) -> Any:
    folder = nv.find_ncu_report(ncu)
    if not folder:
        return None
    sys.path.insert(0, folder)
    try:
        import ncu_report  # type: ignore[import-not-found]  # noqa: PLC0415

        return ncu_report
    except Exception as exc:  # noqa: BLE001 - then the CSV pages
        log(f"cannot import ncu_report from {folder}: {exc}")
        return None


def _disassembly(binary: Path, logf: Any, timeout: int) -> str:
    """nvdisasm -g of every cubin in BINARY's fatbin (cuobjdump -xelf)."""
    cuobjdump, nvdisasm = find_tool("cuobjdump"), find_tool("nvdisasm")
    if not (cuobjdump and nvdisasm):
        return ""
    with tempfile.TemporaryDirectory() as tmp:
        nv._run([cuobjdump, "-xelf", "all", str(binary)], logf, timeout, cwd=tmp)
        return "\n".join(nv._run([nvdisasm, "-g", "-c", str(c)], logf, timeout).stdout
                         for c in sorted(Path(tmp).glob("*.cubin")))


def read_source_page(ncu: str, rep: Path, binary: Path, logf: Any, timeout: int,
                     raw: Path, name: str, sums: nv.LineSums) -> int:
    """The fallback: the source page (kernels named by their mangled
    symbols) and nvdisasm's line table of the binary's cubins."""
    page = nv._run([ncu, "--import", str(rep), "--page", "source", "--csv", "--print-source", "sass",
                    "--print-units", "base", "--print-kernel-base", "mangled"], logf, timeout).stdout
    (raw / f"{name}.source.csv").write_text(page)
    dis = _disassembly(binary, logf, timeout)
    (raw / f"{name}.nvdisasm.txt").write_text(dis)
    titles = [" ".join(b["banner"]).split()[-1] if b["banner"] else "" for b in nv.split_source_csv(page)]
    launched = [{"name": t, "symbol": t, "ok": True} for t in titles]
    return nv.read_source_csv(page, nv.parse_nvdisasm(dis), launched, [], sums)


def write_outputs(out: Path, meta: dict[str, Any], sums_by_program: dict[str, nv.LineSums],
                  names: dict[str, dict[str, str]], methods: dict[str, str], kernel_rows: list[dict[str, Any]]) -> int:
    """measured.csv (ncu_validate's columns: group = program), kernels.csv, meta.json."""
    manifest = {"groups": [{"name": p, "source": p, "kernels": [{"symbol": s, "name": n} for s, n in names[p].items()]}
                           for p in sorted(sums_by_program)]}
    n = nv.write_measured(out / "measured.csv", manifest, sums_by_program, methods)
    with (out / "kernels.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=KERNEL_CSV_FIELDS)
        w.writeheader()
        w.writerows(kernel_rows)
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    return n


def measure(root: Path, out: Path, only: list[str], budget: int, timeout: int, full: bool,
            kernel_id: str = KERNEL_ID) -> int:
    start = time.time()
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((root / "manifest.json").read_text())
    if not manifest.get("lineinfo"):
        log(f"warning: {root} was not built with --lineinfo: ncu will find no source lines")
    ncu = find_tool("ncu")
    if ncu is None:
        sys.exit("measure: ncu not found")
    raw = Path(tempfile.mkdtemp(prefix="ncu-corpus-"))
    logf = (raw / "measure.log").open("w")
    smi = shutil.which("nvidia-smi")
    meta: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": " ".join(["python3", "scripts/corpus_sectors.py", *sys.argv[1:]]),
        "ncu": ncu, "ncu_version": nv._run([ncu, "--version"], logf, 60).stdout.strip().splitlines()[-1:],
        "gpu": nv._run([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"], logf, 60).stdout.strip()
        if smi else "unknown",
        "python": sys.version.split()[0], "kernel_id": kernel_id, "args": "full" if full else "sanitize",
        "build": {k: manifest.get(k) for k in ("commit", "plugin_sha256", "built", "command")},
        "programs": {}, "problems": [],
    }
    ncu_report = _import_ncu_report(ncu)
    meta["ncu_report"] = bool(ncu_report)
    env = dict(os.environ, LD_LIBRARY_PATH=f"{root / 'lib'}:{os.environ.get('LD_LIBRARY_PATH', '')}")
    sums_by_program: dict[str, nv.LineSums] = {}
    names: dict[str, dict[str, str]] = {}
    methods: dict[str, str] = {}
    kernel_rows: list[dict[str, Any]] = []
    programs = {n: e for n, e in sorted(manifest["programs"].items()) if e.get("built") and (not only or n in only)}
    for name, entry in programs.items():
        recipe = entry["recipe"]
        args = program_args(recipe, full)
        left = budget - (time.time() - start)
        record: dict[str, Any] = {"args": args}
        meta["programs"][name] = record
        if left < 15:
            record["status"] = "not measured: the time budget is spent"
            meta["problems"].append(f"{name}: {record['status']}")
            continue
        t0 = time.time()
        cwd, failure = fresh_copy(root / entry["src"], recipe.get("setup", ""), env)
        binary = (root / entry["binaries"]["plain"]["path"]).resolve()
        rep = raw / f"{name}.ncu-rep"
        try:
            if failure:
                record.update(status="setup failed", setup=failure)
                meta["problems"].append(f"{name}: setup failed")
                continue
            cmd = [ncu, *NCU_FLAGS, "--kernel-id", kernel_id, "--export", str(rep.with_suffix("")), "--force-overwrite", str(binary), *args]
            proc = run_group(cmd, logf, int(min(timeout, left)), cwd=cwd, env=env)
            (raw / f"{name}.ncu.txt").write_text(tail(proc.stdout, 400) + "\n--- stderr\n" + tail(proc.stderr, 400))
            record.update(exit=proc.returncode, verified=proc.returncode == 0 and verify_stdout(
                proc.stdout, recipe.get("verify", ""), recipe.get("fail", "")))
            if not rep.is_file():
                record["status"] = "no report"
                meta["problems"].append(f"{name}: no report (exit {proc.returncode}): {proc.stderr.strip()[-200:]}")
                continue
            sums = nv.LineSums()
            kmetrics: dict[str, dict[str, float]] = {}
            method = ""
            if ncu_report is not None:
                try:
                    kmetrics = nv.read_with_ncu_report(rep, None, [], ncu_report, sums)
                    method = "ncu_report"
                except Exception as exc:  # noqa: BLE001 - the CSV pages then
                    logf.write(f"{name}: ncu_report failed: {type(exc).__name__}: {exc}\n")
                    sums = nv.LineSums()
            if not method:
                if read_source_page(ncu, rep, binary, logf, timeout, raw, name, sums):
                    method = "source-csv+nvdisasm"
            sums = relative_sums(sums)
            sums_by_program[name] = sums
            methods[name] = method
            names[name] = {}
            for symbol, values in kmetrics.items():
                kernel_rows.append({"program": name, "kernel": symbol, "symbol": symbol,
                                    **{m: ("" if values.get(m) != values.get(m) else int(round(values.get(m, 0))))
                                       for m in nv.KERNEL_METRICS}})
            for symbol, *_ in sums.rows:
                names[name].setdefault(symbol, symbol)
            lined = sum(1 for _, _, line, _ in sums.rows if line)
            record.update(status="measured" if lined else "no source lines", method=method,
                          kernels=len({s for s, *_ in sums.rows}), lines=len(sums.rows))
            if not lined:
                meta["problems"].append(f"{name}: no global access with a source line")
        except subprocess.TimeoutExpired:
            record["status"] = "timed out"
        finally:
            shutil.rmtree(cwd.parent, ignore_errors=True)
            record["seconds"] = round(time.time() - t0, 1)
            meta["seconds"] = round(time.time() - start)
            write_outputs(out, meta, sums_by_program, names, methods, kernel_rows)
            log(f"{name}: {record.get('status')}, {record.get('kernels', 0)} kernels, {record.get('lines', 0)} lines, "
                f"exit {record.get('exit')}, verified {record.get('verified')} ({record['seconds']} s)")
    n = write_outputs(out, meta, sums_by_program, names, methods, kernel_rows)
    logf.close()
    nv.pack_raw(raw, out)
    log(f"wrote {out}/measured.csv ({n} rows) in {time.time() - start:.0f} s")
    for p in meta["problems"]:
        log(f"problem: {p}")
    return 0 if n else 1


def build_probes(out: Path) -> int:
    """PROBES' plain builds with a line table, as `scripts/corpus.py build
    --lineinfo` builds the corpus: OUT/manifest.json and OUT.tar.gz."""
    import corpus  # noqa: PLC0415 -- the corpus driver (click, coalda)

    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    programs: dict[str, Any] = {}
    for name, recipe in PROBES.items():
        (out / name / "src").mkdir(parents=True)
        cmd = corpus.cc_command(recipe, (out / name / "plain").resolve(), plain=True, lineinfo=True)
        proc = subprocess.run(cmd, cwd=REPO / recipe["dir"], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"probes: {name} did not build: {proc.stderr.strip()[-400:]}")
        programs[name] = {"recipe": recipe, "built": True, "src": f"{name}/src",
                          "binaries": {"plain": {"path": f"{name}/plain", "sha256": corpus.sha256(out / name / "plain")}}}
    corpus.copy_cudart(out)
    stamp = corpus.build_stamp()
    manifest = {**stamp, "command": f"scripts/corpus_sectors.py probes --out {corpus.shown_path(out)}",
                "lineinfo": True, "programs": programs}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    tar = corpus.pack(out)
    log(f"{tar}: {len(programs)} probes")
    return 0


def measured_dates(meta: dict[str, Any]) -> str:
    """When the programs were measured: one date, or each date with the
    programs measured then (OUTs merged from runs on different days)."""
    by_date: dict[str, list[str]] = defaultdict(list)
    for name, record in meta.get("programs", {}).items():
        by_date[record.get("date") or meta.get("date", "?")].append(name)
    if len(by_date) <= 1:
        return next(iter(by_date), meta.get("date", "?"))
    return "; ".join(f"{date} ({', '.join(sorted(names)) if len(names) <= 3 else f'{len(names)} programs'})"
                     for date, names in sorted(by_date.items()))


def merge(outs: list[Path], into: Path) -> int:
    """The OUTs of several measure calls as one: a later OUT's programs win."""
    rows: dict[str, list[dict[str, str]]] = {}
    kernels: dict[str, list[dict[str, str]]] = {}
    meta: dict[str, Any] = {}
    for out in outs:
        m = json.loads((out / "meta.json").read_text())
        with (out / "measured.csv").open(newline="") as f:
            measured = list(csv.DictReader(f))
        with (out / "kernels.csv").open(newline="") as f:
            krows = list(csv.DictReader(f))
        for name, record in m["programs"].items():
            if record.get("status") in ("measured", "no source lines") or name not in meta.get("programs", {}):
                rows[name] = [r for r in measured if r["group"] == name]
                kernels[name] = [r for r in krows if r["program"] == name]
                # when this program was measured: OUTs merged at different times keep theirs
                meta.setdefault("programs", {})[name] = {**record, "date": record.get("date") or m.get("date", "?")}
        meta.update({k: v for k, v in m.items() if k not in ("programs", "problems", "build", "builds", "commands")})
        meta.setdefault("builds", []).extend(m.get("builds") or [m.get("build") or {}])
        meta.setdefault("commands", []).extend(m.get("commands") or [m["command"]])
    meta["problems"] = [f"{n}: {r['status']}" for n, r in meta["programs"].items()
                        if r.get("status") not in ("measured",)]
    into.mkdir(parents=True, exist_ok=True)
    with (into / "measured.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=nv.MEASURED_FIELDS)
        w.writeheader()
        for name in sorted(rows):
            w.writerows(rows[name])
    with (into / "kernels.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=KERNEL_CSV_FIELDS)
        w.writeheader()
        for name in sorted(kernels):
            w.writerows(kernels[name])
    meta["programs"] = dict(sorted(meta["programs"].items()))
    (into / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    log(f"wrote {into}: {sum(map(len, rows.values()))} measured lines of {len(rows)} programs")
    return 0


# --------------------------------------------------------------------------
# table (here)
# --------------------------------------------------------------------------

def corpus_estimate(access: dict[str, Any]) -> int | None:
    """Sectors per warp request COALDA estimates for one access: the pass's
    count for an access read lane by lane (`lane` "warp"), else what
    `coalda analyze` computes for a linear access (ncu_validate.estimate)."""
    if access.get("lane") == "warp":
        if access.get("space", "global") != "global" or access.get("sectors") is None:
            return None
        return int(access["sectors"])
    return nv.estimate(access)


def reduced(access: dict[str, Any]) -> dict[str, Any]:
    return {k: access[k] for k in ACCESS_KEYS if k in access}


def extract(report: dict[str, Any], symbols: set[str]) -> list[dict[str, Any]]:
    """The global accesses of REPORT's kernels in SYMBOLS, as
    coalda.report.findings merges them (one per source access, with its
    count), reduced to what an estimate needs."""
    from coalda.findings.diagnostics import sector_cost  # noqa: PLC0415
    from coalda.report import findings  # noqa: PLC0415

    kernels = []
    for kernel in report["kernels"]:
        if kernel["symbol"] not in symbols:
            continue
        rows = [{"access": reduced({**a, **sector_cost(a)}), "count": c}
                for a, c, *_ in findings(report, kernel) if a.get("space", "global") == "global"]
        kernels.append({"name": kernel["name"], "symbol": kernel["symbol"], "findings": rows})
    return kernels


def analyze_programs(programs: list[str], symbols: dict[str, set[str]], jobs: int) -> dict[str, Any]:
    """`coalda analyze --format json` of every .cu source of PROGRAMS, as the
    census runs it; {source: {program, kernels}} with the measured kernels
    (SYMBOLS per program) alone."""
    import corpus_census as census  # noqa: PLC0415

    recipes = census.load_recipes([p for p in programs if p not in PROBES])
    work = census.jobs_for(recipes)
    for name in (p for p in programs if p in PROBES):
        probe = PROBES[name]
        own, clang = census.split_flags(tuple(probe["flags"]), Path(probe["dir"]))
        for source in probe["sources"]:
            argv = [str(census.COALDA), "analyze", f"{probe['dir']}/{source}", "--format", "json", "-q", *own,
                    *(["--", *clang] if clang else [])]
            work.append(census.Job(name, source, argv, Path(probe["dir"])))
    outcomes = census.run_all(work, jobs, show=False)
    sources: dict[str, Any] = {}
    for (program, source), outcome in sorted(outcomes.items()):
        if outcome.report is None:
            if outcome.status != census.HOST_ONLY:
                log(f"{program}/{source}: {outcome.status}: {outcome.message}")
            continue
        sources[f"{program}/{source}"] = {"program": program,
                                          "kernels": extract(outcome.report, symbols.get(program, set()))}
    return sources


def source_rows(measured: list[dict[str, Any]], sources: dict[str, Any]) -> list[dict[str, Any]]:
    """MEASURED with `source` the analyzed file that defines each row's
    kernel (where several do, the one with an access at the row's line)."""
    where: dict[tuple[str, str], list[str]] = defaultdict(list)
    lines: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for source, entry in sources.items():
        for k in entry["kernels"]:
            where[(entry["program"], k["symbol"])].append(source)
            lines[source] |= {(k["symbol"], Path(f["access"].get("file", "")).name + f":{f['access']['line']}")
                              for f in k["findings"]}
    out = []
    for r in measured:
        found = where.get((r["group"], r["symbol"]), [])
        here = [s for s in found if (r["symbol"], f"{Path(r['file']).name}:{r['line']}") in lines[s]]
        out.append({**r, "source": (here or found or [f"{r['group']}/?"])[0]})
    return out


def _findings_of(report: dict[str, Any], kernel: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    return [(f["access"], f["count"]) for f in kernel["findings"]]


def load(runs: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """(rows, extra, meta, estimates) from RUNS: measured.csv, meta.json, estimates.json."""
    measured = nv.read_measured(runs / "measured.csv")
    estimates = json.loads((runs / ESTIMATES).read_text())
    meta = json.loads((runs / "meta.json").read_text()) if (runs / "meta.json").is_file() else {}
    sources = estimates["sources"]
    measured = source_rows(measured, sources)
    rows, extra = nv.build_rows(measured, sources, estimator=corpus_estimate, findings_of=_findings_of)
    for r in rows:
        r["program"] = sources[r["source"]]["program"]
    return rows, extra, meta, estimates


# ---- the classes of difference

SASS_WIDTHS = (("128", 16), ("64", 8), ("U16", 2), ("S16", 2), ("U8", 1), ("S8", 1))


def sass_width(op: str) -> int:
    """Bytes per lane of a global load or store (LDG.E.128: 16; LDG.E: 4)."""
    parts = op.split(".")[1:]
    return next((w for suffix, w in SASS_WIDTHS if suffix in parts), 4)


def narrower_than_stride(access: dict[str, Any]) -> bool:
    """An access linear in the lane at a power-of-two stride of 2 to 16
    bytes, narrower than the stride: one the backend may merge with its
    neighbours into a vector as wide as the stride (`vector`)."""
    s = access.get("stride")
    return (isinstance(s, int) and 2 <= s <= 16 and s & (s - 1) == 0 and int(access["width"]) < s
            and access.get("lane") not in ("warp", "none"))


def vector_checks(rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], bool, bool]]:
    """(row, the pass predicts a vector, the SASS has one as wide as the
    stride) for each measured row with an access narrower than its stride."""
    out = []
    for r in rows:
        accesses = [a for a in r["accesses"] if narrower_than_stride(a)]
        if not r["measured"] or not accesses:
            continue
        strides = {a["stride"] for a in accesses}
        made = any(sass_width(op) in strides for op in r["measured"]["sass"].split())
        out.append((r, any(a.get("vector") for a in accesses), made))
    return out


def render_vectors(rows: list[dict[str, Any]]) -> list[str]:
    checks = vector_checks(rows)
    if not checks:
        return []
    n = Counter((p, m) for _, p, m in checks)
    out = ["## Vectors the backend makes", "",
           "An access narrower than its power-of-two stride (a float2's `.x`) is coalesced when LLVM's load/store "
           "vectorizer merges it with its neighbours into one vector as wide as the stride (LDG.E.64 for a float2): "
           "the pass predicts it (`vector`, pass/lib/BackendVectors.cpp) and findings class such an access as "
           "coalesced. Against the SASS at each measured line with such an access:", "",
           f"- predicted, and the SASS has the vector: **{n[(True, True)]}**; predicted, scalar SASS: "
           f"**{n[(True, False)]}**",
           f"- not predicted, scalar SASS: {n[(False, False)]}; not predicted, the SASS has the vector: "
           f"{n[(False, True)]}", ""]
    wrong = [(r, p) for r, p, m in checks if p != m]
    out += [f"- {r['program']}: `{r['kernel']}` {nv._base(r['file'])}:{r['line']} {r['kind']} "
            f"(`{', '.join(r['patterns'])[:60]}`): {'predicted' if p else 'not predicted'}, SASS "
            f"{r['measured']['sass']}" for r, p in wrong]
    return out + ([""] if wrong else [])


def estimate_kind(r: dict[str, Any]) -> str:
    """Where the row's estimate comes from: `warp` (the pass, lane by lane),
    `linear` (a stride in threadIdx.x or the global index), `uniform` (one
    address for the warp), `mixed`."""
    lanes = set(r["lanes"])
    if lanes == {"warp"}:
        return "warp"
    if "warp" in lanes:
        return "mixed"
    if lanes == {"none"}:
        return "uniform"
    return "linear"


CLASSES = {
    "partial warps": (
        "fewer than 32 lanes were active in some requests (a block or a grid-stride loop's tail, a "
        "guard on the index, one thread of a block storing its result, the small sizes of "
        "`sanitize_args`): fewer lanes touch fewer sectors. The estimate is for a full warp."),
    "2-D block rows": (
        "the address steps with threadIdx.y and the block is narrower than a warp (16×16 blocks in "
        "aobench, colorwheel and gaussian's fan2, 16×64 in matern, 8×8 in overlay): a warp is two or "
        "four partial rows, each starting its own sectors, where the estimate, like the pass, takes a "
        "warp to be 32 consecutive threadIdx.x of one row."),
    "instruction width": (
        "the backend moved the access with a wider (or narrower) instruction than the IR access "
        "COALDA reads (LLVM's load/store vectorizer or ptxas merged neighbouring loads into one "
        "LDG.E.64/.128, or split one), and the sectors per request changed with it."),
    "several accesses": (
        "the line has several SASS instructions of the kind whose sectors per request differ, or "
        "another number of them than COALDA's accesses: the estimate is the mean per IR access, the "
        "measurement per executed request, and the two need not pair up (code the backend moved to the "
        "line, an access executed more often than its neighbours)."),
    "unaligned start": (
        "full warps touched more sectors than the estimate: the warp's first address is not on a "
        "32-byte boundary at run time (a run-time term of the address, such as a loop's `t` or a "
        "row offset, that puts the start elsewhere). The estimate assumes an aligned start wherever "
        "the address does not fix it."),
    "fewer sectors": (
        "full warps touched fewer sectors than the estimate: the lanes' addresses at run time overlap "
        "more than the static form says."),
}


def _steps_with_tid_y(r: dict[str, Any]) -> bool:
    return any(re.search(r"(^|[ *+(])tid\.y\b", str(a.get("expr", ""))) for a in r.get("accesses", []))


def difference_class(r: dict[str, Any]) -> str | None:
    """Why a row's estimate and measurement differ (None: within 0.5%): the
    first class of CLASSES that the measurement (active lanes, the SASS
    instructions and their ratios) and the accesses' addresses show. Fewer
    active lanes can only touch fewer sectors, so they explain an estimate
    above the measurement alone."""
    m = r["measured"]
    err = nv.rel_error(r["estimate"], nv.per_request(m))
    if err is None or abs(err) < 0.005:
        return None
    lanes = nv.active_lanes(m)
    if err > 0 and lanes is not None and lanes < FULL_WARP:
        return "partial warps"
    if err < 0 and _steps_with_tid_y(r):
        return "2-D block rows"
    widths = {sass_width(op) for op in m["sass"].split()}
    pieces = {p for _, p in r["width"]}
    if estimate_kind(r) != "warp" and widths and widths != pieces:
        return "instruction width"
    if len(nv.instruction_ratios(m)) > 1 or r["count"] != m["instructions"] or len(r["estimates"]) > 1:
        return "several accesses"
    return "unaligned start" if err < 0 else "fewer sectors"


def tally(rows: list[dict[str, Any]]) -> dict[str, int]:
    errs = [nv.rel_error(r["estimate"], nv.per_request(r["measured"])) for r in rows]
    compared = [e for e in errs if e is not None]
    return {"compared": len(compared), "exact": sum(1 for e in compared if abs(e) < 0.005),
            "within10": sum(1 for e in compared if abs(e) <= 0.10)}


def compared(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if nv.rel_error(r["estimate"], nv.per_request(r["measured"])) is not None]


def full_warp_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if nv.full_warps(r)]


HEADER = [*nv.TABLE_HEADER, "from", "difference"]


def unknown_reasons(estimates: dict[str, Any]) -> Counter[str]:
    """Why the corpus's measured kernels have global accesses COALDA cannot
    read: the pass's words (its `expr` of an unknown access), per source access."""
    out: Counter[str] = Counter()
    for entry in estimates["sources"].values():
        if entry["program"] in PROBES:
            continue
        for k in entry["kernels"]:
            for f in k["findings"]:
                a = f["access"]
                if a.get("lane") == "unknown" or a.get("class") == "unknown":
                    why = re.sub(r"^<unknown: (.*)>$", r"\1", str(a.get("expr", "?")))
                    out[re.sub(r" \(.*", "", why) if why.startswith("the address is chosen") else why] += 1
    return out


def row_cells(r: dict[str, Any]) -> list[str]:
    """A per-access row: ncu_validate's cells, where the estimate comes from, the class of difference."""
    return [*nv.row_cells(r), estimate_kind(r) if r["estimate"] is not None else "–", difference_class(r) or ""]


def builds(meta: dict[str, Any]) -> list[dict[str, Any]]:
    return meta.get("builds") or [meta.get("build") or {}]


def measure_commands(meta: dict[str, Any]) -> list[str]:
    return meta.get("commands") or [meta.get("command") or
                                    "python3 scripts/corpus_sectors.py measure /tmp/corpus-lineinfo $OUT"]


def measure_outs(meta: dict[str, Any]) -> list[str]:
    """The OUT argument of each measure command."""
    outs = []
    for cmd in measure_commands(meta):
        words = [w for w in cmd.split() if not w.startswith("-")]
        outs.append(words[4] if len(words) > 4 else "OUT")
    return outs


def build_dirs(meta: dict[str, Any]) -> list[str]:
    """The build directories the reproduce commands unpack (from each build's --out)."""
    dirs = []
    for b in builds(meta):
        m = re.search(r"--out\s+(\S+)", b.get("command") or "")
        dirs.append(m.group(1) if m else "build/corpus-lineinfo")
    return dirs


def render(rows: list[dict[str, Any]], extra: list[dict[str, Any]], meta: dict[str, Any],
           estimates: dict[str, Any]) -> str:
    both = compared(rows)
    out = ["# COALDA's sector estimate against Nsight Compute, on the corpus", ""]
    out += [
        "For every global access of the corpus kernels the programs launched, the 32-byte sectors per warp",
        "request COALDA estimates (`coalda analyze --format json`: for an access linear in the lane,",
        "coalda/findings/diagnostics.py from its stride and start; for one read lane by lane, `lane` \"warp\"",
        "(`tid & 31`, `tid >> 2`, `t ^ 1`, a pointer from a parameter struct), the pass's own `sectors`",
        "from the 32 lanes' offsets) against what Nsight Compute measured on the program's plain build",
        "(`coalda cc -fno-coalda`, the code `coalda analyze` reads: clang at the recipe's -O):",
        "`memory_l2_theoretical_sectors_global` over `inst_executed`, summed over the SASS instructions of",
        "each source line, loads and stores apart (SourceCounters, the metric of",
        "[cost-validation.md](cost-validation.md)). Rows are joined by kernel symbol, file name and line.",
        "",
        "Generated by `scripts/corpus_sectors.py table` from [`runs/ncu-corpus/measured.csv`](runs/ncu-corpus/measured.csv)",
        f"and [`runs/ncu-corpus/{ESTIMATES}`](runs/ncu-corpus/{ESTIMATES}) (the accesses of the measured kernels, as",
        "`coalda analyze` reported them); `tests/test_cost_validation_corpus.py` checks that this file is what",
        "they give, and that the estimates of a sample of files are today's. Reproduce:",
        "",
        "```sh",
        *[b.get("command") or "?" for b in builds(meta)],
        "# on the GPU machine, carrying " + ", ".join(f"{b}.tar.gz" for b in build_dirs(meta)) + ":",
        *[f"tar xzf {b}.tar.gz -C /tmp" for b in build_dirs(meta)],
        *measure_commands(meta),
        *(["# here, each OUT copied back:",
            f"scripts/corpus_sectors.py merge {' '.join(measure_outs(meta))} --into docs/runs/ncu-corpus"]
          if len(measure_commands(meta)) > 1 else
          ["# here: OUT's measured.csv, kernels.csv and meta.json into docs/runs/ncu-corpus/"]),
        "scripts/corpus_sectors.py table",
        "```",
        "",
    ]
    if meta:
        build = builds(meta)[0]
        out += [
            f"Measured {measured_dates(meta)} on {meta.get('gpu', '?')} (GPU, driver), Nsight Compute "
            f"{' '.join(meta.get('ncu_version') or ['?'])}; built at commit `{str(build.get('commit', '?'))[:12]}` "
            f"(plugin sha256 `{str(build.get('plugin_sha256', '?'))[:12]}`); estimates from commit "
            f"`{str(estimates.get('commit', '?'))[:12]}`. Each program ran once on its recipe's "
            f"{'timed `args`' if meta.get('args') == 'full' else '`sanitize_args` (its small run; `args` where it has none)'}, "
            f"with the first launch of every kernel profiled (`--kernel-id {meta.get('kernel_id', KERNEL_ID)}`).",
            "",
        ]
    progs = meta.get("programs", {})
    ours = [r for r in rows if r["program"] in PROBES]
    rows_c = [r for r in rows if r["program"] not in PROBES]
    s = nv.summary(rows_c)
    both_c = compared(rows_c)
    extra_c = [m for m in extra if m["group"] not in PROBES]
    out += ["## Summary", "", "The corpus (corpus/recipes/*.toml):", ""]
    out += [
        f"- {len([p for p in progs if p not in PROBES]) or '?'} programs run under ncu; "
        f"{len({r['program'] for r in rows_c if r['measured']})} of them have measured accesses that COALDA reports, "
        f"in {len({(r['program'], r['symbol']) for r in rows_c if r['measured']})} kernels.",
        f"- {s['rows']} source accesses (kernel, line, load/store) of the measured kernels; **{s['compared']} have both an "
        f"estimate and a measurement**.",
        f"- Estimate equal to the measurement (within 0.5%): **{s['exact']} of {s['compared']}**; within 10%: "
        f"**{s['within10']}**; over-estimates by more than 10%: {s['over']}; under-estimates: {s['under']}.",
    ]
    ft = tally(full_warp_rows(both_c))
    out.append(f"- Of the {ft['compared']} whose requests all had 32 active lanes, {ft['exact']} are equal and "
               f"{ft['within10']} within 10%.")
    if s["compared"]:
        out.append(f"- Relative error |estimate − measured| / measured: median {nv._pct(s['median_abs'])}, mean "
                   f"{nv._pct(s['mean_abs'])}, max {nv._pct(s['max_abs'])}.")
    lane_exact = [r for r in both_c if estimate_kind(r) in ("warp", "mixed")]
    unread = unknown_reasons(estimates)
    out += [
        f"- Lane-exact accesses (`lane` \"warp\") among them: {len(lane_exact)}"
        + ("" if lane_exact else "; the probe below has them") + ". The measured kernels' global accesses COALDA "
        f"cannot read ({sum(unread.values())}): " + "; ".join(f"{n} {why}" for why, n in unread.most_common(6))
        + (f"; {sum(unread.values()) - sum(n for _, n in unread.most_common(6))} other" if len(unread) > 6 else "")
        + ".",
        f"- Measured but not estimated (a run-time stride, an access COALDA cannot read): {s['no_estimate']}; "
        f"estimated but no SASS instruction measured at that line (not executed in the profiled launch, or the "
        f"backend merged or moved it): {s['no_instruction']}.",
        f"- Measured global accesses at lines where COALDA reports none of that kind: {len(extra_c)}.",
        "",
    ]
    if ours:
        sp = nv.summary(ours)
        out += [
            "The probe (ours, not the corpus: " + "; ".join(
                f"`{PROBES[n]['dir']}/{', '.join(PROBES[n]['sources'])}`, {PROBES[n]['note']}" for n in sorted(
                    {r['program'] for r in ours})) + "):",
            "",
            f"- {sp['rows']} source accesses; {sp['compared']} with both numbers "
            f"({len([r for r in compared(ours) if estimate_kind(r) == 'warp'])} lane-exact); equal: **{sp['exact']}**; "
            f"within 10%: {sp['within10']}; measured but not estimated: {sp['no_estimate']}.",
            "",
        ]
    out += [
        "By where the estimate comes from:",
        "",
        "| programs | estimate from | accesses | equal (0.5%) | within 10% | full warps | equal, full warps |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for group, part_rows in (("corpus", rows_c), ("probe", ours)):
        for kind, label in (("linear", "linear (stride × lane, diagnostics.py)"),
                            ("uniform", "uniform (one address per warp)"),
                            ("warp", "lane-exact (`lane` \"warp\", the pass)"), ("mixed", "mixed")):
            part = [r for r in compared(part_rows) if estimate_kind(r) == kind]
            if not part and (kind == "mixed" or group == "probe"):
                continue
            t, tf = tally(part), tally(full_warp_rows(part))
            out.append(f"| {group} | {label} | {t['compared']} | {t['exact']} | {t['within10']} | {tf['compared']} | "
                       f"{tf['exact']} |")
    out.append("")
    out += render_vectors(rows_c)
    classes = Counter(c for c in map(difference_class, both) if c)
    if classes:
        out += ["## Why they differ", "",
                "Each access whose estimate and measurement differ by more than 0.5%, by the first of these that "
                "applies (read from the measurement: active lanes, the SASS instructions, their ratios):", ""]
        for name, text in CLASSES.items():
            if classes.get(name):
                part = [r for r in both if difference_class(r) == name]
                out.append(f"- **{name}** ({classes[name]}: {len([r for r in part if estimate_kind(r) == 'warp'])} "
                           f"lane-exact): {text}")
        out.append("")
    def err(r: dict[str, Any]) -> float:
        return nv.rel_error(r["estimate"], nv.per_request(r["measured"])) or 0.0

    def line(r: dict[str, Any]) -> str:
        m = r["measured"]
        lanes = nv.active_lanes(m)
        return (f"- {r['program']}: `{r['kernel']}` {nv._base(r['file'])}:{r['line']} {r['kind']} "
                f"(`{', '.join(r['patterns'])[:60]}`, {m['sass']}): estimate {nv._fmt(r['estimate'])}, measured "
                f"{nv._fmt(nv.per_request(m))} ({nv._pct(err(r))}; "
                f"{nv._fmt(lanes, 1) if lanes is not None else '?'} active lanes): {difference_class(r)}.")

    ranked = sorted(both, key=lambda r: (-abs(err(r)), r["program"], r["kernel"], r["line"], r["kind"]))
    worst = [r for r in ranked if abs(err(r)) > 0.10 and difference_class(r) == "partial warps"][:10]
    others = [r for r in ranked if difference_class(r) not in (None, "partial warps")]
    if worst:
        out += ["The largest differences from partial warps:", "", *map(line, worst), ""]
    if others:
        out += ["Every other difference:", "", *map(line, others), ""]
    out += ["## Programs", "",
            "| program | args | exit | verified | kernels profiled | accesses compared | equal | within 10% |",
            "|---|---|---:|---|---:|---:|---:|---:|"]
    for name, rec in sorted(progs.items()):
        part = [r for r in both if r["program"] == name]
        t = tally(part)
        args = " ".join(rec.get("args") or []) or "(none)"
        status = rec.get("status", "?")
        out.append(f"| {name} | `{args}` | {rec.get('exit', '–')} | "
                   f"{'yes' if rec.get('verified') else 'no' if 'verified' in rec else '–'}"
                   f"{'' if status == 'measured' else f' ({status})'} | {rec.get('kernels', 0)} | "
                   f"{t['compared']} | {t['exact']} | {t['within10']} |")
    unverified = sorted(n for n, rec in progs.items() if rec.get("verified") is False)
    out += ["", "*verified*: the run exited 0 and its stdout passed the recipe's `verify` and `fail`, checks written "
            "for the timed `args`" + (f" (the small runs of {', '.join(unverified)} do not print what they look for; "
                                      "the sectors do not depend on it)" if unverified else "") + ".", ""]
    out += ["## Per access", ""]
    for source in sorted({r["source"] for r in rows}):
        part = [r for r in rows if r["source"] == source and r["measured"]]
        if not part:
            continue
        out += [f"### `{source}`", "", "| " + " | ".join(HEADER) + " |",
                "|" + "|".join("---:" if h in ("estimate", "measured", "error", "warp requests", "L1 tag requests",
                                               "active lanes") else "---" for h in HEADER) + "|"]
        for r in part:
            out.append("| " + " | ".join(row_cells(r)) + " |")
        out.append("")
    out += [
        "Columns as in [cost-validation.md](cost-validation.md): *estimate* and *measured* are sectors per warp",
        "request (several accesses of a kind at a line, ×N: the mean, with the distinct values in parentheses);",
        "*error* is (estimate − measured) / measured; *active lanes* the threads per executed instruction;",
        "*from*: linear, uniform or warp (lane-exact); *difference*: the class above. Only accesses with a",
        "measurement are listed; `–`: no estimate (a run-time stride or an access COALDA cannot read).",
        "",
    ]
    return "\n".join(out)


def generate(runs: Path = RUNS) -> str:
    rows, extra, meta, estimates = load(runs)
    return render(rows, extra, meta, estimates)


def write_estimates(runs: Path, jobs: int) -> dict[str, Any]:
    """estimates.json: today's `coalda analyze` of the measured programs."""
    measured = nv.read_measured(runs / "measured.csv")
    symbols: dict[str, set[str]] = defaultdict(set)
    for r in measured:
        symbols[r["group"]].add(r["symbol"])
    sources = analyze_programs(sorted(symbols), symbols, jobs)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    data = {"commit": commit, "command": "scripts/corpus_sectors.py table", "sources": sources}
    (runs / ESTIMATES).write_text(json.dumps(data, indent=None, separators=(",", ":"), sort_keys=True)
                                  .replace('},{"access"', '},\n{"access"') + "\n")
    return data


# --------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("measure", help="on the GPU machine: each program's plain build under ncu -> OUT/measured.csv")
    p.add_argument("build", type=Path, help="an unpacked `scripts/corpus.py build --lineinfo`")
    p.add_argument("out", type=Path)
    p.add_argument("--only", default="", help="comma-separated program names")
    p.add_argument("--skip", default="", help="comma-separated program names left out")
    p.add_argument("--budget", type=int, default=480, help="seconds after which no further program is started")
    p.add_argument("--timeout", type=int, default=120, help="seconds for one program under ncu")
    p.add_argument("--full-args", action="store_true", help="the timed `args`, not `sanitize_args`")
    p.add_argument("--kernel-id", default=KERNEL_ID, help="ncu's --kernel-id: which launches are profiled")
    p = sub.add_parser("probes", help="here: the probe programs' plain builds with a line table, packed")
    p.add_argument("--out", type=Path, default=PROBE_BUILD)
    p = sub.add_parser("merge", help="here: several measure OUTs into one (a later one's programs win)")
    p.add_argument("outs", nargs="+", type=Path)
    p.add_argument("--into", type=Path, default=RUNS)
    p = sub.add_parser("table", help="here: estimates.json and docs/cost-validation-corpus.md")
    p.add_argument("--runs", type=Path, default=RUNS)
    p.add_argument("--out", type=Path, default=DOC)
    p.add_argument("--reuse", action="store_true", help="the committed estimates.json, no coalda analyze")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    if args.cmd == "measure":
        only = [n for n in args.only.split(",") if n]
        skip = {n for n in args.skip.split(",") if n}
        manifest = json.loads((args.build / "manifest.json").read_text())
        chosen = [n for n in (only or sorted(manifest["programs"])) if n not in skip]
        return measure(args.build.resolve(), args.out.resolve(), chosen, args.budget, args.timeout, args.full_args,
                       args.kernel_id)
    if args.cmd == "probes":
        return build_probes(args.out.resolve())
    if args.cmd == "merge":
        return merge(args.outs, args.into)
    if args.cmd == "table":
        if not (args.runs / "measured.csv").is_file():
            sys.exit(f"table: no {args.runs / 'measured.csv'}: run measure on the GPU machine and copy its OUT here")
        if not args.reuse:
            write_estimates(args.runs, args.jobs)
        args.out.write_text(generate(args.runs))
        log(f"wrote {args.out}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
