"""The corpus driver (scripts/corpus.py, scripts/corpus_gpu.py) without a GPU:
ncu's CSV, the compare rule and its mask, verify/fail, medians and speedups,
the run order, the report's shape and geomean; corpus_gpu.py end to end with
stand-ins for ncu, compute-sanitizer and the programs; and one real build of
matrixT when its recipe exists."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import stat
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


gpu = load("corpus_gpu")
corpus = load("corpus")

# ncu 2025.3.1 on an H200 (its units "ns", thousands separators), and a
# second unit spelling of older releases
NCU_LOG = """\
==WARNING== Note: Running with uncontrolled GPU caches. Profiling results may be inconsistent.
==WARNING== Note: Running with unmodified GPU clocks. If not controlled otherwise, profiling results may be inconsistent.
==PROF== Connected to process 572 (/tmp/corpus/matrixT/plain)
==PROF== Disconnected from process 572
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","31337","coalda","127.0.0.1","_Z14transposeNaivePfPKfii","1","7","(16, 16, 1)","(512, 512, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","501,952"
"1","31337","coalda","127.0.0.1","_Z14transposeNaivePfPKfii","1","7","(16, 16, 1)","(512, 512, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","msecond","1.5"
"2","31337","coalda","127.0.0.1","_Z3mapPfi","1","7","(256, 1, 1)","(79, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","nsecond","4,096"
"""


def test_ncu_csv_sums_each_kernel_in_ms() -> None:
    found = gpu.parse_ncu_csv(NCU_LOG)
    assert set(found) == {"_Z14transposeNaivePfPKfii", "_Z3mapPfi"}
    assert found["_Z14transposeNaivePfPKfii"]["launches"] == 2
    assert found["_Z14transposeNaivePfPKfii"]["ms"] == pytest.approx(0.501952 + 1.5)
    assert found["_Z3mapPfi"] == {"ms": pytest.approx(0.004096), "launches": 1}
    assert gpu.parse_ncu_csv("==PROF== No kernels were profiled.\n") == {}


def test_kernel_regex_matches_only_the_symbols_and_their_variants() -> None:
    regex = gpu.kernel_regex(["_Z3mapPfi", "_Z1kv", "_Z3mapPfi"])
    assert regex == "regex:^(_Z1kv|_Z1kv__coalda_grid|_Z3mapPfi|_Z3mapPfi__coalda_grid)$"


def test_a_reshaped_launch_counts_as_its_kernel() -> None:
    """With -fcoalda-reshape a launch of K may run K__coalda_grid: its time
    and launch are K's."""
    variant = NCU_LOG.replace('"2","31337","coalda","127.0.0.1","_Z3mapPfi"',
                              '"2","31337","coalda","127.0.0.1","_Z3mapPfi__coalda_grid"')
    assert variant != NCU_LOG
    assert gpu.parse_ncu_csv(variant)["_Z3mapPfi"] == {"ms": pytest.approx(0.004096), "launches": 1}


def test_run_order_alternates() -> None:
    assert gpu.run_order(1) == ["plain", "coalda"]
    assert gpu.run_order(3) == ["plain", "coalda", "coalda", "plain", "plain", "coalda"]


def test_mask_and_compare_rules() -> None:
    a = {"stdout": "n = 4\nAverage kernel time: 12.5 (us)\nPASS\n"}
    b = {"stdout": "n = 4\nAverage kernel time: 9.1 (us)\nPASS\n"}
    c = {"stdout": "n = 5\nAverage kernel time: 9.1 (us)\nPASS\n"}
    assert gpu.masked(a["stdout"], gpu.DEFAULT_MASK) == ["n = 4", "PASS"]
    recipe = {"compare": "stdout"}
    assert gpu.runs_equal(a, b, recipe) and not gpu.runs_equal(a, c, recipe)
    assert gpu.runs_equal(a, c, {"compare": "stdout", "mask": "time|n ="})
    assert gpu.runs_equal(a, c, {"compare": "none"})
    files = {"compare": "files"}
    assert gpu.runs_equal({"outputs": {"o.bin": "ab"}}, {"outputs": {"o.bin": "ab"}}, files)
    assert not gpu.runs_equal({"outputs": {"o.bin": "ab"}}, {"outputs": {"o.bin": "cd"}}, files)
    assert not gpu.runs_equal({"outputs": {"o.bin": None}}, {"outputs": {"o.bin": None}}, files)


def test_verify_and_fail() -> None:
    assert gpu.verify_stdout("x\nPASS\n", "PASS", "FAIL")
    assert not gpu.verify_stdout("x\n", "PASS", "")
    assert not gpu.verify_stdout("PASS\n*** copy kernel FAILED ***\n", "PASS", "FAIL")
    assert gpu.verify_stdout("anything\n", "", "")
    assert not gpu.run_verified({"exit": 1, "stdout": "PASS"}, {"verify": "PASS"})


def run(build: str, ms: float, out: str = "PASS\n", code: int = 0) -> dict:
    return {"build": build, "exit": code, "stdout": out, "wall_s": 1.0,
            "kernels": {"_Z1kv": {"ms": ms, "launches": 50}, "_Z1jv": {"ms": 1.0, "launches": 50}}}


def test_summary_medians_and_speedups() -> None:
    runs = [run("plain", 4.0), run("coalda", 2.0), run("coalda", 1.0), run("plain", 6.0),
            run("plain", 5.0), run("coalda", 3.0)]
    s = gpu.summarize(runs, ["_Z1kv", "_Z1jv"], {"verify": "PASS", "compare": "stdout"})
    assert s["kernels"]["_Z1kv"] == {"plain_ms": 5.0, "coalda_ms": 2.0, "speedup": 2.5}
    assert s["kernels"]["_Z1jv"]["speedup"] == 1.0
    assert (s["plain_ms"], s["coalda_ms"], s["speedup"]) == (6.0, 3.0, 2.0)
    assert s["verified"] and s["equal"]
    runs[1] = run("coalda", 2.0, out="PASS\nchecksum 7\n")
    s = gpu.summarize(runs, ["_Z1kv", "_Z1jv"], {"verify": "PASS", "compare": "stdout"})
    assert s["verified"] and not s["equal"]


def test_sanitizer_summary_counts() -> None:
    assert gpu.sanitizer_count("========= ERROR SUMMARY: 0 errors\n", "memcheck") == 0
    assert gpu.sanitizer_count("========= ERROR SUMMARY: 1,024 errors\n", "memcheck") == 1024
    text = "========= RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)\n"
    assert gpu.sanitizer_count(text, "racecheck") == 3
    assert gpu.sanitizer_count("killed\n", "racecheck") is None


def test_analyze_args_and_kinds(tmp_path: Path) -> None:
    args = corpus.analyze_args(["-std=c++17", "-I", "inc", "-I../common", "-DN=4", "-D", "M", "-O2"], tmp_path)
    assert args == ["-I", str(tmp_path / "inc"), "-I", str(tmp_path.parent / "common"), "-D", "N=4",
                    "-D", "M", "-O", "2", "--", "-std=c++17"]
    kernel = {"groups": [{"transformed": True}, {"transformed": False}],
              "stagings": [{"kind": "element", "tile": "warp", "transformed": True},
                           {"kind": "window", "transformed": True}, {"kind": "transposed", "transformed": False}]}
    assert corpus.kernel_kinds(kernel) == ["copy", "element/warp", "window"]
    assert corpus.kernel_kinds({"groups": [{"transformed": False}]}) == []


def test_report_shape_and_geomean() -> None:
    kernels = [{"name": "k", "symbol": "_Z1kv", "kinds": ["copy"]}, {"name": "j", "symbol": "_Z1jv", "kinds": ["window"]}]
    time_run = {"gpu": "NVIDIA H100 80GB HBM3, 570.1", "date": "2026-11-28T08:00:00Z", "phase": "time",
                "command": "python3 scripts/corpus_gpu.py /tmp/corpus", "build": {"commit": "abc"},
                "programs": {"a": {"rewritten_kernels": kernels, "time": {
                    "verified": True, "equal": True, "plain_ms": 6.0, "coalda_ms": 3.0, "speedup": 2.0,
                    "kernels": {"_Z1kv": {"plain_ms": 5.0, "coalda_ms": 2.0, "speedup": 2.5},
                                "_Z1jv": {"plain_ms": 1.0, "coalda_ms": 1.25, "speedup": 0.8}}}},
                             "b": {"rewritten_kernels": [], "time": {"verified": True, "equal": False,
                                                                      "plain_ms": None, "coalda_ms": None,
                                                                      "speedup": None, "kernels": {}}}}}
    san_run = {"phase": "sanitize", "build": {"commit": "abc"}, "programs": {"a": {
        "rewritten_kernels": kernels, "sanitize": {"memcheck": {"count": 0}, "racecheck": {"count": 2}}}}}
    data = corpus.report_data([time_run, san_run], None, "cmd")
    assert list(data) == ["gpu", "date", "command", "commit", "programs", "geomean_speedup_rewritten_kernels"]
    assert (data["gpu"], data["date"], data["commit"]) == ("NVIDIA H100 80GB HBM3", "2026-11-28", "abc")
    a, b = data["programs"]
    assert list(a) == ["name", "rewritten_kernels", "verified", "equal", "plain_ms", "coalda_ms", "speedup",
                       "sanitizer", "rechecked"]
    assert a["rewritten_kernels"][0] == {"name": "k", "symbol": "_Z1kv", "kinds": ["copy"], "plain_ms": 5.0,
                                         "coalda_ms": 2.0, "speedup": 2.5}
    assert a["sanitizer"] == {"memcheck_errors": 0, "racecheck_hazards": 2}
    assert b["sanitizer"] == {"memcheck_errors": None, "racecheck_hazards": None} and b["equal"] is False
    assert data["geomean_speedup_rewritten_kernels"] == pytest.approx(math.sqrt(2.5 * 0.8), abs=1e-4)
    md = corpus.markdown(data)
    assert "Kernels below 0.98x: " in md and "- a: j (0.80x)" in md and "| b | none | yes | **no** |" in md


FAKE_NCU = r"""#!/usr/bin/env python3
import os, re, subprocess, sys
args = sys.argv[1:]
log = args[args.index("--log-file") + 1]
names = re.match(r"regex:\^\((.*)\)\$", args[args.index("--kernel-name") + 1]).group(1).split("|")
cmd = args[args.index("--log-file") + 2:]
plain = cmd[0].endswith("plain")
us = "200" if plain else "100"
rows = ['"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
        '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"']
# each kernel launched twice; in the coalda build, the second launch is
# its grid variant's (a reshaped launch), which the filter must take
kernels = [n for n in names if not n.endswith("__coalda_grid")]
assert all(k + "__coalda_grid" in names for k in kernels), names
launched = kernels + [k if plain else k + "__coalda_grid" for k in kernels]
for i, s in enumerate(launched):
    rows.append(f'"{i}","1","p","h","{s}","1","7","(1, 1, 1)","(1, 1, 1)","0","9.0","Command line profiler metrics",'
                f'"gpu__time_duration.sum","usecond","{us}"')
open(log, "w").write("==PROF== Connected\n" + "\n".join(rows) + "\n")
sys.exit(subprocess.run(cmd).returncode)
"""
FAKE_SANITIZER = r"""#!/usr/bin/env python3
import subprocess, sys
args = sys.argv[1:]
tool = args[args.index("--tool") + 1]
log = args[args.index("--log-file") + 1]
code = subprocess.run(args[args.index("--log-file") + 2:]).returncode
line = "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" if tool == "racecheck" else "ERROR SUMMARY: 0 errors"
open(log, "w").write("========= " + line + "\n")
sys.exit(code)
"""
FAKE_PROGRAM = """#!/bin/sh
test -f input.txt || { echo "no input"; exit 3; }
echo "n = $1"
echo "kernel time: $$ us"
echo PASS
"""


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_gpu_script_end_to_end_with_stand_ins(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    executable(tools / "ncu", FAKE_NCU)
    executable(tools / "compute-sanitizer", FAKE_SANITIZER)
    root = tmp_path / "corpus"
    recipe = {"dir": "x", "sources": ["main.cu"], "args": ["4"], "sanitize_args": ["2"], "verify": "PASS",
              "fail": "FAIL", "compare": "stdout", "setup": "echo data > input.txt"}
    manifest = {"commit": "abc", "plugin_sha256": "0", "programs": {}}
    for name, kernels in (("fast", [{"name": "k", "symbol": "_Z1kv", "kinds": ["copy"]}]), ("none", [])):
        (root / name / "src").mkdir(parents=True)
        for build in ("plain", "coalda"):
            executable(root / name / build, FAKE_PROGRAM)
        manifest["programs"][name] = {"built": True, "recipe": recipe, "rewritten_kernels": kernels}
    (root / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "run.json"
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "corpus_gpu.py"), str(root), "--repeat", "2",
                           "--phase", "all", "--keep-logs", str(tmp_path / "logs"), "--out", str(out)], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("fast ") >= 4 and "fast racecheck: exit 0, 0 hazards" in proc.stdout
    assert "_Z1kv" in (tmp_path / "logs" / "fast-1-plain.ncu.csv").read_text()
    assert "0 hazards" in (tmp_path / "logs" / "fast-racecheck.log").read_text()
    result = json.loads(out.read_text())
    fast = result["programs"]["fast"]
    assert fast["time"]["order"] == ["plain", "coalda", "coalda", "plain"]
    assert fast["time"]["kernels"]["_Z1kv"] == {"plain_ms": 0.4, "coalda_ms": 0.2, "speedup": 2.0}
    assert fast["time"]["verified"] and fast["time"]["equal"]
    assert fast["time"]["runs"][0]["stdout"].startswith("n = 4\n") and fast["time"]["runs"][0]["stdout_lines"] == 3
    assert fast["sanitize"]["memcheck"]["count"] == 0 and fast["sanitize"]["racecheck"]["count"] == 0
    none = result["programs"]["none"]
    assert none["time"]["order"] == ["plain", "coalda"] and "sanitize" not in none
    assert none["time"]["verified"] and none["time"]["plain_ms"] is None
    docs = tmp_path / "docs"
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "corpus.py"), "report", str(out),
                           "--gpu", "NVIDIA H200", "--docs", str(docs)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    report = json.loads((docs / "programs" / "results.json").read_text())
    assert report["gpu"] == "NVIDIA H200" and report["geomean_speedup_rewritten_kernels"] == 2.0
    assert "Kernels below 0.98x: none." in (docs / "programs.md").read_text()


