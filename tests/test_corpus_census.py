"""The corpus census (scripts/corpus_census.py): its counting on a small
synthetic report, its process handling (a timeout, an out-of-memory child, a
peak measured), its bad-input lines, and a census of a fixed SAMPLE of
programs whose rewrites must equal the pinned census's (docs/programs/census.json).

The whole corpus is `make census`; when a change of the pass moves a rewrite,
review the lines --check prints and rerun
`.venv/bin/python scripts/corpus_census.py --update`.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "corpus_census.py"
PINNED = REPO / "docs" / "programs" / "census.json"

# Chosen for speed (1-4 s each on one core) and variety: aligned-types (copy
# groups, template kernels), dslash (two host-only files; its window is
# refused since the 07:53 cost rules), matrixT (a transposed staging),
# page-rank (a window), pso (an element staging; a .cpp the census leaves
# out), nqueen (uncoalesced, nothing rewritten).
SAMPLE = ("aligned-types", "dslash", "matrixT", "nqueen", "page-rank", "pso")


def _load_script() -> Any:
    spec = importlib.util.spec_from_file_location("corpus_census", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_census"] = module
    spec.loader.exec_module(module)
    return module


cc = _load_script()
PROGRAM_DIR = Path("corpus/hecbench/toy-cuda")


def _access(klass: str, line: int, **extra: Any) -> dict[str, Any]:
    return {"class": klass, "space": "global", "file": f"{PROGRAM_DIR}/main.cu", "line": line,
            "reason": "", **extra}


REPORT: dict[str, Any] = {
    "kernels": [
        {
            "name": "copy3",
            "accesses": [
                _access("uncoalesced", 10, group=0),
                _access("uncoalesced", 11, group=1),
                _access("coalesced", 12),
                _access("unknown", 13, reason="non-linear xor of a thread-dependent value"),
                _access("unknown", 14, reason="the address is chosen at run time (select) between the buffers b and a"),
                _access("uniform", 15, file=f"{PROGRAM_DIR}/../common/helpers.h"),
                _access("uncoalesced", 16, file="/usr/lib/cuda/include/vector_types.h"),
                {**_access("coalesced", 17), "space": "shared"},
            ],
            "groups": [
                {"line": 10, "transformed": True},
                {"line": 11, "transformed": False, "missed": "SourceStride"},
                {"line": 12, "transformed": False, "missed": "AlreadyCoalesced"},
            ],
            "stagings": [],
        },
        {
            "name": "stage",
            "accesses": [
                _access("uncoalesced", 20, staging=0),
                _access("uncoalesced", 21, staging=0, left_out="1-byte members"),
                _access("uncoalesced", 30, staging=1),
            ],
            "groups": [],
            "stagings": [
                {"line": 20, "kind": "element", "tile": "warp", "transformed": True},
                {"line": 30, "kind": "window", "transformed": False, "missed": "StagingCostRule"},
                {"line": 40, "kind": "transposed", "tile": "block", "transformed": True},
            ],
        },
        {"name": "big", "accesses": [], "groups": [], "skipped": "COALDA skipped kernel `big`: 60123 instructions"},
    ]
}


# ---------------------------------------------------------------- counting

def test_counts_of_a_synthetic_report() -> None:
    fc = cc.count_report(REPORT, PROGRAM_DIR, "toy/main.cu")
    assert fc.kernels == 3
    assert fc.rewrites == ["toy/main.cu:copy3:copy:10", "toy/main.cu:stage:element:20",
                           "toy/main.cu:stage:transposed:40"]
    c = fc.counts
    assert c["accesses"]["own"]["global"] == {"uncoalesced": 5, "coalesced": 1, "unknown": 2}
    assert c["accesses"]["own"]["shared"] == {"coalesced": 1}
    assert c["accesses"]["header"]["global"] == {"uniform": 1, "uncoalesced": 1}
    assert c["rewrites"] == {"copy": 1, "element warp": 1, "transposed block": 1}
    assert c["refused"]["copy group"] == {"SourceStride": 1, "AlreadyCoalesced": 1}
    assert c["refused"]["window staging"] == {"StagingCostRule": 1}
    assert c["refused"]["kernel"] == {"skipped: over the analysis budget": 1}
    assert c["refused"]["unknown access"] == {"non-linear xor of a thread-dependent value": 1,
                                              "the address is chosen at run time": 1}
    # the group at 10 and the staged access at 20; not the one left out of
    # the staging (21), the refused group (11) or window (30), nor the header's
    assert c["own_uncoalesced_global"] == {"total": 5, "rewritten": 2}


def test_totals_sum_the_rows() -> None:
    one = cc.count_report(REPORT, PROGRAM_DIR, "toy/main.cu")
    rows = [{"file": f"toy{i}/main.cu", "status": "ok", "kernels": 3, "seconds": 1.5, "peak_mb": 100.0,
             "over_budget": False, "counts": one.counts} for i in range(2)]
    rows.append({"file": "toy0/host.cu", "status": "host-only", "kernels": 0, "seconds": 1.0, "peak_mb": 90.0,
                 "over_budget": False, "counts": {}})
    t = cc.totals(rows)
    assert (t["programs"], t["files"], t["kernels"], t["seconds"]) == (2, 3, 6, 4.0)
    assert t["status"] == {"host-only": 1, "ok": 2}
    assert t["counts"]["accesses"]["own"]["global"]["uncoalesced"] == 10
    assert t["counts"]["own_uncoalesced_global"] == {"total": 10, "rewritten": 4}
    md = cc.markdown(cc.census(rows, one.rewrites * 2, 3.0))
    assert "own-code uncoalesced global accesses rewritten: 4 of 10 (40.0%)" in md
    assert "unknown share of own-code accesses: 4 of 18 (22.2%)" in md
    assert "AlreadyCoalesced" not in md  # not a refusal: nothing to do
    assert "kernels the pass skipped (over its analysis budget): 2" in md


@pytest.mark.parametrize(("reason", "words"), [
    ("non-linear xor of a thread-dependent value", "non-linear xor of a thread-dependent value"),
    ("phi that threads may reach from different paths (a branch on a thread-dependent value)",
     "phi that threads may reach from different paths"),
    ("the address is chosen at run time (phi) among 2 in, q: a pointer stepped", "the address is chosen at run time"),
    ("data-dependent index (loaded from memory)", "data-dependent index"),
    ("", "?"),
])
def test_reason_words(reason: str, words: str) -> None:
    assert cc.reason_words(reason) == words


KERNEL_WHY: dict[str, Any] = {
    "groups": [{"missed": "ComputedValue"}, {"missed": "SourceStride"}],
    "stagings": [{"missed": "StagingCostRule"}, {"missed": "StagingInLoop"}],
    "promotions": [{"missed": "PromotionConditionalStore", "transformed": False}],
}


@pytest.mark.parametrize(("access", "kernel", "why"), [
    ({"staging": 0}, KERNEL_WHY, "cost rule: staging StagingCostRule"),
    ({"staging": 1, "group": 0}, KERNEL_WHY, "reason: staging StagingInLoop"),
    ({"group": 1}, KERNEL_WHY, "reason: group SourceStride"),
    ({"promotion": 0}, KERNEL_WHY, "reason: promotion PromotionConditionalStore"),
    # a computed "copy" with a shape: no staging took it
    ({"group": 0, "shape": "column"}, KERNEL_WHY, "no candidate: column"),
    ({"staging": 0, "left_out": "pts's 64-byte elements are read only, in loads the backend makes 8 bytes wide, "
                                "which L1 serves well"}, KERNEL_WHY,
     "cost rule: left out of a staging: X's N-byte elements are read only, in loads the backend makes 8"),
    ({"staging": 1, "left_out": "the stores to d_fat write part of its 288-byte element, which has more than 64 "
                                "4-byte units"}, KERNEL_WHY,
     "reason: left out of a staging: the stores to X write part of its N-byte element, which has"),
    ({"shape": "element"}, {"groups": [], "promotions": [{"transformed": True}]},
     "reason: its kernel's loop is promoted (no other rewrite in that kernel)"),
    ({"shape": "chunk"}, {"groups": []}, "no candidate: chunk"),
])
def test_why_not_rewritten(access: dict[str, Any], kernel: dict[str, Any], why: str) -> None:
    assert cc.why_not_rewritten(access, kernel) == why


def test_recipe_flags() -> None:
    own, clang = cc.split_flags(
        ("-std=c++17", "-O2", "-I../include", "-I", "inc", "-DLDIM=32", "-D", "X", "-lm", "-isystem", "sys",
         "-ffast-math", "-mllvm", "-coalda-stage-read-only", "-mllvm", "-unroll-threshold=10"),
        Path("corpus/hecbench/p-cuda"))
    assert own == ["-O", "2", "-I", "corpus/hecbench/include", "-I", "corpus/hecbench/p-cuda/inc",
                   "-D", "LDIM=32", "-D", "X", "--pass-arg", "-coalda-stage-read-only"]
    assert clang == ["-std=c++17", "-isystem", "corpus/hecbench/p-cuda/sys", "-ffast-math", "-mllvm",
                     "-unroll-threshold=10"]


@pytest.mark.parametrize(("code", "stderr", "status"), [
    (1, "coalda: error: x.cu defines no CUDA kernel (__global__ function): nothing to analyze", "host-only"),
    (1, "x.cu:1:2: error: expected expression\ncoalda: error: clang could not compile x.cu (exit 1)",
     "compile-error"),
    (1, "Traceback (most recent call last):\n  ...\nKeyError: 'x'", "crash"),
    (1, "coalda: error: the COALDA pass failed (exit -6)", "crash"),
    (1, "LLVM ERROR: out of memory\ncoalda: error: the COALDA pass failed (exit -6)", "out-of-memory"),
    (1, "coalda: error: clang flag -x is COALDA's own choice: drop it", "refused"),
    (1, "coalda: error: something odd\nand more", "crash"),
    (-9, "", "crash"),
    (0, "", "crash"),  # no JSON report
])
def test_classify(code: int, stderr: str, status: str) -> None:
    assert cc.classify(code, "", stderr, False)[0] == status


def test_classify_reads_analyzes_log() -> None:
    """`coalda analyze --format json` of one file: a log with its one report."""
    report = {"source": "x.cu", "kernels": []}
    log = json.dumps({"schema_version": 2, "reports": [report]})
    assert cc.classify(0, log, "", False) == ("ok", "", report)
    assert cc.classify(0, json.dumps(report), "", False)[0] == "crash"  # not a log


def test_differences() -> None:
    pinned = {"rewrites": ["a/m.cu:k:copy:1", "a/m.cu:k:window:9", "b/m.cu:k:element:3"],
              "failures": {"crash": [], "over_budget": ["b/m.cu"]}}
    rows = [{"file": "a/m.cu", "status": "ok"}, {"file": "b/m.cu", "status": "ok"}]
    fresh = {"rewrites": ["a/m.cu:k:copy:1", "a/m.cu:k:element:4", "b/m.cu:k:element:3"], "rows": rows,
             "failures": {"crash": [], "over_budget": []}}
    assert cc.differences(pinned, fresh) == ["lost:   a/m.cu:k:window:9", "gained: a/m.cu:k:element:4",
                                             "no longer over budget: b/m.cu"]
    assert cc.differences(fresh, fresh) == []


def test_differences_count_the_accesses_a_rewrite_takes() -> None:
    """The same rewrite set, one more access taken: a difference."""
    def row(n: int) -> dict:
        return {"file": "a/m.cu", "status": "ok", "counts": {"own_uncoalesced_global": {"total": 9, "rewritten": n}}}
    base = {"rewrites": ["a/m.cu:k:window:9"], "failures": {"crash": [], "over_budget": []}}
    pinned, fresh = {**base, "rows": [row(13)]}, {**base, "rows": [row(15)]}
    assert cc.differences(pinned, fresh) == ["own accesses rewritten: a/m.cu 13 -> 15"]
    assert cc.differences(fresh, fresh) == []


def test_update_of_some_programs_keeps_the_others() -> None:
    row = {"kernels": 1, "seconds": 1.0, "peak_mb": 1.0, "over_budget": False, "counts": {}, "status": "ok"}
    pinned = cc.census([{**row, "file": "a/m.cu"}, {**row, "file": "b/m.cu"}],
                       ["a/m.cu:k:copy:1", "b/m.cu:k:copy:2"], 1.0)
    fresh = cc.census([{**row, "file": "b/m.cu", "kernels": 2}], ["b/m.cu:k:window:3"], 2.0)
    both = cc.merged(pinned, fresh, {"b"}, {"a", "b"})
    assert both["rewrites"] == ["a/m.cu:k:copy:1", "b/m.cu:k:window:3"]
    assert both["totals"]["kernels"] == 3
    assert cc.merged(pinned, fresh, {"b"}, {"b"})["rewrites"] == ["b/m.cu:k:window:3"]  # a's recipe is gone
    assert cc.restrict(both, {"a"})["rewrites"] == ["a/m.cu:k:copy:1"]


# ---------------------------------------------------------------- processes

# Run from a fresh interpreter, as the census runs: a job's peak is its
# process's ru_maxrss (wait4), which counts the image it was forked from
# before its exec, so from a test worker holding JIT-compiled modules the
# 300 MB job measured 617 MB.
_RUN_JOBS = """
import dataclasses, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("corpus_census", sys.argv[1])
cc = importlib.util.module_from_spec(spec)
sys.modules["corpus_census"] = cc
spec.loader.exec_module(cc)
cc.TIMEOUT_S = 4.0  # "peak" touching 300 MB took over 1 s on a loaded 2-core machine
jobs = [cc.Job(name, "x.cu", [sys.executable, "-c", code], cc.Path(sys.argv[2])) for name, code in (
    ("slow", "import time; time.sleep(60)"),
    ("hog", "x = bytearray(6 << 30)"),  # over the 4 GB address space
    ("peak", "x = bytearray(300 << 20); x[::4096] = b'1' * len(x[::4096])"),
)]
done = cc.run_all(jobs, 3, show=False)
print(json.dumps({name: dataclasses.asdict(done[(name, "x.cu")]) for name in ("slow", "hog", "peak")}))
"""


def test_timeout_memory_and_peak() -> None:
    run = subprocess.run([sys.executable, "-c", _RUN_JOBS, str(SCRIPT), str(PROGRAM_DIR)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    slow, hog, peak = (cc.Outcome(**o) for o in json.loads(run.stdout).values())
    assert slow.status == "timeout" and 4.0 <= slow.seconds < 30 and cc.over_budget(slow), slow
    assert hog.status == "out-of-memory" and cc.over_budget(hog), hog
    assert peak.status == "crash" and 300 <= peak.peak_mb < 600 and not cc.over_budget(peak), peak


def _script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300)


@pytest.mark.parametrize(("args", "says"), [
    (["--only", "no-such-program"], "no recipe corpus/recipes/no-such-program.toml"),
    (["--check", "README.md"], "cannot read the pinned census"),
    (["--check", "no/such.json"], "cannot read the pinned census"),
])
def test_bad_input_is_one_line(args: list[str], says: str) -> None:
    proc = _script(*args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- the sample

def test_sample_census_matches_the_pinned(tmp_path: Path) -> None:
    pinned = json.loads(PINNED.read_text())
    out = tmp_path / "sample.json"
    proc = _script("--only", ",".join(SAMPLE), "--jobs", "2", "--json", str(out), "--check", str(PINNED))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    fresh = json.loads(out.read_text())
    ours = sorted(e for e in pinned["rewrites"] if e.split("/", 1)[0] in SAMPLE)
    assert fresh["rewrites"] == ours
    rows = fresh["rows"]
    assert {r["file"].split("/", 1)[0] for r in rows} == set(SAMPLE)
    assert not [r["file"] for r in rows if r["status"] == "crash"]
    assert all(r["seconds"] < 60 for r in rows), [(r["file"], r["seconds"]) for r in rows]
    # the variety the sample was chosen for
    assert len({e.split("/", 1)[0] for e in ours}) >= 2, "re-pick SAMPLE: fewer than two programs with rewrites"
    assert any(r["status"] == "host-only" for r in rows), "re-pick SAMPLE: no host-only file"
    assert any(r["status"] == "ok" and not r["counts"].get("rewrites") for r in rows), \
        "re-pick SAMPLE: every analyzed file has a rewrite"


def test_recipe_notes_agree_with_the_pinned_census() -> None:
    """A recipe's note that says what COALDA rewrites in its program must
    say what the pinned census says: four notes still claimed rewrites that
    later cost rules had declined (mandelbrot, michalewicz, nqueen, s8n),
    and dslash's named a make_back window that never was."""
    import tomllib

    census = json.loads(PINNED.read_text())
    rewritten = {entry.split("/", 1)[0] for entry in census["rewrites"]}
    censused = {row["file"].split("/", 1)[0] for row in census["rows"]}
    wrong = []
    for recipe in sorted((REPO / "corpus" / "recipes").glob("*.toml")):
        note = tomllib.loads(recipe.read_text()).get("note", "")
        name = recipe.stem
        if name not in censused:
            continue
        if note.startswith("rewrites:") and name not in rewritten:
            wrong.append(f"{name}: the note names rewrites, the census has none")
        if "nothing rewritten" in note and name in rewritten:
            wrong.append(f"{name}: the note says nothing is rewritten, the census rewrites {name}")
    assert len(censused) > 40 and not wrong, wrong
