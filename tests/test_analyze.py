"""`coalda analyze` on programs in the style of well-known CUDA benchmarks:
the findings (file:line, stride, verdict) are pinned."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import TESTCASES, run_cli

ANALYSIS = TESTCASES / "analysis"

# (kernel, file, line, kind, stride, coalesced); stride None = run-time value.
EXPECTED = {
    "particles.cu": {
        ("weigh", "particles.h", 14, "load", 16, False),  # p[i].weight, in the header
        ("weigh", "particles.h", 14, "load", 16, False),  # p[i].x
        ("weigh", "particles.cu", 8, "store", 4, True),
        ("kinetic", "particles.cu", 14, "load", 32, False),  # b[i].mass
        ("kinetic", "particles.cu", 14, "load", 8, True),
        ("kinetic", "particles.cu", 14, "store", 8, True),
    },
    "columns.cu": {
        ("fan1", "columns.cu", 7, "load", None, False),  # a[Size*(tid+t+1)+t]
        ("fan1", "columns.cu", 7, "load", 0, True),  # a[Size*t+t]: the same for all threads
        ("fan1", "columns.cu", 7, "store", None, False),
        ("invert_mapping", "columns.cu", 14, "load", None, False),  # input[point*nfeatures+i]
        ("invert_mapping", "columns.cu", 14, "store", 4, True),  # output[point+npoints*i]
    },
    "chunks.cu": {("scale_chunks", "chunks.cu", 9, kind, 32, False) for kind in ("load", "store")},
    "stencil.cu": {
        ("smooth", "stencil.cu", 6, "load", 4, True),  # in[i-1], in[i], in[i+1]: shifted, coalesced
        ("smooth", "stencil.cu", 6, "store", 4, True),
    },
}


def analyze(path: Path, *args: str) -> dict:
    proc = run_cli("analyze", path, "--json", *args)
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)["reports"]
    return report


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_findings_are_pinned(name: str) -> None:
    report = analyze(ANALYSIS / name)
    found = {
        (k["name"], Path(a["file"]).name, a["line"], a["kind"], a["stride"], a["coalesced"])
        for k in report["kernels"]
        for a in k["accesses"]
    }
    assert found == EXPECTED[name]
    for kernel in report["kernels"]:
        for access in kernel["accesses"]:
            assert access["column"] > 0
        # none of these programs holds a copy that optimize would rewrite
        assert not any(g["transformed"] for g in kernel["groups"])


def test_header_locations_point_at_the_access() -> None:
    report = analyze(ANALYSIS / "particles.cu")
    [weigh] = [k for k in report["kernels"] if k["name"] == "weigh"]
    header = (ANALYSIS / "particles.h").read_text().splitlines()
    cols = sorted(a["column"] for a in weigh["accesses"] if a["file"].endswith("particles.h"))
    line = header[13]
    # clang locates a member access at the member's name
    assert line[cols[0] - 1 :].startswith("weight * p[i].x") and line[cols[1] - 1 :].startswith("x;")


def test_analyze_at_O0_inlines_forceinline_helpers() -> None:
    report = analyze(ANALYSIS / "particles.cu", "-O", "0")
    files = {Path(a["file"]).name for k in report["kernels"] for a in k["accesses"]}
    assert "particles.h" in files


def test_analyze_table_names_header_lines() -> None:
    proc = run_cli("analyze", ANALYSIS / "particles.cu")
    assert proc.returncode == 0 and "particles.h:14" in proc.stdout


FINDINGS = """
__global__ void gather(float *out, const float *in, const int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}
__global__ void walk(float *out, const float *in, int n, int stride) {
  const float *p = in + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    out[threadIdx.x * n + k] = *p;
    p += stride;
  }
}
struct Pixel { unsigned char r, g, b; };
__global__ void rows(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  for (int k = 0; k < n; ++k) {
    int i = k * gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x;
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}
"""


def test_findings_classes_reasons_lines_and_merged_rows(tmp_path: Path) -> None:
    """An unreadable access is `unknown` (not uncoalesced) with a precise
    reason; at -O3 every access keeps a source line; the table shows one
    row per source access, an unrolled loop's copies merged with a count."""
    source = tmp_path / "findings.cu"
    source.write_text(FINDINGS)
    report = analyze(source)
    by_kernel = {k["name"]: k["accesses"] for k in report["kernels"]}
    gather = {(a["kind"], a["class"]) for a in by_kernel["gather"]}
    assert ("load", "unknown") in gather and ("store", "coalesced") in gather
    [load] = [a for a in by_kernel["gather"] if a["class"] == "unknown"]
    assert load["reason"].startswith("data-dependent index")
    stepped = [a for a in by_kernel["walk"] if a["class"] == "unknown"]
    assert stepped and all("chosen at run time among" in a["reason"] for a in stepped)
    assert all(a["line"] > 0 for accesses in by_kernel.values() for a in accesses)
    # -O3 unrolls `rows` by 4 plus a remainder: several IR stores per source store
    stores = [a for a in by_kernel["rows"] if a["kind"] == "store"]
    assert len(stores) > 3
    table = run_cli("analyze", source).stdout
    assert "store 1B ×" in table


FAN2 = """\
__global__ void Fan2(float *m, float *a, float *b, int Size, int j1, int t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= Size - 1 - t) return;
  if (y >= Size - t) return;
  a[Size * (x + 1 + t) + (y + t)] -= m[Size * (x + 1 + t) + t] * a[Size * t + (y + t)];
}
"""


def test_uncoalesced_accesses_say_why_no_rewrite_takes_them(tmp_path: Path) -> None:
    """The report's `shape` of an uncoalesced access, and the reason it gives
    when no rewrite takes it: Gaussian elimination's column walks (Fan1 in
    1-D; Fan2's read-modify-written column of a 2-D block, which is
    permuted, and its 1-D column of m, which is not) and k-means' run-time
    chunk."""
    [report] = json.loads(run_cli("analyze", TESTCASES / "analysis" / "columns.cu", "--format", "json").stdout)["reports"]
    shapes = {(k["name"], a["kind"], a.get("shape")) for k in report["kernels"] for a in k["accesses"]
              if a["class"] == "uncoalesced"}
    assert shapes == {("fan1", "load", "column"), ("fan1", "store", "column"), ("invert_mapping", "load", "chunk")}
    text = run_cli("analyze", TESTCASES / "analysis" / "columns.cu", "--format", "text").stdout
    notes = [line for line in text.splitlines() if ": note: " in line]
    assert len(notes) == 3 and not any("not a pure copy" in n for n in notes)  # the computed store too
    assert sum("(a matrix column)" in n for n in notes) == 2
    # the run-time chunk's load is read through a window (analyze says what
    # optimize does)
    assert sum("COALDA stages it (coalda optimize): staged through a shared-memory window (32 B per thread"
               in n for n in notes) == 1
    source = tmp_path / "fan2.cu"
    source.write_text(FAN2)
    [fan2] = json.loads(run_cli("analyze", source, "--format", "json").stdout)["reports"]
    got = {(a["kind"], a["column"], a.get("shape")) for a in fan2["kernels"][0]["accesses"] if a["class"] == "uncoalesced"}
    assert got == {("load", 35, "transposed"), ("store", 35, "transposed"), ("load", 38, "column")}
    text = run_cli("analyze", source, "--format", "text").stdout
    # the read-modify-written column is permuted; the 1-D column of m is not
    notes = [line for line in text.splitlines() if ": note: " in line]
    assert sum("COALDA stages it (coalda optimize): transposed through a shared tile" in n for n in notes) == 2
    assert sum("(a matrix column)" in n for n in notes) == 1


def test_findings_name_source_values_never_ir() -> None:
    """Over every testcase, analysis program and adversarial corpus: the
    addresses and the reasons name what the source names (parameters,
    variables, `load(shift)`, `~tid.y`, `a store to count at line 9:5`),
    never an IR value (`%21`, `arg0`) or a printed instruction."""
    sources = sorted([*TESTCASES.glob("*.cu"), *ANALYSIS.glob("*.cu"), *(TESTCASES / "adversarial").glob("*.cu")])
    reports = json.loads(run_cli("analyze", *sources, "--format", "json", "-q").stdout)["reports"]
    assert len(reports) == len(sources)
    ir = re.compile(r"%[\w.]|\barg\d|\b(i8|i16|i32|i64|ptr) |, align \d")
    texts = [a["expr"] for r in reports for k in r["kernels"] for a in k["accesses"]]
    texts += [g.get("reason", "") + g.get("expr", "") for r in reports for k in r["kernels"]
              for g in k["groups"] + k.get("stagings", [])]
    assert [t for t in texts if ir.search(t)] == []
    # what the printed instructions became
    reasons = {g["reason"] for r in reports for k in r["kernels"] for g in k["groups"] + k.get("stagings", [])}
    assert any(re.search(r"\(a load of \w+ at line \d+:\d+\)", t) for t in reasons)
    assert any("__syncthreads() at line" in t for t in reasons)


def test_run_time_strides_are_named_as_in_the_source() -> None:
    """A run-time lane stride is shown by the variables that make it
    (`(4*nfeatures)*gid`), and loop copies of a variable (-O3's `i.022.epil`,
    `k.018.unr`) by the variable's name."""
    proc = run_cli("analyze", ANALYSIS / "columns.cu", "--format", "json")
    assert proc.returncode in (0, 3), proc.stderr
    accesses = {(k["name"], a["kind"]): a for k in json.loads(proc.stdout)["reports"][0]["kernels"] for a in k["accesses"]
                if a["stride"] is None and a.get("lane") not in ("none", "unknown")}
    assert accesses[("invert_mapping", "load")]["stride_expr"] == "4*nfeatures", accesses[("invert_mapping", "load")]
    table = run_cli("analyze", TESTCASES / "staging.cu")
    assert "(4*nfeatures)*gid" in table.stdout and "n*gid" not in table.stdout, table.stdout
    text = run_cli("analyze", TESTCASES / "staging.cu", "--format", "text").stdout
    # chunk_sum's load, wherever the kernel sits in the file
    source = (TESTCASES / "staging.cu").read_text().splitlines()
    line_no = next(n for n, line in enumerate(source, 1) if "s += in[(size_t)i * len + k]" in line)
    in_chunk_sum = [line for line in text.splitlines() if f"staging.cu:{line_no}:" in line and "warning" in line]
    assert in_chunk_sum and all(re.search(r"\biter\(k\) \+ 4\*k\)", line) for line in in_chunk_sum), in_chunk_sum