def test_gpu_script_refuses_bad_input(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "corpus_gpu.py"), str(tmp_path),
                           "--out", str(tmp_path / "r.json")], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "manifest.json not found" in proc.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "corpus.py"), "report", str(bad),
                           "--docs", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "not a readable run JSON" in proc.stderr
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "corpus.py"), "launches",
                           "--corpus", str(tmp_path)], capture_output=True, text=True)
    said = f"corpus: error: no recipes in {tmp_path / 'recipes'}\n"
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr == said


@pytest.mark.skipif(not (REPO / "corpus" / "recipes" / "matrixT.toml").is_file(), reason="no matrixT recipe yet")
def test_build_matrixT_names_its_transpose(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "corpus.py"), "build", "--only", "matrixT",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    entry = json.loads((out / "manifest.json").read_text())["programs"]["matrixT"]
    assert entry["built"] and (out / "matrixT" / "coalda").is_file() and (out / "matrixT" / "plain").is_file()
    assert (out / "matrixT" / "src" / "main.cu").is_file() and (out / "lib" / "libcudart.so.12").is_file()
    naive = [k for k in entry["rewritten_kernels"] if k["name"] == "transposeNaive"]
    assert naive and naive[0]["symbol"] == "_Z14transposeNaivePfPKfii"
    assert "transposed/block" in naive[0]["kinds"]
    assert (tmp_path / "corpus.tar.gz").is_file()


def test_only_keeps_the_other_built_programs(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps({"programs": {
        "kept": {"built": True}, "no-recipe": {"built": True}, "no-dir": {"built": True}, "redo": {"built": True}}}))
    for name in ("kept", "no-recipe", "redo"):
        (tmp_path / name).mkdir()
    merged = corpus.merged_programs(tmp_path, {"kept", "no-dir", "redo"}, {"redo", "broken"},
                                    {"redo": {"built": False}})
    assert merged == {"kept": {"built": True}, "redo": {"built": False}}


def test_shards_deal_the_timed_programs_evenly() -> None:
    names = ["a", "b", "c", "d", "e", "f"]
    parts = [gpu.shard(names, {"e", "f"}, f"{k}/2") for k in (1, 2)]
    assert parts == [["a", "c", "e"], ["b", "d", "f"]]
    assert gpu.shard(names, set(), "1/1") == names
    with pytest.raises(ValueError):
        gpu.shard(names, set(), "3/2")


def test_report_rechecks_recorded_outputs_with_the_current_recipe(tmp_path: Path) -> None:
    """A recipe's regex fixed after the GPU run: the recorded outputs, whole,
    are verified again with it; a run whose stdout was cut is left as it was."""
    corpus_dir = tmp_path / "corpus"
    (corpus_dir / "recipes").mkdir(parents=True)
    (corpus_dir / "prog").mkdir()
    (corpus_dir / "recipes" / "p.toml").write_text(
        'dir = "prog"\nsources = ["a.cu"]\nargs = []\nverify = "^Success$"\ncompare = "stdout"\n')
    out = "Success\nTotal time 3 ms\n"
    runs = [{"build": b, "exit": 0, "stdout": out, "stdout_lines": 2} for b in ("plain", "coalda")]
    timed = {"verified": False, "equal": True, "runs": runs}
    again = corpus.rechecked("p", timed, corpus_dir)
    assert again["rechecked"] and again["verified"] and again["equal"]
    cut = [{**r, "stdout_lines": 500} for r in runs]
    kept = corpus.rechecked("p", {**timed, "runs": cut}, corpus_dir)
    assert not kept["rechecked"] and kept["verified"] is False


def test_gpu_script_sanitizes_with_the_tools_asked(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    executable(tools / "compute-sanitizer", FAKE_SANITIZER)
    root = tmp_path / "corpus"
    recipe = {"dir": "x", "sources": ["main.cu"], "args": ["4"], "sanitize_args": ["2"], "verify": "PASS",
              "compare": "stdout", "setup": "echo data > input.txt"}
    (root / "p" / "src").mkdir(parents=True)
    executable(root / "p" / "coalda", FAKE_PROGRAM)
    kernels = [{"name": "k", "symbol": "_Z1kv", "kinds": ["copy"]}]
    (root / "manifest.json").write_text(json.dumps(
        {"commit": "abc", "programs": {"p": {"built": True, "recipe": recipe, "rewritten_kernels": kernels}}}))
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    script = [sys.executable, str(REPO / "scripts" / "corpus_gpu.py"), str(root), "--phase", "sanitize"]
    out = tmp_path / "run.json"
    proc = subprocess.run([*script, "--tools", "memcheck,synccheck", "--out", str(out)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    sanitized = json.loads(out.read_text())["programs"]["p"]["sanitize"]
    assert sorted(sanitized) == ["memcheck", "synccheck"]
    assert sanitized["synccheck"] == {"exit": 0, "count": 0, "wall_s": sanitized["synccheck"]["wall_s"],
                                      "verified": True}
    proc = subprocess.run([*script, "--tools", "memcheck,initcheck", "--out", str(out)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "not 'memcheck,initcheck'" in proc.stderr
